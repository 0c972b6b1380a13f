"""Europa rule 47.A.5.a: airbase surprise (SUR-22..SUR-24).

When an airbase is attacked by a tactical bombing mission in the surprise phase (or in any
non-initial phase of a turn containing a surprise turn) the phasing player rolls one die on the
SUCCESS TABLE with the Table 3 modifiers. Attackers + "+# MP" markers - CAP defending air units
are affected; Table 3 (``europa_surprise_airbase``) moves each along the status ladder.

>>> units = [BaseAirUnit("op", AirStatus.OPERATIVE), BaseAirUnit("inop", AirStatus.INOPERATIVE),
...          BaseAirUnit("ext", AirStatus.X)]
>>> r = resolve_airbase(Result.F, units, ["op", "inop"])
>>> [(u.id, u.before.value, u.after.value) for u in r.units]
[('op', 'operative', 'operative'), ('inop', 'inoperative', 'X'), ('ext', 'X', 'X')]
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from grognard.core.dice import DiceStream, Distribution
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.tables import Table, TableSet, load_tables
from grognard.europa.surprise.effects import (
    FIRST_WAR_YEAR,
    LAST_WAR_YEAR,
    Modifier,
    Result,
    success_result,
)
from grognard.europa.surprise.general import (
    DEFAULT_READINGS,
    AirbaseSelection,
    AirStatus,
    Nationality,
    SurpriseReadings,
)

AIRBASE_TABLE = "europa_surprise_airbase"
AIRBASE_MODIFIERS = "europa_surprise_airbase_modifiers"

MAJOR_POWERS = frozenset({Nationality.GERMAN, Nationality.ITALIAN, Nationality.SOVIET,
                          Nationality.US, Nationality.COMMONWEALTH, Nationality.FRENCH})
AFFECTABLE = (AirStatus.OPERATIVE, AirStatus.INOPERATIVE, AirStatus.X)
"""Reading: damaged and aborted units are not affected (Table 3 names no effect for them)."""


def _tables(tables: TableSet | None) -> TableSet:
    return tables if tables is not None else load_tables()


def _count(name: str, v: int) -> None:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise InputError(name, f"must be a whole number >= 0 (got {v!r})")


class AirPhase(StrEnum):
    """SUR-22/23 Phases that matter to airbase surprise."""

    INITIAL = "initial"
    SURPRISE = "surprise"
    OTHER = "other"


def airbase_surprise_applies(phase: AirPhase, *, turn_has_surprise: bool,
                             soviet_airbase_rule: bool = False,
                             date: dt.date | None = None,
                             tables: TableSet | None = None) -> bool:
    """SUR-22 (47.A.5.f; 47.A.5.a) A tactical bombing attack on an airbase suffers a surprise roll
    in the surprise phase or in any non-initial phase of a turn containing a surprise turn; also
    where the (external, "Rule ???") Soviet-airbase rule says so, until 1 Mar 43.

    >>> airbase_surprise_applies(AirPhase.INITIAL, turn_has_surprise=True)
    False
    """
    phase = AirPhase(phase)
    if phase is AirPhase.SURPRISE:
        return True
    if turn_has_surprise and phase is not AirPhase.INITIAL:
        return True
    if soviet_airbase_rule:
        if date is None:
            raise InputError("date", "needed for the Soviet airbase rule")
        return date < _date_meta(_tables(tables).get(AIRBASE_MODIFIERS), "soviet_normal_after")
    return False


def affected_count(attackers: int, markers: int, cap: int, present: int) -> int:
    """SUR-22 (47.A.5.a) Affected defending air units = attacking air units + "+# MP" markers on
    the airbase - defending air units flying CAP in the hex, at least 0, at most those present.

    >>> affected_count(2, 0, 0, 3), affected_count(1, 0, 2, 3), affected_count(5, 2, 0, 3)
    (2, 0, 3)
    """
    for name, v in (("attackers", attackers), ("markers", markers), ("cap", cap),
                    ("present", present)):
        _count(name, v)
    return max(0, min(present, attackers + markers - cap))


def _date_meta(t: Table, key: str) -> dt.date:
    raw = t.meta.get(key)
    if isinstance(raw, dt.date):
        return raw
    try:
        return dt.date.fromisoformat(str(raw))
    except ValueError:
        raise InputError(f"table {t.id} meta.{key}", f"not an ISO date: {raw!r}") from None


def all_guards_or_non_soviet_major(units: Sequence[tuple[Nationality, bool]],
                                   date: dt.date, tables: TableSet | None = None) -> bool:
    """SUR-24 (Table 3) Whether every unit on the base is Guards or a non-Soviet major power air
    unit (``units``: nationality, guards). Reading: after 1 Mar 43 "Soviet airbases are treated
    normally", so Soviet units then count like any major power's."""
    normal_after = _date_meta(_tables(tables).get(AIRBASE_MODIFIERS), "soviet_normal_after")
    if not units:
        return False
    for nat, guards in units:
        nat = Nationality(nat)
        if guards:
            continue
        if nat is Nationality.SOVIET and date >= normal_after:
            continue
        if nat is Nationality.SOVIET or nat not in MAJOR_POWERS:
            return False
    return True


