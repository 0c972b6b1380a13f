"""TR-69/TR-70 in the ``third_reich`` engine system: SR by sea (escorted, interceptable) and a
fleet's own SR.

The ``sr`` command with ``kind = "sea"`` carries one own ground or air unit from the port it
stands in to a friendly-controlled port (:func:`grognard.third_reich.movement.sr.verify_sea_sr`): a
``route`` of sea zones (default: the first zone both ports touch, by name), ``escorts``
``{zone: [own fleet ids]}`` with a fleet in a port of every zone of the route (TR-54: the
fleets perform ``sr_escort`` this game turn), no uncontested enemy air zone at either port
(TR-30 air zones from the based air units, :func:`grognard.third_reich.air_naval.air_zones.
air_zone_status`). The defender's interceptions are named on its behalf, ``interceptors``
``{zone: [enemy fleet ids]}``; each fleet sits in a port that may intercept into that zone
(TR-56); the fleets of one port roll one 1D6 (TR-55), the successful ones fight the escorts
of the zone (TR-49) — all through :func:`grognard.third_reich.movement.sr_sea.roll_sea_sr` with the
named stream ``third_reich.sea_sr``; the escort that survives decides (TR-59 reading
``sr_escort_survival``). Engine readings: the interception point of a zone is the
destination port (the last zone) or the junction hex entering the next zone when that hex is
on the map (else the destination), and the range is the hex distance from the intercepting
port to it; the point's air zone is that of the destination; a blocked SR spends its SR
action and the unit stays in its port; no air units fly over the interception (escort and
interceptor air are empty).

``kind = "fleet"`` moves an own fleet from a friendly-controlled port to another
(:func:`grognard.third_reich.movement.sr.verify_fleet_sr`): never intercepted by fleets, neither
port in an uncontested enemy air zone; it spends one SR action (TR-66).
"""

from __future__ import annotations

from typing import Any, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import distance
from grognard.core.mapdata import MapData
from grognard.core.paths import hex_index
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.third_reich.air_naval.air_state import air_zone_for
from grognard.third_reich.air_naval.naval import InterceptionAttempt
from grognard.third_reich.air_naval.naval_ops import (
    AirZone,
    NavalOp,
    fleet_ops,
    naval_interception_possible,
    perform_operation,
    verify_fleet_operation,
)
from grognard.third_reich.air_naval.sea_zones import (
    SeaZones,
    junction,
    may_intercept,
    port_at,
    sea_zones,
)
from grognard.third_reich.air_naval.support_fight import fleet_unit
from grognard.third_reich.board import (
    hex_stacking_limit,
    on_map_ground,
    order_hex,
    side_bridgeheads,
)
from grognard.third_reich.movement.sr import (
    SeaSROrder,
    SRKind,
    SRPhase,
    SRStatus,
    UnitClass,
    record_sr,
    sr_actions_of,
    sr_phase,
    verify_fleet_sr,
    verify_sea_sr,
    verify_sr,
)
from grognard.third_reich.movement.sr_sea import (
    ZoneInterception,
    roll_sea_sr,
    verify_zone_interceptions,
)
from grognard.third_reich.state import AIR_TYPES, FLEET_TYPES
from grognard.third_reich.state_types import SeaSrMade, TRState, TRUnit
from grognard.third_reich.turn.powers import parse_power
from grognard.third_reich.war import (
    at_war_with_any,
    verify_enter,
    verify_interceptor,
)


def _interceptable(ctx: Context, state: TRState, side: str, to: str, route: list[str],
                   power: str = "") -> bool:
    """TR-62: could a sea SR to ``to`` be intercepted - an enemy fleet in a port that may
    intercept into a zone of the route (and ``to`` not in the phasing uncontested air zone,
    TR-60), or enemy air in range (``to`` a contested or enemy air zone)? Only fleets and air
    of powers at war with the SRing ``power`` count (TR-25, issue 23)."""
    m = ctx.scenario.map
    sea = sea_zones(ctx.tables)
    az = air_zone_for(ctx, state, side, power, to)
    if az in (AirZone.CONTESTED, AirZone.ENEMY):
        return True
    if not naval_interception_possible(az):
        return False
    for u in state["units"].values():
        if u["type"] in FLEET_TYPES and u["side"] != side and u["status"] == "active" and \
                u["hex"] is not None and (not power or at_war_with_any(
                    state, power, [str(u.get("power") or "")])):
            p = port_at(m, u["hex"])
            if p is not None and p in sea.ports and \
                    any(may_intercept(sea, p, str(z).lower()) for z in route):
                return True
    return False


