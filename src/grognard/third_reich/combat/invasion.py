"""TR-61..TR-63 in the ``third_reich`` engine system: amphibious invasions and bridgeheads.

``invade`` (ordinary movement phase, offensive option on the beach's front): one or more
offshore groups, each ``{hex, fleets, cargo {fleet: [units]}, zone?}`` - an all-sea hex
adjacent to the ``beach`` (a land hex), own fleets that start in a port of the sea-zone table
together with the units they carry (TR-61: the zone is the one the fleets' ports share; name
``zone`` when two are shared), TR-54 one operation type per fleet per game turn
(``invasion``), at most 2 units per offshore hex and a third of a fleet's factors carried
(:func:`grognard.third_reich.combat.amphibious.verify_invasion`), neither the offshore hexes nor the
beach an uncontested enemy air zone (TR-30 from the based air units, counter-air
neutralisation counted). The defender's reactions are named on its behalf:
``interceptors`` ``{offshore hex: [enemy fleet ids]}`` (each in a port that may intercept into
the zone, TR-56; range = hex distance from its port to the offshore hex; none in the
invader's uncontested air zone, TR-60) and ``air_interceptors`` ``{offshore hex: [enemy air
ids]}`` (within range of the offshore hex, unused, not neutralised); the invader's
``escorts`` ``{offshore hex: [own air ids]}`` fight with the fleets. Each group's
interception is :func:`~grognard.third_reich.combat.amphibious.intercept_offshore` (one 1D6 per
port, then 1D10s of the air/naval round); fleets left unable to carry their cargo turn back
with it (TR-61). Then :func:`~grognard.third_reich.combat.amphibious.resolve_invasion`: an empty
beach is taken and the landing units advance (up to 4); otherwise the land CRT with the
amphibious shift (TR-34), the invasion support of the landing fleets (transports at a third
of printed strength), bombarding fleets in the groups and the own ``air`` units in range of
the beach (capped at twice the defence, TR-35), a 2D6 roll. All dice come from the named
stream ``third_reich.invasion``, in that order, and are in the event.

Engine readings (the rules split this over the movement and combat phases; the engine
resolves the invasion at once when it is ordered): each side chooses its CRT losses
(``land_losses``, TR-32) and the invader which survivors land (``advance``: none is legal,
and the bridgehead is placed only when some land; an empty beach is taken by every landing
unit); a defender beaten off the beach chooses its retreat hexes within stacking (``retreat``,
TR-32, as after any attack; with no room it loses one more unit and holds the beach); an
invader retreat or a failed invasion returns the surviving invaders to their port; the
fleets stay in their ports, tapped. A success places a bridgehead of the invading units'
power (TR-63, :func:`grognard.third_reich.combat.bridgeheads.place_bridgehead`, at most 3; name
``remove_bridgehead`` to replace one at the limit): ``state["bridgeheads"]`` lists every
bridgehead hex (not a hexes-won candidate, TR-40), ``state["bridgehead_owners"]`` the
:class:`~grognard.third_reich.combat.bridgeheads.Bridgeheads` JSON (power -> hexes), and the supply
check of a side uses its own powers' bridgeheads as sources (TR-63/TR-72). Removal (TR-63)
happens in ``end_phase`` when a power's player turn starts and no enemy unit is adjacent
(reading ``bridgehead_removal_check = start``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import distance
from grognard.core.mapdata import WATER_TERRAIN, Fortification
from grognard.core.paths import hex_index
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.third_reich.air_naval.air_state import air_zone_at as _air_zone
from grognard.third_reich.air_naval.naval import InterceptionAttempt
from grognard.third_reich.air_naval.naval_ops import (
    NavalOp,
    naval_interception_possible,
    perform_operation,
    verify_fleet_operation,
)
from grognard.third_reich.air_naval.naval_ops import fleet_ops as _fleet_ops
from grognard.third_reich.air_naval.sea_zones import (
    may_intercept,
    offshore_zone,
    port_at,
    sea_zones,
)
from grognard.third_reich.air_naval.support_fight import (
    fight_rules,
    fleet_unit,
    flying_units,
    ready_air,
)
from grognard.third_reich.air_naval.support_fight import step_json as _step_json
from grognard.third_reich.board import (
    axis_side_of,
    eliminate_units,
    ground_unit_of,
    hex_front,
    on_map_ground,
    order_hex,
    phase_name,
)
from grognard.third_reich.combat.amphibious import (
    InvasionOutcome,
    InvasionPlan,
    OffshoreGroup,
    intercept_offshore,
    resolve_invasion,
    verify_invasion,
)
from grognard.third_reich.combat.battle import (
    MAP_TERRAIN,
    apply_settlement,
    battle_losses,
    retreat_plan,
    settle_battle,
)
from grognard.third_reich.combat.bridgeheads import Bridgeheads, place_bridgehead
from grognard.third_reich.combat.combat import Terrain
from grognard.third_reich.state import FLEET_TYPES
from grognard.third_reich.state_types import FrontOption, Invaded, TRState, TRUnit
from grognard.third_reich.turn.calendar import weather, weather_region
from grognard.third_reich.turn.forces import AirUnit, Fleet
from grognard.third_reich.turn.sequence import Phase


def _hex_lists(cmd: Command, name: str) -> dict[str, list[str]]:
    raw = cmd.args.get(name, {})
    if not isinstance(raw, dict) or not all(
            isinstance(v, list) and all(isinstance(x, str) for x in v) for v in raw.values()):
        raise InputError(f"args.{name}", "give {offshore hex: [unit ids]}")
    return {str(k): list(v) for k, v in raw.items()}


def _in_range(ctx: Context, u: TRUnit, a: AirUnit, target: str) -> bool:
    m = ctx.scenario.map
    return distance(m.layout.from_label(cast(str, u["hex"])), m.layout.from_label(target)) <= a.range


def _air(ctx: Context, state: TRState, ids: list[str], own: bool, side: str, target: str,
         rule: str) -> tuple[AirUnit, ...]:
    out = []
    for uid in ids:
        u = flying_units(state, uid, (lambda v: v["side"] == side) if own else
                    (lambda v: v["side"] != side), f"a {side}" if own else "an enemy")
        a = ready_air(state, uid, u)
        if not _in_range(ctx, u, a, target):
            raise IllegalOrder(rule, f"{uid} in {u['hex']} is out of range of {target}")
        out.append(a)
    return tuple(out)


def _group_zone(ctx: Context, label: str, named: object, zones: set[str], where: str) -> str:
    """TR-61: an invasion sails "within the same zone": the offshore hex's zone is the map's
    (a fact the order never chooses) and must be one of the zones the fleets' ports share.
    On a map without sea zones the zone is the one the ports share; a group names it only
    when two are shared (a dual-zone port's fleets, e.g. Kiel's)."""
    on_map = offshore_zone(ctx, label)
    if on_map is not None:
        if named is not None and str(named).lower() != on_map:
            raise IllegalOrder("TR-61", f"{where}: {label} is in the {on_map} zone, "
                               f"not {str(named).lower()}")
        if on_map not in zones:
            raise IllegalOrder("TR-61", f"{where}: {label} is in the {on_map} zone; the "
                               f"fleets' ports share {', '.join(sorted(zones)) or 'no zone'}")
        return on_map
    if named is None:
        if not zones or len(zones) > 1:
            raise IllegalOrder("TR-61", f"{where}: the fleets' ports share "
                               f"{len(zones)} zones; name the group's zone")
        return next(iter(zones))
    return str(named).lower()


def _groups(ctx: Context, state: TRState, cmd: Command, beach: str) -> list[dict[str, Any]]:
    m = ctx.scenario.map
    sea = sea_zones(ctx.tables)
    raw = cmd.args.get("groups")
    if not isinstance(raw, list) or not raw or not all(isinstance(g, dict) for g in raw):
        raise InputError("args.groups", "list the offshore groups {hex, fleets, cargo}")
    axis, ops = axis_side_of(ctx), _fleet_ops(state)
    bh = m.layout.from_label(beach)
    out, seen = [], set()
    for k, g in enumerate(raw):
        where = f"args.groups[{k}]"
        label, fleets, cargo = g.get("hex"), g.get("fleets", []), g.get("cargo", {})
        if not isinstance(label, str):
            raise InputError(f"{where}.hex", "name the offshore sea hex")
        if not isinstance(fleets, list) or not fleets or \
                not all(isinstance(f, str) for f in fleets):
            raise InputError(f"{where}.fleets", "list the group's fleets")
        if not isinstance(cargo, dict) or not all(
                isinstance(v, list) and all(isinstance(x, str) for x in v)
                for v in cargo.values()):
            raise InputError(f"{where}.cargo", "give {fleet: [ground unit ids]}")
        oh = order_hex(m, label, f"{where}.hex", "TR-61")
        if m.terrain_of(m.hex(oh)) not in WATER_TERRAIN or distance(m.hex(oh), bh) != 1:
            raise IllegalOrder("TR-61", f"{label} is not a sea hex adjacent to {beach}")
        zones: set[str] | None = None
        ports: dict[str, str] = {}
        for f in fleets:
            u = state["units"].get(f)
            if f in seen or u is None or u["type"] not in FLEET_TYPES or \
                    u["side"] != cmd.player or u["status"] != "active" or u["hex"] is None:
                raise IllegalOrder("TR-61", f"{f} is not a {cmd.player} fleet on the map")
            seen.add(f)
            p = port_at(m, u["hex"])
            if p is None or p not in sea.ports:
                raise IllegalOrder("TR-61", f"{f} is not in a port of the sea-zone table")
            verify_fleet_operation(ops, f, NavalOp.INVASION)
            ports[f] = u["hex"]
            zs = set(sea.ports[p].zones)
            zones = zs if zones is None else zones & zs
        zone = _group_zone(ctx, label, g.get("zone"), zones or set(), where)
        units = []
        for fid, ids in cargo.items():
            if fid not in fleets:
                raise InputError(f"{where}.cargo", f"fleet {fid} is not in the group")
            for uid in ids:
                u = state["units"].get(uid)
                if uid in seen or u is None or not on_map_ground(u) or u["side"] != cmd.player:
                    raise IllegalOrder("TR-61", f"{uid} is not a ground unit of {cmd.player}")
                seen.add(uid)
                if u["hex"] != ports[fid]:
                    raise IllegalOrder("TR-61", f"{uid} is not in {fid}'s port")
                if uid in state["moved"] or int(u["mp_spent"]) > 0:
                    raise IllegalOrder("TR-61", f"{uid} has moved this phase")
                units.append(ground_unit_of(uid, u, axis))
        group = OffshoreGroup(
            label, zone, tuple(fleet_unit(f, state["units"][f]) for f in fleets), tuple(units),
            {f: tuple(ids) for f, ids in cargo.items()},
            _air_zone(ctx, state, cmd.player, label),
            {f: sea.ports[str(port_at(m, ports[f]))].zones for f in fleets})
        out.append({"group": group, "ports": ports})
    return out


def _check(ctx: Context, state: TRState, cmd: Command) -> dict[str, Any]:
    if phase_name(ctx, state) != Phase.MOVEMENT.value:
        raise IllegalOrder("TR-61", "amphibious invasions are made in the movement phase only")
    m = ctx.scenario.map
    beach = cmd.args.get("beach")
    if not isinstance(beach, str):
        raise InputError("args.beach", "name the beach hex")
    h = order_hex(m, beach, "args.beach", "TR-61")
    if m.terrain_of(m.hex(h)) in WATER_TERRAIN:
        raise IllegalOrder("TR-61", f"{beach} is not a land hex")
    front = hex_front(m, h)
    if state["options"].get(cmd.player, {}).get(front, cast(FrontOption, {})).get("option") \
            != "offensive":
        raise IllegalOrder("TR-03", f"{beach} is on the {front} front, where {cmd.player} has "
                           "no offensive option")
    groups = _groups(ctx, state, cmd, beach)
    plan = InvasionPlan(beach, tuple(g["group"] for g in groups),
                        _air_zone(ctx, state, cmd.player, beach))
    verify_invasion(plan)
    sea = sea_zones(ctx.tables)
    by_hex = {g["group"].hex: g["group"] for g in groups}
    interceptors, air_int = _hex_lists(cmd, "interceptors"), _hex_lists(cmd, "air_interceptors")
    escorts = _hex_lists(cmd, "escorts")
    flying: list[str] = []
    for name, d in (("interceptors", interceptors), ("air_interceptors", air_int),
                    ("escorts", escorts)):
        for label, ids in d.items():
            if label not in by_hex:
                raise IllegalOrder("TR-61", f"{label} is not an offshore hex of the invasion")
            if name != "interceptors":
                flying += ids
    if len(set(flying)) != len(flying):
        raise InputError("args", "an air unit flies one mission")
    attempts: dict[str, list[InterceptionAttempt]] = {}
    # TR-25 (issue 23): only fleets and air of a power at war with every invading power
    from grognard.third_reich.war import verify_at_war_with_units, verify_interceptor

    invaders = sorted({f for g in groups for f in g["ports"]} |
                      {u.id for g in groups for u in g["group"].units})
    for ids in air_int.values():
        for a in ids:
            if a in state["units"]:
                verify_at_war_with_units(state, str(state["units"][a].get("power") or ""),
                                         invaders)
    for label, ids in interceptors.items():
        if ids and not naval_interception_possible(by_hex[label].air_zone):
            # TR-60, judged with the order (not only when it is carried out), so the
            # defender is never offered fleets the referee would then refuse
            raise IllegalOrder("TR-60", f"offshore hex {label} is in the invader's "
                               "uncontested air zone; it cannot be intercepted by fleets")
        by_port: dict[str, list[str]] = {}
        for f in ids:
            u = verify_interceptor(state, f, cmd.player, invaders)
            verify_fleet_operation(_fleet_ops(state), f, NavalOp.INTERCEPTION)
            p = port_at(m, u["hex"])
            if p is None or p not in sea.ports or not may_intercept(sea, p,
                                                                    by_hex[label].zone):
                raise IllegalOrder("TR-56", f"{f} is not in a port of the "
                                   f"{by_hex[label].zone} zone")
            by_port.setdefault(u["hex"], []).append(f)
        attempts[label] = [
            InterceptionAttempt(h_, tuple(fleet_unit(f, state["units"][f]) for f in fs), label,
                                distance(m.layout.from_label(h_), m.layout.from_label(label)))
            for h_, fs in sorted(by_port.items())]
    air = _air(ctx, state, _list(cmd, "air"), True, cmd.player, beach, "TR-61")
    return {
        "beach": beach, "plan": plan, "groups": groups, "attempts": attempts,
        "interceptor_ids": interceptors,
        "air_int": {k: _air(ctx, state, v, False, cmd.player, k, "TR-45")
                    for k, v in air_int.items()},
        "escorts": {k: _air(ctx, state, v, True, cmd.player, k, "TR-61")
                    for k, v in escorts.items()},
        "air": air, "flown": sorted(flying + [a.id for a in air]),
    }


def _list(cmd: Command, name: str) -> list[str]:
    raw = cmd.args.get(name, [])
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw) or \
            len(set(raw)) != len(raw):
        raise InputError(f"args.{name}", "a list of distinct unit ids")
    return list(raw)


def _beach_defense(ctx: Context, state: TRState, side: str, beach: str
                   ) -> tuple[list[str], list[Any], Any, Terrain, bool]:
    """The beach's defenders (ids and as ground units), weather, terrain and fortification."""
    m = ctx.scenario.map
    axis = axis_side_of(ctx)
    defenders = sorted(uid for uid, u in state["units"].items()
                       if on_map_ground(u) and u["hex"] == beach and u["side"] != side)
    h = hex_index(m, beach)
    bh = m.hex(h)
    return (defenders, [ground_unit_of(d, state["units"][d], axis) for d in defenders],
            weather(weather_region(m, h), state["turn"]),
            MAP_TERRAIN.get(m.terrain_of(bh), Terrain.OTHER),
            m.fortification_of(bh) is not Fortification.NONE)


