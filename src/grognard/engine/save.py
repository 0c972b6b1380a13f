"""Saved games: JSON holding the scenario text, seed, readings, commands and their events.

A save reloads byte-identical (:func:`save_game` of :func:`load_game` gives the same bytes) and
replays to the same state hash. It also holds a snapshot of the final state and dice, so a game
can be continued without replaying its whole log (``verify=False``: the snapshot's hash is
checked); ``verify=True`` (``game replay``) replays every command once and checks every event
and the hash.

A save is the referee's complete record, secrets included (see docs/FORMATS.md). It is never
lost or half-written: :func:`save_game` writes a temporary file in the same folder, fsyncs it
and renames it over the old save, keeping the previous one as ``SAVE.bak``;
:func:`save_lock` serialises processes that update the same save.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from grognard.core.errors import GrognardError
from grognard.core.inputs import (
    InputFileError,
    check_values,
    convert,
    load_json_text,
    output_error,
    read_text,
    write_atomic,
)
from grognard.core.tables import TableSet
from grognard.engine.commands import Command
from grognard.engine.events import Event
from grognard.engine.game import Game, ReplayMismatch, Step
from grognard.engine.scenario import parse_scenario
from grognard.engine.state import state_hash

FORMAT = "grognard-save"
VERSION = 1


class SaveError(GrognardError):
    """A save file that cannot be read: names the file and the field."""


#: The fields of a save its ``save_hash`` covers: all of it (the dice snapshot and the undo
#: steps included) but what is added to a finished or shared save afterwards (the server's seed
#: ``commitment``, the seats' ``signatures``, which sign this hash).
COVERED = ("format", "version", "scenario", "seed", "readings", "commands", "events",
           "state_hash", "steps", "snapshot")
#: Fields a save may carry beside those (not covered by its hash).
EXTRA = ("commitment", "signatures", "seat_keys")


def save_hash(data: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of the save's :data:`COVERED` fields."""
    covered = {k: data[k] for k in COVERED if k in data}
    text = json.dumps(covered, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def save_data(game: Game) -> dict[str, Any]:
    data = _save_fields(game)
    data["save_hash"] = save_hash(data)
    return data


def _save_fields(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "scenario": {
            "id": game.scenario.id,
            "file": game.scenario.file,
            "sha256": hashlib.sha256(game.scenario.text.encode("utf-8")).hexdigest(),
            "text": game.scenario.text,
        },
        "seed": game.seed,
        "readings": game.readings,
        "commands": [c.to_json() for c in game.commands],
        "events": [[e.to_json() for e in evs] for evs in game.events],
        "state_hash": game.state_hash(),
        "steps": [s.to_json() for s in game.steps],
        "snapshot": {"state": game.state, "dice": game.dice.snapshot_json()},
    }


def dumps(game: Game, extra: dict[str, Any] | None = None) -> str:
    """The save's text; ``extra`` adds fields the hash does not cover (``signatures``,
    ``seat_keys``: see :func:`sign_last`)."""
    try:
        data = save_data(game)
        for k, v in (extra or {}).items():
            if k not in COVERED and k != "save_hash":
                data[k] = v
        text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False,
                          allow_nan=False) + "\n"
        text.encode("utf-8")
    except (ValueError, UnicodeEncodeError) as exc:  # NaN, or a lone surrogate in a string
        raise SaveError(f"the game cannot be saved as JSON text: {exc}") from None
    return text


def backup_path(path: str | Path) -> Path:
    """Where :func:`save_game` keeps the previous save: ``SAVE.bak`` beside it."""
    p = Path(path)
    return p.with_name(p.name + ".bak")


def save_game(game: Game, path: str | Path, extra: dict[str, Any] | None = None) -> str:
    """Write the save atomically (temporary file, fsync, rename), keeping the previous save as
    ``SAVE.bak``. On any error the old save is untouched and the error is one line. A save
    given as a symbolic link is written where the link points (:func:`save_target`)."""
    text = dumps(game, extra)
    target = save_target(path)
    write_atomic(target, text, what="save", backup=backup_path(target))
    return text