def _port(m: MapData, sea: SeaZones, label: str, rule: str, what: str) -> str:
    p = port_at(m, label)
    if p is None or p not in sea.ports:
        raise IllegalOrder(rule, f"{what} {label} is not a port of the sea-zone table")
    return p


def friendly_port(ctx: Context, state: TRState, label: str, side: str) -> bool:
    m = ctx.scenario.map
    return any(state["control"].get(c.name) == side
               for c in m.cities.get(hex_index(m, label), ()))


def _common(ctx: Context, state: TRState, cmd: Command, rule: str) -> tuple[str, str, TRUnit,
                                                                         SRPhase]:
    uid, to = cmd.args.get("unit"), cmd.args.get("to")
    if not isinstance(uid, str):
        raise InputError("args.unit", "name the unit to redeploy")
    if not isinstance(to, str):
        raise InputError("args.to", "name the destination port hex")
    order_hex(ctx.scenario.map, to, "args.to", rule)
    u = state["units"].get(uid)
    if u is None or u["side"] != cmd.player or u["status"] != "active" or u["hex"] is None:
        raise IllegalOrder("TR-66", f"{uid} is not a unit of {cmd.player} on the map")
    if u["hex"] == to:
        raise IllegalOrder("TR-67", f"{uid} is already in {to}")
    sr = sr_actions_of(state, u["power"])
    return uid, to, u, sr


def _fleet_ids(state: TRState, raw: Any, name: str) -> dict[str, list[str]]:
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(
            isinstance(v, list) and all(isinstance(x, str) for x in v) for v in raw.values()):
        raise InputError(f"args.{name}", "give {zone: [fleet ids]}")
    seen = [f for v in raw.values() for f in v]
    if len(set(seen)) != len(seen):
        raise InputError(f"args.{name}", "a fleet is named once")
    return {str(z).lower(): list(v) for z, v in raw.items()}


def _point(ctx: Context, sea: SeaZones, zones: tuple[str, ...], zone: str, to: str,
           power: str) -> str:
    m = ctx.scenario.map
    k = zones.index(zone)
    if k + 1 < len(zones):
        j = junction(sea, zones[k], zones[k + 1], power)
        try:
            hex_index(m, j)
            return j
        except InputError:
            pass
    return to


