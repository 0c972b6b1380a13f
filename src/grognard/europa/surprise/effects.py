"""Europa rule 47.A.4-47.A.5: surprise effects (SUR-15..SUR-21).

The surprise-effects roll on the SUCCESS TABLE per defending command and the "+ # MP" marker
count (Table 2), the markers' effects, the restrictions of the bonus phases as checks the engine
calls, defender reactions, halved enemy ground support, the surprise-phase supply cost and the
bonus supply/air recovery phase.

>>> m = marker_count("S", [StackMember(Nationality.SOVIET)], distance=0, level=10,
...                  invasion=True, first=True, year=1941)
>>> m.markers, [(x.name, x.value) for x in m.modifiers][:2]
(5, [('result S', 1), ('nationality soviet', 1)])
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from grognard.core.dice import DiceStream, Distribution, clamp_roll
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import Exact, round_half_up
from grognard.core.tables import Table, TableSet, load_tables
from grognard.europa.surprise.general import (
    AIR_LADDER,
    DEFAULT_READINGS,
    AirStatus,
    DistanceCapMode,
    HalvingRounding,
    Nationality,
    SurpriseKind,
    SurpriseReadings,
    _check_level,
)

SUCCESS_TABLE = "europa_success_table"
EFFECTS_TABLE = "europa_surprise_effects"
EFFECTS_MODIFIERS = "europa_surprise_effects_modifiers"

NEAR_FRONT_HEXES = 20
"""SUR-15 reading 3: "near the surprise front" = within 20 hexes of it."""


def _tables(tables: TableSet | None) -> TableSet:
    return tables if tables is not None else load_tables()


class Result(StrEnum):
    """SUCCESS TABLE results."""

    F_STAR = "F*"
    F = "F"
    S = "S"
    S_STAR = "S*"


def parse_result(text: str | Result, field: str = "result") -> Result:
    """A SUCCESS TABLE result from ``F*``, ``F``, ``S`` or ``S*`` (case-insensitive)."""
    try:
        return Result(str(text).strip().upper())
    except ValueError:
        raise InputError(field, f"unknown result {text!r} (known: F*, F, S, S*)") from None


def success_result(roll: int, table: Table | None = None) -> Result:
    """SUR-15/SUR-22 (47.A.4, 47.A.5.a) The SUCCESS TABLE result of a (modified) roll.

    The table is a reconstruction (``europa_success_table``, replaceable with ``--tables``);
    rolls beyond its rows are clamped to its first and last rows.

    >>> [success_result(r).value for r in (-3, 1, 3, 5, 7, 12)]
    ['F*', 'F*', 'F', 'S', 'S*', 'S*']
    """
    t = table if table is not None else load_tables().get(SUCCESS_TABLE)
    keys = [int(k) for k in t.row_keys]
    r = clamp_roll(roll, 0, min(keys), max(keys))
    return parse_result(str(t.lookup(r)), f"table {t.id} row {r}")


def effects_result(die: int, table: Table | None = None) -> Result:
    """SUR-15 (47.A.4) The surprise-effects roll: one unmodified die on the SUCCESS TABLE
    (reading 4); an S* counts as S (reading 5), Table 2 printing only F*, F and S.

    >>> effects_result(6).value
    'S'
    """
    if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
        raise InputError("die", f"a die roll is 1..6 (got {die!r})")
    r = success_result(die, table)
    return Result.S if r is Result.S_STAR else r


def effects_odds(table: Table | None = None) -> dict[Result, Fraction]:
    """SUR-15 Exact odds of each surprise-effects result (the same function over 1D6)."""
    return Distribution.of("1d6").map(lambda d: effects_result(d, table))


@dataclass(frozen=True)
class CommandRoll:
    """SUR-15 One defending front/army group/command's surprise-effects roll."""

    command: str
    die: int
    result: Result

    def to_json(self) -> dict[str, Any]:
        return {"command": self.command, "die": self.die, "result": self.result.value}


def commands_near_front(distances: Mapping[str, int]) -> list[str]:
    """SUR-15 (47.A.4; reading 3) Defending commands with a unit within 20 hexes of the surprise
    front (``distances``: command -> its nearest unit's distance in hexes) roll, in name order."""
    for name, d in distances.items():
        if isinstance(d, bool) or not isinstance(d, int) or d < 0:
            raise InputError(f"distances[{name}]", f"a distance is a whole number >= 0 ({d!r})")
    return sorted(c for c, d in distances.items() if d <= NEAR_FRONT_HEXES)


