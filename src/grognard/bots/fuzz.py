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
from collections.abc import Callable
from pathlib import Path

from grognard.bots.base import LazyView, LegalActions, NoLegalAction, Seat
from grognard.bots.catalog import bot_names, make_bot
from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.engine.fuzz import Chooser, FuzzReport, GameRun, choose
from grognard.engine.fuzz import play as engine_play
from grognard.engine.game import Game
from grognard.engine.scenario import Scenario, load_scenario


def check_bot(name: str) -> str:
    if name not in bot_names():
        raise InputError("--bots", f"no bot {name!r} (bots: {', '.join(sorted(bot_names()))})")
    return name


def seated(bot: str, seed: int) -> Callable[[Game], Chooser]:
    """The player of a bot-fuzzed game: ``bot`` on every side; a choice the rules refuse (a
    bot's bug, not the rules') or no choice is replaced by a random legal action."""
    def make(game: Game) -> Chooser:
        seats = {p: make_bot(bot, Seat.of(game, p, seed)) for p in game.scenario.sides}

        def pick(game: Game, rng: random.Random) -> Command | None:
            for player in game.active():
                actions = LegalActions(game, player)
                if not actions.kinds():
                    continue
                try:
                    cmd: Command | None = seats[player].choose(LazyView(game, player), actions)
                except NoLegalAction:
                    cmd = None
                if cmd is not None and not actions.allows(cmd):
                    cmd = None
                if cmd is None:
                    cmd = actions.sample(rng.choice(actions.kinds()), rng) or choose(game, rng)
                if cmd is not None:
                    return cmd
            return None
        return pick
    return make


def play(scenario: Scenario, seed: int, index: int = 0, max_commands: int = 2000,
         bot: str = "heuristic") -> GameRun:
    """One game of ``scenario`` with dice seed ``seed``, ``bot`` on every side, checked as
    :func:`grognard.engine.fuzz.play` checks random play."""
    return engine_play(scenario, seed, index, max_commands, chooser=seated(bot, seed),
                       refused="legal")


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
