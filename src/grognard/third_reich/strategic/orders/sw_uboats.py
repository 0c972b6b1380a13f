"""``sw_uboats`` (TR-79/TR-82): Germany's U-boat round of strategic warfare against the UK's or
the US's economy.

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
    execute_sw_uboats,
    fold_sw_round_fought,
    legal_sw_uboats,
    verify_sw_uboats,
)


class SwUboatsArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``target``: the economy the U-boats attack (uk or us)."""

    target: str = "uk"


class SwUboats(Order[SwUboatsArgs]):
    """TR-79/TR-82 Germany's U-boat round against the UK or US economy (1D10s from
    third_reich.strategic_warfare)."""

    kind = "sw_uboats"
    rule = "TR-79"
    Args = SwUboatsArgs
    help = ("TR-79/TR-82 Germany's U-boat round against the UK or US economy (1D10s from "
            "third_reich.strategic_warfare).")
    example: ClassVar[Mapping[str, object]] = {"target": "uk"}
    folds: ClassVar[Mapping[str, Fold]] = {"sw_round_fought": fold_sw_round_fought}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: SwUboatsArgs) -> None:
        verify_sw_uboats(ctx, state, cmd)

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: SwUboatsArgs,
                dice: Dice) -> list[Event]:
        return execute_sw_uboats(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: JSON, player: str) -> Iterable[Command]:
        return legal_sw_uboats(ctx, state, player)


__all__ = ["SwUboats", "SwUboatsArgs"]
