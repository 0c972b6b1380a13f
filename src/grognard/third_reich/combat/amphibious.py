"""TR-61 ("Amphibious operations") and TR-62 ("Large invasions").

In the movement phase only, within one zone, surface fleets carry up to a third of their
strength in ground factors to an offshore sea hex next to a beach. Neither the offshore hex
nor the beach may be an uncontested enemy air zone. A fleet whose hits leave it unable to
carry its cargo turns back with that cargo. In the combat phase the offshore units attack
the beach with one left shift (TR-34), supported by every fleet present - transports at a
third of their *printed* strength, "for free" - and phasing air, within the TR-35 cap. An
empty beach is taken automatically and the invaders must advance. At most 2 ground units
attack from one sea hex; several sea hexes may attack the same beach (TR-62).

>>> invasion_capacity(Fleet("f", 9)), invasion_capacity(Fleet("f", 5))
(3, 1)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from grognard.core.dice import Distribution
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import Exact, exact_json, ratio_str
from grognard.core.tables import TableSet
from grognard.third_reich.air_naval.airnaval import HexCombatRecord, HexForces, resolve_hex_combat
from grognard.third_reich.air_naval.naval import (
    InterceptionAttempt,
    InterceptionRoll,
    interception_table,
    resolve_interceptions,
)
from grognard.third_reich.air_naval.naval_ops import (
    AirZone,
    naval_interception_possible,
    parse_air_zone,
)
from grognard.third_reich.air_naval.support import Support, naval_support, support_cap
from grognard.third_reich.combat.combat import (
    CrtResult,
    LandOutcome,
    OddsColumn,
    Terrain,
    apply_land_result,
    armor_superiority,
    crt_result,
    crt_table,
    left_shifts,
    odds_column,
)
from grognard.third_reich.combat.hex_defense import hex_defense
from grognard.third_reich.turn.calendar import Weather
from grognard.third_reich.turn.combat_readings import TRCombatReadings
from grognard.third_reich.turn.forces import AirUnit, Fleet, GroundUnit, as_enum

DEFAULT_READINGS = TRCombatReadings()
INVASION_DIVISOR = 3
MAX_UNITS_PER_SEA_HEX = 2
STACKING_LIMIT = 2
BRIDGEHEAD_STACKING_LIMIT = 4


def invasion_capacity(fleet: Fleet) -> int:
    """TR-61 (Amphibious operations) floor(current factors / 3) ground factors carried."""
    return fleet.factors // INVASION_DIVISOR


@dataclass(frozen=True, slots=True)
class OffshoreGroup:
    """TR-61/62: fleets and their cargo in one offshore sea hex.

    ``cargo`` maps a carrying fleet's id to the ids of the units it carries; fleets without
    cargo only bombard. ``air_zone`` / the plan's ``beach_air_zone`` are seen from the invader.
    """

    hex: str
    zone: str
    fleets: tuple[Fleet, ...]
    units: tuple[GroundUnit, ...]
    cargo: Mapping[str, tuple[str, ...]]
    air_zone: AirZone = AirZone.NONE
    fleet_zones: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any], where: str = "group") -> OffshoreGroup:
        if not isinstance(raw, Mapping):
            raise InputError(where, "expected an object")
        fleets = tuple(Fleet.from_json(f, f"{where}.fleets[{i}]")
                       for i, f in enumerate(raw.get("fleets", [])))
        units = tuple(GroundUnit.from_json(u, f"{where}.units[{i}]")
                      for i, u in enumerate(raw.get("units", [])))
        cargo_raw = raw.get("cargo", {})
        if not isinstance(cargo_raw, Mapping):
            raise InputError(f"{where}.cargo", "expected an object fleet id -> [unit ids]")
        cargo = {str(k): tuple(str(x) for x in v) for k, v in cargo_raw.items()}
        zones_raw = raw.get("fleet_zones", {})
        if not isinstance(zones_raw, Mapping):
            raise InputError(f"{where}.fleet_zones", "expected an object fleet id -> [zones]")
        return cls(str(raw.get("hex", "")), str(raw.get("zone", "")).lower(), fleets, units,
                   cargo, parse_air_zone(raw.get("air_zone", "none"), f"{where}.air_zone"),
                   {str(k): frozenset(str(z).lower() for z in v) for k, v in zones_raw.items()})


@dataclass(frozen=True, slots=True)
class InvasionPlan:
    """TR-61/62: one invasion of one beach hex from one or more offshore hexes."""

    beach: str
    groups: tuple[OffshoreGroup, ...]
    beach_air_zone: AirZone = AirZone.NONE
    phase: str = "movement"

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> InvasionPlan:
        if not isinstance(raw, Mapping):
            raise InputError("invasion", "expected a JSON object")
        groups = raw.get("groups", [])
        if not isinstance(groups, list):
            raise InputError("invasion.groups", "expected a list")
        return cls(str(raw.get("beach", "")),
                   tuple(OffshoreGroup.from_json(g, f"invasion.groups[{i}]")
                         for i, g in enumerate(groups)),
                   parse_air_zone(raw.get("beach_air_zone", "none"), "invasion.beach_air_zone"),
                   str(raw.get("phase", "movement")))


def _cargo_factors(group: OffshoreGroup, fleet_id: str) -> int:
    by_id = {u.id: u for u in group.units}
    return sum(by_id[u].factors for u in group.cargo.get(fleet_id, ()))


def verify_invasion(plan: InvasionPlan) -> None:
    """TR-61/TR-62: movement phase, same zone, air zones, capacity, 2 units per sea hex."""
    if plan.phase != "movement":
        raise IllegalOrder("TR-61", "amphibious invasions are made in the movement phase only")
    if not plan.groups:
        raise IllegalOrder("TR-61", "an invasion needs at least one offshore hex")
    if plan.beach_air_zone.uncontested_enemy:
        raise IllegalOrder("TR-61", f"beach {plan.beach} is in an uncontested enemy air zone")
    hexes = [g.hex for g in plan.groups]
    if len(set(hexes)) != len(hexes):
        raise IllegalOrder("TR-62", "each offshore hex appears once in the plan")
    for g in plan.groups:
        if g.air_zone.uncontested_enemy:
            raise IllegalOrder("TR-61", f"offshore hex {g.hex} is in an uncontested enemy air "
                               "zone")
        if len(g.units) > MAX_UNITS_PER_SEA_HEX:
            raise IllegalOrder("TR-62", f"{len(g.units)} ground units in sea hex {g.hex}; at "
                               f"most {MAX_UNITS_PER_SEA_HEX} attack from one sea hex")
        fleet_ids = {f.id for f in g.fleets}
        unit_ids = [u.id for u in g.units]
        carried = [u for ids in g.cargo.values() for u in ids]
        if sorted(carried) != sorted(unit_ids):
            raise IllegalOrder("TR-61", f"in {g.hex} every unit must be carried by exactly one "
                               "fleet")
        for fid in g.cargo:
            if fid not in fleet_ids:
                raise InputError("cargo", f"fleet {fid} is not in offshore hex {g.hex}")
        for f in g.fleets:
            zones = g.fleet_zones.get(f.id)
            if zones is not None and g.zone not in zones:
                raise IllegalOrder("TR-61", f"fleet {f.id} sails from another zone; invasions "
                                   "stay within one zone")
            load = _cargo_factors(g, f.id)
            if load > invasion_capacity(f):
                raise IllegalOrder("TR-61", f"fleet {f.id} carries {load} factors; it can carry "
                                   f"{invasion_capacity(f)} (a third of {f.factors})")


def can_invade(plan: InvasionPlan) -> bool:
    """TR-61/TR-62: is the invasion plan legal (see :func:`verify_invasion`)?"""
    try:
        verify_invasion(plan)
    except (IllegalOrder, InputError):
        return False
    return True


@dataclass(frozen=True, slots=True)
class TurnBack:
    """TR-61: after interception hits, the part of a group that still lands."""

    hex: str
    landing_fleets: tuple[Fleet, ...]
    landing_units: tuple[GroundUnit, ...]
    returning_fleets: tuple[str, ...]
    returning_units: tuple[str, ...]


def after_interception(group: OffshoreGroup, fleets_after: Sequence[Fleet]) -> TurnBack:
    """TR-61: a fleet whose hits leave it unable to carry its cargo returns with that cargo.

    ``fleets_after`` are the group's fleets after air/naval combat (a fleet missing from it
    was sunk: it can carry nothing, so its cargo returns to port - the text only says the
    portion that cannot carry returns).
    """
    after = {f.id: f for f in fleets_after}
    for fid in after:
        if fid not in {f.id for f in group.fleets}:
            raise InputError("fleets_after", f"fleet {fid} was not in offshore hex {group.hex}")
    landing: list[Fleet] = []
    back_f: list[str] = []
    back_u: list[str] = []
    for f in group.fleets:
        now = after.get(f.id, Fleet(f.id, 0, f.printed))
        if _cargo_factors(group, f.id) > invasion_capacity(now):
            back_f.append(f.id)
            back_u.extend(group.cargo.get(f.id, ()))
        elif now.factors > 0:
            landing.append(now)
    units = tuple(u for u in group.units if u.id not in back_u)
    return TurnBack(group.hex, tuple(landing), units, tuple(back_f), tuple(back_u))


def invasion_support(
    carrying: Sequence[Fleet],
    bombarding: Sequence[Fleet],
    air: Sequence[AirUnit],
    final_defense: int,
    ground_attack: int,
    weather: Weather | str = Weather.CLEAR,
    readings: TRCombatReadings = DEFAULT_READINGS,
) -> Support:
    """TR-61: the fleets present offshore (transports included, bombarding "for free") support
    at a third of printed strength (``carrying``); fleets bombarding from elsewhere
    (``bombarding``, TR-58) at a third of current factors; plus phasing air; all within the
    TR-35 cap."""
    naval: Exact = sum((naval_support(f, invasion=True, readings=readings) for f in carrying),
                       start=0)
    naval = naval + sum((naval_support(f, invasion=False, readings=readings)
                         for f in bombarding), start=0)
    air_f = sum(a.factors for a in air)
    offered = air_f + naval
    cap = support_cap(final_defense, ground_attack,
                      as_enum(Weather, weather, "weather") is Weather.SNOW)
    return Support(air_f, naval, offered, cap, min(offered, cap))


@dataclass(frozen=True, slots=True)
class InvasionOutcome:
    """The record of one invasion's combat (or its automatic success on an empty beach)."""

    beach: str
    automatic: bool
    ground_attack: int
    defense: int
    support: Support | None
    odds: OddsColumn | None
    drm: int
    roll: int | None
    result: CrtResult | None
    outcome: LandOutcome | None
    succeeded: bool
    must_advance: tuple[str, ...]
    turned_back: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "beach": self.beach,
            "automatic": self.automatic,
            "ground_attack": self.ground_attack,
            "defense": self.defense,
            "support": None if self.support is None else exact_json(self.support.used),
            "odds": None if self.odds is None else ratio_str(self.odds.odds),
            "column": None if self.odds is None else self.odds.column,
            "shifts": None if self.odds is None else self.odds.shifts,
            "drm": self.drm,
            "roll": self.roll,
            "result": None if self.result is None else self.result.code,
            "attacker_losses": None if self.outcome is None else self.outcome.attacker_losses,
            "defender_losses": None if self.outcome is None else self.outcome.defender_losses,
            "retreat": (None if self.outcome is None or self.outcome.retreat is None
                        else self.outcome.retreat.to_json()),
            "advance_max": (len(self.must_advance) if self.outcome is None
                            else self.outcome.advance_max),
            "succeeded": self.succeeded,
            "must_advance": list(self.must_advance),
            "turned_back": list(self.turned_back),
        }


