"""TR-03, TR-25, TR-31 ("Front options"; "Updated BRP costs"): options, declarations of war, prices.

Prices come from the printed list ``tr_price_list.toml`` (pass another table with the same
id to change them).

>>> option_cost("southern", "offensive", 1941), option_cost("southern", "offensive", 1942)
(5, 10)
>>> option_cost("eastern", "attrition", 1943), dow_cost(minors=3), dow_cost(majors=1)
(5, 5, 15)
"""

from __future__ import annotations

from enum import StrEnum

from grognard.core.errors import InputError, TableError, parse_enum
from grognard.core.tables import Table, shipped_tables

PRICE_TABLE_ID = "tr_price_list"


class Front(StrEnum):
    """TR-03: the fronts a power picks an option for (read per front, not per weather region)."""

    WESTERN = "western"
    EASTERN = "eastern"
    SOUTHERN = "southern"  # the Mediterranean


class Option(StrEnum):
    OFFENSIVE = "offensive"
    ATTRITION = "attrition"
    PASS = "pass"


def parse_option(value: Option | str) -> Option:
    try:
        return Option(value)
    except ValueError:
        raise InputError("option", f"{value!r} is not offensive, attrition or pass") from None


def parse_front(value: Front | str) -> Front:
    try:
        return Front(value)
    except ValueError:
        raise InputError("front", f"{value!r} is not western, eastern or southern") from None


def price_table() -> Table:
    return shipped_tables()[PRICE_TABLE_ID]


def price(item: str, table: Table | None = None) -> int:
    """TR-31 (Updated BRP costs): the BRP price of one ``item`` of the price list.

    >>> price("sw_factor"), price("infantry_factor"), price("airbase"), price("iran_route")
    (3, 1, 2, 15)
    """
    t = table if table is not None else price_table()
    if item not in t.rows:
        raise InputError("item", f"no price for {item!r} (items: {', '.join(map(str, t.rows))})")
    v = t.lookup(item, "brps")
    if not isinstance(v, int) or v < 0:
        raise TableError("a price is a whole number of BRPs", file=t.file, table=t.id, row=item)
    return v


def option_cost(front: Front | str, option: Option | str, year: int,
                table: Table | None = None) -> int:
    """TR-03 (Front options): BRPs for one front's option in a season.

    Offensive 10 (5 on the southern/Mediterranean front through 1941), attrition 5, pass 0.
    """
    f, o = parse_front(front), parse_option(option)
    if o is Option.OFFENSIVE:
        t = table if table is not None else price_table()
        last = int(t.meta.get("mediterranean_discount_last_year", 1941))
        if f is Front.SOUTHERN and year <= last:
            return price("offensive_mediterranean_to_1941", t)
        return price("offensive", t)
    return price(o.value, table)


def dow_cost(minors: int = 0, majors: int = 0, minor_dow_paid_this_season: bool = False,
             table: Table | None = None) -> int:
    """TR-25 (Declarations of war): 5 BRPs covers any number of minors in one season; 15 per major.

    A declaration on a major power brings war with all its allies at no extra cost.
    """
    for name, n in (("minors", minors), ("majors", majors)):
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InputError(name, f"a count of countries is a whole number >= 0, not {n!r}")
    minor = price("dow_minor", table) if minors and not minor_dow_paid_this_season else 0
    return minor + majors * price("dow_major", table)


def options_cost(options: dict[Front, Option] | dict[str, str], year: int,
                 table: Table | None = None) -> int:
    """TR-03: total BRPs of one power's options for a game turn."""
    return sum(option_cost(f, o, year, table) for f, o in options.items())


class UnitKind(StrEnum):
    """TR-31: what a factor is bought as."""

    INFANTRY = "infantry"
    ARMOR = "armor"
    REPLACEMENT = "replacement"
    AIR = "air"
    AIRBORNE = "airborne"
    NAVAL = "naval"
    SW = "sw"  # submarines, ASW, bombers, interceptors


def unit_cost(kind: UnitKind | str, factors: int, table: Table | None = None) -> int:
    """TR-31 (Updated BRP costs): the build cost of a unit of ``factors`` factors.

    >>> unit_cost("armor", 5), unit_cost("air", 5), unit_cost("naval", 9), unit_cost("infantry", 3)
    (10, 15, 27, 3)
    """
    k = parse_enum(UnitKind, kind, "kind")
    if isinstance(factors, bool) or not isinstance(factors, int) or factors < 0:
        raise InputError("factors", f"factors are a whole number >= 0, not {factors!r}")
    item = "sw_factor" if k is UnitKind.SW else f"{k.value}_factor"
    return factors * price(item, table)