@dataclass(frozen=True)
class AirbaseModifier:
    """SUR-24 The Table 3 die modifier of one nation's air units, itemised."""

    modifier: int
    modifiers: tuple[Modifier, ...]

    def to_json(self) -> dict[str, Any]:
        return {"modifier": self.modifier, "modifiers": [m.to_json() for m in self.modifiers]}


def airbase_modifier(*, date: dt.date, nationality: Nationality = Nationality.SOVIET,
                     all_guards_or_major: bool = False, temporary_airfield: bool = False,
                     surprise_phase: bool = False, invasion: bool = False,
                     city: str | None = None, tables: TableSet | None = None) -> AirbaseModifier:
    """SUR-24 (47.A.5.a, Table 3) Cumulative die modifiers of the airbase surprise roll.

    -1 all units Guards or non-Soviet major power; +1 temporary airfield; +1* Soviet air units
    before 1 Jun 42; +1 surprise phase; +1* invasion surprise turn. * not for units in Leningrad,
    Baku or Moscow.

    >>> airbase_modifier(date=dt.date(1941, 6, 22), surprise_phase=True, invasion=True).modifier
    3
    >>> airbase_modifier(date=dt.date(1941, 6, 22), surprise_phase=True, invasion=True,
    ...                  city="Moscow").modifier
    1
    """
    if not FIRST_WAR_YEAR <= date.year <= LAST_WAR_YEAR:
        raise InputError("date", f"a game date is in {FIRST_WAR_YEAR}..{LAST_WAR_YEAR}, "
                         f"not {date.isoformat()}")
    t = _tables(tables).get(AIRBASE_MODIFIERS)
    exempt_cities = {str(c).lower() for c in t.meta.get("exempt_cities", [])}
    in_exempt = city is not None and city.strip().lower() in exempt_cities
    cutoff = _date_meta(t, "soviet_cutoff")
    flags = {
        "guards_or_non_soviet_major": all_guards_or_major,
        "temporary_airfield": temporary_airfield,
        "soviet_before_cutoff": Nationality(nationality) is Nationality.SOVIET and date < cutoff,
        "surprise_phase": surprise_phase,
        "invasion_surprise_turn": invasion,
    }
    mods = []
    for key in t.row_keys:
        if not flags.get(str(key)):
            continue
        name = (str(t.lookup(key, "printed")) if "printed" in t.columns else str(key)).rstrip(".")
        value = int(t.lookup(key, "value"))
        if str(t.lookup(key, "exempt_in_cities")) == "yes" and in_exempt:
            mods.append(Modifier(f"{name} (not in {city})", 0))
            continue
        mods.append(Modifier(name, value))
    return AirbaseModifier(sum(m.value for m in mods), tuple(mods))


def airbase_result(status: AirStatus, result: Result, table: Table | None = None) -> AirStatus:
    """SUR-24 (Table 3) The new status of an affected air unit.

    >>> airbase_result(AirStatus.OPERATIVE, Result.S).value, airbase_result(AirStatus.X, Result.S_STAR).value
    ('inoperative', 'aborted')
    """
    status, result = AirStatus(status), Result(result)
    if status not in AFFECTABLE:
        return status
    t = table if table is not None else load_tables().get(AIRBASE_TABLE)
    return AirStatus(str(t.lookup(result.value, status.value)))


def available_after(status_after: AirStatus, result: Result, table: Table | None = None) -> bool:
    """SUR-24 (Table 3) Whether an affected unit is still available for use after the roll."""
    t = table if table is not None else load_tables().get(AIRBASE_TABLE)
    rule = str(t.lookup(Result(result).value, "available"))
    if rule == "all":
        return True
    if rule == "operative":
        return status_after is AirStatus.OPERATIVE
    return False


@dataclass(frozen=True)
class BaseAirUnit:
    """An air unit on the attacked airbase."""

    id: str
    status: AirStatus
    nationality: Nationality = Nationality.SOVIET


