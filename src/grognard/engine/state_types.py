"""The generic system's state and event payloads, declared (issue 22 item 2), and the records
every rule system shares: a unit's generic fields, a table roll, a place in the turn sequence.

The state is plain JSON (saved and hashed as canonical JSON by :mod:`grognard.engine.state`);
these ``TypedDict`` s only declare it, at no cost at run time. Each rule system declares its
own in ``<system>/state_types.py``; tests/engine/test_state_types.py checks real games against
them with :func:`grognard.engine.testing.type_errors`.

No ``from __future__ import annotations`` here: Python 3.11 then counts ``NotRequired`` keys
as required in ``__required_keys__``.
"""

from typing import Any, TypedDict

#: A JSON object whose fields the typed object that writes it declares (named where used).
Obj = dict[str, Any]


class GenericUnit(TypedDict):
    """A unit record (``state["units"][id]``) as :func:`grognard.engine.generic.initial_state`
    sets it up from the scenario's ``[[units]]``; a rule system's unit extends it."""

    name: str  # the counter's name
    side: str  # the side that owns it
    nationality: str  # the scenario's nationality
    type: str  # infantry, armor, air ...
    attack: int  # attack factor
    defense: int  # defense factor
    movement: int  # movement allowance
    hex: str | None  # where it stands (None: in a box or off the map)
    box: str | None  # the holding box it is in, or None
    mp_spent: int  # movement points spent this phase (reset at every phase's end)
    hidden: bool  # face down to the opponent (C-HIDDEN)
    status: str  # active / eliminated ...


class TableRolled(TypedDict):
    """``table_rolled``: a roll on a loaded table (``roll_table``), kept in ``state["rolls"]``."""

    table: str
    column: Any  # the column as the table names it (a string or a number)
    drm: int
    dice: list[int]
    natural: int
    modified: int
    result: Any  # the table's entry (a string or a number)
    player: str


class Position(TypedDict):
    """A place in the turn sequence."""

    turn: int
    phase: int


#: ``phase_ended``: from one place in the turn sequence to the next (engine/generic.py).
GenericPhaseEnded = TypedDict("GenericPhaseEnded", {"from": Position, "to": Position})

#: ``unit_moved`` of the generic system.
GenericUnitMoved = TypedDict("GenericUnitMoved", {
    "unit": str, "from": str, "path": list[str], "mp": int})


class GenericState(TypedDict):
    """The generic system's state (every rule system's state has these keys too)."""

    scenario: str  # the scenario's id (never reset)
    system: str  # the rule system's name (never)
    sides: list[str]  # the sides in turn order (never)
    turn: int  # the game turn (phase_ended)
    phase: int  # the index in the turn sequence (phase_ended)
    units: dict[str, GenericUnit]  # every unit by id
    secrets: dict[str, Obj]  # per side, what only it may see (C-HIDDEN)
    rolls: list[TableRolled]  # the table rolls made (never)


#: Every event kind of the generic system -> its payload's declared type.
EVENTS: dict[str, Any] = {"unit_moved": GenericUnitMoved, "table_rolled": TableRolled,
                          "phase_ended": GenericPhaseEnded}
