"""Bot-driven fuzzing: games played by bots (``grognard fuzz --bots heuristic``), checked like
random play (engine/fuzz.py).

Random play spreads over every legal action and rarely reaches the positions real play does
(deep offensives, encirclements, the losses they owe); bots play purposeful games and so find
the dead ends those positions hide (issue 27: a Europa loss allocation owed with none listed,
in Sep I 1941 of europa-barbarossa, that 1,000 random games missed). Each game seats the named
bot on every side (through the bots' public API: :func:`~grognard.bots.base.make_bot`,
:class:`~grognard.bots.base.LegalActions`, :class:`~grognard.bots.base.LazyView`) and stops at
the first failure, with the kinds of :mod:`grognard.engine.fuzz`:

* ``dead_end``: an active player has no legal action (or nobody may act) and the game is not
  over;
* ``refused``: a command the rules listed as legal was refused when applied;
* ``crash``: anything but a GrognardError was raised (by the rules or by a bot);
* ``leak``: a view or a log shows another player's secrets;
* ``replay``: the log does not replay, or the save does not reload, to the same state.

A bot's own choice that the rules refuse (a bot bug, not a rules bug) is replaced by a random
legal action; so is a bot that finds no action although the rules list some.

>>> report = fuzz("demo-europa", games=1, seed=1, max_commands=40, bot="random")
>>> report.games, report.failures
(1, [])
"""

from __future__ import annotations

import random
import traceback
from collections.abc import Callable
from pathlib import Path

from grognard.bots.base import LazyView, LegalActions, NoLegalAction, Seat
from grognard.bots.catalog import bot_names, make_bot
from grognard.core.errors import GrognardError, InputError
from grognard.engine.fuzz import (
    VIEW_CHECK_EVERY,
    Failure,
    FuzzReport,
    GameRun,
    choose,
    leaks,
    log_leaks,
    replay_failure,
)
from grognard.engine.game import Game
from grognard.engine.scenario import Scenario, load_scenario


def check_bot(name: str) -> str:
    if name not in bot_names():
        raise InputError("--bots", f"no bot {name!r} (bots: {', '.join(sorted(bot_names()))})")
    return name


def play(scenario: Scenario, seed: int, index: int = 0, max_commands: int = 2000,
         bot: str = "heuristic") -> GameRun:
    """One game of ``scenario`` with dice seed ``seed``, ``bot`` on every side."""
    game = Game(scenario, seed)
    seats = {p: make_bot(bot, Seat.of(game, p, seed)) for p in scenario.sides}
    rng = random.Random(seed)
    failures: list[Failure] = []

    def fail(kind: str, detail: str) -> GameRun:
        failures.append(Failure(index, seed, len(game.commands), kind, detail))
        return GameRun(index, seed, len(game.commands), "failure", None, failures, game)

    try:
        while len(game.commands) < max_commands and not game.over:
            if not game.active():
                return fail("dead_end", "nobody may act and the game is not over")
            cmd = None
            for player in game.active():
                actions = LegalActions(game, player)
                if not actions.kinds():
                    continue
                try:
                    cmd = seats[player].choose(LazyView(game, player), actions)
                except NoLegalAction:
                    cmd = None
                if cmd is not None and not actions.allows(cmd):
                    cmd = None
                if cmd is None:
                    cmd = actions.sample(rng.choice(actions.kinds()), rng) or choose(game, rng)
                if cmd is not None:
                    break
            if cmd is None:
                who = ", ".join(game.active())
                left = sorted({k for p in game.active() for k in game.unenumerated(p)})
                more = f" (unenumerated kinds: {', '.join(left)})" if left else ""
                return fail("dead_end", f"{who} must act but has no legal action: "
                            f"{game.prompt(game.active()[0])}{more}")
            try:
                game.apply(cmd)
            except GrognardError as exc:
                return fail("refused", f"legal {cmd.to_json()} refused: {exc}")
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
         max_commands: int = 2000, bot: str = "heuristic",
         progress: Callable[[GameRun], None] | None = None) -> FuzzReport:
    """Fuzz ``games`` bot games; game ``i`` uses dice seed ``seed + i``."""
    check_bot(bot)
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    report = FuzzReport(sc.id)
    for i in range(games):
        run = play(sc, seed + i, i, max_commands, bot)
        report.games += 1
        report.commands += run.commands
        if not run.failures:
            run.game = None
        report.runs.append(run)
        if progress is not None:
            progress(run)
    return report
