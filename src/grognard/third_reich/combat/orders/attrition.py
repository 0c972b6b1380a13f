"""``attrition`` (TR-38/TR-39): attrition combat on one front under an attrition option (2D6 from
``third_reich.attrition``); an HN result waits for ``take_hexes``.

The rule functions it runs are in :mod:`grognard.third_reich.attritions`; events:
docs/formats/tr_engine.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order, Words
from grognard.third_reich.attritions import (
    execute_attrition,
    fold_attrition_resolved,
    verify_attrition,
)
from grognard.third_reich.combat.proposers import legal_attrition
from grognard.third_reich.proposals import distinct
from grognard.third_reich.state_types import TRState
from grognard.third_reich.words import FRONTS


class AttritionArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``front``: the front of the attrition option."""

    front: str


class Attrition(Order[AttritionArgs]):
    """TR-38/TR-39 Attrition on a front (2D6 from third_reich.attrition)."""

    kind = "attrition"
    rule = "TR-38"
    Args = AttritionArgs
    help = "TR-38/TR-39 Attrition on a front (2D6 from third_reich.attrition)."
    example: ClassVar[Mapping[str, object]] = {"front": "western"}
    folds: ClassVar[Mapping[str, Fold]] = {"attrition_resolved": fold_attrition_resolved}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: AttritionArgs) -> None:
        verify_attrition(ctx, state, cmd)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: AttritionArgs,
                dice: Dice) -> list[Event]:
        return execute_attrition(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        return distinct(legal_attrition)(ctx, state, player)

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        front = cmd.args.get("front")
        f = FRONTS.get(str(front), str(front))
        return Words(f"{cmd.player.title()}: attrition in {f}", f"attrition in {f}")


__all__ = ["Attrition", "AttritionArgs"]
