"""TR-66..TR-70 ("SR and SR limits", "SR ending locations", "SRs by land", "SRs by sea").

At the end of each player turn a power may make a fixed number of strategic redeployments
(US 10, Germany 9, USSR 6, UK 6, Italy 5, France 5; lend-lease transfers and initial US
deployments count, the latter at most 6 per turn). Land SR traces a supply-style path free of
enemy units and ZOCs (the final hex excepted, TR-67), never through neutrals or uncontrolled
enemy home territory, and respects enemy air zones. Sea SR needs a friendly fleet at sea in
every zone traversed and is blocked if, after an interception's combat, the escort no longer
holds (TR-59). Fleets SR themselves between friendly ports, never intercepted by fleets.

Hex facts (ZOC, air-zone status, occupancy) are inputs: one :class:`SRStep` per hex of the
path, from the first hex after the start to the destination.

>>> sr_budget("germany"), sr_budget("us"), us_initial_cap()
(9, 10, 6)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from grognard.core.errors import IllegalOrder, InputError, TableError, parse_enum
from grognard.core.tables import Table, TableSet, load_tables
from grognard.third_reich.air_naval.naval_ops import (
    DEFAULT_NAVAL_READINGS,
    AirZone,
    NavalReadings,
    escort_holds,
    parse_air_zone,
)
from grognard.third_reich.air_naval.sea_zones import (
    SeaZones,
    interception_points,
    route_junctions,
    verify_route,
)
from grognard.third_reich.state_types import SrUse, TRState
from grognard.third_reich.turn.forces import Fleet
from grognard.third_reich.turn.powers import Power, parse_power

FLEET_SR_NAVAL_INTERCEPTION = False


class SRKind(StrEnum):
    """TR-66: what one SR action is."""

    LAND = "land"
    SEA = "sea"
    FLEET = "fleet"  # a fleet's own sea SR (TR-70)
    LEND_LEASE = "lend_lease"
    US_INITIAL = "us_initial"  # initial deployment from the US to Europe


class UnitClass(StrEnum):
    GROUND = "ground"
    AIR = "air"
    NAVAL = "naval"


class SRStatus(StrEnum):
    DONE = "done"
    BLOCKED = "blocked"


# ---------------------------------------------------------------- TR-66 limits


def sr_limits_table(tables: TableSet | None = None,
                    readings: NavalReadings = DEFAULT_NAVAL_READINGS) -> Table:
    """TR-66 The SR limits table in force (published; replaceable with ``--tables``)."""
    ts = tables if tables is not None else load_tables()
    return ts.get(readings.tr_sr_limits_table)


def _cell(t: Table, power: Power, column: str) -> int:
    v = t.lookup(str(power), column)
    if not isinstance(v, int) or v < 0:
        raise TableError("expected a non-negative integer", table=t.id, row=str(power),
                         column=column)
    return v


def sr_budget(power: Power | str, tables: TableSet | None = None,
              readings: NavalReadings = DEFAULT_NAVAL_READINGS) -> int:
    """TR-66 (SR and SR limits) SR actions per player turn for ``power``."""
    return _cell(sr_limits_table(tables, readings), parse_power(str(power)), "sr_actions")


def us_initial_cap(tables: TableSet | None = None,
                   readings: NavalReadings = DEFAULT_NAVAL_READINGS) -> int:
    """TR-66: initial US -> Europe deployments per turn (they also count as SRs)."""
    return _cell(sr_limits_table(tables, readings), Power.US, "initial_from_us")


@dataclass(frozen=True, slots=True)
class SRPhase:
    """TR-66 state of one power's SR phase."""

    power: Power
    used: int = 0
    us_initial: int = 0
    units: Mapping[str, SRKind] = field(default_factory=dict)

    def to_json(self) -> SrUse:
        return {"power": str(self.power), "used": self.used, "us_initial": self.us_initial,
                "units": {k: str(v) for k, v in sorted(self.units.items())}}


