"""Europa revised replacement phase (EUR-33) and the revised FitE Soviet replacement rates
(EUR-42).

The replacement phase follows the supply phase at the end of the player turn. Replacement
pools live in a :class:`~grognard.core.ledger.Ledger` (one account per nation and type, e.g.
``"german.armor"``), so every RE spent is an entry naming its rule.

>>> c = Candidate("pz7", "armor", status="cadre_on_map")
>>> [(o.action.value, o.cost) for o in replacement_options(c)]
[('rebuild', Fraction(2, 1))]
>>> soviet_rps(["moskva", "kiev"], working_factories=3)
SovietRps(infantry=10, armor_or_artillery=6)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from grognard.core.errors import IllegalOrder, InputError, TableError, parse_enum
from grognard.core.exact import exact_json
from grognard.core.ledger import Ledger
from grognard.core.tables import Table, TableSet, load_tables
from grognard.europa.supply.phase import (
    DEFAULT_READINGS,
    SingleStepReturn,
    SupplyReadings,
    count_arg,
)

SOVIET_RP_TABLE = "europa_fite_soviet_replacements"
CADRE_RETURN_RE = 1
CADRE_REBUILD_RE = 2


class UnitStatus(StrEnum):
    """EUR-33 where a unit stands for the replacement phase."""

    CADRE_ON_MAP = "cadre_on_map"
    CADRE_DESTROYED = "cadre_destroyed"  # a divisional unit's cadre in the destroyed pile
    SINGLE_STEP_DESTROYED = "single_step_destroyed"
    FULL_ON_MAP = "full_on_map"


class ReplacementAction(StrEnum):
    RETURN_CADRE = "return_cadre"  # 1 RE, placed like a reinforcement
    RETURN_SINGLE_STEP = "return_single_step"
    REBUILD = "rebuild"  # cadre on the map to full strength, 2 REs


REPLACEMENT_POOLS = ("infantry", "armor", "artillery")


@dataclass(frozen=True)
class Candidate:
    """EUR-33 a unit that might take replacements, and what it did this player turn."""

    id: str
    pool: str  # replacement type: "infantry", "armor", "artillery"
    status: UnitStatus | str = UnitStatus.CADRE_ON_MAP
    in_supply: bool = True
    attacked: bool = False  # took part in an attack in this player turn's combat phase
    exploited: bool = False  # moved in the exploitation phase
    returned_this_turn: bool = False
    re_size: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        if not self.id:
            raise InputError("candidate.id", "a unit needs an id")
        object.__setattr__(self, "status",
                           parse_enum(UnitStatus, self.status, f"{self.id}.status"))
        if self.pool not in REPLACEMENT_POOLS:
            raise InputError(f"{self.id}.pool", f"{self.pool!r} is not one of "
                             f"{', '.join(REPLACEMENT_POOLS)}")
        if Fraction(self.re_size) < 0:
            raise InputError(f"{self.id}.re_size", "must not be negative")
        object.__setattr__(self, "re_size", Fraction(self.re_size))


@dataclass(frozen=True)
class Option:
    """EUR-33 one allowed replacement action and its RE cost."""

    action: ReplacementAction
    cost: Fraction
    pool: str

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.value, "cost": exact_json(self.cost), "pool": self.pool}


def why_not(c: Candidate) -> str | None:
    """EUR-33 the reason a unit on the map may take no replacements, or None."""
    if c.status in (UnitStatus.CADRE_DESTROYED, UnitStatus.SINGLE_STEP_DESTROYED):
        return None  # from the destroyed pile: placed as a reinforcement
    if c.status == UnitStatus.FULL_ON_MAP:
        return "already at full strength"
    if not c.in_supply:
        return "must be in supply"
    if c.attacked:
        return "attacked in this player turn's combat phase"
    if c.exploited:
        return "moved in the exploitation phase"
    if c.returned_this_turn:
        return "a cadre brought back this turn cannot also be rebuilt this turn"
    return None


def replacement_options(c: Candidate, readings: SupplyReadings = DEFAULT_READINGS
                        ) -> list[Option]:
    """EUR-33 (Replacement phase) what ``c`` may take: a destroyed cadre returns for 1 RE,
    a destroyed single-step unit "in the same manner" (``single_step_return_cost``: 1, or
    its RE size), a cadre on the map is rebuilt for 2 REs if it is in supply, did not attack
    this player turn, did not move in the exploitation phase and was not brought back this
    turn (it may be in enemy ZOC and may have moved or overrun in the movement phase)."""
    if why_not(c) is not None:
        return []
    if c.status == UnitStatus.CADRE_DESTROYED:
        return [Option(ReplacementAction.RETURN_CADRE, Fraction(CADRE_RETURN_RE), c.pool)]
    if c.status == UnitStatus.SINGLE_STEP_DESTROYED:
        cost = (Fraction(CADRE_RETURN_RE)
                if readings.single_step_return_cost == SingleStepReturn.ONE else c.re_size)
        return [Option(ReplacementAction.RETURN_SINGLE_STEP, cost, c.pool)]
    return [Option(ReplacementAction.REBUILD, Fraction(CADRE_REBUILD_RE), c.pool)]


@dataclass(frozen=True)
class ReplacementTaken:
    """EUR-33 record of one replacement action."""

    unit: str
    action: ReplacementAction
    account: str
    cost: Fraction
    balance: Fraction

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "action": self.action.value, "account": self.account,
                "cost": exact_json(self.cost), "balance": exact_json(self.balance)}


def verify_take_replacement(ledger: Ledger, account: str, c: Candidate,
                            action: ReplacementAction | str,
                            readings: SupplyReadings = DEFAULT_READINGS) -> Option:
    """EUR-33 raise :class:`IllegalOrder` unless ``c`` may take ``action`` and the pool can
    pay; returns the option."""
    a = parse_enum(ReplacementAction, action, "action")
    reason = why_not(c)
    if reason is not None:
        raise IllegalOrder("EUR-33", f"{c.id}: {reason}")
    opt = next((o for o in replacement_options(c, readings) if o.action == a), None)
    if opt is None:
        raise IllegalOrder("EUR-33", f"{c.id} ({c.status}) cannot {a.value}")
    if ledger.balance(account) < opt.cost:
        raise IllegalOrder("EUR-33", f"{account} has {exact_json(ledger.balance(account))} "
                           f"REs, {a.value} costs {exact_json(opt.cost)}")
    return opt


def can_take_replacement(ledger: Ledger, account: str, c: Candidate,
                         action: ReplacementAction | str,
                         readings: SupplyReadings = DEFAULT_READINGS) -> bool:
    try:
        verify_take_replacement(ledger, account, c, action, readings)
    except IllegalOrder:
        return False
    return True


def take_replacement(ledger: Ledger, account: str, c: Candidate,
                     action: ReplacementAction | str,
                     readings: SupplyReadings = DEFAULT_READINGS
                     ) -> tuple[Ledger, ReplacementTaken]:
    """EUR-33 spend the REs for one action (pure: a new ledger and the record)."""
    opt = verify_take_replacement(ledger, account, c, action, readings)
    new = ledger.post(account, -opt.cost, "EUR-33", f"{c.id}: {opt.action.value}",
                      allow_negative=False)
    return new, ReplacementTaken(c.id, opt.action, account, opt.cost, new.balance(account))


# ---------------------------------------------------------------- EUR-42 Soviet RPs


def raised_rate(original: int) -> int:
    """EUR-42 every odd original rate goes up to the next even number (1->2, 3->4, 5->6).

    >>> [raised_rate(n) for n in (1, 2, 3, 5)]
    [2, 2, 4, 6]
    """
    return count_arg("original", original) + original % 2


def soviet_rp_table(tables: TableSet | None = None) -> Table:
    return (tables if tables is not None else load_tables()).get(SOVIET_RP_TABLE)


def location_rp(location: str, table: Table | None = None) -> int:
    """EUR-42 infantry RPs per turn of one location (table ``europa_fite_soviet_replacements``)."""
    t = table if table is not None else soviet_rp_table()
    key = location.strip().lower()
    if key not in t.rows:
        raise InputError("location", f"{location!r} is not a Soviet replacement location "
                         f"({', '.join(map(str, t.rows))})")
    v = t.lookup(key, "infantry_rp")
    if not isinstance(v, int):
        raise TableError("an RP rate must be an integer", table=t.id, row=key)
    return v


@dataclass(frozen=True)
class SovietRps:
    """EUR-42 RPs per turn: infantry from locations, armor or artillery from factories."""

    infantry: int
    armor_or_artillery: int
    by_location: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def total(self) -> int:
        return self.infantry + self.armor_or_artillery

    def to_json(self) -> dict[str, Any]:
        return {"infantry": self.infantry, "armor_or_artillery": self.armor_or_artillery,
                "total": self.total, "by_location": dict(self.by_location)}


def soviet_rps(controlled: Iterable[str], working_factories: int,
               table: Table | None = None) -> SovietRps:
    """EUR-42 (Adjustments to Russian replacement rates) Soviet RPs per turn: the listed
    locations the Soviets hold (2: Arkhangelsk, Riga, Stalino, Stalingrad, Kazan and Minsk;
    4: Kiev, Leningrad, Eastern MDs; 6: Moskva) plus 2 per operating factory (the factory
    list is EXTERNAL: pass the count). Replacements start on August I."""
    t = table if table is not None else soviet_rp_table()
    count_arg("working_factories", working_factories)
    most = implied_factories(t)
    if working_factories > most:
        raise InputError("working_factories", f"at most {most} factories (the rules' stated "
                         f"maximum of {t.meta['stated_maximum_per_turn']} RPs a turn), not "
                         f"{working_factories}")
    seen: dict[str, int] = {}
    for loc in controlled:
        key = loc.strip().lower()
        if key in seen:
            raise InputError("controlled", f"{loc!r} listed twice")
        seen[key] = location_rp(key, t)
    factory = int(t.meta.get("factory_rp", 2))
    return SovietRps(sum(seen.values()), factory * working_factories, seen)


def implied_factories(table: Table | None = None) -> Fraction:
    """EUR-42 the factory count the stated 60-per-turn maximum implies: (60 - all locations)
    / 2 = 15 (RULES.md reading; the factory list is EXTERNAL)."""
    t = table if table is not None else soviet_rp_table()
    inf = sum(location_rp(str(k), t) for k in t.rows)
    return Fraction(int(t.meta["stated_maximum_per_turn"]) - inf, int(t.meta["factory_rp"]))


__all__ = [
    "CADRE_REBUILD_RE", "CADRE_RETURN_RE", "Candidate", "Option", "ReplacementAction",
    "ReplacementTaken", "SovietRps", "UnitStatus", "can_take_replacement", "implied_factories",
    "location_rp", "raised_rate", "replacement_options", "soviet_rp_table", "soviet_rps",
    "take_replacement", "verify_take_replacement", "why_not",
]
