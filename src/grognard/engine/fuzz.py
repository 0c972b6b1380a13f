"""Random-play fuzzing: play uniformly random legal actions and report what breaks.

Each game picks, at every step, one of the active players, then one command kind that has legal
actions for them (uniformly among such kinds, so phases end), then one of its legal commands
(uniformly). It stops when the game is over, at ``max_commands``, or at the first failure:

* ``crash``: applying an enumerated command raised something other than a GrognardError;
* ``refused``: an enumerated command was refused by ``verify`` (the enumerator is wrong);
* ``dead_end``: nobody may act, or the active players have no legal action, and the game is
  not over;
* ``undo``: taking back a command and giving it again did not give the same state;
* ``leak``: a player's view holds another player's secrets or a hidden unit's identity, or
  the player's log of a command (``Game.events_for``) names another player's hidden unit;
* ``replay``: the command log does not replay to the same events and state hash, or the save
  does not reload to the same state.

>>> report = fuzz("demo-europa", games=2, seed=1, max_commands=30)
>>> report.games, report.failures
(2, [])
"""

from __future__ import annotations

import json
import random
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grognard.core.errors import GrognardError
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.scenario import Scenario, load_scenario
from grognard.engine.system import RuleSystem

#: How often (in commands) the players' views are checked for leaks.
VIEW_CHECK_EVERY = 25
#: Chance, at each step, of checking undo by taking a command back and giving it again.
UNDO_CHECK_CHANCE = 0.05


@dataclass(frozen=True, slots=True)
class Failure:
    game: int
    seed: int
    step: int
    kind: str
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "step": self.step, "kind": self.kind,
                "detail": self.detail}


@dataclass
class GameRun:
    """One fuzzed game: how it ended and what failed (the game itself, for saving)."""

    index: int
    seed: int
    commands: int
    end: str  # over | limit | failure
    result: dict[str, Any] | None
    failures: list[Failure]
    game: Game | None = None

    def to_json(self) -> dict[str, Any]:
        return {"game": self.index, "seed": self.seed, "commands": self.commands,
                "end": self.end, "result": self.result}


@dataclass
class FuzzReport:
    scenario: str
    games: int = 0
    commands: int = 0
    runs: list[GameRun] = field(default_factory=list)

    @property
    def failures(self) -> list[Failure]:
        return [f for r in self.runs for f in r.failures]

    def to_json(self) -> dict[str, Any]:
        ends: dict[str, int] = {}
        for r in self.runs:
            ends[r.end] = ends.get(r.end, 0) + 1
        return {"scenario": self.scenario, "games": self.games, "commands": self.commands,
                "ends": dict(sorted(ends.items())),
                "failures": [f.to_json() for f in self.failures],
                "per_game": [r.to_json() for r in self.runs]}


def choose(game: Game, rng: random.Random) -> Command | None:
    """A uniformly random legal command of a random active player (kind first, then args, by
    :meth:`Game.sample`); None if no active player has a legal command."""
    players = list(game.active())
    rng.shuffle(players)
    for player in players:
        kinds = sorted(game.allowed(player))
        rng.shuffle(kinds)
        for kind in kinds:
            cmd = game.sample(player, kind, rng)
            if cmd is not None:
                return cmd
    return None


def _hidden_units(game: Game) -> dict[str, Any]:
    return {uid: u.get("side") for uid, u in game.state.get("units", {}).items()
            if isinstance(u, dict) and u.get("hidden")}


def log_leaks(game: Game) -> list[str]:
    """What each player's log of the last command shows that it must not: the identity of
    other players' hidden units."""
    found: list[str] = []
    hidden = _hidden_units(game)
    if not hidden or not game.events:
        return found
    for viewer in game.scenario.sides:
        logged = json.dumps(game.events_for(viewer, len(game.events) - 1))
        for uid, side in sorted(hidden.items()):
            if side != viewer and f'"{uid}"' in logged:
                found.append(f"{viewer}'s log of the last command names {side}'s hidden "
                             f"unit {uid}")
    return found


def leaks(game: Game) -> list[str]:
    """What each player's view shows that it must not: other players' secrets, the identity
    of other players' hidden units."""
    found = []
    hidden = _hidden_units(game)
    for viewer in game.scenario.sides:
        view = game.view(viewer)
        secrets = view.get("secrets") if isinstance(view, dict) else None
        if isinstance(secrets, dict):
            others = sorted(p for p in secrets if p != viewer and secrets[p])
            if others:
                found.append(f"{viewer}'s view holds the secrets of {', '.join(others)}")
        text = json.dumps(view)
        for uid, side in sorted(hidden.items()):
            if side != viewer and f'"{uid}"' in text:
                found.append(f"{viewer}'s view names {side}'s hidden unit {uid}")
    return found


