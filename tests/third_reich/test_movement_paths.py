"""TR-27/TR-28 property: every path the range search finds passes the hex-by-hex rule check
with the same MP cost (generated maps, both movement classes, both phases)."""

from __future__ import annotations

import numpy as np
import pytest

from grognard.core.hexgrid import Hex
from grognard.core.mapdata import Terrain
from grognard.core.mapgen import generate_map
from grognard.third_reich.air_naval.air_zones import BasedAir, air_zone_status
from grognard.third_reich.movement.movement import check_path, enemy_zoc, move_range
from grognard.third_reich.turn.forces import AirUnit, GroundKind, GroundUnit, Side


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("kind, ma, phase", [
    (GroundKind.INFANTRY, 3, "normal"), (GroundKind.ARMOR, 5, "normal"),
    (GroundKind.ARMOR, 5, "mechanized")])
def test_tr27_tr28_range_paths_pass_the_step_rules(seed, kind, ma, phase):
    m = generate_map(14, 14, seed=seed)
    rng = np.random.default_rng(seed)
    land = np.nonzero(~m.terrain_mask(Terrain.SEA, Terrain.LAKE))[0]
    picks = rng.choice(land, size=7, replace=False)
    mover = GroundUnit("me", "x", Side.AXIS, kind, 3, ma)
    placed = [(int(h), GroundUnit(f"e{i}", "x", Side.ALLIES, GroundKind.INFANTRY, 1))
              for i, h in enumerate(picks[1:])]
    start = int(picks[0])
    r = move_range(m, mover, start, placed, phase)
    z = enemy_zoc(m, placed, "axis")
    for h in r.hexes.tolist():
        if h == start:
            continue
        path = r.hex_path(h)
        chk = check_path(m, mover, path, z, phase)
        assert chk.legal, (m.label(h), chk.reason)
        assert chk.mp == r.cost_to(h)


def test_tr30_contest_is_symmetric():
    rng = np.random.default_rng(5)
    air = [BasedAir(AirUnit(f"a{i}", int(rng.integers(1, 6)), int(rng.integers(2, 5))),
                    Side.AXIS if i % 2 else Side.ALLIES,
                    Hex(int(rng.integers(0, 10)), int(rng.integers(0, 10))))
           for i in range(8)]
    for q in range(10):
        for r_ in range(10):
            a = air_zone_status(Hex(q, r_), "axis", air)
            b = air_zone_status(Hex(q, r_), "allies", air)
            assert a.uncontested_enemy == b.uncontested_friendly
            assert a.contested == b.contested