def save_target(path: str | Path) -> Path:
    """Where a save named ``path`` is: a symbolic link is followed to its target (so the
    target, not the link, is written, under the target's lock); any other path as given."""
    p = Path(path)
    try:
        if p.is_symlink():
            return Path(os.path.realpath(p))
    except OSError as exc:
        raise output_error(p, exc, "save") from None
    return p


#: How long :func:`save_lock` waits for another process to finish with the save (seconds).
LOCK_WAIT = 30.0


@contextlib.contextmanager
def save_lock(path: str | Path, wait: float = LOCK_WAIT, existing: bool = False
              ) -> Iterator[None]:
    """Hold an advisory lock (``fcntl.flock``) on ``SAVE.lock`` for a read-modify-write of the
    save: concurrent ``game apply`` on one save run one after the other, and one that waits
    longer than ``wait`` seconds is refused with a clear message (its command is not applied).
    The lock file stays (removing it would race); on systems without ``fcntl`` this is a no-op.
    With ``existing`` a missing save is refused before any lock file is made (no stray
    ``SAVE.lock`` beside a mistyped name).
    """
    p = save_target(path)
    if existing and not p.is_file():
        raise SaveError(f"{path}: cannot read save: no such file or folder")
    try:
        import fcntl
    except ImportError:  # pragma: no cover (Windows)
        yield
        return
    lock = p.with_name(p.name + ".lock")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise output_error(lock, exc, "the save's lock file") from None
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise SaveError(f"{p}: the save is in use by another grognard process "
                                    f"(waited {wait:g} s); try again") from None
                time.sleep(0.01)
        yield
    finally:
        os.close(fd)  # releases the lock


# --- reading: the save's schema, checked before anything is replayed ---------------------------

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class _SavedScenario(msgspec.Struct):
    sha256: str
    text: str
    id: str = ""
    file: str = ""


class _SavedCommand(msgspec.Struct, forbid_unknown_fields=True):
    kind: Name
    player: Name
    args: dict[str, Any] = msgspec.field(default_factory=dict)


class _SavedEvent(msgspec.Struct, forbid_unknown_fields=True):
    type: Name
    data: dict[str, Any] = msgspec.field(default_factory=dict)


class _SavedStep(msgspec.Struct, forbid_unknown_fields=True):
    active: list[Name]
    barrier: Name | None = None


class _SnapshotState(msgspec.Struct):
    """What every rule system's state holds (the rest is the system's own)."""

    turn: Annotated[int, msgspec.Meta(ge=0, le=100_000)]
    phase: Annotated[int, msgspec.Meta(ge=0, le=100_000)]
    units: dict[Name, dict[str, Any]]


class _SavedStream(msgspec.Struct):
    state: dict[str, Any]
    draws: Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]


class _Snapshot(msgspec.Struct, forbid_unknown_fields=True):
    state: _SnapshotState
    dice: dict[Name, _SavedStream]


class _Save(msgspec.Struct):
    format: Literal["grognard-save"]
    version: int
    scenario: _SavedScenario
    seed: Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
    state_hash: str
    save_hash: str = ""
    steps: list[_SavedStep] | None = None
    snapshot: _Snapshot | None = None
    readings: dict[str, Any] = msgspec.field(default_factory=dict)
    commands: list[_SavedCommand] = msgspec.field(default_factory=list)
    events: list[list[_SavedEvent]] = msgspec.field(default_factory=list)


