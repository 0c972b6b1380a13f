"""Supply tracing (C-SUPPLY; EUR-26, EUR-30, TR-72, TR-73): one multi-source search per side.

A supply line runs from a unit's hex to a supply source, at most ``max_length`` hexes (or MPs)
long; it never enters a hex holding enemy units, nor an enemy ZOC hex unless a friendly unit is
there (negation for supply: TR-27/TR-72; the original Europa rules), nor crosses sea, lake or
impassable hexsides. EUR-26: a line through any interdiction zone must be 1 hex shorter.
``max_length=None`` is the unbounded test "can trace a path of any length" (EUR-30 isolation,
TR-72), and sources may be friendly cities (TR-73 DRM).

All units of a side are answered by one ``scipy.sparse.csgraph.dijkstra(min_only=True)`` call
from all sources at once (two when interdiction zones exist); paths are rebuilt on request from
the predecessor array, so tracing a whole front costs about one raw csgraph search.

>>> from grognard.core.hexgrid import Hex
>>> from grognard.core.mapdata import MapData
>>> from grognard.core.paths import Forces
>>> from grognard.core.zoc import zoc_field, third_reich_zoc
>>> m = MapData.build([Hex(q, 0) for q in range(5)], ["clear"] * 5)
>>> f = Forces.build(m, [Hex(0, 0)], ["axis"])
>>> z = zoc_field(m, f, "axis", third_reich_zoc())
>>> t = trace_supply(m, f.hex, z, [Hex(4, 0)], max_length=4, rules=third_reich_supply())
>>> bool(t.in_supply[0]), t.path(0)
(True, ['0101', '0201', '0302', '0402', '0503'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from grognard.core.errors import InputError, parse_enum
from grognard.core.mapdata import CityClass, HexsideFeature, MapData
from grognard.core.movement import MoveClass, MovementRules, edge_costs
from grognard.core.paths import (
    BoolArray,
    FloatArray,
    HexRef,
    IntArray,
    Purpose,
    edge_open,
    edge_tables,
    follow,
    hex_indices,
    labels,
)
from grognard.core.zoc import ZocField


class LengthUnit(StrEnum):
    HEXES = "hexes"
    MP = "mp"


@dataclass(frozen=True)
class SupplyRules:
    """What blocks a supply line and how its length is counted. Presets:
    :func:`europa_revised_supply`, :func:`third_reich_supply`."""

    length_unit: LengthUnit = LengthUnit.HEXES
    blocking_features: HexsideFeature = (
        HexsideFeature.SEA | HexsideFeature.LAKE | HexsideFeature.IMPASSABLE
    )
    enemy_zoc_blocks: bool = True
    zoc_min_class: int = 1
    interdiction_shortening: int = 0
    movement: MovementRules | None = None  # costs of an MP-counted line (ZOC costs not added)


def europa_revised_supply(length_unit: LengthUnit = LengthUnit.HEXES,
                          movement: MovementRules | None = None) -> SupplyRules:
    """EUR-26/EUR-30: paths as in the original rules (EXTERNAL: blocked by enemy units and by
    enemy ZOC not negated by a friendly unit); a line through interdiction zones is 1 hex
    shorter."""
    return SupplyRules(length_unit=length_unit, interdiction_shortening=1, movement=movement)


def third_reich_supply() -> SupplyRules:
    """TR-72: traced as in 3R4 (EXTERNAL), also blocked by the new ZOCs, which friendly units
    negate for supply (TR-27)."""
    return SupplyRules()


@dataclass(frozen=True, eq=False)
class SupplyTrace:
    """Per unit: in supply or not, the length of its best line, the source it reaches and the
    path (unit hex first, source last) so a user can see why."""

    map: MapData
    unit_hex: IntArray
    ids: tuple[str, ...]  # empty: units are named "u0", "u1", ... in reports
    in_supply: BoolArray
    length: npt.NDArray[np.int64]  # -1 where no line
    source: IntArray  # source hex reached, -1 where none
    max_length: int | None
    _preds: tuple[npt.NDArray[np.int32], ...]
    _via: npt.NDArray[np.int8]  # which predecessor array each unit's path uses
    unbounded: npt.NDArray[np.int64] | None = None  # explain=True: any-length line, -1 none

    def hex_path(self, i: int) -> list[int]:
        """Hex numbers of unit ``i``'s supply line, its hex first (empty if out of supply)."""
        if not 0 <= i < len(self.unit_hex):
            raise InputError("unit", f"no unit number {i}")
        if not self.in_supply[i]:
            return []
        return follow(self._preds[int(self._via[i])], int(self.unit_hex[i]))

    def path(self, i: int) -> list[str]:
        """Labels of unit ``i``'s supply line (its hex first, the source last)."""
        return labels(self.map, self.hex_path(i))

    def out_of_supply(self) -> list[str]:
        return [self.unit_id(i) for i in np.nonzero(~self.in_supply)[0].tolist()]

    def unit_id(self, i: int) -> str:
        return self.ids[i] if self.ids else f"u{i}"

    def reason(self, i: int) -> str:
        """Why unit ``i`` is in or out of supply, in words."""
        if self.in_supply[i]:
            limit = "" if self.max_length is None else f" of {self.max_length}"
            return (f"in supply: {int(self.length[i])}{limit} to "
                    f"{labels(self.map, [int(self.source[i])])[0]}")
        if self.unbounded is None:
            return "out of supply"
        if self.unbounded[i] < 0:
            return "isolated: no line of any length (enemy units or enemy ZOC in the way)"
        return (f"out of supply: the shortest open line is {int(self.unbounded[i])}, "
                f"the limit {self.max_length}")

    def to_json(self) -> dict[str, Any]:
        units = []
        for i in range(len(self.unit_hex)):
            units.append({
                "id": self.unit_id(i),
                "hex": labels(self.map, [int(self.unit_hex[i])])[0],
                "in_supply": bool(self.in_supply[i]),
                "length": int(self.length[i]) if self.in_supply[i] else None,
                "path": self.path(i),
                "reason": self.reason(i),
            })
        return {"max_length": self.max_length, "units": units}