def resolve_invasion(
    plan: InvasionPlan,
    defenders: Sequence[GroundUnit],
    roll: int | None,
    fleets_after: Mapping[str, Sequence[Fleet]] | None = None,
    extra_bombarding: Sequence[Fleet] = (),
    air: Sequence[AirUnit] = (),
    weather: Weather | str = Weather.CLEAR,
    terrain: Terrain | str = Terrain.CLEAR,
    fortified: bool = False,
    tables: TableSet | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
    defender_retreat_room: int | None = None,
) -> InvasionOutcome:
    """TR-61 (Amphibious operations) The offshore units attack the beach.

    ``fleets_after`` maps an offshore hex to its fleets after interception combat (default:
    unharmed). An empty beach falls automatically and every landing unit must advance
    (up to the bridgehead stacking limit of 4, TR-62). Otherwise the attack uses the land
    CRT with the amphibious left shift (TR-34) and the invasion support above; the invasion
    succeeds when the beach is cleared (TR-63 then places a bridgehead).
    ``defender_retreat_room``: the units the beach's open hexes can take within stacking
    (None: no limit; 0: no hex is open): a defender that must retreat and cannot loses one
    more unit instead (TR-32), as in any land battle.
    """
    verify_invasion(plan)
    w = as_enum(Weather, weather, "weather")
    t = as_enum(Terrain, terrain, "terrain")
    groups = [after_interception(g, (fleets_after or {}).get(g.hex, g.fleets))
              for g in plan.groups]
    turned = tuple(u for g in groups for u in g.returning_units)
    attackers = [u for g in groups for u in g.landing_units]
    # "support from any fleet present - including the transporting fleets - at 1/3rd of
    # those fleet's printed combat strength": every fleet left offshore counts at printed
    # strength; fleets bombarding from elsewhere (TR-58) at their current factors.
    present = [f for g in groups for f in g.landing_fleets]
    bombarding = list(extra_bombarding)
    ground = sum(u.factors for u in attackers)
    if not attackers:
        return InvasionOutcome(plan.beach, False, 0, 0, None, None, 0, None, None, None,
                               False, (), turned)
    if not defenders:
        advance = tuple(u.id for u in attackers[:BRIDGEHEAD_STACKING_LIMIT])
        return InvasionOutcome(plan.beach, True, ground, 0, None, None, 0, None, None, None,
                               True, advance, turned)
    if roll is None:
        raise InputError("roll", "an opposed invasion needs a 2D6 roll")
    defense = hex_defense(tuple(defenders), w, fortified, False, readings)
    support = invasion_support(present, bombarding, air, defense.total, ground, w, readings)
    shifts = left_shifts(t, False, True, False, readings)
    table = crt_table(tables, readings)
    odds = odds_column(ground + support.used, defense.total, shifts, table, readings)
    armor = sum(u.factors for u in attackers if u.is_armor)
    drm = armor_superiority(armor, defense.total, any(u.is_armor for u in defenders),
                            armor > 0, w, t)
    result = crt_result(odds.column, drm, roll, table)
    outcome = apply_land_result(result, len(attackers), len(defenders), True, False,
                                BRIDGEHEAD_STACKING_LIMIT, readings, defender_retreat_room)
    succeeded = outcome.hex_emptied and outcome.advance_max > 0
    return InvasionOutcome(plan.beach, False, ground, defense.total, support, odds, drm, roll,
                           result, outcome, succeeded, (), turned)


