"""Fire in the East adjustments of Europa revised: rail gauge (EUR-34), trucks (EUR-35),
historical set-up (EUR-43), surprise-turn restrictions (EUR-44) and air surprise (EUR-45).

Map geography (the border, Soviet territory, military-district listings) is EXTERNAL: the
functions take it as plain sets and mappings of hex labels, which a scenario provides.

>>> gauge_conversion_cost(entry_cost=1), truck_range("clear"), truck_range("clear", True)
(2, 4, 8)
>>> air_surprise_eliminations([20, 7])
13
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np
import numpy.typing as npt

from grognard.core.errors import IllegalOrder, InputError, TableError, parse_enum
from grognard.core.mapdata import MapData
from grognard.core.paths import HexRef
from grognard.core.supply import SupplyRules, europa_revised_supply, trace_supply
from grognard.core.tables import Table, TableSet, load_tables
from grognard.core.units import SupplyState
from grognard.core.zoc import ZocField
from grognard.europa.supply.phase import (
    DEFAULT_READINGS,
    AirSurprisePooling,
    SupplyReadings,
    count_arg,
)

TRUCK_TABLE = "europa_fite_truck_ranges"


def truck_table(tables: TableSet | None = None) -> Table:
    return (tables if tables is not None else load_tables()).get(TRUCK_TABLE)


# ---------------------------------------------------------------- EUR-34 rail gauge


def gauge_conversion_cost(entry_cost: int = 0, table: Table | None = None) -> int:
    """EUR-34 (Fire in the East logistics adjustments) an RR engineer converts a hex's rail
    gauge for 1 MP spent in it beyond the cost of entering (originally 2 MP)."""
    t = table if table is not None else truck_table()
    return count_arg("entry_cost", entry_cost) + int(t.meta.get("gauge_conversion_mp", 1))


# ---------------------------------------------------------------- EUR-35 trucks


def truck_range(weather: str, extended: bool = False, original: int | None = None,
                table: Table | None = None) -> int:
    """EUR-35 truck supply distance in hexes: the original +1 in every weather, printed as
    4 in clear and 2 in mud; other weathers need the ``original`` FitE value (EXTERNAL).
    A truck flipped to its "deplete" side doubles its range (8 in clear)."""
    t = table if table is not None else truck_table()
    w = str(weather).strip().lower()
    if w in t.rows:
        v = t.lookup(w, "hexes")
        if not isinstance(v, int):
            raise TableError("a range must be an integer", table=t.id, row=w)
        base = v
    elif original is None:
        raise InputError("original", f"the FitE truck range in {weather!r} is EXTERNAL: give "
                         "the original value (the revised range is original + 1)")
    else:
        base = count_arg("original", original) + int(t.meta.get("increase_over_original", 1))
    return base * int(t.meta.get("extended_multiplier", 2)) if extended else base


def supply_grade_through(extended: bool) -> SupplyState:
    """EUR-35/EUR-36 units tracing through an extended truck link get only defensive supply.

    >>> supply_grade_through(True).value, supply_grade_through(False).value
    ('defensive', 'in')
    """
    return SupplyState.DEFENSIVE if extended else SupplyState.IN


def verify_truck_flip(extended_now: bool, to_extended: bool, phase: str) -> None:
    """EUR-35 a truck may flip to extended at any time it is traced through and stay so
    indefinitely (never used up); it reverts to normal range only in the owner's movement
    phase. (Depleting a truck to trace to it is abolished.)"""
    if extended_now and not to_extended and phase.strip().lower() != "movement":
        raise IllegalOrder("EUR-35", "a truck reverts to normal range only in its owner's "
                           "movement phase")


@dataclass(frozen=True)
class TruckSupply:
    """EUR-35 per unit: ``in``, ``defensive`` (only through an extended truck) or ``out``;
    per truck: whether it is itself in supply (and so extends supply)."""

    units: tuple[SupplyState, ...]
    trucks_supplied: tuple[bool, ...]
    ids: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"units": {i: s.value for i, s in zip(self.ids, self.units, strict=True)},
                "trucks_supplied": list(self.trucks_supplied)}


def truck_supply(
    m: MapData,
    units: Sequence[HexRef],
    zoc: ZocField,
    sources: Sequence[HexRef],
    *,
    max_length: int | None,
    weather: str,
    trucks: Sequence[HexRef] = (),
    extended: Sequence[bool] | None = None,
    original: int | None = None,
    rules: SupplyRules | None = None,
    interdiction: npt.ArrayLike | None = None,
    ids: Sequence[str] | None = None,
    table: Table | None = None,
) -> TruckSupply:
    """EUR-35/EUR-36 supply through FitE trucks, a generic extender mechanism (the original
    truck rules are EXTERNAL): a truck that traces a normal line (``max_length``) to a
    source, or lies within the range of another such normal truck, extends supply
    :func:`truck_range` hexes from its hex (trucks only extend: nothing is depleted). A unit
    reached only through an extended (flipped) truck's doubled range is in defensive supply.
    Paths obey the same ``rules`` (enemy units and unnegated enemy ZOCs block)."""
    r = rules if rules is not None else europa_revised_supply()
    ext = [False] * len(trucks) if extended is None else [bool(e) for e in extended]
    if len(ext) != len(trucks):
        raise InputError("extended", f"{len(ext)} flags for {len(trucks)} trucks")
    zones = None if interdiction is None else np.asarray(interdiction, dtype=bool)
    t = table if table is not None else truck_table()
    normal = truck_range(weather, False, original, t)
    far = truck_range(weather, True, original, t)
    supplied = [False] * len(trucks)
    if trucks:
        supplied = [bool(x) for x in trace_supply(m, list(trucks), zoc, list(sources),
                                                  max_length=max_length, rules=r,
                                                  interdiction=zones).in_supply]
        while True:  # normal trucks in supply extend to further trucks
            hubs = [h for h, ok, e in zip(trucks, supplied, ext, strict=True) if ok and not e]
            if not hubs:
                break
            more = trace_supply(m, list(trucks), zoc, hubs, max_length=normal, rules=r,
                                interdiction=zones).in_supply
            grown = [a or bool(b) for a, b in zip(supplied, more, strict=True)]
            if grown == supplied:
                break
            supplied = grown
    full = trace_supply(m, list(units), zoc, list(sources), max_length=max_length, rules=r,
                        interdiction=zones).in_supply.copy()
    hubs = [h for h, ok, e in zip(trucks, supplied, ext, strict=True) if ok and not e]
    if hubs:
        full |= trace_supply(m, list(units), zoc, hubs, max_length=normal, rules=r,
                             interdiction=zones).in_supply
    defensive = np.zeros(len(units), dtype=bool)
    flipped = [h for h, ok, e in zip(trucks, supplied, ext, strict=True) if ok and e]
    if flipped:
        defensive = trace_supply(m, list(units), zoc, flipped, max_length=far, rules=r,
                                 interdiction=zones).in_supply & ~full
    states = tuple(SupplyState.IN if f else SupplyState.DEFENSIVE if d else SupplyState.OUT
                   for f, d in zip(full.tolist(), defensive.tolist(), strict=True))
    uid = tuple(ids) if ids is not None else tuple(f"u{i}" for i in range(len(units)))
    if len(uid) != len(units):
        raise InputError("ids", f"{len(uid)} ids for {len(units)} units")
    return TruckSupply(states, tuple(supplied), uid)


# ---------------------------------------------------------------- EUR-43 set-up


class Listing(StrEnum):
    """EUR-43 which part of a military district's listing a Soviet unit comes from."""

    ARMY = "army"
    MECHANIZED_CORPS = "mechanized_corps"
    RESERVES = "reserves"
    NON_DIVISIONAL = "non_divisional"


