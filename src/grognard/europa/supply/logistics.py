"""Europa revised logistics: SP costs of operations (EUR-37), FitE supply zones, rates and
stockpiles (EUR-38..EUR-40) and the weather reduction of receipt (EUR-41).

Stockpiles live in a :class:`~grognard.core.ledger.Ledger` (account per side, e.g.
``"german.sp"``); every change is an entry naming its rule and cause, in exact Fractions. Rates
come from the published tables ``europa_fite_supply_rates`` and ``europa_supply_weather``.

>>> sp_cost(Operations(mechanized_moves=2, motorized_moves=1, air_units=5,
...                    combats=(Combat(divisions=1, minor_divisions=2, artillery=True),))).total
Fraction(8, 1)
>>> stockpile_on_transition(100, 1, 2), weather_adjusted_receipt(200, "mud")
(Fraction(80, 1), Fraction(140, 1))
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from grognard.core.errors import IllegalOrder, InputError, TableError, parse_enum
from grognard.core.exact import ceil_q, exact_json, floor_q, round_half_up
from grognard.core.hexgrid import Hex, distance
from grognard.core.ledger import Ledger
from grognard.core.tables import Table, TableSet, load_tables
from grognard.europa.supply.phase import (
    DEFAULT_READINGS,
    HalfRounding,
    ReceiptRounding,
    SupplyReadings,
    count_arg,
)

SP_COST_TABLE = "europa_supply_sp_costs"
RATES_TABLE = "europa_fite_supply_rates"
WEATHER_TABLE = "europa_supply_weather"


class SupplySide(StrEnum):
    GERMAN = "german"
    SOVIET = "soviet"


def _tables(tables: TableSet | None) -> TableSet:
    return tables if tables is not None else load_tables()


# ---------------------------------------------------------------- EUR-37 SP costs


@dataclass(frozen=True)
class Combat:
    """EUR-37 one combat or overrun: in-supply attacking divisions (``minor_divisions`` are
    Axis-minor infantry/cavalry and German security divisions) and whether artillery supports
    it. Cadres, sub-divisional and OOS units are left out by the caller (they pay nothing)."""

    divisions: int = 0
    minor_divisions: int = 0
    artillery: bool = False
    overrun: bool = False


@dataclass(frozen=True)
class Operations:
    """EUR-37 one player turn's paid operations (in-supply divisions only)."""

    mechanized_moves: int = 0
    motorized_moves: int = 0
    combats: tuple[Combat, ...] = ()
    air_units: int = 0


@dataclass(frozen=True)
class SpCost:
    """EUR-37 itemised cost: ``(item, exact SP)`` lines, exact sum and the amount paid."""

    items: tuple[tuple[str, Fraction], ...]
    exact: Fraction
    total: Fraction

    def to_json(self) -> dict[str, Any]:
        return {"items": [{"item": k, "sp": exact_json(v)} for k, v in self.items],
                "exact": exact_json(self.exact), "total": exact_json(self.total)}


def _rate(t: Table, key: str) -> Fraction:
    sp, per = t.lookup(key, "sp"), t.lookup(key, "per")
    if not isinstance(sp, int) or not isinstance(per, int) or per <= 0:
        raise TableError("sp and per must be integers, per > 0", table=t.id, row=key)
    return Fraction(sp, per)


