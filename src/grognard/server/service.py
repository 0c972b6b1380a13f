"""The referee behind the web: games in the store, seats, per-seat views, commands and undo.

Every answer a seat gets is built from that seat's view (``Game.view(player)``): its status
holds only its own prompt and decisions, never the state hash or the seed before the game ends,
and its log is told from the differences between consecutive views of that seat.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from msgspec import json as msgjson

from grognard.core.errors import GrognardError, InputError
from grognard.engine.commands import Command
from grognard.engine.events import Event
from grognard.engine.game import Game, Step
from grognard.engine.save import make_command
from grognard.engine.scenario import Scenario, load_scenario, parse_scenario, shipped_scenarios
from grognard.engine.state import JSON
from grognard.server.dice import commitment, new_seed, signed_save
from grognard.server.odds import odds_of
from grognard.server.present import entry, public_order, roll_lines, units_of, why_stuck
from grognard.server.store import LogRow, StaleVersion, Store

HOTSEAT = "*"
MODES = ("seats", "hotseat")
SCENARIOS_KEPT = 4  # shipped scenarios kept loaded for new games (big maps take seconds)
#: A posted scenario (POST /api/games with ``text``): at most this many characters of TOML and
#: this many hexes (the largest shipped map has 4,161), so its play page stays a few MB.
MAX_POSTED_TEXT = 512 * 1024
MAX_POSTED_HEXES = 8_000


class NotFound(GrognardError):
    """No game or seat with that id or token."""


class Forbidden(GrognardError):
    """A seat tried to act or see for another seat."""


@dataclass
class Loaded:
    """A game held in memory at one stored version."""

    game: Game
    version: int
    row_id: str
    mode: str
    nonce: str
    commitment: str
    title: str
    lock: threading.RLock
    # what was built for this version (legal lists, views), dropped when the version moves
    memo: dict[tuple[str, str], Any] = field(default_factory=dict)
    # each player's log so far (extended command by command, cut back by an undo)
    logs: dict[str, _Log] = field(default_factory=dict)
    # the state (JSON text) after every KEEP_EVERY-th command, kept by the walks (_Walk)
    kept: dict[int, bytes] = field(default_factory=dict)
    kept_read: bool = False
    store: Store | None = None

    def advance(self) -> None:
        """The game moved to the next version (a command or an undo)."""
        self.version += 1
        self.memo.clear()
        n = len(self.game.commands)
        for log in self.logs.values():
            log.cut(n)
        for k in [k for k in self.kept if k > n]:
            del self.kept[k]

    def memoised(self, key: tuple[str, str], make: Any) -> Any:
        """``make()`` once for this version of the game."""
        if key not in self.memo:
            self.memo[key] = make()
        return self.memo[key]


@dataclass
class _Log:
    """One player's log entries (and ledgers) of the first ``len(entries)`` commands, each
    with the events the entry was told from; ``last`` is the player's view after them."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)  # digests (:func:`_digest`)
    changes: list[list[str]] = field(default_factory=list)  # :func:`seen_changes` of each
    ledgers: list[dict[str, str]] = field(default_factory=list)
    last: JSON | None = None
    read: bool = False  # the rows the store keeps were read

    def cut(self, n: int) -> None:
        """Keep the entries of the first ``n`` commands (an undo took the rest back)."""
        if len(self.entries) > n:
            del self.entries[n:], self.seen[n:], self.changes[n:], self.ledgers[n + 1:]
            self.last = None


#: The walks keep the state after every this many commands (a VCR step folds at most this many).
KEEP_EVERY = 32


def _copy(value: JSON) -> JSON:
    """A deep copy of JSON data."""
    copied: JSON = msgjson.decode(msgjson.encode(value))
    return copied


def _row(log: _Log, i: int) -> LogRow:
    """Entry ``i`` of ``log`` as the store keeps it."""
    return (i, json.dumps(log.entries[i]), log.seen[i], json.dumps(log.ledgers[i + 1]),
            json.dumps(log.changes[i]))


def _digest(cmd: Command, seen: list[dict[str, Any]]) -> str:
    """What a log entry was told from: the command and the events as the seat saw them."""
    return hashlib.sha256(msgjson.encode([cmd.to_json(), seen], order="sorted")).hexdigest()


