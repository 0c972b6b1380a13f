"""TR-07..TR-13, TR-80, TR-81 ("1940 Year Start Sequence"; "1941 and later Year Start Sequences";
"Strategic warfare spending limits and forced unit conversions"): the Spring Year Start.

>>> growth("germany", 85), growth("us", 10), growth("france", 9)
(51, 7, 4)
>>> ussr_base_adjust(0, 18), ussr_base_adjust(18, 8), ussr_base_adjust(8, 8)
(-18, 5, 0)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import Exact, exact_json
from grognard.third_reich.economy.economy import Economy, acct
from grognard.third_reich.economy.readings import Rounding, StrategicReadings
from grognard.third_reich.turn.calendar import LAST_TURN, SPRING_1940, Season, turn_number
from grognard.third_reich.turn.powers import Power, parse_power

#: TR-10: share of the BRPs saved at the end of Winter added permanently to the base.
GROWTH_RATES: dict[Power, Fraction] = {
    Power.US: Fraction(7, 10),
    Power.GERMANY: Fraction(6, 10),
    Power.UK: Fraction(6, 10),
    Power.USSR: Fraction(6, 10),
    Power.ITALY: Fraction(1, 2),
    Power.FRANCE: Fraction(1, 2),
}
PARTIAL_YEAR_SHARE = Fraction(2, 5)  # TR-07 (Spring 1940) and TR-04 (1945): 40%
FLEET_CONVERSION_THRESHOLD = 25  # TR-81
FLEET_CONVERSION_ASW_FACTORS = 9
SW_FACTOR_BRPS = 3  # TR-31
SW_KINDS = ("subs", "interceptors", "asw", "bombers")


def growth(power: Power | str, saved: Exact, readings: StrategicReadings | None = None) -> int:
    """TR-10 (BRPs left unspent...): base increase from BRPs saved at the end of Winter.

    US 70%; Germany, UK, USSR 60%; Italy, France 50%; rounded by ``growth_rounding`` (floor).
    """
    p = parse_power(str(power))
    if isinstance(saved, bool | float) or Fraction(saved) < 0:
        raise InputError("saved", f"saved BRPs are an exact amount >= 0, not {saved!r}")
    r = readings or StrategicReadings()
    return r.growth_rounding.apply(GROWTH_RATES[p] * Fraction(saved))


def ussr_base_adjust(previous_axis_value: int, axis_value_now: int,
                     rounding: Rounding = Rounding.FLOOR) -> int:
    """TR-12 (Strategic Warfare and the USSR): base change from Axis-held pre-war USSR cities.

    A rise in the Axis-held value costs the full rise; a fall gives back only half of it.
    """
    for name, v in (("previous_axis_value", previous_axis_value),
                    ("axis_value_now", axis_value_now)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(name, f"a city value is a whole number >= 0, not {v!r}")
    change = axis_value_now - previous_axis_value
    if change >= 0:
        return -change
    return rounding.apply(Fraction(-change, 2))


def sw_limits(power: Power | str, base: Exact, year: int) -> dict[str, Fraction]:
    """TR-80 (Strategic warfare spending limits): BRPs a power may put into each SW kind a year.

    Germany 10% of base on subs and on interceptors; UK (and the US once belligerent) 10% on
    ASW and 15% on bombers; the US only 5% each in 1942 and at most 10% each in 1943.

    >>> {k: str(v) for k, v in sw_limits("uk", 125, 1940).items()}
    {'asw': '25/2', 'bombers': '75/4'}
    """
    p = parse_power(str(power))
    b = Fraction(base)
    pct = Fraction(1, 100)
    if p is Power.GERMANY:
        return {"subs": 10 * pct * b, "interceptors": 10 * pct * b}
    if p is Power.UK:
        return {"asw": 10 * pct * b, "bombers": 15 * pct * b}
    if p is Power.US:
        if year <= 1942:
            return {"asw": 5 * pct * b, "bombers": 5 * pct * b}
        if year == 1943:
            return {"asw": 10 * pct * b, "bombers": 10 * pct * b}
        return {"asw": 10 * pct * b, "bombers": 15 * pct * b}
    return {}


@dataclass(frozen=True)
class PowerYearStart:
    """Every number of one power's Year Start (the event the engine logs)."""

    power: str
    old_base: Fraction
    saved: Fraction = Fraction(0)
    growth: int = 0
    conquests_and_allies: Fraction = Fraction(0)
    ussr_cities: int = 0
    sw_hits: Fraction = Fraction(0)
    new_base: Fraction = Fraction(0)
    received: Fraction = Fraction(0)
    brp: Fraction = Fraction(0)
    sw_limits: Mapping[str, Fraction] = field(default_factory=dict)
    fleet_conversion: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "power": self.power,
            "old_base": exact_json(self.old_base),
            "saved": exact_json(self.saved),
            "growth": self.growth,
            "conquests_and_allies": exact_json(self.conquests_and_allies),
            "ussr_cities": self.ussr_cities,
            "sw_hits": exact_json(self.sw_hits),
            "new_base": exact_json(self.new_base),
            "received": exact_json(self.received),
            "brp": exact_json(self.brp),
            "sw_limits": {k: exact_json(v) for k, v in self.sw_limits.items()},
            "fleet_conversion": self.fleet_conversion,
        }


