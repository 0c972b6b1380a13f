"""Events: what happened. Each records every choice and die roll, so replays never recompute.

A system's folds (:data:`Fold`) apply its events to the state: **in place**, returning the
state (a fold may return a new object, the game uses what it returns), depending only on the
state and the event; each declares what it writes of the unit table (:func:`writes_units`).
Each event kind's payload (``Event.data``) is declared in its system's ``state_types`` module
(``EVENTS``: kind -> ``TypedDict``), and the state they fold into beside it;
tests/engine/test_state_types.py checks recorded games against both."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

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


@dataclass(frozen=True, slots=True)
class UnitWrites:
    """What a fold (or an after-event rule) writes in the state's unit table
    (``state["units"]``, a table of flat records changed in place): the whole records of the
    units ``named(event)`` gives (their fields, a new record, or one removed), and the
    ``fields`` of any unit (for example every unit's ``mp_spent`` at a phase's end). A fold
    that declares nothing may write anything: the game then counts every unit as changed.

    The game journals these per command (:class:`grognard.engine.context.UnitsLog`), so a fact
    made from the units (a placement key, the enemy units' hexes) is brought up to date unit by
    unit instead of being made again from every unit (:meth:`Context.unit_index`)."""

    named: Callable[[Event], Iterable[str]] | None = None
    fields: frozenset[str] = frozenset()


#: The declaration of a fold or after-event rule that writes no unit record.
NO_UNIT_WRITES = UnitWrites()

F = TypeVar("F", bound=Callable[..., object])


def writes_units(named: Callable[[Event], Iterable[str]] | None = None,
                 fields: Iterable[str] = ()) -> Callable[[F], F]:
    """Declare on a fold (or an after-event rule) what it writes of the unit table
    (:class:`UnitWrites`); ``@writes_units()``: nothing. A test folds every event of random
    games of each system and checks each declaration against the records that changed."""
    declared = UnitWrites(named, frozenset(fields))

    def mark(fn: F) -> F:
        fn.unit_writes = declared  # type: ignore[attr-defined]
        return fn
    return mark


def unit_writes(fn: object) -> UnitWrites | None:
    """The :class:`UnitWrites` declared on ``fn`` (None: none, so it may write any unit)."""
    found = getattr(fn, "unit_writes", None)
    return found if isinstance(found, UnitWrites) else None


def named_unit(ev: Event) -> Iterable[str]:
    """The unit an event names in its ``unit`` field (a move's mover)."""
    return (str(ev.data["unit"]),)
