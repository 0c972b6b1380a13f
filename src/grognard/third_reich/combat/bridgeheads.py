"""TR-63 ("Bridgeheads").

A bridgehead marker is placed only after a successful amphibious invasion (river
bridgeheads are abolished). Its hex stacks 4 units instead of 2; all 4 may attack out, at
most 2 across any one hexside per phase. It acts as a friendly port (supply, and sea SR while
a friendly fleet escorts in the zone). Each power has at most 3; at the limit it may remove
one to place another. A bridgehead with no enemy unit adjacent is removed at the start of a
friendly turn (reading ``bridgehead_removal_check = start``; ``end`` follows the amphibious
section's "end of any subsequent friendly turn").

>>> s, _ = place_bridgehead(Bridgeheads(), "uk", "Syracuse")
>>> stacking_limit(s, "Syracuse"), stacking_limit(s, "Taranto")
(4, 2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.core.mapdata import MapData
from grognard.core.paths import hex_index
from grognard.third_reich.air_naval.naval_ops import (
    DEFAULT_NAVAL_READINGS,
    NavalReadings,
    RemovalCheck,
)
from grognard.third_reich.combat.amphibious import (
    BRIDGEHEAD_STACKING_LIMIT,
    MAX_UNITS_PER_SEA_HEX,
    STACKING_LIMIT,
)
from grognard.third_reich.turn.powers import Power, parse_power

MAX_BRIDGEHEADS = 3
MAX_ATTACKERS_PER_HEXSIDE = MAX_UNITS_PER_SEA_HEX


@dataclass(frozen=True, slots=True)
class Bridgeheads:
    """TR-63 state: each power's bridgehead hexes, in order of placement."""

    markers: Mapping[Power, tuple[str, ...]] = field(default_factory=dict)

    def of(self, power: Power | str) -> tuple[str, ...]:
        return self.markers.get(parse_power(str(power)), ())

    def owner(self, hex_label: str) -> Power | None:
        for p, hexes in self.markers.items():
            if hex_label in hexes:
                return p
        return None

    def to_json(self) -> dict[str, Any]:
        return {str(p): list(h) for p, h in sorted(self.markers.items()) if h}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Bridgeheads:
        if not isinstance(raw, Mapping):
            raise InputError("bridgeheads", "expected an object power -> [hexes]")
        out: dict[Power, tuple[str, ...]] = {}
        for k, v in raw.items():
            if not isinstance(v, list):
                raise InputError(f"bridgeheads.{k}", "expected a list of hexes")
            out[parse_power(str(k), f"bridgeheads.{k}")] = tuple(str(h) for h in v)
        return cls(out)


@dataclass(frozen=True, slots=True)
class BridgeheadRecord:
    power: Power
    placed: str | None
    removed: tuple[str, ...]
    count: int

    def to_json(self) -> dict[str, Any]:
        return {"power": str(self.power), "placed": self.placed,
                "removed": list(self.removed), "count": self.count}


def _why_not_place(state: Bridgeheads, power: Power, hex_label: str,
                   invasion_succeeded: bool, remove: str | None) -> str | None:
    if not invasion_succeeded:
        return "a bridgehead is placed only after a successful amphibious invasion"
    owner = state.owner(hex_label)
    if owner is not None:
        return f"{hex_label} already holds a {owner} bridgehead"
    mine = state.of(power)
    if remove is not None and remove not in mine:
        return f"{power} has no bridgehead at {remove} to remove"
    if len(mine) >= MAX_BRIDGEHEADS and remove is None:
        return (f"{power} already has {MAX_BRIDGEHEADS} bridgeheads; remove one to place "
                "another")
    return None


def can_place_bridgehead(state: Bridgeheads, power: Power | str, hex_label: str,
                         invasion_succeeded: bool = True, remove: str | None = None) -> bool:
    """TR-63: may ``power`` place a bridgehead at ``hex_label`` (removing ``remove``)?"""
    return _why_not_place(state, parse_power(str(power)), hex_label, invasion_succeeded,
                          remove) is None


def verify_place_bridgehead(state: Bridgeheads, power: Power | str, hex_label: str,
                            invasion_succeeded: bool = True, remove: str | None = None) -> None:
    """TR-63: raise :class:`IllegalOrder` if the bridgehead may not be placed."""
    reason = _why_not_place(state, parse_power(str(power)), hex_label, invasion_succeeded,
                            remove)
    if reason is not None:
        raise IllegalOrder("TR-63", reason)


