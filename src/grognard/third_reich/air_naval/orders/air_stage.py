"""``air_stage`` (TR-29): an air unit stages from its base to a friendly city within twice its
range (:func:`~grognard.third_reich.air_naval.air_basing.stage`), in the ordinary movement
phase; it has then moved.

Event ``air_staged`` ``{side, unit, from, to, distance, allowance}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command, Verify, first_verified
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order, Words, hex_name
from grognard.engine.system import Places
from grognard.third_reich.air_naval.air_basing import stage
from grognard.third_reich.air_naval.air_state import bases
from grognard.third_reich.air_naval.air_zones import BasedAir
from grognard.third_reich.air_naval.proposers import legal_air_stage
from grognard.third_reich.board import order_hex, phase_name
from grognard.third_reich.proposals import distinct
from grognard.third_reich.state import AIR_TYPES, air_unit, side_of
from grognard.third_reich.state_types import AirStaged, TRState
from grognard.third_reich.turn.sequence import Phase
from grognard.third_reich.war import power_of, verify_enter
from grognard.third_reich.words import unit_name, via_places


class AirStageArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``unit``: the air unit; ``to``: the city it stages to."""

    unit: str
    to: str


def staged(ctx: Context, state: TRState, cmd: Command, args: AirStageArgs) -> dict[str, Any]:
    """TR-29: the staging of ``args.unit`` to ``args.to`` (the event's data), or the rule it
    breaks: only in the ordinary movement phase, an unmoved air unit of the player, to a base
    within twice its range."""
    if phase_name(ctx, state) != Phase.MOVEMENT.value:
        raise IllegalOrder("TR-29", "only in the ordinary movement phase")
    uid = args.unit
    u = state["units"].get(uid)
    if u is None or u["type"] not in AIR_TYPES or u["side"] != cmd.player or \
            u["status"] != "active" or u["hex"] is None:
        raise IllegalOrder("TR-29", f"{uid!r} is not an air unit of {cmd.player} on the map")
    if uid in state["moved"] or uid in state["air_used"]:
        raise IllegalOrder("TR-29", f"{uid} has already moved or flown")
    m = ctx.scenario.map
    order_hex(m, args.to, "args.to", "TR-29")
    me = BasedAir(air_unit(uid, u), side_of(ctx, cmd.player), m.layout.from_label(u["hex"]))
    _, rec = stage(me, m.layout.from_label(args.to), bases(ctx, state))
    return {"side": cmd.player, "unit": uid, "from": u["hex"], "to": args.to,
            "distance": rec.distance, "allowance": rec.allowance}


def fold_air_staged(state: TRState, ev: Event) -> TRState:
    """TR-29: the air unit is at its new base and has moved."""
    d = cast(AirStaged, ev.data)
    state["units"][d["unit"]]["hex"] = d["to"]
    state["moved"] = [*state["moved"], d["unit"]]
    return state


class AirStage(Order[AirStageArgs]):
    """TR-29 Stage an air unit city to city within 2x its range."""

    kind = "air_stage"
    rule = "TR-29"
    Args = AirStageArgs
    help = "TR-29 Stage an air unit city to city within 2x its range."
    example: ClassVar[Mapping[str, object]] = {"unit": "ge-air2", "to": "C11"}
    folds: ClassVar[Mapping[str, Fold]] = {"air_staged": fold_air_staged}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: AirStageArgs) -> None:
        if args.unit in state["units"] and state["units"][args.unit]["side"] == cmd.player:
            verify_enter(ctx, state, power_of(state, args.unit), [args.to], "air")  # TR-25
        staged(ctx, state, cmd, args)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: AirStageArgs,
                dice: Dice) -> list[Event]:
        return [Event("air_staged", staged(ctx, state, cmd, args))]

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        """TR-29: each air unit to each city within twice its range."""
        return distinct(legal_air_stage)(ctx, state, player)

    def any_legal(self, ctx: Context, state: TRState, player: str, verify: Verify) -> bool:
        """Whether :meth:`propose` has a legal staging: its candidates to the side's
        in-supply bases only (verify refuses every other: TR-29), in the listing's order."""
        b, side, m = bases(ctx, state), side_of(ctx, player), ctx.scenario.map
        open_: dict[str, bool] = {}

        def is_open(to: str) -> bool:
            got = open_.get(to)
            if got is None:
                x = b.get(m.layout.from_label(to))
                got = open_[to] = x is not None and x.side is side and x.in_supply
            return got

        return first_verified(ctx, state, verify, (
            c for c in legal_air_stage(ctx, state, player) if is_open(str(c.args["to"]))))

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        return Words(f"Air stage: {unit_name(state, a.get('unit'))} to {hex_name(ctx, a.get('to'))}",
                     f"stage to {a.get('to')}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return via_places(cmd)


__all__ = ["AirStage", "AirStageArgs", "fold_air_staged", "staged"]