@dataclass(frozen=True)
class YearStartRecord:
    turn: int
    year: int
    special_1940: bool
    powers: tuple[PowerYearStart, ...]

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "year": self.year, "special_1940": self.special_1940,
                "powers": [p.to_json() for p in self.powers]}


def verify_year_start(econ: Economy) -> None:
    """TR-09: a Year Start runs at the start of a Spring turn, once."""
    d = econ.date
    if d.season is not Season.SPRING:
        raise IllegalOrder("TR-09", f"Year Start is in Spring; turn {d.turn} is "
                           f"{d.season.value} {d.year}")
    if acct("germany", f"year_start.{d.year}") in econ.ledger.balances:
        raise IllegalOrder("TR-09", f"the {d.year} Year Start has already been done")


def _set_sw_limits(e: Economy, p: Power, limits: Mapping[str, Fraction], cause: str) -> Economy:
    for kind in SW_KINDS:
        if kind in limits:
            e = e.set(acct(p, f"sw_limit.{kind}"), limits[kind], "TR-80", cause)
            e = e.set(acct(p, f"sw_spent.{kind}"), 0, "TR-80", f"{cause}: new year")
    return e


def _pending(e: Economy, p: Power, year: int) -> tuple[Economy, Fraction]:
    pend = e.balance(acct(p, "pending"))
    if pend:
        e = e.post(acct(p, "base"), pend, "TR-11", f"conquests and minor allies of {year - 1}")
        e = e.set(acct(p, "pending"), 0, "TR-11", "applied at Year Start")
    return e, pend


def year_start_1940(econ: Economy) -> tuple[Economy, YearStartRecord]:
    """TR-07 (1940 Year Start Sequence): the special Spring 1940 Year Start.

    Nothing is zeroed: each base takes its 1939 conquests and minor allies, then the power
    receives 40% of the new base on top of its BRPs; Germany's and the UK's SW limits are set.
    """
    verify_year_start(econ)
    if econ.turn != SPRING_1940:
        raise IllegalOrder("TR-07", "the special Year Start is Spring 1940 (turn 3) only")
    e = econ
    out: list[PowerYearStart] = []
    for p in e.powers:
        old = e.base(p)
        e, pend = _pending(e, p, 1940)
        new_base = e.base(p)
        received = e.readings.partial_year_income_rounding.apply(PARTIAL_YEAR_SHARE * new_base)
        e = e.post(acct(p, "brp"), received, "TR-07",
                   f"Spring 1940: 40% of the {exact_json(new_base)} base")
        limits = sw_limits(p, new_base, 1940) if p in (Power.GERMANY, Power.UK) else {}
        e = _set_sw_limits(e, p, limits, f"{p.value} 1940 SW limits")
        out.append(PowerYearStart(p.value, old, conquests_and_allies=pend, new_base=new_base,
                                  received=Fraction(received), brp=e.brp(p),
                                  sw_limits=limits))
    e = e.post(acct("germany", "year_start.1940"), 1, "TR-07", "Spring 1940 Year Start done")
    return e, YearStartRecord(e.turn, 1940, True, tuple(out))


