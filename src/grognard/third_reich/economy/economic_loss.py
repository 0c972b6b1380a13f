"""TR-77, TR-78 ("Economic loss from conquest and air attack"): one-time BRP losses from cities
captured by enemy ground forces or bombed by tactical air.

City values: capital 10, red port 6, red victory city 5, black port 3, black city 2; a hex with
several city icons adds them (Southampton & Portsmouth 6, Manchester & Sheffield 7).

>>> city_value(["black_port", "black_port"]), city_value(["red_victory", "black_city"])
(6, 7)
>>> [city_bombing(15, r, remaining=10) for r in range(1, 11)]
[0, 0, 3, 3, 3, 6, 6, 6, 9, 9]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from grognard.core.errors import IllegalOrder, InputError, TableError
from grognard.core.exact import Exact, exact_json
from grognard.core.mapdata import CityClass
from grognard.core.tables import Table, shipped_tables
from grognard.third_reich.air_naval.effectiveness import effectiveness_hits
from grognard.third_reich.economy.economy import Economy, acct
from grognard.third_reich.turn.powers import Power, parse_power

CITY_TABLE_ID = "tr_city_values"


def city_value(classes: Iterable[CityClass | str], table: Table | None = None) -> int:
    """TR-77: BRP value of a hex: the sum of its city icons' values."""
    t = table if table is not None else shipped_tables()[CITY_TABLE_ID]
    total = 0
    items = list(classes)
    if not items:
        raise InputError("city_classes", "a city hex has at least one city icon")
    for c in items:
        key = str(c.value if isinstance(c, CityClass) else c).lower()
        if key not in t.rows:
            raise InputError("city_classes", f"{c!r} is not one of "
                             f"{', '.join(map(str, t.rows))}")
        v = t.lookup(key, "brps")
        if not isinstance(v, int):
            raise TableError("a city value is a whole number", file=t.file, table=t.id, row=key)
        total += v
    return total


def city_bombing(factors: Exact, roll: int, drm: int = 0, remaining: int | None = None,
                 table: Table | None = None) -> int:
    """TR-78 (air attack on cities): BRP hits of a city raid, capped by the city's value left
    this calendar year. One 1D10 effectiveness roll (TR-50), hits rounded down."""
    hits = effectiveness_hits(factors, roll, drm, False, table)
    if remaining is None:
        return hits
    if isinstance(remaining, bool) or not isinstance(remaining, int) or remaining < 0:
        raise InputError("city_value", f"the city's value left is a whole number >= 0, "
                         f"not {remaining!r}")
    return min(hits, remaining)


@dataclass(frozen=True, slots=True)
class CityLoss:
    """The event of a city captured or bombed: every number of it."""

    power: str
    city: str
    value: int
    loss: int
    rule: str
    brp_after: Fraction
    roll: int | None = None
    factors: Fraction | None = None

    def to_json(self) -> dict[str, Any]:
        return {"power": self.power, "city": self.city, "value": self.value, "loss": self.loss,
                "rule": self.rule, "brp_after": exact_json(self.brp_after), "roll": self.roll,
                "factors": None if self.factors is None else exact_json(self.factors)}


def capture_city(econ: Economy, power: Power | str, city: str,
                 classes: Iterable[CityClass | str]) -> tuple[Economy, CityLoss]:
    """TR-77: the power loses the city's value from its BRP pool, once, when enemy ground forces
    take it (even if retaken later). For the USSR the loss goes to its base at the next Year
    Start instead (TR-12: the city joins the Axis-held value)."""
    p = parse_power(str(power))
    v = city_value(classes)
    key = f"{p.value}:{city}"
    if p is Power.USSR:
        e = econ.post("ussr.axis_cities", v, "TR-12", f"{city} taken by the Axis")
        return e, CityLoss(p.value, city, v, 0, "TR-12", e.brp(p))
    if p not in econ.powers:
        raise InputError("power", f"{p.value} has no economy in this game")
    if key in econ.captured_cities:
        return econ, CityLoss(p.value, city, v, 0, "TR-77", econ.brp(p))
    loss = min(v, max(0, int(econ.brp(p))))
    e = econ.post(acct(p, "brp"), -loss, "TR-77", f"{city} captured (value {v})")
    e = replace(e, captured_cities=e.captured_cities | {key})
    return e, CityLoss(p.value, city, v, loss, "TR-77", e.brp(p))


def liberate_ussr_city(econ: Economy, city: str, classes: Iterable[CityClass | str]) -> Economy:
    """TR-12: a pre-war USSR city retaken leaves the Axis-held value (half comes back later)."""
    v = city_value(classes)
    if econ.balance("ussr.axis_cities") < v:
        raise IllegalOrder("TR-12", f"the Axis holds only {econ.balance('ussr.axis_cities')} "
                           f"of pre-war USSR cities; cannot liberate {v}")
    return econ.post("ussr.axis_cities", -v, "TR-12", f"{city} liberated")


def bomb_city(econ: Economy, power: Power | str, city: str, classes: Iterable[CityClass | str],
              factors: Exact, roll: int, drm: int = 0,
              table: Table | None = None) -> tuple[Economy, CityLoss]:
    """TR-78: tactical air bombs a city: each hit costs the owner 1 BRP from its pool, up to the
    city's value per calendar year (hits marked on the city, cleared each Spring)."""
    p = parse_power(str(power))
    if p is Power.USSR:
        raise IllegalOrder("TR-12", "the USSR's cities cost it base at Year Start, not bombing "
                           "losses (reading)")
    if p not in econ.powers:
        raise InputError("power", f"{p.value} has no economy in this game")
    v = city_value(classes)
    done = int(econ.balance(f"city.{city}"))
    hits = city_bombing(factors, roll, drm, max(0, v - done), table)
    loss = min(hits, max(0, int(econ.brp(p))))
    e = econ
    if hits:
        e = e.post(f"city.{city}", hits, "TR-78", f"{hits} air hits on {city}")
        e = e.post(acct(p, "brp"), -loss, "TR-78", f"{city} bombed: {hits} hits")
    return e, CityLoss(p.value, city, v, loss, "TR-78", e.brp(p), roll, Fraction(factors))
