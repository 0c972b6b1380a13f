"""What a command needs besides the state: the scenario, the tables in force, the readings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from grognard.core.tables import TableSet, load_tables
from grognard.engine.phases import TurnSequence
from grognard.engine.scenario import Scenario


@dataclass(frozen=True)
class Context:
    scenario: Scenario
    tables: TableSet = field(default_factory=load_tables)
    readings: Mapping[str, Any] = field(default_factory=dict)
    sequence: TurnSequence | None = None

    @property
    def turn_sequence(self) -> TurnSequence:
        """The sequence in force: the system's default unless the scenario gives its own."""
        return self.sequence or self.scenario.sequence
