"""The random bot: uniform over the kinds of legal action, then uniform within the kind
(drawn with :meth:`Game.sample`, without listing every legal command).

Choosing the kind first gives ``end_phase`` the same weight as all the moves together, so a
random game moves on instead of shuffling units for ever.

>>> from grognard.engine.game import Game
>>> from grognard.bots.base import Seat, legal_actions
>>> g = Game.new("demo-europa", seed=1)
>>> bot = RandomBot(Seat.of(g, "axis", seed=5))
>>> bot.choose(g.view("axis"), legal_actions(g, "axis")).player
'axis'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from grognard.bots.base import LegalActions, NoLegalAction, Seat, rng
from grognard.engine.commands import Command
from grognard.engine.state import JSON


class RandomBot:
    name = "random"

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self._dice = rng(seat, self.name)
        self._rng = random.Random(self._dice.die(2**31 - 1))  # for Game.sample

    def choose(self, view: JSON, legal_actions: Sequence[Command]) -> Command:
        if isinstance(legal_actions, LegalActions):
            # draw a kind, then one legal command of it by rejection sampling over the
            # kind's cheap candidates (Game.sample); a kind with no action is dropped and
            # another drawn (the same uniform choice among the kinds that have actions)
            kinds = list(legal_actions.kinds())
            while kinds:
                kind = kinds.pop(self._dice.choice(len(kinds)))
                cmd = legal_actions.sample(kind, self._rng)
                if cmd is not None:
                    return cmd
            raise NoLegalAction(self.seat.player)
        if not legal_actions:
            raise NoLegalAction(self.seat.player)
        kinds = sorted({c.kind for c in legal_actions})
        kind = kinds[self._dice.choice(len(kinds))]
        pool = [c for c in legal_actions if c.kind == kind]
        return pool[self._dice.choice(len(pool))]