def year_start(econ: Economy, ussr_axis_cities: int | None = None) -> tuple[Economy,
                                                                            YearStartRecord]:
    """TR-09 (1941 and later Year Start Sequences): each power, in movement order:

    base + growth (TR-10) + conquests and minor allies (TR-11) - USSR city losses (TR-12)
    - last year's SW hits (TR-13); BRPs on hand = the new base (40% of it in 1945, TR-04);
    SW limits set (TR-80) with forced conversions counted (TR-81). Spring 1940 dispatches to
    :func:`year_start_1940`. ``ussr_axis_cities`` overrides the tracked Axis-held value.
    """
    if econ.turn == SPRING_1940:
        return year_start_1940(econ)
    verify_year_start(econ)
    e = econ
    year = e.year
    r = e.readings
    if ussr_axis_cities is not None:
        if isinstance(ussr_axis_cities, bool) or not isinstance(ussr_axis_cities, int) \
                or ussr_axis_cities < 0:
            raise InputError("ussr_axis_cities", "a city value is a whole number >= 0")
        e = e.set("ussr.axis_cities", ussr_axis_cities, "TR-12",
                  "Axis-held pre-war USSR city value at Year Start")
    out: list[PowerYearStart] = []
    western_converted = False
    for p in e.powers:
        old = e.base(p)
        saved = e.brp(p)
        g = growth(p, saved, r) if saved > 0 else 0
        if saved:
            e = e.post(acct(p, "brp"), -saved, "TR-10",
                       f"{exact_json(saved)} BRPs saved at the end of Winter {year - 1} removed")
        if g:
            e = e.post(acct(p, "base"), g, "TR-10",
                       f"growth: {GROWTH_RATES[p]} of {exact_json(saved)} saved BRPs")
        e, pend = _pending(e, p, year)
        ussr = 0
        if p is Power.USSR:
            prev = int(e.balance("ussr.axis_cities_last"))
            now = int(e.balance("ussr.axis_cities"))
            ussr = ussr_base_adjust(prev, now, r.ussr_recovery_rounding)
            if ussr:
                e = e.post(acct(p, "base"), ussr, "TR-12",
                           f"Axis-held pre-war USSR cities {prev} -> {now}")
            e = e.set("ussr.axis_cities_last", now, "TR-12", "value kept for next Year Start")
        hits = e.balance(acct(p, "sw_base_hits"))
        if hits:
            e = e.post(acct(p, "base"), -hits, "TR-13", f"strategic warfare hits of {year - 1}")
            e = e.set(acct(p, "sw_base_hits"), 0, "TR-13", "tally applied")
        new_base = e.base(p)
        if new_base < 0:
            e = e.set(acct(p, "base"), 0, "TR-09", "a BRP base cannot fall below 0")
            new_base = Fraction(0)
        received: Fraction | int = new_base
        if year >= 1945:
            received = r.partial_year_income_rounding.apply(PARTIAL_YEAR_SHARE * new_base)
            e = e.post(acct(p, "brp"), received, "TR-04",
                       f"{year}: only 40% of the {exact_json(new_base)} base is received")
        else:
            e = e.post(acct(p, "brp"), received, "TR-09", f"{year} BRPs = the new base")
        # TR-80 / TR-81: limits, then forced conversions charged against them
        limits: dict[str, Fraction] = {}
        if p in (Power.GERMANY, Power.UK) or (p is Power.US and p in e.at_war_with_germany):
            limits = sw_limits(p, new_base, year)
        e = _set_sw_limits(e, p, limits, f"{p.value} {year} SW limits")
        conversion = False
        year_hits = e.balance(acct(p, "sw_hits"))
        if p in (Power.UK, Power.US) and year_hits >= FLEET_CONVERSION_THRESHOLD and \
                not western_converted:
            # TR-81: "the allies are never forced to remove more than 1 surface fleet in this
            # manner in a given year": the Western Allies together, the first hit in order
            conversion = western_converted = True
            e = e.post(acct(p, "fleet_conversions"), 1, "TR-81",
                       f"{exact_json(year_hits)} BRPs lost to U-boats in {year - 1}: one 9-factor "
                       "fleet becomes 9 ASW factors")
            e = e.post(acct(p, "sw_spent.asw"), FLEET_CONVERSION_ASW_FACTORS * SW_FACTOR_BRPS,
                       "TR-81", "forced conversion counts against the ASW limit")
        if p is Power.GERMANY:
            n = e.balance("germany.air_conversions_year")
            if n:
                e = e.post("germany.sw_spent.interceptors", n * 5 * SW_FACTOR_BRPS, "TR-81",
                           f"{n} forced 5-4 conversions of {year - 1} count against the "
                           "interceptor limit")
                e = e.set("germany.air_conversions_year", 0, "TR-81", "new year")
        if year_hits:
            e = e.set(acct(p, "sw_hits"), 0, "TR-13", "SW hit tally zeroed for the new year")
        out.append(PowerYearStart(p.value, old, saved, g, pend, ussr, hits, new_base,
                                  Fraction(received), e.brp(p), limits, conversion))
    # TR-78: air hits on cities are cleared each Spring; lend-lease decisions are yearly
    for name, bal in list(e.ledger.balances.items()):
        if name.startswith("city.") and bal:
            e = e.set(name, 0, "TR-78", "air hits on cities cleared at the Spring interphase")
    e = e.post(acct("germany", f"year_start.{year}"), 1, "TR-09", f"{year} Year Start done")
    e = replace(e, lend_lease_done=frozenset())
    return e, YearStartRecord(e.turn, year, False, tuple(out))


