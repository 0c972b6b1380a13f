"""The server's storage: games, seats and command logs through SQLAlchemy (SQLite or PostgreSQL).

A game row holds the scenario text, readings, the seed (revealed only when the game ends), the
seed's commitment, the state version and a snapshot of the latest state and dice positions, so
loading a game never replays it. Each command is one row (the command, its events and its undo
step) written in the same transaction as the game row's new version and snapshot: a command the
server acknowledged is committed, and of two submissions made against one version exactly one
updates the row (the other finds the version moved and is refused).

SQLite runs in WAL mode with ``synchronous=NORMAL`` by default: a commit is in the WAL file
before the server answers, so an acknowledged command survives a ``kill -9`` of the server
(though not a power loss of the machine); ``Store(url, fsync=True)`` (``grognard serve
--fsync``) also flushes every commit to the disk, one flush per command. SQLite's checkpoints
(copying the WAL back into the database file, with its disk flushes) run in a thread of their
own every few hundred commits, not inside a command's commit.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine

from grognard.core.errors import GrognardError

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("scenario_id", String(200), nullable=False),
    Column("title", String(400), nullable=False, default=""),
    Column("scenario_text", Text, nullable=False),
    Column("readings", Text, nullable=False),
    Column("seed", String(40), nullable=False),
    Column("nonce", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("mode", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    Column("state", Text, nullable=False),
    Column("dice", Text, nullable=False),
    Column("summary", Text, nullable=False, default="{}"),
    Column("over", Boolean, nullable=False, default=False),
    Column("created", DateTime, nullable=False),
)

seats = Table(
    "seats", metadata,
    Column("token", String(64), primary_key=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False, index=True),
    Column("player", String(64), nullable=False),
)

commands = Table(
    "commands", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("command", Text, nullable=False),
    Column("events", Text, nullable=False),
    Column("step", Text, nullable=False),
    Column("state_hash", String(64), nullable=False),
)

# What the server told each seat of each command (its log entry and ledger), kept so that a
# restarted server answers a history without walking the game again; ``seen`` is the digest of
# the command and of the events the entry was told from (a row whose digest no longer matches
# is told again). n = -1 holds the ledger at the start.
_logs = logs = Table(
    "logs", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("entry", Text, nullable=False),
    Column("seen", String(64), nullable=False),
    Column("ledger", Text, nullable=False),
    Column("changes", Text, nullable=False, default="[]"),
)

# The state after every few commands (server/service.py KEEP_EVERY), kept for the walks that
# tell a history or show a VCR position: they fold forward from the nearest one.
positions = Table(
    "positions", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("state", Text, nullable=False),
)

#: A kept log entry: n, the entry (JSON), the digest of what it was told from, the ledger after
#: it (JSON) and what the seat saw change (JSON list of lines).
LogRow = tuple[int, str, str, str, str]


class StoreError(GrognardError):
    """The database cannot be used (bad URL, unreachable server): names the URL."""


class StaleVersion(GrognardError):
    """A command or undo was made against a version of the game that is no longer current."""


@dataclass(frozen=True, slots=True)
class GameRow:
    id: str
    scenario_id: str
    title: str
    scenario_text: str
    readings: dict[str, Any]
    seed: int
    nonce: str
    commitment: str
    mode: str
    version: int
    state: str
    dice: str
    summary: dict[str, Any]
    over: bool
    created: datetime


@dataclass(frozen=True, slots=True)
class CommandRow:
    n: int
    command: dict[str, Any]
    events: list[dict[str, Any]]
    step: dict[str, Any]
    state_hash: str


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sqlite_path(url: str) -> Path | None:
    """The file of a ``sqlite:///PATH`` URL (None: in memory)."""
    rest = url.split("://", 1)[1] if "://" in url else ""
    if not rest.startswith("/") or rest in ("/", "/:memory:"):
        return None
    path = rest[1:].split("?", 1)[0]
    return Path(path) if path and path != ":memory:" else None


def private_sqlite_file(url: str) -> None:
    """Create a new SQLite database file readable by its owner only (0600) before SQLite opens
    it: its write-ahead log and shared-memory files take the same mode (SQLite gives them the
    database file's), so no other local user reads a game's seed or a seat's token."""
    path = sqlite_path(url)
    if path is None or path.exists():
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    except OSError as exc:
        raise StoreError(f"database {url}: cannot create {path}: {exc.strerror}") from None
    os.close(fd)


