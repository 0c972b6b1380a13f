"""The bots by name: which bots exist, seating one, one bot move for a game, ``--bots``.

Every bot module defines its class and nothing imports this catalog but the layers that seat
bots by name (``play``, the CLI, the server, studies), so the bot modules form no circle.

>>> sorted(bot_names())
['heuristic', 'mcts', 'planner', 'random', 'search']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from grognard.bots.base import Bot, LegalActions, Seat
from grognard.bots.heuristic import HeuristicBot
from grognard.bots.mcts import MctsBot
from grognard.bots.planner import PlannerBot, parse_params
from grognard.bots.random_bot import RandomBot
from grognard.bots.search import SearchBot
from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.engine.game import Game

BotFactory = Callable[[Seat], Bot]
_BOTS: dict[str, BotFactory] = {}
_DESCRIPTIONS: dict[str, str] = {}


def register_bot(name: str, factory: BotFactory, description: str) -> None:
    _BOTS[name] = factory
    _DESCRIPTIONS[name] = description


def bot_names() -> dict[str, str]:
    """Every registered bot and a one-line description."""
    return dict(sorted(_DESCRIPTIONS.items()))


def make_bot(name: str, seat: Seat) -> Bot:
    """Seat bot ``name``; ``planner@KEY=VALUE@...`` seats the planner with plan parameters."""
    base, _sep, params = name.partition("@")
    if base not in _BOTS:
        raise InputError("--bot", f"unknown bot {base!r} (bots: {', '.join(bot_names())})")
    if params:
        if base not in ("planner", "mcts"):
            raise InputError("--bot", f"{base} takes no parameters ({name!r})")
        bot: Bot = (PlannerBot if base == "planner" else MctsBot)(seat, parse_params(params))
        bot.name = name
        return bot
    return _BOTS[base](seat)


register_bot("random", RandomBot, "uniform over the kinds of legal action, then over the kind")
register_bot("heuristic", HeuristicBot,
             "scripted per system: economy, exact-odds attacks, holding the line, decisions")
register_bot("planner", PlannerBot,
             "a campaign plan (data: grognard.bots.planner_plans.PLANS) over the heuristic's "
             "operational play: stages, wars, held fronts, garrisons, drives on objectives")
register_bot("mcts", MctsBot,
             "Monte Carlo search over the macro decisions (wars, options, surprise, chits) "
             "with determinized planner rollouts from the seat's view (mcts@budget=N)")
register_bot("search", SearchBot,
             "expectimax over the exact CRT odds for combat (attack allocation), else heuristic")


def choose(game: Game, player: str, bot: str = "heuristic", seed: int = 0) -> Command:
    """One move of bot ``bot`` for ``player`` now (for the CLI and the web server).

    The bot is seated afresh for this call with a seed derived from ``seed`` and the number of
    commands played, so the same game, player, bot and seed always give the same command.
    Raises :class:`InputError` if ``player`` has nothing to choose now.
    """
    seat = Seat.of(game, player, seed * 1_000_003 + len(game.commands))
    actions = LegalActions(game, player)
    if not actions:
        raise InputError("--player", f"{player} has nothing to do now: {game.prompt(player)}")
    return make_bot(bot, seat).choose(game.view(player), actions)


def parse_bots(text: str, sides: Sequence[str], partial: bool = False) -> dict[str, str]:
    """``"axis=heuristic,allies=random"`` -> {side: bot}; every side must be named once
    (unless ``partial``: then the sides left out have no bot).

    A single bot name (``"heuristic"``, or one with parameters: ``"planner@barbarossa_year=1942"``)
    seats that bot on every side.

    >>> parse_bots("axis=heuristic,soviet=random", ["axis", "soviet"])
    {'axis': 'heuristic', 'soviet': 'random'}
    >>> parse_bots("planner@barbarossa_year=1942", ["axis", "allies"])["allies"]
    'planner@barbarossa_year=1942'
    """
    names = bot_names()
    if "=" not in text.partition("@")[0]:  # a bot's own parameters follow its "@"
        pairs = {s: text.strip() for s in sides}
    else:
        pairs = {}
        for part in text.split(","):
            side, sep, bot = part.partition("=")
            side, bot = side.strip(), bot.strip()
            if not sep or not side or not bot:
                raise InputError("--bots", f"{part!r} is not SIDE=BOT")
            if side not in sides:
                raise InputError("--bots", f"{side!r} is not a side (sides: {', '.join(sides)})")
            if side in pairs:
                raise InputError("--bots", f"{side} is named twice")
            pairs[side] = bot
        missing = [s for s in sides if s not in pairs]
        if missing and not partial:
            raise InputError("--bots", f"no bot for {', '.join(missing)}")
    for side, bot in pairs.items():
        if "@" in bot and bot.partition("@")[0] in ("planner", "mcts"):
            parse_params(bot.partition("@")[2])
        if bot.partition("@")[0] not in names:
            raise InputError("--bots", f"unknown bot {bot!r} for {side} "
                             f"(bots: {', '.join(names)})")
    return pairs