def sp_cost(ops: Operations, readings: SupplyReadings = DEFAULT_READINGS,
            tables: TableSet | None = None) -> SpCost:
    """EUR-37 (Logistics and attack supply) SP cost of a player turn's operations: 1 per
    mechanized division moving, 1/2 per motorized division moving, 1 per attacking division
    per combat or overrun (Axis-minor infantry/cavalry and German security divisions 1 per 2,
    read as ceil(n/2) per combat), 1 per artillery-supported combat, 1 per 3 air units used
    rounded to the nearest point. The motorized halves are summed exactly and the total
    rounded up under ``sp_half_rounding=up`` (default).
    """
    t = _tables(tables).get(SP_COST_TABLE)
    items: list[tuple[str, Fraction]] = []
    mech = count_arg("mechanized_moves", ops.mechanized_moves)
    mot = count_arg("motorized_moves", ops.motorized_moves)
    air = count_arg("air_units", ops.air_units)
    if mech:
        items.append((f"{mech} mechanized division(s) move",
                      mech * _rate(t, "mechanized_division_moves")))
    if mot:
        items.append((f"{mot} motorized division(s) move",
                      mot * _rate(t, "motorized_division_moves")))
    for i, c in enumerate(ops.combats, start=1):
        kind = "overrun" if c.overrun else "combat"
        d = count_arg(f"combats[{i}].divisions", c.divisions)
        md = count_arg(f"combats[{i}].minor_divisions", c.minor_divisions)
        if d:
            items.append((f"{kind} {i}: {d} division(s) attack",
                          d * _rate(t, "division_attacks")))
        if md:
            per = _rate(t, "minor_division_attacks")
            items.append((f"{kind} {i}: {md} minor division(s) attack",
                          Fraction(ceil_q(md * per))))
        if c.artillery:
            items.append((f"{kind} {i}: artillery support", _rate(t, "artillery_support")))
    if air:
        items.append((f"{air} air unit(s) used",
                      Fraction(round_half_up(air * _rate(t, "air_units_used")))))
    exact = sum((v for _, v in items), Fraction(0))
    total = exact if readings.sp_half_rounding == HalfRounding.EXACT else Fraction(ceil_q(exact))
    return SpCost(tuple(items), exact, total)


def unfuelled_mechanized_ma(ma: int) -> Fraction:
    """EUR-37 a mechanized division not supplied for movement moves 1/2 its MA in the normal
    movement phase only, and may not attack that turn.

    >>> unfuelled_mechanized_ma(9)
    Fraction(9, 2)
    """
    return Fraction(count_arg("ma", ma), 2)


def pay_operations(ledger: Ledger, account: str, cost: SpCost, cause: str = "operations"
                   ) -> Ledger:
    """EUR-37 post the cost to the stockpile; an operation that cannot be paid is not
    allowed (raises :class:`IllegalOrder` and leaves the ledger unchanged)."""
    if cost.total == 0:
        return ledger
    return ledger.post(account, -cost.total, "EUR-37", cause, allow_negative=False)


# ---------------------------------------------------------------- EUR-38 zones and stockpile


def _rates(tables: TableSet | None) -> Table:
    return _tables(tables).get(RATES_TABLE)


def _zone(z: int, name: str, t: Table) -> int:
    if isinstance(z, bool) or not isinstance(z, int) or z not in t.rows:
        raise InputError(name, f"zone must be one of {', '.join(map(str, t.rows))}, not {z!r}")
    return z


def base_rate(side: SupplySide | str, zone: int, tables: TableSet | None = None) -> int:
    """EUR-38/EUR-40 the printed receipt per turn for ``side`` in ``zone``.

    >>> base_rate("german", 1), base_rate("soviet", 2)
    (200, 160)
    """
    s = parse_enum(SupplySide, side, "side")
    t = _rates(tables)
    v = t.lookup(_zone(zone, "zone", t), s.value)
    if not isinstance(v, int):
        raise TableError("a rate must be an integer", table=t.id, row=zone, column=s.value)
    return v


def initial_stockpile(side: SupplySide | str, tables: TableSet | None = None) -> int:
    """EUR-38/EUR-40 initial stockpile: German 120, Soviet 160 (table meta)."""
    s = parse_enum(SupplySide, side, "side")
    return int(_rates(tables).meta[f"{s.value}_initial_stockpile"])