def check_save(text: str, where: str) -> dict[str, Any]:
    """The save's JSON, checked (limits, UTF-8 text, no NaN, every field typed) before use."""
    try:
        raw = load_json_text(text, where)
        if not isinstance(raw, dict) or raw.get("format") != FORMAT:
            raise SaveError(f"{where}: not a grognard save (format field)")
        if raw.get("version") != VERSION:
            raise SaveError(f"{where}: unsupported save version {raw.get('version')!r}")
        check_values(raw, where)
        convert(raw, _Save, where)
    except InputFileError as exc:
        raise SaveError(str(exc)) from None
    for i, c in enumerate(raw.get("commands", [])):
        command_values(c.get("args", {}), f"{where}, commands[{i}].args")
    return raw


#: What any command argument may be, whatever the order (each Order's typed ``Args`` then
#: decides what it is): nested at most this deep, integers within +-2**53, strings (and keys) of
#: at most this many characters, at most this many values in all.
MAX_ARG_DEPTH = 16
MAX_ARG_INT = 2**53
MAX_ARG_STRING = 1000
MAX_ARG_VALUES = 10_000


def command_values(args: Any, where: str) -> None:
    """Command arguments are JSON of integers, strings, booleans, lists and objects: a number
    with a fraction (``20.9``) is refused, not truncated (exact quantities go as strings); no
    ``NaN``, no lone surrogate, and within the bounds above (:data:`MAX_ARG_DEPTH` ...), so no
    argument, known or not, can make a game that cannot be stored, saved or verified.
    A first pass only looks (:func:`_args_ok`: a save's replay checks every command's); the
    error, naming the field, comes from the second, made when the first saw something."""
    if _args_ok(args):
        return
    check_values(args, where)
    stack: list[tuple[Any, str, int]] = [(args, "args", 0)]
    count = 0
    while stack:
        v, path, depth = stack.pop()
        count += 1
        if count > MAX_ARG_VALUES:
            raise InputFileError(where, f"more than {MAX_ARG_VALUES:,} values in the arguments")
        if depth > MAX_ARG_DEPTH:
            raise InputFileError(where, f"arguments nested more than {MAX_ARG_DEPTH} deep",
                                 field=path)
        if isinstance(v, float):
            raise InputFileError(where, f"{v!r} is not an integer (give exact quantities as "
                                 "strings such as \"2/3\")", field=path)
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_ARG_INT:
            raise InputFileError(where, f"an integer beyond +-2**53 ({len(str(abs(v)))} digits)",
                                 field=path)
        if isinstance(v, str) and len(v) > MAX_ARG_STRING:
            raise InputFileError(where, f"a text of {len(v):,} characters (at most "
                                 f"{MAX_ARG_STRING:,})", field=path)
        if isinstance(v, dict):
            for k, x in v.items():
                if len(k) > MAX_ARG_STRING:
                    raise InputFileError(where, f"a key of {len(k):,} characters", field=path)
                stack.append((x, f"{path}.{k}", depth + 1))
        elif isinstance(v, list):
            stack.extend((x, f"{path}[{i}]", depth + 1) for i, x in enumerate(v))
        elif not isinstance(v, str | int | bool) and v is not None:
            raise InputFileError(where, f"{type(v).__name__} is not a JSON value", field=path)


def _args_ok(args: Any) -> bool:
    """Whether :func:`command_values` accepts ``args`` (the checks of both its passes, no
    field paths made); False also when unsure (the full check then decides)."""
    stack: list[tuple[Any, int]] = [(args, 0)]
    count = 0
    while stack:
        v, depth = stack.pop()
        count += 1
        if count > MAX_ARG_VALUES or depth > MAX_ARG_DEPTH:
            return False
        t = type(v)
        if t is str:
            if len(v) > MAX_ARG_STRING or not v.isascii():
                return False
        elif t is int:
            if abs(v) > MAX_ARG_INT:
                return False
        elif t is dict:
            for k, x in v.items():
                if type(k) is not str or len(k) > MAX_ARG_STRING or not k.isascii():
                    return False
                stack.append((x, depth + 1))
        elif t is list:
            stack.extend((x, depth + 1) for x in v)
        elif t is not bool and v is not None:
            return False
    return True