def sr_phase(state: TRState, power: str) -> SRPhase:
    """The SR actions ``power`` has used this phase, from the game state's ``sr`` record."""
    raw: Mapping[str, Any] = state["sr"].get(power, {})
    return SRPhase(parse_power(power), int(raw.get("used", 0)), int(raw.get("us_initial", 0)),
                   {k: SRKind(v) for k, v in raw.get("units", {}).items()})


def sr_actions_of(state: TRState, power: str) -> SRPhase:
    """``sr_phase`` for an order: a power without SR actions (a minor) is refused (TR-66)."""
    try:
        return sr_phase(state, power)
    except InputError:
        raise IllegalOrder("TR-66", f"{power} is not a major power with SR actions") from None


@dataclass(frozen=True, slots=True)
class SRRecord:
    power: Power
    unit: str | None
    kind: SRKind
    used: int
    budget: int

    def to_json(self) -> dict[str, Any]:
        return {"power": str(self.power), "unit": self.unit, "kind": str(self.kind),
                "used": self.used, "budget": self.budget}


_MODE = {SRKind.LAND: "land", SRKind.SEA: "sea", SRKind.US_INITIAL: "sea", SRKind.FLEET: "sea"}


def _why_not_sr(state: SRPhase, unit: str | None, kind: SRKind, tables: TableSet | None,
                readings: NavalReadings) -> str | None:
    budget = sr_budget(state.power, tables, readings)
    if state.used >= budget:
        return f"{state.power} has used all {budget} SR actions this turn"
    if kind is SRKind.US_INITIAL:
        if state.power is not Power.US:
            return "only the US makes initial deployments from the US"
        cap = us_initial_cap(tables, readings)
        if state.us_initial >= cap:
            return f"at most {cap} initial US deployments per turn"
    if kind is SRKind.LEND_LEASE:
        return None
    if unit is None:
        return f"a {kind} SR names the unit"
    before = state.units.get(unit)
    if before is not None and _MODE.get(before) != _MODE.get(kind):
        return f"unit {unit} already SRed by {before}; land and sea SR cannot be mixed"
    return None


def verify_sr(state: SRPhase, unit: str | None, kind: SRKind | str,
              tables: TableSet | None = None,
              readings: NavalReadings = DEFAULT_NAVAL_READINGS) -> None:
    """TR-66: raise :class:`IllegalOrder` if no SR action is left for this one."""
    reason = _why_not_sr(state, unit, parse_enum(SRKind, kind, "kind"), tables, readings)
    if reason is not None:
        raise IllegalOrder("TR-66", reason)


def record_sr(state: SRPhase, unit: str | None, kind: SRKind | str,
              tables: TableSet | None = None,
              readings: NavalReadings = DEFAULT_NAVAL_READINGS) -> tuple[SRPhase, SRRecord]:
    """TR-66 (SR and SR limits) Spend one SR action (lend lease and US initial count too)."""
    k = parse_enum(SRKind, kind, "kind")
    verify_sr(state, unit, k, tables, readings)
    units = dict(state.units)
    if unit is not None and k is not SRKind.LEND_LEASE:
        units[unit] = k
    new = SRPhase(state.power, state.used + 1,
                  state.us_initial + (1 if k is SRKind.US_INITIAL else 0), units)
    return new, SRRecord(state.power, unit, k, new.used, sr_budget(state.power, tables,
                                                                    readings))


# ---------------------------------------------------------------- TR-67 / TR-68 land SR


