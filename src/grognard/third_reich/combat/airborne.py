"""TR-51..TR-53 ("Airborne operations"): air drops, airborne combat, air-landing SR.

* TR-51 An airborne unit that starts the ordinary movement phase of an offensive-option turn
  at a friendly city or airbase may, in clear weather, air-land on any land hex within 6
  hexes (even an enemy-held one) that is not an uncontested enemy air zone; that is its only
  movement of the turn. Intercepting non-phasing air in range and phasing air sent to the hex
  fight one round of air combat (TR-46); interceptor hits beyond the supporting air factors
  fall on the airborne unit, up to its strength; hits reaching its strength destroy it (back
  to the force pool). Partial hits have no effect (reading ``airborne_partial_hits``).
* TR-52 That turn it attacks only its own landing hex (if occupied) in the combat phase,
  cancelling the river and coast/invasion shifts there
  (:func:`grognard.third_reich.combat.combat.left_shifts` ``airborne_in_hex``); alive in the
  mechanized combat phase it attacks as a mechanized unit but never moves in mechanized
  movement. Any other turn it is normal infantry. It needs supply like any unit.
* TR-53 Starting the SR phase at a friendly city or airbase, it may fly up to two "air links"
  of up to 6 hexes each, city/airbase to city/airbase, passing through no uncontested enemy
  air zone (terrain ignored). The hexes passed through are the straight hex line of each link
  (``core.hexgrid.line``) unless the caller gives the route (3R4 map details are EXTERNAL).

>>> from grognard.third_reich.turn.forces import GroundKind, Side
>>> para = GroundUnit("fj", "german", Side.AXIS, GroundKind.AIRBORNE, 3, 3)
>>> air_drop(para, interceptors=5, escorts=0, phasing_roll=1, nonphasing_roll=10).outcome
<DropOutcome.DESTROYED: 'destroyed'>
>>> air_drop(para, interceptors=5, escorts=1, phasing_roll=1, nonphasing_roll=10).hits_on_airborne
2
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from grognard.core.dice import Distribution
from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.core.hexgrid import Hex, distance, line
from grognard.core.movement import MovementPhase
from grognard.core.readings import Readings
from grognard.core.tables import Table, TableSet, load_tables
from grognard.third_reich.air_naval.air_basing import air_value
from grognard.third_reich.air_naval.air_zones import (
    DEFAULT_READINGS as ZONE_READINGS,
)
from grognard.third_reich.air_naval.air_zones import (
    AirZoneAction,
    AirZoneReadings,
    BasedAir,
    air_zone_blocks,
    verify_air_zone_action,
)
from grognard.third_reich.air_naval.airnaval import AirToAir, air_to_air, nonphasing_air_round06
from grognard.third_reich.air_naval.effectiveness import effectiveness_hits
from grognard.third_reich.turn.calendar import Weather, weather_effects
from grognard.third_reich.turn.combat_readings import TRCombatReadings
from grognard.third_reich.turn.forces import GroundKind, GroundUnit
from grognard.third_reich.turn.options import Option
from grognard.third_reich.turn.sequence import Phase


@dataclass(frozen=True)
class AirborneReadings(Readings):
    """RULES.md switch of TR-51: ``airborne_partial_hits_reduce`` — hits below the airborne
    unit's strength have no effect (default, reading) or reduce it."""

    airborne_partial_hits_reduce: bool = False


DEFAULT_READINGS = AirborneReadings()
COMBAT_READINGS = TRCombatReadings()


class DropOutcome(StrEnum):
    LANDED = "landed"
    DESTROYED = "destroyed"


def _airborne(unit: GroundUnit, rule: str) -> None:
    if unit.kind is not GroundKind.AIRBORNE:
        raise IllegalOrder(rule, f"{unit.id} is not an airborne unit")


@dataclass(frozen=True, slots=True)
class DropOrder:
    """TR-51: what an air drop order states about the unit, its turn and its target."""

    unit: GroundUnit
    start: Hex
    target: Hex
    start_is_friendly_base: bool = True  # a friendly city or airbase (TR-65)
    moved_this_turn: bool = False
    target_is_land: bool = True
    option: Option = Option.OFFENSIVE
    phase: MovementPhase = MovementPhase.NORMAL
    weather: Weather = Weather.CLEAR


