"""What a command needs besides the state: the scenario, the tables in force, the readings."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from grognard.core.tables import TableSet, load_tables
from grognard.engine.phases import TurnSequence
from grognard.engine.scenario import Scenario

T = TypeVar("T")

#: Commands the units log remembers (a fact older than that is made again from every unit).
UNITS_LOG_LENGTH = 64


class UnitsLog:
    """Which unit records of the game's state its folds changed, command by command (issue 22).

    The game follows one unit table, its state's ``state["units"]`` (by identity), and after
    each command notes what that command's folds declare they wrote
    (:class:`~grognard.engine.events.UnitWrites`): the ids of the units whose records
    changed, and fields written in every record; an undeclared fold counts as every unit
    changed. Undo, a restore or a failed fold lose the log (every unit counts as changed), and
    while a command folds nothing is answered. So :meth:`changed_since` says which units may
    differ from what they were at an earlier version, or None when it cannot tell."""

    def __init__(self) -> None:
        self.table: object | None = None
        self.version = 0
        self.folding = False
        self._log: deque[tuple[int, frozenset[str] | None, frozenset[str]]] = deque(
            maxlen=UNITS_LOG_LENGTH)

    def note(self, table: object, named: frozenset[str] | None, fields: frozenset[str]
             ) -> None:
        """A command folded into ``table``: it changed the records of units ``named`` (None:
        any unit) and the ``fields`` of every unit."""
        self.folding = False
        if table is not self.table:
            self.table, named = table, None
        if named is not None and not named and not fields:
            return  # no unit record changed: the version stands
        self.version += 1
        self._log.append((self.version, named, fields))

    def lost(self) -> None:
        """The followed table was replaced or changed untracked: nothing is known."""
        self.table = None
        self.folding = False
        self.version += 1
        self._log.clear()

    def changed_since(self, table: object, version: int, reads: frozenset[str]
                      ) -> frozenset[str] | None:
        """The ids of the units of ``table`` whose records (the fields in ``reads``) may have
        changed since ``version``; None when it is not known (another table, a lost log, a
        version forgotten, a command folding, or a write of a read field in every unit)."""
        if self.folding or table is not self.table or version > self.version:
            return None
        if version == self.version:
            return frozenset()
        if not self._log or self._log[0][0] > version + 1:
            return None
        out: set[str] = set()
        for v, named, fields in reversed(self._log):  # the newest first: usually one or two
            if v <= version:
                break
            if named is None or (fields and not fields.isdisjoint(reads)):
                return None
            out |= named
        return frozenset(out)


@dataclass(frozen=True)
class Context:
    scenario: Scenario
    tables: TableSet = field(default_factory=load_tables)
    readings: Mapping[str, Any] = field(default_factory=dict)
    sequence: TurnSequence | None = None
    #: Facts computed from the current position (forces, ZOC fields, movement ranges), shared
    #: by verify, execute and the legal-action enumerators; the game clears it on every change.
    cache: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)
    #: Facts kept across commands, each under the value of what it depends on (for example
    #: the placement of the enemy units a ZOC field is made from): one entry per name,
    #: replaced when that value changes. The game never clears it; a stale entry is never
    #: served because its key no longer compares equal (see :meth:`keyed`).
    kept: dict[str, tuple[object, Any]] = field(default_factory=dict, compare=False,
                                                hash=False, repr=False)
    #: What the game's folds changed in its unit table, command by command (the game writes
    #: it; :meth:`unit_index` reads it).
    units_log: UnitsLog = field(default_factory=UnitsLog, compare=False, hash=False,
                                repr=False)

    def cached(self, key: str, make: Callable[[], T]) -> T:
        """``make()`` once per position (the game clears the cache after every command)."""
        if key not in self.cache:
            self.cache[key] = make()
        value: T = self.cache[key]
        return value

    def cached_for(self, source: object, key: str, make: Callable[[], T]) -> T:
        """``make()`` once per position, kept with the object it was made from (a state) and
        served only for that same object: a view or a hypothetical copy asking under the same
        key gets its own value. The value is shared: callers must not change it."""
        hit = self.cache.get(key)
        if hit is not None and hit[0] is source:
            same: T = hit[1]
            return same
        value = make()
        self.cache[key] = (source, value)
        return value

    def keyed(self, name: str, key: object, make: Callable[[], T]) -> T:
        """``make()`` kept under ``name`` while ``key`` (a value built from everything
        ``make`` reads: tuples, numbers, strings) compares equal to the one it was made
        with; a new key replaces the entry. Unlike :meth:`cached` this survives commands, so
        a fact is rebuilt only when what it depends on changes. The value is shared: callers
        must not change it."""
        hit = self.kept.get(name)
        if hit is not None and hit[0] == key:
            same: T = hit[1]
            return same
        value = make()
        self.kept[name] = (key, value)
        return value

    def kept_table(self, name: str, *sources: object) -> dict[Any, Any]:
        """A table kept across commands under ``name`` while ``sources`` are the very same
        objects (identity: a game's scenario, tables and parsed readings never change); a new,
        empty table when any differs. Callers fill it with facts that are functions of
        ``sources`` and their own key alone."""
        hit = self.kept.get(name)
        was: tuple[object, ...] = hit[0] if hit is not None else ()  # type: ignore[assignment]
        if hit is None or len(was) != len(sources) or any(
                a is not b for a, b in zip(was, sources, strict=True)):
            hit = self.kept[name] = (sources, {})
        table: dict[Any, Any] = hit[1]
        return table

    def unit_index(self, state: Mapping[str, Any], name: str, reads: Iterable[str],
                   entry: Callable[[str, Any], T]) -> dict[str, T]:
        """``{uid: entry(uid, record)}`` for every unit of ``state["units"]``, in the table's
        order, where ``entry`` reads only the fields ``reads`` of the record. Kept across
        commands under ``name``: for the game's own unit table only the units its folds
        changed since (:class:`UnitsLog`) are read again; any other table (a copy, a view),
        or a change the log cannot tell, is read whole. The value is shared: callers must
        not change it, nor keep it past the position."""
        units: Mapping[str, Any] = state["units"]
        hit = self.kept.get(name)
        log = self.units_log
        if hit is not None and hit[0] is units:
            version, index = hit[1]
            changed = log.changed_since(units, version, frozenset(reads))
            if changed is not None:
                for uid in changed:
                    u = units.get(uid)
                    if u is None:
                        index.pop(uid, None)
                    else:
                        index[uid] = entry(uid, u)
                if len(index) == len(units):
                    self.kept[name] = (units, (log.version, index))
                    same: dict[str, T] = index
                    return same
        made = {uid: entry(uid, u) for uid, u in units.items()}
        self.kept[name] = (units, (log.version, made))
        return made

    @property
    def turn_sequence(self) -> TurnSequence:
        """The sequence in force: the system's default unless the scenario gives its own."""
        return self.sequence or self.scenario.sequence