@dataclass(frozen=True, slots=True)
class SRStep:
    """The facts of one hex of an SR path that the SR rules need."""

    hex: str
    enemy_unit: bool = False
    enemy_zoc: bool = False
    neutral: bool = False
    uncontrolled_enemy_home: bool = False
    air_zone: AirZone = AirZone.NONE
    friendly_occupied: bool = False
    city_or_airbase: bool = False
    port: bool = False

    @classmethod
    def from_json(cls, raw: Mapping[str, Any], where: str = "step") -> SRStep:
        if not isinstance(raw, Mapping):
            raise InputError(where, "expected an object")
        known = {f for f in cls.__dataclass_fields__}
        for k in raw:
            if k not in known:
                raise InputError(f"{where}.{k}", "unknown field")

        def flag(k: str) -> bool:
            v = raw.get(k, False)
            if not isinstance(v, bool):
                raise InputError(f"{where}.{k}", f"expected true or false, not {v!r}")
            return v

        return cls(str(raw.get("hex", "")), flag("enemy_unit"), flag("enemy_zoc"),
                   flag("neutral"), flag("uncontrolled_enemy_home"),
                   parse_air_zone(raw.get("air_zone", "none"), f"{where}.air_zone"),
                   flag("friendly_occupied"), flag("city_or_airbase"), flag("port"))


def _why_not_endpoint(unit: UnitClass, path: Sequence[SRStep]) -> str | None:
    if not path:
        return "the SR path names at least its destination"
    dest = path[-1]
    if dest.enemy_unit:
        return f"destination {dest.hex} holds enemy units"
    if unit is UnitClass.AIR and not dest.city_or_airbase:
        return f"air units end SR at a controlled city or airbase, not {dest.hex}"
    if unit is not UnitClass.GROUND and dest.air_zone.uncontested_enemy:
        return f"{dest.hex} is in an uncontested enemy air zone"
    if dest.enemy_zoc:
        if not dest.friendly_occupied:
            return (f"{dest.hex} is in an enemy ZOC and not already occupied by a friendly "
                    "unit")
        earlier = [s.hex for s in path[:-1] if s.enemy_zoc]
        if earlier:
            return (f"{dest.hex} is not the first enemy-ZOC hex of the path ({earlier[0]} "
                    "is)")
    return None


def _why_not_land(unit: UnitClass, path: Sequence[SRStep]) -> str | None:
    if unit is UnitClass.NAVAL:
        return "naval units never SR by land"
    if not path:
        return "the SR path names at least its destination"
    for s in path:
        if s.enemy_unit:
            return f"path hex {s.hex} holds enemy units"
        if s.neutral:
            return f"path hex {s.hex} is in a neutral country"
        if s.uncontrolled_enemy_home:
            return f"path hex {s.hex} is uncontrolled enemy home territory"
    for s in path[:-1]:
        if s.enemy_zoc:
            return f"path hex {s.hex} is in an enemy ZOC"
    if unit is UnitClass.AIR:
        bad = [s.hex for s in path if s.air_zone.uncontested_enemy]
        if bad:
            return f"air units may not SR by land into or through uncontested enemy air ({bad[0]})"
    if path[-1].air_zone in (AirZone.CONTESTED, AirZone.ENEMY):
        bad = [s.hex for s in path if s.air_zone.uncontested_enemy]
        if bad:
            return (f"the destination is in range of enemy air, so every hex must be within "
                    f"range of equal friendly air; {bad[0]} is not")
    return _why_not_endpoint(unit, path)


def verify_land_sr(unit: UnitClass | str, path: Sequence[SRStep]) -> None:
    """TR-68 / TR-67: raise :class:`IllegalOrder` naming the first broken condition."""
    u = parse_enum(UnitClass, unit, "unit")
    reason = _why_not_land(u, path)
    if reason is not None:
        rule = "TR-67" if _why_not_endpoint(u, path) == reason else "TR-68"
        raise IllegalOrder(rule, reason)


# ---------------------------------------------------------------- TR-69 sea SR


