"""``save_attrition_losses`` (TR-41): units removed by attrition come back, a friendly replacement
unit removed for each (cost - 4 BRPs).

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
from grognard.engine.system import Places
from grognard.third_reich.attritions import (
    execute_save_attrition_losses,
    fold_attrition_losses_saved,
    verify_save_attrition_losses,
)
from grognard.third_reich.combat.proposers import legal_save_attrition_losses
from grognard.third_reich.proposals import distinct
from grognard.third_reich.state_types import TRState
from grognard.third_reich.words import map_arg, named_units, unit_name


class SaveAttritionLossesArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``saves``: each unit lost to attrition -> the friendly replacement removed instead."""

    saves: dict[str, str]


class SaveAttritionLosses(Order[SaveAttritionLossesArgs]):
    """TR-41 Swap units removed by attrition for friendly replacements (cost - 4 BRPs)."""

    kind = "save_attrition_losses"
    rule = "TR-41"
    Args = SaveAttritionLossesArgs
    help = "TR-41 Swap units removed by attrition for friendly replacements (cost - 4 BRPs)."
    example: ClassVar[Mapping[str, object]] = {"saves": {"ge-inf1": "ge-rep1"}}
    folds: ClassVar[Mapping[str, Fold]] = {"attrition_losses_saved": fold_attrition_losses_saved}

    def verify(self, ctx: Context, state: TRState, cmd: Command,
               args: SaveAttritionLossesArgs) -> None:
        verify_save_attrition_losses(ctx, state, cmd)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: SaveAttritionLossesArgs,
                dice: Dice) -> list[Event]:
        return execute_save_attrition_losses(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        return distinct(legal_save_attrition_losses)(ctx, state, player)

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        saves = map_arg(cmd.args.get("saves"))
        parts = [f"{unit_name(state, x)} for {unit_name(state, r)}" for x, r in saves.items()]
        return Words("Save " + ("; ".join(parts) or "nothing"), f"save {len(parts)}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(None, None, (), named_units(cmd, "saves"))


__all__ = ["SaveAttritionLosses", "SaveAttritionLossesArgs"]
