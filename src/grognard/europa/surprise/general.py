"""Europa rule 47, surprise turns: readings, cost and levels, the surprise front, limitations.

This module holds the readings and vocabulary of rule 47 (SUR-01), participation and the
Surprise Turn Cost Table (SUR-02, SUR-03) and the limitations (SUR-14). The centre hex and the
surprise front (SUR-07, SUR-08, SUR-12, SUR-13) are in :mod:`grognard.europa.surprise.front`,
the arithmetic of planning, refunds and delays in :mod:`grognard.europa.surprise.budget`, the
plan state machine in :mod:`grognard.europa.surprise.plan`, the effects in
:mod:`grognard.europa.surprise.effects`, airbase surprise in
:mod:`grognard.europa.surprise.airbase` and invasion surprise in
:mod:`grognard.europa.surprise.invasion`.

>>> surprise_cost(30)
SurpriseCost(level=30, srp=30, sp=155, re=465)
>>> level_for_re(55).level
10
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import Exact, exact_json
from grognard.core.readings import Readings
from grognard.core.tables import Table, load_tables

PRINTED_LEVELS = 40
"""The Surprise Turn Cost Table prints levels 1..40 (SUR-03)."""


# --------------------------------------------------------------------------------------------
# Readings (every config switch RULES.md names for SUR rows)
# --------------------------------------------------------------------------------------------


class RefundRounding(StrEnum):
    """SUR-04 ``surprise_refund_integer_rounding``: how the half refund is rounded."""

    NONE = "none"
    FLOOR = "floor"
    CEIL = "ceil"
    ROUND_HALF_UP = "round_half_up"


class ReductionRefundTo(StrEnum):
    """SUR-09 ``surprise_reduction_refund_to``: where the 80% refund of a reduction goes."""

    SOURCE = "source"
    NATIONAL_POOL = "national_pool"
    ORIGINAL_AREA = "original_area"


class DistanceCapMode(StrEnum):
    """SUR-15 ``surprise_distance_cap_mode``: the two readings of the 7 x SRP distance cap."""

    PENALTY_CAP = "penalty_cap"
    RANGE_LIMIT = "range_limit"


class HalvingRounding(StrEnum):
    """SUR-19 ``surprise_gs_halving_rounding``: rounding of halved ground-support TBF."""

    FLOOR = "floor"
    CEIL = "ceil"
    ROUND_HALF_UP = "round_half_up"
    EXACT = "exact"


class AirbaseSelection(StrEnum):
    """SUR-22 ``airbase_surprise_selection``: who picks the affected air units."""

    RANDOM = "random"
    DEFENDER_CHOICE = "defender_choice"


@dataclass(frozen=True)
class SurpriseReadings(Readings):
    """The SUR config switches of RULES.md with their documented defaults.

    >>> SurpriseReadings.from_mapping({"surprise_distance_cap_mode": "range_limit"})
    ... # doctest: +ELLIPSIS
    SurpriseReadings(..., surprise_distance_cap_mode=<DistanceCapMode.RANGE_LIMIT: 'range_limit'>, ...)
    """

    surprise_allow_formula_above_40: bool = False
    """SUR-03: levels above 40 are refused (False) or priced by the closed form (True)."""
    surprise_refund_integer_rounding: RefundRounding = RefundRounding.NONE
    """SUR-04: the half refund stays exact (none) or is rounded."""
    surprise_pool_funds_need_location: bool = False
    """SUR-08: national-pool funds are exempt from the distance test (False)."""
    surprise_reduction_refund_to: ReductionRefundTo = ReductionRefundTo.SOURCE
    """SUR-09: the 80% refund returns to the source of the funds."""
    surprise_distance_cap_mode: DistanceCapMode = DistanceCapMode.PENALTY_CAP
    """SUR-15: the distance penalty is capped at the level (PENALTY_CAP) or far units are spared."""
    surprise_marker_mp_each: int = 1
    """SUR-16: MPs paid to remove each "+1 MP" of a marker."""
    surprise_gs_halving_rounding: HalvingRounding = HalvingRounding.FLOOR
    """SUR-19: halved ground-support TBF is rounded down per mission."""
    airbase_surprise_selection: AirbaseSelection = AirbaseSelection.RANDOM
    """SUR-22: affected air units are chosen at random (rule text) or by the defender (example)."""


DEFAULT_READINGS = SurpriseReadings()


class AfterFite(StrEnum):
    """EUR-44/SUR-01: may a rule-47 surprise follow the FitE surprise turn on its front?"""

    NOT_BOTH = "not_both"
    BOTH = "both"


@dataclass(frozen=True)
class FrontReadings(Readings):
    """How many surprises one front gets in one turn."""

    surprise_after_fite_turn: AfterFite = AfterFite.NOT_BOTH
    """EUR-44/SUR-01/SUR-25: after the FitE surprise turn (bonus movement and combat across the
    Soviet border) no rule-47 invasion surprise against those countries that turn
    (``not_both``: one surprise where the texts intend one); ``both`` allows it."""


# --------------------------------------------------------------------------------------------
# SUR-01 kinds and bonus phases
# --------------------------------------------------------------------------------------------


class SurpriseKind(StrEnum):
    """SUR-01: the two kinds of surprise turn."""

    LOCAL = "local"
    INVASION = "invasion"


class BonusPhase(StrEnum):
    """SUR-01: the phases a surprise turn inserts after the regular initial phase."""

    BONUS_MOVEMENT = "bonus_movement"
    REACTION = "reaction"
    BONUS_COMBAT = "bonus_combat"
    BONUS_SUPPLY_AIR = "bonus_supply_air"


def bonus_phases(kind: SurpriseKind, *, initial: bool = False) -> tuple[BonusPhase, ...]:
    """SUR-01 (47 intro; 47.A.5.e, p) The bonus phases of a surprise turn, in order.

    Bonus movement (with its naval portion), the defender's reaction step, bonus combat, then the
    bonus supply-judgement/air phase. An invasion (or initial) surprise turn has no reaction step
    (SUR-18).

    >>> [p.value for p in bonus_phases(SurpriseKind.INVASION)]
    ['bonus_movement', 'bonus_combat', 'bonus_supply_air']
    """
    kind = SurpriseKind(kind)
    phases = [BonusPhase.BONUS_MOVEMENT]
    if kind is SurpriseKind.LOCAL and not initial:
        phases.append(BonusPhase.REACTION)
    phases += [BonusPhase.BONUS_COMBAT, BonusPhase.BONUS_SUPPLY_AIR]
    return tuple(phases)


def turn_with_surprise(regular_phases: Sequence[str], kind: SurpriseKind, *,
                       initial: bool = False, after: str = "initial") -> tuple[str, ...]:
    """SUR-01 (47 intro) A turn's phase list with the bonus phases inserted after ``after``.

    Reading (RULES.md SUR-01): regular initial phase, then the bonus phases, then the regular
    movement, combat, exploitation and later phases.

    >>> turn_with_surprise(["initial", "movement", "combat"], SurpriseKind.LOCAL)
    ('initial', 'bonus_movement', 'reaction', 'bonus_combat', 'bonus_supply_air', 'movement', 'combat')
    """
    phases = list(regular_phases)
    if after not in phases:
        raise InputError("regular_phases", f"no {after!r} phase to insert the bonus phases after")
    i = phases.index(after) + 1
    return (*phases[:i], *(p.value for p in bonus_phases(kind, initial=initial)), *phases[i:])


# --------------------------------------------------------------------------------------------
# SUR-02 participation REs, SUR-03 cost table
# --------------------------------------------------------------------------------------------


def _nonneg(name: str, value: Exact) -> None:
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise InputError(name, f"expected an integer or exact fraction, not {value!r}")
    if value < 0:
        raise InputError(name, f"must not be negative (got {exact_json(value)})")


@dataclass(frozen=True)
class Participation:
    """SUR-02 The participating forces, by the categories a-f of 47.A.1.

    ``saf_tbf_points`` and ``tf_strength_points`` hold one entry per strategic air force and per
    task force (the partial groups of 3 TBF / 4 points round up per force).
    """

    ground_re: Exact = 0
    hqs: int = 0
    air_units: int = 0
    saf_bombing_missions: int = 0
    saf_tbf_points: tuple[int, ...] = ()
    tf_strength_points: tuple[int, ...] = ()
    transports: int = 0
    ships: int = 0


@dataclass(frozen=True)
class ParticipationRE:
    """SUR-02 result: the RE count of each category a-f and the total."""

    ground: Fraction
    hqs: int
    air: int
    task_forces: int
    transports: int
    ships: int

    @property
    def total(self) -> Fraction:
        return self.ground + self.hqs + self.air + self.task_forces + self.transports + self.ships

    def to_json(self) -> dict[str, Any]:
        return {"ground": exact_json(self.ground), "hqs": self.hqs, "air": self.air,
                "task_forces": self.task_forces, "transports": self.transports,
                "ships": self.ships, "total": exact_json(self.total)}


def participation_re(p: Participation) -> ParticipationRE:
    """SUR-02 (47.A.1 a-f) REs counted for surprise participation.

    (a) each RE of ground units; (b) 1 per HQ supplying participants; (c) 1 per air unit,
    1 per strategic-bombing mission of a strategic air force, 1 per 3 TBF (rounded up per force)
    a strategic air force uses on other missions; (d) 1 per 4 task-force strength points (rounded
    up per task force); (e) 1 per NT, LB or LC able to carry 1 RE; (f) 1 per ship or flotilla.

    >>> participation_re(Participation(ground_re=12, hqs=1, air_units=4,
    ...                                saf_tbf_points=(7,), tf_strength_points=(9, 4))).total
    Fraction(24, 1)
    """
    _nonneg("ground_re", p.ground_re)
    for name in ("hqs", "air_units", "saf_bombing_missions", "transports", "ships"):
        _nonneg(name, getattr(p, name))
    for i, v in enumerate(p.saf_tbf_points):
        _nonneg(f"saf_tbf_points[{i}]", v)
    for i, v in enumerate(p.tf_strength_points):
        _nonneg(f"tf_strength_points[{i}]", v)
    air = p.air_units + p.saf_bombing_missions + sum(math.ceil(Fraction(t, 3))
                                                     for t in p.saf_tbf_points)
    tfs = sum(math.ceil(Fraction(s, 4)) for s in p.tf_strength_points)
    return ParticipationRE(Fraction(p.ground_re), p.hqs, air, tfs, p.transports, p.ships)


@dataclass(frozen=True, slots=True)
class SurpriseCost:
    """One row of the Surprise Turn Cost Table: level n costs n SRPs and SP SPs for RE REs."""

    level: int
    srp: int
    sp: int
    re: int

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "srp": self.srp, "sp": self.sp, "re": self.re}


def _check_level(level: int, readings: SurpriseReadings, field: str = "level") -> None:
    if isinstance(level, bool) or not isinstance(level, int):
        raise InputError(field, f"a surprise level is a whole number of SRPs, not {level!r}")
    if level < 1:
        raise InputError(field, f"a surprise level is at least 1 SRP (got {level})")
    if level > PRINTED_LEVELS and not readings.surprise_allow_formula_above_40:
        raise InputError(field, f"the cost table stops at {PRINTED_LEVELS} SRPs (got {level}); "
                         "reading surprise_allow_formula_above_40 extends it")


def surprise_cost(level: int, readings: SurpriseReadings = DEFAULT_READINGS) -> SurpriseCost:
    """SUR-03 (47.A.1, Table 1) Cost of a level-n surprise: n SRPs, ceil(RE/3) SPs, n(n+1)/2 REs.

    The closed form reproduces all 40 printed rows; levels above 40 need the reading
    ``surprise_allow_formula_above_40``.

    >>> surprise_cost(10), surprise_cost(1).to_json()
    (SurpriseCost(level=10, srp=10, sp=19, re=55), {'level': 1, 'srp': 1, 'sp': 1, 're': 1})
    """
    _check_level(level, readings)
    re = level * (level + 1) // 2
    return SurpriseCost(level, level, -(-re // 3), re)


def level_for_re(re: Exact, readings: SurpriseReadings = DEFAULT_READINGS) -> SurpriseCost:
    """SUR-03 (47.A.1) The smallest surprise level whose RE benefit covers ``re`` REs.

    n = ceil((sqrt(1 + 8k) - 1) / 2), computed in integers.

    >>> level_for_re(55).level, level_for_re(56).level, level_for_re(Fraction(1, 2)).level
    (10, 11, 1)
    """
    _nonneg("re", re)
    k = math.ceil(Fraction(re))
    if k == 0:
        raise InputError("re", "at least one RE must benefit from a surprise turn")
    n = (math.isqrt(8 * k + 1) - 1) // 2
    if n * (n + 1) // 2 < k:
        n += 1
    if n > PRINTED_LEVELS and not readings.surprise_allow_formula_above_40:
        raise InputError("re", f"{k} REs need level {n}, beyond the table's {PRINTED_LEVELS} "
                         "(reading surprise_allow_formula_above_40 extends it)")
    return surprise_cost(n, readings)


def printed_cost_table(tables: Any = None) -> dict[int, SurpriseCost]:
    """SUR-03 The printed Surprise Turn Cost Table (``europa_surprise_cost``) as cost rows."""
    table: Table = (tables if tables is not None else load_tables()).get("europa_surprise_cost")
    out = {}
    for key in table.row_keys:
        srp, sp, re = (int(table.lookup(key, c)) for c in ("srp", "sp", "re"))
        out[int(key)] = SurpriseCost(int(key), srp, sp, re)
    return out


# --------------------------------------------------------------------------------------------
# SUR-14 limitations
# --------------------------------------------------------------------------------------------


class Nationality(StrEnum):
    """The nationalities Table 2 distinguishes (SUR-14, SUR-15)."""

    GERMAN = "german"
    US = "us"
    COMMONWEALTH = "commonwealth"
    POLISH = "polish"
    FREE = "free"
    SOVIET = "soviet"
    FRENCH = "french"
    ITALIAN = "italian"
    MINOR = "minor"


def parse_nationality(text: str | Nationality, field: str = "nationality") -> Nationality:
    """A :class:`Nationality` from its name (case-insensitive); errors name ``field``."""
    try:
        return Nationality(str(text).strip().lower())
    except ValueError:
        known = ", ".join(n.value for n in Nationality)
        raise InputError(field, f"unknown nationality {text!r} (known: {known})") from None


#: The continents of SUR-14's "one per front/command per continent" (Europa's map covers them).
CONTINENTS = ("europe", "africa", "asia")


@dataclass(frozen=True)
class PlanKey:
    """SUR-14 What identifies a surprise plan for the one-per-front/command/continent limit."""

    side: str
    command: str
    continent: str

    def __post_init__(self) -> None:
        if self.continent not in CONTINENTS:
            raise InputError("continent", f"{self.continent!r} is not one of "
                             f"{', '.join(CONTINENTS)}")


def can_designate(key: PlanKey, active: Sequence[PlanKey]) -> bool:
    """SUR-14 (47.A.3) Only one surprise turn per front/command per continent may be in planning
    or execution during any game turn.

    >>> k = PlanKey("axis", "AGC", "europe")
    >>> can_designate(k, [PlanKey("axis", "AGS", "europe")]), can_designate(k, [k])
    (True, False)
    """
    return key not in active


def verify_designate_limit(key: PlanKey, active: Sequence[PlanKey]) -> None:
    """SUR-14 (47.A.3) Raise :class:`IllegalOrder` when ``key`` already has an active plan."""
    if not can_designate(key, active):
        raise IllegalOrder("SUR-14", f"{key.side} already has a surprise turn planned or under way "
                           f"for front/command {key.command} on {key.continent}")


def may_participate(owner: Nationality, unit: Nationality, *, minor_ally: bool = False) -> bool:
    """SUR-14 (47.A.3) A major power's own units, its minor allies' units, and for Germany also
    Italian units may count in its RE total.

    >>> may_participate(Nationality.GERMAN, Nationality.ITALIAN)
    True
    >>> may_participate(Nationality.ITALIAN, Nationality.GERMAN)
    False
    """
    owner, unit = Nationality(owner), Nationality(unit)
    if unit is owner:
        return True
    if unit is Nationality.MINOR and minor_ally:
        return True
    return owner is Nationality.GERMAN and unit is Nationality.ITALIAN


class AirStatus(StrEnum):
    """SUR-21/SUR-24 The air status ladder: operative -> inoperative -> X -> damaged -> aborted.

    Reading (RULES.md SUR-24): "X" is the extended-air-mission state.
    """

    OPERATIVE = "operative"
    INOPERATIVE = "inoperative"
    X = "X"
    DAMAGED = "damaged"
    ABORTED = "aborted"


AIR_LADDER = tuple(AirStatus)


def parse_air_status(text: str | AirStatus, field: str = "status") -> AirStatus:
    """An :class:`AirStatus` from its name (``X`` or ``x``; others case-insensitive)."""
    raw = str(text).strip()
    for s in AirStatus:
        if raw.lower() == s.value.lower():
            return s
    known = ", ".join(s.value for s in AirStatus)
    raise InputError(field, f"unknown air status {text!r} (known: {known})")
