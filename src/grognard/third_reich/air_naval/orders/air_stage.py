"""``air_stage`` (TR-29): an air unit stages from its base to a friendly city within twice its
range, in the ordinary movement phase.

The rule functions it runs are in :mod:`grognard.third_reich.play.system_air`; events:
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
from grognard.third_reich.play.legal import distinct, legal_air_stage
from grognard.third_reich.play.system_air import (
    execute_air_stage,
    fold_air_staged,
    verify_air_stage,
)
from grognard.third_reich.play.system_war import power_of, verify_enter


class AirStageArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``unit``: the air unit; ``to``: the city it stages to."""

    unit: str
    to: str


class AirStage(Order[AirStageArgs]):
    """TR-29 Stage an air unit city to city within 2x its range."""

    kind = "air_stage"
    rule = "TR-29"
    Args = AirStageArgs
    help = "TR-29 Stage an air unit city to city within 2x its range."
    example: ClassVar[Mapping[str, object]] = {"unit": "ge-air2", "to": "C11"}
    folds: ClassVar[Mapping[str, Fold]] = {"air_staged": fold_air_staged}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: AirStageArgs) -> None:
        if args.unit in state["units"] and state["units"][args.unit]["side"] == cmd.player:
            verify_enter(ctx, state, power_of(state, args.unit), [args.to], "air")  # TR-25
        verify_air_stage(ctx, state, cmd)

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: AirStageArgs,
                dice: Dice) -> list[Event]:
        return execute_air_stage(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: JSON, player: str) -> Iterable[Command]:
        return distinct(legal_air_stage)(ctx, state, player)


__all__ = ["AirStage", "AirStageArgs"]