def verify_air_drop(order: DropOrder, air: Sequence[BasedAir],
                    table: Table | None = None,
                    zone_readings: AirZoneReadings = ZONE_READINGS) -> None:
    """TR-51 An air drop: airborne unit, offensive option, ordinary movement phase, clear
    weather, from a friendly city/airbase it started the phase in, within 6 hexes, onto a land
    hex outside uncontested enemy air zones (``air``: both sides' air after staging)."""
    u = order.unit
    _airborne(u, "TR-51")
    if parse_enum(Option, order.option, "option") is not Option.OFFENSIVE:
        raise IllegalOrder("TR-51", "air drops only on an offensive-option turn")
    if parse_enum(MovementPhase, order.phase, "phase") is not MovementPhase.NORMAL:
        raise IllegalOrder("TR-51", "air drops only in the ordinary movement phase")
    if not weather_effects(order.weather).airdrop_ok:
        raise IllegalOrder("TR-51", f"no air drops in {order.weather} weather")
    if not order.start_is_friendly_base:
        raise IllegalOrder("TR-51", f"{u.id} must start at a friendly city or airbase")
    if order.moved_this_turn:
        raise IllegalOrder("TR-51", f"{u.id} has moved: the air landing is its only move")
    d, most = distance(order.start, order.target), air_value("airdrop_range", table)
    if d > most:
        raise IllegalOrder("TR-51", f"target is {d} hexes away; the air landing range is {most}")
    if not order.target_is_land:
        raise IllegalOrder("TR-51", "air landings go onto land hexes only")
    verify_air_zone_action(AirZoneAction.AIRBORNE_DROP, [order.target], u.side, air,
                           zone_readings)


def can_air_drop(order: DropOrder, air: Sequence[BasedAir], table: Table | None = None,
                 zone_readings: AirZoneReadings = ZONE_READINGS) -> bool:
    """TR-51 Is this air drop allowed?"""
    try:
        verify_air_drop(order, air, table, zone_readings)
    except IllegalOrder:
        return False
    return True


@dataclass(frozen=True, slots=True)
class AirDropRecord:
    """TR-51: the air combat over the landing hex and what reached the airborne unit."""

    unit: str
    factors: int
    interceptors: int
    escorts: int
    phasing_roll: int | None
    nonphasing_roll: int | None
    air_combat: AirToAir | None
    interceptor_hits: int
    hits_on_airborne: int
    factors_after: int
    outcome: DropOutcome


def _check_factors(name: str, v: int) -> None:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise InputError(name, "must be a whole number >= 0")


def air_drop(unit: GroundUnit, interceptors: int, escorts: int,
             phasing_roll: int | None = None, nonphasing_roll: int | None = None,
             drm: int = 0, tables: TableSet | None = None,
             combat_readings: TRCombatReadings = COMBAT_READINGS,
             readings: AirborneReadings = DEFAULT_READINGS) -> AirDropRecord:
    """TR-51 Resolve an air landing against ``interceptors`` non-phasing air factors with
    ``escorts`` phasing air factors sent to the hex: one simultaneous air-to-air round
    (TR-46); interceptor hits beyond the escort factors hit the airborne unit, up to its
    strength; if they reach its strength it is destroyed. No interceptors, no rolls."""
    _airborne(unit, "TR-51")
    _check_factors("interceptors", interceptors)
    _check_factors("escorts", escorts)
    for name, r in (("phasing_roll", phasing_roll), ("roll", nonphasing_roll)):
        if r is not None and (isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= 10):
            raise InputError(name, f"a 1D10 roll is 1..10, not {r!r}")
    if interceptors == 0:
        return AirDropRecord(unit.id, unit.factors, 0, escorts, None, None, None, 0, 0,
                             unit.factors, DropOutcome.LANDED)
    if phasing_roll is None or nonphasing_roll is None:
        raise InputError("rolls", "an intercepted air drop needs both 1D10 rolls")
    ts = tables if tables is not None else load_tables()
    combat = air_to_air(escorts, interceptors, phasing_roll, nonphasing_roll, drm, ts,
                        combat_readings)
    raw = effectiveness_hits(interceptors, nonphasing_roll, drm,
                             nonphasing_air_round06(interceptors, combat_readings),
                             ts.get(combat_readings.tr_air_table))
    on_para = min(max(0, raw - escorts), unit.factors)
    destroyed = unit.factors > 0 and on_para >= unit.factors
    after = 0 if destroyed else (unit.factors - on_para if readings.airborne_partial_hits_reduce
                                 else unit.factors)
    return AirDropRecord(unit.id, unit.factors, interceptors, escorts, phasing_roll,
                         nonphasing_roll, combat, raw, on_para, after,
                         DropOutcome.DESTROYED if destroyed else DropOutcome.LANDED)


def air_drop_odds(unit: GroundUnit, interceptors: int, escorts: int, drm: int = 0,
                  tables: TableSet | None = None,
                  combat_readings: TRCombatReadings = COMBAT_READINGS,
                  readings: AirborneReadings = DEFAULT_READINGS) -> dict[DropOutcome, Fraction]:
    """TR-51 Exact odds of landing / destruction: :func:`air_drop` over the interceptors' 1D10
    (the phasing roll does not change the airborne unit's fate)."""
    ts = tables if tables is not None else load_tables()
    dist = Distribution.of("1d10").map(
        lambda r: air_drop(unit, interceptors, escorts, 1, r, drm, ts, combat_readings,
                           readings).outcome)
    return {o: dist.get(o, Fraction(0)) for o in DropOutcome}


