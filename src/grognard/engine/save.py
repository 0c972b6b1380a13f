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


def dumps(game: Game) -> str:
    try:
        text = json.dumps(save_data(game), indent=1, sort_keys=True, ensure_ascii=False,
                          allow_nan=False) + "\n"
        text.encode("utf-8")
    except (ValueError, UnicodeEncodeError) as exc:  # NaN, or a lone surrogate in a string
        raise SaveError(f"the game cannot be saved as JSON text: {exc}") from None
    return text


def backup_path(path: str | Path) -> Path:
    """Where :func:`save_game` keeps the previous save: ``SAVE.bak`` beside it."""
    p = Path(path)
    return p.with_name(p.name + ".bak")


def save_game(game: Game, path: str | Path) -> str:
    """Write the save atomically (temporary file, fsync, rename), keeping the previous save as
    ``SAVE.bak``. On any error the old save is untouched and the error is one line. A save
    given as a symbolic link is written where the link points (:func:`save_target`)."""
    text = dumps(game)
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
    argument, known or not, can make a game that cannot be stored, saved or verified."""
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
