"""``murmansk_escort`` (TR-20/TR-21): the Allies' decision: the fleet and ASW factors escorting
the convoy; in the Summer I timing the box combat follows at once (TR-21).

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
from grognard.third_reich.play.legal import distinct, legal_murmansk_escort
from grognard.third_reich.play.system_murmansk import (
    execute_murmansk_escort,
    fold_murmansk_escorted,
    fold_murmansk_resolved,
    verify_murmansk_escort,
)


class MurmanskEscortArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The escort: ``naval`` fleet factors (at most the UK's and US's on the map), ``asw``
    (from their SW boxes)."""

    naval: int = 0
    asw: int = 0


class MurmanskEscort(Order[MurmanskEscortArgs]):
    """TR-20/TR-21 The Allies commit escorts; the box combat follows (1D10s from
    third_reich.murmansk)."""

    kind = "murmansk_escort"
    rule = "TR-20"
    Args = MurmanskEscortArgs
    help = ("TR-20/TR-21 The Allies commit escorts; the box combat follows (1D10s from "
            "third_reich.murmansk).")
    example: ClassVar[Mapping[str, object]] = {"naval": 9, "asw": 2}
    folds: ClassVar[Mapping[str, Fold]] = {"murmansk_escorted": fold_murmansk_escorted, "murmansk_resolved": fold_murmansk_resolved}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: MurmanskEscortArgs) -> None:
        verify_murmansk_escort(ctx, state, cmd)

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: MurmanskEscortArgs,
                dice: Dice) -> list[Event]:
        return execute_murmansk_escort(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: JSON, player: str) -> Iterable[Command]:
        return distinct(legal_murmansk_escort)(ctx, state, player)


__all__ = ["MurmanskEscort", "MurmanskEscortArgs"]
