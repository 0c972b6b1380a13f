"""Europa rule 47.A.2: the arithmetic of planning a surprise (SUR-04..SUR-06, SUR-09..SUR-11).

Lead time, the start-of-surprise half refund, the 80% refund of a voluntary reduction, the
effect of moving the centre hex and the price of a delay: the numbers the plan state machine
(:mod:`grognard.europa.surprise.plan`) posts and the CLI shows.

>>> reduction_refund(30, 10).sp_returned
Fraction(544, 5)
"""

from __future__ import annotations

import dataclasses
import enum
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import exact_json, round_half_up
from grognard.europa.surprise.general import (
    DEFAULT_READINGS,
    RefundRounding,
    SurpriseReadings,
    _check_level,
    surprise_cost,
)


def record_json(obj: Any) -> Any:
    """JSON form of a record value: exact numbers via ``exact_json``, enums by value."""
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, bool) or obj is None or isinstance(obj, str):
        return obj
    if isinstance(obj, int | Fraction):
        return exact_json(obj)
    if isinstance(obj, tuple | list):
        return [record_json(x) for x in obj]
    if hasattr(obj, "to_json"):
        return obj.to_json()
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return _plain_json(obj)
    return obj


def _plain_json(obj: Any) -> dict[str, Any]:
    return {f.name: record_json(getattr(obj, f.name)) for f in dataclasses.fields(obj)}


