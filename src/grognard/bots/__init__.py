"""grognard.bots: opponents behind one interface, ``choose(view, legal_actions) -> Command``.

``random`` (uniform over kinds, then actions), ``heuristic`` (scripted per system) and
``search`` (expectimax over the exact CRT odds in combat). :func:`choose` gives one bot move
for a game (the CLI's ``grognard bots move`` and the web server use it); :func:`play_game`
plays a whole game with a bot per side.
"""

from grognard.bots.base import Bot, Seat, legal_actions
from grognard.bots.catalog import bot_names, choose, make_bot, parse_bots, register_bot
from grognard.bots.play import GameRecord, play_game

__all__ = ["Bot", "GameRecord", "Seat", "bot_names", "choose", "legal_actions", "make_bot",
           "parse_bots", "play_game", "register_bot"]
