"""The engine: a game is scenario + seed + ordered command log.

Commands are checked (``can_``/``verify_``), executed into events that record every choice and
die roll, and events are folded into state. Phases and turn order are data supplied by each rule
system; per-player views hide what a player may not see.
"""

from grognard.engine.commands import Command, CommandSpec
from grognard.engine.events import Event
from grognard.engine.game import Game
from grognard.engine.phases import Phase, TurnSequence
from grognard.engine.save import load_game, save_game
from grognard.engine.state import canonical_json, state_hash
from grognard.engine.system import RuleSystem

__all__ = [
    "Command", "CommandSpec", "Event", "Game", "Phase", "RuleSystem", "TurnSequence",
    "canonical_json", "load_game", "save_game", "state_hash",
]