@dataclass(frozen=True)
class SetupUnit:
    """EUR-43 one unit's set-up position. ``side`` is ``soviet`` or ``german``."""

    id: str
    side: str
    hex: str
    district: str = ""
    listing: Listing | str = Listing.ARMY
    artillery: bool = False
    ma: int = 0
    siege: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "listing",
                           parse_enum(Listing, self.listing, f"{self.id}.listing"))


def validate_fite_setup(units: Sequence[SetupUnit], border_distance: Mapping[str, int],
                        soviet_zoc: frozenset[str] | set[str]) -> list[str]:
    """EUR-43 (Fire in the East historical set up) every violation, in words (empty: legal).

    ``border_distance`` gives, per hex, its distance in hexes from the border on the Soviet
    side (0 = a border hex) and a negative number on the German side; hexes missing are off
    the set-up area. Soviet Army units: border or 1 behind, and every border hex in a Soviet
    ZOC (``soviet_zoc``); Mechanized Corps: 3-5 hexes from the border; non-divisional MA-6
    non-siege artillery: stacked with Army units on or 1 behind the border; other
    non-divisional units: in a hex with Army, Mechanized Corps or Reserves units of the same
    military district. German units: along or behind the border.
    """
    errors: list[str] = []

    def dist(u: SetupUnit) -> int | None:
        d = border_distance.get(u.hex)
        if d is None:
            errors.append(f"{u.id}: hex {u.hex} is outside the set-up area")
        return d

    listed: dict[tuple[str, str], set[Listing]] = {}
    for u in units:
        if u.side == "soviet" and u.listing != Listing.NON_DIVISIONAL:
            listed.setdefault((u.hex, u.district), set()).add(Listing(u.listing))
    for u in units:
        side = u.side.strip().lower()
        if side not in ("soviet", "german"):
            raise InputError(f"{u.id}.side", f"must be soviet or german, not {u.side!r}")
        d = dist(u)
        if d is None:
            continue
        if side == "german":
            if d > 0:
                errors.append(f"{u.id}: German units set up along or behind the border")
            continue
        if d < 0:
            errors.append(f"{u.id}: Soviet unit on the German side of the border")
            continue
        if u.listing == Listing.ARMY and d > 1:
            errors.append(f"{u.id}: Army units set up on the border or 1 hex behind it")
        elif u.listing == Listing.MECHANIZED_CORPS and not 3 <= d <= 5:
            errors.append(f"{u.id}: Mechanized Corps units set up 3-5 hexes from the border")
        elif u.listing == Listing.NON_DIVISIONAL:
            here = listed.get((u.hex, u.district), set())
            if u.artillery and u.ma == 6 and not u.siege:
                if Listing.ARMY not in here or d > 1:
                    errors.append(f"{u.id}: MA-6 artillery stacks with Army units on the "
                                  "border or 1 hex behind it")
            elif not here:
                errors.append(f"{u.id}: non-divisional units set up with Army, Mechanized "
                              f"Corps or Reserves units of district {u.district!r}")
    for h in sorted(h for h, d in border_distance.items() if d == 0):
        if h not in soviet_zoc:
            errors.append(f"border hex {h} is not in a Soviet ZOC")
    return errors