@dataclass(frozen=True)
class UnitOutcome:
    id: str
    before: AirStatus
    after: AirStatus
    affected: bool
    available: bool

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "before": self.before.value, "after": self.after.value,
                "affected": self.affected, "available": self.available}


@dataclass(frozen=True)
class AirbaseOutcome:
    """SUR-24 One nation's units after an airbase surprise result."""

    result: Result
    units: tuple[UnitOutcome, ...]

    @property
    def affected(self) -> int:
        return sum(u.affected for u in self.units)

    def to_json(self) -> dict[str, Any]:
        return {"result": self.result.value, "affected": self.affected,
                "units": [u.to_json() for u in self.units]}


def resolve_airbase(result: Result, units: Sequence[BaseAirUnit], affected_ids: Sequence[str],
                    table: Table | None = None) -> AirbaseOutcome:
    """SUR-24 (Table 3) Apply ``result`` to the affected units; the others are untouched."""
    ids = [u.id for u in units]
    if len(set(ids)) != len(ids):
        raise InputError("units", "duplicate air unit id")
    chosen = set(affected_ids)
    if len(chosen) != len(affected_ids):
        raise InputError("affected_ids", "a unit is affected at most once")
    for a in affected_ids:
        if a not in ids:
            raise InputError("affected_ids", f"no air unit {a!r} on the airbase")
    out = []
    for u in units:
        if u.id in chosen:
            after = airbase_result(u.status, result, table)
            out.append(UnitOutcome(u.id, u.status, after, True,
                                   available_after(after, result, table)))
        else:
            out.append(UnitOutcome(u.id, u.status, u.status, False, True))
    return AirbaseOutcome(Result(result), tuple(out))


def select_affected(units: Sequence[BaseAirUnit], count: int,
                    readings: SurpriseReadings = DEFAULT_READINGS, *,
                    chosen: Sequence[str] | None = None,
                    stream: DiceStream | None = None) -> tuple[str, ...]:
    """SUR-22 (47.A.5.a) Which defending air units are affected: ``count`` of the operative,
    inoperative or X units, chosen at random (RANDOM, the rule text) or designated by the
    defender (DEFENDER_CHOICE, as in the worked example), per ``airbase_surprise_selection``."""
    _count("count", count)
    eligible = [u.id for u in units if u.status in AFFECTABLE]
    if count > len(eligible):
        raise InputError("count", f"{count} affected but only {len(eligible)} air units can be")
    if readings.airbase_surprise_selection is AirbaseSelection.DEFENDER_CHOICE:
        if chosen is None:
            raise InputError("chosen", "the defender designates the affected units")
        if len(chosen) != count or len(set(chosen)) != count:
            raise IllegalOrder("SUR-22", f"the defender must designate exactly {count} distinct "
                               f"air units, not {len(chosen)}")
        for c in chosen:
            if c not in eligible:
                raise IllegalOrder("SUR-22", f"{c!r} is not an operative, inoperative or X air "
                                   "unit on the airbase")
        return tuple(chosen)
    if stream is None:
        raise InputError("stream", "random selection needs a dice stream")
    pool = list(eligible)
    picked = []
    for _ in range(count):
        picked.append(pool.pop(stream.choice(len(pool))))
    return tuple(picked)


@dataclass(frozen=True)
class NationOnBase:
    """SUR-22 One nation's air units on the airbase, with its markers and Table 3 modifier."""

    nationality: Nationality
    units: tuple[BaseAirUnit, ...]
    markers: int = 0
    modifier: int = 0
    cap: int = 0


@dataclass(frozen=True)
class NationResult:
    nationality: Nationality
    modifier: int
    modified_roll: int
    affected_ids: tuple[str, ...]
    outcome: AirbaseOutcome

    def to_json(self) -> dict[str, Any]:
        return {"nationality": self.nationality.value, "modifier": self.modifier,
                "modified_roll": self.modified_roll, "affected_ids": list(self.affected_ids),
                **self.outcome.to_json()}


@dataclass(frozen=True)
class AirbaseSurprise:
    """Record of SUR-22..24: the die, and each nation's modified result and outcome."""

    die: int
    attackers: int
    nations: tuple[NationResult, ...]

    def to_json(self) -> dict[str, Any]:
        return {"die": self.die, "attackers": self.attackers,
                "nations": [n.to_json() for n in self.nations]}


