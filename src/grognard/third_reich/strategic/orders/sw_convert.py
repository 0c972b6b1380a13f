"""``sw_convert`` (TR-81): the unit a forced strategic warfare conversion takes (a decision owed
after the round or the Year Start).

The rule functions it runs are in :mod:`grognard.third_reich.play.system_sw_units`; events:
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
from grognard.third_reich.play.system_sw_units import (
    execute_sw_convert,
    fold_sw_unit_converted,
    legal_sw_convert,
    verify_sw_convert,
)


class SwConvertArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``unit``: the air fleet (Germany) or fleet (UK/US) the conversion removes."""

    unit: str


class SwConvert(Order[SwConvertArgs]):
    """TR-81 Remove the unit a forced strategic warfare conversion takes (Germany: a 5-factor
    air fleet; UK/US: a 9-factor fleet)."""

    kind = "sw_convert"
    rule = "TR-81"
    Args = SwConvertArgs
    help = ("TR-81 Remove the unit a forced strategic warfare conversion takes (Germany: a "
            "5-factor air fleet; UK/US: a 9-factor fleet).")
    example: ClassVar[Mapping[str, object]] = {"unit": "ger-air1"}
    folds: ClassVar[Mapping[str, Fold]] = {"sw_unit_converted": fold_sw_unit_converted}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: SwConvertArgs) -> None:
        verify_sw_convert(ctx, state, cmd)

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: SwConvertArgs,
                dice: Dice) -> list[Event]:
        return execute_sw_convert(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: JSON, player: str) -> Iterable[Command]:
        return legal_sw_convert(ctx, state, player)


__all__ = ["SwConvert", "SwConvertArgs"]