def next_year_start(econ: Economy, ussr_axis_cities: int | None = None) -> tuple[
        Economy, YearStartRecord]:
    """TR-09: run the next Year Start: this Spring's if not done yet, else the next Spring's."""
    if ussr_axis_cities is not None and (isinstance(ussr_axis_cities, bool) or not isinstance(
            ussr_axis_cities, int) or ussr_axis_cities < 0):
        raise InputError("ussr_cities", f"a city value is a whole number >= 0, not "
                         f"{ussr_axis_cities!r}")
    e = econ
    d = e.date
    done = acct("germany", f"year_start.{d.year}") in e.ledger.balances
    if d.season is not Season.SPRING or done:
        spring = turn_number(d.year + 1, Season.SPRING)
        if spring > LAST_TURN:
            raise IllegalOrder("TR-04", "no Year Start after Spring 1945: the campaign ends "
                               "after Summer I 1945")
        e = replace(e, turn=spring)
    return year_start(e, ussr_axis_cities)


def income_share(base: Exact, year: int, readings: StrategicReadings | None = None) -> int:
    """TR-04/TR-07: BRPs a Year Start pays on ``base``: all of it, 40% in Spring 1940 (on top of
    what is on hand) and in 1945.

    >>> income_share(200, 1945), income_share(60, 1940), income_share(170, 1941)
    (80, 24, 170)
    """
    b = Fraction(base)
    if year == 1940 or year >= 1945:
        return (readings or StrategicReadings()).partial_year_income_rounding.apply(
            PARTIAL_YEAR_SHARE * b)
    return math.floor(b)
