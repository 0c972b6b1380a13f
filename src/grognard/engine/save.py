"""Saved games: JSON holding the scenario text, seed, readings, commands and their events.

A save reloads byte-identical (:func:`save_game` of :func:`load_game` gives the same bytes) and
replays to the same state hash. It also holds a snapshot of the final state and dice, so a game
can be continued without replaying its whole log (``verify=False``: the snapshot's hash is
checked); ``verify=True`` (``game replay``) replays every command once and checks every event
and the hash.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from grognard.core.errors import GrognardError
from grognard.core.tables import TableSet
from grognard.engine.commands import Command
from grognard.engine.events import Event
from grognard.engine.game import Game, ReplayMismatch, Step
from grognard.engine.scenario import parse_scenario

FORMAT = "grognard-save"
VERSION = 1


class SaveError(GrognardError):
    """A save file that cannot be read: names the file and the field."""


def save_data(game: Game) -> dict[str, Any]:
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
    return json.dumps(save_data(game), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def save_game(game: Game, path: str | Path) -> str:
    text = dumps(game)
    Path(path).write_text(text, encoding="utf-8")
    return text


def loads(text: str, where: str = "<save>", tables: TableSet | None = None,
          verify: bool = True) -> Game:
    """Rebuild a game from save text: by replaying its commands once, checking every event and
    the hash (``verify``), or from its snapshot (checking the snapshot's hash)."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{where}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise SaveError(f"{where}: not a grognard save (format field)")
    if raw.get("version") != VERSION:
        raise SaveError(f"{where}: unsupported save version {raw.get('version')!r}")
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
    return game


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
    return game


def load_game(path: str | Path, tables: TableSet | None = None, verify: bool = True) -> Game:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise SaveError(f"{p}: cannot read ({exc.strerror})") from None
    return loads(text, str(p), tables, verify)
