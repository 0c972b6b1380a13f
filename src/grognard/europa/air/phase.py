"""Europa revised air phase (EUR-23 order, EUR-24 fighter sweep, EUR-25 interception/escorts).

Air-to-air fights use the original Europa air combat table (R, A, X results), which the text
does not give (EXTERNAL): the shipped ``europa_air_combat`` table is a RECONSTRUCTED generic
stand-in, indexed by the firing unit's air-combat rating minus its target's. Replace it with
``--tables``. Every fight is a pure function of the two ratings and the two 2D6 rolls.

>>> air_combat_result(3, 3, 12)
<AirResult.ELIMINATED: 'X'>
>>> interception_range(9)
4
>>> [s.value for s in AIR_PHASE_ORDER][:3]
['missions', 'sweep', 'interception']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from grognard.core.dice import Distribution
from grognard.core.errors import IllegalOrder, InputError, TableError, parse_enum
from grognard.core.readings import Readings
from grognard.core.tables import Table, load_tables
from grognard.europa.air.wings import Wing

AIR_COMBAT_TABLE = "europa_air_combat"


class AirResult(StrEnum):
    """Result of one air-to-air fire (original Europa codes)."""

    NONE = "0"
    RETURN = "R"
    ABORT = "A"
    ELIMINATED = "X"

    @property
    def removes(self) -> bool:
        """EUR-24 An R, A or X result takes the target out of the fight / mission."""
        return self is not AirResult.NONE


class AfterEscorts(StrEnum):
    """EUR-25 reading: what interceptors do once a mission's escorts are all gone."""

    BOMBERS_IF_CLEARED = "bombers_if_cleared"  # RULES.md default
    NONE = "none"  # "only one attack each": interceptors that fought escorts are done


@dataclass(frozen=True)
class AirPhaseReadings(Readings):
    """Switches of EUR-23..EUR-25 (RULES.md section 1.2)."""

    after_escorts: AfterEscorts = AfterEscorts.BOMBERS_IF_CLEARED