def stockpile_on_transition(stockpile: Fraction | int, z_old: int, z_new: int,
                            side: SupplySide | str = SupplySide.GERMAN,
                            tables: TableSet | None = None) -> Fraction:
    """EUR-38 on entering a new zone the unspent German stockpile shrinks in proportion,
    x new rate / old rate (-20%, -25%, -33% = x2/3); skipping a zone applies the product.
    The Soviet stockpile is never reduced (EUR-40). Zones never move back.

    >>> stockpile_on_transition(100, 2, 3), stockpile_on_transition(90, 3, 4)
    (Fraction(75, 1), Fraction(60, 1))
    """
    s = parse_enum(SupplySide, side, "side")
    t = _rates(tables)
    a, b = _zone(z_old, "z_old", t), _zone(z_new, "z_new", t)
    if b < a:
        raise IllegalOrder("EUR-38", f"the zone never moves back ({a} -> {b})")
    st = Fraction(stockpile)
    if st < 0:
        raise InputError("stockpile", "must not be negative")
    if s == SupplySide.SOVIET:
        return st
    for z in range(a, b):
        st *= Fraction(base_rate(s, z + 1, tables), base_rate(s, z, tables))
    return st


def enter_zone(ledger: Ledger, account: str, z_old: int, z_new: int,
               side: SupplySide | str = SupplySide.GERMAN,
               tables: TableSet | None = None) -> Ledger:
    """EUR-38 post the proportional stockpile reduction of a zone transition."""
    new = stockpile_on_transition(ledger.balance(account), z_old, z_new, side, tables)
    if new == ledger.balance(account):
        return ledger
    return ledger.set(account, new, "EUR-38", f"stockpile reduced entering zone {z_new} "
                      f"from zone {z_old}")


@dataclass(frozen=True)
class ZoneLine:
    """EUR-38 one named line (Odessa-Kiev-Minsk-Riga ...): its cities' hexes in order.
    Map positions are EXTERNAL (a scenario gives them)."""

    name: str
    cities: tuple[Hex, ...]


def _cross(o: Hex, a: Hex, b: Hex) -> int:
    return (a.q - o.q) * (b.r - o.r) - (a.r - o.r) * (b.q - o.q)


def _segments_cross(p1: Hex, p2: Hex, q1: Hex, q2: Hex) -> bool:
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    if d1 == d2 == d3 == d4 == 0:  # collinear: do the spans overlap?
        return (max(min(p1.q, p2.q), min(q1.q, q2.q)) <= min(max(p1.q, p2.q), max(q1.q, q2.q))
                and max(min(p1.r, p2.r), min(q1.r, q2.r))
                <= min(max(p1.r, p2.r), max(q1.r, q2.r)))
    return d1 * d2 <= 0 and d3 * d4 <= 0


def line_reached(units: Iterable[Hex], line: ZoneLine, rear: Hex, radius: int = 2) -> bool:
    """EUR-38 a line is reached when any unit is within ``radius`` (2) hexes of a named city
    or beyond the straight lines joining them. "Beyond" is read as: the straight segment from
    the side's ``rear`` reference hex to the unit crosses the city polyline (exact integer
    geometry on axial coordinates, an affine image of the map).

    >>> ln = ZoneLine("test", (Hex(5, -5), Hex(5, 5)))
    >>> line_reached([Hex(2, 0)], ln, Hex(0, 0)), line_reached([Hex(7, 0)], ln, Hex(0, 0))
    (False, True)
    """
    if len(line.cities) < 1:
        raise InputError("line.cities", f"line {line.name!r} names no city")
    for u in units:
        if any(distance(u, c) <= radius for c in line.cities):
            return True
        for a, b in zip(line.cities, line.cities[1:], strict=False):
            if _segments_cross(rear, u, a, b):
                return True
    return False


def german_zone(units: Sequence[Hex], lines: Sequence[ZoneLine], rear: Hex,
                previous: int = 1, radius: int = 2) -> int:
    """EUR-38 the zone of the German advance: 1 + the furthest of ``lines`` (in order:
    Odessa-Kiev-Minsk-Riga; Rostov-...-Leningrad; Grozny-Stalingrad-Saratov-Gorki) any German
    unit has reached; never below ``previous`` (the zone never moves back)."""
    z = 1
    for i, ln in enumerate(lines, start=2):
        if line_reached(units, ln, rear, radius):
            z = i
    return max(z, count_arg("previous", previous))


# ---------------------------------------------------------------- EUR-39 surprise allocation


class SpecialUse(StrEnum):
    """EUR-39 what the special surprise-turn SPs may pay for."""

    AIR = "air"
    FUEL = "fuel"
    ATTACK = "attack"
    OVERRUN = "overrun"
    EXPLOITATION = "exploitation"


