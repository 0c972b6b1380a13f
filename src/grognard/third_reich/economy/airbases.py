"""TR-65 ("Building airbases"): airbase markers.

In the build phase a power may build an airbase for 2 BRPs (``tr_price_list`` "airbase") in an
in-supply non-city hex holding a friendly ground unit. It lasts until an enemy ground unit
enters the hex or its owner removes it; at most 3 per power (``tr_air_values``
"airbase_limit"), and the owner may remove one in the build phase to build another. An
airbase lets 5 air factors operate as from a city (TR-29 stacking) and allows airborne
operations (TR-51/TR-53); it never moves and is usable at once (e.g. air SR the same turn).

>>> s, rec = build_airbase(Airbases(), "germany", "axis", "0405", city=False, in_supply=True,
...                        friendly_ground=True)
>>> rec.cost, s.of_power("germany")
(2, ('0405',))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.core.tables import Table
from grognard.third_reich.air_naval.air_basing import air_value
from grognard.third_reich.turn.forces import Side
from grognard.third_reich.turn.options import price

RULE = "TR-65"


@dataclass(frozen=True, slots=True)
class Airbase:
    hex: str
    power: str
    side: Side


@dataclass(frozen=True, slots=True)
class Airbases:
    """TR-65 The airbase markers in play (immutable)."""

    bases: tuple[Airbase, ...] = field(default_factory=tuple)

    def of_power(self, power: str) -> tuple[str, ...]:
        return tuple(b.hex for b in self.bases if b.power == power)

    def at(self, hex_label: str) -> Airbase | None:
        return next((b for b in self.bases if b.hex == hex_label), None)

    def to_json(self) -> list[dict[str, Any]]:
        return [{"hex": b.hex, "power": b.power, "side": str(b.side)} for b in self.bases]

    @classmethod
    def from_json(cls, raw: Any) -> Airbases:
        if not isinstance(raw, list):
            raise InputError("airbases", "expected a list of {hex, power, side}")
        out = []
        for i, r in enumerate(raw):
            if not isinstance(r, Mapping) or "hex" not in r or "power" not in r:
                raise InputError(f"airbases[{i}]", "needs hex and power")
            out.append(Airbase(str(r["hex"]), str(r["power"]),
                               parse_enum(Side, r.get("side"), f"airbases[{i}].side")))
        return cls(tuple(out))


@dataclass(frozen=True, slots=True)
class AirbaseBuilt:
    """TR-65: an airbase built (and the one removed to make room, if any)."""

    power: str
    hex: str
    cost: int
    removed: str | None


def verify_build_airbase(state: Airbases, power: str, side: Side | str, hex_label: str, *,
                         city: bool, in_supply: bool, friendly_ground: bool,
                         remove: str | None = None, table: Table | None = None) -> None:
    """TR-65 Build in an in-supply non-city hex with a friendly ground unit, not on another
    airbase, within the 3-per-power limit (``remove`` one of the power's own first)."""
    parse_enum(Side, side, "side")
    if city:
        raise IllegalOrder(RULE, "airbases are never built in a city hex")
    if not in_supply:
        raise IllegalOrder(RULE, "the hex must be in supply")
    if not friendly_ground:
        raise IllegalOrder(RULE, "the hex must contain a friendly ground unit")
    if state.at(hex_label) is not None and hex_label != remove:
        raise IllegalOrder(RULE, f"{hex_label} already has an airbase")
    mine = state.of_power(power)
    if remove is not None and remove not in mine:
        raise IllegalOrder(RULE, f"{power} has no airbase at {remove} to remove")
    limit = air_value("airbase_limit", table)
    if len(mine) - (remove is not None) >= limit:
        raise IllegalOrder(RULE, f"{power} already has {limit} airbases; remove one first")


def can_build_airbase(state: Airbases, power: str, side: Side | str, hex_label: str, *,
                      city: bool, in_supply: bool, friendly_ground: bool,
                      remove: str | None = None, table: Table | None = None) -> bool:
    """TR-65 May ``power`` build an airbase at ``hex_label``?"""
    try:
        verify_build_airbase(state, power, side, hex_label, city=city, in_supply=in_supply,
                             friendly_ground=friendly_ground, remove=remove, table=table)
    except IllegalOrder:
        return False
    return True


def build_airbase(state: Airbases, power: str, side: Side | str, hex_label: str, *,
                  city: bool, in_supply: bool, friendly_ground: bool,
                  remove: str | None = None, table: Table | None = None,
                  prices: Table | None = None) -> tuple[Airbases, AirbaseBuilt]:
    """TR-65 Build an airbase (2 BRPs), removing ``remove`` first if given."""
    verify_build_airbase(state, power, side, hex_label, city=city, in_supply=in_supply,
                         friendly_ground=friendly_ground, remove=remove, table=table)
    s = parse_enum(Side, side, "side")
    kept = tuple(b for b in state.bases if not (remove is not None and b.hex == remove))
    return (Airbases((*kept, Airbase(hex_label, power, s))),
            AirbaseBuilt(power, hex_label, price("airbase", prices), remove))


def remove_airbase(state: Airbases, power: str, hex_label: str) -> Airbases:
    """TR-65 The owner removes one of its airbases."""
    if hex_label not in state.of_power(power):
        raise IllegalOrder(RULE, f"{power} has no airbase at {hex_label}")
    return Airbases(tuple(b for b in state.bases if b.hex != hex_label))


def enemy_ground_enters(state: Airbases, hex_label: str, entering_side: Side | str
                        ) -> tuple[Airbases, Airbase | None]:
    """TR-65 An enemy ground unit entering the hex destroys the airbase there."""
    s = parse_enum(Side, entering_side, "entering_side")
    b = state.at(hex_label)
    if b is None or b.side is s:
        return state, None
    return Airbases(tuple(x for x in state.bases if x is not b)), b


__all__ = [
    "Airbase", "AirbaseBuilt", "Airbases", "build_airbase", "can_build_airbase",
    "enemy_ground_enters", "remove_airbase", "verify_build_airbase",
]