class Store:
    """All games of one server, in one database (``url`` as SQLAlchemy takes it)."""

    def __init__(self, url: str, *, fsync: bool = False) -> None:
        self.url = url
        self.fsync = fsync
        self.sqlite = url.startswith("sqlite")
        self._commits = 0
        self._checkpointing = threading.Lock()
        try:
            if url.startswith("sqlite"):
                private_sqlite_file(url)
                self.engine: Engine = create_engine(
                    url, connect_args={"check_same_thread": False, "timeout": 30})

                @event.listens_for(self.engine, "connect")
                def _pragmas(dbapi_conn: Any, _rec: Any) -> None:
                    cur = dbapi_conn.cursor()
                    cur.execute("PRAGMA journal_mode=WAL")
                    # WAL + NORMAL: a commit is in the WAL file before it is acknowledged, so
                    # it survives any crash of the server process (kill -9); FULL also
                    # fsyncs each commit (survives a power loss, one disk flush per command)
                    cur.execute(f"PRAGMA synchronous={'FULL' if fsync else 'NORMAL'}")
                    # no checkpoint inside a command's commit: see _committed
                    cur.execute("PRAGMA wal_autocheckpoint=0")
                    cur.execute("PRAGMA foreign_keys=ON")
                    cur.close()
            else:
                if url.startswith("postgresql://"):
                    url = "postgresql+psycopg://" + url[len("postgresql://"):]
                self.engine = create_engine(url, pool_size=10, max_overflow=20,
                                            pool_pre_ping=True)
            metadata.create_all(self.engine)
        except GrognardError:
            raise
        except Exception as exc:
            raise StoreError(f"database {url}: {str(exc).splitlines()[0]}") from None

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    def dispose(self) -> None:
        self.engine.dispose()

    def _committed(self) -> None:
        """After a command's commit: every CHECKPOINT_EVERY commits, a thread copies SQLite's
        WAL back into the database file (a passive checkpoint: writers go on meanwhile), so
        no command waits for the checkpoint's disk flushes."""
        if not self.sqlite:
            return
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY == 0 and not self._checkpointing.locked():
            threading.Thread(target=self.checkpoint, daemon=True,
                             name="grognard-checkpoint").start()

    def checkpoint(self) -> None:
        """Copy the WAL back into the SQLite file (PASSIVE: never blocks a writer)."""
        if not self.sqlite or not self._checkpointing.acquire(blocking=False):
            return
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:  # the next checkpoint (or SQLite on closing) does it
            pass
        finally:
            self._checkpointing.release()

    # --- games -----------------------------------------------------------------------------
    def create_game(self, row: dict[str, Any], tokens: dict[str, str]) -> None:
        with self.begin() as conn:
            conn.execute(insert(games).values(
                **{**row, "readings": _dumps(row["readings"]), "seed": str(row["seed"]),
                   "summary": _dumps(row["summary"]), "created": datetime.now(UTC)}))
            for token, player in tokens.items():
                conn.execute(insert(seats).values(token=token, game_id=row["id"], player=player))

    def game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
        return None if r is None else self._game_row(r)

    def version(self, game_id: str) -> int | None:
        with self.engine.connect() as conn:
            v = conn.execute(select(games.c.version).where(games.c.id == game_id)).scalar()
        return None if v is None else int(v)

    @staticmethod
    def _game_row(r: Any) -> GameRow:
        return GameRow(
            id=r["id"], scenario_id=r["scenario_id"], title=r["title"],
            scenario_text=r["scenario_text"], readings=json.loads(r["readings"]),
            seed=int(r["seed"]), nonce=r["nonce"], commitment=r["commitment"], mode=r["mode"],
            version=int(r["version"]), state=r["state"], dice=r["dice"],
            summary=json.loads(r["summary"]), over=bool(r["over"]), created=r["created"])

    def list_games(self, limit: int = 200) -> list[dict[str, Any]]:
        cols = [games.c.id, games.c.scenario_id, games.c.title, games.c.mode, games.c.version,
                games.c.summary, games.c.over, games.c.created, games.c.commitment]
        with self.engine.connect() as conn:
            rows = conn.execute(select(*cols).order_by(games.c.created.desc()).limit(limit)
                                ).mappings().all()
        return [dict(r, summary=json.loads(r["summary"])) for r in rows]

    def seat(self, token: str) -> tuple[str, str] | None:
        """(game id, player) of a seat token ("*" for a hotseat token)."""
        with self.engine.connect() as conn:
            r = conn.execute(select(seats.c.game_id, seats.c.player)
                             .where(seats.c.token == token)).first()
        return None if r is None else (str(r[0]), str(r[1]))

    def commands(self, game_id: str, start: int = 0) -> list[CommandRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(commands).where(commands.c.game_id == game_id,
                                                       commands.c.n >= start)
                                .order_by(commands.c.n)).mappings().all()
        return [CommandRow(int(r["n"]), json.loads(r["command"]), json.loads(r["events"]),
                           json.loads(r["step"]), r["state_hash"]) for r in rows]

    # --- what the histories keep (a cache: a failed write is dropped) ---------------------------
    def log_rows(self, game_id: str, player: str) -> list[LogRow]:
        """(n, entry, seen, ledger, changes) of ``player``'s kept log of ``game_id``, by n."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(logs.c.n, logs.c.entry, logs.c.seen, logs.c.ledger,
                                       logs.c.changes)
                                .where(logs.c.game_id == game_id, logs.c.player == player)
                                .order_by(logs.c.n)).all()
        return [(int(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4])) for r in rows]

    def keep_log(self, game_id: str, player: str, start: int, rows: Sequence[LogRow]) -> None:
        """Replace ``player``'s kept log from entry ``start`` on with ``rows``."""
        try:
            with self.begin() as conn:
                conn.execute(delete(logs).where(logs.c.game_id == game_id,
                                                logs.c.player == player, logs.c.n >= start))
                if rows:
                    conn.execute(insert(logs), [
                        {"game_id": game_id, "player": player, "n": n, "entry": e,
                         "seen": seen, "ledger": ledger, "changes": changes}
                        for n, e, seen, ledger, changes in rows])
        except Exception:  # another process kept the same rows first: theirs are as good
            pass

    def kept_positions(self, game_id: str) -> dict[int, str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(positions.c.n, positions.c.state)
                                .where(positions.c.game_id == game_id)).all()
        return {int(r[0]): str(r[1]) for r in rows}

    def keep_position(self, game_id: str, n: int, state: str) -> None:
        try:
            with self.begin() as conn:
                conn.execute(delete(positions).where(positions.c.game_id == game_id,
                                                     positions.c.n == n))
                conn.execute(insert(positions).values(game_id=game_id, n=n, state=state))
        except Exception:  # a cache: another process kept it first
            pass

    # --- one transaction per command ---------------------------------------------------------
    def append(self, game_id: str, version: int, n: int, command: dict[str, Any],
               events: Sequence[dict[str, Any]], step: dict[str, Any], state_hash: str,
               state: str, dice: str, summary: dict[str, Any], over: bool, *,
               logs: Sequence[tuple[str, LogRow]] = (),
               position: str | None = None) -> None:
        """Record command ``n`` and the new snapshot, if the game is still at ``version``;
        with each seat's log entry of it (``logs``: player, :data:`LogRow`) and the
        state after it to keep (``position``)."""
        with self.begin() as conn:
            _advance(conn, game_id, version, state, dice, summary, over)
            conn.execute(_INSERT_COMMAND, {
                "game_id": game_id, "n": n, "command": _dumps(command),
                "events": _dumps(list(events)), "step": _dumps(step), "state_hash": state_hash})
            if logs:
                conn.execute(delete(_logs).where(_logs.c.game_id == game_id,
                                                 _logs.c.n >= n))
                conn.execute(insert(_logs), [
                    {"game_id": game_id, "player": p, "n": i, "entry": e, "seen": seen,
                     "ledger": ledger, "changes": changes}
                    for p, (i, e, seen, ledger, changes) in logs])
            if position is not None:
                conn.execute(delete(positions).where(positions.c.game_id == game_id,
                                                     positions.c.n >= n + 1))
                conn.execute(insert(positions).values(game_id=game_id, n=n + 1,
                                                      state=position))
        self._committed()

    def truncate(self, game_id: str, version: int, n: int, state: str, dice: str,
                 summary: dict[str, Any], over: bool) -> None:
        """Undo: drop commands from ``n`` on and store the earlier snapshot, if at ``version``."""
        with self.begin() as conn:
            _advance(conn, game_id, version, state, dice, summary, over)
            conn.execute(delete(commands).where(commands.c.game_id == game_id,
                                                commands.c.n >= n))
            conn.execute(delete(logs).where(logs.c.game_id == game_id, logs.c.n >= n))
            conn.execute(delete(positions).where(positions.c.game_id == game_id,
                                                 positions.c.n > n))
        self._committed()


CHECKPOINT_EVERY = 200  # commits between two SQLite checkpoints (each writes ~10 KB of WAL)

# The statements of every command, built once (SQLAlchemy compiles them once, not per command).
_ADVANCE = (update(games)
            .where(games.c.id == bindparam("gid"), games.c.version == bindparam("old"))
            .values(version=bindparam("new"), state=bindparam("state"),
                    dice=bindparam("dice"), summary=bindparam("summary"),
                    over=bindparam("over")))
_INSERT_COMMAND = insert(commands)


def _advance(conn: Connection, game_id: str, version: int, state: str, dice: str,
             summary: dict[str, Any], over: bool) -> None:
    """Move the game row from ``version`` to the next with the new snapshot, or raise
    :class:`StaleVersion` if another transaction moved it first."""
    moved = conn.execute(_ADVANCE, {"gid": game_id, "old": version, "new": version + 1,
                                    "state": state, "dice": dice, "summary": _dumps(summary),
                                    "over": over}).rowcount
    if moved != 1:
        raise StaleVersion(f"game {game_id} is no longer at version {version}")
