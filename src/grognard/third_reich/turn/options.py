"""TR-03, TR-25, TR-31 ("Front options"; "Updated BRP costs"): options, declarations of war, prices.

Prices come from the printed list ``tr_price_list.toml`` (pass another table with the same
id to change them).

>>> option_cost("southern", "offensive", 1941), option_cost("southern", "offensive", 1942)
(5, 10)
>>> option_cost("eastern", "attrition", 1943), dow_cost(minors=3), dow_cost(majors=1)
(5, 5, 15)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

import msgspec

from grognard.core.errors import IllegalOrder, InputError, TableError, member, parse_enum
from grognard.core.readings import Readings
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
        return member(Option, value)
    except ValueError:
        raise InputError("option", f"{value!r} is not offensive, attrition or pass") from None


def parse_front(value: Front | str) -> Front:
    try:
        return member(Front, value)
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


# --- each power its own option (TR-03, TR-22; issue 23 item 3) ------------------------------


class MinorOption(StrEnum):
    """``minor_option``: the option a minor ally's units act under on a front (TR-22 "the units
    of a minor power activate at the same time as their controlling nation, but may perform
    all operations of any option, without BRP payment"); the text is silent on a minor between
    two allies (Poland beside the UK and France) and on a minor fighting alone."""

    PATRON = "patron"  # its patron's option on that front (default); alone: pass
    WIDEST = "widest"  # the widest option any major of its side declared on that front


class JointAttack(StrEnum):
    """``joint_attack``: a front shared by two powers of one side (Germany and Italy on the
    southern front; the UK and France on the western); an attack or attrition by units of
    both: the text gives each power its own option and is silent on mixed combats."""

    EVERY_POWER = "every_power"  # every taking part acts under its own option (default)
    ANY_POWER = "any_power"      # one power's option carries its partners' units


@dataclass(frozen=True)
class OptionReadings(Readings):
    """Switches of the per-power option rules, with the defaults a veteran expects (docs/
    FEATURES.md TR-03)."""

    minor_option: MinorOption = MinorOption.PATRON
    joint_attack: JointAttack = JointAttack.EVERY_POWER


DEFAULT_OPTION_READINGS = OptionReadings()
OPTION_WIDTH = {Option.PASS: 0, Option.ATTRITION: 1, Option.OFFENSIVE: 2}


class OptionRefusal(msgspec.Struct, frozen=True):
    rule: str
    reason: str

    def raise_(self) -> None:
        raise IllegalOrder(self.rule, self.reason)


Declared = Mapping[str, Mapping[str, str]]  # power -> {front: option} (what each major paid)


def declared_option(declared: Declared, power: str, front: Front | str) -> Option:
    """TR-03: the option ``power`` declared and paid for ``front`` this turn (pass when it
    declared none: a pass costs nothing)."""
    f = parse_front(front)
    return parse_option(declared.get(power, {}).get(f.value, Option.PASS.value))


def acting_option(declared: Declared, actor: str, front: Front | str,
                  patron_of: Mapping[str, str], side_majors: Iterable[str] = (),
                  readings: OptionReadings = DEFAULT_OPTION_READINGS) -> Option:
    """TR-03/TR-22: the option ``actor``'s units act under on ``front``: a major's own; a minor
    ally's its patron's, without payment (``minor_option``: or the widest of ``side_majors``);
    a minor with no patron: pass.

    >>> d = {"uk": {"western": "pass"}, "france": {"western": "offensive"}}
    >>> acting_option(d, "france", "western", {}), acting_option(d, "uk", "western", {})
    (<Option.OFFENSIVE: 'offensive'>, <Option.PASS: 'pass'>)
    >>> acting_option(d, "poland", "western", {"poland": "uk"})
    <Option.PASS: 'pass'>
    >>> acting_option(d, "poland", "western", {"poland": "uk"}, ["uk", "france"],
    ...               OptionReadings(minor_option=MinorOption.WIDEST))
    <Option.OFFENSIVE: 'offensive'>
    """
    if _is_major(actor):
        return declared_option(declared, actor, front)
    patron = patron_of.get(actor)
    if patron is None:
        return Option.PASS
    if readings.minor_option is MinorOption.WIDEST:
        majors = list(side_majors) or [patron]
        return max((declared_option(declared, m, front) for m in majors),
                   key=OPTION_WIDTH.__getitem__)
    return declared_option(declared, patron, front)


def _is_major(name: str) -> bool:
    return name in {"germany", "italy", "ussr", "uk", "france", "us"}


def may_attack(declared: Declared, actors: Iterable[str], front: Front | str,
               patron_of: Mapping[str, str], side_majors: Iterable[str] = (),
               readings: OptionReadings = DEFAULT_OPTION_READINGS) -> OptionRefusal | None:
    """TR-03 ("An offensive option ... allows all phases, air and naval missions, mechanized
    movement and combat phases"): None when the units of ``actors`` (the powers and minors
    whose units attack, support or fly the mission) may attack on ``front``; else the refusal
    naming the power whose option does not allow it. Each power attacks only under its own
    offensive; a minor under its patron's (``minor_option``); a mixed attack needs every
    power's offensive (``joint_attack``: or any one's)."""
    return _under(declared, actors, front, patron_of, side_majors, readings, Option.OFFENSIVE,
                  "attack")


def may_take_part_in_attrition(declared: Declared, actors: Iterable[str], front: Front | str,
                               patron_of: Mapping[str, str], side_majors: Iterable[str] = (),
                               readings: OptionReadings = DEFAULT_OPTION_READINGS
                               ) -> OptionRefusal | None:
    """TR-03/TR-38 ("An attrition options costs 5 BRPs and allows the attrition phase in place
    of the combat phase"): None when ``actors``' units may count in ``front``'s attrition; a
    power takes part only under its own attrition option, a minor under its patron's (TR-22:
    "they must do so in conjunction with all other friendly forces")."""
    return _under(declared, actors, front, patron_of, side_majors, readings, Option.ATTRITION,
                  "take part in attrition")


def _under(declared: Declared, actors: Iterable[str], front: Front | str,
           patron_of: Mapping[str, str], side_majors: Iterable[str],
           readings: OptionReadings, need: Option, what: str) -> OptionRefusal | None:
    f = parse_front(front)
    acts = sorted(set(actors))
    if not acts:
        raise InputError("actors", "name the powers whose units act")
    opts = {a: acting_option(declared, a, f, patron_of, side_majors, readings) for a in acts}
    ok = [a for a in acts if opts[a] is need]
    if readings.joint_attack is JointAttack.ANY_POWER and ok:
        return None
    bad = [a for a in acts if opts[a] is not need]
    if not bad:
        return None
    a = bad[0]
    under = f" (under {patron_of[a]}'s option)" if a in patron_of and not _is_major(a) else ""
    return OptionRefusal("TR-03", f"{a} may not {what} on the {f.value} front: its option "
                                  f"there is {opts[a].value}{under}, not {need.value}")


def option_payer(actor: str, patron_of: Mapping[str, str]) -> str | None:
    """TR-03/TR-22: who pays for the option ``actor`` acts under: a major itself; a minor ally
    nobody ("without BRP payment")."""
    return actor if _is_major(actor) else None