@dataclass(frozen=True, slots=True)
class AirborneRole:
    """TR-52: what an airborne unit may do in a combat phase."""

    attacks_landing_hex_only: bool
    attacks_as_mechanized: bool
    moves_in_mech_movement: bool
    cancels_river_and_coast_shifts: bool


def airborne_combat_role(unit: GroundUnit, landed_this_turn: bool,
                         phase: Phase | str = Phase.COMBAT) -> AirborneRole:
    """TR-52 On its landing turn: the combat phase against its landing hex only, cancelling
    river and coast/invasion shifts; the mechanized combat phase as a mechanized unit; no
    mechanized movement. Any other turn: normal infantry."""
    _airborne(unit, "TR-52")
    ph = parse_enum(Phase, phase, "phase")
    if ph not in (Phase.COMBAT, Phase.MECH_COMBAT):
        raise InputError("phase", "a combat phase: combat or mech_combat")
    if not landed_this_turn:
        return AirborneRole(False, False, False, False)
    if ph is Phase.COMBAT:
        return AirborneRole(True, False, False, True)
    return AirborneRole(False, True, False, False)


def verify_airborne_attack(unit: GroundUnit, landed_this_turn: bool, landing_hex: Hex,
                           target: Hex, target_occupied: bool,
                           phase: Phase | str = Phase.COMBAT) -> None:
    """TR-52 In the combat phase of its landing turn an airborne unit attacks only its own
    landing hex, and only if it is occupied."""
    role = airborne_combat_role(unit, landed_this_turn, phase)
    if role.attacks_landing_hex_only:
        if target != landing_hex:
            raise IllegalOrder("TR-52", f"{unit.id} may attack only its landing hex this phase")
        if not target_occupied:
            raise IllegalOrder("TR-52", "the landing hex holds no enemy unit to attack")


@dataclass(frozen=True, slots=True)
class AirLandingSR:
    """TR-53: an air-landing SR of up to two air links."""

    unit: str
    stops: tuple[Hex, ...]
    link_lengths: tuple[int, ...]


def verify_airborne_sr(unit: GroundUnit, stops: Sequence[Hex], bases: Mapping[Hex, bool],
                       air: Sequence[BasedAir], routes: Sequence[Sequence[Hex]] | None = None,
                       table: Table | None = None,
                       zone_readings: AirZoneReadings = ZONE_READINGS) -> None:
    """TR-53 ``stops``: the start then one or two landing places; each must be a friendly city
    or airbase (``bases[hex]`` True), each link at most 6 hexes, and no hex passed through
    (``routes`` per link, default the straight hex line) an uncontested enemy air zone."""
    _airborne(unit, "TR-53")
    links, hop = air_value("air_landing_sr_links", table), air_value("air_landing_sr_link", table)
    if not 2 <= len(stops) <= links + 1:
        raise IllegalOrder("TR-53", f"an air-landing SR is 1 to {links} air links")
    for h in stops:
        if not bases.get(h, False):
            raise IllegalOrder("TR-53", f"{tuple(h)} is not a friendly city or airbase")
    if routes is not None and len(routes) != len(stops) - 1:
        raise InputError("routes", "give one route per air link")
    passed: list[Hex] = []
    for k in range(1, len(stops)):
        a, b = stops[k - 1], stops[k]
        if distance(a, b) > hop:
            raise IllegalOrder("TR-53", f"air link {k} is {distance(a, b)} hexes; at most {hop}")
        passed += list(routes[k - 1]) if routes is not None else line(a, b)
    blocked = air_zone_blocks(AirZoneAction.AIRBORNE_SR, passed, unit.side, air, zone_readings)
    if blocked:
        raise IllegalOrder("TR-53", f"{tuple(blocked[0])} is an uncontested enemy air zone")


def airborne_sr(unit: GroundUnit, stops: Sequence[Hex], bases: Mapping[Hex, bool],
                air: Sequence[BasedAir], routes: Sequence[Sequence[Hex]] | None = None,
                table: Table | None = None,
                zone_readings: AirZoneReadings = ZONE_READINGS) -> AirLandingSR:
    """TR-53 Perform an air-landing SR (after :func:`verify_airborne_sr`)."""
    verify_airborne_sr(unit, stops, bases, air, routes, table, zone_readings)
    return AirLandingSR(unit.id, tuple(stops),
                        tuple(distance(stops[k - 1], stops[k]) for k in range(1, len(stops))))


__all__ = [
    "AirDropRecord", "AirLandingSR", "AirborneReadings", "AirborneRole", "DropOrder",
    "DropOutcome", "air_drop", "air_drop_odds", "airborne_combat_role", "airborne_sr",
    "can_air_drop", "verify_air_drop", "verify_airborne_attack", "verify_airborne_sr",
]