def _search_graph(m: MapData, passable: BoolArray, terminal: BoolArray, w_rev: FloatArray,
                  rules: SupplyRules) -> sp.csr_matrix:
    """The graph searched outward from the sources (edge x->y is the line stepping y->x).

    The map's CSR structure is reused as is; closed edges get an infinite weight, which the
    search never relaxes (cheaper than compressing the edge arrays)."""
    et = edge_tables(m)
    ok = passable[et.src] & (passable | terminal)[m.indices]
    if rules.blocking_features:
        ok &= edge_open(m, int(rules.blocking_features))
    return sp.csr_matrix((np.where(ok, w_rev, np.inf), m.indices, m.indptr), shape=(m.n, m.n))


def trace_supply(
    m: MapData,
    units: Sequence[HexRef] | npt.ArrayLike,
    zoc: ZocField,
    sources: Sequence[HexRef] | npt.ArrayLike,
    *,
    max_length: int | None,
    rules: SupplyRules,
    interdiction: BoolArray | None = None,
    move_class: MoveClass | str = MoveClass.FOOT,
    ids: Sequence[str] | None = None,
    explain: bool = False,
) -> SupplyTrace:
    """C-SUPPLY (EUR-26, EUR-30, TR-72) Trace supply from ``sources`` to every unit at once.

    ``zoc`` is the enemy ZOC field of the units' side (its ``enemy``/``friendly`` occupancy is
    used too). A unit's own hex may be in enemy ZOC (the unit itself negates it where the
    rules allow; otherwise it may still start its line there). ``max_length=None`` traces a
    path of any length. With ``interdiction`` (EUR-26) a line touching any zone hex must be
    ``rules.interdiction_shortening`` shorter. ``explain=True`` adds one unbounded search so
    :meth:`SupplyTrace.reason` can tell "too far" from "isolated" for units out of supply.
    """
    u = hex_indices(m, units, "units")
    src = hex_indices(m, sources, "sources")
    if max_length is not None and (isinstance(max_length, bool) or max_length < 0):
        raise InputError("max_length", "must be a non-negative integer or None")
    uid = tuple(ids) if ids is not None else ()
    if ids is not None and len(uid) != len(u):
        raise InputError("ids", f"{len(uid)} ids for {len(u)} units")
    et = edge_tables(m)
    blocked = zoc.enemy | et.water
    if rules.enemy_zoc_blocks:
        blocked = blocked | zoc.mask(Purpose.SUPPLY, rules.zoc_min_class)
    terminal = np.zeros(m.n, dtype=bool)
    terminal[u] = True
    terminal &= ~(zoc.enemy | et.water)
    if rules.length_unit == LengthUnit.MP:
        if rules.movement is None:
            raise InputError("rules.movement", "an MP-counted supply line needs movement costs")
        w = edge_costs(m, move_class, None, rules.movement)
        w = np.where(w >= 1e9, np.inf, w)
        w_rev = np.asarray(w[et.reverse], dtype=np.float64)
    else:
        w_rev = np.ones(len(m.indices), dtype=np.float64)
    limit = np.inf if max_length is None else float(max_length)
    shorten = rules.interdiction_shortening
    zones = (np.asarray(interdiction, dtype=bool) if interdiction is not None
             else np.zeros(m.n, dtype=bool))
    use_zones = max_length is not None and shorten > 0 and bool(zones.any())

    def search(passable: BoolArray, term: BoolArray, lim: float
               ) -> tuple[FloatArray, npt.NDArray[np.int32], npt.NDArray[np.int32]]:
        ok_src = src[passable[src]]
        if len(ok_src) == 0 or lim < 0:
            none = np.full(m.n, -9999, dtype=np.int32)
            return np.full(m.n, np.inf), none, none
        g = _search_graph(m, passable, term, w_rev, rules)
        d, p, s = dijkstra(g, directed=True, indices=ok_src, min_only=True,
                           return_predecessors=True, limit=lim)
        return d, p.astype(np.int32), s.astype(np.int32)

    if use_zones:
        d_clean, p_clean, s_clean = search(~blocked & ~zones, terminal & ~zones, limit)
        d_any, p_any, s_any = search(~blocked, terminal, limit - shorten)
        clean_ok = np.isfinite(d_clean[u]) & (d_clean[u] <= limit)
        any_ok = d_any[u] <= limit - shorten
        in_supply = clean_ok | any_ok
        # of two legal lines, report the one with more room to spare
        slack_clean = np.where(clean_ok, limit - d_clean[u], -1)
        slack_any = np.where(any_ok, limit - shorten - d_any[u], -1)
        clean_ok = clean_ok & (slack_clean >= slack_any)
        via = np.where(clean_ok, 0, 1).astype(np.int8)
        dist = np.where(clean_ok, d_clean[u], d_any[u])
        reached = np.where(clean_ok, s_clean[u], s_any[u])
        preds: tuple[npt.NDArray[np.int32], ...] = (p_clean, p_any)
    else:
        d_any, p_any, s_any = search(~blocked, terminal, limit)
        in_supply = np.isfinite(d_any[u]) & (d_any[u] <= limit)
        via = np.zeros(len(u), dtype=np.int8)
        dist = d_any[u]
        reached = s_any[u]
        preds = (p_any,)
    length = np.where(in_supply, np.rint(np.where(np.isfinite(dist), dist, -1)), -1)
    unbounded = None
    if explain:
        # with no length limit and no zones the line search above was this one already
        same = not use_zones and limit == np.inf
        d_inf = d_any if same else search(~blocked, terminal, np.inf)[0]
        du = d_inf[u]
        unbounded = np.where(np.isfinite(du), np.rint(np.where(np.isfinite(du), du, 0)),
                             -1).astype(np.int64)
    return SupplyTrace(map=m, unit_hex=u, ids=uid, in_supply=np.asarray(in_supply),
                       length=length.astype(np.int64),
                       source=np.where(in_supply, reached, -1).astype(np.int32),
                       max_length=max_length, _preds=preds, _via=via, unbounded=unbounded)


