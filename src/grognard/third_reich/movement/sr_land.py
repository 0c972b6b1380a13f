"""TR-68 ("SRs by land") on a map: find the land SR path, then check it with :mod:`sr`.

The path is the shortest chain of land hexes from the unit's hex to its destination that
enters no hex holding enemy units, no enemy-ZOC hex (ZOCs are *not* negated by friendly units
for SR, TR-27; the destination itself is excepted and checked by TR-67), no ``forbidden`` hex
(neutral countries, uncontrolled enemy home territory: a per-hex mask from the engine) and
crosses no sea, lake or impassable hexside. Air-zone limits are a per-hex mask of uncontested
enemy air (TR-30): air units never enter it; other units avoid it when their destination is in
range of enemy air. Distance is unlimited. The found path is then checked hex by hex with
:func:`grognard.third_reich.movement.sr.verify_land_sr`, so the endpoint rules (TR-67) apply as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.core.mapdata import HexsideFeature, MapData
from grognard.core.paths import HexRef, Purpose, edge_open, edge_tables, follow, hex_index, labels
from grognard.core.zoc import ZocField
from grognard.third_reich.air_naval.naval_ops import AirZone
from grognard.third_reich.movement.sr import SRStep, UnitClass, verify_land_sr

BoolArray = npt.NDArray[np.bool_]
BLOCKING = HexsideFeature.SEA | HexsideFeature.LAKE | HexsideFeature.IMPASSABLE


@dataclass(frozen=True, slots=True)
class LandSRPath:
    ok: bool
    path: tuple[str, ...]
    rule: str | None
    reason: str | None

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "path": list(self.path), "rule": self.rule,
                "reason": self.reason}


def _mask(m: MapData, raw: BoolArray | None, name: str) -> BoolArray:
    if raw is None:
        return np.zeros(m.n, dtype=bool)
    a = np.asarray(raw, dtype=bool)
    if a.shape != (m.n,):
        raise InputError(name, f"expected one flag per hex ({m.n}), not shape {a.shape}")
    return a


def land_sr_path(
    m: MapData,
    start: HexRef,
    destination: HexRef,
    zoc: ZocField,
    unit: UnitClass | str = UnitClass.GROUND,
    forbidden: BoolArray | None = None,
    uncontested_enemy_air: BoolArray | None = None,
    destination_in_enemy_air_range: bool = False,
    city_or_airbase: Sequence[HexRef] = (),
) -> LandSRPath:
    """TR-68 (SRs by land) The land SR path from ``start`` to ``destination``, or why not.

    ``zoc`` is the enemy ZOC field of the SRing side (its ``enemy``/``friendly`` occupancy
    too). ``city_or_airbase``: hexes where an air unit may end (TR-67/68).
    """
    u = parse_enum(UnitClass, unit, "unit")
    s = hex_index(m, start, "start")
    d = hex_index(m, destination, "destination")
    forb = _mask(m, forbidden, "forbidden")
    air = _mask(m, uncontested_enemy_air, "uncontested_enemy_air")
    et = edge_tables(m)
    zmask = zoc.mask(Purpose.MOVEMENT)
    blocked = zoc.enemy | et.water | forb | zmask
    if u is UnitClass.AIR or destination_in_enemy_air_range:
        blocked = blocked | air
    passable = ~blocked
    passable[s] = True
    enter = passable.copy()
    enter[d] = not (zoc.enemy[d] or et.water[d] or forb[d])
    ok_edge = passable[et.src] & enter[m.indices] & edge_open(m, int(BLOCKING))
    g = sp.csr_matrix((np.where(ok_edge, 1.0, np.inf), m.indices, m.indptr), shape=(m.n, m.n))
    if u is UnitClass.NAVAL:
        return LandSRPath(False, (), "TR-68", "naval units never SR by land")
    dist, pred = dijkstra(g, directed=True, indices=s, return_predecessors=True)
    if not np.isfinite(dist[d]):
        return LandSRPath(False, (), "TR-68", "no land path free of enemy units, enemy ZOCs, "
                          "neutral and uncontrolled enemy home hexes (and enemy air)")
    hexes = list(reversed(follow(pred, d)))[1:]  # after the start, destination last
    ends = {h if type(h) is int and 0 <= h < m.n else hex_index(m, h, "city_or_airbase")
            for h in city_or_airbase}  # map numbers (the engine's) need no parsing
    steps = [SRStep(labels(m, [h])[0], bool(zoc.enemy[h]), bool(zmask[h]), bool(forb[h]),
                    False, AirZone.ENEMY if air[h] else AirZone.NONE, bool(zoc.friendly[h]),
                    h in ends, False) for h in hexes]
    if destination_in_enemy_air_range and steps and steps[-1].air_zone is AirZone.NONE:
        last = steps[-1]
        steps[-1] = SRStep(last.hex, last.enemy_unit, last.enemy_zoc, last.neutral,
                           last.uncontrolled_enemy_home, AirZone.CONTESTED,
                           last.friendly_occupied, last.city_or_airbase, last.port)
    path = tuple(s_.hex for s_ in steps)
    try:
        verify_land_sr(u, steps)
    except IllegalOrder as exc:
        return LandSRPath(False, path, exc.rule, exc.reason)
    return LandSRPath(True, path, None, None)
