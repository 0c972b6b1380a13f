"""``murmansk_ship`` (TR-19/TR-20): a Western power places 20 lend-lease BRPs in the Murmansk box
(one counter; paid now, TR-75).

The rule functions it runs are in :mod:`grognard.third_reich.play.system_murmansk`; events:
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
from grognard.third_reich.play.legal import distinct, legal_murmansk_ship
from grognard.third_reich.play.system_murmansk import (
    execute_murmansk_ship,
    fold_murmansk_shipped,
    verify_murmansk_ship,
)


class MurmanskShipArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``sender``: the UK or the US; ``brps``: exactly 20 (TR-19)."""

    sender: str
    brps: int = 20


class MurmanskShip(Order[MurmanskShipArgs]):
    """TR-19/TR-20 The UK or US places 20 lend-lease BRPs in the Murmansk box (before Germany
    commits)."""

    kind = "murmansk_ship"
    rule = "TR-19"
    Args = MurmanskShipArgs
    help = ("TR-19/TR-20 The UK or US places 20 lend-lease BRPs in the Murmansk box (before "
            "Germany commits).")
    example: ClassVar[Mapping[str, object]] = {"sender": "uk"}
    folds: ClassVar[Mapping[str, Fold]] = {"murmansk_shipped": fold_murmansk_shipped}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: MurmanskShipArgs) -> None:
        verify_murmansk_ship(ctx, state, cmd)

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: MurmanskShipArgs,
                dice: Dice) -> list[Event]:
        return execute_murmansk_ship(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: JSON, player: str) -> Iterable[Command]:
        return distinct(legal_murmansk_ship)(ctx, state, player)


__all__ = ["MurmanskShip", "MurmanskShipArgs"]