def make_command(kind: Any, player: Any, args: Any, where: str = "command") -> Command:
    """A command from already-parsed JSON values (a server request's body): the same checks
    as :func:`parse_command` (typed kind and player, arguments within :func:`command_values`)."""
    raw = {"kind": kind, "player": player, "args": {} if args is None else args}
    check_values(raw, where)
    cmd = convert(raw, _SavedCommand, where)
    command_values(cmd.args, where)
    return Command(cmd.kind, cmd.player, cmd.args)


def parse_command(text: str, where: str = "command") -> Command:
    """A command given as JSON text (``game apply``, the server): checked and typed."""
    raw = load_json_text(text, where)
    check_values(raw, where)
    if not isinstance(raw, dict):
        raise InputFileError(where, "a command is a JSON object: "
                             '{"kind": ..., "player": ..., "args": {...}}')
    cmd = convert(raw, _SavedCommand, where)
    command_values(cmd.args, where)
    return Command(cmd.kind, cmd.player, cmd.args)


def loads(text: str, where: str = "<save>", tables: TableSet | None = None,
          verify: bool = True) -> Game:
    """Rebuild a game from save text: by replaying its commands once, checking every event and
    the hash (``verify``), or from its snapshot (checking the snapshot's hash)."""
    raw = check_save(text, where)
    saved_hash = raw.get("save_hash")
    if not saved_hash:  # a save without its hash: its snapshot is not trusted, the log replays
        verify = True
    sc = raw.get("scenario", {})
    text_sc = sc.get("text")
    if not isinstance(text_sc, str):
        raise SaveError(f"{where}: scenario.text missing")
    if hashlib.sha256(text_sc.encode("utf-8")).hexdigest() != sc.get("sha256"):
        raise SaveError(f"{where}: scenario.sha256 does not match the embedded scenario text")
    scenario = parse_scenario(text_sc, str(sc.get("file") or where))
    seed = raw.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SaveError(f"{where}: seed must be an integer")
    commands = [Command.from_json(c, f"commands[{i}]")
                for i, c in enumerate(raw.get("commands", []))]
    events = [[Event.from_json(e) for e in evs] for evs in raw.get("events", [])]
    if len(events) != len(commands):
        raise SaveError(f"{where}: {len(commands)} commands but {len(events)} event groups")
    readings = raw.get("readings", {})
    snapshot = raw.get("snapshot")
    if not verify and isinstance(snapshot, dict):
        return _restore(raw, snapshot, where, scenario, seed, commands, events, tables, readings)
    game = Game.replay(scenario, seed, commands, events, tables=tables, readings=readings)
    if game.state_hash() != raw.get("state_hash"):
        raise ReplayMismatch(f"{where}: state hash differs from the saved one")
    if saved_hash:  # the log replays (a changed command or die is named above): the rest
        _check_hash(raw, saved_hash, where)
    return game


def _check_hash(raw: dict[str, Any], saved: str, where: str) -> None:
    if save_hash(raw) != saved:
        raise SaveError(f"{where}: the save was changed after it was written (its save_hash "
                        "does not match its contents: the snapshot, undo steps, commands or "
                        "events were edited)")