@dataclass(frozen=True, slots=True)
class SeaSROrder:
    """TR-69: one land or air unit by sea from ``origin`` port to ``destination``."""

    unit: str
    unit_class: UnitClass
    power: Power
    route: tuple[str, ...]
    origin: str
    destination: str
    escorts: Mapping[str, tuple[Fleet, ...]]
    origin_air_zone: AirZone = AirZone.NONE
    destination_air_zone: AirZone = AirZone.NONE
    destination_is_bridgehead: bool = False
    destination_captured_this_turn: bool = False
    interceptable: bool = True


@dataclass(frozen=True, slots=True)
class SeaSRRecord:
    unit: str
    status: SRStatus
    route: tuple[str, ...]
    interception_points: tuple[str, ...]
    blocked_in: str | None
    escort_factors: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "status": str(self.status), "route": list(self.route),
                "interception_points": list(self.interception_points),
                "blocked_in": self.blocked_in,
                "escort_factors": dict(sorted(self.escort_factors.items()))}


def verify_sea_sr(order: SeaSROrder, sea: SeaZones) -> tuple[str, ...]:
    """TR-69 / TR-62: escorts in every zone, no uncontested enemy air at either port,
    destination a port or bridgehead, captured ports only if uninterceptable."""
    if order.unit_class is UnitClass.NAVAL:
        raise IllegalOrder("TR-70", "a fleet's own SR is fleet SR (no escort, no interception)")
    dest_port = None if order.destination_is_bridgehead else order.destination
    zones = verify_route(sea, order.route, order.origin, dest_port, str(order.power))
    for label, az in (("origin", order.origin_air_zone),
                      ("destination", order.destination_air_zone)):
        if az.uncontested_enemy:
            raise IllegalOrder("TR-69", f"no sea SR from or to a port in an uncontested enemy "
                               f"air zone ({label})")
    missing = [z for z in zones if not order.escorts.get(z)]
    if missing:
        raise IllegalOrder("TR-69", f"no friendly fleet at sea on SR escort in zone(s) "
                           f"{', '.join(missing)}")
    if order.destination_captured_this_turn and order.interceptable:
        raise IllegalOrder("TR-62", "a port taken by invasion this turn receives SR only if "
                           "the SR cannot be intercepted")
    return zones


def sea_sr(order: SeaSROrder, sea: SeaZones,
           escorts_after_combat: Mapping[str, Sequence[Fleet]] | None = None,
           readings: NavalReadings = DEFAULT_NAVAL_READINGS) -> SeaSRRecord:
    """TR-69 (SRs by sea and sea interception) DONE, or BLOCKED (the unit returns).

    ``escorts_after_combat`` gives, for each zone where an interception led to a round of
    air/naval combat (TR-55, :mod:`~grognard.third_reich.air_naval.airnaval`), the escorts still at
    sea afterwards; the SR is blocked in the first such zone whose escort no longer holds
    (TR-59, reading ``sr_escort_survival``).
    """
    zones = verify_sea_sr(order, sea)
    if order.destination_is_bridgehead:
        points = (*route_junctions(sea, zones, str(order.power)), order.destination)
    else:
        points = interception_points(sea, zones, order.destination, str(order.power),
                                     order.origin)
    after = escorts_after_combat or {}
    for z in after:
        if z.lower() not in zones:
            raise InputError("escorts_after_combat", f"zone {z} is not on the route")
    factors = {z: sum(f.factors for f in after.get(z, order.escorts[z])) for z in zones}
    for z in zones:
        if z in after and not escort_holds(after[z], readings):
            return SeaSRRecord(order.unit, SRStatus.BLOCKED, zones, points, z, factors)
    return SeaSRRecord(order.unit, SRStatus.DONE, zones, points, None, factors)


# ---------------------------------------------------------------- TR-70 fleet SR


def _why_not_fleet_sr(from_friendly_port: bool, to_friendly_port: bool, from_air: AirZone,
                      to_air: AirZone) -> str | None:
    if not (from_friendly_port and to_friendly_port):
        return "a fleet SRs from a friendly controlled port to a friendly controlled port"
    if from_air.uncontested_enemy or to_air.uncontested_enemy:
        return "neither port may be in an uncontested enemy air zone"
    return None