def sea_sr_check(ctx: Context, state: TRState, cmd: Command) -> dict[str, Any]:
    """TR-69: the checked sea SR order as the event data (without the dice)."""
    m = ctx.scenario.map
    sea = sea_zones(ctx.tables)
    uid, to, u, sr = _common(ctx, state, cmd, "TR-69")
    power = str(u["power"])
    air = u["type"] in AIR_TYPES
    if not (air or on_map_ground(u)):
        raise IllegalOrder("TR-69", f"{uid} is not a ground or air unit (fleets: kind=fleet)")
    verify_sr(sr, uid, SRKind.SEA, ctx.tables)
    o_port = _port(m, sea, cast(str, u["hex"]), "TR-69", "origin")
    bridgehead = to in side_bridgeheads(state, cmd.player) and port_at(m, to) is None
    if bridgehead:  # TR-63: a bridgehead acts as a friendly port (with the SR escort)
        d_port = to
    else:
        d_port = _port(m, sea, to, "TR-69", "destination")
        if not friendly_port(ctx, state, to, cmd.player):
            raise IllegalOrder("TR-67", f"{to} is not a port {cmd.player} controls")
    route = cmd.args.get("route")
    if route is None and bridgehead:
        raise InputError("args.route", "name the route's zones into the bridgehead")
    if route is None:
        common = sorted(sea.ports[o_port].zones & sea.ports[d_port].zones)
        if not common:
            raise InputError("args.route", f"{o_port} and {d_port} share no zone: name the "
                             "route's zones")
        route = [common[0]]
    if not isinstance(route, list) or not all(isinstance(z, str) for z in route):
        raise InputError("args.route", "a list of sea zones")
    escorts = _fleet_ids(state, cmd.args.get("escorts", {}), "escorts")
    ops = fleet_ops(state)
    esc: dict[str, tuple[Any, ...]] = {}
    for z, fs in escorts.items():
        for f in fs:
            v = state["units"].get(f)
            if v is None or v["type"] not in FLEET_TYPES or v["side"] != cmd.player or \
                    v["status"] != "active" or v["hex"] is None:
                raise IllegalOrder("TR-69", f"{f} is not a {cmd.player} fleet on the map")
            p = port_at(m, v["hex"])
            if p is None or p not in sea.ports or z not in sea.ports[p].zones:
                raise IllegalOrder("TR-69", f"escort {f} is not in a port of zone {z}")
            verify_fleet_operation(ops, f, NavalOp.SR_ESCORT)
        esc[z] = tuple(fleet_unit(f, state["units"][f]) for f in fs)
    order = SeaSROrder(uid, UnitClass.AIR if air else UnitClass.GROUND,
                       parse_power(u["power"]), tuple(str(z).lower() for z in route),
                       o_port, d_port, esc,
                       air_zone_for(ctx, state, cmd.player, power, cast(str, u["hex"])),
                       air_zone_for(ctx, state, cmd.player, power, to), bridgehead,
                       to in state.get("invaded_hexes", []),
                       _interceptable(ctx, state, cmd.player, to, route, power))
    zones = verify_sea_sr(order, sea)
    if not air:
        here = sum(1 for v in state["units"].values()
                   if on_map_ground(v) and v["hex"] == to and v["side"] == cmd.player)
        if here + 1 > hex_stacking_limit(state, to):  # TR-63: 4 in a bridgehead
            raise IllegalOrder("TR-67", f"{to} already holds {here} {cmd.player} units")
    interceptors = _fleet_ids(state, cmd.args.get("interceptors", {}), "interceptors")
    declared = []
    for z, fs in sorted(interceptors.items()):
        if z not in zones:
            raise IllegalOrder("TR-69", f"zone {z} is not on the SR's route")
        point = _point(ctx, sea, zones, z, to, u["power"])
        by_port: dict[str, list[str]] = {}
        for f in fs:
            v = verify_interceptor(state, f, cmd.player, [uid])
            verify_fleet_operation(ops, f, NavalOp.INTERCEPTION)
            p = _port(m, sea, v["hex"], "TR-56", f"interceptor {f}'s hex")
            by_port.setdefault(p, []).append(f)
        attempts = tuple(
            InterceptionAttempt(p, tuple(fleet_unit(f, state["units"][f]) for f in ids), z,
                                distance(m.layout.from_label(cast(str, state["units"][ids[0]]["hex"])),
                                         m.layout.from_label(point)))
            for p, ids in sorted(by_port.items()))
        declared.append(ZoneInterception(z, attempts,
                                         air_zone_for(ctx, state, cmd.player, power, to)))
    ports = [a.port for i in declared for a in i.attempts]
    if len(set(ports)) != len(ports):
        raise IllegalOrder("TR-55", "the fleets of one port intercept in one zone")
    verify_zone_interceptions(order, sea, declared)
    # TR-68/TR-69 (issue 23): never from or to a port of a country closed to the power (the
    # destination is checked for every SR kind in air_srs.verify_sr_any)
    verify_enter(ctx, state, power, [cast(str, u["hex"])], "sr")
    _, rec = record_sr(sr, uid, SRKind.SEA, ctx.tables)
    return {"side": cmd.player, "unit": uid, "from": u["hex"], "to": to,
            **rec.to_json(), "route": list(zones), "escorts": {z: escorts[z] for z in zones},
            "interceptors": {i.zone: sorted(f for a in i.attempts for f in
                                            (x.id for x in a.fleets)) for i in declared},
            "order": order, "declared": declared}