@dataclass(frozen=True, slots=True)
class AirUnit:
    """An air unit (wing) in the air phase: air-combat rating, range, bombardment ratings."""

    id: str
    air_combat: int
    range_hexes: int = 0
    fighter: bool = True
    tactical: int = 0
    strategic: int = 0

    def __post_init__(self) -> None:
        if not self.id:
            raise InputError("id", "an air unit needs an id")
        for name in ("air_combat", "range_hexes", "tactical", "strategic"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InputError(name, f"must be a non-negative integer, not {v!r}")

    @classmethod
    def from_wing(cls, id: str, wing: Wing, fighter: bool = False) -> AirUnit:
        """An air unit from an EUR-01 wing (range and air combat inherited, 0 if unknown)."""
        return cls(id, wing.air_combat or 0, wing.range_hexes or 0, fighter, wing.tactical,
                   wing.strategic)


def air_combat_table() -> Table:
    return load_tables().get(AIR_COMBAT_TABLE)


def _differentials(t: Table) -> list[int]:
    try:
        return [int(c) for c in t.columns]
    except ValueError:
        raise TableError("air combat columns must be differentials like -1, 0, +1",
                         file=t.file, table=t.id) from None


def air_combat_column(firer: int, target: int, table: Table | None = None) -> str:
    """EUR-24 The air combat column: firer's rating minus the target's, clamped to the table."""
    t = table if table is not None else air_combat_table()
    for name, v in (("firer", firer), ("target", target)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(name, f"an air-combat rating is a non-negative integer, not {v!r}")
    diffs = _differentials(t)
    d = min(max(firer - target, min(diffs)), max(diffs))
    return t.columns[diffs.index(d)]


def air_combat_result(firer: int, target: int, roll: int, table: Table | None = None
                      ) -> AirResult:
    """EUR-24/EUR-25 One air-to-air fire: the result against the target for a 2D6 ``roll``."""
    t = table if table is not None else air_combat_table()
    if isinstance(roll, bool) or not isinstance(roll, int) or not 2 <= roll <= 12:
        raise InputError("roll", f"a 2D6 roll is 2..12, not {roll!r}")
    col = air_combat_column(firer, target, t)
    cell = t.lookup(roll, col)
    try:
        return AirResult(str(cell))
    except ValueError:
        raise TableError(f"unknown air combat result {cell!r}", file=t.file, table=t.id,
                         column=col, row=roll) from None


def air_combat_odds(firer: int, target: int, table: Table | None = None
                    ) -> dict[AirResult, Fraction]:
    """EUR-24 Exact odds of each result of one fire (the same function over 2D6)."""
    t = table if table is not None else air_combat_table()
    return Distribution.of("2d6").map(lambda r: air_combat_result(firer, target, r, t))


def removal_chance(firer: int, target: int, table: Table | None = None) -> Fraction:
    """EUR-24 Chance that one fire removes the target (R, A or X)."""
    return sum((p for r, p in air_combat_odds(firer, target, table).items() if r.removes),
               Fraction(0))


@dataclass(frozen=True, slots=True)
class Fight:
    """One air-to-air fight: both sides fire once, simultaneously."""

    attacker: str
    target: str
    attacker_roll: int
    target_roll: int
    vs_target: AirResult
    vs_attacker: AirResult

    def to_json(self) -> dict[str, object]:
        return {"attacker": self.attacker, "target": self.target,
                "attacker_roll": self.attacker_roll, "target_roll": self.target_roll,
                "vs_target": self.vs_target.value, "vs_attacker": self.vs_attacker.value}


def fight(attacker: AirUnit, target: AirUnit, attacker_roll: int, target_roll: int,
          table: Table | None = None) -> Fight:
    """EUR-24 One fight: the attacker fires at the target and the target fires back."""
    t = table if table is not None else air_combat_table()
    return Fight(attacker.id, target.id, attacker_roll, target_roll,
                 air_combat_result(attacker.air_combat, target.air_combat, attacker_roll, t),
                 air_combat_result(target.air_combat, attacker.air_combat, target_roll, t))


def _by_id(units: Sequence[AirUnit], field: str) -> dict[str, AirUnit]:
    out: dict[str, AirUnit] = {}
    for u in units:
        if u.id in out:
            raise InputError(field, f"air unit {u.id!r} listed twice")
        out[u.id] = u
    return out


def _rolls(rolls: Sequence[int], need: int) -> None:
    if len(rolls) < need:
        raise InputError("rolls", f"{need} 2D6 rolls are needed, {len(rolls)} given")


# --- EUR-24 fighter sweep ------------------------------------------------------------------------

def sweep_pairings(sweepers: Sequence[str], defenders: Sequence[str]
                   ) -> tuple[tuple[str, str], ...]:
    """EUR-24 A default assignment: sweepers spread over the defenders as evenly as possible.

    >>> sweep_pairings(["a", "b", "c"], ["x", "y"])
    (('a', 'x'), ('b', 'y'), ('c', 'x'))
    """
    if not defenders:
        raise InputError("defenders", "a sweep needs enemy fighters to engage")
    return tuple((s, defenders[i % len(defenders)]) for i, s in enumerate(sweepers))


def verify_sweep_pairings(sweepers: Sequence[str], defenders: Sequence[str],
                          pairings: Sequence[tuple[str, str]]) -> None:
    """EUR-24 Each sweeper engages exactly one enemy fighter, and the sweepers are spread as
    evenly as possible (engagement counts differ by at most one; no doubling up while an
    enemy fighter is left unengaged)."""
    if not sweepers:
        raise IllegalOrder("EUR-24", "a sweep needs at least one sweeping fighter")
    if not defenders:
        raise IllegalOrder("EUR-24", "there are no enemy fighters to sweep")
    used = [s for s, _ in pairings]
    if sorted(used) != sorted(sweepers):
        raise IllegalOrder("EUR-24", "each sweeping fighter picks exactly one enemy fighter")
    counts = dict.fromkeys(defenders, 0)
    for _, d in pairings:
        if d not in counts:
            raise IllegalOrder("EUR-24", f"{d!r} is not one of the enemy fighters swept")
        counts[d] += 1
    if max(counts.values()) - min(counts.values()) > 1:
        raise IllegalOrder("EUR-24", "sweepers must be spread as evenly as possible "
                                     f"(engagements {counts})")


def can_sweep(sweepers: Sequence[str], defenders: Sequence[str],
              pairings: Sequence[tuple[str, str]]) -> bool:
    try:
        verify_sweep_pairings(sweepers, defenders, pairings)
    except IllegalOrder:
        return False
    return True


@dataclass(frozen=True, slots=True)
class SweepResult:
    """EUR-24 Record of a sweep: every fight, the enemy fighters removed and those that stay."""

    fights: tuple[Fight, ...]
    defenders_removed: tuple[str, ...]
    defenders_remaining: tuple[str, ...]
    sweepers_hit: tuple[tuple[str, AirResult], ...]
    sweepers_returned: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"rule": "EUR-24", "fights": [f.to_json() for f in self.fights],
                "defenders_removed": list(self.defenders_removed),
                "defenders_remaining": list(self.defenders_remaining),
                "sweepers_hit": {k: v.value for k, v in self.sweepers_hit},
                "sweepers_returned": list(self.sweepers_returned)}


def fighter_sweep(sweepers: Sequence[AirUnit], defenders: Sequence[AirUnit],
                  pairings: Sequence[tuple[str, str]], rolls: Sequence[int],
                  table: Table | None = None) -> SweepResult:
    """EUR-24 (Air phase) Fighter sweep: one round of air-to-air combat.

    Fight ``i`` uses ``rolls[2i]`` (the sweeper's fire) and ``rolls[2i+1]`` (the defender's
    fire back). The defender fires at every sweeper engaging it; each sweeper fires once and
    returns to base. A defender stays unless an R, A or X is scored against it.
    """
    t = table if table is not None else air_combat_table()
    sw, df = _by_id(sweepers, "sweepers"), _by_id(defenders, "defenders")
    verify_sweep_pairings(list(sw), list(df), pairings)
    _rolls(rolls, 2 * len(pairings))
    fights = tuple(fight(sw[s], df[d], rolls[2 * i], rolls[2 * i + 1], t)
                   for i, (s, d) in enumerate(pairings))
    removed = {f.target for f in fights if f.vs_target.removes}
    hit = tuple((f.attacker, f.vs_attacker) for f in fights if f.vs_attacker.removes)
    lost = {a for a, r in hit if r is AirResult.ELIMINATED}
    return SweepResult(fights, tuple(d for d in df if d in removed),
                       tuple(d for d in df if d not in removed), hit,
                       tuple(s for s in sw if s not in lost))


def sweep_removal_chance(sweeper_ratings: Sequence[int], defender: int,
                         table: Table | None = None) -> Fraction:
    """EUR-24 Exact chance a defending fighter engaged by sweepers of ``sweeper_ratings`` is
    removed: one minus the chance that no sweeper scores R, A or X.

    >>> sweep_removal_chance([3], 3)
    Fraction(5, 12)
    """
    stay = Fraction(1)
    for s in sweeper_ratings:
        stay *= 1 - removal_chance(s, defender, table)
    return 1 - stay


# --- EUR-25 interception and escorts -------------------------------------------------------------

def interception_range(range_hexes: int) -> int:
    """EUR-25 Interceptors reach ½ their listed range (rounded down) from their patrol hex or
    ready airbase.

    >>> interception_range(9), interception_range(10)
    (4, 5)
    """
    if isinstance(range_hexes, bool) or not isinstance(range_hexes, int) or range_hexes < 0:
        raise InputError("range_hexes", f"must be a non-negative integer, not {range_hexes!r}")
    return range_hexes // 2


def verify_interception(distance: int, range_hexes: int) -> None:
    """EUR-25 A patrol or ready fighter may intercept a mission within ½ its range."""
    if isinstance(distance, bool) or not isinstance(distance, int) or distance < 0:
        raise InputError("distance", f"must be a non-negative integer, not {distance!r}")
    reach = interception_range(range_hexes)
    if distance > reach:
        raise IllegalOrder("EUR-25", f"mission is {distance} hexes away; interception reaches "
                                     f"{reach} (half of range {range_hexes})")


def can_intercept(distance: int, range_hexes: int) -> bool:
    """EUR-25 Whether a fighter ``distance`` hexes from the mission may intercept it."""
    try:
        verify_interception(distance, range_hexes)
    except IllegalOrder:
        return False
    return True


@dataclass(frozen=True, slots=True)
class Mission:
    """A phasing air mission: escorting fighters and strike units (bombers, or fighters on a
    strike mission, which interceptors may target or ignore like any bombing group)."""

    id: str
    kind: MissionKind
    escorts: tuple[AirUnit, ...] = ()
    strikers: tuple[AirUnit, ...] = ()


def strike_value(mission: Mission, strategic: bool = False) -> int:
    """EUR-25 A mission's bombing strength: strike units only; escorts add no strike value."""
    return sum(u.strategic if strategic else u.tactical for u in mission.strikers)


def verify_targets(interceptors: Sequence[str], allowed: Sequence[str],
                   targets: Mapping[str, str], what: str) -> None:
    for i, tgt in targets.items():
        if i not in interceptors:
            raise IllegalOrder("EUR-25", f"{i!r} is not an intercepting fighter")
        if tgt not in allowed:
            raise IllegalOrder("EUR-25", f"{i!r} may only attack {what} ({', '.join(allowed)})"
                                         f", not {tgt!r}")


@dataclass(frozen=True, slots=True)
class InterceptionResult:
    """EUR-25 Record of an interception: the escort round, the strike round, what is left."""

    mission: str
    escort_fights: tuple[Fight, ...]
    strike_fights: tuple[Fight, ...]
    escorts_remaining: tuple[str, ...]
    strikers_remaining: tuple[str, ...]
    interceptors_remaining: tuple[str, ...]
    strike_value: int
    rolls_used: int

    def to_json(self) -> dict[str, object]:
        return {"rule": "EUR-25", "mission": self.mission,
                "escort_fights": [f.to_json() for f in self.escort_fights],
                "strike_fights": [f.to_json() for f in self.strike_fights],
                "escorts_remaining": list(self.escorts_remaining),
                "strikers_remaining": list(self.strikers_remaining),
                "interceptors_remaining": list(self.interceptors_remaining),
                "strike_value": self.strike_value, "rolls_used": self.rolls_used}


def intercept(interceptors: Sequence[AirUnit], mission: Mission,
              escort_targets: Mapping[str, str], strike_targets: Mapping[str, str],
              rolls: Sequence[int], readings: AirPhaseReadings = AirPhaseReadings(),
              table: Table | None = None) -> InterceptionResult:
    """EUR-25 (Air phase) Interception and escorts ("escorting" read as "intercepting").

    While the mission has escorts, every interceptor must attack an escort (one attack each,
    ``escort_targets``; all of them must be assigned). Only when no escorts remain does each
    remaining interceptor attack one strike unit, one round (``strike_targets``, standing
    orders flown only then; with the reading ``after_escorts = none`` interceptors that fought
    escorts are done). Rolls are used two per fight (interceptor's fire, target's fire back),
    escort round first; ``rolls_used`` says how many.
    """
    t = table if table is not None else air_combat_table()
    ic = _by_id(interceptors, "interceptors")
    es = _by_id(mission.escorts, "escorts")
    st = _by_id(mission.strikers, "strikers")
    if not ic:
        raise IllegalOrder("EUR-25", "an interception needs at least one fighter")
    used = 0
    escort_fights: list[Fight] = []
    if es:
        verify_targets(list(ic), list(es), escort_targets, "escorting fighters")
        if set(escort_targets) != set(ic):
            raise IllegalOrder("EUR-25", "every interceptor must first attack an escort")
        _rolls(rolls, 2 * len(ic))
        for i in ic:
            escort_fights.append(fight(ic[i], es[escort_targets[i]], rolls[used],
                                       rolls[used + 1], t))
            used += 2
    elif escort_targets:
        raise IllegalOrder("EUR-25", "the mission has no escorts")
    escorts_out = {f.target for f in escort_fights if f.vs_target.removes}
    ic_out = {f.attacker for f in escort_fights if f.vs_attacker.removes}
    escorts_left = tuple(e for e in es if e not in escorts_out)
    strike_fights: list[Fight] = []
    # strike targets are standing orders: checked now, flown only if the escorts are gone;
    # interceptors removed by the escorts do not fly on
    verify_targets(list(ic), list(st), strike_targets, "strike units")
    may_strike = not escorts_left and (not es or readings.after_escorts
                                       is AfterEscorts.BOMBERS_IF_CLEARED)
    if may_strike:
        pending = [i for i in ic if i not in ic_out and i in strike_targets]
        _rolls(rolls, used + 2 * len(pending))
        for i in pending:
            strike_fights.append(fight(ic[i], st[strike_targets[i]], rolls[used],
                                       rolls[used + 1], t))
            used += 2
    struck = {f.target for f in strike_fights if f.vs_target.removes}
    ic_out |= {f.attacker for f in strike_fights if f.vs_attacker.removes}
    strikers_left = tuple(s for s in st if s not in struck)
    left = Mission(mission.id, mission.kind, tuple(es[e] for e in escorts_left),
                   tuple(st[s] for s in strikers_left))
    return InterceptionResult(mission.id, tuple(escort_fights), tuple(strike_fights),
                              escorts_left, strikers_left,
                              tuple(i for i in ic if i not in ic_out),
                              strike_value(left, mission.kind is MissionKind.STRATEGIC_BOMBING),
                              used)


# --- EUR-23 air phase order ----------------------------------------------------------------------

class AirStep(StrEnum):
    """EUR-23 The steps of the air phase, in order."""

    MISSIONS = "missions"  # phasing player moves air units to mission hexes
    SWEEP = "sweep"
    INTERCEPTION = "interception"  # the non-phasing player acts
    GROUND_SUPPORT = "ground_support"
    INTERDICTION = "interdiction"
    AIRBASE_ATTACK = "airbase_attack"
    STRATEGIC_BOMBING = "strategic_bombing"
    REPAIR = "repair"  # EUR-27: airbase hits repaired after the owner's air phase


AIR_PHASE_ORDER: tuple[AirStep, ...] = tuple(AirStep)


class MissionKind(StrEnum):
    """EUR-23 Phasing-player air missions."""

    SWEEP = "sweep"
    GROUND_SUPPORT = "ground_support"
    INTERDICTION = "interdiction"
    AIRBASE_ATTACK = "airbase_attack"
    STRATEGIC_BOMBING = "strategic_bombing"


MISSION_STEP: Mapping[MissionKind, AirStep] = {
    MissionKind.SWEEP: AirStep.SWEEP,
    MissionKind.GROUND_SUPPORT: AirStep.GROUND_SUPPORT,
    MissionKind.INTERDICTION: AirStep.INTERDICTION,
    MissionKind.AIRBASE_ATTACK: AirStep.AIRBASE_ATTACK,
    MissionKind.STRATEGIC_BOMBING: AirStep.STRATEGIC_BOMBING,
}


def step_player(step: AirStep | str) -> str:
    """EUR-23 Who acts in ``step``: the non-phasing player intercepts, the phasing player does
    the rest."""
    s = parse_enum(AirStep, step, "step")
    return "non_phasing" if s is AirStep.INTERCEPTION else "phasing"


@dataclass(frozen=True, slots=True)
class AirPhaseState:
    """Where the air phase stands, and the missions flown so far."""

    step: AirStep = AirStep.MISSIONS
    missions: tuple[tuple[str, MissionKind], ...] = ()


@dataclass(frozen=True, slots=True)
class AirStepEntered:
    rule: str
    from_step: AirStep
    to_step: AirStep


def verify_air_step(state: AirPhaseState, step: AirStep | str) -> None:
    """EUR-23 The air phase only moves forward: sweeps, then interception, then the missions."""
    s = parse_enum(AirStep, step, "step")
    if AIR_PHASE_ORDER.index(s) < AIR_PHASE_ORDER.index(state.step):
        raise IllegalOrder("EUR-23", f"the {s.value} step is over (now {state.step.value})")


def can_air_step(state: AirPhaseState, step: AirStep | str) -> bool:
    try:
        verify_air_step(state, step)
    except IllegalOrder:
        return False
    return True


def air_step(state: AirPhaseState, step: AirStep | str) -> tuple[AirPhaseState, AirStepEntered]:
    """EUR-23 Advance the air phase to ``step``."""
    verify_air_step(state, step)
    s = AirStep(step)
    return replace(state, step=s), AirStepEntered("EUR-23", state.step, s)


def verify_assign_mission(state: AirPhaseState, mission_id: str, kind: MissionKind | str) -> None:
    """EUR-23 Missions are assigned (units moved to mission hexes) before any sweep resolves."""
    parse_enum(MissionKind, kind, "kind")
    if state.step is not AirStep.MISSIONS:
        raise IllegalOrder("EUR-23", "missions are assigned before sweeps and interceptions")
    if any(m == mission_id for m, _ in state.missions):
        raise IllegalOrder("EUR-23", f"mission {mission_id!r} is already assigned")


def assign_mission(state: AirPhaseState, mission_id: str, kind: MissionKind | str
                   ) -> AirPhaseState:
    """EUR-23 Record a mission assignment."""
    verify_assign_mission(state, mission_id, kind)
    return replace(state, missions=(*state.missions, (mission_id, MissionKind(kind))))


def verify_resolve_mission(state: AirPhaseState, kind: MissionKind | str) -> None:
    """EUR-23 A mission resolves in its own step: sweeps first, then (after interception)
    ground support, interdiction, airbase attacks, strategic bombing."""
    k = parse_enum(MissionKind, kind, "kind")
    if state.step is not MISSION_STEP[k]:
        raise IllegalOrder("EUR-23", f"{k.value} missions resolve in the "
                                     f"{MISSION_STEP[k].value} step, not {state.step.value}")


def mission_order(kinds: Sequence[MissionKind | str]) -> tuple[MissionKind, ...]:
    """EUR-23 Missions sorted into the order the air phase resolves them.

    >>> [k.value for k in mission_order(["strategic_bombing", "sweep", "interdiction"])]
    ['sweep', 'interdiction', 'strategic_bombing']
    """
    ks = [parse_enum(MissionKind, k, "kind") for k in kinds]
    return tuple(sorted(ks, key=lambda k: AIR_PHASE_ORDER.index(MISSION_STEP[k])))