def fleet_sr_ok(from_friendly_port: bool, to_friendly_port: bool,
                from_air: AirZone | str = AirZone.NONE,
                to_air: AirZone | str = AirZone.NONE) -> bool:
    """TR-70 (SRs by sea) A fleet's own SR: friendly port to friendly port, neither in an
    uncontested enemy air zone (contested is fine); never intercepted by fleets."""
    return _why_not_fleet_sr(from_friendly_port, to_friendly_port,
                             parse_air_zone(from_air, "from_air"),
                             parse_air_zone(to_air, "to_air")) is None


def verify_fleet_sr(from_friendly_port: bool, to_friendly_port: bool,
                    from_air: AirZone | str = AirZone.NONE,
                    to_air: AirZone | str = AirZone.NONE) -> None:
    """TR-70: raise :class:`IllegalOrder` if the fleet may not SR between these ports."""
    reason = _why_not_fleet_sr(from_friendly_port, to_friendly_port,
                               parse_air_zone(from_air, "from_air"),
                               parse_air_zone(to_air, "to_air"))
    if reason is not None:
        raise IllegalOrder("TR-70", reason)


def sea_sr_from_json(raw: Mapping[str, Any]
                     ) -> tuple[SeaSROrder, dict[str, tuple[Fleet, ...]] | None]:
    """TR-69 A SEASR.json file (docs/formats/tr_naval.md): the order and, optionally, the escorts
    left at sea after interception combat in each zone."""
    if not isinstance(raw, Mapping):
        raise InputError("sea_sr", "expected a JSON object")
    known = {"unit", "unit_class", "power", "route", "origin", "destination", "escorts",
             "escorts_after_combat", "origin_air_zone", "destination_air_zone",
             "destination_is_bridgehead", "destination_captured_this_turn", "interceptable",
             "comment"}
    for k in raw:
        if k not in known:
            raise InputError(f"sea_sr.{k}", "unknown field")

    def fleets_by_zone(key: str) -> dict[str, tuple[Fleet, ...]]:
        v = raw.get(key, {})
        if not isinstance(v, Mapping):
            raise InputError(f"sea_sr.{key}", "expected an object zone -> [fleets]")
        return {str(z).lower(): tuple(Fleet.from_json(f, f"sea_sr.{key}.{z}[{i}]")
                                      for i, f in enumerate(fs)) for z, fs in v.items()}

    def flag(key: str, default: bool) -> bool:
        v = raw.get(key, default)
        if not isinstance(v, bool):
            raise InputError(f"sea_sr.{key}", "expected true or false")
        return v

    route = raw.get("route", [])
    if not isinstance(route, list) or not route:
        raise InputError("sea_sr.route", "expected a non-empty list of zones")
    for key in ("unit", "origin", "destination"):
        if not isinstance(raw.get(key), str):
            raise InputError(f"sea_sr.{key}", "is required (a string)")
    order = SeaSROrder(
        str(raw["unit"]), parse_enum(UnitClass, raw.get("unit_class", "ground"),
                                     "sea_sr.unit_class"),
        parse_power(str(raw.get("power", "")), "sea_sr.power"),
        tuple(str(z).lower() for z in route), str(raw["origin"]), str(raw["destination"]),
        fleets_by_zone("escorts"),
        parse_air_zone(raw.get("origin_air_zone", "none"), "sea_sr.origin_air_zone"),
        parse_air_zone(raw.get("destination_air_zone", "none"), "sea_sr.destination_air_zone"),
        flag("destination_is_bridgehead", False), flag("destination_captured_this_turn", False),
        flag("interceptable", True))
    after = fleets_by_zone("escorts_after_combat") if "escorts_after_combat" in raw else None
    return order, after