def _restore(raw: dict[str, Any], snapshot: dict[str, Any], where: str, scenario: Any,
             seed: int, commands: list[Command], events: list[list[Event]],
             tables: TableSet | None, readings: Any) -> Game:
    raw_steps = raw.get("steps")
    if not isinstance(raw_steps, list) or len(raw_steps) != len(commands):
        raise SaveError(f"{where}: steps must list one entry per command")
    try:
        steps = [Step.from_json(s) for s in raw_steps]
    except ValueError as exc:
        raise SaveError(f"{where}: steps: {exc}") from None
    state = snapshot.get("state")
    if not isinstance(state, dict):
        raise SaveError(f"{where}: snapshot.state must be an object")
    try:
        game = Game.restore(scenario, seed, commands, events, steps, state,
                            snapshot.get("dice"), tables=tables, readings=readings)
    except GrognardError as exc:
        raise SaveError(f"{where}: snapshot: {exc}") from None
    try:
        digest = game.state_hash()
    except TypeError as exc:
        raise SaveError(f"{where}: snapshot.state: {exc}") from None
    if digest != raw.get("state_hash"):
        raise ReplayMismatch(f"{where}: the snapshot's state hash differs from the saved one")
    _check_hash(raw, str(raw.get("save_hash")), where)
    # the snapshot's state must be the one its recorded events fold to (no dice are rolled:
    # each event is folded once), so no edited state is ever played from
    try:
        folded = state_hash(game.fold_recorded(events))
    except GrognardError as exc:
        raise SaveError(f"{where}: the recorded events do not fold: {exc}") from None
    except Exception as exc:
        raise SaveError(f"{where}: the recorded events do not fold ({type(exc).__name__}: "
                        f"{str(exc)[:200]})") from None
    if folded != digest:
        raise SaveError(f"{where}: snapshot.state is not the state its recorded events fold "
                        "to (the snapshot was edited)")
    check_position(game, f"{where}: snapshot.state")
    return game


def check_position(game: Game, where: str) -> None:
    """Refuse a restored state that is no position of its rule system (a forged snapshot:
    ``phase = 999``, a unit that is not an object, no units) with one line, before any command
    reads it: the phase is one of the turn's, and the system can say who acts, what is owed
    and what each side sees."""
    state = game.state
    if not 0 <= int(state["phase"]) < len(game.sequence.phases):
        raise SaveError(f"{where}: phase {state['phase']} is not a phase of the turn "
                        f"(0..{len(game.sequence.phases) - 1})")
    try:
        game.active()
        game.decisions()
        for side in game.scenario.sides:
            game.prompt(side)
            game.view(side)
    except GrognardError as exc:
        raise SaveError(f"{where}: not a position of this game: {exc}") from None
    except Exception as exc:  # a forged state the system cannot read: one line, not a crash
        raise SaveError(f"{where}: not a position of this game "
                        f"({type(exc).__name__}: {str(exc)[:200]})") from None


def load_game(path: str | Path, tables: TableSet | None = None, verify: bool = True) -> Game:
    p = Path(path)
    try:
        text = read_text(p, "save")
    except InputFileError as exc:
        raise SaveError(str(exc)) from None
    return loads(text, str(p), tables, verify)


# --- PBEM: each seat signs the commands it makes ------------------------------------------------
#
# A save is the referee's whole record, so whoever holds it could edit it and recompute its
# hashes. For play by e-mail each seat keeps a secret key (``grognard game key``) and signs each
# command it makes (``game apply --key``): an HMAC-SHA256, under its key, of the command's number,
# player, the chain digest of every command and event up to it (so the signature covers the
# whole history it was made on) and the state hash after it. The save records each seat's key
# id (a digest of the key) the first time it signs. ``grognard game signatures SAVE --key ...``
# then names, for each key given, the commands of that seat changed after it signed them, the
# commands made in its name without its signature, and the first command that does not replay
# from the seed (with who signed it): who changed what.

KEY_FORMAT = "grognard-seat-key"


class _SeatKey(msgspec.Struct, forbid_unknown_fields=True):
    format: Literal["grognard-seat-key"]
    player: Name
    key: Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]


Digest = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]


class _Signature(msgspec.Struct, forbid_unknown_fields=True):
    n: Annotated[int, msgspec.Meta(ge=0)]
    player: Name
    key_id: Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{16}$")]
    received: Digest
    after: Digest
    hmac: Digest