def effects_rolls(commands: Sequence[str], stream: DiceStream,
                  table: Table | None = None) -> tuple[CommandRoll, ...]:
    """SUR-15 (47.A.4 note 1) One surprise-effects roll per defending front or command, after the
    defender has designated which units belong to which army group."""
    if len(set(commands)) != len(commands):
        raise InputError("commands", "each defending command rolls once")
    out = []
    for c in commands:
        die = stream.die(6)
        out.append(CommandRoll(c, die, effects_result(die, table)))
    return tuple(out)


@dataclass(frozen=True)
class StackMember:
    """SUR-15 A unit of a defending stack: its nationality and ZOC size (class)."""

    nationality: Nationality
    zoc: int = 1


@dataclass(frozen=True, slots=True)
class Modifier:
    """One itemised modifier: its name and value."""

    name: str
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value}


def nationality_modifier(nationality: Nationality, tables: TableSet | None = None) -> int:
    """SUR-15 (Table 2) The "+ # MP" marker modifier of one nationality."""
    t = _tables(tables).get(EFFECTS_MODIFIERS)
    return int(t.lookup(Nationality(nationality).value, "value"))


def stack_nationality_modifier(stack: Sequence[StackMember],
                               tables: TableSet | None = None) -> Modifier:
    """SUR-15 (47.A.4 note 3) A mixed stack uses the modifier of the unit with the largest ZOC;
    if several share the largest ZOC, their modifiers are averaged and rounded up.

    >>> g, us = StackMember(Nationality.GERMAN, 2), StackMember(Nationality.US, 2)
    >>> stack_nationality_modifier([g, us]).value
    0
    """
    if not stack:
        raise InputError("stack", "a stack needs at least one unit")
    for i, m in enumerate(stack):
        if isinstance(m.zoc, bool) or not isinstance(m.zoc, int) or m.zoc < 0:
            raise InputError(f"stack[{i}].zoc", f"a ZOC size is a whole number >= 0 ({m.zoc!r})")
    top = max(m.zoc for m in stack)
    leaders = [m for m in stack if m.zoc == top]
    values = [nationality_modifier(m.nationality, tables) for m in leaders]
    nats = sorted({m.nationality.value for m in leaders})
    value = math.ceil(Fraction(sum(values), len(values)))
    return Modifier(f"nationality {'+'.join(nats)}", value)


