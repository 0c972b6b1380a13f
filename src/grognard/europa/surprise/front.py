"""Europa rule 47.A.2.c-h: the centre hex, funding, the surprise front and its participants.

SUR-07 (centre-hex validity), SUR-08 (location of the funding), SUR-12 (the surprise front along
an ordered front line) and SUR-13 (participants and the RE cap), as pure functions over explicit
inputs. The map layer (``core/front``: the ordered enemy front line, the centre-hex facts) feeds
them through :mod:`grognard.europa.surprise.map`, the one place the two meet.

>>> front_extent(6)
FrontExtent(hexes_each_side=5, length=11)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, TypeVar

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import Exact, exact_json
from grognard.europa.surprise.general import (
    DEFAULT_READINGS,
    SurpriseReadings,
    _check_level,
    _nonneg,
    surprise_cost,
)

H = TypeVar("H", bound=Hashable)



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
    if not centre.all_sea and not (centre.in_enemy_zoc or centre.in_friendly_zoc):
        problems.append(f"centre hex {centre.label} is in neither an enemy nor a friendly ZOC")
    if centre.behind_enemy_front_line:
        problems.append(f"centre hex {centre.label} is behind the enemy front line")
    if centre.all_sea and not centre.on_line_between_front_points:
        problems.append(f"all-sea centre hex {centre.label} is not on a straight line of hexes "
                        "between two points of the front line")
    return problems


def valid_centre(centre: CentreHex) -> bool:
    """SUR-07 (47.A.2.c) A centre hex must be in an enemy or friendly ZOC, not behind the enemy
    front line, and if all-sea on a straight line between two front-line points (ZOCs do not
    reach all-sea hexes, so for those the straight line is the whole test - reading).

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

    All mandatory units must be counted "if possible": leaving one out while the cap, counting
    only the mandatory units chosen, still has room for it is illegal (optional units "may
    also" be marked, on top; they never take a mandatory unit's place). Ineligible units may not be chosen; the total may not exceed the cap.
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
    # units 6-20 hexes away "may also" be marked: they never displace a unit that must count
    must = sum((Fraction(by_id[u].re) for u in picked
                if participant_role(by_id[u]) is ParticipantRole.MANDATORY), Fraction(0))
    for uid in left:
        if must + Fraction(by_id[uid].re) <= cap:
            raise IllegalOrder("SUR-13", f"{uid} is within 5 hexes of the front and must be "
                               f"counted: the cap of {cap} REs still has room for it (optional "
                               "units only come on top of the units that must count)")
    return Participants(tuple(picked), total, cap, tuple(left))


def may_act_in_bonus_phase(unit_id: str, participants: Participants) -> bool:
    """SUR-13 (47.A.2.h) Only the units counted as participants act in the bonus phases."""
    return unit_id in participants.ids
