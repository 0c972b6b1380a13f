"""TR-53 in the ``third_reich`` engine system: the airborne air-landing SR.

The ``sr`` command with ``kind = "air_landing"`` flies an own airborne unit from the friendly
city it starts the SR phase in to ``to``, optionally landing once at ``via`` on the way (at
most two air links of 6 hexes, :func:`grognard.third_reich.combat.airborne.verify_airborne_sr`):
every stop a city its side controls (the engine's air bases, as for staging), no hex on the
straight hex line of a link in an uncontested enemy air zone (TR-30, from the based air
units), terrain ignored. Engine readings: it spends one SR action of the unit's power
(TR-66; recorded as a land SR of the unit, so the unit SRs once), the unit has not SRed this
phase, and at most 2 own ground units end in ``to`` (TR-67 stacking).
"""

from __future__ import annotations

from typing import Any, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.third_reich.air_naval.air_state import bases
from grognard.third_reich.board import (
    axis_side_of,
    ground_unit_of,
    hex_stacking_limit,
    on_map_ground,
    order_hex,
)
from grognard.third_reich.combat.airborne import airborne_sr
from grognard.third_reich.movement.moves import execute_sr, verify_sr_cmd
from grognard.third_reich.movement.sea_srs import (
    execute_fleet_sr,
    execute_sea_sr,
    fleet_sr_check,
    sea_sr_check,
)
from grognard.third_reich.movement.sr import SRKind, record_sr, sr_actions_of
from grognard.third_reich.state import based_air, side_of
from grognard.third_reich.state_types import TRState
from grognard.third_reich.war import verify_enter

AIR_LANDING = "air_landing"


def air_landing_check(ctx: Context, state: TRState, cmd: Command) -> dict[str, Any]:
    """TR-53: the checked air-landing SR as the ``sr_made`` event data."""
    m = ctx.scenario.map
    uid, to, via = cmd.args.get("unit"), cmd.args.get("to"), cmd.args.get("via")
    if not isinstance(uid, str):
        raise InputError("args.unit", "name the airborne unit")
    if not isinstance(to, str):
        raise InputError("args.to", "name the destination city")
    if via is not None and not isinstance(via, str):
        raise InputError("args.via", "name the intermediate city (or leave it out)")
    stops_l = [to] if via is None else [via, to]
    for label in stops_l:
        order_hex(m, label, "args.to", "TR-53")
    u = state["units"].get(uid)
    if u is None or not on_map_ground(u) or u["side"] != cmd.player:
        raise IllegalOrder("TR-53", f"{uid} is not a ground unit of {cmd.player} on the map")
    if u["hex"] == to:
        raise IllegalOrder("TR-67", f"{uid} is already in {to}")
    sr = sr_actions_of(state, u["power"])
    if uid in sr.units:
        raise IllegalOrder("TR-53", f"{uid} has already made its SR this phase")
    unit = ground_unit_of(uid, u, axis_side_of(ctx))
    side = side_of(ctx, cmd.player)
    friendly = {h: b.side is side for h, b in bases(ctx, state).items()}
    stops = [m.layout.from_label(x) for x in [cast(str, u["hex"]), *stops_l]]
    rec = airborne_sr(unit, stops, friendly, based_air(ctx, state))
    here = sum(1 for v in state["units"].values()
               if on_map_ground(v) and v["hex"] == to and v["side"] == cmd.player)
    if here + 1 > hex_stacking_limit(state, to):  # TR-63: 4 in a bridgehead
        raise IllegalOrder("TR-67", f"{to} already holds {here} {cmd.player} units")
    _, sr_rec = record_sr(sr, uid, SRKind.LAND, ctx.tables)
    return {"side": cmd.player, "unit": uid, "from": u["hex"], "to": to,
            "path": stops_l, **sr_rec.to_json(), "kind": "air_landing",
            "links": list(rec.link_lengths), "rules": ["TR-53"]}


def execute_air_landing_sr(ctx: Context, state: TRState, cmd: Command, dice: Dice) -> list[Event]:
    return [Event("sr_made", air_landing_check(ctx, state, cmd))]


def verify_sr_any(ctx: Context, state: TRState, cmd: Command) -> None:
    """TR-66..TR-70 the ``sr`` command by ``kind``: land, sea, fleet or air_landing."""
    kind = str(cmd.args.get("kind", SRKind.LAND.value))
    _verify_sr_kind(ctx, state, cmd, kind)
    u, to = state["units"].get(cast(str, cmd.args.get("unit"))), cmd.args.get("to")
    if u is not None and u.get("side") == cmd.player and isinstance(to, str):
        verify_enter(ctx, state, str(u.get("power", "")), [to], "sr")  # TR-68 (issue 23)


def _verify_sr_kind(ctx: Context, state: TRState, cmd: Command, kind: str) -> None:
    if kind == AIR_LANDING:
        air_landing_check(ctx, state, cmd)
    elif kind == SRKind.SEA.value:
        sea_sr_check(ctx, state, cmd)
    elif kind == SRKind.FLEET.value:
        fleet_sr_check(ctx, state, cmd)
    else:
        verify_sr_cmd(ctx, state, cmd)


def execute_sr_any(ctx: Context, state: TRState, cmd: Command, dice: Dice) -> list[Event]:
    kind = str(cmd.args.get("kind", SRKind.LAND.value))
    if kind == AIR_LANDING:
        return execute_air_landing_sr(ctx, state, cmd, dice)
    if kind == SRKind.SEA.value:
        return execute_sea_sr(ctx, state, cmd, dice)
    if kind == SRKind.FLEET.value:
        return execute_fleet_sr(ctx, state, cmd, dice)
    return execute_sr(ctx, state, cmd, dice)
