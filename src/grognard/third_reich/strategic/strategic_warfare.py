"""TR-08, TR-13, TR-79..TR-82 ("Strategic Warfare"; "Strategic warfare spending limits and forced
unit conversions"; "Strategic warfare in 1945"; "The Happy Times"): strategic warfare every turn.

One round per game turn: the offensive side (subs, bombers) fires at the defending SW assets
(ASW, interceptors) at half factors rounded up, with the 0.6 rule; the defenders fire back at
full factors, rounding down; survivors fire at the target economy with 2x (subs) or 1x
(bombers) factors, rounding down.

>>> r = sw_round("bombers", 5, 4, roll_offense=9, roll_defense=1, roll_economy=1)
>>> r.fire_factors, r.defense_losses
(3, 2)
>>> sw_round("subs", 3, 0, roll_economy=6).economy_hits
2
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import exact_json
from grognard.core.tables import Table
from grognard.third_reich.air_naval.effectiveness import effectiveness_hits
from grognard.third_reich.economy.economy import Economy, Spent, acct, spend
from grognard.third_reich.turn.calendar import SPRING_1940, Season, turn_number
from grognard.third_reich.turn.powers import Power, parse_power

BOMBER_CONVERSION_STEP = 15  # TR-81: each new multiple of 15 BRPs of bomber hits
SW_FACTOR_BRPS = 3  # TR-31


class SwKind(StrEnum):
    """The offensive SW weapon of a round."""

    SUBS = "subs"
    BOMBERS = "bombers"


#: TR-80: which SW kinds each power may buy.
SW_CATEGORIES: dict[Power, tuple[str, ...]] = {
    Power.GERMANY: ("subs", "interceptors"),
    Power.UK: ("asw", "bombers"),
    Power.US: ("asw", "bombers"),
}


def _count(v: int, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise InputError(name, f"a number of factors is a whole number >= 0, not {v!r}")
    return v


def _roll(v: int | None, name: str) -> int:
    if v is None:
        raise InputError(name, "this fire needs a 1D10 roll")
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 10:
        raise InputError(name, f"a 1D10 roll is 1..10, not {v!r}")
    return v


@dataclass(frozen=True, slots=True)
class SwRound:
    """TR-79: every number of one strategic-warfare round."""

    kind: str
    offense: int
    defense: int
    fire_factors: int
    defense_losses: int
    offense_losses: int
    surviving: int
    economy_factors: int
    economy_hits: int
    drm: int
    rolls: tuple[int | None, int | None, int | None]

    def to_json(self) -> dict[str, Any]:
        off, dfn = ("sub", "asw") if self.kind == SwKind.SUBS else ("bomber", "interceptor")
        return {
            f"{off}_losses": self.offense_losses,
            f"{dfn}_losses": self.defense_losses,
            "hits": self.economy_hits,
            "kind": self.kind,
            "offense": self.offense,
            "defense": self.defense,
            "fire_factors": self.fire_factors,
            "surviving": self.surviving,
            "economy_factors": self.economy_factors,
            "drm": self.drm,
            "rolls": list(self.rolls),
        }


def rolls_needed(offense: int, defense: int) -> int:
    """How many 1D10 rolls a round uses: 3 with defenders (exchange, then economy), else 1."""
    if offense and defense:
        return 3
    return 1 if offense else 0


def sw_round(kind: SwKind | str, offense: int, defense: int, roll_offense: int | None = None,
             roll_defense: int | None = None, roll_economy: int | None = None, drm: int = 0,
             table: Table | None = None) -> SwRound:
    """TR-79 (Strategic Warfare): one round of U-boats v ASW or bombers v interceptors.

    1. The offense fires at the defenders at half factors rounded up (0.6 rule on the hits)
       while the defenders fire back at full factors (hits round down), simultaneously.
    2. Survivors fire at the economy: subs 2x factors, bombers 1x, rounding down.

    ``drm`` (e.g. +1 in the second Happy Time) modifies the offense's rolls.
    """
    try:
        k = SwKind(kind)
    except ValueError:
        raise InputError("kind", f"{kind!r} is not subs or bombers") from None
    off = _count(offense, "offense")
    dfn = _count(defense, "defense")
    fire = math.ceil(Fraction(off, 2))
    d_loss = o_loss = 0
    r1 = r2 = None
    if off and dfn:
        r1 = _roll(roll_offense, "roll_offense")
        r2 = _roll(roll_defense, "roll_defense")
        d_loss = min(dfn, effectiveness_hits(fire, r1, drm, True, table))
        o_loss = min(off, effectiveness_hits(dfn, r2, 0, False, table))
    surviving = off - o_loss
    econ_factors = surviving * (2 if k is SwKind.SUBS else 1)
    hits = 0
    r3 = None
    if surviving:
        r3 = _roll(roll_economy, "roll_economy")
        hits = effectiveness_hits(econ_factors, r3, drm, False, table)
    return SwRound(k.value, off, dfn, fire, d_loss, o_loss, surviving, econ_factors, hits, drm,
                   (r1, r2, r3))


def sw_round_from_rolls(kind: SwKind | str, offense: int, defense: int,
                        rolls: list[int] | tuple[int, ...], drm: int = 0,
                        table: Table | None = None) -> SwRound:
    """TR-79: a round from a list of rolls in order.

    With defenders: three rolls (offense fire, defense fire, economy fire), or two rolls
    (one effectiveness roll for both sides of the exchange, then the economy fire — the
    "one round" reading of the text). Without defenders: the economy roll alone (a list of two
    uses its last roll, so ``--rolls R1,R2`` works whatever the defence).
    """
    need = rolls_needed(_count(offense, "offense"), _count(defense, "defense"))
    n = len(rolls)
    if need == 3 and n == 3:
        return sw_round(kind, offense, defense, rolls[0], rolls[1], rolls[2], drm, table)
    if need == 3 and n == 2:
        return sw_round(kind, offense, defense, rolls[0], rolls[0], rolls[1], drm, table)
    if need == 1 and n in (1, 2):
        return sw_round(kind, offense, defense, None, None, rolls[-1], drm, table)
    if need == 0 and n <= 2:
        return sw_round(kind, offense, defense, None, None, None, drm, table)
    raise InputError("rolls", f"this round needs {'2 or 3' if need == 3 else '1 or 2'} "
                     f"rolls (offense fire[, defense fire], economy fire), got {n}")


def sw_round_odds(kind: SwKind | str, offense: int, defense: int, drm: int = 0,
                  table: Table | None = None) -> dict[int, Fraction]:
    """TR-79: exact distribution of economy hits of a round (each side rolls, then the economy
    roll): the same :func:`sw_round` over all 1D10 outcomes.

    >>> sw_round_odds("subs", 3, 0)
    {0: Fraction(1, 5), 1: Fraction(3, 10), 2: Fraction(3, 10), 3: Fraction(1, 5)}
    """
    off, dfn = _count(offense, "offense"), _count(defense, "defense")
    need = rolls_needed(off, dfn)
    out: dict[int, Fraction] = {}
    rolls = range(1, 11)
    combos: list[tuple[int, ...]] = [()]
    for _ in range(need):
        combos = [(*c, r) for c in combos for r in rolls]
    weight = Fraction(1, 10 ** need)
    for c in combos:
        h = sw_round_from_rolls(kind, off, dfn, c, drm, table).economy_hits if need else 0
        out[h] = out.get(h, Fraction(0)) + weight
    return dict(sorted(out.items()))


@dataclass(frozen=True, slots=True)
class HappyTime:
    drm: int
    uk_asw_allowed: bool
    us_asw_exists: bool


def happy_time(turn: int, target: Power | str, us_entry_turn: int | None = None) -> HappyTime:
    """TR-82 (The "Happy Times"): Spring 1942 U-boat attacks on the US economy get +1 DRM, UK
    ASW may not oppose them and no US ASW exists yet; from Summer I 1942 SW is normal. With
    ``us_entry_turn`` (reading ``happy_time = us_entry``: the turn the US-Germany war began),
    that turn is the happy time instead of Spring 1942.

    >>> happy_time(13, "us"), happy_time(13, "uk").drm, happy_time(14, "us").drm
    (HappyTime(drm=1, uk_asw_allowed=False, us_asw_exists=False), 0, 0)
    >>> happy_time(11, "us", us_entry_turn=11).drm, happy_time(13, "us", us_entry_turn=11).drm
    (1, 0)
    """
    t = parse_power(str(target), "target")
    happy = turn_number(1942, Season.SPRING) if us_entry_turn is None else us_entry_turn
    if turn == happy and t is Power.US:
        return HappyTime(1, False, False)
    return HappyTime(0, True, True)


def verify_sw_target(econ: Economy, kind: SwKind | str, target: Power | str) -> Power:
    """TR-79/TR-13: U-boats hit the UK or, once belligerent, the US; bombers hit Germany;
    no SW before Spring 1940 (TR-08)."""
    k = SwKind(kind)
    t = parse_power(str(target), "target")
    if econ.turn < SPRING_1940:
        raise IllegalOrder("TR-08", "no strategic warfare before Spring 1940 (turn 3)")
    if k is SwKind.SUBS:
        if t is Power.UK or (t is Power.US and Power.US in econ.at_war_with_germany):
            return t
        raise IllegalOrder("TR-79", f"U-boats attack the UK or a belligerent US, not {t.value}")
    if t is not Power.GERMANY:
        raise IllegalOrder("TR-79", f"bombers attack Germany, not {t.value}")
    return t


@dataclass(frozen=True, slots=True)
class SwHits:
    """TR-08/TR-13/TR-81: hits recorded against a target and what they triggered."""

    target: str
    hits: int
    year_tally: Fraction
    immediate: bool
    air_conversions: int

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "hits": self.hits,
                "year_tally": exact_json(self.year_tally), "immediate": self.immediate,
                "air_conversions": self.air_conversions}


def record_sw_hits(econ: Economy, kind: SwKind | str, target: Power | str,
                   hits: int) -> tuple[Economy, SwHits]:
    """TR-08/TR-13/TR-81: record a round's economy hits.

    Before 1945 hits accumulate over the calendar year and come off the target's base at the
    next Year Start; from 1945 they come off its BRP pool at once. Each new multiple of 15
    bomber hits on Germany in a year forces a 5-4 air fleet into 5 interceptor factors now.
    """
    t = verify_sw_target(econ, kind, target)
    h = _count(hits, "hits")
    e = econ
    before = e.balance(acct(t, "sw_hits"))
    immediate = e.year >= 1945
    if h:
        e = e.post(acct(t, "sw_hits"), h, "TR-13", f"{kind} hits, turn {e.turn}")
        if immediate:
            e = e.post(acct(t, "brp"), -h, "TR-08", f"{e.year}: {kind} hits deducted at once")
        else:
            e = e.post(acct(t, "sw_base_hits"), h, "TR-13",
                       f"{kind} hits, off the base at the next Year Start")
    after = e.balance(acct(t, "sw_hits"))
    conv = 0
    if SwKind(kind) is SwKind.BOMBERS:
        conv = int(after // BOMBER_CONVERSION_STEP) - int(before // BOMBER_CONVERSION_STEP)
        if conv:
            cause = (f"bomber hits reach {exact_json(after)} this year: {conv} 5-4 air fleet(s) "
                     "become 5 interceptor factors each")
            e = e.post("germany.air_conversions", conv, "TR-81", cause)
            e = e.post("germany.air_conversions_year", conv, "TR-81", cause)
    return e, SwHits(t.value, h, after, immediate, conv)


def forced_air_conversions(year_hits: int) -> int:
    """TR-81: forced 5-4 -> interceptor conversions from a year's cumulative bomber hits.

    >>> [forced_air_conversions(h) for h in (14, 15, 31)]
    [0, 1, 2]
    """
    return _count(year_hits, "year_hits") // BOMBER_CONVERSION_STEP


def forced_fleet_conversion(year_uboat_hits: int) -> bool:
    """TR-81: 25 or more BRPs lost to U-boats in a year forces one fleet into 9 ASW factors."""
    return _count(year_uboat_hits, "year_uboat_hits") >= 25


def buy_sw_factors(econ: Economy, power: Power | str, kind: str,
                   factors: int) -> tuple[Economy, Spent]:
    """TR-80/TR-82/TR-31: buy SW factors at 3 BRPs each within the year's limit for the kind.

    No additions before the Spring 1940 start phase (TR-82).
    """
    p = parse_power(str(power))
    n = _count(factors, "factors")
    if kind not in SW_CATEGORIES.get(p, ()):
        raise IllegalOrder("TR-80", f"{p.value} cannot buy {kind} (may buy: "
                           f"{', '.join(SW_CATEGORIES.get(p, ())) or 'none'})")
    if econ.turn < SPRING_1940:
        raise IllegalOrder("TR-82", "no SW factors may be added before Spring 1940")
    limit_acct = acct(p, f"sw_limit.{kind}")
    if limit_acct not in econ.ledger.balances:
        raise IllegalOrder("TR-80", f"{p.value} has no {kind} limit yet (set at Year Start)")
    cost = n * SW_FACTOR_BRPS
    spent = econ.balance(acct(p, f"sw_spent.{kind}"))
    limit = econ.balance(limit_acct)
    if spent + cost > limit:
        raise IllegalOrder("TR-80", f"{p.value} may spend {exact_json(limit)} on {kind} this "
                           f"year; {exact_json(spent)} spent, {cost} more is too much")
    e, rec = spend(econ, p, cost, "TR-80", f"{n} {kind} factors")
    e = e.post(acct(p, f"sw_spent.{kind}"), cost, "TR-80", f"{n} {kind} factors")
    return e, rec