def place_bridgehead(state: Bridgeheads, power: Power | str, hex_label: str,
                     invasion_succeeded: bool = True, remove: str | None = None
                     ) -> tuple[Bridgeheads, BridgeheadRecord]:
    """TR-63 (Bridgeheads) Place a marker after a successful invasion (at most 3 per power)."""
    p = parse_power(str(power))
    verify_place_bridgehead(state, p, hex_label, invasion_succeeded, remove)
    mine = (*tuple(h for h in state.of(p) if h != remove), hex_label)
    markers = dict(state.markers)
    markers[p] = mine
    removed = () if remove is None else (remove,)
    return Bridgeheads(markers), BridgeheadRecord(p, hex_label, removed, len(mine))


def bridgehead_upkeep(state: Bridgeheads, power: Power | str, moment: RemovalCheck | str,
                      enemy_adjacent: Mapping[str, bool],
                      readings: NavalReadings = DEFAULT_NAVAL_READINGS
                      ) -> tuple[Bridgeheads, BridgeheadRecord]:
    """TR-63: remove ``power``'s bridgeheads with no enemy unit adjacent.

    Checked at the ``moment`` the reading ``bridgehead_removal_check`` names (start of a
    friendly turn by default); at the other moment nothing happens. ``enemy_adjacent`` must
    give every bridgehead of the power. After removal the hex stacks 2 again (overstacking
    fixed by the end of the next normal movement phase) and is no longer a port.
    """
    p = parse_power(str(power))
    m = parse_enum(RemovalCheck, moment, "moment")
    mine = state.of(p)
    if m is not readings.bridgehead_removal_check:
        return state, BridgeheadRecord(p, None, (), len(mine))
    missing = [h for h in mine if h not in enemy_adjacent]
    if missing:
        raise InputError("enemy_adjacent", f"no adjacency given for bridgehead(s) "
                         f"{', '.join(missing)}")
    keep = tuple(h for h in mine if enemy_adjacent[h])
    removed = tuple(h for h in mine if not enemy_adjacent[h])
    markers = dict(state.markers)
    markers[p] = keep
    return Bridgeheads(markers), BridgeheadRecord(p, None, removed, len(keep))


def remove_bridgehead(state: Bridgeheads, power: Power | str, hex_label: str
                      ) -> tuple[Bridgeheads, BridgeheadRecord]:
    """TR-63: the owner removes a marker voluntarily (or an enemy takes the hex)."""
    p = parse_power(str(power))
    mine = state.of(p)
    if hex_label not in mine:
        raise IllegalOrder("TR-63", f"{p} has no bridgehead at {hex_label}")
    markers = dict(state.markers)
    markers[p] = tuple(h for h in mine if h != hex_label)
    return Bridgeheads(markers), BridgeheadRecord(p, None, (hex_label,), len(markers[p]))


def stacking_limit(state: Bridgeheads, hex_label: str) -> int:
    """TR-63 / C-STACK: 4 units in a bridgehead hex, 2 elsewhere."""
    return BRIDGEHEAD_STACKING_LIMIT if state.owner(hex_label) is not None else STACKING_LIMIT


def bridgehead_mask(m: MapData, state: Bridgeheads) -> npt.NDArray[np.bool_]:
    """C-STACK: the per-hex ``marked`` mask of every bridgehead, for
    :func:`grognard.core.stacking.stacking_limits` with :func:`third_reich_stacking`."""
    out = np.zeros(m.n, dtype=bool)
    for hexes in state.markers.values():
        for h in hexes:
            out[hex_index(m, h, "bridgehead")] = True
    return out


def attacks_out_ok(attackers_per_hexside: Sequence[int]) -> bool:
    """TR-63: all 4 may attack out, but at most 2 across any one hexside in one phase."""
    if any(n < 0 for n in attackers_per_hexside):
        raise InputError("attackers_per_hexside", "counts cannot be negative")
    return all(n <= MAX_ATTACKERS_PER_HEXSIDE for n in attackers_per_hexside)


def acts_as_port(state: Bridgeheads, hex_label: str, power: Power | str) -> bool:
    """TR-63: a bridgehead is a friendly controlled port for its owner while it exists."""
    return state.owner(hex_label) == parse_power(str(power))


def sea_sr_via_bridgehead_ok(state: Bridgeheads, hex_label: str, power: Power | str,
                             escort_in_zone: bool) -> bool:
    """TR-63: sea SR to/from a bridgehead needs a friendly fleet on SR escort in the zone."""
    return acts_as_port(state, hex_label, power) and escort_in_zone
