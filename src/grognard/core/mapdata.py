"""Map data (C-HEX, C-TERRAIN, C-HEXSIDE, C-POLITY): numpy arrays with a CSR adjacency.

Hexes are numbered ``0..n-1``. Per-hex attributes are numpy arrays indexed by that number;
adjacency is CSR (``indptr``, ``indices``) with each directed edge's direction and hexside
features alongside, so path searches (``core/paths``) can build sparse graphs without Python
loops over hexes.

>>> m = MapData.build([Hex(0, 0), Hex(1, 0), Hex(0, 1)], ["clear", "swamp", "clear"],
...                   hexsides={hexside_between(Hex(0, 0), Hex(1, 0)): HexsideFeature.RIVER})
>>> m.n, m.terrain_of(Hex(1, 0)), m.degree(0)
(3, <Terrain.SWAMP: 'swamp'>, 2)
>>> bool(m.features_between(Hex(1, 0), Hex(0, 0)) & HexsideFeature.RIVER)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntFlag, StrEnum
from functools import cached_property

import numpy as np
import numpy.typing as npt

from grognard.core.errors import InputError
from grognard.core.hexgrid import DIRECTIONS, LAYOUT, Hex, Hexside, Layout, hexside, hexside_between


class Terrain(StrEnum):
    CLEAR = "clear"
    WOODS = "woods"
    ROUGH = "rough"
    WOODED_ROUGH = "wooded_rough"
    FOREST = "forest"
    MOUNTAIN = "mountain"
    SWAMP = "swamp"
    MARSH = "marsh"
    DESERT = "desert"
    STEPPE = "steppe"
    URBAN = "urban"
    GLACIER = "glacier"
    SEA = "sea"
    LAKE = "lake"


WATER_TERRAIN = frozenset({Terrain.SEA, Terrain.LAKE})
TERRAIN_CODES: tuple[Terrain, ...] = tuple(Terrain)
_TERRAIN_INDEX = {t: i for i, t in enumerate(TERRAIN_CODES)}


class HexsideFeature(IntFlag):
    NONE = 0
    RIVER = 1
    MAJOR_RIVER = 2
    SEA = 4
    LAKE = 8
    STRAIT = 16
    IMPASSABLE = 32
    BORDER = 64
    CANAL = 128


class CityClass(StrEnum):
    CAPITAL = "capital"
    RED_VICTORY = "red_victory"
    RED_PORT = "red_port"
    BLACK_PORT = "black_port"
    BLACK_CITY = "black_city"
    MAJOR_CITY = "major_city"
    CITY = "city"


class Fortification(StrEnum):
    NONE = "none"
    FORTIFIED = "fortified"
    FORTRESS = "fortress"
    FORT_LINE = "fort_line"


@dataclass(frozen=True, slots=True)
class City:
    name: str
    classes: frozenset[CityClass]
    country: str = ""


@dataclass(frozen=True, slots=True)
class Box:
    """An off-map box (strategic warfare box, Murmansk box, transit boxes, ...)."""

    id: str
    name: str = ""
    kind: str = ""


@dataclass(frozen=True, eq=False)
class MapData:
    """The map: hex coordinates, per-hex attribute arrays, CSR adjacency with hexside features."""

    layout: Layout
    q: npt.NDArray[np.int32]
    r: npt.NDArray[np.int32]
    terrain: npt.NDArray[np.int8]
    indptr: npt.NDArray[np.int32]
    indices: npt.NDArray[np.int32]
    edge_dir: npt.NDArray[np.int8]
    edge_features: npt.NDArray[np.uint16]
    country: npt.NDArray[np.int16]
    region: npt.NDArray[np.int16]
    weather_zone: npt.NDArray[np.int16]
    fortification: npt.NDArray[np.int8]
    country_names: tuple[str, ...] = ("",)
    region_names: tuple[str, ...] = ("",)
    weather_zone_names: tuple[str, ...] = ("",)
    cities: Mapping[int, tuple[City, ...]] = field(default_factory=dict)
    boxes: Mapping[str, Box] = field(default_factory=dict)
    _grid: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros((0, 0), np.int32))
    _q0: int = 0
    _r0: int = 0

    # --- construction -------------------------------------------------------------------
    @classmethod
    def build(
        cls,
        hexes: Sequence[Hex],
        terrain: Sequence[str | Terrain],
        *,
        layout: Layout = LAYOUT,
        hexsides: Mapping[Hexside, HexsideFeature] | None = None,
        country: Sequence[str] | None = None,
        region: Sequence[str] | None = None,
        weather_zone: Sequence[str] | None = None,
        fortification: Sequence[str | Fortification] | None = None,
        cities: Mapping[Hex, Sequence[City]] | None = None,
        boxes: Sequence[Box] = (),
    ) -> MapData:
        """Build a map from parallel per-hex lists; adjacency is derived vectorised."""
        n = len(hexes)
        if n == 0:
            raise InputError("map", "a map needs at least one hex")
        if len(terrain) != n:
            raise InputError("map.terrain", f"{len(terrain)} terrain values for {n} hexes")
        q = np.fromiter((h[0] for h in hexes), dtype=np.int32, count=n)
        r = np.fromiter((h[1] for h in hexes), dtype=np.int32, count=n)
        q0, r0 = int(q.min()), int(r.min())
        grid = np.full((int(q.max()) - q0 + 3, int(r.max()) - r0 + 3), -1, dtype=np.int32)
        gq, gr = q - q0 + 1, r - r0 + 1
        if np.any(grid[gq, gr] != -1) or len(set(zip(q.tolist(), r.tolist(), strict=True))) != n:
            raise InputError("map", "duplicate hex in map")
        grid[gq, gr] = np.arange(n, dtype=np.int32)
        try:
            tcodes = np.fromiter(
                (_TERRAIN_INDEX[Terrain(t)] for t in terrain), dtype=np.int8, count=n
            )
        except ValueError as exc:
            raise InputError("map.terrain", str(exc)) from None
        # CSR adjacency: for each direction, the neighbour index (or -1 off map).
        nbr = np.stack(
            [grid[gq + d.q, gr + d.r] for d in DIRECTIONS], axis=1
        )  # (n, 6)
        valid = nbr >= 0
        indptr = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(valid.sum(axis=1), out=indptr[1:])
        indices = nbr[valid].astype(np.int32)
        edge_dir = np.broadcast_to(np.arange(6, dtype=np.int8), (n, 6))[valid].copy()
        edge_features = np.zeros(len(indices), dtype=np.uint16)
        m = cls(
            layout=layout, q=q, r=r, terrain=tcodes, indptr=indptr, indices=indices,
            edge_dir=edge_dir, edge_features=edge_features,
            country=np.zeros(n, np.int16), region=np.zeros(n, np.int16),
            weather_zone=np.zeros(n, np.int16), fortification=np.zeros(n, np.int8),
            _grid=grid, _q0=q0 - 1, _r0=r0 - 1,
        )
        for side, feats in (hexsides or {}).items():
            m._set_hexside(side, HexsideFeature(feats))
        names: dict[str, tuple[str, ...]] = {}
        for attr, values in (("country", country), ("region", region),
                             ("weather_zone", weather_zone)):
            if values is None:
                continue
            if len(values) != n:
                raise InputError(f"map.{attr}", f"{len(values)} values for {n} hexes")
            vocab = ("", *sorted({v for v in values if v}))
            index = {v: i for i, v in enumerate(vocab)}
            getattr(m, attr)[:] = [index[v] for v in values]
            names[attr] = vocab
        if fortification is not None:
            fvocab = tuple(Fortification)
            m.fortification[:] = [fvocab.index(Fortification(f)) for f in fortification]
        object.__setattr__(m, "country_names", names.get("country", ("",)))
        object.__setattr__(m, "region_names", names.get("region", ("",)))
        object.__setattr__(m, "weather_zone_names", names.get("weather_zone", ("",)))
        city_map = {m.index(h): tuple(cs) for h, cs in (cities or {}).items()}
        object.__setattr__(m, "cities", city_map)
        object.__setattr__(m, "boxes", {b.id: b for b in boxes})
        return m

    def _set_hexside(self, side: Hexside, feats: HexsideFeature) -> None:
        a = self.index(side.hex)
        d = side.direction
        b_hex = Hex(side.hex.q + DIRECTIONS[d].q, side.hex.r + DIRECTIONS[d].r)
        b = self.index(b_hex)
        for src, direction in ((a, d), (b, (d + 3) % 6)):
            lo, hi = self.indptr[src], self.indptr[src + 1]
            pos = lo + int(np.nonzero(self.edge_dir[lo:hi] == direction)[0][0])
            self.edge_features[pos] |= np.uint16(int(feats))

    # --- lookups ------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.q)

    def has(self, h: Hex) -> bool:
        gq, gr = h.q - self._q0, h.r - self._r0
        if 0 <= gq < self._grid.shape[0] and 0 <= gr < self._grid.shape[1]:
            return bool(self._grid[gq, gr] >= 0)
        return False

    def index(self, h: Hex) -> int:
        """The hex's number, or an error naming its label when it is off the map."""
        if not self.has(h):
            try:
                label = self.layout.to_label(h)
            except InputError:
                label = str(tuple(h))
            raise InputError("hex", f"{label} is not on the map")
        return int(self._grid[h.q - self._q0, h.r - self._r0])

    def indices_of(self, q: npt.NDArray[np.integer], r: npt.NDArray[np.integer]
                   ) -> npt.NDArray[np.int32]:
        """Vectorised :meth:`index`: -1 for hexes off the map."""
        gq, gr = np.asarray(q) - self._q0, np.asarray(r) - self._r0
        ok = (gq >= 0) & (gq < self._grid.shape[0]) & (gr >= 0) & (gr < self._grid.shape[1])
        out = np.full(np.shape(gq), -1, dtype=np.int32)
        out[ok] = self._grid[gq[ok], gr[ok]]
        return out

    def hex(self, i: int) -> Hex:
        return Hex(int(self.q[i]), int(self.r[i]))

    def label(self, i: int) -> str:
        found = self._labels[i]
        return found if found is not None else self.layout.to_label(self.hex(i))

    @property
    def label_table(self) -> list[str | None]:
        """Every hex's printed label by number (None: it has none; read only)."""
        return self._labels

    @cached_property
    def _labels(self) -> list[str | None]:
        """Every hex's printed label by number, built once (None: it has none, and
        :meth:`label` raises the layout's error)."""
        out: list[str | None] = []
        for i in range(self.n):
            try:
                out.append(self.layout.to_label(self.hex(i)))
            except InputError:  # a hex with no printed label (negative row or column)
                out.append(None)
        return out

    @cached_property
    def label_indices(self) -> Mapping[str, int]:
        """Every hex's printed label -> its number, built once (orders name hexes by label)."""
        return {lab: i for i, lab in enumerate(self._labels) if lab is not None}

    def index_of_label(self, label: str) -> int:
        i = self.label_indices.get(label)
        return i if i is not None else self.index(self.layout.from_label(label))

    def terrain_of(self, h: Hex) -> Terrain:
        return TERRAIN_CODES[int(self.terrain[self.index(h)])]

    def terrain_mask(self, *terrains: Terrain) -> npt.NDArray[np.bool_]:
        codes = [_TERRAIN_INDEX[t] for t in terrains]
        return np.isin(self.terrain, codes)

    def degree(self, i: int) -> int:
        return int(self.indptr[i + 1] - self.indptr[i])

    def neighbor_indices(self, i: int) -> npt.NDArray[np.int32]:
        return self.indices[self.indptr[i] : self.indptr[i + 1]]

    def features_between(self, a: Hex, b: Hex) -> HexsideFeature:
        ia, ib = self.index(a), self.index(b)
        lo, hi = self.indptr[ia], self.indptr[ia + 1]
        hit = np.nonzero(self.indices[lo:hi] == ib)[0]
        if len(hit) == 0:
            raise InputError("hexside", f"{self.label(ia)} and {self.label(ib)} are not adjacent")
        return HexsideFeature(int(self.edge_features[lo + hit[0]]))

    def hexside_features(self, side: Hexside) -> HexsideFeature:
        d = side.direction
        b = Hex(side.hex.q + DIRECTIONS[d].q, side.hex.r + DIRECTIONS[d].r)
        return self.features_between(side.hex, b)

    def edge_sources(self) -> npt.NDArray[np.int32]:
        """For each CSR edge, its source hex (the row), vectorised."""
        return np.repeat(np.arange(self.n, dtype=np.int32), np.diff(self.indptr))

    def country_of(self, h: Hex) -> str:
        return self.country_names[int(self.country[self.index(h)])]

    def region_of(self, h: Hex) -> str:
        return self.region_names[int(self.region[self.index(h)])]

    def fortification_of(self, h: Hex) -> Fortification:
        return _FORTIFICATIONS[int(self.fortification[self.index(h)])]

    def cities_at(self, h: Hex) -> tuple[City, ...]:
        return self.cities.get(self.index(h), ())


#: the fortifications by the map's code (their place in the enum)
_FORTIFICATIONS = tuple(Fortification)


__all__ = [
    "Box", "City", "CityClass", "Fortification", "HexsideFeature", "MapData", "Terrain",
    "hexside", "hexside_between",
]
