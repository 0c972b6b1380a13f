"""Units and stacks (C-UNIT, C-STATUS): small typed value objects.

>>> pz = Unit("pz7", "german", "axis", UnitType.ARMOR, attack=9, defense=10, movement=10,
...           re_size=3, divisional=True, armor=ArmorClass.FULL)
>>> pz.to_cadre().cadre, pz.is_mechanized
(True, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from grognard.core.errors import InputError


class UnitType(StrEnum):
    ARMOR = "armor"
    ARMORED_INFANTRY = "armored_infantry"
    MECHANIZED = "mechanized"
    MOTORIZED = "motorized"
    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    AIRBORNE = "airborne"
    ARTILLERY = "artillery"
    ANTITANK = "antitank"
    ENGINEER = "engineer"
    HQ = "hq"
    SUPPLY = "supply"
    REPLACEMENT = "replacement"
    AIR = "air"
    NAVAL = "naval"
    SUBMARINE = "submarine"
    ASW = "asw"
    BOMBER = "bomber"
    INTERCEPTOR = "interceptor"
    TRANSPORT = "transport"
    BLOCK = "block"


MECHANIZED_TYPES = frozenset(
    {UnitType.ARMOR, UnitType.ARMORED_INFANTRY, UnitType.MECHANIZED, UnitType.MOTORIZED}
)
GROUND_TYPES = frozenset(
    {
        UnitType.ARMOR, UnitType.ARMORED_INFANTRY, UnitType.MECHANIZED, UnitType.MOTORIZED,
        UnitType.INFANTRY, UnitType.CAVALRY, UnitType.AIRBORNE, UnitType.ARTILLERY,
        UnitType.ANTITANK, UnitType.ENGINEER, UnitType.HQ, UnitType.SUPPLY,
        UnitType.REPLACEMENT, UnitType.BLOCK,
    }
)


class ArmorClass(StrEnum):
    """Europa armor effects class: full AEC, limited (50%) AEC, AT, or none."""

    FULL = "full"
    LIMITED = "limited"
    AT = "at"
    NONE = "none"


class SupplyState(StrEnum):
    IN = "in"
    DEFENSIVE = "defensive"
    OUT = "out"


@dataclass(frozen=True, slots=True)
class Unit:
    """One counter (or block). Strengths are printed values; status is in ``flags``."""

    id: str
    nationality: str
    side: str
    type: UnitType
    attack: int = 0
    defense: int = 0
    movement: int = 0
    re_size: Fraction = Fraction(1)
    divisional: bool = False
    cadre: bool = False
    armor: ArmorClass = ArmorClass.NONE
    zoc_class: int = 1
    name: str = ""
    flags: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if not self.id:
            raise InputError("unit.id", "a unit needs an id")
        for f in ("attack", "defense", "movement"):
            if getattr(self, f) < 0:
                raise InputError(f"unit {self.id}.{f}", "must not be negative")
        if Fraction(self.re_size) < 0:
            raise InputError(f"unit {self.id}.re_size", "must not be negative")
        object.__setattr__(self, "re_size", Fraction(self.re_size))

    @property
    def is_mechanized(self) -> bool:
        return self.type in MECHANIZED_TYPES

    @property
    def is_ground(self) -> bool:
        return self.type in GROUND_TYPES

    def has(self, flag: str) -> bool:
        return flag in self.flags

    def with_flags(self, *add: str, remove: Iterable[str] = ()) -> Unit:
        return dataclasses.replace(self, flags=(self.flags - frozenset(remove)) | frozenset(add))

    def to_cadre(self) -> Unit:
        return dataclasses.replace(self, cadre=True)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "nationality": self.nationality,
            "side": self.side,
            "type": str(self.type),
            "attack": self.attack,
            "defense": self.defense,
            "movement": self.movement,
            "re_size": str(self.re_size),
            "divisional": self.divisional,
            "cadre": self.cadre,
            "armor": str(self.armor),
            "zoc_class": self.zoc_class,
            "name": self.name,
            "flags": sorted(self.flags),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any], where: str = "unit") -> Unit:
        """Build a unit from a mapping, naming the bad field on error."""
        uid = raw.get("id")
        if not isinstance(uid, str) or not uid:
            raise InputError(f"{where}.id", "a unit needs a string id")
        w = f"unit {uid}"
        try:
            utype = UnitType(raw.get("type", "infantry"))
        except ValueError:
            raise InputError(
                f"{w}.type", f"unknown unit type {raw.get('type')!r} "
                f"(known: {', '.join(t.value for t in UnitType)})"
            ) from None
        try:
            armor = ArmorClass(raw.get("armor", "none"))
        except ValueError:
            raise InputError(f"{w}.armor", "must be full, limited, at or none") from None
        ints = {}
        for f in ("attack", "defense", "movement", "zoc_class"):
            v = raw.get(f, 1 if f == "zoc_class" else 0)
            if isinstance(v, bool) or not isinstance(v, int):
                raise InputError(f"{w}.{f}", f"must be an integer, not {v!r}")
            top = MAX_ZOC_CLASS if f == "zoc_class" else MAX_FACTOR
            if not 0 <= v <= top:
                raise InputError(f"{w}.{f}", f"must be from 0 to {top}, not {v}")
            ints[f] = v
        rs = raw.get("re_size", 1)
        if isinstance(rs, bool) or not isinstance(rs, int | str):
            raise InputError(f"{w}.re_size", f"not an exact number: {rs!r} (an integer or "
                             "a string such as \"1/2\")")
        try:
            re_size = Fraction(str(rs))
        except (ValueError, ZeroDivisionError):
            raise InputError(f"{w}.re_size", f"not an exact number: {rs!r}") from None
        if not 0 <= re_size <= MAX_FACTOR:
            raise InputError(f"{w}.re_size", f"must be from 0 to {MAX_FACTOR}, not {rs!r}")
        for f in ("divisional", "cadre"):
            if not isinstance(raw.get(f, False), bool):
                raise InputError(f"{w}.{f}", "must be true or false")
        for f in ("nationality", "side", "name"):
            if not isinstance(raw.get(f, ""), str):
                raise InputError(f"{w}.{f}", f"must be a string, not {raw.get(f)!r}")
        flags = raw.get("flags", [])
        if not isinstance(flags, list | tuple | frozenset) or not all(
                isinstance(x, str) for x in flags):
            raise InputError(f"{w}.flags", "must be a list of strings")
        return cls(
            id=uid,
            nationality=str(raw.get("nationality", "")),
            side=str(raw.get("side", "")),
            type=utype,
            re_size=re_size,
            divisional=bool(raw.get("divisional", False)),
            cadre=bool(raw.get("cadre", False)),
            armor=armor,
            name=str(raw.get("name", "")),
            flags=frozenset(raw.get("flags", ())),
            **ints,
        )


#: Highest ZOC class a unit may carry (0 exerts none; the classes are EXTERNAL, see RULES.md).
MAX_ZOC_CLASS = 3
#: Highest combat factor, movement allowance or RE size a unit may carry.
MAX_FACTOR = 999


@dataclass(frozen=True, slots=True)
class Stack:
    """The units in one hex (or box)."""

    units: tuple[Unit, ...]

    @property
    def re_total(self) -> Fraction:
        return sum((u.re_size for u in self.units), Fraction(0))

    def sides(self) -> frozenset[str]:
        return frozenset(u.side for u in self.units)

    def __len__(self) -> int:
        return len(self.units)
