"""Path machinery shared by ZOC, movement, supply, retreat and front (C-HEX, C-ZOC, C-SUPPLY).

The map layer works on whole-map numpy arrays and hands sparse graphs to
``scipy.sparse.csgraph``; nothing here loops in Python over every hex. Unit positions are
given as explicit arrays (:class:`Forces`), independent of the engine's state objects.

The modules built on this one:

* :mod:`grognard.core.zoc` — ZOC fields for a side (``ZocRules``, ``zoc_field``);
* :mod:`grognard.core.movement` — movement ranges and cheapest paths (``MovementRules``);
* :mod:`grognard.core.supply` — supply tracing, isolation, path to a city (``SupplyRules``);
* :mod:`grognard.core.retreat` — legal 1- and 2-hex retreats with ZOC penalties;
* :mod:`grognard.core.stacking` — stacking checks (REs, units, air factors);
* :mod:`grognard.core.front` — the front line and counting hexes along it.

>>> from grognard.core.hexgrid import Hex
>>> from grognard.core.mapdata import MapData
>>> m = MapData.build([Hex(0, 0), Hex(1, 0), Hex(2, 0)], ["clear"] * 3)
>>> f = Forces.build(m, ["0101", Hex(2, 0)], ["axis", "allies"])
>>> f.hex.tolist(), f.side_names, f.of_side("allies").tolist()
([0, 2], ('axis', 'allies'), [False, True])
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from grognard.core.errors import InputError
from grognard.core.hexgrid import Hex
from grognard.core.mapdata import MapData
from grognard.core.units import Unit

IntArray = npt.NDArray[np.int32]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]

HexRef = int | str | Hex
"""A hex given as its number on the map, its printed label ("0412", "M10") or axial ``Hex``."""


class Purpose(StrEnum):
    """What a ZOC is being checked for: friendly units may negate it for some purposes only."""

    MOVEMENT = "movement"
    SUPPLY = "supply"
    RETREAT = "retreat"


# --- hex references -------------------------------------------------------------------------
def hex_index(m: MapData, ref: HexRef, field_name: str = "hex") -> int:
    """The map number of a hex given as number, label or ``Hex``; a clear error if off map."""
    if isinstance(ref, Hex):
        if not m.has(ref):
            raise InputError(field_name, f"{tuple(ref)} is not on the map")
        return m.index(ref)
    if isinstance(ref, str):
        known = m.label_indices.get(ref)
        if known is not None:
            return known
        try:
            h = m.layout.from_label(ref)
        except InputError as exc:
            raise InputError(field_name, exc.reason) from None
        if not m.has(h):
            raise InputError(field_name, f"{ref} is not on the map")
        return m.index(h)
    if isinstance(ref, bool | np.bool_) or not isinstance(ref, int | np.integer):
        raise InputError(field_name, f"{ref!r} is not a hex")
    i = int(ref)
    if not 0 <= i < m.n:
        raise InputError(field_name, f"hex number {i} is not on the map (0..{m.n - 1})")
    return i


def hex_indices(m: MapData, refs: Sequence[HexRef] | npt.ArrayLike, field_name: str = "hexes"
                ) -> IntArray:
    """Vectorised :func:`hex_index`; integer arrays are range-checked without a Python loop."""
    if isinstance(refs, np.ndarray) and refs.dtype.kind in "iu":
        arr = refs.astype(np.int32, copy=False).ravel()
        bad = np.nonzero((arr < 0) | (arr >= m.n))[0]
        if len(bad):
            raise InputError(f"{field_name}[{int(bad[0])}]",
                             f"hex number {int(arr[bad[0]])} is not on the map (0..{m.n - 1})")
        return arr
    seq: list[Any] = list(refs)  # type: ignore[arg-type]
    return np.array([hex_index(m, r, f"{field_name}[{i}]") for i, r in enumerate(seq)],
                    dtype=np.int32).reshape(len(seq))


def labels(m: MapData, idx: Sequence[int] | npt.NDArray[np.integer[Any]]) -> list[str]:
    """Printed labels of hex numbers (falls back to axial coordinates for unlabelable hexes)."""
    ids = np.asarray(idx, dtype=np.int64).tolist()
    table = m.label_table
    got = [table[i] for i in ids]  # the map's labels read at once (a move lister's range)
    if None not in got:
        return cast(list[str], got)
    out = []
    for i in ids:
        try:
            out.append(m.label(i))
        except InputError:
            out.append(f"({int(m.q[i])},{int(m.r[i])})")
    return out


# --- unit positions ---------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Forces:
    """Units on the map as parallel arrays: hex number, side code, ZOC class (0 = exerts none).

    ``side`` indexes ``side_names``. ``ids`` name the units in reports (defaults "u0", "u1"...).
    """

    hex: IntArray
    side: npt.NDArray[np.int8]
    zoc_class: npt.NDArray[np.int8]
    side_names: tuple[str, ...]
    ids: tuple[str, ...] = ()

    @classmethod
    def build(
        cls,
        m: MapData,
        hexes: Sequence[HexRef] | npt.ArrayLike,
        sides: Sequence[str],
        zoc_class: Sequence[int] | npt.ArrayLike | None = None,
        ids: Sequence[str] | None = None,
        side_names: Sequence[str] | None = None,
    ) -> Forces:
        """Validate and pack unit positions (a unit off the map raises ``InputError``)."""
        idx = hex_indices(m, hexes, "units.hex")
        k = len(idx)
        if len(sides) != k:
            raise InputError("units.side", f"{len(sides)} sides for {k} units")
        names = tuple(side_names) if side_names is not None else tuple(dict.fromkeys(sides))
        code = {s: i for i, s in enumerate(names)}
        try:
            side_arr = np.array([code[s] for s in sides], dtype=np.int8).reshape(k)
        except KeyError as exc:
            raise InputError("units.side", f"unknown side {exc.args[0]!r}") from None
        zc = (np.ones(k, dtype=np.int8) if zoc_class is None
              else np.asarray(zoc_class, dtype=np.int64).reshape(-1))
        if len(zc) != k:
            raise InputError("units.zoc_class", f"{len(zc)} ZOC classes for {k} units")
        if k and (zc.min() < 0 or zc.max() > 127):
            raise InputError("units.zoc_class", "ZOC classes must be 0..127")
        uid = tuple(ids) if ids is not None else tuple(f"u{i}" for i in range(k))
        if len(uid) != k:
            raise InputError("units.id", f"{len(uid)} ids for {k} units")
        return cls(hex=idx, side=side_arr, zoc_class=zc.astype(np.int8), side_names=names,
                   ids=uid)

    @classmethod
    def from_units(cls, m: MapData, placed: Sequence[tuple[HexRef, Unit]],
                   side_names: Sequence[str] | None = None) -> Forces:
        """Pack ``(hex, Unit)`` pairs: side, ZOC class and id come from each ``Unit``."""
        return cls.build(m, [h for h, _ in placed], [u.side for _, u in placed],
                         zoc_class=[u.zoc_class for _, u in placed],
                         ids=[u.id for _, u in placed], side_names=side_names)

    def __len__(self) -> int:
        return len(self.hex)

    def side_code(self, side: str) -> int:
        try:
            return self.side_names.index(side)
        except ValueError:
            raise InputError("side", f"unknown side {side!r} (known: "
                             f"{', '.join(self.side_names)})") from None

    def of_side(self, side: str) -> BoolArray:
        return np.asarray(self.side == self.side_code(side))

    def occupied(self, n: int, mask: BoolArray | None = None) -> BoolArray:
        """Per hex: holds at least one of the selected units."""
        out = np.zeros(n, dtype=bool)
        out[self.hex if mask is None else self.hex[mask]] = True
        return out


# --- cached map geometry ----------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class EdgeTables:
    """Per-map derived arrays: each CSR edge's source, the reverse edge, and (n, 6) tables."""

    src: IntArray
    reverse: IntArray
    nbr: npt.NDArray[np.int32]  # (n, 6): neighbour in direction d, or -1
    pos: npt.NDArray[np.int32]  # (n, 6): CSR position of that edge, or -1
    water: BoolArray  # per hex: all-sea or lake


