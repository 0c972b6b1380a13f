"""TR-38..TR-42 ("Attrition"; "New attrition table"): the 3R attrition option.

The phasing player counts his land combat factors in contact with enemy units; with fewer
than 5 the step is skipped, otherwise one 2D6 roll on the attrition table column for that
count. Results: AN (attacker removes N units), XN (both remove N), DN (defender removes N),
HN (attacker wins N hexes), alone or combined (``X4H1``, ``D5H3``).

The table is the reconstruction ``tr_new3r_attrition`` (RULES.md §3b): it reproduces the
text's expected-value table exactly in 36ths. The seven columns' factor bounds are not
published: ``tr_attrition_column_bounds`` defaults to TABLES.md's 20-factor bands.

>>> attrition_column(56)
'col3'
>>> resolve_attrition(56, 12).result
AttritionResult(code='D5H3', attacker_units=0, defender_units=5, hexes=3)
>>> resolve_attrition(4, 12).column is None
True
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grognard.core.dice import Distribution
from grognard.core.errors import IllegalOrder, InputError, TableError
from grognard.core.tables import Table, TableSet, load_tables
from grognard.third_reich.turn.combat_readings import TRCombatReadings
from grognard.third_reich.turn.forces import GroundKind, GroundUnit

DEFAULT_READINGS = TRCombatReadings()
MIN_CONTACT_FACTORS = 5
ROLL_MIN = 2
ROLL_MAX = 12

# TR-42 (New attrition table): the published expected values, columns 1..7, as printed.
PUBLISHED_EXPECTATIONS: dict[str, tuple[str, ...]] = {
    "def": ("0.67", "1.50", "2.75", "4.00", "5.75", "7.16", "8.67"),
    "att": ("0.33", "0.75", "1.33", "1.92", "2.75", "3.50", "4.25"),
    "diff": ("0.33", "0.75", "1.42", "2.17", "3.00", "3.67", "4.42"),
    "hex": ("0.08", "0.50", "1.33", "2.00", "2.50", "3.33", "4.00"),
}

# TR-41: attrition losses each power may save with replacement units per player turn.
REPLACEMENT_LIMITS: dict[str, int] = {
    "germany": 5, "us": 5, "uk": 4, "italy": 3, "france": 3, "ussr": 0,
}
SAVE_FREE_COST = 4


def attrition_table(tables: TableSet | None = None,
                    readings: TRCombatReadings = DEFAULT_READINGS) -> Table:
    """The attrition table in force (shipped reconstruction unless replaced)."""
    ts = tables if tables is not None else load_tables()
    return ts.get(readings.tr_attrition_table)


def contact_factors(units: Sequence[GroundUnit], adjacent: Sequence[bool]) -> int:
    """TR-38: land combat factors of the attacker's units adjacent to enemy units.

    Replacement units have no attack factor and are not counted.
    """
    if len(units) != len(adjacent):
        raise InputError("adjacent", "one adjacency flag per unit is needed")
    return sum(u.factors for u, adj in zip(units, adjacent, strict=True)
               if adj and u.kind is not GroundKind.REPLACEMENT)


def attrition_column(
    factors: int,
    table: Table | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
) -> str | None:
    """TR-38: the attrition column for ``factors`` in contact; ``None`` below 5 (step skipped).

    ``tr_attrition_column_bounds`` lists the lowest factor count of each column (default
    5, 25, 45, 65, 85, 105, 125: TABLES.md's 20-factor bands).

    >>> attrition_column(5), attrition_column(24), attrition_column(25), attrition_column(500)
    ('col1', 'col1', 'col2', 'col7')
    """
    if isinstance(factors, bool) or not isinstance(factors, int) or factors < 0:
        raise InputError("factors", f"factors in contact must be a non-negative integer, "
                         f"not {factors!r}")
    t = table if table is not None else attrition_table(readings=readings)
    bounds = readings.tr_attrition_column_bounds
    if len(bounds) != len(t.columns):
        raise InputError("readings.tr_attrition_column_bounds",
                         f"needs {len(t.columns)} lower bounds, one per column, not {len(bounds)}")
    if list(bounds) != sorted(set(bounds)) or bounds[0] < MIN_CONTACT_FACTORS:
        raise InputError("readings.tr_attrition_column_bounds",
                         f"must rise strictly from at least {MIN_CONTACT_FACTORS}")
    if factors < MIN_CONTACT_FACTORS or factors < bounds[0]:
        return None
    index = max(i for i, b in enumerate(bounds) if b <= factors)
    return t.columns[index]


@dataclass(frozen=True, slots=True)
class AttritionResult:
    """TR-39/TR-40: one attrition cell (units removed by each side, hexes won)."""

    code: str
    attacker_units: int
    defender_units: int
    hexes: int


_ATTR_CODE = re.compile(r"^(?:(?P<kind>[AXD])(?P<n>\d+))?(?:H(?P<h>\d+))?$")


def parse_attrition_result(code: Any) -> AttritionResult:
    """TR-39: read an attrition cell (``A3``, ``X4H1``, ``D5H3``, ``H2``, ``–``).

    >>> parse_attrition_result("X4H1")
    AttritionResult(code='X4H1', attacker_units=4, defender_units=4, hexes=1)
    """
    text = str(code).strip()
    if text in ("-", "–", ""):
        return AttritionResult("–", 0, 0, 0)
    m = _ATTR_CODE.match(text)
    if not m:
        raise TableError(f"unknown attrition result {text!r}")
    n = int(m.group("n") or 0)
    kind = m.group("kind")
    att = n if kind in ("A", "X") else 0
    dfn = n if kind in ("D", "X") else 0
    return AttritionResult(text, att, dfn, int(m.group("h") or 0))


@dataclass(frozen=True, slots=True)
class AttritionOutcome:
    """The record of one attrition step."""

    factors: int
    column: str | None
    roll: int | None
    result: AttritionResult

    def to_json(self) -> dict[str, Any]:
        return {"column": self.column, "roll": self.roll, "result": self.result.code,
                "attacker_units": self.result.attacker_units,
                "defender_units": self.result.defender_units, "hexes": self.result.hexes}


def attrition_result(column: str, roll: int, table: Table | None = None) -> AttritionResult:
    """TR-38: the attrition result of a natural 2D6 roll in ``column`` (no DRMs exist)."""
    if isinstance(roll, bool) or not isinstance(roll, int) or not ROLL_MIN <= roll <= ROLL_MAX:
        raise InputError("roll", f"a 2D6 roll is 2..12, not {roll!r}")
    t = table if table is not None else attrition_table()
    return parse_attrition_result(t.lookup(roll, column))


def resolve_attrition(
    factors: int,
    roll: int,
    table: Table | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
) -> AttritionOutcome:
    """TR-38 (Attrition) One attrition step: column for ``factors`` in contact, then the roll.

    Fewer than 5 factors in contact skips the step (no roll is used).
    """
    t = table if table is not None else attrition_table(readings=readings)
    column = attrition_column(factors, t, readings)
    if column is None:
        return AttritionOutcome(factors, None, None, AttritionResult("–", 0, 0, 0))
    return AttritionOutcome(factors, column, roll, attrition_result(column, roll, t))


# ---------------------------------------------------------------- TR-39 loss counting


def removal_value(unit: GroundUnit) -> Fraction:
    """TR-39: a 1-3 infantry unit counts 1/2 unit for attrition removal; any other unit 1."""
    return Fraction(1, 2) if unit.counts_half else Fraction(1)


def eligible_for_removal(unit: GroundUnit, adjacent_to_enemy: bool) -> bool:
    """TR-39/TR-71: only units adjacent to the opponent's ground units; never replacements."""
    return adjacent_to_enemy and unit.kind is not GroundKind.REPLACEMENT


def verify_attrition_removal(
    required: int,
    front: Sequence[GroundUnit],
    adjacent: Sequence[bool],
    chosen: Sequence[str],
) -> None:
    """TR-39: check the losing side's choice of units removed for an N-unit result.

    The chosen units must be eligible (adjacent to the opponent's ground units, not
    replacements), count to at least N (1-3 infantry = 1/2) unless every eligible unit is
    removed, and no chosen unit may be superfluous (without it the count would still reach N).
    """
    if required < 0:
        raise InputError("required", "cannot be negative")
    if len(front) != len(adjacent):
        raise InputError("adjacent", "one adjacency flag per unit is needed")
    by_id = {u.id: (u, adj) for u, adj in zip(front, adjacent, strict=True)}
    if len(set(chosen)) != len(chosen):
        raise IllegalOrder("TR-39", "a unit is chosen twice")
    picked = []
    for uid in chosen:
        if uid not in by_id:
            raise IllegalOrder("TR-39", f"unit {uid} is not on this front")
        unit, adj = by_id[uid]
        if not eligible_for_removal(unit, adj):
            raise IllegalOrder("TR-39", f"unit {uid} may not be removed: only units adjacent "
                               "to the opponent's ground units, never replacements")
        picked.append(unit)
    total = sum((removal_value(u) for u in picked), start=Fraction(0))
    eligible_total = sum((removal_value(u) for u, adj in zip(front, adjacent, strict=True)
                          if eligible_for_removal(u, adj)), start=Fraction(0))
    if total < required and total < eligible_total:
        raise IllegalOrder("TR-39", f"the units chosen count {total}, {required} are required")
    for u in picked:
        if total - removal_value(u) >= required:
            raise IllegalOrder("TR-39", f"unit {u.id} is more than the {required} units "
                               "required")


def exact_removals(eligible: Sequence[GroundUnit], required: int) -> Iterator[tuple[str, ...]]:
    """TR-39: the sets of ``eligible`` units (given in id order) counting exactly
    ``required`` - the removals :func:`verify_attrition_removal` accepts when the eligible
    units count more than that (a set counting more has a superfluous unit) - smallest sets
    first, each size in the order of :func:`itertools.combinations`. Built size by size
    from the whole and half units it needs, so a long front costs the sets listed, not
    every combination of its units."""
    half = [u.counts_half for u in eligible]
    n = len(half)
    # halves[i] / wholes[i]: how many of each stand at index i or later
    halves, wholes = [0] * (n + 1), [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        halves[i], wholes[i] = halves[i + 1] + half[i], wholes[i + 1] + (not half[i])

    def sets(start: int, w: int, h: int) -> Iterator[tuple[int, ...]]:
        if w == 0 and h == 0:
            yield ()
            return
        for i in range(start, n):
            if wholes[i] < w or halves[i] < h:
                return  # fewer left from here on
            if half[i] and h:
                yield from ((i, *rest) for rest in sets(i + 1, w, h - 1))
            elif not half[i] and w:
                yield from ((i, *rest) for rest in sets(i + 1, w - 1, h))

    for size in range(required, 2 * required + 1):  # w whole + h half: w + h/2 = required
        for combo in sets(0, 2 * required - size, 2 * (size - required)):
            yield tuple(eligible[i].id for i in combo)


def attrition_removal_choices(
    required: int,
    front: Sequence[GroundUnit],
    adjacent: Sequence[bool],
    limit: int = 1000,
) -> list[tuple[str, ...]]:
    """TR-38/TR-39 ("The side taking the losses decides which units to remove"): the sets of
    units (sorted ids) that side may remove for an N-unit result, every one passing
    :func:`verify_attrition_removal`, smallest sets first, at most ``limit`` of them (a long
    front has many). One entry means the choice is forced (the engine may make it); none
    means nothing is to be removed.
    """
    if required <= 0:
        return []
    if len(front) != len(adjacent):
        raise InputError("adjacent", "one adjacency flag per unit is needed")
    eligible = sorted((u for u, adj in zip(front, adjacent, strict=True)
                       if eligible_for_removal(u, adj)), key=lambda u: u.id)
    if sum((removal_value(u) for u in eligible), start=Fraction(0)) <= required:
        return [tuple(u.id for u in eligible)] if eligible else []
    return list(itertools.islice(exact_removals(eligible, required), limit))


@dataclass(frozen=True, slots=True)
class AttritionRemoval:
    """Record of units removed by attrition."""

    required: int
    removed: tuple[str, ...]
    counted: Fraction


def apply_attrition_removal(
    required: int,
    front: Sequence[GroundUnit],
    adjacent: Sequence[bool],
    chosen: Sequence[str],
) -> tuple[tuple[GroundUnit, ...], AttritionRemoval]:
    """TR-39 (Attrition) Remove the chosen units; returns the surviving front and the record."""
    verify_attrition_removal(required, front, adjacent, chosen)
    gone = set(chosen)
    counted = sum((removal_value(u) for u in front if u.id in gone), start=Fraction(0))
    return (tuple(u for u in front if u.id not in gone),
            AttritionRemoval(required, tuple(chosen), counted))


# ---------------------------------------------------------------- TR-40 hexes won


@dataclass(frozen=True, slots=True)
class FrontHex:
    """A defender's hex on the attrition front, with what makes it (in)eligible for HN."""

    id: str
    adjacent_to_attacker: bool = True
    fortified: bool = False
    capital: bool = False
    bridgehead: bool = False

    @property
    def eligible(self) -> bool:
        """TR-40: adjacent to an attacking ground unit; not fortified, a capital or a bridgehead."""
        return (self.adjacent_to_attacker and not self.fortified and not self.capital
                and not self.bridgehead)


def verify_hexes_won(n: int, front: Sequence[FrontHex], chosen: Sequence[str]) -> None:
    """TR-40: the attacker names all N hexes at once, each eligible; fewer only if none remain."""
    if n < 0:
        raise InputError("n", "cannot be negative")
    by_id = {h.id: h for h in front}
    if len(set(chosen)) != len(chosen):
        raise IllegalOrder("TR-40", "a hex is chosen twice")
    for hid in chosen:
        h = by_id.get(hid)
        if h is None:
            raise IllegalOrder("TR-40", f"hex {hid} is not on this front")
        if not h.eligible:
            why = ("not adjacent to an attacking ground unit" if not h.adjacent_to_attacker
                   else "fortified" if h.fortified else "a national capital" if h.capital
                   else "an amphibious bridgehead")
            raise IllegalOrder("TR-40", f"hex {hid} may not be chosen: {why}")
    if len(chosen) > n:
        raise IllegalOrder("TR-40", f"{len(chosen)} hexes chosen, only {n} won")
    available = sum(1 for h in front if h.eligible)
    if len(chosen) < min(n, available):
        raise IllegalOrder("TR-40", f"{len(chosen)} hexes chosen; {min(n, available)} must be "
                           "named (all at once, before the defender acts)")


def hexes_won(n: int, front: Sequence[FrontHex], chosen: Sequence[str]) -> tuple[str, ...]:
    """TR-40 (Attrition, HN) Validate the hexes the attacker wins; the defender vacates them."""
    verify_hexes_won(n, front, chosen)
    return tuple(chosen)


# ---------------------------------------------------------------- TR-41 saving losses


def replacement_limit(power: str) -> int:
    """TR-41: units a power may save per player turn (Germany/US 5, UK 4, Italy/France 3)."""
    key = power.strip().lower()
    if key not in REPLACEMENT_LIMITS:
        raise InputError("power", f"{power!r} is not one of {', '.join(REPLACEMENT_LIMITS)}")
    return REPLACEMENT_LIMITS[key]


def save_with_replacement(power: str, unit_cost: int, saved_this_turn: int) -> int:
    """TR-41 (Attrition) Swap a unit removed by attrition for a replacement; returns BRPs due.

    The dead unit takes the replacement's place; a unit costing more than 4 BRPs pays
    (cost − 4). At most 5 (Germany, US), 4 (UK), 3 (Italy, France) per player turn; the
    USSR has no replacements.

    >>> save_with_replacement("germany", 6, 0), save_with_replacement("uk", 3, 3)
    (2, 0)
    """
    if unit_cost < 0:
        raise InputError("unit_cost", "cannot be negative")
    if saved_this_turn < 0:
        raise InputError("saved_this_turn", "cannot be negative")
    limit = replacement_limit(power)
    if saved_this_turn >= limit:
        raise IllegalOrder("TR-41", f"{power} may save at most {limit} units per player turn")
    return max(unit_cost - SAVE_FREE_COST, 0)


# ---------------------------------------------------------------- TR-42 expectations


@dataclass(frozen=True, slots=True)
class AttritionExpectation:
    """Exact expected units lost (defender, attacker) and hexes won in one column."""

    column: str
    defender: Fraction
    attacker: Fraction
    hexes: Fraction

    @property
    def difference(self) -> Fraction:
        return self.defender - self.attacker


def attrition_expectation(column: str, table: Table | None = None) -> AttritionExpectation:
    """TR-42 (New attrition table) Exact expectations of one column over 2D6.

    >>> e = attrition_expectation("col4")
    >>> e.defender * 36, e.attacker * 36, e.hexes * 36
    (Fraction(144, 1), Fraction(69, 1), Fraction(72, 1))
    """
    t = table if table is not None else attrition_table()
    d = Distribution.of("2d6")
    results = {r: attrition_result(column, r, t) for r in range(ROLL_MIN, ROLL_MAX + 1)}
    return AttritionExpectation(
        column,
        d.expectation(lambda r: results[r].defender_units),
        d.expectation(lambda r: results[r].attacker_units),
        d.expectation(lambda r: results[r].hexes),
    )


def attrition_odds(column: str, table: Table | None = None) -> dict[str, Fraction]:
    """TR-38: exact chance of every result code in ``column``."""
    t = table if table is not None else attrition_table()
    t.column_index(column)
    return Distribution.of("2d6").map(lambda r: attrition_result(column, r, t).code)