def distance_penalty(distance: int, level: int,
                     readings: SurpriseReadings = DEFAULT_READINGS) -> int | None:
    """SUR-15 (Table 2) -1 per 7 hexes from the centre hex, counting at most 7 x SRP hexes.

    Returns the (non-positive) modifier, or ``None`` under RANGE_LIMIT when the unit is more than
    7 x SRP hexes away and so unaffected.

    >>> distance_penalty(14, 10), distance_penalty(40, 1)
    (-2, -1)
    """
    if isinstance(distance, bool) or not isinstance(distance, int) or distance < 0:
        raise InputError("distance", f"a distance is a whole number of hexes >= 0 ({distance!r})")
    _check_level(level, readings)
    if readings.surprise_distance_cap_mode is DistanceCapMode.RANGE_LIMIT:
        if distance > 7 * level:
            return None
        return -(distance // 7)
    return -(min(distance, 7 * level) // 7)


@dataclass(frozen=True)
class MarkerCount:
    """SUR-15 The "+ # MP" markers on a defending stack and every modifier that made them."""

    markers: int
    raw: int
    modifiers: tuple[Modifier, ...]
    out_of_range: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"markers": self.markers, "modifiers": [m.to_json() for m in self.modifiers]}


#: The years a Europa game can be in (SUR-15's Table 2 year modifier is read against them).
FIRST_WAR_YEAR, LAST_WAR_YEAR = 1936, 1946


def marker_count(result: Result | str, stack: Sequence[StackMember], *, distance: int,
                 level: int, year: int, invasion: bool = False, first: bool = False,
                 readings: SurpriseReadings = DEFAULT_READINGS,
                 tables: TableSet | None = None) -> MarkerCount:
    """SUR-15 (47.A.4, Table 2) "+ # MP" markers on a defending stack.

    Reading (RULES.md SUR-15.1): count = result modifier (F* -1, F 0, S +1; S* as S) + the
    cumulative Table 2 modifiers, at least 0.

    >>> marker_count("F", [StackMember(Nationality.GERMAN)], distance=3, level=5,
    ...              year=1944).markers
    0
    """
    ts = _tables(tables)
    res = parse_result(result)
    if res is Result.S_STAR:
        res = Result.S
    if isinstance(year, bool) or not isinstance(year, int):
        raise InputError("year", f"a year is a whole number ({year!r})")
    if not FIRST_WAR_YEAR <= year <= LAST_WAR_YEAR:
        raise InputError("year", f"a game year is {FIRST_WAR_YEAR}..{LAST_WAR_YEAR}, not {year}")
    mods_t = ts.get(EFFECTS_MODIFIERS)
    res_mod = int(ts.get(EFFECTS_TABLE).lookup(res.value, "marker_modifier"))
    mods = [Modifier(f"result {res.value}", res_mod), stack_nationality_modifier(stack, ts)]
    pen = distance_penalty(distance, level, readings)
    if pen is None:
        mods.append(Modifier(f"distance {distance} > 7 x {level} hexes: unaffected", 0))
        return MarkerCount(0, 0, tuple(mods), out_of_range=True)
    step = int(mods_t.lookup("per_7_hexes_from_centre", "value"))
    mods.append(Modifier(f"distance {distance} hexes", -pen * step))
    if invasion:
        mods.append(Modifier("invasion surprise turn", int(mods_t.lookup("invasion", "value"))))
    if first:
        mods.append(Modifier("first surprise against the country",
                             int(mods_t.lookup("first_against_country", "value"))))
    first_year = int(mods_t.meta.get("first_year", 1939))
    last_year = int(mods_t.meta.get("last_year", 1942))
    if first_year <= year <= last_year:
        mods.append(Modifier(f"year {year}", int(mods_t.lookup("year_1939_1942", "value"))))
    raw = sum(m.value for m in mods)
    return MarkerCount(max(0, raw), raw, tuple(mods))


# --------------------------------------------------------------------------------------------
# SUR-16 markers: removal, air combat, isolation
# --------------------------------------------------------------------------------------------


def marker_removal_mp(markers: int, readings: SurpriseReadings = DEFAULT_READINGS, *,
                      kind: SurpriseKind = SurpriseKind.LOCAL, soviet: bool = False,
                      hexes_moved_closer: int = 0) -> int:
    """SUR-16 (47.A.4 note 2) MPs a stack pays to remove ``markers`` "+1 MP" markers.

    Each costs ``surprise_marker_mp_each`` MPs (reading). In an invasion surprise turn, Soviet
    units moving closer to the nearest enemy HQ or border remove one marker free per hex moved.

    >>> marker_removal_mp(3), marker_removal_mp(3, kind=SurpriseKind.INVASION, soviet=True,
    ...                                         hexes_moved_closer=2)
    (3, 1)
    """
    for name, v in (("markers", markers), ("hexes_moved_closer", hexes_moved_closer)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(name, f"must be a whole number >= 0 (got {v!r})")
    free = min(markers, hexes_moved_closer) if (kind is SurpriseKind.INVASION and soviet) else 0
    return (markers - free) * readings.surprise_marker_mp_each


def air_combat_marker_drm(markers_on_airbase: int, *, surprise_phase: bool) -> int:
    """SUR-16 (47.A.5.l) Air units flying from an airbase with a "+# MP" marker add the number on
    the marker to their air-combat die rolls during the surprise phase.

    >>> air_combat_marker_drm(2, surprise_phase=True), air_combat_marker_drm(2, surprise_phase=False)
    (2, 0)
    """
    if isinstance(markers_on_airbase, bool) or markers_on_airbase < 0:
        raise InputError("markers_on_airbase", "must be a whole number >= 0")
    return markers_on_airbase if surprise_phase else 0


def isolation_at_each_combat(under_marker: bool, in_surprise_front: bool) -> bool:
    """SUR-16 (47.A.5.m) Enemy units under a "+# MP" marker in the surprise front have their
    isolation judged at the instant of each combat as well as at the start of the combat phase."""
    return under_marker and in_surprise_front


# --------------------------------------------------------------------------------------------
# SUR-17 restrictions, SUR-18 reactions
# --------------------------------------------------------------------------------------------


class SurpriseAction(StrEnum):
    """SUR-17 Actions the bonus phases restrict."""

    AIR_TRANSFER = "air_transfer"
    AIR_STAGING = "air_staging"
    STRATEGIC_BOMBING = "strategic_bombing"
    AIR_DROP = "air_drop"
    AMPHIBIOUS = "amphibious"
    GROUND_MOVE = "ground_move"
    ATTACK = "attack"
    SEA_HEXSIDE_CROSSING = "sea_hexside_crossing"
    RAIL = "rail"
    ENGINEERING = "engineering"


@dataclass(frozen=True)
class ActionContext:
    """SUR-17 What the engine knows about a unit's proposed action in a bonus phase."""

    hexes_from_front: int | None = None
    own_zoc_class: int | None = None
    enemy_zoc_class_at_start: int | None = None
    enemy_zoc_screened: bool = False
    narrow_strait: bool = False


def surprise_action_problem(action: SurpriseAction, ctx: ActionContext = ActionContext()
                            ) -> str | None:
    """SUR-17 (47.A.5 a, b, c, h, k, n, o) Why ``action`` is forbidden in a bonus phase, or None.

    >>> surprise_action_problem(SurpriseAction.RAIL)
    'no unit may rail during the bonus movement phase (47.A.5.n)'
    >>> surprise_action_problem(SurpriseAction.AIR_DROP, ActionContext(hexes_from_front=10))
    """
    a = SurpriseAction(action)
    if a in (SurpriseAction.AIR_TRANSFER, SurpriseAction.AIR_STAGING,
             SurpriseAction.STRATEGIC_BOMBING):
        return "air units in a surprise turn may not fly transfer, staging or strategic " \
               "bombing missions (47.A.5.a)"
    if a in (SurpriseAction.AIR_DROP, SurpriseAction.AMPHIBIOUS):
        if ctx.hexes_from_front is None:
            raise InputError("hexes_from_front", f"needed to judge {a.value}")
        if ctx.hexes_from_front > 10:
            what = "air drops" if a is SurpriseAction.AIR_DROP else "amphibious assaults"
            letter = "b" if a is SurpriseAction.AIR_DROP else "c"
            return (f"{what} only within 10 hexes of the surprise front, not "
                    f"{ctx.hexes_from_front} (47.A.5.{letter})")
        return None
    if a is SurpriseAction.GROUND_MOVE:
        if ctx.enemy_zoc_class_at_start is None or ctx.enemy_zoc_screened:
            return None
        if ctx.own_zoc_class is None:
            raise InputError("own_zoc_class", "needed for a unit that started in an enemy ZOC")
        if ctx.enemy_zoc_class_at_start >= ctx.own_zoc_class:
            return ("a ground unit that started in an enemy ZOC of its own class or greater may "
                    "not move in the surprise movement phase, but may attack (47.A.5.h)")
        return None
    if a is SurpriseAction.SEA_HEXSIDE_CROSSING:
        return None if ctx.narrow_strait else \
            "sea or lake hexsides may not be crossed except at a narrow strait (47.A.5.k)"
    if a is SurpriseAction.RAIL:
        return "no unit may rail during the bonus movement phase (47.A.5.n)"
    if a is SurpriseAction.ENGINEERING:
        return "no unit may conduct any engineering function (47.A.5.o)"
    return None


def surprise_action_allowed(action: SurpriseAction, ctx: ActionContext = ActionContext()) -> bool:
    """SUR-17 (47.A.5) Whether ``action`` is allowed during the bonus phases."""
    return surprise_action_problem(action, ctx) is None


def verify_surprise_action(action: SurpriseAction, ctx: ActionContext = ActionContext()) -> None:
    """SUR-17 (47.A.5) Raise :class:`IllegalOrder` if ``action`` is forbidden in a bonus phase."""
    problem = surprise_action_problem(action, ctx)
    if problem is not None:
        raise IllegalOrder("SUR-17", problem)


def transport_increase_cost(sp: Exact, srp: Exact) -> tuple[Fraction, Fraction]:
    """SUR-17 (47.A.5.d) NT or LB capacity increases used in the surprise phase cost double.

    >>> transport_increase_cost(3, Fraction(1, 2))
    (Fraction(6, 1), Fraction(1, 1))
    """
    for name, v in (("sp", sp), ("srp", srp)):
        if isinstance(v, bool) or not isinstance(v, int | Fraction) or v < 0:
            raise InputError(name, f"must be an exact amount >= 0 (got {v!r})")
    return 2 * Fraction(sp), 2 * Fraction(srp)


class Reaction(StrEnum):
    """SUR-18 The defender's reactions to a surprise."""

    AIR = "air"
    NAVAL = "naval"
    RESERVE_MOVE = "reserve_move"


def reaction_allowed(kind: SurpriseKind, reaction: Reaction, *, initial: bool = False,
                     hexes_from_front: int | None = None) -> bool:
    """SUR-18 (47.A.5.e, j) Defender reactions: none in an invasion (or initial) surprise turn;
    otherwise air and naval reactions as normal, and reserves within 5 hexes of the surprise front
    (or of an amphibious/airborne assault) may move in the reaction phase after the bonus move.

    >>> reaction_allowed(SurpriseKind.LOCAL, Reaction.RESERVE_MOVE, hexes_from_front=5)
    True
    >>> reaction_allowed(SurpriseKind.INVASION, Reaction.AIR)
    False
    """
    if SurpriseKind(kind) is SurpriseKind.INVASION or initial:
        return False
    if Reaction(reaction) is Reaction.RESERVE_MOVE:
        if hexes_from_front is None:
            raise InputError("hexes_from_front", "needed to judge a reserve's reaction move")
        return 0 <= hexes_from_front <= 5
    return True


# --------------------------------------------------------------------------------------------
# SUR-19 ground support, SUR-20 supply, SUR-21 bonus supply/air phase
# --------------------------------------------------------------------------------------------


def ground_support_tbf(tbf: Exact, *, turn_has_surprise: bool = True,
                       readings: SurpriseReadings = DEFAULT_READINGS) -> Fraction:
    """SUR-19 (47.A.5.g) Every enemy ground-support mission of a surprise turn (including those
    flown in the initial phase) has its TBF halved; rounded down per mission by default.

    >>> ground_support_tbf(7), ground_support_tbf(7, turn_has_surprise=False)
    (Fraction(3, 1), Fraction(7, 1))
    """
    if isinstance(tbf, bool) or not isinstance(tbf, int | Fraction) or tbf < 0:
        raise InputError("tbf", f"a TBF is an exact amount >= 0 (got {tbf!r})")
    if not turn_has_surprise:
        return Fraction(tbf)
    half = Fraction(tbf, 2)
    mode = readings.surprise_gs_halving_rounding
    if mode is HalvingRounding.FLOOR:
        return Fraction(math.floor(half))
    if mode is HalvingRounding.CEIL:
        return Fraction(math.ceil(half))
    if mode is HalvingRounding.ROUND_HALF_UP:
        return Fraction(round_half_up(half))
    return half


def surprise_attack_sp(normal: Exact, weather_multiplier: int = 1, extras: Exact = 0) -> Fraction:
    """SUR-20 (47.A.5.i) Attacks in the surprise combat phase pay no normal supply: only the
    weather's extra part ((multiplier - 1) x normal) and other extra SP costs (forts, cities,
    planned attacks), from a special supply source within range.

    >>> surprise_attack_sp(2, 1, 0), surprise_attack_sp(2, 3, 1)
    (Fraction(0, 1), Fraction(5, 1))
    """
    for name, v in (("normal", normal), ("extras", extras)):
        if isinstance(v, bool) or not isinstance(v, int | Fraction) or v < 0:
            raise InputError(name, f"must be an exact amount >= 0 (got {v!r})")
    if weather_multiplier not in (1, 2, 3):
        raise InputError("weather_multiplier", f"weather multiplies supply by 1, 2 or 3, "
                         f"not {weather_multiplier!r}")
    return (weather_multiplier - 1) * Fraction(normal) + Fraction(extras)


class AirType(StrEnum):
    """SUR-21 Air unit types (F fighter, D dive bomber, A attack; the rest as OTHER)."""

    F = "F"
    D = "D"
    A = "A"
    OTHER = "other"


@dataclass(frozen=True)
class RecoveryCandidate:
    """SUR-21 An air unit offered for recovery in the bonus supply/air phase."""

    id: str
    type: AirType
    status: AirStatus
    in_range_of_front: bool = True


@dataclass(frozen=True)
class AirRecovery:
    """SUR-21 Units restored one step toward operative, and the SP price."""

    restored: tuple[tuple[str, AirStatus, AirStatus], ...]
    sp_cost: int

    def to_json(self) -> dict[str, Any]:
        return {"restored": [{"id": i, "from": a.value, "to": b.value}
                             for i, a, b in self.restored],
                "sp_cost": self.sp_cost}


def bonus_air_recovery(chosen: Sequence[RecoveryCandidate], *, phasing: bool,
                       phasing_air_used: int,
                       kind: SurpriseKind = SurpriseKind.LOCAL) -> AirRecovery:
    """SUR-21 (47.A.5.p) The bonus air phase: the phasing player may make operative (or improve
    the status of) type F, D and A air units within range of the surprise front, up to the number
    of phasing air units used in the surprise turn. The non-phasing player may do the same at 1 SP
    per 3 air units (rounded up, reading), paid from the theatre/command central pool. In an
    invasion surprise turn the phasing player may restore **any** inoperative air units.

    >>> c = [RecoveryCandidate(str(i), AirType.F, AirStatus.INOPERATIVE) for i in range(4)]
    >>> bonus_air_recovery(c, phasing=False, phasing_air_used=5).sp_cost
    2
    """
    if isinstance(phasing_air_used, bool) or phasing_air_used < 0:
        raise InputError("phasing_air_used", "must be a whole number >= 0")
    if len({c.id for c in chosen}) != len(chosen):
        raise InputError("chosen", "an air unit is restored at most once")
    unlimited = phasing and SurpriseKind(kind) is SurpriseKind.INVASION
    if not unlimited and len(chosen) > phasing_air_used:
        raise IllegalOrder("SUR-21", f"{len(chosen)} air units chosen; at most {phasing_air_used} "
                           "(the phasing air units used in the surprise turn)")
    restored = []
    for c in chosen:
        if c.status not in (AirStatus.INOPERATIVE, AirStatus.X, AirStatus.DAMAGED):
            raise IllegalOrder("SUR-21", f"air unit {c.id} is {c.status.value}: nothing to restore")
        if not unlimited:
            if c.type is AirType.OTHER:
                raise IllegalOrder("SUR-21", f"air unit {c.id} is not of type F, D or A")
            if not c.in_range_of_front:
                raise IllegalOrder("SUR-21", f"air unit {c.id} is not within range of the "
                                   "surprise front")
        after = AIR_LADDER[AIR_LADDER.index(c.status) - 1]
        restored.append((c.id, c.status, after))
    cost = 0 if phasing else -(-len(chosen) // 3)
    return AirRecovery(tuple(restored), cost)


@dataclass(frozen=True)
class BonusSupplyJudgement:
    """SUR-21 What the bonus supply-judgement phase re-judges (the tracing is core/supply's)."""

    hqs_recompute_range: tuple[str, ...]
    units_to_judge: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"hqs_recompute_range": list(self.hqs_recompute_range),
                "units_to_judge": list(self.units_to_judge)}


def bonus_supply_judgement(hqs_moved: Sequence[str], units_in_front: Sequence[str],
                           ) -> BonusSupplyJudgement:
    """SUR-21 (47.A.5.p) After the bonus movement and combat phases every HQ that moved
    recalculates its supply range, then both players judge supply normally for all units (of
    either side) within the surprise front.

    >>> bonus_supply_judgement(["hq1"], ["pz1", "rifle7", "pz1"]).units_to_judge
    ('pz1', 'rifle7')
    """
    return BonusSupplyJudgement(tuple(dict.fromkeys(hqs_moved)),
                                tuple(dict.fromkeys(units_in_front)))
