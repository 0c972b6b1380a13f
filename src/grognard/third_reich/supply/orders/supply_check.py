"""``supply_check`` (TR-72/TR-73): the phasing side's supply check - which of its units are
out of supply - and the isolation roll (2D6 from ``third_reich.isolation``) of each hex of
out-of-supply units, unless the player breaks them out (TR-72: they are removed instead).
Once per supply phase.

Event ``supply_checked`` ``{side, out_of_supply, hexes, ussr_sources, breakout, rolls,
eliminated}`` (docs/formats/tr_engine.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold, writes_units
from grognard.engine.orders import Order, Words, and_list, as_list, hex_name
from grognard.third_reich.board import eliminate_units
from grognard.third_reich.state_types import SupplyChecked, TRState
from grognard.third_reich.supply.isolation import isolation_table
from grognard.third_reich.turn.calendar import WEATHER_TABLE_ID
from grognard.third_reich.war import side_supply_check


class SupplyCheckArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``breakout``: the hexes whose out-of-supply units break out (none: every such hex
    rolls for isolation)."""

    breakout: list[str] = msgspec.field(default_factory=list)


@writes_units(lambda ev: [*ev.data["breakout"], *ev.data["eliminated"]], fields=("supply",))
def fold_supply_checked(state: TRState, ev: Event) -> TRState:
    """TR-72/TR-73: the units broken out and those the isolation rolls eliminate leave the
    map; every unit of the side on the map is marked in or out of supply."""
    d = cast(SupplyChecked, ev.data)
    eliminate_units(state, list(d["breakout"]) + list(d["eliminated"]))
    out = set(d["out_of_supply"])
    for uid, u in state["units"].items():
        if u["side"] == d["side"] and u["status"] == "active" and u["hex"] is not None:
            u["supply"] = "out" if uid in out else "in"
    state["supply_checked"] = True
    return state


class SupplyCheck(Order[SupplyCheckArgs]):
    """TR-72/TR-73 Supply check and isolation rolls."""

    kind = "supply_check"
    rule = "TR-72"
    Args = SupplyCheckArgs
    help = "TR-72/TR-73 Supply check and isolation rolls."
    example: ClassVar[Mapping[str, object]] = {"breakout": []}
    folds: ClassVar[Mapping[str, Fold]] = {"supply_checked": fold_supply_checked}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: SupplyCheckArgs) -> None:
        if state["supply_checked"]:
            raise IllegalOrder("TR-72", "the supply check of this phase is done")
        twice = sorted({h for h in args.breakout if args.breakout.count(h) > 1})
        if twice:
            raise IllegalOrder("TR-72", f"{', '.join(twice)} named twice: a hex breaks out once")
        if not args.breakout:
            return  # nothing to check against the trace: the check itself is always owed
        out_hexes = {h.hex for h in side_supply_check(ctx, state, cmd.player).hexes}
        for h in args.breakout:
            if h not in out_hexes:
                raise IllegalOrder("TR-72", f"{h} holds no out-of-supply unit of {cmd.player}")

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: SupplyCheckArgs,
                dice: Dice) -> list[Event]:
        chk = side_supply_check(ctx, state, cmd.player)
        breakout = set(args.breakout)
        stream = dice.stream("third_reich.isolation")
        rolls: list[dict[str, object]] = []
        eliminated: list[str] = []
        broke: list[str] = []
        for h in chk.hexes:
            if h.hex in breakout:
                broke += h.units
                continue
            r = stream.roll("2d6")
            rec = h.roll(r.total, isolation_table(ctx.tables),
                         weather_table=ctx.tables.get(WEATHER_TABLE_ID))
            rolls.append({"hex": h.hex, "dice": list(r.dice), **rec.to_json()})
            if rec.eliminated:
                eliminated += h.units
        return [Event("supply_checked", {**chk.to_json(), "breakout": sorted(broke),
                                         "rolls": rolls, "eliminated": sorted(eliminated)})]

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterator[Command]:
        """TR-72: the check, with no breakout or with each out-of-supply hex breaking out."""
        if state.get("supply_checked"):
            return
        yield Command(self.kind, player, {"breakout": []})
        for h in side_supply_check(ctx, state, player).hexes:
            yield Command(self.kind, player, {"breakout": [h.hex]})

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        bo = as_list(cmd.args.get("breakout"))
        t = "Supply check" + (f", breaking out from {and_list(hex_name(ctx, x) for x in bo)}"
                              if bo else "")
        return Words(t, t)


__all__ = ["SupplyCheck", "SupplyCheckArgs", "fold_supply_checked"]
