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

    def cached(self, key: str, make: Callable[[], T]) -> T:
        """``make()`` once per position (the game clears the cache after every command)."""
        if key not in self.cache:
            self.cache[key] = make()
        value: T = self.cache[key]
        return value

    @property
    def turn_sequence(self) -> TurnSequence:
        """The sequence in force: the system's default unless the scenario gives its own."""
        return self.sequence or self.scenario.sequence