# ---------------------------------------------------------------- TR-62 invasion-turn limits


def advance_limit(bridgehead: bool) -> int:
    """TR-62: invaders advance up to the stacking limit: 4 with a bridgehead marker, else 2."""
    return BRIDGEHEAD_STACKING_LIMIT if bridgehead else STACKING_LIMIT


def invaded_unit_may(action: str, is_mechanized: bool, target_occupied: bool = True) -> bool:
    """TR-62 (Large invasions) What a unit that invaded this turn may still do.

    ``action`` is ``mech_move`` (never for invaders), ``mech_attack`` (mechanized units, not
    against an empty hex) or ``advance`` (after clearing a hex in mechanized combat).
    """
    if action == "mech_move":
        return False
    if action == "mech_attack":
        return is_mechanized and target_occupied
    if action == "advance":
        return is_mechanized
    raise InputError("action", f"unknown action {action!r} (mech_move, mech_attack, advance)")


def sr_into_captured_port_ok(captured_this_turn: bool, naval_interception_possible: bool,
                             air_interception_possible: bool) -> bool:
    """TR-62: a port taken by invasion this turn may receive SR in the following SR phase
    only if that SR could not be intercepted by naval or air units."""
    if not captured_this_turn:
        return True
    return not (naval_interception_possible or air_interception_possible)


