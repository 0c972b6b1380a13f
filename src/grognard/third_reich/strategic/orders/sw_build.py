"""``sw_build`` (TR-80/TR-31): a power buys strategic warfare factors (3 BRPs each) within the
year's limit.

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
    execute_sw_build,
    fold_sw_factors_bought,
    legal_sw_build,
    verify_sw_build,
)


class SwBuildArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``power`` buys ``factors`` of ``category`` (subs, asw, bombers, interceptors)."""

    category: str
    factors: int
    power: str | None = None


class SwBuild(Order[SwBuildArgs]):
    """TR-80/TR-31 Buy strategic warfare factors (3 BRPs each, within the year's limit)."""

    kind = "sw_build"
    rule = "TR-80"
    Args = SwBuildArgs
    help = ("TR-80/TR-31 Buy strategic warfare factors (3 BRPs each, within the year's "
            "limit).")
    example: ClassVar[Mapping[str, object]] = {"power": "germany", "category": "subs", "factors": 2}
    folds: ClassVar[Mapping[str, Fold]] = {"sw_factors_bought": fold_sw_factors_bought}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: SwBuildArgs) -> None:
        verify_sw_build(ctx, state, cmd)

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: SwBuildArgs,
                dice: Dice) -> list[Event]:
        return execute_sw_build(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: JSON, player: str) -> Iterable[Command]:
        return legal_sw_build(ctx, state, player)


__all__ = ["SwBuild", "SwBuildArgs"]
