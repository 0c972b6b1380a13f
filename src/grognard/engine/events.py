"""Events: what happened. Each records every choice and die roll, so replays never recompute."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from grognard.engine.state import JSON


@dataclass(frozen=True, slots=True)
class Event:
    """A record of one state change: its type and its data (JSON), including any dice."""

    type: str
    data: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {"type": self.type, "data": dict(self.data)}

    @classmethod
    def from_json(cls, raw: Mapping[str, JSON]) -> Event:
        return cls(str(raw["type"]), dict(raw.get("data", {})))


Fold = Callable[[JSON, Event], JSON]
"""Return the state after ``event``. A fold may change ``state`` in place and return it (most
do: copying a whole state per event is what made long games slow); the game keeps checkpoints
and rebuilds earlier states by folding the recorded events again, so a fold must depend only on
the state and the event (never on dice, the clock or anything outside them)."""

FoldTable = Mapping[str, Fold]