class _Walk:
    """The positions of a game walked forward once: ``state_at(i)`` for increasing ``i``
    folds each command's recorded events once (no dice), from the nearest state the game
    keeps (``Loaded.kept``, the start, or the live state at the end); it keeps the state
    after every :data:`KEEP_EVERY` commands for the next walk."""

    def __init__(self, loaded: Loaded, start: int) -> None:
        self.loaded = loaded
        self.game = loaded.game
        self.start = start
        self.i = -1  # not started: the first state_at reads the nearest kept state
        self.state: JSON = {}

    def _from(self, start: int) -> None:
        kept = self.loaded.kept
        if self.loaded.store is not None and not self.loaded.kept_read:
            self.loaded.kept_read = True
            for k, text in self.loaded.store.kept_positions(self.loaded.row_id).items():
                if k <= len(self.game.commands):
                    kept.setdefault(k, text.encode("utf-8"))
        k = max((i for i in kept if i <= start), default=0)
        self.i = k
        self.state = (msgjson.decode(kept[k]) if k in kept
                      else _copy(self.game.system.initial_state(self.game.scenario)))

    def state_at(self, n: int) -> JSON:
        g = self.game
        if n == len(g.commands):
            return g.state
        if self.i < 0:
            self._from(min(self.start, n))
        if n < self.i:  # a step back: start again from the nearest kept state
            self._from(n)
        while self.i < n:
            events = [Event.from_json(msgjson.decode(msgjson.encode(e.to_json())))
                      for e in g.events[self.i]]
            self.state = g.fold(self.state, events)
            self.i += 1
            if self.i % KEEP_EVERY == 0 and self.i not in self.loaded.kept:
                text = msgjson.encode(self.state)
                self.loaded.kept[self.i] = text
                if self.loaded.store is not None:
                    self.loaded.store.keep_position(self.loaded.row_id, self.i,
                                                    text.decode("utf-8"))
        return self.state


def _step_json(step: Step) -> dict[str, Any]:
    return step.to_json()


def _summary(game: Game) -> dict[str, Any]:
    """What the lobby shows of a game: public facts only."""
    label = game.system.turn_label
    return {"turn": game.turn, "date": None if label is None else label(game.context, game.state),
            "phase": game.phase.name, "active": list(game.active()),
            "commands": len(game.commands), "over": game.over,
            "result": None if game.result is None else
            (game.result.get("summary") or game.result.get("winner"))}