def replay_failure(game: Game) -> str | None:
    """Why the game does not replay to the same state (None: it does). The save round trip
    replays the whole log once (``verify=True``) and restores the snapshot once."""
    from grognard.engine.save import dumps, loads

    if game.system.name != game.scenario.system and game.scenario.system != "generic":
        # a stand-in system (tests): saves name the scenario's own system, so replay directly
        again = Game.replay(game.scenario, game.seed, game.commands, game.events,
                            system=game.system, tables=game.context.tables,
                            readings=game.readings)
        if again.state_hash() != game.state_hash():
            return "the command log replays to a different state hash"
        return None
    text = dumps(game)
    for verify in (True, False):
        loaded = loads(text, "<fuzz>", verify=verify)
        if loaded.state_hash() != game.state_hash():
            return f"the save reloads (verify={verify}) to a different state hash"
    return None


Chooser = Callable[[Game, random.Random], "Command | None"]
"""Who plays a fuzzed game: the next command (None: the active players have none)."""


def play(scenario: Scenario, seed: int, index: int = 0, max_commands: int = 2000,
         rng_seed: int | None = None, system: RuleSystem | None = None,
         chooser: Callable[[Game], Chooser] | None = None, refused: str = "enumerated"
         ) -> GameRun:
    """Fuzz one game of ``scenario`` with dice seed ``seed`` (under ``system``, by default the
    one the scenario names). ``chooser`` makes the player of the game (default: a uniformly
    random legal command, :func:`choose`; bots/fuzz.py seats bots); ``refused`` names what a
    refused command was in the report."""
    rng = random.Random(seed if rng_seed is None else rng_seed)
    game = Game(scenario, seed, system=system)
    pick = choose if chooser is None else chooser(game)
    failures: list[Failure] = []

    def fail(kind: str, detail: str) -> GameRun:
        failures.append(Failure(index, seed, len(game.commands), kind, detail))
        return GameRun(index, seed, len(game.commands), "failure", None, failures, game)

    try:
        while len(game.commands) < max_commands:
            if game.over:
                break
            if not game.active():
                return fail("dead_end", "nobody may act and the game is not over")
            cmd = pick(game, rng)
            if cmd is None:
                who = ", ".join(game.active())
                left = sorted({k for p in game.active() for k in game.unenumerated(p)})
                more = f" (unenumerated kinds: {', '.join(left)})" if left else ""
                return fail("dead_end", f"{who} must act but has no legal action: "
                            f"{game.prompt(game.active()[0])}{more}")
            try:
                game.apply(cmd)
            except GrognardError as exc:
                return fail("refused", f"{refused} {json.dumps(cmd.to_json())} refused: {exc}")
            if rng.random() < UNDO_CHECK_CHANCE and game.can_undo(cmd.player):
                after = game.state_hash()
                game.undo(cmd.player)
                game.apply(cmd)
                if game.state_hash() != after:
                    return fail("undo", f"undoing and redoing {cmd.kind} changed the state")
            for what in log_leaks(game):
                return fail("leak", what)
            if len(game.commands) % VIEW_CHECK_EVERY == 0:
                for what in leaks(game):
                    return fail("leak", what)
        for what in leaks(game):
            return fail("leak", what)
        why = replay_failure(game)
        if why is not None:
            return fail("replay", why)
    except Exception as exc:  # a crash is what the fuzzer is for: report it, never raise
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" at {Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
        return fail("crash", f"{type(exc).__name__}: {exc}{where}")
    end = "over" if game.over else "limit"
    result = None if game.result is None else dict(game.result)
    return GameRun(index, seed, len(game.commands), end, result, failures, game)


def fuzz(scenario: str | Path | Scenario, games: int = 10, seed: int = 0,
         max_commands: int = 2000,
         progress: Callable[[GameRun], None] | None = None) -> FuzzReport:
    """Fuzz ``games`` games; game ``i`` uses dice seed ``seed + i``."""
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    report = FuzzReport(sc.id)
    for i in range(games):
        run = play(sc, seed + i, i, max_commands)
        report.games += 1
        report.commands += run.commands
        if not run.failures:
            run.game = None  # keep only failing games (to save them)
        report.runs.append(run)
        if progress is not None:
            progress(run)
    return report
