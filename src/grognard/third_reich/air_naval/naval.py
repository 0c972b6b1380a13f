"""TR-55 ("The new interception chances by range"; "Naval interception").

Non-phasing fleets left inactive in port may try to intercept the phasing force at its
ending location. All attempts are declared before any is resolved; all fleets of one port
roll once (1D6) and intercept as a body; the chance falls with range (published table
``tr_interception``): 1-5 hexes on 1-5, 6-10 on 1-4, 11-15 on 1-3, 16-20 on 1-2, 21-25 on 1,
beyond that impossible. Successful interceptors from every port fight the entire phasing
force together at the interception hex; failed ones stay in port.

>>> [interception_number(r) for r in (1, 5, 6, 10, 11, 15, 16, 20, 21, 25, 26)]
[5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0]
>>> intercept_attempt(12, 3), intercept_attempt(12, 4)
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from grognard.core.errors import IllegalOrder, InputError, TableError
from grognard.core.tables import Table, TableSet, load_tables
from grognard.third_reich.turn.combat_readings import TRCombatReadings
from grognard.third_reich.turn.forces import Fleet

DEFAULT_READINGS = TRCombatReadings()
DIE_SIDES = 6


def interception_table(tables: TableSet | None = None,
                       readings: TRCombatReadings = DEFAULT_READINGS) -> Table:
    """The published interception chances (replaceable with ``--tables``)."""
    ts = tables if tables is not None else load_tables()
    return ts.get(readings.tr_interception_table)


def interception_number(range_hexes: int, table: Table | None = None) -> int:
    """TR-55: the highest 1D6 roll that intercepts at ``range_hexes`` (0 = impossible).

    Range 0 (the target in the port's own hex) counts in the first band (reading).
    """
    if isinstance(range_hexes, bool) or not isinstance(range_hexes, int) or range_hexes < 0:
        raise InputError("range", f"range in hexes must be a non-negative integer, "
                         f"not {range_hexes!r}")
    t = table if table is not None else interception_table()
    r = max(range_hexes, 1)
    for key in t.row_keys:
        lo, hi, on = (t.lookup(key, c) for c in ("min_range", "max_range", "intercept_on"))
        if not all(isinstance(v, int) for v in (lo, hi, on)):
            raise TableError("range bands and chances must be integers", table=t.id, row=key)
        if int(lo) <= r <= int(hi):
            return int(on)
    return 0


def intercept_attempt(range_hexes: int, roll: int, table: Table | None = None) -> bool:
    """TR-55 (Naval interception) One port's interception roll: success if 1D6 ≤ the chance."""
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= DIE_SIDES:
        raise InputError("roll", f"a 1D6 roll is 1..6, not {roll!r}")
    return roll <= interception_number(range_hexes, table)


def interception_probability(range_hexes: int, table: Table | None = None) -> Fraction:
    """TR-55: the exact chance that one port's fleets intercept at ``range_hexes``."""
    return Fraction(min(interception_number(range_hexes, table), DIE_SIDES), DIE_SIDES)


@dataclass(frozen=True, slots=True)
class InterceptionAttempt:
    """A declared attempt: every fleet of one port against one phasing target."""

    port: str
    fleets: tuple[Fleet, ...]
    target: str
    range_hexes: int


def verify_interceptions(attempts: Sequence[InterceptionAttempt]) -> None:
    """TR-55: each port rolls once for its fleets (one attempt per port), fleets in port only."""
    seen: set[str] = set()
    for a in attempts:
        if a.port in seen:
            raise IllegalOrder("TR-55", f"port {a.port} declares two attempts; all fleets of one "
                               "port intercept as a body with one roll")
        seen.add(a.port)
        if not a.fleets:
            raise IllegalOrder("TR-55", f"port {a.port} declares an attempt without fleets")
        if a.range_hexes < 0:
            raise InputError("range", "cannot be negative")


@dataclass(frozen=True, slots=True)
class InterceptionRoll:
    port: str
    target: str
    range_hexes: int
    roll: int
    needed: int
    intercepted: bool


@dataclass(frozen=True, slots=True)
class InterceptionBattle:
    """The combined interceptors that fight one phasing target at the interception hex."""

    target: str
    fleets: tuple[Fleet, ...]

    @property
    def factors(self) -> int:
        return sum(f.factors for f in self.fleets)


def resolve_interceptions(
    attempts: Sequence[InterceptionAttempt],
    rolls: Mapping[str, int],
    table: Table | None = None,
) -> tuple[tuple[InterceptionRoll, ...], tuple[InterceptionBattle, ...]]:
    """TR-55 (Naval interception) Resolve every declared attempt, then form the battles.

    ``rolls`` gives one 1D6 per port. All attempts are declared first (the whole list is
    checked before any roll is read); the successful fleets of all ports against one target
    then fight it together; failed fleets stay in port.
    """
    verify_interceptions(attempts)
    missing = [a.port for a in attempts if a.port not in rolls]
    if missing:
        raise InputError("rolls", f"no roll for port(s) {', '.join(missing)}")
    results = []
    battles: dict[str, list[Fleet]] = {}
    for a in attempts:
        needed = interception_number(a.range_hexes, table)
        ok = intercept_attempt(a.range_hexes, rolls[a.port], table)
        results.append(InterceptionRoll(a.port, a.target, a.range_hexes, rolls[a.port],
                                        needed, ok))
        if ok:
            battles.setdefault(a.target, []).extend(a.fleets)
    return tuple(results), tuple(InterceptionBattle(t, tuple(f)) for t, f in battles.items())