def execute_sea_sr(ctx: Context, state: TRState, cmd: Command, dice: Dice) -> list[Event]:
    d = sea_sr_check(ctx, state, cmd)
    order, declared = d.pop("order"), d.pop("declared")
    res = roll_sea_sr(order, sea_zones(ctx.tables), declared,
                      dice.stream("third_reich.sea_sr"), ctx.tables)
    before = {f.id: f.factors for fs in order.escorts.values() for f in fs}
    for i in declared:
        for a in i.attempts:
            before.update({f.id: f.factors for f in a.fleets})
    after: dict[str, int] = {}
    for c in res.combats.values():
        after.update({f.id: f.factors for f in (*c.phasing.fleets, *c.nonphasing.fleets)})
    losses = {k: before[k] - after[k] for k in sorted(after) if before[k] != after[k]}
    escorted = any(d["escorts"].get(z) for z in d["route"])
    return [Event("sea_sr_made", {**d, **res.to_json(), "losses": losses,
                                  "rules": ["TR-59"] if escorted else []})]


def fold_sea_sr_made(state: TRState, ev: Event) -> TRState:
    s = state
    d = cast(SeaSrMade, ev.data)
    sr = sr_phase(state, d["power"])
    s["sr"][d["power"]] = SRPhase(sr.power, int(d["used"]), sr.us_initial,
                                  {**sr.units, d["unit"]: SRKind.SEA}).to_json()
    ops = fleet_ops(state)
    escorts = [f for fs in d["escorts"].values() for f in fs]
    for f in escorts:
        ops, _ = perform_operation(ops, f, NavalOp.SR_ESCORT)
    s["fleet_ops"] = ops.to_json()
    s["fleets_used"] = [*state["fleets_used"], *[f for f in escorts
                                                 if f not in state["fleets_used"]]]
    for uid, lost in d["losses"].items():
        u = s["units"][uid]
        u["attack"] = int(u["attack"]) - int(lost)
        if u["attack"] <= 0:
            u["status"], u["hex"] = "eliminated", None
    if d["status"] == SRStatus.DONE.value:
        s["units"][d["unit"]]["hex"] = d["to"]
    return s


def fleet_sr_check(ctx: Context, state: TRState, cmd: Command) -> dict[str, Any]:
    """TR-70: the checked fleet SR as the event data."""
    m = ctx.scenario.map
    uid, to, u, sr = _common(ctx, state, cmd, "TR-70")
    if u["type"] not in FLEET_TYPES:
        raise IllegalOrder("TR-70", f"{uid} is not a fleet")
    verify_sr(sr, uid, SRKind.FLEET, ctx.tables)
    for label in (cast(str, u["hex"]), to):
        if port_at(m, label) is None:
            raise IllegalOrder("TR-70", f"{label} is not a port")
    power = str(u["power"])
    verify_fleet_sr(friendly_port(ctx, state, cast(str, u["hex"]), cmd.player),
                    friendly_port(ctx, state, to, cmd.player),
                    air_zone_for(ctx, state, cmd.player, power, cast(str, u["hex"])),
                    air_zone_for(ctx, state, cmd.player, power, to))
    verify_enter(ctx, state, power, [cast(str, u["hex"])], "sr")  # TR-70 (issue 23): no neutral port
    _, rec = record_sr(sr, uid, SRKind.FLEET, ctx.tables)
    return {"side": cmd.player, "unit": uid, "from": u["hex"], "to": to, **rec.to_json()}


def execute_fleet_sr(ctx: Context, state: TRState, cmd: Command, dice: Dice) -> list[Event]:
    return [Event("sr_made", {**fleet_sr_check(ctx, state, cmd), "path": [], "rules": ["TR-70"]})]
