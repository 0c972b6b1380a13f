"""Europa rule 47, surprise turns: readings, cost and levels, the surprise front, limitations.

This module holds the vocabulary of rule 47 (SUR-01), the Surprise Turn Cost Table (SUR-02,
SUR-03), the centre hex and the surprise front (SUR-07, SUR-08, SUR-12, SUR-13) and the
limitations (SUR-14). The plan state machine is in :mod:`grognard.europa.surprise_plan`, the
effects in :mod:`grognard.europa.surprise_effects`, airbase surprise in
:mod:`grognard.europa.surprise_airbase` and invasion surprise in
:mod:`grognard.europa.surprise_invasion`.

>>> surprise_cost(30)
SurpriseCost(level=30, srp=30, sp=155, re=465)
>>> level_for_re(55).level, front_extent(6)
(10, FrontExtent(hexes_each_side=5, length=11))
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, TypeVar

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import Exact, exact_json
from grognard.core.readings import Readings
from grognard.core.tables import Table, load_tables

H = TypeVar("H", bound=Hashable)

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
# SUR-07 centre hex, SUR-08 funding, SUR-12 front extent, SUR-13 participants
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CentreHex:
    """SUR-07 What the map layer knows about a candidate centre hex."""

    label: str
    in_enemy_zoc: bool = False
    in_friendly_zoc: bool = False
    behind_enemy_front_line: bool = False
    all_sea: bool = False
    on_line_between_front_points: bool = False


def centre_hex_problems(centre: CentreHex) -> list[str]:
    """SUR-07 (47.A.2.c) Every reason ``centre`` may not be the centre hex (empty when valid)."""
    problems = []
    if not (centre.in_enemy_zoc or centre.in_friendly_zoc):
        problems.append(f"centre hex {centre.label} is in neither an enemy nor a friendly ZOC")
    if centre.behind_enemy_front_line:
        problems.append(f"centre hex {centre.label} is behind the enemy front line")
    if centre.all_sea and not centre.on_line_between_front_points:
        problems.append(f"all-sea centre hex {centre.label} is not on a straight line of hexes "
                        "between two points of the front line")
    return problems


def valid_centre(centre: CentreHex) -> bool:
    """SUR-07 (47.A.2.c) A centre hex must be in an enemy or friendly ZOC, not behind the enemy
    front line, and if all-sea on a straight line between two front-line points.

    >>> valid_centre(CentreHex("1234", in_enemy_zoc=True))
    True
    >>> valid_centre(CentreHex("1234", in_friendly_zoc=True, behind_enemy_front_line=True))
    False
    """
    return not centre_hex_problems(centre)


def verify_centre(centre: CentreHex) -> None:
    """SUR-07 (47.A.2.c) Raise :class:`IllegalOrder` naming the first problem of ``centre``."""
    problems = centre_hex_problems(centre)
    if problems:
        raise IllegalOrder("SUR-07", "; ".join(problems))


class FundingKind(StrEnum):
    """SUR-08 Where designated SRPs/SPs come from."""

    NATIONAL_POOL = "national_pool"
    DEPOT = "depot"
    SUPPLY_UNIT = "supply_unit"
    HQ = "hq"


class AssaultType(StrEnum):
    """SUR-08 The kind of surprise attack the funding serves."""

    GROUND = "ground"
    AMPHIBIOUS = "amphibious"
    AIRBORNE = "airborne"


@dataclass(frozen=True)
class FundingSource:
    """SUR-08 One source paying designated SRPs/SPs, with what the map layer measured.

    ``infantry_mps_to_centre`` is the infantry-MP distance (after any rail move made in the
    planning turn); ``within_hq_supply_range`` and ``with_naval_units_in_port`` serve amphibious
    and airborne assaults.
    """

    kind: FundingKind
    srp: Exact = 0
    sp: Exact = 0
    label: str = ""
    infantry_mps_to_centre: int | None = None
    within_hq_supply_range: bool = False
    with_naval_units_in_port: bool = False


def funding_problems(sources: Sequence[FundingSource], level: int,
                     assault: AssaultType = AssaultType.GROUND,
                     readings: SurpriseReadings = DEFAULT_READINGS) -> list[str]:
    """SUR-08 (47.A.2.a, d) Every reason the funding is not valid (empty when valid)."""
    problems = []
    for i, s in enumerate(sources):
        name = s.label or f"source {i + 1} ({s.kind.value})"
        _nonneg(f"sources[{i}].srp", s.srp)
        _nonneg(f"sources[{i}].sp", s.sp)
        if s.kind is FundingKind.NATIONAL_POOL and not readings.surprise_pool_funds_need_location:
            continue
        if assault is AssaultType.GROUND:
            if s.infantry_mps_to_centre is None:
                problems.append(f"{name}: distance to the centre hex is unknown")
            elif s.infantry_mps_to_centre > level:
                problems.append(f"{name} is {s.infantry_mps_to_centre} infantry MPs from the "
                                f"centre hex; at most {level} (the SRPs designated)")
        elif not (s.within_hq_supply_range or s.with_naval_units_in_port):
            problems.append(f"{name} is neither within supply range of the HQs supplying the "
                            f"{assault.value} assault nor stacked with participating naval units")
    return problems


def funding_valid(sources: Sequence[FundingSource], level: int,
                  assault: AssaultType = AssaultType.GROUND,
                  readings: SurpriseReadings = DEFAULT_READINGS) -> bool:
    """SUR-08 (47.A.2.d) Funding within ``level`` infantry MPs of the centre (ground), or within
    HQ supply range / stacked with naval units in port (amphibious, airborne). National-pool funds
    are exempt unless ``surprise_pool_funds_need_location``.

    >>> funding_valid([FundingSource(FundingKind.DEPOT, 5, 5, infantry_mps_to_centre=6)], 5)
    False
    """
    return not funding_problems(sources, level, assault, readings)


@dataclass(frozen=True, slots=True)
class FrontExtent:
    """SUR-12 Size of a surprise front: hexes on each side of the centre and total length."""

    hexes_each_side: int
    length: int

    def to_json(self) -> dict[str, Any]:
        return {"hexes_each_side": self.hexes_each_side, "length": self.length}


def front_extent(level: int, readings: SurpriseReadings = DEFAULT_READINGS) -> FrontExtent:
    """SUR-12 (47.A.2.h) A surprise front's radius is the SRP level, the centre counted first:
    ``level - 1`` hexes on each side, ``2 * level - 1`` hexes in all.

    >>> front_extent(6), front_extent(1)
    (FrontExtent(hexes_each_side=5, length=11), FrontExtent(hexes_each_side=0, length=1))
    """
    _check_level(level, readings)
    return FrontExtent(level - 1, 2 * level - 1)


@dataclass(frozen=True)
class SurpriseFront:
    """SUR-12 A marked surprise front: its hexes in front-line order, the centre and both ends."""

    hexes: tuple[Hashable, ...]
    centre: Hashable
    ends: tuple[Hashable, Hashable]
    hexes_each_side: int

    @property
    def length(self) -> int:
        return len(self.hexes)

    def to_json(self) -> dict[str, Any]:
        return {"hexes": [str(h) for h in self.hexes], "centre": str(self.centre),
                "ends": [str(e) for e in self.ends], "hexes_each_side": self.hexes_each_side,
                "length": self.length}


def surprise_front(centre: H, level: int, front_line: Sequence[H],
                   readings: SurpriseReadings = DEFAULT_READINGS) -> SurpriseFront:
    """SUR-12 (47.A.2.h) The surprise front along an ordered front line (hexes or labels).

    Hexes are counted along the front line (so its curves count), ``level - 1`` each side of the
    centre; the front stops where the given line ends. The map layer supplies ``front_line``
    (the enemy front line, or a straight line of sea hexes between two front-line points).

    >>> line = [f"h{i}" for i in range(20)]
    >>> f = surprise_front("h10", 6, line)
    >>> f.ends, f.length
    (('h5', 'h15'), 11)
    """
    ext = front_extent(level, readings)
    line = list(front_line)
    if len(set(line)) != len(line):
        raise InputError("front_line", "a front line lists each hex once")
    try:
        i = line.index(centre)
    except ValueError:
        raise InputError("centre", f"centre hex {centre} is not on the given front line") from None
    lo, hi = max(0, i - ext.hexes_each_side), min(len(line), i + ext.hexes_each_side + 1)
    hexes = tuple(line[lo:hi])
    return SurpriseFront(hexes, centre, (hexes[0], hexes[-1]), ext.hexes_each_side)


class ParticipantRole(StrEnum):
    """SUR-13 Whether a candidate must, or may, be counted as a participant."""

    MANDATORY = "mandatory"
    """Within 5 hexes of the front lines, or loaded on participating naval units."""
    OPTIONAL = "optional"
    """Ground/air units 5-20 hexes from the front; qualifying naval units."""
    INELIGIBLE = "ineligible"


@dataclass(frozen=True)
class Candidate:
    """SUR-13 A friendly unit that could take part, with its RE count (SUR-02)."""

    id: str
    re: Exact
    hexes_from_front: int | None = None
    loaded_on_participating_naval: bool = False
    naval: bool = False
    naval_ends_within_5: bool = False
    naval_combat_within_5: bool = False


def participant_role(c: Candidate) -> ParticipantRole:
    """SUR-13 (47.A.2.h) Mandatory within 5 hexes of the front lines (or loaded on participating
    naval units); optional for ground/air 6-20 hexes away and for naval units (or carrier air)
    ending a turn, or fighting, within 5 hexes of the surprise front.

    >>> participant_role(Candidate("a", 3, hexes_from_front=4)).value
    'mandatory'
    """
    if c.loaded_on_participating_naval:
        return ParticipantRole.MANDATORY
    if c.naval:
        if c.naval_ends_within_5 or c.naval_combat_within_5:
            return ParticipantRole.OPTIONAL
        return ParticipantRole.INELIGIBLE
    if c.hexes_from_front is None:
        raise InputError(f"candidate {c.id}.hexes_from_front", "needed for a ground or air unit")
    if c.hexes_from_front < 0:
        raise InputError(f"candidate {c.id}.hexes_from_front", "must not be negative")
    if c.hexes_from_front <= 5:
        return ParticipantRole.MANDATORY
    if c.hexes_from_front <= 20:
        return ParticipantRole.OPTIONAL
    return ParticipantRole.INELIGIBLE


@dataclass(frozen=True)
class Participants:
    """SUR-13 The chosen participants, their RE total and the cap they fit under."""

    ids: tuple[str, ...]
    re_total: Fraction
    cap: int
    left_out: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ids": list(self.ids), "re_total": exact_json(self.re_total), "cap": self.cap,
                "left_out": list(self.left_out)}


def select_participants(candidates: Sequence[Candidate], chosen: Sequence[str],
                        level: int,
                        readings: SurpriseReadings = DEFAULT_READINGS) -> Participants:
    """SUR-13 (47.A.2.h) Check a choice of participants against the RE cap RE(level).

    All mandatory units must be counted "if possible": leaving one out while the cap still has
    room for it is illegal. Ineligible units may not be chosen; the total may not exceed the cap.
    """
    cap = surprise_cost(level, readings).re
    by_id = {c.id: c for c in candidates}
    if len(by_id) != len(candidates):
        raise InputError("candidates", "duplicate unit id")
    for c in candidates:
        _nonneg(f"candidate {c.id}.re", c.re)
    picked = []
    for uid in chosen:
        if uid not in by_id:
            raise InputError("chosen", f"unknown unit {uid!r}")
        if participant_role(by_id[uid]) is ParticipantRole.INELIGIBLE:
            raise IllegalOrder("SUR-13", f"{uid} is too far from the surprise front to take part")
        if uid in picked:
            raise InputError("chosen", f"unit {uid!r} chosen twice")
        picked.append(uid)
    total = sum((Fraction(by_id[u].re) for u in picked), Fraction(0))
    if total > cap:
        raise IllegalOrder("SUR-13", f"participants total {exact_json(total)} REs; a level-{level} "
                           f"surprise lets at most {cap} REs benefit")
    left = [c.id for c in candidates if c.id not in picked
            and participant_role(c) is ParticipantRole.MANDATORY]
    for uid in left:
        if total + Fraction(by_id[uid].re) <= cap:
            raise IllegalOrder("SUR-13", f"{uid} is within 5 hexes of the front and must be "
                               f"counted: the cap of {cap} REs still has room for it")
    return Participants(tuple(picked), total, cap, tuple(left))


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


@dataclass(frozen=True)
class PlanKey:
    """SUR-14 What identifies a surprise plan for the one-per-front/command/continent limit."""

    side: str
    command: str
    continent: str


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