def verify_invade(ctx: Context, state: TRState, cmd: Command) -> None:
    c = _check(ctx, state, cmd)
    _bridgehead(state, cmd, c, dry=True)
    ids, defenders, wx, terrain, fortified = _beach_defense(ctx, state, cmd.player, c["beach"])
    if ids:  # TR-32: declared at 1-2 or better, every landing unit and the support counted
        resolve_invasion(c["plan"], defenders, 7, None, (), c["air"], wx, terrain, fortified,
                         ctx.tables)
    # TR-03 (issue 23): every invading power (fleets and cargo) under its own offensive on the
    # beach's front, not the side's widest option
    from grognard.third_reich.war import power_of, verify_own_option

    verify_own_option(ctx, state, cmd.player, sorted(
        {power_of(state, f) for g in c["groups"] for f in g["ports"]} |
        {power_of(state, u.id) for g in c["groups"] for u in g["group"].units}),
        hex_front(ctx.scenario.map, hex_index(ctx.scenario.map, c["beach"])))


def _power(state: TRState, c: Mapping[str, Any]) -> str:
    units = [u.id for g in c["groups"] for u in g["group"].units]
    if not units:
        raise IllegalOrder("TR-61", "an invasion carries at least one ground unit")
    return str(state["units"][units[0]]["power"])


