"""TR-35/TR-46..TR-49 in the ``third_reich`` engine system: air and naval support of an attack.

An ``attack`` may declare ``air`` (phasing air units flying ground support to the target hex),
``fleet`` (one fleet bombarding from an all-sea hex adjacent to the target; TR-35 allows at
most one, :func:`~grognard.third_reich.air_naval.support.verify_support_fleets`) and ``defensive_air``
(the defender's air units flying defensive support into the hex: the non-phasing player's
own decision, answered with the ``defensive_air`` command when the attack stops for it;
see :mod:`~grognard.third_reich.reactions`). Before the ground combat the air and
naval fight in the hex runs as :func:`~grognard.third_reich.air_naval.airnaval.resolve_hex_combat`
(air-to-air, air-naval both ways, TR-49 order) with 1D10 rolls from the named stream
``third_reich.airnaval``; what the phasing side has left supports the attack, capped by
TR-35 in :func:`~grognard.third_reich.combat.combat.resolve_battle`.

Readings: an air unit's ``movement`` field is its mission range (0: the 3R 4 hexes); an air
unit flies once per player turn (ground support or defensive support); the bombarding fleet
counts among the phasing forces in the hex (the defender's air may attack it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict
from typing import Any, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import exact_json
from grognard.core.hexgrid import distance, neighbors
from grognard.core.mapdata import WATER_TERRAIN
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.third_reich.air_naval.airnaval import HexForces, resolve_hex_combat
from grognard.third_reich.air_naval.naval_ops import (
    NavalOp,
    fleet_ops,
    perform_operation,
    verify_fleet_operation,
)
from grognard.third_reich.air_naval.sea_zones import offshore_zone, port_at, sea_zones
from grognard.third_reich.air_naval.support import verify_support_fleets
from grognard.third_reich.state import AIR_TYPES, FLEET_TYPES, air_unit, neutralized
from grognard.third_reich.state_types import TRState, TRUnit
from grognard.third_reich.turn.forces import AirUnit, Fleet


def _ids(cmd: Command, name: str) -> list[str]:
    raw = cmd.args.get(name, [])
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise InputError(f"args.{name}", "a list of unit ids")
    if len(set(raw)) != len(raw):
        raise InputError(f"args.{name}", "a unit is named twice")
    return list(raw)


def _fleets_arg(cmd: Command) -> list[str]:
    raw = cmd.args.get("fleet")
    if raw is None:
        return _ids(cmd, "fleets")
    if not isinstance(raw, str):
        raise InputError("args.fleet", "the id of one fleet")
    return [raw]


def fleet_unit(uid: str, u: TRUnit) -> Fleet:
    """A state unit of type ``naval`` as a :class:`Fleet` (printed strength 9, or more)."""
    return Fleet(uid, int(u["attack"]), max(9, int(u["attack"])))


def ready_air(state: TRState, uid: str, u: TRUnit) -> AirUnit:
    """TR-44 reading: an air unit with its un-neutralised factors only."""
    a = air_unit(uid, u)
    return AirUnit(a.id, max(0, a.factors - neutralized(state, uid)), a.range)


def flying_units(state: TRState, uid: str, side_ok: Callable[[TRUnit], bool],
            what: str, target: str | None = None) -> TRUnit:
    """TR-35/TR-44: an air unit that may fly now: unused this turn (a counter-air unit over
    ``target`` may still support an attack there), not fully neutralised."""
    u = state["units"].get(uid)
    if u is None or u["status"] != "active" or u["hex"] is None or u["type"] not in AIR_TYPES \
            or not side_ok(u):
        raise IllegalOrder("TR-35", f"{uid} is not {what} air unit on the map")
    over = target is not None and state.get("counter_air", {}).get(uid) == target
    if uid in state["air_used"] and not over:
        raise IllegalOrder("TR-35", f"{uid} has already flown this player turn")
    if int(u["attack"]) <= 0:
        raise IllegalOrder("TR-35", f"{uid} has no air factors left")
    if neutralized(state, uid) >= int(u["attack"]):
        raise IllegalOrder("TR-44", f"{uid} is neutralized by counter air this player turn")
    return u


def verify_support(ctx: Context, state: TRState, cmd: Command, target: str) -> None:
    """TR-35: the declared air units are in range and unused; at most one fleet, in an
    all-sea hex adjacent to the target, unused this turn."""
    m = ctx.scenario.map
    th = m.layout.from_label(target)
    me = cmd.player
    for name, side_ok, what in (("air", lambda u: u["side"] == me, f"a {me}"),
                                ("defensive_air", lambda u: u["side"] != me, "an enemy")):
        for uid in _ids(cmd, name):
            u = flying_units(state, uid, side_ok, what, target)
            if name == "defensive_air":  # TR-25 (issue 23): at war with every attacker
                from grognard.third_reich.war import verify_at_war_with_units

                verify_at_war_with_units(state, str(u.get("power") or ""),
                                         [x for x in _ids(cmd, "attackers")
                                          if x in state["units"]])
            a = air_unit(uid, u)
            if distance(m.layout.from_label(cast(str, u["hex"])), th) > a.range:
                raise IllegalOrder("TR-35", f"{uid} in {u['hex']} is out of range of {target} "
                                   f"(range {a.range})")
    fleets = _fleets_arg(cmd)
    for uid in fleets:
        fleet = state["units"].get(uid)
        if fleet is None or fleet["status"] != "active" or fleet["hex"] is None or \
                fleet["type"] not in FLEET_TYPES or fleet["side"] != me:
            raise IllegalOrder("TR-35", f"{uid} is not a {me} fleet on the map")
        if uid in state["fleets_used"]:
            raise IllegalOrder("TR-35", f"{uid} has already supported an attack this turn")
        fh = m.layout.from_label(fleet["hex"])
        if distance(fh, th) != 1 or m.terrain_of(fh) not in WATER_TERRAIN:
            verify_bombardment_from_port(ctx, state, uid, fleet, target)
        verify_fleet_operation(fleet_ops(state), uid, NavalOp.BOMBARDMENT)  # TR-54
    verify_support_fleets([fleet_unit(f, state["units"][f]) for f in fleets])


def verify_bombardment_from_port(ctx: Context, state: TRState, uid: str, u: TRUnit,
                                  target: str) -> None:
    """TR-58: a fleet in a port of the sea-zone table sails to an all-sea hex of its port's
    zone next to the target (the map says which hexes those are) and bombards from there;
    it stays in its port, tapped (TR-54, recorded by :func:`fold_support`). On a map whose
    sea hexes have no zones, any all-sea hex next to the target will do."""
    m = ctx.scenario.map
    sea = sea_zones(ctx.tables)
    port = port_at(m, cast(str, u["hex"]))
    if port is None or port not in sea.ports:
        raise IllegalOrder("TR-58", f"{uid} in {u['hex']} is neither in a port of the sea-zone "
                           f"table nor in an all-sea hex adjacent to {target}")
    zones = sea.ports[port].zones
    seas = [m.layout.to_label(n) for n in neighbors(m.layout.from_label(target))
            if m.has(n) and m.terrain_of(n) in WATER_TERRAIN]
    if not seas:
        raise IllegalOrder("TR-58", f"{target} is not a coastal hex")
    mapped = [offshore_zone(ctx, s) for s in seas]
    if all(z is not None for z in mapped) and not zones & set(mapped):
        raise IllegalOrder("TR-58", f"no all-sea hex next to {target} is in the "
                           f"{' or '.join(sorted(zones))} zone of {uid}'s port")


def _d10s(dice: Dice) -> Iterator[int]:
    stream = dice.stream("third_reich.airnaval")
    while True:
        yield stream.die(10)


def step_json(step: Any) -> dict[str, Any]:
    return {"step": type(step).__name__, **{k: exact_json(v) for k, v in asdict(step).items()}}


#: TR-46..TR-48: the air/naval step of a hex fight (``airnaval`` record names) -> its rule
STEP_RULES = {"AirToAir": "TR-46", "AirNaval": "TR-47", "NavalNaval": "TR-48"}


def fight_rules(steps: list[dict[str, Any]], air_interception: bool = False) -> list[str]:
    """The rules an air/naval fight took effect under (events name them): the order of
    combat in the hex (TR-49) and each step's rule (TR-46..TR-48) when there was a fight, air
    interception (TR-45) when interceptors flew."""
    rules = {"TR-45"} if air_interception else set()
    if steps:
        rules.add("TR-49")
    rules.update(STEP_RULES[s["step"]] for s in steps if s.get("step") in STEP_RULES)
    return sorted(rules)


def declared_support(state: TRState, cmd: Command) -> tuple[list[AirUnit], list[Fleet]]:
    """TR-35: the air units and fleets an attack order declares in support, at full strength
    (before the air/naval fight in the hex, TR-49)."""
    return ([air_unit(u, state["units"][u]) for u in _ids(cmd, "air")],
            [fleet_unit(f, state["units"][f]) for f in _fleets_arg(cmd)])


def fight_for_support(ctx: Context, state: TRState, cmd: Command,
                      dice: Dice) -> tuple[list[AirUnit], list[Fleet], dict[str, Any]]:
    """TR-49 then TR-35: the air/naval fight in the target hex; the phasing survivors that
    support the attack, and the event part ``air_naval`` (rolls, steps, factors lost)."""
    air, fleets = declared_support(state, cmd)
    dair = [ready_air(state, u, state["units"][u]) for u in _ids(cmd, "defensive_air")]
    if not air and not dair and not fleets:
        return [], [], {"rolls": [], "steps": [], "losses": {}, "flown": [], "fleets": []}
    rec = resolve_hex_combat(HexForces(tuple(air), tuple(fleets)), HexForces(tuple(dair)),
                             _d10s(dice), tables=ctx.tables)
    before = {u.id: u.factors for u in [*air, *dair]} | {f.id: f.factors for f in fleets}
    after = {u.id: u.factors for u in [*rec.phasing.air, *rec.nonphasing.air]} | \
        {f.id: f.factors for f in rec.phasing.fleets}
    losses = {uid: before[uid] - after[uid] for uid in sorted(before)
              if before[uid] != after[uid]}
    part = {"rolls": list(rec.rolls), "steps": [step_json(s) for s in rec.steps],
            "losses": losses, "flown": sorted(u.id for u in [*air, *dair]),
            "fleets": sorted(f.id for f in fleets)}
    return ([a for a in rec.phasing.air if a.factors > 0],
            [f for f in rec.phasing.fleets if f.factors > 0], part)


def fold_support(s: TRState, part: Mapping[str, Any]) -> None:
    """Apply the air/naval losses (a unit at 0 factors is eliminated) and mark who flew."""
    for uid, lost in part["losses"].items():
        u = s["units"][uid]
        u["attack"] = int(u["attack"]) - int(lost)
        if u["attack"] <= 0:
            u["status"], u["hex"] = "eliminated", None
    s["air_used"] = [*s["air_used"], *part["flown"]]
    s["fleets_used"] = [*s["fleets_used"], *part["fleets"]]
    if part["fleets"]:  # TR-54: bombardment is the fleet's operation this game turn
        ops = fleet_ops(s)
        for f in part["fleets"]:
            ops, _ = perform_operation(ops, f, NavalOp.BOMBARDMENT)
        s["fleet_ops"] = ops.to_json()