def lead_turns(level: int, *, reduced: bool = False,
               readings: SurpriseReadings = DEFAULT_READINGS) -> int:
    """SUR-05 (47.A.2.a) At least one turn ahead per 5 SRPs or part of 5: ``ceil(level / 5)``;
    SUR-06 (47.A.2.b) halved, rounded down, with reduced planning.

    >>> [lead_turns(s) for s in (1, 5, 6, 10, 11, 30)], lead_turns(5, reduced=True)
    ([1, 1, 2, 2, 3, 6], 0)
    """
    _check_level(level, readings)
    lead = -(-level // 5)
    return lead // 2 if reduced else lead


def round_refund(x: Fraction, readings: SurpriseReadings) -> Fraction:
    """SUR-04 reading ``surprise_refund_integer_rounding`` applied to a refund amount."""
    mode = readings.surprise_refund_integer_rounding
    if mode is RefundRounding.FLOOR:
        return Fraction(math.floor(x))
    if mode is RefundRounding.CEIL:
        return Fraction(math.ceil(x))
    if mode is RefundRounding.ROUND_HALF_UP:
        return Fraction(round_half_up(x))
    return x


@dataclass(frozen=True)
class Planning:
    """SUR-05/06 Planning of a level: lead time and what comes back at the start (SUR-04)."""

    level: int
    reduced: bool
    lead_turns: int
    refund_srp: Fraction
    refund_sp: Fraction
    forfeited_srp: Fraction
    forfeited_sp: Fraction

    def to_json(self) -> dict[str, Any]:
        return _plain_json(self)


def planning(level: int, *, reduced: bool = False,
             readings: SurpriseReadings = DEFAULT_READINGS) -> Planning:
    """SUR-05/SUR-06/SUR-04 Lead time of a level, and the start-of-surprise half refund (none
    with reduced planning).

    >>> p = planning(5, reduced=True)
    >>> p.lead_turns, p.refund_srp, p.forfeited_srp, p.forfeited_sp
    (0, Fraction(0, 1), Fraction(5, 2), Fraction(5, 2))
    """
    cost = surprise_cost(level, readings)
    half_srp = round_refund(Fraction(cost.srp, 2), readings)
    half_sp = round_refund(Fraction(cost.sp, 2), readings)
    if reduced:
        return Planning(level, True, lead_turns(level, reduced=True, readings=readings),
                        Fraction(0), Fraction(0), half_srp, half_sp)
    return Planning(level, False, lead_turns(level, readings=readings), half_srp, half_sp,
                    Fraction(0), Fraction(0))


@dataclass(frozen=True)
class Reduction:
    """SUR-09 A voluntary reduction from one level to another: the 80% refund."""

    from_level: int
    level: int
    re: int
    srp_returned: Fraction
    sp_returned: Fraction

    def to_json(self) -> dict[str, Any]:
        return _plain_json(self)


REDUCTION_REFUND = Fraction(4, 5)


def reduction_refund(from_level: int, to_level: int,
                     readings: SurpriseReadings = DEFAULT_READINGS) -> Reduction:
    """SUR-09 (47.A.2.e) Reducing a surprise returns 80% of the SRP and of the SP difference.

    >>> r = reduction_refund(30, 10)
    >>> r.srp_returned, r.sp_returned, r.re
    (Fraction(16, 1), Fraction(544, 5), 55)
    """
    _check_level(from_level, readings, "from_level")
    _check_level(to_level, readings, "to_level")
    if to_level >= from_level:
        raise IllegalOrder("SUR-09", f"a surprise level may only be reduced (from {from_level} "
                           f"to {to_level}); raising it means restarting the designation")
    old, new = surprise_cost(from_level, readings), surprise_cost(to_level, readings)
    return Reduction(from_level, to_level, new.re, REDUCTION_REFUND * (old.srp - new.srp),
                     REDUCTION_REFUND * (old.sp - new.sp))


@dataclass(frozen=True)
class CentreMove:
    """SUR-10 Effect of moving the centre hex ``hexes`` hexes."""

    level: int
    hexes: int
    effective_level: int
    re: int
    srp_spent: int
    sp_spent: int
    sp_returned: int
    cancelled: bool

    def to_json(self) -> dict[str, Any]:
        return _plain_json(self)


def centre_move_effect(level: int, hexes: int, *, srp_spent: int | None = None,
                       readings: SurpriseReadings = DEFAULT_READINGS) -> CentreMove:
    """SUR-10 (47.A.2.f) Moving the centre drops the effective level by one per hex. The
    designated SRPs stay spent; only the SPs of the reduced level are spent, the rest (100%) go
    back. A move of ``level`` hexes or more cancels the surprise (every SP comes back).

    >>> m = centre_move_effect(20, 10)
    >>> m.effective_level, m.re, m.srp_spent, m.sp_spent, m.sp_returned
    (10, 55, 20, 19, 51)
    """
    _check_level(level, readings)
    if isinstance(hexes, bool) or not isinstance(hexes, int) or hexes < 0:
        raise InputError("hexes", f"hexes moved must be a whole number >= 0 (got {hexes!r})")
    old = surprise_cost(level, readings)
    spent = old.srp if srp_spent is None else srp_spent
    eff = level - hexes
    if eff <= 0:
        return CentreMove(level, hexes, 0, 0, spent, 0, old.sp, True)
    new = surprise_cost(eff, readings)
    return CentreMove(level, hexes, eff, new.re, spent, new.sp, old.sp - new.sp, False)


@dataclass(frozen=True)
class DelayCost:
    """SUR-11 What ``turns`` turns of delay cost."""

    level: int
    turns: int
    weather_wait: bool
    srp_cost: Fraction
    sp_cost: Fraction

    def to_json(self) -> dict[str, Any]:
        return _plain_json(self)


#: Longest delay of one surprise plan (SUR-11): a year of Europa's half-month turns. A longer
#: "delay" is a typo or an attack on the ledger (10^9 turns once recorded 1.25e9 SRPs spent).
MAX_DELAY_TURNS = 24


def delay_cost(level: int, turns: int = 1, *, weather_wait: bool = False,
               readings: SurpriseReadings = DEFAULT_READINGS) -> DelayCost:
    """SUR-11 (47.A.2.g) Each turn of delay costs a quarter of the SRPs and SPs expended at
    designation; free while the designated weather has not occurred.

    >>> d = delay_cost(20, 1)
    >>> d.srp_cost, d.sp_cost
    (Fraction(5, 1), Fraction(35, 2))
    """
    cost = surprise_cost(level, readings)
    if isinstance(turns, bool) or not isinstance(turns, int) or not 0 <= turns <= MAX_DELAY_TURNS:
        raise InputError("turns", f"turns of delay are a whole number 0..{MAX_DELAY_TURNS} "
                         f"(got {turns!r})")
    if weather_wait:
        return DelayCost(level, turns, True, Fraction(0), Fraction(0))
    return DelayCost(level, turns, False, Fraction(cost.srp * turns, 4),
                     Fraction(cost.sp * turns, 4))


class RefundHolder(enum.StrEnum):
    """SUR-04/SUR-10 What may receive refunded SRPs and SPs."""

    FRIENDLY_UNIT = "friendly_unit"
    DEPOT = "depot"
    HQ = "hq"
    SUPPLY_UNIT = "supply_unit"


def start_refund_placement_ok(holder: RefundHolder, hexes_from_front: int) -> bool:
    """SUR-04 (47.A.1 note; 47.A.2.d) The half refund goes on a friendly unit within 5 hexes of
    the front line, or into a supply unit, depot or HQ within 20 hexes of the surprise front.

    >>> start_refund_placement_ok(RefundHolder.FRIENDLY_UNIT, 6), start_refund_placement_ok(
    ...     RefundHolder.DEPOT, 20)
    (False, True)
    """
    if isinstance(hexes_from_front, bool) or hexes_from_front < 0:
        raise InputError("hexes_from_front", "must be a whole number >= 0")
    limit = 5 if RefundHolder(holder) is RefundHolder.FRIENDLY_UNIT else 20
    return hexes_from_front <= limit


def moved_centre_refund_placement_ok(holder: RefundHolder, infantry_mps_to_original: int) -> bool:
    """SUR-10 (47.A.2.f) SPs freed by moving the centre go to depots within 20 infantry MPs of
    the original centre hex (reading: MPs here, per the example).

    >>> moved_centre_refund_placement_ok(RefundHolder.DEPOT, 20)
    True
    """
    if isinstance(infantry_mps_to_original, bool) or infantry_mps_to_original < 0:
        raise InputError("infantry_mps_to_original", "must be a whole number >= 0")
    return RefundHolder(holder) is RefundHolder.DEPOT and infantry_mps_to_original <= 20