_CACHE: weakref.WeakKeyDictionary[MapData, EdgeTables] = weakref.WeakKeyDictionary()


def edge_tables(m: MapData) -> EdgeTables:
    """Derived adjacency arrays of ``m`` (computed once per map, vectorised)."""
    got = _CACHE.get(m)
    if got is not None:
        return got
    from grognard.core.mapdata import WATER_TERRAIN

    src = m.edge_sources()
    nbr = np.full((m.n, 6), -1, dtype=np.int32)
    pos = np.full((m.n, 6), -1, dtype=np.int32)
    e = np.arange(len(m.indices), dtype=np.int32)
    nbr[src, m.edge_dir] = m.indices
    pos[src, m.edge_dir] = e
    reverse = pos[m.indices, (m.edge_dir.astype(np.int64) + 3) % 6]
    water = m.terrain_mask(*WATER_TERRAIN)
    got = EdgeTables(src=src, reverse=reverse.astype(np.int32), nbr=nbr, pos=pos, water=water)
    _CACHE[m] = got
    return got


_OPEN: weakref.WeakKeyDictionary[MapData, dict[int, BoolArray]] = weakref.WeakKeyDictionary()


def edge_open(m: MapData, blocking: int) -> BoolArray:
    """Per CSR edge: crosses none of the ``blocking`` hexside features (cached per map; the
    map's hexside features are taken as fixed once paths have been traced on it)."""
    per_map = _OPEN.setdefault(m, {})
    got = per_map.get(int(blocking))
    if got is None:
        got = (m.edge_features & np.uint16(int(blocking))) == 0
        per_map[int(blocking)] = got
    return got


def follow(pred: npt.NDArray[np.integer], start: int, limit: int = 1_000_000) -> list[int]:
    """Follow a predecessor array from ``start`` until a negative entry; returns the hexes."""
    out = [int(start)]
    cur = int(start)
    for _ in range(limit):
        nxt = int(pred[cur])
        if nxt < 0:
            return out
        out.append(nxt)
        cur = nxt
    raise InputError("pred", "predecessor chain does not end (cycle)")


def interdiction_zone(m: MapData, centres: Sequence[HexRef] | npt.ArrayLike) -> BoolArray:
    """EUR-26 interdiction zones: every hex within 1 hex of a centre (the centre included)."""
    c = hex_indices(m, centres, "interdiction.centres")
    out = np.zeros(m.n, dtype=bool)
    out[c] = True
    nb = edge_tables(m).nbr[c].ravel()
    out[nb[nb >= 0]] = True
    return out


__all__ = [
    "BoolArray", "EdgeTables", "Forces", "HexRef", "IntArray", "Purpose", "edge_open",
    "edge_tables", "follow", "hex_index", "hex_indices", "interdiction_zone", "labels",
]
