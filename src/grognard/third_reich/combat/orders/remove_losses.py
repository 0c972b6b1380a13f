"""``remove_losses`` (TR-38/TR-39): the side taking an attrition loss names the units it
removes ("The side taking the losses decides which units to remove"). Owed as a decision to
that side after an ``attrition`` whose result leaves it a choice; the engine removes the units
itself only when there is none (nothing to remove, every eligible unit goes, one legal set).
The hexes won (TR-40, ``take_hexes``) wait until every loss owed is chosen.

The rule functions it runs are in :mod:`grognard.third_reich.attritions`; event
``attrition_losses_removed`` ``{side, units, n, rule}`` (docs/formats/tr_engine.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order, Words, as_list
from grognard.engine.system import Places
from grognard.third_reich.attritions import (
    execute_remove_losses,
    fold_losses_removed,
    legal_remove_losses,
    verify_remove_losses,
)
from grognard.third_reich.state_types import TRState
from grognard.third_reich.words import named_units, units_words


class RemoveLossesArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``units``: the owing side's units removed for its attrition loss."""

    units: list[str]


class RemoveLosses(Order[RemoveLossesArgs]):
    """TR-38/TR-39 The side taking an attrition loss names the units it removes."""

    kind = "remove_losses"
    rule = "TR-39"
    Args = RemoveLossesArgs
    help = "TR-38/TR-39 The side taking an attrition loss names the units it removes."
    example: ClassVar[Mapping[str, object]] = {"units": ["fr-inf1"]}
    folds: ClassVar[Mapping[str, Fold]] = {"attrition_losses_removed": fold_losses_removed}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: RemoveLossesArgs) -> None:
        verify_remove_losses(ctx, state, cmd)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: RemoveLossesArgs,
                dice: Dice) -> list[Event]:
        return execute_remove_losses(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        """TR-39: the legal removals, smallest first (at most LISTED_CHOICES)."""
        return legal_remove_losses(ctx, state, player)

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        lost = as_list(cmd.args.get("units"))
        return Words(f"Remove {units_words(state, lost)} (attrition losses)" if lost else
                     "Remove no unit", f"remove {len(lost)}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(None, None, (), named_units(cmd, "units"))


__all__ = ["RemoveLosses", "RemoveLossesArgs"]
