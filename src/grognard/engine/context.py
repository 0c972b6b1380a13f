"""What a command needs besides the state: the scenario, the tables in force, the readings."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from grognard.core.tables import TableSet, load_tables
from grognard.engine.phases import TurnSequence
from grognard.engine.scenario import Scenario

T = TypeVar("T")


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

    @property
    def turn_sequence(self) -> TurnSequence:
        """The sequence in force: the system's default unless the scenario gives its own."""
        return self.sequence or self.scenario.sequence