def airbase_surprise(die: int, attackers: int, nations: Sequence[NationOnBase],
                     readings: SurpriseReadings = DEFAULT_READINGS, *,
                     chosen: Mapping[Nationality, Sequence[str]] | None = None,
                     stream: DiceStream | None = None,
                     tables: TableSet | None = None) -> AirbaseSurprise:
    """SUR-22/SUR-24 (47.A.5.a) Resolve one airbase surprise roll.

    Two nations on one base share the die but each applies its own modifier, markers and CAP
    (reading: the affected count is figured per nation, bounded by that nation's units).
    """
    if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
        raise InputError("die", f"a die roll is 1..6 (got {die!r})")
    _count("attackers", attackers)
    ts = _tables(tables)
    seen = [n.nationality for n in nations]
    if len(set(seen)) != len(seen):
        raise InputError("nations", "list each nation once")
    out = []
    for n in nations:
        _count(f"{n.nationality.value}.markers", n.markers)
        _count(f"{n.nationality.value}.cap", n.cap)
        present = sum(1 for u in n.units if u.status in AFFECTABLE)
        k = affected_count(attackers, n.markers, n.cap, present)
        result = success_result(die + n.modifier, ts.get("europa_success_table"))
        ids = select_affected(n.units, k, readings,
                              chosen=None if chosen is None else chosen.get(n.nationality),
                              stream=stream)
        outcome = resolve_airbase(result, n.units, ids, ts.get(AIRBASE_TABLE))
        out.append(NationResult(n.nationality, n.modifier, die + n.modifier, ids, outcome))
    return AirbaseSurprise(die, attackers, tuple(out))


# --------------------------------------------------------------------------------------------
# SUR-23 sequencing and interception priority
# --------------------------------------------------------------------------------------------


class MissionKind(StrEnum):
    AIRBASE_SURPRISE_ATTACK = "airbase_surprise_attack"
    ESCORT = "escort"
    DEFENDER = "defender"
    OTHER = "other"


def air_mission_order(phase: AirPhase, missions: Sequence[tuple[str, MissionKind]]
                      ) -> tuple[tuple[str, ...], ...]:
    """SUR-23 (47.A.5.a) Order of air missions: in a surprise phase all airbase-surprise attackers
    and their escorts fly at the same time (one step) and resolve before the defender may fly any
    mission; then the defender's missions, then the rest. In other phases the normal sequence
    applies (one step, in the given order).

    >>> air_mission_order(AirPhase.SURPRISE, [("d1", MissionKind.DEFENDER),
    ...     ("b1", MissionKind.AIRBASE_SURPRISE_ATTACK), ("e1", MissionKind.ESCORT)])
    (('b1', 'e1'), ('d1',))
    """
    if AirPhase(phase) is not AirPhase.SURPRISE:
        return (tuple(m for m, _ in missions),)
    first = tuple(m for m, k in missions
                  if k in (MissionKind.AIRBASE_SURPRISE_ATTACK, MissionKind.ESCORT))
    defender = tuple(m for m, k in missions if k is MissionKind.DEFENDER)
    rest = tuple(m for m, k in missions if k is MissionKind.OTHER)
    return tuple(step for step in (first, defender, rest) if step)


def interception_problem(interceptions: Sequence[tuple[str, str]],
                         airbase_attackers: Sequence[str]) -> str | None:
    """SUR-23 (47.A.5.a) Interceptors must first be allocated to the air units attacking the
    airbase, at least one per attacking unit, before any other interception."""
    attackers = set(airbase_attackers)
    covered = {target for _, target in interceptions if target in attackers}
    others = [target for _, target in interceptions if target not in attackers]
    if others and covered != attackers:
        missing = ", ".join(sorted(attackers - covered))
        return (f"intercepting {others[0]} before every airbase attacker has an interceptor "
                f"(uncovered: {missing})")
    return None


def verify_interceptions(interceptions: Sequence[tuple[str, str]],
                         airbase_attackers: Sequence[str]) -> None:
    """SUR-23 Raise :class:`IllegalOrder` for an interception order that skips the priority."""
    problem = interception_problem(interceptions, airbase_attackers)
    if problem:
        raise IllegalOrder("SUR-23", problem)


def airbase_odds(modifier: int, tables: TableSet | None = None) -> dict[Result, Fraction]:
    """SUR-22/SUR-24 Exact odds of each airbase surprise result for a Table 3 modifier: the same
    :func:`success_result` mapped over one die.

    >>> airbase_odds(0)[Result.S]
    Fraction(1, 3)
    """
    table = _tables(tables).get("europa_success_table")
    return Distribution.of("1d6").map(lambda d: success_result(d + modifier, table))
