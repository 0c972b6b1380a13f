"""Readings (C-CONFIG): the typed switches for every ambiguity RULES.md names.

Each rule system defines one frozen dataclass of its switches, subclassing :class:`Readings`,
with RULES.md's default reading as each field's default. A game records the readings it was
played under (``to_mapping``) and a replay restores them (``from_mapping``). Readings are always
passed explicitly to the functions that need them; there is no global.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Demo(Readings):
...     rounding: str = "ceil"
...     cap: int = 40
>>> Demo.from_mapping({"cap": 50})
Demo(rounding='ceil', cap=50)
>>> Demo.from_mapping({"nope": 1})
Traceback (most recent call last):
...
grognard.core.errors.InputError: readings.nope: unknown reading (known: cap, rounding)
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Mapping
from typing import Any, Self, get_type_hints

from grognard.core.errors import InputError, parse_enum


@dataclasses.dataclass(frozen=True)
class Readings:
    """Base of every system's readings: typed fields with documented defaults."""

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any], prefix: str = "readings") -> Self:
        hints = _hints(cls)
        fields = {f.name: f for f in dataclasses.fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in fields:
                raise InputError(
                    f"{prefix}.{key}", f"unknown reading (known: {', '.join(sorted(fields))})"
                )
            kind = hints[key]
            kwargs[key] = _coerce(kind, value, f"{prefix}.{key}")
        return cls(**kwargs)

    def to_mapping(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.value if isinstance(v, enum.Enum) else v
        return out


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """A readings class's field types, resolved once (a class's annotations never change)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = get_type_hints(cls)
    return hints


def _coerce(kind: Any, value: Any, where: str) -> Any:
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return parse_enum(kind, value, where)
    if kind is bool:
        if not isinstance(value, bool):
            raise InputError(where, f"expected true or false, not {value!r}")
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(where, f"expected an integer, not {value!r}")
        return value
    if kind is str:
        if not isinstance(value, str):
            raise InputError(where, f"expected a string, not {value!r}")
        return value
    if isinstance(value, list):
        return tuple(value)
    return value


def parse_pairs(pairs: list[str] | tuple[str, ...] | None, field: str = "--reading"
                ) -> dict[str, Any]:
    """``KEY=VALUE`` strings (a CLI's repeated ``--reading``) as a mapping for
    :meth:`Readings.from_mapping`: ``true``/``false`` become booleans, whole numbers ints.

    >>> parse_pairs(["a=true", "b=3", "c=floor"])
    {'a': True, 'b': 3, 'c': 'floor'}
    """
    raw: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise InputError(field, f"expected KEY=VALUE, not {pair!r}")
        key, value = (p.strip() for p in pair.split("=", 1))
        parsed: Any = value
        if value.lower() in ("true", "false"):
            parsed = value.lower() == "true"
        elif re.fullmatch(r"-?[0-9]{1,64}", value):  # ASCII digits only ("²" is a digit too)
            parsed = int(value)
        raw[key] = parsed
    return raw
