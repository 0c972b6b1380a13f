"""``allocate_uboats`` {pp}: EF-04/EF-05, the Axis allocates PP to Enhanced U-boat Production.

In the production phase, in lots of 5 PP, once a month; the allocation may rise by at most
5 PP a season (EF-05). A full season at 5 PP or more triggers the U-boat roll of the next
season, made by the referee as the next month starts (``end_production``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command, verified
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words
from grognard.eurofront.game_state import rule_on
from grognard.eurofront.orders.base import EFOrder, who
from grognard.eurofront.production import (
    allocation_event,
    fold_programme_allocated,
    verify_allocation,
)
from grognard.eurofront.readings import OptionalRule
from grognard.eurofront.state_types import EFState, Programme
from grognard.eurofront.uboats import PROGRAM_PP


class ProgrammeArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The PP allocated to the programme (lots of 5)."""

    pp: int


class AllocateUboats(EFOrder[ProgrammeArgs]):
    kind = "allocate_uboats"
    rule = "EF-04"
    help = "EF-04 Axis PP to Enhanced U-boat Production."
    example: ClassVar[Mapping[str, int]] = {"pp": 5}
    Args = ProgrammeArgs
    folds: ClassVar[Mapping[str, Fold]] = {"programme_allocated": fold_programme_allocated}
    #: The side that allocates and the programme it pays into.
    side: ClassVar[str] = "axis"
    programme: ClassVar[Programme] = "uboat_pp"
    title: ClassVar[str] = "Enhanced U-boat Production"

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: ProgrammeArgs) -> None:
        """EF-04/EF-05 The Axis allocates PP to Enhanced U-boat Production (lots of 5; the
        allocation may rise by 5 PP a season)."""
        verify_allocation(ctx, state, cmd.player, self.side, self.programme, args.pp)

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: ProgrammeArgs,
                dice: Dice) -> list[Event]:
        return [allocation_event(cmd.player, self.programme, args.pp)]

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        if player != self.side or state.get("production") is None or \
                not rule_on(ctx, OptionalRule.ENHANCED_UBOATS):
            return []
        top = int(state["pp"][player])
        cands = [Command(self.kind, player, {"pp": pp})
                 for pp in range(PROGRAM_PP, top + 1, PROGRAM_PP)]
        return verified(ctx, state, self.engine_spec(), cands)

    def words(self, ctx: Context, state: EFState, cmd: Command, args: ProgrammeArgs) -> Words:
        return Words(f"{who(cmd.player)}: allocate {args.pp} PP to {self.title} this month",
                     f"{self.title.split()[1]}: {args.pp} PP")
