"""``sw_bombing`` (TR-79/TR-81): the Western Allies' bomber round against Germany; Germany's
interceptors fire back.

The rule functions it runs are in :mod:`grognard.third_reich.play.system_sw`; events:
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
from grognard.engine.orders import Order
from grognard.engine.state import JSON
from grognard.third_reich.play.system_sw import (
    execute_sw_bombing,
    fold_sw_round_fought,
    legal_sw_bombing,
    verify_sw_bombing,
)


class SwBombingArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``losses_first``: whose bombers take the losses first (uk or us)."""

    losses_first: str = "uk"


class SwBombing(Order[SwBombingArgs]):
    """TR-79/TR-81 The Western Allies' bomber round against Germany (interceptors fire back;
    1D10s from third_reich.strategic_warfare)."""

    kind = "sw_bombing"
    rule = "TR-79"
    Args = SwBombingArgs
    help = ("TR-79/TR-81 The Western Allies' bomber round against Germany (interceptors fire "
            "back; 1D10s from third_reich.strategic_warfare).")
    example: ClassVar[Mapping[str, object]] = {"losses_first": "uk"}
    folds: ClassVar[Mapping[str, Fold]] = {"sw_round_fought": fold_sw_round_fought}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: SwBombingArgs) -> None:
        verify_sw_bombing(ctx, state, cmd)

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: SwBombingArgs,
                dice: Dice) -> list[Event]:
        return execute_sw_bombing(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: JSON, player: str) -> Iterable[Command]:
        return legal_sw_bombing(ctx, state, player)


__all__ = ["SwBombing", "SwBombingArgs"]
