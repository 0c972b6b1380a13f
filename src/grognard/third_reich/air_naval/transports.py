"""TR-54..TR-57 in the ``third_reich`` engine system: naval transport with interception.

``naval_transport`` carries ground units with fleets from a friendly port to a friendly port
of the same sea zone in the ordinary movement phase (:func:`grognard.third_reich.air_naval.naval_ops.
transport`: half the fleet factors in ground factors, units not moved by land; TR-54 one
operation type per fleet per game turn, ``state["fleet_ops"]``). Ports are the map's cities
with a ``red_port``/``black_port`` class; their zones come from the sea-zone table
(:func:`grognard.third_reich.air_naval.sea_zones.sea_zones`, by the city's name in lower case).

The defender's fleets that try to intercept are named in ``interceptors`` by the
non-phasing player's own ``intercept`` decision (:mod:`~grognard.third_reich.reactions`). TR-56: each must sit in a
port of the transport's zone; the interception point within one zone is the destination port,
so the range is the hex distance from its port to the destination. TR-55: the fleets of one
port roll one 1D6 together (named stream ``third_reich.naval``,
:func:`~grognard.third_reich.air_naval.naval.resolve_interceptions`); successful interceptors fight the
transporting fleets (naval-naval, :func:`~grognard.third_reich.air_naval.airnaval.resolve_hex_combat`,
1D10s from the same stream). TR-57 (the transport "is subject to air and naval
interception"): enemy air units named in ``air_interceptors`` (within range of the
destination, unused, not neutralised) join the interceptors, own air in ``escorts`` (in range)
fights with the fleets, in the same air/naval round (TR-49). Reading: if the surviving
fleets can no longer carry the cargo, the whole transport turns back to its port (as an
offshore group does, TR-61).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import distance
from grognard.core.paths import hex_index
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.third_reich.air_naval.air_state import air_zone_at
from grognard.third_reich.air_naval.airnaval import HexForces, resolve_hex_combat
from grognard.third_reich.air_naval.naval import (
    InterceptionAttempt,
    interception_table,
    resolve_interceptions,
)
from grognard.third_reich.air_naval.naval_ops import (
    NavalOp,
    TransportOrder,
    fleet_ops,
    perform_operation,
    transport,
    transport_capacity,
    verify_fleet_operation,
)
from grognard.third_reich.air_naval.sea_zones import may_intercept, port_at, sea_zones
from grognard.third_reich.air_naval.support_fight import (
    fight_rules,
    fleet_unit,
    flying_units,
    ready_air,
    step_json,
)
from grognard.third_reich.board import (
    axis_side_of,
    ground_unit_of,
    on_map_ground,
    order_hex,
    phase_name,
)
from grognard.third_reich.state import FLEET_TYPES
from grognard.third_reich.state_types import NavalTransported, TRState
from grognard.third_reich.turn.sequence import Phase
from grognard.third_reich.war import verify_at_war_with_units, verify_interceptor


def _ids(cmd: Command, name: str) -> list[str]:
    raw = cmd.args.get(name, [])
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw) or \
            len(set(raw)) != len(raw):
        raise InputError(f"args.{name}", "a list of distinct unit ids")
    return list(raw)


def _check(ctx: Context, state: TRState, cmd: Command) -> dict[str, Any]:
    if phase_name(ctx, state) != Phase.MOVEMENT.value:
        raise IllegalOrder("TR-57", "naval transport only in the ordinary movement phase")
    m = ctx.scenario.map
    fleets, units = _ids(cmd, "fleets"), _ids(cmd, "units")
    to = cmd.args.get("to")
    if not isinstance(to, str):
        raise InputError("args.to", "name the destination port hex")
    order_hex(m, to, "args.to", "TR-57")
    starts = set()
    for f in fleets:
        u = state["units"].get(f)
        if u is None or u["type"] not in FLEET_TYPES or u["side"] != cmd.player or \
                u["status"] != "active" or u["hex"] is None:
            raise IllegalOrder("TR-57", f"{f} is not a {cmd.player} fleet on the map")
        starts.add(u["hex"])
        verify_fleet_operation(fleet_ops(state), f, NavalOp.TRANSPORT)
    for uid in units:
        u = state["units"].get(uid)
        if u is None or not on_map_ground(u) or u["side"] != cmd.player:
            raise IllegalOrder("TR-57", f"{uid} is not a ground unit of {cmd.player}")
        starts.add(cast(str, u["hex"]))
    if len(starts) != 1:
        raise IllegalOrder("TR-57", "the fleets and the units start together in one port")
    origin = starts.pop()
    sea = sea_zones(ctx.tables)
    o_port, d_port = port_at(m, origin), port_at(m, to)
    if o_port is None or o_port not in sea.ports:
        raise IllegalOrder("TR-57", f"{origin} is not a port of the sea-zone table")
    if d_port is None or d_port not in sea.ports:
        raise IllegalOrder("TR-57", f"{to} is not a port of the sea-zone table")
    d_city = m.cities[hex_index(m, to)][0].name
    axis = axis_side_of(ctx)
    order = TransportOrder(
        tuple(fleet_unit(f, state["units"][f]) for f in fleets),
        tuple(ground_unit_of(u, state["units"][u], axis) for u in units),
        sea.ports[o_port].zones, sea.ports[d_port].zones,
        destination_friendly=state["control"].get(d_city) == cmd.player,
        units_moved_by_land=tuple(u for u in units if u in state["moved"]
                                  or int(state["units"][u]["mp_spent"]) > 0),
        destination_air_zone=air_zone_at(ctx, state, cmd.player, to))
    rec = transport(order)
    attempts = []
    by_port: dict[str, list[str]] = {}
    for f in _ids(cmd, "interceptors"):
        u = verify_interceptor(state, f, cmd.player, [*fleets, *units])
        port = port_at(m, u["hex"])
        if port is None or port not in sea.ports or not may_intercept(sea, port, rec.zone):
            raise IllegalOrder("TR-56", f"{f} is not in a port of the {rec.zone} zone")
        by_port.setdefault(u["hex"], []).append(f)
    if by_port and not rec.naval_interception_possible:
        raise IllegalOrder("TR-60", "no naval interception in the phasing side's uncontested "
                           "air zone")
    th = m.layout.from_label(to)
    air: dict[str, list[Any]] = {}
    for name, own in (("escorts", True), ("air_interceptors", False)):
        air[name] = []
        for a in _ids(cmd, name):
            u = flying_units(state, a, (lambda v: v["side"] == cmd.player) if own else
                        (lambda v: v["side"] != cmd.player),
                        f"a {cmd.player}" if own else "an enemy")
            unit = ready_air(state, a, u)
            if not own:  # TR-25 (issue 23): air at war with every power moved
                verify_at_war_with_units(state, str(u.get("power") or ""), [*fleets, *units])
            if distance(m.layout.from_label(cast(str, u["hex"])), th) > unit.range:
                raise IllegalOrder("TR-45", f"{a} in {u['hex']} is out of range of {to}")
            air[name].append(unit)
    if air["air_interceptors"] and not rec.air_interception_possible:
        raise IllegalOrder("TR-57", "no air interception of this transport")
    for h, fs in sorted(by_port.items()):
        attempts.append(InterceptionAttempt(
            h, tuple(fleet_unit(f, state["units"][f]) for f in fs), to,
            distance(m.layout.from_label(h), th)))
    return {"side": cmd.player, "fleets": fleets, "units": units, "from": origin, "to": to,
            **rec.to_json(), "attempts": attempts, "interceptor_ports": by_port, "air": air}


def verify_naval_transport(ctx: Context, state: TRState, cmd: Command) -> None:
    _check(ctx, state, cmd)


def execute_naval_transport(ctx: Context, state: TRState, cmd: Command,
                            dice: Dice) -> list[Event]:
    d = _check(ctx, state, cmd)
    attempts: list[InterceptionAttempt] = d.pop("attempts")
    by_port: dict[str, list[str]] = d.pop("interceptor_ports")
    air = d.pop("air")
    stream = dice.stream("third_reich.naval")
    rolls = {a.port: stream.die(6) for a in attempts}
    results, battles = resolve_interceptions(attempts, rolls,
                                            interception_table(ctx.tables))
    combat: dict[str, Any] = {"combat_rolls": [], "steps": [], "losses": {}}
    arrived = True
    if battles or air["air_interceptors"]:
        def d10() -> Iterator[int]:
            while True:
                yield stream.die(10)
        mine = tuple(fleet_unit(f, state["units"][f]) for f in d["fleets"])
        theirs = tuple(fl for b in battles for fl in b.fleets)
        esc, ai = tuple(air["escorts"]), tuple(air["air_interceptors"])
        rec = resolve_hex_combat(HexForces(esc, mine), HexForces(ai, theirs), d10(),
                                 tables=ctx.tables)
        before = {f.id: f.factors for f in (*mine, *theirs, *esc, *ai)}
        after = {f.id: f.factors for f in (*rec.phasing.fleets, *rec.nonphasing.fleets)}
        after |= {a.id: a.factors for a in (*rec.phasing.air, *rec.nonphasing.air)}
        combat = {"combat_rolls": list(rec.rolls), "steps": [step_json(s) for s in rec.steps],
                  "losses": {k: before[k] - after.get(k, 0) for k in sorted(before)
                             if before[k] != after.get(k, 0)}}
        arrived = sum(transport_capacity(f) for f in rec.phasing.fleets) >= d["cargo"]
    flown = sorted(a.id for a in (*air["escorts"], *air["air_interceptors"]))
    if flown:
        d["flown"] = flown
    d["interception"] = {
        "rolls": [{"port": r.port, "fleets": by_port[r.port], "range": r.range_hexes,
                   "roll": r.roll, "needed": r.needed, "intercepted": r.intercepted}
                  for r in results], **combat}
    d["arrived"] = arrived
    rules = fight_rules(combat["steps"], bool(air["air_interceptors"]))
    if rules:  # the interception's air/naval fight (TR-45..TR-49)
        d["rules"] = rules
    return [Event("naval_transported", d)]


def fold_naval_transported(state: TRState, ev: Event) -> TRState:
    s = state
    d = cast(NavalTransported, ev.data)
    ops = fleet_ops(state)
    for f in d["fleets"]:
        ops, _ = perform_operation(ops, f, NavalOp.TRANSPORT)
    s["fleet_ops"] = ops.to_json()
    for uid, lost in d["interception"]["losses"].items():
        u = s["units"][uid]
        u["attack"] = int(u["attack"]) - int(lost)
        if u["attack"] <= 0:
            u["status"], u["hex"] = "eliminated", None
    if d["arrived"]:
        for uid in [*d["fleets"], *d["units"]]:
            if s["units"][uid]["status"] == "active":
                s["units"][uid]["hex"] = d["to"]
    s["moved"] = [*state["moved"], *d["units"]]
    s["fleets_used"] = [*state["fleets_used"], *d["fleets"]]
    s["air_used"] = [*state["air_used"], *d.get("flown", [])]
    return s