SPECIAL_ARMY_GROUPS = frozenset({"north", "center", "south"})


def special_allocation(surprise_turn: bool, tables: TableSet | None = None) -> int:
    """EUR-39 the German special allocation: 160 SP on the surprise turn only.

    >>> special_allocation(True), special_allocation(False)
    (160, 0)
    """
    return int(_rates(tables).meta["german_surprise_turn_allocation"]) if surprise_turn else 0


def verify_special_use(use: SpecialUse | str, army_group: str | None = None) -> None:
    """EUR-39 the 160 special SPs pay only for air, fuel and attacks by units of Army Groups
    North, Center and South; no overruns, no exploitation phase."""
    u = parse_enum(SpecialUse, use, "use")
    if u in (SpecialUse.OVERRUN, SpecialUse.EXPLOITATION):
        raise IllegalOrder("EUR-39", f"no {u.value} on the surprise turn")
    if u in (SpecialUse.ATTACK, SpecialUse.FUEL):
        ag = (army_group or "").strip().lower()
        if ag not in SPECIAL_ARMY_GROUPS:
            raise IllegalOrder("EUR-39", "special SPs pay only for units of AG North, Center "
                               f"and South, not {army_group!r}")


def can_special_use(use: SpecialUse | str, army_group: str | None = None) -> bool:
    try:
        verify_special_use(use, army_group)
    except IllegalOrder:
        return False
    return True


def grant_special(ledger: Ledger, account: str = "german.special_sp",
                  tables: TableSet | None = None) -> Ledger:
    """EUR-39 post the 160 special SPs (use them or lose them)."""
    return ledger.post(account, special_allocation(True, tables), "EUR-39",
                       "surprise-turn special allocation")


def expire_special(ledger: Ledger, account: str = "german.special_sp") -> Ledger:
    """EUR-39 unused special SPs are lost at the end of the surprise turn."""
    left = ledger.balance(account)
    if left == 0:
        return ledger
    return ledger.post(account, -left, "EUR-39", "unused special SPs lost")


# ---------------------------------------------------------------- EUR-40 / EUR-41 receipt


def _month(date: dt.date | str) -> str:
    if isinstance(date, dt.date):
        return f"{date.year:04d}-{date.month:02d}"
    try:
        d = dt.date.fromisoformat(date + "-01" if len(date) == 7 else date)
    except (TypeError, ValueError):
        raise InputError("date", f"expected YYYY-MM or YYYY-MM-DD, not {date!r}") from None
    if not 1936 <= d.year <= 1946:
        raise InputError("date", f"a Europa game date is 1936..1946, not {date!r}")
    return f"{d.year:04d}-{d.month:02d}"


def soviet_increase(date: dt.date | str, tables: TableSet | None = None) -> int:
    """EUR-40 Soviet lend-lease increments: +40 from May 1942, another +40 from July 1943.

    >>> soviet_increase("1942-04"), soviet_increase("1942-05"), soviet_increase("1943-07")
    (0, 40, 80)
    """
    m = _month(date)
    return sum(int(v) for start, v in _rates(tables).meta["soviet_increase_from"]
               if m >= str(start))


def soviet_receipt(zone: int, date: dt.date | str, tables: TableSet | None = None) -> int:
    """EUR-40 Soviet receipt before weather: zone rate 120/160/120/80 plus the increments.

    >>> soviet_receipt(2, "1941-07"), soviet_receipt(4, "1943-08")
    (160, 160)
    """
    return base_rate(SupplySide.SOVIET, zone, tables) + soviet_increase(date, tables)


def weather_reduction(weather: str, tables: TableSet | None = None) -> Fraction:
    """EUR-41 fraction of the receipt lost: clear 0, frost 1/10, snow 1/5, mud 3/10."""
    t = _tables(tables).get(WEATHER_TABLE)
    key = str(weather).strip().lower()
    if key not in t.rows:
        raise InputError("weather", f"must be one of {', '.join(map(str, t.rows))}, "
                         f"not {weather!r}")
    v = t.lookup(key, "reduction_percent")
    if not isinstance(v, int):
        raise TableError("a percentage must be an integer", table=t.id, row=key)
    return Fraction(v, 100)