# ---------------------------------------------------------------- EUR-44 surprise turn


SURPRISE_TURN_PHASES = ("movement", "air", "combat")
"""EUR-44 the German surprise turn: restricted movement, air, combat (advance after combat
only; no exploitation); then the normal Axis June II turn begins."""


def verify_surprise_turn_move(path: Sequence[str], soviet_territory: frozenset[str] | set[str],
                              border: frozenset[str] | set[str],
                              enemy_zoc: frozenset[str] | set[str],
                              overrun: bool = False, phase: str = "movement") -> None:
    """EUR-44 (surprise turn) the only ground movement is one step from a German border hex
    into Soviet territory, stopping there; no overruns, no ZOC->ZOC moves, no exploitation
    (advance after combat is not movement and stays allowed). Raises :class:`IllegalOrder`."""
    if phase.strip().lower() == "exploitation":
        raise IllegalOrder("EUR-44", "no exploitation phase on the surprise turn")
    if overrun:
        raise IllegalOrder("EUR-44", "no overruns on the surprise turn")
    if len(path) < 2:
        raise InputError("path", "a move needs a start hex and at least one more")
    start, first = path[0], path[1]
    if start in soviet_territory or start not in border:
        raise IllegalOrder("EUR-44", "German units may not move up to the border before the "
                           "surprise combat phase; only border units cross it")
    if first not in soviet_territory:
        raise IllegalOrder("EUR-44", "the only movement allowed is across the border into "
                           "Soviet territory")
    if start in enemy_zoc and first in enemy_zoc:
        raise IllegalOrder("EUR-44", "no ZOC to ZOC movement on the surprise turn")
    if len(path) > 2:
        raise IllegalOrder("EUR-44", "units stop in the first hex across the border")


def surprise_turn_move_ok(path: Sequence[str], soviet_territory: frozenset[str] | set[str],
                          border: frozenset[str] | set[str],
                          enemy_zoc: frozenset[str] | set[str], overrun: bool = False,
                          phase: str = "movement") -> bool:
    """EUR-44 whether a move is allowed on the surprise turn."""
    try:
        verify_surprise_turn_move(path, soviet_territory, border, enemy_zoc, overrun, phase)
    except IllegalOrder:
        return False
    return True


# ---------------------------------------------------------------- EUR-45 air surprise


@dataclass(frozen=True)
class AirSurprise:
    """EUR-45 Soviet air units eliminated by airfield surprise strikes, per airfield."""

    attackers: tuple[int, ...]
    eliminated: tuple[int, ...]
    total: int

    def to_json(self) -> dict[str, Any]:
        return {"attackers": list(self.attackers), "eliminated": list(self.eliminated),
                "total": self.total}


def air_surprise(attackers: Sequence[int], readings: SupplyReadings = DEFAULT_READINGS
                 ) -> AirSurprise:
    """EUR-45 (FitE air surprise) 1 Soviet air unit eliminated per 2 German air units
    dedicated to airfield surprise strikes: floor(n/2) per target airfield (default), or over
    all airfields pooled (``fite_air_surprise_pooling=pooled``). The rest of the original
    FitE air-surprise rules is EXTERNAL."""
    ns = tuple(count_arg(f"attackers[{i}]", n) for i, n in enumerate(attackers))
    if readings.fite_air_surprise_pooling == AirSurprisePooling.POOLED:
        total = sum(ns) // 2
        return AirSurprise(ns, (total,), total)
    per = tuple(n // 2 for n in ns)
    return AirSurprise(ns, per, sum(per))


def air_surprise_eliminations(attackers: Sequence[int],
                              readings: SupplyReadings = DEFAULT_READINGS) -> int:
    """EUR-45 total Soviet air units eliminated (see :func:`air_surprise`)."""
    return air_surprise(attackers, readings).total


__all__ = [
    "SURPRISE_TURN_PHASES",
    "AirSurprise",
    "Listing",
    "SetupUnit",
    "TruckSupply",
    "air_surprise",
    "air_surprise_eliminations",
    "gauge_conversion_cost",
    "supply_grade_through",
    "surprise_turn_move_ok",
    "truck_range",
    "truck_supply",
    "truck_table",
    "validate_fite_setup",
    "verify_surprise_turn_move",
    "verify_truck_flip",
]