def sea_sr_destination_ok(is_port: bool, is_bridgehead: bool) -> bool:
    """TR-62: sea SR goes only to ports or bridgeheads, never to a plain beach."""
    return is_port or is_bridgehead


@dataclass(frozen=True, slots=True)
class InvasionCase:
    """An INVASION.json file (docs/formats/tr_naval.md): the plan plus the defended beach."""

    plan: InvasionPlan
    defenders: tuple[GroundUnit, ...] = ()
    fleets_after: Mapping[str, tuple[Fleet, ...]] | None = None
    extra_bombarding: tuple[Fleet, ...] = ()
    air: tuple[AirUnit, ...] = ()
    weather: Weather = Weather.CLEAR
    terrain: Terrain = Terrain.CLEAR
    fortified: bool = False

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> InvasionCase:
        if not isinstance(raw, Mapping):
            raise InputError("invasion", "expected a JSON object")
        known = {"beach", "beach_air_zone", "phase", "groups", "defenders", "fleets_after",
                 "extra_bombarding", "air", "weather", "terrain", "fortified", "comment"}
        for k in raw:
            if k not in known:
                raise InputError(f"invasion.{k}", "unknown field")

        def items(key: str) -> list[Any]:
            v = raw.get(key, [])
            if not isinstance(v, list):
                raise InputError(f"invasion.{key}", "expected a list")
            return v

        after_raw = raw.get("fleets_after")
        after: dict[str, tuple[Fleet, ...]] | None = None
        if after_raw is not None:
            if not isinstance(after_raw, Mapping):
                raise InputError("invasion.fleets_after", "expected an object hex -> [fleets]")
            after = {str(h): tuple(Fleet.from_json(f, f"invasion.fleets_after.{h}[{i}]")
                                   for i, f in enumerate(fs))
                     for h, fs in after_raw.items()}
        fortified = raw.get("fortified", False)
        if not isinstance(fortified, bool):
            raise InputError("invasion.fortified", "expected true or false")
        return cls(
            InvasionPlan.from_json(raw),
            tuple(GroundUnit.from_json(u, f"invasion.defenders[{i}]")
                  for i, u in enumerate(items("defenders"))),
            after,
            tuple(Fleet.from_json(f, f"invasion.extra_bombarding[{i}]")
                  for i, f in enumerate(items("extra_bombarding"))),
            tuple(AirUnit.from_json(a, f"invasion.air[{i}]") for i, a in enumerate(items("air"))),
            as_enum(Weather, raw.get("weather", "clear"), "invasion.weather"),
            as_enum(Terrain, raw.get("terrain", "clear"), "invasion.terrain"),
            fortified,
        )


