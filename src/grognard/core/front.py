"""The front line (C-FRONT; SUR-07, SUR-12, TR-38): hexes in enemy ZOC facing a side, in order.

The front seen by a side is the band of enemy-ZOC hexes it can reach from its own units
without passing through enemy units or through enemy ZOC (a hex the side holds is no barrier:
a unit in contact faces the front from its own hex) ("the enemy's most forward
continuous line of units or ZOCs"; "hexes in enemy ZOCs"). The whole band is ordered into one
line, each band hex once (the C-FRONT reading, docs/features/MAP.md): each connected piece is
walked from one of its ends (a double-sweep BFS) along adjacent band hexes, round its loops and
curves (a ring round an enemy salient is walked round; a thick band is swept in a zigzag);
pieces are chained end to end, nearest first; every jump (to the next piece, or back from a
branch's tip) is bridged by the straight hex line (the SUR-07 reading for gaps). Any hex is placed on the line by its nearest line
hex, so "count N hexes along the front from a centre hex" is a slice of the line (SUR-12).
The rule arithmetic (how many hexes, which facts make a valid centre) is Europa's:
``europa.surprise_map`` feeds these facts to ``europa.surprise_front``.

>>> from grognard.core.hexgrid import Hex
>>> from grognard.core.mapdata import MapData
>>> from grognard.core.paths import Forces
>>> from grognard.core.zoc import zoc_field, third_reich_zoc
>>> m = MapData.build([Hex(q, r) for q in range(6) for r in range(4)], ["clear"] * 24)
>>> f = Forces.build(m, [Hex(0, 1)] + [Hex(3, r) for r in range(4)], ["axis"] + ["allies"] * 4)
>>> front = front_line(m, zoc_field(m, f, "axis", third_reich_zoc()))
>>> front.labels()
['0302', '0303', '0304', '0305']
>>> front.along("0304", 1)
['0303', '0304', '0305']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components, dijkstra

from grognard.core.errors import InputError
from grognard.core.hexgrid import distance, line
from grognard.core.mapdata import HexsideFeature, MapData
from grognard.core.paths import (
    BoolArray,
    Forces,
    HexRef,
    IntArray,
    Purpose,
    edge_tables,
    hex_index,
    labels,
)
from grognard.core.zoc import ZocField

_Ints = npt.NDArray[np.integer[Any]]
_BLOCK = HexsideFeature.SEA | HexsideFeature.LAKE | HexsideFeature.IMPASSABLE


@dataclass(frozen=True, eq=False)
class FrontLine:
    """The ordered front line a side faces.

    ``hexes``: the line, in order; ``bridged``: which line hexes only bridge a gap;
    ``band``: per hex, in the front band; ``region``: per hex, on the side's side of the front
    (the band included); ``nearest``: per hex, the position of its nearest line hex (-1 none).
    """

    map: MapData
    side: str
    hexes: IntArray
    bridged: BoolArray
    band: BoolArray
    region: BoolArray
    nearest: IntArray

    def labels(self) -> list[str]:
        return labels(self.map, self.hexes)

    def position(self, ref: HexRef) -> int:
        """C-FRONT Position on the line of the hex (or of the line hex nearest to it)."""
        i = hex_index(self.map, ref)
        p = int(self.nearest[i])
        if p < 0:
            raise InputError("hex", f"{labels(self.map, [i])[0]} cannot be placed on the front")
        return p

    def along(self, centre: HexRef, radius: int) -> list[str]:
        """C-FRONT The line hexes within ``radius`` hexes along the front of ``centre``."""
        if radius < 0:
            raise InputError("radius", "must not be negative")
        p = self.position(centre)
        return labels(self.map, self.hexes[max(0, p - radius): p + radius + 1])

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "hexes": self.labels(),
                "bridged": [lab for lab, b in zip(self.labels(), self.bridged.tolist(),
                                                  strict=True) if b]}


def _adjacency(m: MapData, allowed: BoolArray) -> sp.csr_matrix:
    et = edge_tables(m)
    ok = allowed[et.src] & allowed[m.indices] & ((m.edge_features & np.uint16(int(_BLOCK))) == 0)
    indptr = np.zeros(m.n + 1, dtype=np.int32)
    np.cumsum(np.bincount(et.src[ok], minlength=m.n), out=indptr[1:])
    return sp.csr_matrix((np.ones(int(ok.sum())), m.indices[ok], indptr), shape=(m.n, m.n))


def front_line(m: MapData, zoc: ZocField) -> FrontLine:
    """C-FRONT (SUR-07, SUR-12) The front line facing ``zoc.side``, ordered, gaps bridged."""
    et = edge_tables(m)
    z = zoc.mask(Purpose.MOVEMENT)
    land = ~et.water
    # region: reachable from friendly units, never entering enemy units nor leaving an
    # enemy-ZOC hex -- except a hex the side holds: a unit in contact faces the front from its
    # own hex, so its rear and the ZOC hexes beside it are on its side of the front
    ok = (land & ~zoc.enemy)[m.indices] & (~z | zoc.friendly)[et.src] & land[et.src]
    ok &= (m.edge_features & np.uint16(int(_BLOCK))) == 0
    indptr = np.zeros(m.n + 1, dtype=np.int32)
    np.cumsum(np.bincount(et.src[ok], minlength=m.n), out=indptr[1:])
    g = sp.csr_matrix((np.ones(int(ok.sum())), m.indices[ok], indptr), shape=(m.n, m.n))
    starts = np.nonzero(zoc.friendly)[0]
    if len(starts):
        d = dijkstra(g, indices=starts, min_only=True, unweighted=True)
        region = np.isfinite(d)
    else:
        region = land & ~zoc.enemy
    band = region & z & ~zoc.enemy
    seq, bridged = _order_band(m, band)
    hexes = np.array(seq, dtype=np.int32)
    nearest = np.full(m.n, -1, dtype=np.int32)
    if len(hexes):
        pos_of = np.full(m.n, -1, dtype=np.int32)
        pos_of[hexes] = np.arange(len(hexes), dtype=np.int32)
        _, _, src = dijkstra(_adjacency(m, np.ones(m.n, dtype=bool)), indices=hexes,
                             min_only=True, unweighted=True, return_predecessors=True)
        reached = src >= 0
        nearest[reached] = pos_of[src[reached]]
    return FrontLine(map=m, side=zoc.side, hexes=hexes, bridged=np.array(bridged, dtype=bool),
                     band=band, region=region, nearest=nearest)


def _hex_distance(dq: int, dr: int) -> int:
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


class _Walk:
    """Orders the hexes of the front band into one line (the C-FRONT reading): each piece is
    walked from its chosen end to an unvisited adjacent band hex, the one with the fewest
    unvisited neighbours first (so a thick band is swept in a zigzag, a ring is walked round,
    and no hex is stranded), then the one nearest the piece's start; where the walk is stuck
    (a branch's tip) it jumps to the nearest unvisited hex of the piece. Every band hex is on
    the line once; a jump is bridged by the straight hex line (its hexes that are neither band
    hexes nor already on the line)."""

    def __init__(self, m: MapData, nodes: _Ints, g: sp.csr_matrix, comp: _Ints,
                 band: BoolArray) -> None:
        self.m, self.nodes, self.comp, self.band = m, nodes, comp, band
        self.indptr, self.indices = g.indptr, g.indices
        self.q = m.q[nodes].astype(np.int64)
        self.r = m.r[nodes].astype(np.int64)
        self.qs: list[int] = self.q.tolist()
        self.rs: list[int] = self.r.tolist()
        self.visited = np.zeros(len(nodes), dtype=bool)
        self.chain: list[int] = []
        self.flags: list[bool] = []
        self.seen: set[int] = set()

    def _free(self, k: int) -> list[int]:
        nb = self.indices[self.indptr[k]: self.indptr[k + 1]].tolist()
        return [j for j in nb if not self.visited[j]]

    def _dist(self, k: int, ks: _Ints) -> _Ints:
        dq, dr = self.q[ks] - self.q[k], self.r[ks] - self.r[k]
        out: _Ints = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
        return out

    def _add(self, k: int, jump: bool) -> None:
        m, i = self.m, int(self.nodes[k])
        if jump and self.chain:
            for h in line(m.hex(self.chain[-1]), m.hex(i))[1:-1]:
                if m.has(h):
                    j = m.index(h)
                    if not self.band[j] and j not in self.seen:
                        self.chain.append(j)
                        self.flags.append(True)
                        self.seen.add(j)
        self.chain.append(i)
        self.flags.append(False)
        self.seen.add(i)
        self.visited[k] = True

    def piece(self, c: int, start: int) -> None:
        members = np.nonzero(self.comp == c)[0]
        s = k = int(np.searchsorted(self.nodes, start))
        self._add(k, jump=True)
        left = len(members) - 1
        while left:
            free = self._free(k)
            if free:
                qs, rs = self.qs, self.rs
                k = min(free, key=lambda j: (len(self._free(j)), _hex_distance(
                    qs[j] - qs[s], rs[j] - rs[s]), rs[j], qs[j]))
                self._add(k, jump=False)
            else:
                rest = members[~self.visited[members]]
                d = self._dist(k, rest)
                k = int(rest[int(np.argmin(d))])
                self._add(k, jump=True)
            left -= 1


def _order_band(m: MapData, band: BoolArray) -> tuple[list[int], list[bool]]:
    nodes = np.nonzero(band)[0]
    if len(nodes) == 0:
        return [], []
    g = _adjacency(m, band)[nodes][:, nodes].tocsr()
    ncomp, comp = connected_components(g, directed=False)
    reps = np.array([int(np.nonzero(comp == c)[0][0]) for c in range(ncomp)])
    d1 = np.atleast_2d(dijkstra(g, indices=reps, unweighted=True))
    ends_a = [int(np.argmax(np.where(comp == c, d1[c], -1.0))) for c in range(ncomp)]
    d2 = np.atleast_2d(dijkstra(g, indices=np.array(ends_a), unweighted=True))
    ends: list[tuple[int, int]] = []
    for c in range(ncomp):
        a, b = int(nodes[ends_a[c]]), int(nodes[int(np.argmax(np.where(comp == c, d2[c], -1.0)))])
        # orient each piece the same way: from its end with the smaller (r, q)
        if (int(m.r[b]), int(m.q[b])) < (int(m.r[a]), int(m.q[a])):
            a, b = b, a
        ends.append((a, b))
    walk = _Walk(m, nodes, g, comp, band)
    # chain pieces: start at the piece holding the smallest (r, q) end, then nearest next
    order = sorted(range(ncomp), key=lambda c: (int(m.r[ends[c][0]]), int(m.q[ends[c][0]])))
    walk.piece(order[0], ends[order[0]][0])
    eq, er = m.q[np.array(ends)].astype(np.int64), m.r[np.array(ends)].astype(np.int64)
    todo = np.ones(ncomp, dtype=bool)
    todo[order[0]] = False
    for _ in range(ncomp - 1):
        dq, dr = eq - int(m.q[walk.chain[-1]]), er - int(m.r[walk.chain[-1]])
        gap = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2  # (piece, end)
        best = int(np.argmin(np.where(todo, gap.min(axis=1), np.iinfo(np.int64).max)))
        walk.piece(best, ends[best][1 if gap[best, 1] < gap[best, 0] else 0])
        todo[best] = False
    return walk.chain, walk.flags


@dataclass(frozen=True, slots=True)
class CentreFacts:
    """SUR-07 (C-FRONT) What the map says about a candidate centre hex; the rule (which facts
    make a centre valid) is Europa's (``europa.surprise.front.valid_centre``)."""

    label: str
    in_enemy_zoc: bool
    in_friendly_zoc: bool
    behind_enemy_front_line: bool
    all_sea: bool
    on_line_between_front_points: bool


def centre_facts(front: FrontLine, centre: HexRef, enemy_zoc: ZocField, own_zoc: ZocField,
                 max_gap: int = 12) -> CentreFacts:
    """SUR-07 (C-FRONT) The map facts of a candidate centre hex: in the enemy's / the side's own
    ZOC, behind the enemy front line (off the side's region), all-sea, and for an all-sea hex
    whether it lies on a straight hex line between two front-line hexes (searched among line
    hexes within ``max_gap`` hexes of it).

    ``enemy_zoc`` is the enemy's ZOC as seen by the side (the field ``front`` was built from);
    ``own_zoc`` is the side's ZOC as seen by the enemy."""
    m = front.map
    i = hex_index(m, centre)
    sea = bool(edge_tables(m).water[i])
    on_line = False
    if sea:
        h = m.hex(i)
        near = [m.hex(x) for x in front.hexes.tolist() if distance(h, m.hex(x)) <= max_gap]
        on_line = any(h in line(near[a], near[b])
                      for a in range(len(near)) for b in range(a + 1, len(near)))
    return CentreFacts(label=labels(m, [i])[0], in_enemy_zoc=bool(enemy_zoc.strength[i] > 0),
                       in_friendly_zoc=bool(own_zoc.strength[i] > 0),
                       behind_enemy_front_line=not sea and not bool(front.region[i]),
                       all_sea=sea, on_line_between_front_points=on_line)


def units_in_contact(m: MapData, forces: Forces, side: str,
                     blocking_features: HexsideFeature = _BLOCK) -> npt.NDArray[np.bool_]:
    """TR-38 (C-FRONT) Per unit of ``side``: adjacent to an enemy unit (the units whose
    combat factors count for attrition), not across sea or impassable hexsides."""
    et = edge_tables(m)
    mine = forces.of_side(side)
    enemy = forces.occupied(m.n, ~mine)
    h = forces.hex[mine]
    nb, ps = et.nbr[h], et.pos[h]
    ok = (nb >= 0) & ((m.edge_features[np.where(ps >= 0, ps, 0)]
                       & np.uint16(int(blocking_features))) == 0)
    touch = (ok & enemy[np.where(nb >= 0, nb, 0)]).any(axis=1)
    out = np.zeros(len(forces), dtype=bool)
    out[np.nonzero(mine)[0]] = touch
    return out


__all__ = ["CentreFacts", "FrontLine", "centre_facts", "front_line", "units_in_contact"]
