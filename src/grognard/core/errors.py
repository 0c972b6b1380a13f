"""One small hierarchy of errors; every one is a ValueError.

The CLI turns any :class:`GrognardError` into one clear line and a non-zero exit.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, TypeVar

E = TypeVar("E", bound=Enum)


class GrognardError(ValueError):
    """Base of every error grognard raises on bad input."""


class ScenarioError(GrognardError):
    """A malformed scenario: names the file, and where known the line, hex or field."""

    def __init__(
        self,
        reason: str,
        *,
        file: str | None = None,
        line: int | None = None,
        hex: str | None = None,
        field: str | None = None,
    ) -> None:
        self.reason = reason
        self.file = file
        self.line = line
        self.hex = hex
        self.field = field
        where = []
        if file:
            where.append(file if line is None else f"{file}:{line}")
        if field:
            where.append(f"field {field}")
        if hex:
            where.append(f"hex {hex}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)


class TableError(GrognardError):
    """A malformed rules table: names the file, table, column and row where known."""

    def __init__(
        self,
        reason: str,
        *,
        file: str | None = None,
        table: str | None = None,
        column: str | None = None,
        row: object | None = None,
    ) -> None:
        self.reason = reason
        self.file = file
        self.table = table
        self.column = column
        self.row = row
        where = []
        if file:
            where.append(file)
        if table:
            where.append(f"table {table}")
        if column is not None:
            where.append(f"column {column}")
        if row is not None:
            where.append(f"row {row}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)


class IllegalOrder(GrognardError):
    """An order the rules forbid: names the rule ID and the reason. State is untouched."""

    def __init__(self, rule: str, reason: str) -> None:
        self.rule = rule
        self.reason = reason
        super().__init__(f"{rule}: {reason}")


class InputError(GrognardError):
    """A bad argument or field to a rule function: names the field."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}")


class DiceError(GrognardError):
    """A die expression that cannot be parsed or rolled."""


def parse_enum(kind: type[E], value: Any, field: str) -> E:
    """``kind(value)``, or an :class:`InputError` naming ``field`` and the allowed values.

    >>> from enum import Enum
    >>> class Weather(Enum):
    ...     CLEAR = "clear"
    ...     MUD = "mud"
    >>> parse_enum(Weather, "mud", "weather")
    <Weather.MUD: 'mud'>
    >>> parse_enum(Weather, "fog", "weather")
    Traceback (most recent call last):
    ...
    grognard.core.errors.InputError: weather: 'fog' is not one of clear, mud
    """
    try:
        return member(kind, value)
    except ValueError:
        allowed = ", ".join(str(m.value) for m in kind)
        raise InputError(field, f"{value!r} is not one of {allowed}") from None


def member(kind: type[E], value: Any) -> E:
    """``kind(value)``: the member itself, or the member of that value read from the enum's
    own table of values first - the steps ``Enum.__new__`` takes before anything else -
    without the metaclass call (the rule code parses tens of thousands of enum values a
    game); anything else (an alias, ``_missing_``, an error) through ``kind(value)``."""
    if type(value) is kind:
        return value
    try:
        got = kind._value2member_map_.get(value)
    except TypeError:  # an unhashable value
        got = None
    return got if got is not None else kind(value)  # type: ignore[return-value]