class _Extra(msgspec.Struct):
    signatures: list[_Signature] = msgspec.field(default_factory=list)
    seat_keys: dict[Name, Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{16}$")]] = \
        msgspec.field(default_factory=dict)


def new_seat_key(player: str) -> str:
    """A new secret key of ``player``'s seat, as the key file's JSON text."""
    import secrets

    return json.dumps({"format": KEY_FORMAT, "player": player,
                       "key": secrets.token_hex(32)}, indent=1) + "\n"


def read_seat_key(path: str | Path) -> tuple[str, bytes]:
    """(player, key) of a seat key file, through the input gate."""
    p = str(path)
    raw = load_json_text(read_text(path, "seat key", 4096), p)
    k = convert(raw, _SeatKey, p)
    return k.player, bytes.fromhex(k.key)


def key_id(key: bytes) -> str:
    return hashlib.sha256(b"grognard-seat-key:" + key).hexdigest()[:16]


def load_game_and_extra(path: str | Path, tables: TableSet | None = None,
                        verify: bool = True) -> tuple[Game, dict[str, Any]]:
    """:func:`load_game`, and the signatures and seat keys the save carries (typed)."""
    p = Path(path)
    try:
        text = read_text(p, "save")
    except InputFileError as exc:
        raise SaveError(str(exc)) from None
    game = loads(text, str(p), tables, verify)
    raw = json.loads(text)
    try:
        extra = convert({k: raw[k] for k in ("signatures", "seat_keys") if k in raw}, _Extra,
                        str(p))
    except InputFileError as exc:
        raise SaveError(str(exc)) from None
    out: dict[str, Any] = msgspec.to_builtins(extra)
    return game, {k: v for k, v in out.items() if v}


def chain(game: Game) -> list[str]:
    """The chain digest after each command: SHA-256 of the previous digest, the command and
    its events (canonical JSON), from the save's scenario and seed."""
    h = hashlib.sha256(f"grognard-chain:{game.scenario.id}:{game.seed}".encode()).hexdigest()
    out = []
    for cmd, evs in zip(game.commands, game.events, strict=True):
        item = json.dumps([cmd.to_json(), [e.to_json() for e in evs]], sort_keys=True,
                          separators=(",", ":"), ensure_ascii=False)
        h = hashlib.sha256((h + item).encode("utf-8")).hexdigest()
        out.append(h)
    return out


def position_digest(game: Game) -> str:
    """The digest of a position: its state hash and its dice (every stream's position)."""
    dice = json.dumps(game.dice.snapshot_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{game.state_hash()}:{dice}".encode()).hexdigest()


def _mac(key: bytes, n: int, player: str, link: str, received: str, after: str) -> str:
    import hmac

    msg = json.dumps({"n": n, "player": player, "chain": link, "received": received,
                      "after": after}, sort_keys=True, separators=(",", ":")).encode()
    return hmac.new(key, msg, hashlib.sha256).hexdigest()


def sign_last(game: Game, extra: dict[str, Any], player: str, key: bytes, received: str
              ) -> dict[str, Any]:
    """``extra`` with ``player``'s signature of the game's last command (made by ``player``
    on the position whose :func:`position_digest` was ``received``)."""
    if not game.commands or game.commands[-1].player != player:
        raise SaveError(f"the last command is not {player}'s: nothing to sign")
    kid = key_id(key)
    keys = dict(extra.get("seat_keys", {}))
    if keys.setdefault(player, kid) != kid:
        raise SaveError(f"this save's {player} seat signs with key {keys[player]}, not with "
                        f"this key ({kid})")
    n = len(game.commands) - 1
    after = position_digest(game)
    sig = {"n": n, "player": player, "key_id": kid, "received": received, "after": after,
           "hmac": _mac(key, n, player, chain(game)[-1], received, after)}
    sigs = [s for s in extra.get("signatures", []) if s["n"] < n]
    return {**extra, "seat_keys": keys, "signatures": [*sigs, sig]}


def cut_signatures(extra: dict[str, Any], n: int) -> dict[str, Any]:
    """``extra`` without the signatures of commands ``n`` onward (an undo took them back)."""
    return {**extra, "signatures": [s for s in extra.get("signatures", []) if s["n"] < n]}


def _truth(raw: dict[str, Any], where: str) -> tuple[Game, list[str], int | None]:
    """The recorded game, the true position digest before each command and after the last
    one that replays, and the first command that does not replay from the seed (None: all
    do)."""
    sc = raw["scenario"]
    scenario = parse_scenario(sc["text"], str(sc.get("file") or where))
    commands = [Command.from_json(c, f"commands[{i}]")
                for i, c in enumerate(raw.get("commands", []))]
    events = [[Event.from_json(e) for e in evs] for evs in raw.get("events", [])]
    if len(events) != len(commands):
        raise SaveError(f"{where}: {len(commands)} commands but {len(events)} event groups")
    recorded = Game(scenario, raw["seed"], readings=raw.get("readings", {}))
    recorded.commands, recorded.events = commands, events
    g = Game(scenario, raw["seed"], readings=raw.get("readings", {}))
    digests = [position_digest(g)]
    for i, cmd in enumerate(commands):
        try:
            got = g.apply(cmd)
        except GrognardError:
            return recorded, digests, i
        if [e.to_json() for e in got] != [e.to_json() for e in events[i]]:
            return recorded, digests, i
        digests.append(position_digest(g))
    return recorded, digests, None


def check_signatures(text: str, keys: dict[str, bytes], where: str = "<save>"
                     ) -> dict[str, Any]:
    """Who changed what. For each seat whose key is given: its commands changed after it
    signed them (or anything before them), made in its name unsigned or under another key.
    Then, from the signatures (authentic or not, each says what its seat received and made),
    the first command that does not replay from the seed: made on a position changed after
    the previous command (its sender changed the dice or state), or itself not replaying (its
    maker did). ``ok`` when nothing is found."""
    raw = check_save(text, where)
    extra = convert({k: raw[k] for k in ("signatures", "seat_keys") if k in raw}, _Extra,
                    where)
    game, truth, broken = _truth(raw, where)
    links = chain(game)
    signed = {s.n: s for s in extra.signatures}
    problems: list[str] = []
    report: dict[str, Any] = {"seats": {}, "replays": broken is None,
                              "first_not_replaying": broken}
    for player, key in sorted(keys.items()):
        mine = [i for i, c in enumerate(game.commands) if c.player == player]
        registered = extra.seat_keys.get(player)
        if registered is not None and registered != key_id(key):
            problems.append(f"{player}: the save names another key ({registered}) for this seat")
        bad = []
        for i in mine:
            s = signed.get(i)
            if s is None or s.player != player:
                bad.append(f"command {i} ({game.commands[i].kind}) was made in {player}'s name "
                           "without its signature")
            elif s.key_id != key_id(key) or not _same(
                    s.hmac, _mac(key, i, player, links[i], s.received, s.after)):
                bad.append(f"command {i} ({game.commands[i].kind}) or a command before it was "
                           f"changed after {player} signed it")
        report["seats"][player] = {"commands": len(mine), "problems": bad}
        problems.extend(f"{player}: {b}" for b in bad)
    if broken is not None:
        cmd = game.commands[broken]
        s = signed.get(broken)
        if s is not None and s.received != truth[broken]:
            before = (f"command {broken - 1} ({game.commands[broken - 1].player}'s)"
                      if broken else "the start")
            problems.append(f"command {broken} ({cmd.kind}, {cmd.player}'s) was made on a "
                            f"position changed after {before}: whoever sent the save to "
                            f"{cmd.player} changed its dice or state")
        else:
            by = f"signed by {s.player}" if s is not None else "unsigned"
            problems.append(f"command {broken} ({cmd.kind}, {cmd.player}'s, {by}) does not "
                            "replay from the seed: its dice or events were changed by its "
                            "maker or after")
    report["problems"] = problems
    report["ok"] = not problems
    return report


def _same(a: str, b: str) -> bool:
    import hmac

    return hmac.compare_digest(a, b)
