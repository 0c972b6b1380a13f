"""TR-44..TR-49 ("Counter air missions" … "Air and naval support of ground combat").

Air and naval combat in a hex, fought before ground combat in a fixed order (TR-49):
air-to-air (TR-46), air-naval (TR-47), naval-naval (TR-48); what the phasing player has left
then supports the ground attack (TR-35). Counter-air (TR-44) is one air-to-air round in the
air missions phase plus the automatic factor-for-factor neutralisation.

Every fire is one 1D10 roll on the air/naval effectiveness table (TR-50,
:func:`grognard.third_reich.air_naval.effectiveness.effectiveness_hits`). Each side fires as one body
with one roll per step (reading); hits are factors destroyed, the owner choosing where.

>>> r = air_to_air(10, 4, phasing_roll=10, nonphasing_roll=9)
>>> r.hits_on_phasing, r.hits_on_nonphasing   # 4 x 0.6 = 2.4 -> 2; 10 x 0.6 = 6 (capped at 4)
(2, 4)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import Exact
from grognard.core.tables import Table, TableSet, load_tables
from grognard.third_reich.air_naval.effectiveness import effectiveness_hits
from grognard.third_reich.air_naval.support import naval_third
from grognard.third_reich.turn.combat_readings import (
    NeutralizeGranularity,
    Round06Scope,
    TRCombatReadings,
)
from grognard.third_reich.turn.forces import AirUnit, Fleet

DEFAULT_READINGS = TRCombatReadings()
SMALL_AIR_UNIT = 5  # TR-50: non-phasing air units with fewer than 5 factors use the 0.6 rule


def _table(tables: TableSet | None, table_id: str) -> Table:
    ts = tables if tables is not None else load_tables()
    return ts.get(table_id)


# ---------------------------------------------------------------- TR-43 bases, TR-45 interception


def can_fly_missions(base_is_city_or_airbase: bool, base_in_supply: bool,
                     offensive_option: bool = True) -> bool:
    """TR-43 (Air operations, bases, and ranges) Air operates only from an in-supply city or
    airbase hex, and flies missions only under the offensive option (attrition and pass turns
    allow movement but no missions).

    >>> can_fly_missions(True, True), can_fly_missions(True, False), can_fly_missions(False, True)
    (True, False, False)
    """
    return base_is_city_or_airbase and base_in_supply and offensive_option


@dataclass(frozen=True, slots=True)
class AirInterception:
    """TR-45: one non-phasing air unit placed on a phasing air unit or fleet."""

    unit: str
    factors: int
    target: str


def verify_air_interception(unit: AirUnit, neutralized: int, target_distance: int,
                            target_is_air_or_fleet: bool = True) -> None:
    """TR-45: only un-neutralised non-phasing air, against phasing air or fleets, in range."""
    if neutralized < 0 or neutralized > unit.factors:
        raise InputError("neutralized", f"must be 0..{unit.factors}")
    if target_distance < 0:
        raise InputError("target_distance", "cannot be negative")
    if not target_is_air_or_fleet:
        raise IllegalOrder("TR-45", "air interception targets phasing air units or fleets only")
    if neutralized >= unit.factors:
        raise IllegalOrder("TR-45", f"air unit {unit.id} is neutralized this player turn")
    if target_distance > unit.range:
        raise IllegalOrder("TR-45", f"target is {target_distance} hexes away, beyond air unit "
                           f"{unit.id}'s range {unit.range}")


def declare_air_interception(unit: AirUnit, target: str, target_distance: int,
                             neutralized: int = 0, target_is_air_or_fleet: bool = True,
                             ) -> AirInterception:
    """TR-45 (Air interception) Place a non-phasing air unit on a phasing air unit or fleet.

    A partly neutralised unit intercepts with its un-neutralised factors only (TR-44 reading).

    >>> declare_air_interception(AirUnit("a", 5), "convoy", 3, neutralized=2).factors
    3
    """
    verify_air_interception(unit, neutralized, target_distance, target_is_air_or_fleet)
    return AirInterception(unit.id, unit.factors - neutralized, target)


def nonphasing_air_round06(factors: int, readings: TRCombatReadings = DEFAULT_READINGS) -> bool:
    """TR-46/TR-50: does non-phasing air firing with ``factors`` use the 0.6 rule?

    Reading ``nonphasing_round06_scope``: only under 5 factors (TR-50, default) or always.

    >>> nonphasing_air_round06(4), nonphasing_air_round06(5)
    (True, False)
    """
    if readings.nonphasing_round06_scope is Round06Scope.ALL:
        return True
    return factors < SMALL_AIR_UNIT


def _hits(factors: Exact, roll: int, drm: int, round06: bool, table: Table | None,
          target: Exact) -> int:
    if factors == 0:
        return 0
    return int(min(effectiveness_hits(factors, roll, drm, round06, table), target))


def nonphasing_air_hits(unit_factors: Sequence[int], roll: int, drm: int, table: Table | None,
                        target: Exact, readings: TRCombatReadings = DEFAULT_READINGS) -> int:
    """TR-50 (Air and naval combat tables) Hits of non-phasing air firing as ``unit_factors``.

    "non phasing air units with fewer than 5 air factors ... may round fractions of 0.6 or
    greater up": one roll and one multiplier for the side; each unit under 5 factors rounds
    its own share by the 0.6 rule, the units of 5 or more fire pooled and round down. With
    ``nonphasing_round06_scope = all`` every unit rounds its own share by the 0.6 rule.

    >>> nonphasing_air_hits([4, 4], 6, 0, None, 10)   # 0.4 each: 1.6 -> 2, twice
    4
    >>> nonphasing_air_hits([8], 6, 0, None, 10)       # 3.2 -> 3
    3
    """
    for i, f in enumerate(unit_factors):
        if isinstance(f, bool) or not isinstance(f, int) or f < 0:
            raise InputError(f"unit_factors[{i}]", "air factors are whole numbers >= 0")
    total = sum(unit_factors)
    if total == 0:
        return 0
    every = readings.nonphasing_round06_scope is Round06Scope.ALL
    small = [f for f in unit_factors if f > 0 and (every or f < SMALL_AIR_UNIT)]
    big = total - sum(small)
    hits = sum(effectiveness_hits(f, roll, drm, True, table) for f in small)
    if big:
        hits += effectiveness_hits(big, roll, drm, False, table)
    return int(min(hits, target))


@dataclass(frozen=True, slots=True)
class AirToAir:
    """TR-46: one simultaneous round of air-to-air fire (factors destroyed)."""

    phasing_factors: int
    nonphasing_factors: int
    phasing_roll: int
    nonphasing_roll: int
    hits_on_phasing: int
    hits_on_nonphasing: int


def air_to_air(
    phasing_factors: int,
    nonphasing_factors: int,
    phasing_roll: int,
    nonphasing_roll: int,
    drm: int = 0,
    tables: TableSet | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
    nonphasing_units: Sequence[int] | None = None,
) -> AirToAir:
    """TR-46 (Air to air combat) One round of simultaneous fire on the air table.

    TR-50: non-phasing air units with fewer than 5 factors round a fraction of 0.6 or more up
    (per unit, :func:`nonphasing_air_hits`; ``nonphasing_round06_scope``); everyone else
    rounds down. ``nonphasing_units`` gives the factors of each non-phasing unit (they must
    add up to ``nonphasing_factors``); without it the side is taken as one unit. Hits cannot
    exceed the factors fired at.
    """
    for name, v in (("phasing_factors", phasing_factors),
                    ("nonphasing_factors", nonphasing_factors)):
        if v < 0:
            raise InputError(name, "cannot be negative")
    units = [nonphasing_factors] if nonphasing_units is None else list(nonphasing_units)
    if sum(units) != nonphasing_factors:
        raise InputError("nonphasing_units", f"the units' factors add up to {sum(units)}, "
                         f"not {nonphasing_factors}")
    t = _table(tables, readings.tr_air_table)
    on_nonphasing = _hits(phasing_factors, phasing_roll, drm, False, t, nonphasing_factors)
    on_phasing = nonphasing_air_hits(units, nonphasing_roll, drm, t, phasing_factors, readings)
    return AirToAir(phasing_factors, nonphasing_factors, phasing_roll, nonphasing_roll,
                    on_phasing, on_nonphasing)


@dataclass(frozen=True, slots=True)
class CounterAir:
    """TR-44: the counter-air round and the factors neutralised for this player turn."""

    combat: AirToAir
    neutralized: int


def counter_air(
    sent_factors: int,
    target_factors: int,
    phasing_roll: int,
    nonphasing_roll: int,
    target_units: Sequence[AirUnit] = (),
    drm: int = 0,
    tables: TableSet | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
    offensive_option: bool = True,
) -> CounterAir:
    """TR-44 (Counter air missions) Air-to-air round plus automatic neutralisation.

    As many non-phasing air factors as were sent are neutralised (inverted; no interception
    or mission this player turn), whatever the air combat result, from the factors that
    survive it. With ``counterair_neutralize_granularity = whole_unit`` whole target units
    (``target_units``, in the owner's order) are neutralised until the sent factors are used.

    >>> counter_air(5, 10, phasing_roll=1, nonphasing_roll=1).neutralized
    5
    """
    if sent_factors <= 0:
        raise InputError("sent_factors", "counter-air needs at least one air factor")
    if not offensive_option:
        raise IllegalOrder("TR-44", "counter air is flown only under the offensive option")
    units = [u.factors for u in target_units]
    combat = air_to_air(sent_factors, target_factors, phasing_roll, nonphasing_roll, drm,
                        tables, readings, units if sum(units) == target_factors else None)
    survivors = target_factors - combat.hits_on_nonphasing
    if readings.counterair_neutralize_granularity is NeutralizeGranularity.FACTOR:
        return CounterAir(combat, min(sent_factors, survivors))
    left, neutral = sent_factors, 0
    for u in target_units:
        if left <= 0:
            break
        neutral += u.factors
        left -= u.factors
    return CounterAir(combat, min(neutral, survivors))


def fleets_firing_at_air(air_units: Sequence[int], fleets: Sequence[int]) -> list[int]:
    """TR-47: the fleets that fire back at air: no more fleets than the opposing air units
    that fired at them, the first fleets listed (the owner's order); empty ones do not fire.

    >>> fleets_firing_at_air([5], [9, 9]), fleets_firing_at_air([5, 5], [9, 9, 3])
    ([9], [9, 9])
    """
    n_air = sum(1 for a in air_units if a > 0)
    return [f for f in fleets if f > 0][:n_air]


def fleet_reply_factors(firing: Sequence[int], readings: TRCombatReadings = DEFAULT_READINGS
                        ) -> Exact:
    """TR-47: the fleets' fire at air is a third of each firing fleet's factors
    (:func:`~grognard.third_reich.air_naval.support.naval_third`, ``naval_support_rounding``)."""
    return sum((naval_third(f, readings) for f in firing), start=0)


@dataclass(frozen=True, slots=True)
class AirNaval:
    """TR-47: air fire on fleets and the fleets' ⅓ fire back at the air."""

    air_factors: int
    fleet_factors: int
    fleets_firing: int
    air_roll: int
    naval_roll: int
    hits_on_fleets: int
    hits_on_air: int


def air_naval(
    air: Sequence[AirUnit],
    fleets: Sequence[Fleet],
    air_roll: int,
    naval_roll: int,
    air_is_nonphasing: bool = False,
    drm: int = 0,
    tables: TableSet | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
) -> AirNaval:
    """TR-47 (Air-Naval combat) Air fires at full factors; fleets fire back at ⅓.

    No more fleets may fire than the opposing air units (5-4 air fleets) that fired at them;
    the first fleets listed fire (the owner's order). Both fires are simultaneous.
    """
    air_f = sum(a.factors for a in air)
    fleet_f = sum(f.factors for f in fleets)
    firing = fleets_firing_at_air([a.factors for a in air], [f.factors for f in fleets])
    naval_fire = fleet_reply_factors(firing, readings)
    air_table = _table(tables, readings.tr_air_table)
    if air_is_nonphasing:  # TR-50: the 0.6 rule per non-phasing unit under 5 factors
        on_fleets = nonphasing_air_hits([a.factors for a in air], air_roll, drm, air_table,
                                        fleet_f, readings)
    else:
        on_fleets = _hits(air_f, air_roll, drm, False, air_table, fleet_f)
    on_air = _hits(naval_fire, naval_roll, drm, False, _table(tables, readings.tr_naval_table),
                   air_f)
    return AirNaval(air_f, fleet_f, len(firing), air_roll, naval_roll, on_fleets, on_air)


@dataclass(frozen=True, slots=True)
class NavalNaval:
    """TR-48: one simultaneous round of fleet against fleet."""

    phasing_factors: int
    nonphasing_factors: int
    hits_on_phasing: int
    hits_on_nonphasing: int


def naval_naval(
    phasing_factors: int,
    nonphasing_factors: int,
    phasing_roll: int,
    nonphasing_roll: int,
    drm: int = 0,
    tables: TableSet | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
) -> NavalNaval:
    """TR-48 (Naval-naval combat) Both sides fire full remaining factors on the naval table.

    >>> naval_naval(9, 9, 9, 3).hits_on_nonphasing, naval_naval(9, 9, 9, 3).hits_on_phasing
    (5, 1)
    """
    t = _table(tables, readings.tr_naval_table)
    return NavalNaval(
        phasing_factors, nonphasing_factors,
        _hits(nonphasing_factors, nonphasing_roll, drm, False, t, phasing_factors),
        _hits(phasing_factors, phasing_roll, drm, False, t, nonphasing_factors),
    )


# ---------------------------------------------------------------- TR-49 order in a hex


@dataclass(frozen=True)
class HexForces:
    """One side's air units and fleets in a hex in the combat phase."""

    air: tuple[AirUnit, ...] = ()
    fleets: tuple[Fleet, ...] = ()

    @property
    def air_factors(self) -> int:
        return sum(a.factors for a in self.air)

    @property
    def fleet_factors(self) -> int:
        return sum(f.factors for f in self.fleets)


def take_losses(units: Sequence[Any], hits: int) -> tuple[Any, ...]:
    """Remove ``hits`` factors from ``units`` in order (the owner's choice, first listed first)."""
    out, left = [], hits
    for u in units:
        take = min(left, u.factors)
        left -= take
        out.append(type(u)(**{**_fields(u), "factors": u.factors - take}))
    return tuple(out)


def _fields(u: Any) -> dict[str, Any]:
    return {name: getattr(u, name) for name in u.__dataclass_fields__}


@dataclass(frozen=True)
class HexCombatRecord:
    """TR-49: every step of the air/naval fight in a hex and what remains."""

    steps: tuple[Any, ...]
    rolls: tuple[int, ...]
    phasing: HexForces
    nonphasing: HexForces
    support_air: int = field(default=0)


def resolve_hex_combat(
    phasing: HexForces,
    nonphasing: HexForces,
    rolls: Iterator[int],
    drm: int = 0,
    tables: TableSet | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
) -> HexCombatRecord:
    """TR-49 (Air and naval combat) Air-to-air, then air-naval, then naval-naval.

    ``rolls`` supplies the 1D10 rolls in order: air-to-air (phasing, non-phasing); phasing air
    vs non-phasing fleets (air, naval); non-phasing air vs phasing fleets (air, naval);
    naval-naval (phasing, non-phasing). Steps that do not happen use no roll. Losses fall on
    the first units listed. The surviving phasing air supports the ground attack (TR-35).
    """
    used: list[int] = []

    def roll() -> int:
        try:
            r = next(rolls)
        except StopIteration:
            raise InputError("rolls", "not enough 1D10 rolls for this hex combat") from None
        used.append(r)
        return r

    p, n = phasing, nonphasing
    steps: list[Any] = []
    if p.air_factors and n.air_factors:
        a2a = air_to_air(p.air_factors, n.air_factors, roll(), roll(), drm, tables, readings,
                         [a.factors for a in n.air])
        steps.append(a2a)
        p = HexForces(take_losses(p.air, a2a.hits_on_phasing), p.fleets)
        n = HexForces(take_losses(n.air, a2a.hits_on_nonphasing), n.fleets)
    if p.air_factors and n.fleet_factors:
        an = air_naval(p.air, n.fleets, roll(), roll(), False, drm, tables, readings)
        steps.append(an)
        p = HexForces(take_losses(p.air, an.hits_on_air), p.fleets)
        n = HexForces(n.air, take_losses(n.fleets, an.hits_on_fleets))
    if n.air_factors and p.fleet_factors:
        an = air_naval(n.air, p.fleets, roll(), roll(), True, drm, tables, readings)
        steps.append(an)
        n = HexForces(take_losses(n.air, an.hits_on_air), n.fleets)
        p = HexForces(p.air, take_losses(p.fleets, an.hits_on_fleets))
    if p.fleet_factors and n.fleet_factors:
        nn = naval_naval(p.fleet_factors, n.fleet_factors, roll(), roll(), drm, tables,
                         readings)
        steps.append(nn)
        p = HexForces(p.air, take_losses(p.fleets, nn.hits_on_phasing))
        n = HexForces(n.air, take_losses(n.fleets, nn.hits_on_nonphasing))
    return HexCombatRecord(tuple(steps), tuple(used), p, n, p.air_factors)
