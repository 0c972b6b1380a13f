"""``supply_check`` (EUR-30): the phasing side's OOS and isolation marks. The engine makes the
check itself as a supply phase opens; the order is owed only where a game starts inside a
supply phase."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import NoArgs, Words
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.supply.commands import (
    execute_supply_check,
    fold_supply_checked,
    verify_supply_check,
)


class SupplyCheck(EuropaOrder[NoArgs]):
    kind = "supply_check"
    rule = "EUR-30"
    help = "The supply phase check: OOS and isolation marks (EUR-30)."
    folds: ClassVar[Mapping[str, Fold]] = {"supply_checked": fold_supply_checked}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: NoArgs) -> None:
        verify_supply_check(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: NoArgs,
                dice: Dice) -> list[Event]:
        return execute_supply_check(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        return self.checked(ctx, state, [Command("supply_check", player, {})])

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return Words("Determine supply", "Supply check")


SUPPLY_CHECK = SupplyCheck()
