"""The front line (C-FRONT; SUR-07, SUR-12, TR-38) on hand-drawn maps.

The maps are 8 columns wide; an allied wall of units stands in column 05 (c = 4, an even
column), so the allied ZOC facing the Axis is column 04, a straight north-south line.
"""

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grognard.core.errors import InputError
from grognard.core.front import centre_facts, front_line, units_in_contact
from grognard.core.hexgrid import distance
from grognard.core.mapgen import generate_front, generate_map, map_from_rows
from grognard.core.paths import Forces, hex_index, labels
from grognard.core.zoc import europa_revised_zoc, zoc_field


def lab(c, r):
    return f"{c + 1:02d}{r + 1:02d}"


def scene(rows, allied, axis, **kw):
    m = map_from_rows(rows, **kw)
    f = Forces.build(m, [lab(*a) for a in allied] + [lab(*x) for x in axis],
                     ["allies"] * len(allied) + ["axis"] * len(axis),
                     side_names=["axis", "allies"])
    za = zoc_field(m, f, "axis", europa_revised_zoc())
    zb = zoc_field(m, f, "allies", europa_revised_zoc())
    return m, f, za, zb


def wall(height=16):
    rows = ["cccccccc"] * height
    return scene(rows, [(4, r) for r in range(height)], [(1, r) for r in range(0, height, 3)])


def test_c_front_is_the_enemy_zoc_line_in_order():
    m, _, za, _ = wall()
    front = front_line(m, za)
    assert front.labels() == [lab(3, r) for r in range(16)]
    assert not front.bridged.any()


def test_sur12_tv05_six_srp_front_is_eleven_hexes():
    """RULES.md SUR-TV05 (000 §47.A.2.h): 6 SRP -> the front extends 5 hexes either side of
    the centre, 11 hexes."""
    m, _, za, _ = wall()
    front = front_line(m, za)
    hexes = front.along(lab(3, 8), 6 - 1)  # the level arithmetic: europa.surprise_map
    assert hexes == [lab(3, r) for r in range(3, 14)]
    assert len(hexes) == 11
    assert front.along(lab(3, 8), 0) == [lab(3, 8)]
    with pytest.raises(InputError, match="radius"):
        front.along(lab(3, 8), -1)


def test_sur12_counting_from_a_centre_off_the_line_uses_the_nearest_line_hex():
    m, _, za, _ = wall()
    front = front_line(m, za)
    for c, r in ((0, 8), (1, 8), (2, 3)):
        h = m.hex(hex_index(m, lab(c, r)))
        p = front.position(lab(c, r))
        best = min(distance(h, m.hex(int(x))) for x in front.hexes)
        assert distance(h, m.hex(int(front.hexes[p]))) == best
        got = front.along(lab(c, r), 1)
        assert got == front.labels()[p - 1: p + 2]


def test_c_front_follows_curves_and_stays_continuous():
    rows = ["cccccccc"] * 12
    allied = [(4, r) for r in range(6)] + [(6, r) for r in range(6, 12)] + [(5, 5), (5, 6)]
    m, _, za, _ = scene(rows, allied, [(0, 0)])
    front = front_line(m, za)
    hexes = [m.hex(i) for i in front.hexes.tolist()]
    assert len(hexes) >= 12
    assert all(distance(a, b) == 1 for a, b in itertools.pairwise(hexes))


def test_sur07_gaps_are_bridged_by_a_straight_line():
    """000 §47.A.2.c: gaps in the line "need judgement"; RULES.md reading: bridge them by the
    straight hex line between the nearest front-line hexes."""
    rows = ["cccccccc"] * 6 + ["~~~~~~~~"] * 3 + ["cccccccc"] * 6
    allied = [(4, r) for r in list(range(6)) + list(range(9, 15))]
    m, _, za, zb = scene(rows, allied, [(1, 0), (1, 12)])
    front = front_line(m, za)
    assert front.bridged.sum() >= 3
    bridged = [lab for lab, b in zip(front.labels(), front.bridged.tolist(), strict=True) if b]
    assert all(lab.startswith("04") for lab in bridged)
    # an all-sea centre on the straight line between two front points is valid, one off it not
    # (the SUR-07 rule over these facts: tests/europa/test_surprise_map.py)
    assert centre_facts(front, lab(3, 7), za, zb).on_line_between_front_points
    assert centre_facts(front, lab(3, 7), za, zb).all_sea
    assert not centre_facts(front, lab(0, 7), za, zb).on_line_between_front_points


def test_sur07_centre_must_be_in_a_zoc_and_not_behind_the_enemy_front():
    m, _, za, zb = wall()
    front = front_line(m, za)
    on_front = centre_facts(front, lab(3, 4), za, zb)  # in the enemy ZOC, on the front
    assert on_front.in_enemy_zoc and not on_front.behind_enemy_front_line
    own = centre_facts(front, lab(0, 3), za, zb)  # in a friendly ZOC, own side
    assert own.in_friendly_zoc and not own.behind_enemy_front_line
    assert centre_facts(front, lab(6, 4), za, zb).behind_enemy_front_line  # behind the allies
    m2, _, za2, zb2 = scene(["cccccccc"] * 16, [(4, r) for r in range(16)], [(0, 15)])
    f2 = front_line(m2, za2)
    none = centre_facts(f2, lab(1, 2), za2, zb2)  # in no ZOC at all
    assert not (none.in_enemy_zoc or none.in_friendly_zoc)


def test_tr38_units_in_contact_are_those_adjacent_to_enemy_units():
    m = map_from_rows(["cccc"], hexsides={("0301", "0401"): "sea"})
    f = Forces.build(m, ["0101", "0201", "0301", "0401"], ["axis", "allies", "axis", "allies"])
    assert units_in_contact(m, f, "axis").tolist() == [True, False, True, False]
    assert units_in_contact(m, f, "allies").tolist() == [False, True, False, False]


def test_front_json_and_errors():
    m, _, za, _ = wall(4)
    front = front_line(m, za)
    assert front.to_json() == {"side": "axis", "hexes": [lab(3, r) for r in range(4)],
                               "bridged": []}
    with pytest.raises(InputError, match="radius"):
        front.along(lab(3, 1), -1)
    with pytest.raises(InputError, match="not on the map"):
        front.position("9999")
    assert np.all(front.nearest >= 0)
    assert hex_index(m, lab(3, 0)) == int(front.hexes[0])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_property_front_line_is_the_band_in_order(seed):
    m = generate_map(24, 20, seed=seed)
    sc = generate_front(m, units=120, seed=seed, depth=3)
    z = zoc_field(m, sc.forces, "axis", europa_revised_zoc())
    front = front_line(m, z)
    hexes = front.hexes.tolist()
    assert len(set(hexes)) == len(hexes)
    # every band hex is on the line; every line hex is a band hex or a bridging hex
    assert set(np.nonzero(front.band)[0].tolist()) <= set(hexes)
    for h, bridged in zip(hexes, front.bridged.tolist(), strict=True):
        assert bridged or (front.band[h] and z.strength[h] > 0 and not z.enemy[h])
    # the band is only enemy ZOC reachable from the side's own units, never behind the enemy
    assert not (front.band & ~front.region).any()
    # counting along the line: 2 * level - 1 hexes at most, centred where asked
    if hexes:
        mid = hexes[len(hexes) // 2]
        got = front.along(int(mid), 2)
        assert len(got) <= 5 and labels(m, [mid])[0] in got