def weather_adjusted_receipt(receipt: Fraction | int, weather: str,
                             readings: SupplyReadings = DEFAULT_READINGS,
                             tables: TableSet | None = None) -> Fraction:
    """EUR-41 (Weather and supply rates) receipt x (1 - reduction), rounded by
    ``supply_weather_rounding`` (default floor).

    >>> [weather_adjusted_receipt(200, w) for w in ("frost", "snow", "mud")]
    [Fraction(180, 1), Fraction(160, 1), Fraction(140, 1)]
    """
    r = Fraction(receipt)
    if r < 0:
        raise InputError("receipt", "must not be negative")
    v = r * (1 - weather_reduction(weather, tables))
    if readings.supply_weather_rounding == ReceiptRounding.FLOOR:
        return Fraction(floor_q(v))
    if readings.supply_weather_rounding == ReceiptRounding.HALF_UP:
        return Fraction(round_half_up(v))
    return v


@dataclass(frozen=True)
class Receipt:
    """EUR-38/40/41 one side's receipt for a turn, with every figure."""

    side: str
    zone: int
    base: int
    increment: int
    weather: str
    reduction: Fraction
    received: Fraction
    items: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "zone": self.zone, "base": self.base,
                "increment": self.increment, "weather": self.weather,
                "reduction": exact_json(self.reduction), "received": exact_json(self.received)}


def turn_receipt(side: SupplySide | str, zone: int, date: dt.date | str, weather: str,
                 readings: SupplyReadings = DEFAULT_READINGS,
                 tables: TableSet | None = None) -> Receipt:
    """EUR-38/EUR-40/EUR-41 a side's receipt in the initial phase: the zone rate (plus the
    Soviet increments, which the weather reduces too), less the weather reduction. The
    weather is that of the zone holding most of the side's front (``supply_weather_zone``);
    the caller passes it.

    >>> turn_receipt("soviet", 1, "1942-05", "mud").received
    Fraction(112, 1)
    """
    s = parse_enum(SupplySide, side, "side")
    _month(date)  # checked for every side, not only where the Soviet increments read it
    base = base_rate(s, zone, tables)
    inc = soviet_increase(date, tables) if s == SupplySide.SOVIET else 0
    got = weather_adjusted_receipt(base + inc, weather, readings, tables)
    return Receipt(s.value, zone, base, inc, str(weather).lower(),
                   weather_reduction(weather, tables), got)


def receive(ledger: Ledger, account: str, receipt: Receipt) -> Ledger:
    """EUR-38/EUR-40/EUR-41 post a turn's receipt to the stockpile."""
    rule = "EUR-38" if receipt.side == SupplySide.GERMAN else "EUR-40"
    if receipt.reduction:
        rule += "/EUR-41"
    return ledger.post(account, receipt.received, rule,
                       f"receipt zone {receipt.zone}, {receipt.weather}")


def open_stockpile(side: SupplySide | str, account: str | None = None,
                   tables: TableSet | None = None) -> Ledger:
    """EUR-38/EUR-40 a new ledger holding the side's initial stockpile."""
    s = parse_enum(SupplySide, side, "side")
    rule = "EUR-38" if s == SupplySide.GERMAN else "EUR-40"
    return Ledger().post(account or f"{s.value}.sp", initial_stockpile(s, tables), rule,
                         "initial stockpile")


__all__ = [
    "Combat", "Operations", "Receipt", "SpCost", "SpecialUse", "SupplySide", "ZoneLine",
    "base_rate", "can_special_use", "enter_zone", "expire_special", "german_zone",
    "grant_special", "initial_stockpile", "line_reached", "open_stockpile", "pay_operations",
    "receive", "soviet_increase", "soviet_receipt", "sp_cost", "special_allocation",
    "stockpile_on_transition", "turn_receipt", "unfuelled_mechanized_ma", "verify_special_use",
    "weather_adjusted_receipt", "weather_reduction",
]