def _bridgehead(state: TRState, cmd: Command, c: Mapping[str, Any],
                dry: bool = False) -> dict[str, Any] | None:
    """TR-63: the bridgehead a success would place (checked before any die is rolled)."""
    remove = cmd.args.get("remove_bridgehead")
    if remove is not None and not isinstance(remove, str):
        raise InputError("args.remove_bridgehead", "the hex of a bridgehead to remove")
    power = _power(state, c)
    heads = Bridgeheads.from_json(state.get("bridgehead_owners", {}))
    try:
        _, rec = place_bridgehead(heads, power, c["beach"], True, remove)
    except InputError:
        raise IllegalOrder("TR-63", f"{power} is not a power that places bridgeheads") from None
    return None if dry else rec.to_json()


def _d10s(stream: Any) -> Iterator[int]:
    while True:
        yield stream.die(10)


def execute_invade(ctx: Context, state: TRState, cmd: Command, dice: Dice) -> list[Event]:
    c = _check(ctx, state, cmd)
    stream = dice.stream("third_reich.invasion")
    beach = c["beach"]
    plan: InvasionPlan = c["plan"]
    interceptions: list[dict[str, Any]] = []
    fleets_after: dict[str, tuple[Fleet, ...]] = {}
    losses: dict[str, int] = {}
    combat_rolls: list[int] = []

    def tens() -> Iterator[int]:
        for r in _d10s(stream):
            combat_rolls.append(r)
            yield r

    for g in plan.groups:
        atts = c["attempts"].get(g.hex, [])
        rolls = {a.port: stream.die(6) for a in atts}
        esc, ai = c["escorts"].get(g.hex, ()), c["air_int"].get(g.hex, ())
        start = len(combat_rolls)
        rec = intercept_offshore(g, atts, rolls, tens(), esc, ai, ctx.tables)
        if rec.combat is not None:
            hit = {r.port for r in rec.rolls if r.intercepted}
            before = {f.id: f.factors for f in g.fleets} | {
                f.id: f.factors for a in atts if a.port in hit for f in a.fleets} | {
                a.id: a.factors for a in (*esc, *ai)}
            cb = rec.combat
            after: dict[str, int] = {x.id: x.factors for x in (*cb.phasing.air,
                                                               *cb.nonphasing.air)}
            after |= {x.id: x.factors for x in (*cb.phasing.fleets, *cb.nonphasing.fleets)}
            losses |= {k: v - after.get(k, 0) for k, v in before.items()
                       if after.get(k, 0) != v}
        fleets_after[g.hex] = rec.combat.phasing.fleets if rec.combat else g.fleets
        interceptions.append({
            "hex": g.hex, "zone": g.zone,
            "rolls": [{"port": r.port, "fleets": _port_fleets(c, g.hex, r.port),
                       "range": r.range_hexes, "roll": r.roll, "needed": r.needed,
                       "intercepted": r.intercepted} for r in rec.rolls],
            "combat_rolls": combat_rolls[start:],
            "steps": [] if rec.combat is None else [_step_json(s) for s in rec.combat.steps],
            "turned_back": list(rec.turn_back.returning_units)})
    defenders, defending, wx, terrain, fortified = _beach_defense(ctx, state, cmd.player, beach)
    landing = [u.id for g in plan.groups for u in g.units
               if u.id not in {x for i in interceptions for x in i["turned_back"]}]
    roll = None
    if defenders and landing:
        roll = stream.roll("2d6")
    called_off = False
    # TR-32 with stacking (TR-28/TR-63): where the beach's defenders could retreat, and the
    # room there (none: a retreat result costs them one more unit instead)
    d_side = str(state["units"][defenders[0]]["side"]) if defenders else ""
    _, room = retreat_plan(ctx, state, d_side, defenders) if defenders else ({}, {})
    try:
        out = resolve_invasion(plan, defending, None if roll is None else roll.total,
                               fleets_after, (), c["air"], wx, terrain, fortified, ctx.tables,
                               defender_retreat_room=sum(room.values()))
    except IllegalOrder as exc:
        if exc.rule != "TR-32":
            raise
        # engine reading: verify checked 1-2 with every unit and fleet; the interception left
        # less, and no attack is made below 1-2 (TR-32): the invasion is called off and the
        # units that would have landed stay where they embarked
        called_off = True
        out = InvasionOutcome(beach, False, 0, 0, None, None, 0, None, None, None, False, (),
                              tuple(landing))
    o = out.outcome
    # TR-32 (issue 23): each side chooses its own CRT losses (``land_losses``) unless only one
    # set is legal, and the invader which survivors land (``advance``); an empty beach is
    # taken by every landing unit (TR-61 "must advance")
    owed: dict[str, Any] = {}
    forced: dict[str, str] = {}
    lost: list[str] = []
    if o is not None:
        lost, owed, forced = battle_losses(ctx, state, (
            ("attacker", cmd.player, landing, o.attacker_losses, False),
            ("defender", d_side, defenders, o.defender_losses, True)))
    battle = {"kind": "invade", "side": cmd.player, "defender": d_side, "hex": beach,
              "attackers": landing, "defenders": defenders,
              "retreat": None if o is None or o.retreat is None else o.retreat.to_json(),
              "open": sorted(room), "room": room,
              "succeeded": out.succeeded and not out.automatic,
              "advance_max": o.advance_max if o is not None else 0,
              "bridgehead": _bridgehead(state, cmd, c) if out.succeeded else None}
    then: dict[str, Any]
    if owed:
        then = {"losses_owed": owed, "plan": battle, "retreats": {}, "advanced": []}
    else:
        then = settle_battle(battle, lost)
    if out.automatic:
        then["advanced"] = list(out.must_advance)
    advanced = then["advanced"]
    bridgehead = battle["bridgehead"] if out.automatic and advanced else None
    eliminated = sorted({*lost, *then.pop("also_eliminated", [])})
    return [Event("invaded", {
        "side": cmd.player, "beach": beach, "defenders": defenders,
        "groups": [{"hex": g.hex, "zone": g.zone, "fleets": [f.id for f in g.fleets],
                    "cargo": {k: list(v) for k, v in g.cargo.items()}} for g in plan.groups],
        "interceptions": interceptions, "losses": dict(sorted(losses.items())),
        "weather": wx.value, "dice": [] if roll is None else list(roll.dice),
        **out.to_json(), "eliminated": eliminated, **({"forced": forced} if forced else {}),
        **then, "flown": c["flown"], "bridgehead": bridgehead,
        **({"called_off": True} if called_off else {}),
        # the rules that took effect: the offshore air/naval fights, the invasion-turn
        # advance limit, a bridgehead placed
        "rules": sorted({*fight_rules([st for i in interceptions for st in i["steps"]],
                                      any(c["air_int"].values())),
                         *(["TR-62"] if advanced else []), *(["TR-63"] if bridgehead else [])})})]