def trace_any_length(
    m: MapData,
    units: Sequence[HexRef] | npt.ArrayLike,
    zoc: ZocField,
    sources: Sequence[HexRef] | npt.ArrayLike,
    rules: SupplyRules,
    ids: Sequence[str] | None = None,
) -> SupplyTrace:
    """EUR-30/TR-72 "Can trace a valid supply path of any length" (the isolation test)."""
    return trace_supply(m, units, zoc, sources, max_length=None, rules=rules, ids=ids)


def city_hexes(m: MapData, classes: Sequence[CityClass | str] | None = None,
               friendly: BoolArray | None = None) -> IntArray:
    """Hexes holding a city (of one of ``classes``, if given), optionally only where
    ``friendly`` (a per-hex control mask from the engine) is true."""
    want = None if classes is None else {parse_enum(CityClass, c, "classes") for c in classes}
    hexes = sorted(h for h, cs in m.cities.items()
                   if any(want is None or (c.classes & want) for c in cs))
    out = np.array(hexes, dtype=np.int32)
    if friendly is not None:
        out = out[np.asarray(friendly, dtype=bool)[out]]
    return out


def path_to_friendly_city(
    m: MapData,
    units: Sequence[HexRef] | npt.ArrayLike,
    zoc: ZocField,
    friendly: BoolArray,
    rules: SupplyRules,
    classes: Sequence[CityClass | str] | None = None,
) -> SupplyTrace:
    """TR-73 (+1 DRM) / Europa attrition DRMs: can each unit trace a path (any length) to a
    friendly city (of ``classes``, e.g. major cities)?"""
    return trace_supply(m, units, zoc, city_hexes(m, classes, friendly), max_length=None,
                        rules=rules)


@dataclass(frozen=True)
class SupplyPhaseMarks:
    """EUR-30 outcome of one supply phase, per unit: isolated, newly marked OOS, restored."""

    isolated: BoolArray
    newly_out: BoolArray
    restored: BoolArray
    out_of_supply: BoolArray


def supply_phase_marks(was_out: BoolArray, in_supply: BoolArray, any_length: BoolArray
                       ) -> SupplyPhaseMarks:
    """EUR-30 Units already OOS that are still OOS and cannot trace a path of any length are
    isolated; OOS markers come off units back in supply; newly OOS units are marked (and are
    not isolated until the next game turn)."""
    was, ins, anyl = (np.asarray(a, dtype=bool) for a in (was_out, in_supply, any_length))
    if not (was.shape == ins.shape == anyl.shape):
        raise InputError("supply_phase", "was_out, in_supply and any_length differ in length")
    return SupplyPhaseMarks(isolated=was & ~ins & ~anyl, newly_out=~was & ~ins,
                            restored=was & ins, out_of_supply=~ins)


__all__ = [
    "LengthUnit", "SupplyPhaseMarks", "SupplyRules", "SupplyTrace", "city_hexes",
    "europa_revised_supply", "path_to_friendly_city", "supply_phase_marks",
    "third_reich_supply", "trace_any_length", "trace_supply",
]
