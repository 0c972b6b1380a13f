"""``sw_convert`` (TR-81): the owner names the unit a forced strategic warfare conversion
removes - a Germany air unit of 5 attack factors, or a 9-factor fleet of the converting
UK/US; on the map first (reading: "from the map"), from the force pool or the eliminated only
when none is on the map. The unit goes to the strategic warfare box for good. A decision owed
after the bomber round or the Year Start that converted
(:mod:`~grognard.third_reich.strategic.sw_conversions`).

Event ``sw_unit_converted`` ``{power, unit, rule}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order, Words
from grognard.engine.system import Places
from grognard.third_reich.state_types import SwUnitConverted, TRState
from grognard.third_reich.strategic.sw_conversions import BOX, CONVERTED, STATUS, candidates, owed
from grognard.third_reich.words import named_units, unit_name


class SwConvertArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``unit``: the air fleet (Germany) or fleet (UK/US) the conversion removes."""

    unit: str


def converted(state: TRState, cmd: Command, args: SwConvertArgs) -> str:
    """TR-81: the power whose conversion ``args.unit`` settles, or the rule it breaks."""
    uid = args.unit
    u = state["units"].get(uid)
    if u is None:
        raise InputError("args.unit", f"no unit {uid!r}")
    power = str(u.get("power"))
    if state["power_sides"].get(power) != cmd.player:
        raise IllegalOrder("TR-81", f"{uid} is not a unit of {cmd.player}")
    if owed(state).get(power, 0) < 1:
        raise IllegalOrder("TR-81", f"{power} owes no forced conversion")
    if uid not in candidates(state, power):
        kind, factors = CONVERTED[power]
        raise IllegalOrder("TR-81", f"{power} removes a {factors}-factor {kind} unit, from the "
                           f"map while it has one there: not {uid}")
    return power


def fold_sw_unit_converted(state: TRState, ev: Event) -> TRState:
    """TR-81: the unit leaves the map and the force pool for the strategic warfare box."""
    d = cast(SwUnitConverted, ev.data)
    u = state["units"][d["unit"]]
    u["status"], u["hex"], u["box"] = STATUS, None, BOX
    conv = dict(state["sw_conversions"])
    conv[d["power"]] = int(conv[d["power"]]) - 1
    state["sw_conversions"] = conv
    return state


class SwConvert(Order[SwConvertArgs]):
    """TR-81 Remove the unit a forced strategic warfare conversion takes (Germany: a 5-factor
    air fleet; UK/US: a 9-factor fleet)."""

    kind = "sw_convert"
    rule = "TR-81"
    Args = SwConvertArgs
    help = ("TR-81 Remove the unit a forced strategic warfare conversion takes (Germany: a "
            "5-factor air fleet; UK/US: a 9-factor fleet).")
    example: ClassVar[Mapping[str, object]] = {"unit": "ger-air1"}
    folds: ClassVar[Mapping[str, Fold]] = {"sw_unit_converted": fold_sw_unit_converted}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: SwConvertArgs) -> None:
        converted(state, cmd, args)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: SwConvertArgs,
                dice: Dice) -> list[Event]:
        power = converted(state, cmd, args)
        return [Event("sw_unit_converted", {"power": power, "unit": args.unit, "rule": "TR-81"})]

    def legal(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        """Each candidate unit of each power of ``player`` owing a conversion."""
        return [Command(self.kind, player, {"unit": uid})
                for power in owed(state) if state["power_sides"].get(power) == player
                for uid in candidates(state, power)]

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return Words(f"Convert {unit_name(state, cmd.args.get('unit'))} to strategic warfare "
                     "factors", "convert to SW")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(None, None, (), named_units(cmd, "unit"))


__all__ = ["SwConvert", "SwConvertArgs", "fold_sw_unit_converted"]