def _port_fleets(c: Mapping[str, Any], label: str, port: str) -> list[str]:
    for a in c["attempts"].get(label, []):
        if a.port == port:
            return [f.id for f in a.fleets]
    return []  # pragma: no cover


def fold_invaded(state: TRState, ev: Event) -> TRState:
    s = state
    d = cast(Invaded, ev.data)
    ops = _fleet_ops(state)
    fleets = [f for g in d["groups"] for f in g["fleets"]]
    for f in fleets:
        ops, _ = perform_operation(ops, f, NavalOp.INVASION)
    s["fleet_ops"] = ops.to_json()
    s["fleets_used"] = [*state["fleets_used"], *fleets]
    s["air_used"] = [*state["air_used"], *d["flown"]]
    for uid, lost in d["losses"].items():
        u = s["units"][uid]
        u["attack"] = int(u["attack"]) - int(lost)
        if u["attack"] <= 0:
            u["status"], u["hex"] = "eliminated", None
    eliminate_units(s, list(d["eliminated"]))
    if d.get("losses_owed"):  # TR-32: the losers choose their units first (``land_losses``)
        s["pending_battle"] = {"owed": d["losses_owed"], "plan": d["plan"],
                               "lost": list(d["eliminated"])}
    else:
        apply_settlement(s, {**d, "hex": d["beach"], "advanced": []})
    for uid in d["advanced"]:
        s["units"][uid]["hex"] = d["beach"]
    carried = [u for g in d["groups"] for us in g["cargo"].values() for u in us]
    s["moved"] = [*state["moved"], *carried]
    s["attacked_hexes"] = [*state["attacked_hexes"], d["beach"]]
    s["invaded"] = [*state.get("invaded", []), *d["advanced"]]  # TR-62 limits this turn
    if d["advanced"]:
        s["invaded_hexes"] = [*state.get("invaded_hexes", []), d["beach"]]
    if d["bridgehead"] is not None:
        place_invasion_bridgehead(s, d["bridgehead"])
    return s


def place_invasion_bridgehead(s: TRState, b: Mapping[str, Any]) -> None:
    """TR-63: the bridgehead of a successful invasion on the map (``b``: the placement
    record :func:`_bridgehead` made before any die)."""
    heads = Bridgeheads.from_json(s.get("bridgehead_owners", {}))
    heads, _ = place_bridgehead(heads, b["power"], b["placed"], True,
                                (b["removed"] or [None])[0])
    s["bridgehead_owners"] = heads.to_json()
    s["bridgeheads"] = sorted(h for hs in heads.to_json().values() for h in hs)


def fold_invasion_advance(s: TRState, d: Mapping[str, Any]) -> None:
    """TR-62/TR-63: the invaders the player landed (``advance`` after an ``invade``): they
    may not move in the mechanized movement this turn, and a bridgehead is placed."""
    units = list(d["units"])
    s["invaded"] = [*s.get("invaded", []), *units]
    if units:
        s["invaded_hexes"] = [*s.get("invaded_hexes", []), d["hex"]]
        if d["invasion"].get("bridgehead") is not None:
            place_invasion_bridgehead(s, d["invasion"]["bridgehead"])
