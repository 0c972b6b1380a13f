"""Generated maps and fronts for tests and benchmarks (not game content).

:func:`generate_map` builds a ``width`` x ``height`` odd-q hex map with patchy mixed terrain,
small lakes and rivers running along hexsides; :func:`generate_front` places two sides' units
in bands along a wavy north-south front with supply sources in each rear. Everything is
seeded (numpy ``default_rng``), so the same arguments always give the same map.

>>> small = map_from_rows(["cw~", "sm."], hexsides={("0101", "0201"): "river"})
>>> small.n, str(small.terrain_of(small.layout.from_label("0102")))
(5, 'swamp')
>>> m = generate_map(20, 10, seed=1)
>>> m.n, int((m.edge_features > 0).sum()) > 0
(200, True)
>>> s = generate_front(m, units=60, seed=1)
>>> len(s.forces), sorted(s.sources)
(60, ['allies', 'axis'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from grognard.core.errors import InputError
from grognard.core.hexgrid import LAYOUT, Hex, Hexside, Layout, hexside_between
from grognard.core.mapdata import (
    TERRAIN_CODES,
    Fortification,
    HexsideFeature,
    MapData,
    Terrain,
)
from grognard.core.movement import MoveClass
from grognard.core.paths import Forces, edge_tables

_LAND_MIX: tuple[tuple[Terrain, float], ...] = (
    (Terrain.CLEAR, 0.50), (Terrain.WOODS, 0.14), (Terrain.ROUGH, 0.09),
    (Terrain.FOREST, 0.06), (Terrain.SWAMP, 0.06), (Terrain.MOUNTAIN, 0.08),
    (Terrain.WOODED_ROUGH, 0.03), (Terrain.URBAN, 0.01), (Terrain.STEPPE, 0.02),
    (Terrain.LAKE, 0.01),
)


TERRAIN_LETTERS: dict[str, Terrain] = {
    "c": Terrain.CLEAR, "w": Terrain.WOODS, "r": Terrain.ROUGH, "R": Terrain.WOODED_ROUGH,
    "f": Terrain.FOREST, "m": Terrain.MOUNTAIN, "s": Terrain.SWAMP, "M": Terrain.MARSH,
    "d": Terrain.DESERT, "t": Terrain.STEPPE, "u": Terrain.URBAN, "g": Terrain.GLACIER,
    "~": Terrain.SEA, "l": Terrain.LAKE,
}


def map_from_rows(rows: Sequence[str], *, hexsides: Mapping[tuple[str, str], str] | None = None,
                  fortress: Sequence[str] = (), country: Mapping[str, str] | None = None,
                  layout: Layout = LAYOUT) -> MapData:
    """A hand-drawn map: ``rows[r][c]`` is the terrain letter of the hex in column ``c``, row
    ``r`` (letters in :data:`TERRAIN_LETTERS`; "." = no hex). ``hexsides`` maps label pairs to
    feature names ("river", "sea", "impassable", "border", ...); ``fortress`` lists fortress
    hexes; ``country`` maps labels to country names (others: "")."""
    hexes: list[Hex] = []
    terrain: list[Terrain] = []
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch == ".":
                continue
            if ch not in TERRAIN_LETTERS:
                raise InputError(f"map.rows[{r}][{c}]", f"unknown terrain letter {ch!r}")
            hexes.append(layout.from_offset(c, r))
            terrain.append(TERRAIN_LETTERS[ch])
    labels_ = [layout.to_label(h) for h in hexes]
    feats: dict[Hexside, HexsideFeature] = {}
    for (a, b), name in (hexsides or {}).items():
        try:
            feat = HexsideFeature[name.upper()]
        except KeyError:
            raise InputError("map.hexsides", f"unknown hexside feature {name!r}") from None
        side = hexside_between(layout.from_label(a), layout.from_label(b))
        feats[side] = feats.get(side, HexsideFeature.NONE) | feat
    forts = set(fortress)
    countries = country or {}
    return MapData.build(
        hexes, terrain, layout=layout, hexsides=feats,
        fortification=[Fortification.FORTRESS if lab in forts else Fortification.NONE
                       for lab in labels_],
        country=[countries.get(lab, "") for lab in labels_],
    )


def generate_map(width: int = 200, height: int = 200, *, seed: int = 0, rivers: int | None = None,
                 river_length: int = 40, layout: Layout | None = None) -> MapData:
    """A seeded test map: terrain in patches of about 4x4 hexes, ``rivers`` random-walk rivers
    along hexsides (default: one per 400 hexes). Labels have 2 digits per coordinate, 3 when
    the map is wider or taller than 99 hexes ("100105")."""
    if width < 2 or height < 2:
        raise InputError("size", "a generated map needs at least 2 x 2 hexes")
    if layout is None:
        layout = LAYOUT if max(width, height) <= 99 else Layout(digits=3)
    rng = np.random.default_rng(seed)
    grid_c, grid_r = np.meshgrid(np.arange(width), np.arange(height), indexing="ij")
    cols, rows = grid_c.ravel(), grid_r.ravel()
    hexes = [layout.from_offset(int(c), int(r)) for c, r in zip(cols, rows, strict=True)]
    # patchy terrain: a coarse random grid, each coarse cell one terrain, 20% hex-level noise
    names = [t for t, _ in _LAND_MIX]
    probs = np.array([p for _, p in _LAND_MIX])
    probs = probs / probs.sum()
    coarse = rng.choice(len(names), size=(width // 4 + 1, height // 4 + 1), p=probs)
    pick: npt.NDArray[np.int64] = coarse[cols // 4, rows // 4].ravel()
    noise = rng.random(len(pick)) < 0.2
    pick[noise] = rng.choice(len(names), size=int(noise.sum()), p=probs)
    terrain = [names[i] for i in pick.tolist()]
    m = MapData.build(hexes, terrain, layout=layout)
    et = edge_tables(m)
    n_rivers = max(1, m.n // 400) if rivers is None else rivers
    for _ in range(n_rivers):
        h = int(rng.integers(m.n))
        heading = int(rng.integers(6))
        for _ in range(river_length):
            d = (heading + int(rng.integers(-1, 2))) % 6
            p = int(et.pos[h, d])
            if p < 0:
                break
            side = int(et.pos[h, (d + 1) % 6])  # the river runs along the hexside beside us
            if side >= 0:
                m.edge_features[side] |= np.uint16(int(HexsideFeature.RIVER))
                m.edge_features[et.reverse[side]] |= np.uint16(int(HexsideFeature.RIVER))
            h = int(m.indices[p])
    return m


@dataclass(frozen=True, eq=False)
class FrontScenario:
    """Units of two sides along a front, their movement data and supply sources per side."""

    map: MapData
    forces: Forces
    move_class: tuple[MoveClass, ...]
    mp: npt.NDArray[np.int64]
    sources: dict[str, npt.NDArray[np.int32]]
    front_col: npt.NDArray[np.int64]  # per row: the no-man's-land column


def generate_front(m: MapData, units: int = 5000, *, seed: int = 0, depth: int = 6,
                   sources_per_side: int = 10, sides: tuple[str, str] = ("axis", "allies"),
                   ) -> FrontScenario:
    """Place ``units`` (half per side) in bands ``depth`` columns deep on each side of a wavy
    north-south front, up to 3 per hex, and ``sources_per_side`` sources in each rear."""
    if units < 2:
        raise InputError("units", "need at least one unit per side")
    rng = np.random.default_rng(seed)
    layout = m.layout
    col, row = _offsets(m, layout)
    width, height = int(col.max()) + 1, int(row.max()) + 1
    front_col = (width // 2 + np.rint(width / 25 * np.sin(np.arange(height) / 9.0))).astype(
        np.int64)
    water = np.isin(m.terrain, [TERRAIN_CODES.index(Terrain.SEA),
                                TERRAIN_CODES.index(Terrain.LAKE)])
    fc = front_col[row]
    hexes: list[npt.NDArray[np.int64]] = []
    side_of: list[str] = []
    for k, side in enumerate(sides):
        want = units // 2 if k == 0 else units - units // 2
        band = ((col < fc) & (col >= fc - depth)) if k == 0 else ((col > fc) & (col <= fc + depth))
        cand = np.nonzero(band & ~water)[0]
        if len(cand) * 3 < want:
            raise InputError("units", f"{want} units do not fit in {len(cand)} band hexes")
        pool = np.repeat(cand, 3)
        pick = np.sort(rng.choice(pool, size=want, replace=False))
        hexes.append(pick)
        side_of += [side] * want
    at = np.concatenate(hexes)
    zoc_class = rng.choice([0, 1, 1, 1, 2], size=len(at))
    forces = Forces.build(m, at.astype(np.int32), side_of, zoc_class=zoc_class,
                          side_names=list(sides))
    mech = rng.random(len(at)) < 0.3
    mp = np.where(mech, rng.integers(8, 13, len(at)), rng.integers(4, 7, len(at)))
    classes = tuple(MoveClass.MECHANIZED if x else MoveClass.FOOT for x in mech.tolist())
    sources: dict[str, npt.NDArray[np.int32]] = {}
    for k, side in enumerate(sides):
        rear = 3 if k == 0 else width - 4
        rows = np.linspace(0, height - 1, sources_per_side).astype(np.int64)
        idx = m.indices_of(*_axial(rear, rows, layout))
        ok = idx[(idx >= 0)]
        ok = ok[~water[ok]]
        sources[side] = ok.astype(np.int32)
    return FrontScenario(map=m, forces=forces, move_class=classes, mp=mp.astype(np.int64),
                         sources=sources, front_col=front_col)


def _offsets(m: MapData, layout: Layout) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    q, r = m.q.astype(np.int64), m.r.astype(np.int64)
    if layout.offset not in ("odd-q", "even-q"):
        raise InputError("layout", "generated fronts need a column (odd-q/even-q) layout")
    shift = (q - (q & 1)) // 2 if layout.offset == "odd-q" else (q + (q & 1)) // 2
    return q, r + shift


def _axial(col: int, rows: npt.NDArray[np.int64], layout: Layout
           ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    hs = [layout.from_offset(col, int(r)) for r in rows.tolist()]
    return (np.array([h.q for h in hs], dtype=np.int64),
            np.array([h.r for h in hs], dtype=np.int64))


__all__ = [
    "TERRAIN_LETTERS", "FrontScenario", "generate_front", "generate_map", "map_from_rows",
]
