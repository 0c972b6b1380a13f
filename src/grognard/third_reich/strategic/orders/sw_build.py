"""``sw_build`` (TR-80/TR-31/TR-82): a power buys strategic warfare factors in its build
phase - 3 BRPs each, within the year's limit for the kind
(:func:`~grognard.third_reich.strategic.strategic_warfare.buy_sw_factors`), never before
Spring 1940; they go to its SW box.

Event ``sw_factors_bought`` ``{power, category, factors, cost, rule}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError, IllegalOrder, InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order, Words, plural
from grognard.third_reich.board import economy_of, powers_of_side
from grognard.third_reich.state_types import EconomyJSON, SwFactorsBought, TRState
from grognard.third_reich.strategic.strategic_warfare import (
    SW_CATEGORIES,
    SW_FACTOR_BRPS,
    buy_sw_factors,
)
from grognard.third_reich.strategic.sw_boxes import economy_powers, opened_economy, sw_boxes_of
from grognard.third_reich.turn.calendar import SPRING_1940
from grognard.third_reich.turn.powers import Power
from grognard.third_reich.words import power_name


class SwBuildArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``power`` buys ``factors`` (a whole number >= 1) of ``category`` (subs, asw, bombers,
    interceptors)."""

    power: str
    category: str
    factors: int


def fold_sw_factors_bought(state: TRState, ev: Event) -> TRState:
    """TR-80: the BRPs are paid; the factors go to the power's SW box."""
    d = cast(SwFactorsBought, ev.data)
    econ, _ = buy_sw_factors(opened_economy(economy_of(state), d["power"]), d["power"],
                             d["category"], d["factors"])
    state["economy"] = cast(EconomyJSON, econ.to_json())
    boxes = sw_boxes_of(state)
    box = boxes[d["power"]]
    box[d["category"]] = int(box[d["category"]]) + int(d["factors"])
    state["sw_boxes"] = boxes
    return state


class SwBuild(Order[SwBuildArgs]):
    """TR-80/TR-31 Buy strategic warfare factors (3 BRPs each, within the year's limit)."""

    kind = "sw_build"
    rule = "TR-80"
    Args = SwBuildArgs
    help = "TR-80/TR-31 Buy strategic warfare factors (3 BRPs each, within the year's limit)."
    example: ClassVar[Mapping[str, object]] = {"power": "germany", "category": "subs",
                                               "factors": 2}
    folds: ClassVar[Mapping[str, Fold]] = {"sw_factors_bought": fold_sw_factors_bought}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: SwBuildArgs) -> None:
        if args.factors < 1:
            raise InputError("args.factors",
                             f"a whole number of factors >= 1, not {args.factors!r}")
        if args.power not in powers_of_side(state, cmd.player):
            raise IllegalOrder("TR-80", f"{args.power} is not a power of {cmd.player}")
        econ = economy_of(state)
        if args.power not in economy_powers(econ):
            raise IllegalOrder("TR-80", f"{args.power} has no BRP economy in this game yet")
        buy_sw_factors(opened_economy(econ, args.power), args.power, args.category,
                       args.factors)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: SwBuildArgs,
                dice: Dice) -> list[Event]:
        return [Event("sw_factors_bought", {
            "power": args.power, "category": args.category, "factors": args.factors,
            "cost": args.factors * SW_FACTOR_BRPS, "rule": "TR-80"})]

    def legal(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        """Every purchase the year's limits allow (1 factor up to the most the limit leaves)."""
        econ = economy_of(state)
        if econ.turn < SPRING_1940:
            return []
        out = []
        for power in powers_of_side(state, player):
            if power not in economy_powers(econ):
                continue
            for kind in SW_CATEGORIES.get(Power(power), ()):
                limit = econ.balance(f"{power}.sw_limit.{kind}") - \
                    econ.balance(f"{power}.sw_spent.{kind}")
                for n in range(1, int(limit // SW_FACTOR_BRPS) + 1):
                    cmd = Command(self.kind, player, {"power": power, "category": kind,
                                                      "factors": n})
                    try:
                        self.verify(ctx, state, cmd, self.args(ctx, cmd))
                    except GrognardError:
                        break
                    out.append(cmd)
        return out

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        return Words(f"{power_name(a.get('power'))} builds "
                     f"{plural(int(a.get('factors') or 0), str(a.get('category')).rstrip('s'))}"
                     " (strategic warfare)", f"SW: {a.get('factors')} {a.get('category')}")


__all__ = ["SwBuild", "SwBuildArgs", "fold_sw_factors_bought"]
