"""``build`` (TR-31, TR-75): a power buys unit factors - infantry, armor, air, airborne,
fleets, replacements - at TR-31's prices, within the purchase caps over the turn's total (one
fleet a turn, the air cap) and the half-of-total spending cap.

Event ``units_bought`` ``{power, basket, cost}``; ledger ``TR-75``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold, writes_units
from grognard.engine.orders import Order, Words, and_list, plural
from grognard.third_reich.board import economy_of, payer, payers
from grognard.third_reich.economy.builds import Basket, buy, verify_purchase
from grognard.third_reich.economy.economy import economy_json
from grognard.third_reich.state_types import BuildRecord, TRState, UnitsBought
from grognard.third_reich.words import acting_power, power_name

#: The factors a ``build`` may buy (the fields of :class:`Basket`).
BASKET_FIELDS = ("infantry_factors", "armor_factors", "air_factors", "airborne_factors",
                 "naval_fleets", "replacements")
#: The factors as the rules name them, one of each (for the order in words).
BUILD_WORDS = {"infantry_factors": "infantry factor", "armor_factors": "armor factor",
               "air_factors": "air factor", "airborne_factors": "airborne factor",
               "naval_fleets": "fleet", "replacements": "replacement"}

Count = Annotated[int, msgspec.Meta(ge=0)]


class BuildArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The factors bought (whole numbers >= 0, at least one above 0) and the paying power
    (None: the side's first power with an economy)."""

    infantry_factors: Count = 0
    armor_factors: Count = 0
    air_factors: Count = 0
    airborne_factors: Count = 0
    naval_fleets: Count = 0
    replacements: Count = 0
    power: str | None = None


def basket_of(args: BuildArgs) -> Basket:
    """The :class:`Basket` an order buys (something must be bought)."""
    basket = Basket(**{f: getattr(args, f) for f in BASKET_FIELDS})
    if not any(getattr(basket, f) for f in BASKET_FIELDS):
        raise InputError("args", f"buy something ({', '.join(BASKET_FIELDS)})")
    return basket


def turn_basket(state: TRState, power: str, add: Basket) -> Basket:
    """TR-75: what ``power`` has bought this turn with ``add``."""
    before = cast("Mapping[str, int]", state["built"].get(power, {}))
    return Basket(**{f: int(before.get(f, 0)) + getattr(add, f) for f in BASKET_FIELDS})


@writes_units()
def fold_units_bought(state: TRState, ev: Event) -> TRState:
    """TR-31/TR-75: the cost is posted; the turn's purchases grow."""
    d = cast(UnitsBought, ev.data)
    basket = Basket(**d["basket"])
    econ, _ = buy(economy_of(state), d["power"], basket)
    state["economy"] = economy_json(econ)
    total = turn_basket(state, d["power"], basket)
    state["built"][d["power"]] = cast(BuildRecord, {f: getattr(total, f) for f in BASKET_FIELDS})
    return state


class Build(Order[BuildArgs]):
    """TR-31/TR-75 Buy units (half-of-total cap, purchase caps)."""

    kind = "build"
    rule = "TR-75"
    Args = BuildArgs
    help = "TR-31/TR-75 Buy units (half-of-total cap, purchase caps)."
    example: ClassVar[Mapping[str, object]] = {"power": "germany", "infantry_factors": 3}
    folds: ClassVar[Mapping[str, Fold]] = {"units_bought": fold_units_bought}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: BuildArgs) -> None:
        basket = basket_of(args)
        power = payer(state, cmd.player, args.power)
        econ = economy_of(state)
        verify_purchase(power, econ.year, turn_basket(state, power, basket))
        buy(econ, power, basket)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: BuildArgs,
                dice: Dice) -> list[Event]:
        basket = basket_of(args)
        return [Event("units_bought", {"power": payer(state, cmd.player, args.power),
                                       "basket": {f: getattr(basket, f) for f in BASKET_FIELDS},
                                       "cost": basket.cost()})]

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        """TR-31/TR-75: one kind of unit at a time, in a few sizes."""
        for power in payers(state, player):
            for f in BASKET_FIELDS:
                for n in (1, 2, 3, 5):
                    yield Command(self.kind, player, {"power": power, f: n})

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        power = power_name(acting_power(state, cmd))
        parts = [plural(int(a[f]), word) for f, word in BUILD_WORDS.items()
                 if isinstance(a.get(f), int) and a[f]]
        return Words(f"{power} builds {and_list(parts) or 'nothing'}", f"build {and_list(parts)}")


__all__ = ["BASKET_FIELDS", "Build", "BuildArgs", "fold_units_bought"]
