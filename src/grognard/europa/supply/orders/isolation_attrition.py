"""``isolation_attrition`` (EUR-31/32): the 2D6 isolation attrition roll for each of the
phasing side's isolated hexes, with the Break Outs the player declares (EUR-31)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, and_list, as_list, hex_name
from grognard.europa.choices import own_units, subsets
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.supply.commands import (
    execute_isolation_attrition,
    fold_isolation_attrition,
    verify_isolation_attrition,
)


class IsolationAttritionArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The isolated hexes that break out (EUR-31). The DRMs' conditions (region, winter,
    home country, a path to a friendly major city) are the referee's facts."""

    break_out: list[str] = []


class IsolationAttrition(EuropaOrder[IsolationAttritionArgs]):
    kind = "isolation_attrition"
    rule = "EUR-32"
    help = "Isolation attrition 2D6 per isolated hex, Break Outs (EUR-31/32)."
    example: ClassVar[Mapping[str, Any]] = {"break_out": []}
    Args = IsolationAttritionArgs
    facts: ClassVar[Mapping[str, str]] = {
        "conditions": "region and home country from the map, winter from the calendar and "
                      "the turn's weather, the path to a friendly major city from "
                      "core.supply.path_to_friendly_city, EUR-32"}
    folds: ClassVar[Mapping[str, Fold]] = {
        "isolation_attrition_rolled": fold_isolation_attrition}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: IsolationAttritionArgs
               ) -> None:
        verify_isolation_attrition(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: IsolationAttritionArgs,
                dice: Dice) -> list[Event]:
        return execute_isolation_attrition(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        """EUR-31/32 Attrition with each choice of isolated hexes breaking out."""
        hexes = sorted({u["hex"] for uid, u in own_units(state, player) if u.get("isolated")})
        return self.checked(ctx, state, [
            Command("isolation_attrition", player, {"break_out": sorted(s)})
            for s in [[], *subsets(hexes, 4)]])

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        bo = as_list(cmd.args.get("break_out"))
        t = "Isolation attrition" + (f", breaking out from {and_list(hex_name(ctx, x) for x in bo)}"
                                     if bo else "")
        return Words(t, t)


ISOLATION_ATTRITION = IsolationAttrition()
