"""Revised Third Reich combat forces: ground units, air units and fleets as small values.

3R counters carry one combat factor (attack = defense) and a movement allowance, e.g. a
``2-3`` infantry corps or a ``4-5`` armor corps; air units are ``5-4`` air fleets (5 factors,
range 4) and fleets have up to 9 naval factors. These values feed the combat rules
(:mod:`grognard.third_reich.combat.combat`, :mod:`~grognard.third_reich.combat.attrition`, ...).

>>> GroundUnit("ge1", "german", "axis", GroundKind.INFANTRY, 1, 3).counts_half
True
>>> GroundUnit.from_json({"id": "pz", "nationality": "german", "side": "axis",
...                       "kind": "armor", "factors": 4, "movement": 5}).is_armor
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from grognard.core.errors import InputError, parse_enum


class GroundKind(StrEnum):
    """3R ground unit types that matter to combat."""

    INFANTRY = "infantry"
    ARMOR = "armor"
    AIRBORNE = "airborne"
    MARINE = "marine"
    REPLACEMENT = "replacement"


class Side(StrEnum):
    AXIS = "axis"
    ALLIES = "allies"


E = TypeVar("E", bound=StrEnum)

FINNISH = frozenset({"finnish", "finland"})


def _int_field(raw: Mapping[str, Any], key: str, where: str, default: int | None = None,
               minimum: int = 0) -> int:
    if key not in raw:
        if default is None:
            raise InputError(f"{where}.{key}", "is required")
        return default
    v = raw[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise InputError(f"{where}.{key}", f"expected an integer, not {v!r}")
    if v < minimum:
        raise InputError(f"{where}.{key}", f"must be at least {minimum}, not {v}")
    return v


def as_enum(kind: type[E], value: Any, field: str) -> E:
    """``value`` as a member of ``kind``; otherwise an :class:`InputError` naming ``field``."""
    return parse_enum(kind, value, field)


def enum_field(raw: Mapping[str, Any], key: str, kind: type[StrEnum], where: str,
                default: str | None = None) -> Any:
    v = raw.get(key, default)
    if v is None:
        raise InputError(f"{where}.{key}", "is required")
    return parse_enum(kind, v, f"{where}.{key}")


@dataclass(frozen=True, slots=True)
class GroundUnit:
    """A 3R ground counter: ``factors`` is both its attack and its defense strength."""

    id: str
    nationality: str
    side: Side
    kind: GroundKind
    factors: int
    movement: int = 3

    def __post_init__(self) -> None:
        if isinstance(self.factors, bool) or not isinstance(self.factors, int) or self.factors < 0:
            raise InputError("factors", f"unit {self.id}: factors must be a non-negative integer")
        if self.movement < 0:
            raise InputError("movement", f"unit {self.id}: movement cannot be negative")

    @property
    def is_armor(self) -> bool:
        return self.kind is GroundKind.ARMOR

    @property
    def is_finnish(self) -> bool:
        return self.nationality.lower() in FINNISH

    @property
    def counts_half(self) -> bool:
        """TR-39: a 1-3 infantry unit counts as 1/2 unit for attrition removal."""
        return self.kind is GroundKind.INFANTRY and self.factors == 1 and self.movement == 3

    @classmethod
    def from_json(cls, raw: Mapping[str, Any], where: str = "unit") -> GroundUnit:
        if not isinstance(raw, Mapping):
            raise InputError(where, "expected an object")
        uid = str(raw.get("id", where))
        return cls(
            id=uid,
            nationality=str(raw.get("nationality", "")),
            side=enum_field(raw, "side", Side, where, "axis"),
            kind=enum_field(raw, "kind", GroundKind, where, "infantry"),
            factors=_int_field(raw, "factors", where),
            movement=_int_field(raw, "movement", where, default=3),
        )

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "nationality": self.nationality, "side": str(self.side),
                "kind": str(self.kind), "factors": self.factors, "movement": self.movement}


@dataclass(frozen=True, slots=True)
class AirUnit:
    """A 3R air unit (normally a 5-4 air fleet): ``factors`` current air factors."""

    id: str
    factors: int
    range: int = 4

    def __post_init__(self) -> None:
        if isinstance(self.factors, bool) or not isinstance(self.factors, int) or self.factors < 0:
            raise InputError("factors", f"air unit {self.id}: factors must be a non-negative "
                             "integer")

    @classmethod
    def from_json(cls, raw: Mapping[str, Any], where: str = "air") -> AirUnit:
        if not isinstance(raw, Mapping):
            raise InputError(where, "expected an object")
        return cls(str(raw.get("id", where)), _int_field(raw, "factors", where),
                   _int_field(raw, "range", where, default=4))


@dataclass(frozen=True, slots=True)
class Fleet:
    """A 3R fleet: ``factors`` current naval factors (at most 9), ``printed`` its full strength."""

    id: str
    factors: int
    printed: int = 9

    def __post_init__(self) -> None:
        if isinstance(self.factors, bool) or not isinstance(self.factors, int) or self.factors < 0:
            raise InputError("factors", f"fleet {self.id}: factors must be a non-negative integer")
        if self.factors > self.printed:
            raise InputError("factors", f"fleet {self.id}: {self.factors} factors exceed its "
                             f"printed {self.printed}")

    @classmethod
    def from_json(cls, raw: Mapping[str, Any], where: str = "fleet") -> Fleet:
        if not isinstance(raw, Mapping):
            raise InputError(where, "expected an object")
        return cls(str(raw.get("id", where)), _int_field(raw, "factors", where),
                   _int_field(raw, "printed", where, default=9))