def resolve_invasion_case(case: InvasionCase, roll: int | None,
                          tables: TableSet | None = None,
                          readings: TRCombatReadings = DEFAULT_READINGS) -> InvasionOutcome:
    """TR-61: :func:`resolve_invasion` on an INVASION.json case."""
    return resolve_invasion(case.plan, case.defenders, roll, case.fleets_after,
                            case.extra_bombarding, case.air, case.weather, case.terrain,
                            case.fortified, tables, readings)


def invasion_success_odds(case: InvasionCase, tables: TableSet | None = None,
                          readings: TRCombatReadings = DEFAULT_READINGS) -> Fraction:
    """TR-61: the exact chance that the invasion succeeds (the same resolution mapped over
    the natural 2D6 distribution; 1 for an empty beach with landing units)."""
    if not case.defenders:
        return Fraction(int(resolve_invasion_case(case, None, tables, readings).succeeded))
    dist = Distribution.of("2d6").map(
        lambda r: resolve_invasion_case(case, r, tables, readings).succeeded)
    return dist.get(True, Fraction(0))


@dataclass(frozen=True, slots=True)
class OffshoreInterception:
    """TR-61/TR-55: the interception of one offshore group and what still lands."""

    rolls: tuple[InterceptionRoll, ...]
    combat: HexCombatRecord | None
    turn_back: TurnBack


def intercept_offshore(
    group: OffshoreGroup,
    attempts: Sequence[InterceptionAttempt],
    interception_rolls: Mapping[str, int],
    combat_rolls: Iterator[int],
    escort_air: Sequence[AirUnit] = (),
    interceptor_air: Sequence[AirUnit] = (),
    tables: TableSet | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
) -> OffshoreInterception:
    """TR-61 Non-phasing fleets in the zone intercept an offshore group (one 1D6 per port,
    TR-55); the successful ones, with any non-phasing air sent there, fight one air/naval
    round against the group's fleets and escorting air (TR-49); then fleets left unable to
    carry their cargo turn back (:func:`after_interception`).

    No naval interception in the invader's uncontested air zone (TR-60): attempts there are
    illegal.
    """
    if attempts and not naval_interception_possible(group.air_zone):
        raise IllegalOrder("TR-60", f"offshore hex {group.hex} is in the invader's "
                           "uncontested air zone; it cannot be intercepted by fleets")
    rolls: tuple[InterceptionRoll, ...] = ()
    interceptors: tuple[Fleet, ...] = ()
    if attempts:
        aimed = [InterceptionAttempt(a.port, a.fleets, group.hex, a.range_hexes)
                 for a in attempts]
        rolls, battles = resolve_interceptions(aimed, interception_rolls,
                                               interception_table(tables, readings))
        interceptors = battles[0].fleets if battles else ()
    combat = None
    fleets_after: Sequence[Fleet] = group.fleets
    if interceptors or interceptor_air:
        combat = resolve_hex_combat(HexForces(tuple(escort_air), group.fleets),
                                    HexForces(tuple(interceptor_air), interceptors),
                                    combat_rolls, 0, tables, readings)
        fleets_after = combat.phasing.fleets
    return OffshoreInterception(rolls, combat, after_interception(group, fleets_after))