class Referee:
    """Games of one store, with an in-memory cache of the latest loaded games."""

    def __init__(self, store: Store, cache_size: int = 256) -> None:
        self.store = store
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Loaded] = OrderedDict()
        self._locks: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()
        self._scenarios: OrderedDict[str, Scenario] = OrderedDict()
        self._summaries: list[dict[str, Any]] | None = None
        self._reading = threading.Lock()
        self._seats: dict[str, tuple[str, str]] = {}
        #: called as f(game id, players who had to act before, players who must act now)
        #: after every command, undo and creation (bots, notifications: server/play_routes.py)
        self.listeners: list[Any] = []

    def _moved(self, gid: str, before: tuple[str, ...], after: tuple[str, ...]) -> None:
        for f in self.listeners:
            f(gid, before, after)

    # --- scenarios -------------------------------------------------------------------------
    @staticmethod
    def scenario_names() -> list[str]:
        return sorted(shipped_scenarios())

    def scenario(self, name: str) -> Scenario:
        """A shipped scenario, loaded once (the few last used are kept)."""
        with self._guard:
            sc = self._scenarios.get(name)
            if sc is not None:
                self._scenarios.move_to_end(name)
                return sc
        if name not in shipped_scenarios():
            raise InputError("scenario", f"no shipped scenario {name!r}")
        sc = load_scenario(name)
        with self._guard:
            self._scenarios[name] = sc
            while len(self._scenarios) > SCENARIOS_KEPT:
                self._scenarios.popitem(last=False)
        return sc

    def scenario_summaries(self) -> list[dict[str, Any]]:
        """What the lobby lists of every shipped scenario, read once per process (loading
        them all takes seconds; only these few facts are kept)."""
        with self._reading:  # one reader (the warm-up or the first lobby), the others wait
            if self._summaries is None:
                out = []
                for name in self.scenario_names():
                    sc = self._scenarios.get(name) or load_scenario(name)
                    out.append({"id": name, "title": sc.title, "system": sc.system,
                                "sides": list(sc.sides), "hexes": sc.map.n})
                self._summaries = out
            return self._summaries

    # --- creation --------------------------------------------------------------------------
    def create(self, scenario: str, mode: str = "seats", *, text: str | None = None,
               seed: int | None = None) -> tuple[str, dict[str, str]]:
        """A new game of a shipped scenario (or of scenario ``text``); returns its id and the
        secret token of each seat (one hotseat token in hotseat mode). ``seed`` is for tests
        and studies in-process: no HTTP request can choose it."""
        if mode not in MODES:
            raise InputError("mode", f"must be one of {', '.join(MODES)}")
        sc = posted_scenario(text) if text is not None else self.scenario(scenario)
        fresh, nonce = new_seed()
        seed = fresh if seed is None else seed
        game = Game(sc, seed)
        gid = secrets.token_hex(6)
        if mode == HOTSEAT or mode == "hotseat":
            tokens = {secrets.token_urlsafe(18): HOTSEAT}
        else:
            tokens = {secrets.token_urlsafe(18): p for p in sc.sides}
        com = commitment(seed, nonce)
        self.store.create_game({
            "id": gid, "scenario_id": sc.id, "title": sc.title, "scenario_text": sc.text,
            "readings": game.readings, "seed": seed, "nonce": nonce, "commitment": com,
            "mode": mode, "version": 0, "state": json.dumps(game.state),
            "dice": json.dumps(game.dice.snapshot_json()), "summary": _summary(game),
            "over": False}, tokens)
        lock = self._lock(gid)
        with lock:
            loaded = self._remember(Loaded(game, 0, gid, mode, nonce, com, sc.title, lock,
                                           store=self.store))
            for p in sc.sides:  # each seat's log starts now (told command by command)
                self._log(loaded, p)
        self._moved(gid, (), game.active())
        return gid, {p: t for t, p in tokens.items()}

    # --- loading -----------------------------------------------------------------------------
    def _lock(self, gid: str) -> threading.RLock:
        with self._guard:
            lock = self._locks.get(gid)
            if lock is None:
                lock = self._locks[gid] = threading.RLock()
            return lock

    @contextmanager
    def hold(self, gid: str, expect: int | None = None) -> Iterator[Loaded]:
        """The game ``gid`` at its stored version, locked for this request. A command made
        against version ``expect`` takes the game held in memory at that version without
        reading the store: its transaction moves the row only from ``expect`` (another
        server process that moved it first makes the command stale)."""
        lock = self._lock(gid)
        with lock:
            hit = self._cache.get(gid) if expect is not None else None
            if hit is not None and hit.version == expect:
                yield self._remember(hit)
            else:
                yield self._load(gid, lock)

    def _load(self, gid: str, lock: threading.RLock) -> Loaded:
        version = self.store.version(gid)
        if version is None:
            raise NotFound(f"no game {gid!r}")
        hit = self._cache.get(gid)
        if hit is not None and hit.version == version:
            return self._remember(hit)
        row = self.store.game(gid)
        if row is None:
            raise NotFound(f"no game {gid!r}")
        sc = parse_scenario(row.scenario_text, f"game {gid}")
        rows = self.store.commands(gid)
        game = Game.restore(
            sc, row.seed, [Command.from_json(r.command) for r in rows],
            [[Event.from_json(e) for e in r.events] for r in rows],
            [Step.from_json(r.step) for r in rows], json.loads(row.state),
            json.loads(row.dice), readings=row.readings)
        return self._remember(Loaded(game, row.version, gid, row.mode, row.nonce,
                                     row.commitment, row.title, lock, store=self.store))

    def _remember(self, loaded: Loaded) -> Loaded:
        """Keep ``loaded`` as the live game of its id (the least recently used ones go)."""
        with self._guard:
            self._cache[loaded.row_id] = loaded
            self._cache.move_to_end(loaded.row_id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return loaded

    def _forget(self, gid: str) -> None:
        with self._guard:
            self._cache.pop(gid, None)

    # --- seats -------------------------------------------------------------------------------
    def seat(self, token: str) -> tuple[str, str]:
        """(game id, player) of a seat token (tokens never change: remembered once read)."""
        found = self._seats.get(token)
        if found is None:
            found = self.store.seat(token)
            if found is None:
                raise NotFound("no seat with that token")
            with self._guard:
                if len(self._seats) > 100_000:
                    self._seats.clear()
                self._seats[token] = found
        return found

    @staticmethod
    def acting_player(loaded: Loaded, seat: str, as_player: str | None) -> str:
        """The player a request speaks for: the seat's own; in hotseat, ``as_player`` (any
        side of the game, the screen being handed over between them)."""
        sides = loaded.game.scenario.sides
        if seat != HOTSEAT:
            if as_player not in (None, "", seat):
                raise Forbidden(f"this seat is {seat}; it cannot act or see for {as_player}")
            return seat
        if as_player in (None, ""):
            active = loaded.game.active()
            return active[0] if active else sides[0]
        if as_player not in sides:
            raise InputError("as", f"{as_player!r} is not a side of this game")
        return as_player

    # --- what a seat sees ------------------------------------------------------------------
    def legal(self, game: Game, player: str, *, search_moves: bool = False,
              moves: bool = True) -> list[Command]:
        """Every legal command for ``player`` now: the engine's enumerators (and an
        argument-free kind without one, e.g. ``end_phase``, when the rules accept it).
        ``moves=False`` leaves the moves out (a page asks for them unit by unit:
        :meth:`unit_moves`). ``search_moves`` is kept for callers; every system enumerates."""
        if moves:
            out = game.legal(player)
        else:
            out = [c for k in sorted(game.allowed(player) - {"move"})
                   for c in game.legal(player, k)]
        for kind in game.unenumerated(player):
            spec = game.system.commands.get(kind)
            if spec is not None and not spec.example:  # takes no arguments
                bare = Command(kind, player, {})
                if game.can(bare):
                    out.append(bare)
        return out

    def unit_moves(self, token: str, unit: str, as_player: str | None = None
                   ) -> dict[str, Any]:
        """The legal moves of one of the seat's units (searched when the system has no move
        enumerator, so a page asks for them unit by unit)."""
        gid, seat = self.seat(token)
        with self.hold(gid) as loaded:
            player = self.acting_player(loaded, seat, as_player)
            g = loaded.game
            own = (g.state.get("units") or {}).get(unit, {}).get("side") == player
            if not own or player not in g.active() or "move" not in g.allowed(player):
                return {"unit": unit, "moves": []} if not own else \
                    {"unit": unit, "moves": [], "why": why_stuck(g, player, unit)}
            # every unit's moves are enumerated at once: kept for the next unit asked
            found = loaded.memoised(("moves", player),
                                    lambda: _by_unit(g, g.legal(player, "move"))
                                    ).get(unit, [])
            out: dict[str, Any] = {"unit": unit, "moves": [entry(g, c) for c in found]}
            if not found:
                out["why"] = why_stuck(g, player, unit)
            return out

    def state_for(self, token: str, as_player: str | None = None, *,
                  per_unit: bool = False) -> dict[str, Any]:
        """The seat's answer (``per_unit``: without the moves, see :meth:`legal`)."""
        gid, seat = self.seat(token)
        with self.hold(gid) as loaded:
            player = self.acting_player(loaded, seat, as_player)
            return self._payload(loaded, seat, player, per_unit)

    def _payload(self, loaded: Loaded, seat: str, player: str, per_unit: bool = False
                 ) -> dict[str, Any]:
        g = loaded.game
        label = g.system.turn_label
        mine = [d.to_json() for d in g.decisions() if d.player == player]
        legal = loaded.memoised(("legal" if not per_unit else "legal-per-unit", player),
                                lambda: self._legal_json(g, player, not per_unit))
        sc = g.scenario
        view = loaded.memoised(("view", player), lambda: g.view(player))
        return {
            "game": loaded.row_id, "seat": seat, "player": player, "mode": loaded.mode,
            "version": loaded.version,
            "scenario": {"id": sc.id, "title": sc.title, "system": sc.system,
                         "sides": list(sc.sides)},
            "status": {
                "turn": g.turn, "date": None if label is None else label(g.context, g.state),
                "phase": g.phase.name, "phase_player": g.phase.player,
                "active": list(g.active()), "prompt": g.prompt(player), "decisions": mine,
                "over": g.over, "result": None if g.result is None else dict(g.result),
                "commands": len(g.commands), "can_undo": g.can_undo(player),
                "undo_refusal": g.undo_refusal(player),
            },
            "view": view,
            "legal": legal,
            # the moves are left out of "legal": GET moves/{unit} lists each unit's
            "moves_per_unit": per_unit and player in g.active() and "move" in g.allowed(player),
            "unenumerated": g.unenumerated(player) if player in g.active() else [],
            "ledger": ledger_of(g, player, view),
            "commitment": loaded.commitment,
            "seed": {"seed": g.seed, "nonce": loaded.nonce} if g.over else None,
        }

    def _legal_json(self, game: Game, player: str, moves: bool = True
                    ) -> list[dict[str, Any]]:
        if player not in game.active():
            return []
        return [entry(game, c) for c in self.legal(game, player, moves=moves)]

    # --- acting ------------------------------------------------------------------------------
    def command(self, token: str, version: int, kind: str, args: dict[str, Any],
                as_player: str | None = None, *, per_unit: bool = False) -> dict[str, Any]:
        """Apply one command for the token's seat, made against ``version``: one transaction.
        Answers the seat's new state (``per_unit``: without the moves, see :meth:`legal`)."""
        gid, seat = self.seat(token)
        if not isinstance(args, dict):
            raise InputError("args", "must be an object")
        with self.hold(gid, version) as loaded:
            _current(loaded, version, "command")
            player = self.acting_player(loaded, seat, as_player)
            g = loaded.game
            cmd = make_command(kind, player, args)
            before = g.active()
            said = g.describe(cmd).text  # in the position it is given in (the log tells it so)
            events = g.apply(cmd)
            try:
                try:
                    told = self._tell(loaded, said)
                except Exception:  # a log entry that cannot be told never blocks a command:
                    told = []  # the seats' logs are told again by their next history request
                    loaded.logs.clear()
                state = json.dumps(g.state)
                n = len(g.commands)
                self.store.append(
                    gid, version, n - 1, cmd.to_json(),
                    [e.to_json() for e in events], _step_json(g.steps[-1]), g.state_hash(),
                    state, json.dumps(g.dice.snapshot_json()), _summary(g), g.over,
                    logs=[(p, row) for p, row, _e, _v in told],
                    position=state if n % KEEP_EVERY == 0 else None)
            except BaseException:
                self._forget(gid)
                raise
            loaded.advance()
            if n % KEEP_EVERY == 0:
                loaded.kept[n] = state.encode("utf-8")
            for p, (_i, _text, digest, _ledger, _lines), entry, after in told:
                log = loaded.logs[p]
                log.entries.append(entry)
                log.seen.append(digest)
                log.changes.append(json.loads(_lines))
                log.ledgers.append(ledger_of(g, p, after))
                log.last = after
                loaded.memo[("view", p)] = after
            self._moved(gid, before, g.active())
            return self._payload(loaded, seat, player, per_unit)

    def _tell(self, loaded: Loaded, said: str | None = None
              ) -> list[tuple[str, LogRow, dict[str, Any], JSON]]:
        """The log entry of the command just applied, for every seat whose log is told up to
        it (what :meth:`history` would tell), kept in the command's own transaction: a history
        never has to walk the game, and a restarted server reads it from the store."""
        g = loaded.game
        n = len(g.commands)
        out = []
        for p in g.scenario.sides:
            log = loaded.logs.get(p)
            if log is None:
                log = loaded.logs[p] = _Log()
            if not log.read:
                log.read = True
                if not log.ledgers:
                    self._read_log(loaded, p, log, n - 1)
            if not log.ledgers or len(log.entries) != n - 1:
                continue  # never told (or a gap): the next history request tells it
            before = log.last
            if before is None:
                before = g.system.view(_Walk(loaded, n - 1).state_at(n - 1), p)
                log.last = before
            seen = g.events_for(p, n - 1)[0]
            after = g.system.view(g.state, p)
            changes = seen_changes(g, before, after, p)
            entry = tell(g, g.commands[-1], seen, changes, p, n - 1, after, said)
            row = (n - 1, json.dumps(entry), _digest(g.commands[-1], seen),
                   json.dumps(ledger_of(g, p, after)), json.dumps(changes))
            out.append((p, row, entry, after))
        return out

    def undo(self, token: str, version: int, as_player: str | None = None, *,
             per_unit: bool = False) -> dict[str, Any]:
        gid, seat = self.seat(token)
        with self.hold(gid, version) as loaded:
            _current(loaded, version, "undo")
            player = self.acting_player(loaded, seat, as_player)
            g = loaded.game
            if seat == HOTSEAT and g.commands:
                player = g.commands[-1].player
            before = g.active()
            g.undo(player)
            try:
                self.store.truncate(gid, version, len(g.commands), json.dumps(g.state),
                                    json.dumps(g.dice.snapshot_json()), _summary(g), g.over)
            except BaseException:
                self._forget(gid)
                raise
            loaded.advance()
            self._moved(gid, before, g.active())
            if seat == HOTSEAT:
                player = self.acting_player(loaded, seat, None)
            return self._payload(loaded, seat, player, per_unit)

    def odds(self, token: str, kind: str, args: dict[str, Any], as_player: str | None = None
             ) -> dict[str, Any]:
        """The exact odds of a legal attack for this seat, before rolling."""
        gid, seat = self.seat(token)
        with self.hold(gid) as loaded:
            player = self.acting_player(loaded, seat, as_player)
            g = loaded.game
            cmd = make_command(kind, player, args)
            return odds_of(g, cmd)

    # --- history: the log and the VCR --------------------------------------------------------
    def history(self, token: str, as_player: str | None = None) -> dict[str, Any]:
        gid, seat = self.seat(token)
        with self.hold(gid) as loaded:
            player = self.acting_player(loaded, seat, as_player)
            log = self._log(loaded, player)
            return {"game": gid, "player": player, "version": loaded.version,
                    "entries": list(log.entries), "ledger": list(log.ledgers)}

    def _log(self, loaded: Loaded, player: str) -> _Log:
        """``player``'s log of the whole game, extended from the entries told before (each
        new command's entry from the views before and after it; an earlier entry is told
        again only when what the player may see of its events changed, e.g. a reveal).

        Linear in the game: the positions are walked once, forward from the nearest kept
        state (:class:`_Walk`), each command's events folded once and each view built once;
        a server that has just started (no kept log) pays one such walk per game and seat."""
        g = loaded.game
        log = loaded.logs.setdefault(player, _Log())
        n = len(g.commands)
        seen_events = g.events_for(player)
        seen = [_digest(c, e) for c, e in zip(g.commands, seen_events, strict=True)]
        if not log.read:
            log.read = True
            if not log.ledgers:
                self._read_log(loaded, player, log, n)
        # an entry whose events the seat now sees differently (a reveal since) is told again
        # from what it saw change then (kept): no earlier position is rebuilt
        retold = []
        for i in range(len(log.entries)):
            if log.seen[i] != seen[i]:
                was = log.entries[i]  # an order told in words keeps the words it was told in
                log.entries[i] = tell(g, g.commands[i], seen_events[i], log.changes[i],
                                      player, i, log.last,
                                      text_was=was.get("text") if was.get("worded") else None)
                log.seen[i] = seen[i]
                retold.append(i)
        first = len(log.entries)
        if first >= n and log.ledgers:
            if retold:
                self.store.keep_log(loaded.row_id, player, retold[0],
                                    [_row(log, i) for i in range(retold[0], n)])
            return log
        start_ledgers = not log.ledgers
        walk = _Walk(loaded, first)
        views: dict[int, JSON] = {}
        if log.last is not None and not start_ledgers:
            views[first] = log.last  # the view after the last entry told

        def view_at(i: int) -> JSON:
            if i not in views:
                views.pop(i - 2, None)
                views[i] = g.system.view(walk.state_at(i), player)  # a copy (hide_secrets)
            return views[i]

        if start_ledgers:
            log.last = view_at(0)
            log.ledgers.append(ledger_of(g, player, log.last))
        for i in range(first, n):
            said = g.describe(g.commands[i], walk.state_at(i)).text  # as it was given
            after = view_at(i + 1)
            changes = seen_changes(g, view_at(i), after, player)
            log.entries.append(tell(g, g.commands[i], seen_events[i], changes, player, i,
                                    after, said))
            log.seen.append(seen[i])
            log.changes.append(changes)
            log.ledgers.append(ledger_of(g, player, after))
            log.last = after
        start = min([first, *retold])
        rows = [_row(log, i) for i in range(start, n)]
        if start_ledgers:
            rows.insert(0, (-1, "null", "", json.dumps(log.ledgers[0]), "[]"))
        self.store.keep_log(loaded.row_id, player, -1 if start_ledgers else start, rows)
        return log

    def _read_log(self, loaded: Loaded, player: str, log: _Log, n: int) -> None:
        """``player``'s log as the store keeps it (what a server told before a restart): the
        entries of the first commands, in order, up to the first one missing."""
        rows = self.store.log_rows(loaded.row_id, player)
        if not rows or rows[0][0] != -1:
            return
        try:
            ledgers = [json.loads(rows[0][3])]
            entries, seen, changes = [], [], []
            for k, (i, entry, digest, ledger, lines) in enumerate(rows[1:]):
                if i != k or i >= n:
                    break
                entries.append(json.loads(entry))
                seen.append(digest)
                ledgers.append(json.loads(ledger))
                changes.append([str(x) for x in json.loads(lines)])
        except (ValueError, TypeError):
            return
        log.entries, log.seen, log.changes, log.ledgers = entries, seen, changes, ledgers
        log.last = None

    def position(self, token: str, n: int, as_player: str | None = None) -> dict[str, Any]:
        """The seat's view of the game after its first ``n`` commands (the VCR): folded from
        the nearest state kept every :data:`KEEP_EVERY` positions (at most that many folds)."""
        gid, seat = self.seat(token)
        with self.hold(gid) as loaded:
            player = self.acting_player(loaded, seat, as_player)
            g = loaded.game
            if not 0 <= n <= len(g.commands):
                raise InputError("n", f"must be between 0 and {len(g.commands)}")
            return {"n": n, "of": len(g.commands),
                    "view": g.system.view(_Walk(loaded, n).state_at(n), player)}

    def export(self, gid: str) -> dict[str, Any]:
        """A finished game's save with its seed and commitment (refused before the end)."""
        with self.hold(gid) as loaded:
            if not loaded.game.over:
                raise Forbidden("the seed is revealed only when the game is over")
            return signed_save(loaded.game, loaded.nonce, loaded.commitment)

    def public(self, gid: str) -> dict[str, Any]:
        """What anyone may know of a game: its scenario, commitment and (once over) seed."""
        with self.hold(gid) as loaded:
            g = loaded.game
            return {"game": gid, "scenario": g.scenario.id, "title": loaded.title,
                    "mode": loaded.mode, "commitment": loaded.commitment,
                    "summary": _summary(g), "over": g.over,
                    "seed": {"seed": g.seed, "nonce": loaded.nonce} if g.over else None}


# --- helpers --------------------------------------------------------------------------------
def posted_scenario(text: str) -> Scenario:
    """A scenario posted as TOML text, bounded (:data:`MAX_POSTED_TEXT`, then
    :data:`MAX_POSTED_HEXES`) before a game or a page is built from it."""
    if len(text) > MAX_POSTED_TEXT:
        raise InputError("text", f"a posted scenario is at most {MAX_POSTED_TEXT:,} characters "
                         f"(this one {len(text):,})")
    sc = parse_scenario(text, "<posted scenario>")
    if sc.map.n > MAX_POSTED_HEXES:
        raise InputError("text", f"a posted scenario's map has at most {MAX_POSTED_HEXES:,} "
                         f"hexes (this one {sc.map.n:,})")
    return sc


def _current(loaded: Loaded, version: int, what: str) -> None:
    """Refuse a ``what`` made against an older version of the game (HTTP 409)."""
    if version != loaded.version:
        raise StaleVersion(f"the game moved on (version {loaded.version}, your {what} was made "
                           f"against {version}): reload and try again")


def _by_unit(game: Game, moves: list[Command]) -> dict[str, list[Command]]:
    out: dict[str, list[Command]] = {}
    for c in moves:
        for u in units_of(game, c)[:1]:
            out.setdefault(u, []).append(c)
    return out


def ledger_of(game: Game, player: str, view: JSON) -> dict[str, str]:
    """The point accounts ``player`` sees in ``view`` (one of its own views), label -> exact
    value in the rule system's order (``Game.ledger``: the system's ``ledger`` hook)."""
    return dict(game.ledger(player, view))


def event_lines(game: Game, events: list[dict[str, Any]]) -> list[str]:
    """The log's words for the seat's events that the rule system words (``Game.event_words``:
    e.g. why a stockpile changed); an event it gives no line, or sees only in part, has none."""
    return [w for e in events if (w := game.event_words(e)) is not None]


def _why(data: dict[str, Any]) -> str:
    """Why a combat came out as it did, from its event (Europa ``combat_resolved``, 3R
    ``battle_resolved``): the odds, the column after its shifts, the DRM and the roll."""
    if "column" not in data or "roll" not in data:
        return ""
    parts = [f"{data['odds']} odds" if data.get("odds") is not None else "",
             f"column {data['column']}"]
    shifts = data.get("shifts")
    if isinstance(shifts, list) and shifts:
        parts.append("shifts " + ", ".join(f"{x.get('cause')} {x.get('columns'):+d}"
                                           for x in shifts if isinstance(x, dict)))
    elif isinstance(shifts, int) and shifts:
        parts.append(f"{shifts} shift(s) left")
    if data.get("drm"):
        parts.append(f"DRM {int(data['drm']):+d}")
    roll = f"roll {data['roll']}"
    if data.get("modified_roll") not in (None, data["roll"]):
        roll += f" (modified {data['modified_roll']})"
    parts.append(roll)
    return " (" + ", ".join(p for p in parts if p) + ")"


def _unit_name(uid: str, u: JSON) -> str:
    return str(u.get("name") or uid)


def describe(game: Game, cmd: Command, events: list[dict[str, Any]], before: JSON, after: JSON,
             player: str, i: int) -> dict[str, Any]:
    """One log entry in plain words, from the seat's views before and after command ``i`` and
    its events as the seat may see them (``Game.events_for``): what the seat could see change,
    the dice rolled, and (for its own commands) the order."""
    return tell(game, cmd, events, seen_changes(game, before, after, player), player, i, after)


def seen_changes(game: Game, before: JSON, after: JSON, player: str) -> list[str]:
    """What ``player`` could see change between two of its views (units, turn and phase, its
    ledger): the part of a log entry that never changes once told (kept with it, see
    :func:`tell`)."""
    lines: list[str] = []
    ub, ua = before.get("units", {}), after.get("units", {})
    for uid in sorted(set(ub) | set(ua)):
        if uid.startswith("hidden-"):
            continue
        b, a = ub.get(uid), ua.get(uid)
        if b is None or a is None:
            if b is None and a is not None:
                lines.append(f"{_unit_name(uid, a)} appears in {a.get('hex') or a.get('box')}")
            elif b is not None:
                lines.append(f"{_unit_name(uid, b)} is no longer seen")
            continue
        if a.get("status") != b.get("status"):
            lines.append(f"{_unit_name(uid, a)}: {b.get('status')} -> {a.get('status')}")
        if a.get("hex") != b.get("hex") or a.get("box") != b.get("box"):
            lines.append(f"{_unit_name(uid, a)} {b.get('hex') or b.get('box') or 'off map'} -> "
                         f"{a.get('hex') or a.get('box') or 'off map'}")
        if (a.get("attack"), a.get("defense")) != (b.get("attack"), b.get("defense")):
            lines.append(f"{_unit_name(uid, a)} now {a.get('attack')}-{a.get('defense')}")
    nb = sum(1 for k in ub if k.startswith("hidden-"))
    na = sum(1 for k in ua if k.startswith("hidden-"))
    if nb != na:
        lines.append(f"hidden units: {nb} -> {na}")
    if (before.get("turn"), before.get("phase")) != (after.get("turn"), after.get("phase")):
        try:
            ph = game.sequence.phases[int(after["phase"])]
            lines.append(f"turn {after.get('turn')}: {ph.player} {ph.name} phase")
        except (KeyError, IndexError, ValueError, TypeError):
            lines.append(f"turn {after.get('turn')}")
    lb, la = ledger_of(game, player, before), ledger_of(game, player, after)
    for k in sorted(set(la) | set(lb)):
        if la.get(k) != lb.get(k):
            lines.append(f"{k}: {lb.get(k)} -> {la.get(k)}")
    return lines


def tell(game: Game, cmd: Command, events: list[dict[str, Any]], changes: list[str],
         player: str, i: int, after: JSON | None = None, said: str | None = None,
         text_was: str | None = None) -> dict[str, Any]:
    """A log entry from what the seat saw change (:func:`seen_changes`) and the command's
    events as the seat may see them now (told again, without the views, after a reveal).
    Another side's order is told in words only when the seat's view ``after`` it shows every
    unit the order names (:func:`grognard.server.present.public_order`)."""
    from grognard.server.dice import _dice_in

    lines = list(changes)

    for e in events:
        res = e.get("data", {}).get("result")
        if isinstance(res, str) and res:
            lines.append(f"{e['type'].replace('_', ' ')}: {res}{_why(e['data'])}")
    lines += event_lines(game, events)
    lines += roll_lines(events, after)  # the referee's dice and hits in words (issue 26)
    own = cmd.player == player
    dice = _dice_in(events)
    text = f"{cmd.player.title()}: {cmd.kind.replace('_', ' ')}"
    # another side's order is named only when the seat may see all of its events
    shown = own or (bool(lines or dice) and bool(events)
                    and len(events) == len(game.events[i]))
    if not shown:
        text = f"{cmd.player.title()}: " + ("an order you cannot see" if not lines and not dice
                                            else "an order")
        return {"n": i + 1, "player": cmd.player, "kind": None, "text": text, "dice": dice,
                "changes": lines}
    worded = own or (after is not None and public_order(game, cmd, events, after, i))
    if worded and text_was is not None:
        text = text_was  # told again after a reveal: in the words of the position it was given in
    elif worded:
        said = game.describe(cmd).text if said is None else said
        text = said if said.startswith(f"{cmd.player.title()}:") else \
            f"{cmd.player.title()} — {said}"
    return {"n": i + 1, "player": cmd.player, "kind": cmd.kind, "text": text,
            "dice": dice, "changes": lines, "worded": worded}
