"""Retreat paths (EUR-16, TR-27, TR-32) on hand-drawn maps."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grognard.core.errors import InputError
from grognard.core.hexgrid import distance
from grognard.core.mapgen import generate_front, generate_map, map_from_rows
from grognard.core.paths import Forces, Purpose, hex_index
from grognard.core.retreat import (
    europa_revised_retreat,
    retreat_options,
    retreat_penalty,
    retreat_table,
    third_reich_retreat,
)
from grognard.core.units import Unit, UnitType
from grognard.core.zoc import europa_revised_zoc, third_reich_zoc, zoc_field


def setup(rows, units, zr=None, **kw):
    m = map_from_rows(rows, **kw)
    f = Forces.build(m, [h for h, _ in units], [s for _, s in units],
                     side_names=["axis", "allies"])
    return m, zoc_field(m, f, "axis", zr or europa_revised_zoc())


def test_eur16_retreat_through_enemy_zoc_counts_each_zoc_hex_entered():
    """001: "must reduce 1 division unit to cadre for each ZOC entered"."""
    m, z = setup(["ccccc", "ccccc"], [("0101", "axis"), ("0302", "allies")])
    opts = retreat_options(m, "0101", 2, z, europa_revised_retreat())
    by_end = {o.path[-1]: o.zoc_entered for o in opts}
    # 0301 lies in the allied unit's ZOC, and so does 0201
    assert z.contains(hex_index(m, "0201")) and z.contains(hex_index(m, "0301"))
    assert by_end["0301"] == 2  # 0201 then 0301: two ZOC hexes entered
    assert opts[0].zoc_entered == min(o.zoc_entered for o in opts)


def test_eur16_friendly_unit_negates_enemy_zoc_for_retreat():
    units = [("0101", "axis"), ("0302", "allies")]
    m, z = setup(["ccccc", "ccccc"], units)
    m2, z2 = setup(["ccccc", "ccccc"], [*units, ("0201", "axis")])
    before = {o.path: o.zoc_entered for o in retreat_options(m, "0101", 2, z,
                                                             europa_revised_retreat())}
    after = {o.path: o.zoc_entered for o in retreat_options(m2, "0101", 2, z2,
                                                            europa_revised_retreat())}
    assert before[("0101", "0201", "0301")] == 2
    assert after[("0101", "0201", "0301")] == 1


def test_tr27_retreat_may_not_enter_enemy_zoc_unless_friendly_occupied():
    units = [("0101", "axis"), ("0301", "allies")]
    m, z = setup(["ccc"], units, zr=third_reich_zoc())
    assert retreat_options(m, "0101", 1, z, third_reich_retreat()) == []  # TR-32: cannot
    assert [o.path for o in retreat_options(m, "0101", 1, z, europa_revised_retreat())] == \
        [("0101", "0201")]
    m2, z2 = setup(["ccc"], [*units, ("0201", "axis")], zr=third_reich_zoc())
    assert [o.path for o in retreat_options(m2, "0101", 1, z2, third_reich_retreat())] == \
        [("0101", "0201")]


def test_retreat_two_hexes_each_farther_from_the_start():
    m, z = setup(["ccc", "ccc", "ccc"], [("0202", "axis")])
    opts = retreat_options(m, "0202", 2, z, europa_revised_retreat())
    start = m.hex(hex_index(m, "0202"))
    assert opts, "a stack in the open has retreats"
    for o in opts:
        a, b = (m.hex(hex_index(m, h)) for h in o.path[1:])
        assert distance(start, a) == 1 and distance(start, b) == 2


def test_retreat_never_into_enemy_units_water_or_across_sea_hexsides():
    m, z = setup(["cc~", "ccc"], [("0101", "axis"), ("0102", "allies")],
                 hexsides={("0101", "0201"): "sea"})
    assert retreat_options(m, "0101", 1, z, europa_revised_retreat()) == []
    assert retreat_options(m, "0101", 2, z, europa_revised_retreat()) == []


def test_retreat_table_batches_many_stacks():
    m, z = setup(["ccccc", "ccccc"], [("0101", "axis"), ("0501", "axis"), ("0302", "allies")])
    t = retreat_table(m, ["0101", "0501"], 1, z, europa_revised_retreat())
    assert t.count().tolist() == [len(retreat_options(m, h, 1, z, europa_revised_retreat()))
                                  for h in ("0101", "0501")]
    assert [o.path for o in t.options(1)] == \
        [o.path for o in retreat_options(m, "0501", 1, z, europa_revised_retreat())]


def test_retreat_bad_length_raises():
    m, z = setup(["cc"], [("0101", "axis")])
    with pytest.raises(InputError, match="length"):
        retreat_options(m, "0101", 3, z, europa_revised_retreat())


def div(uid, cadre=False):
    return Unit(uid, "german", "axis", UnitType.INFANTRY, divisional=True, cadre=cadre)


def test_eur16_retreat_penalty_divisions_to_cadre_then_non_divisional_units():
    stack = [div("d1"), Unit("art", "german", "axis", UnitType.ARTILLERY), div("d2")]
    assert retreat_penalty(stack, 1).to_cadre == ("d1",)
    two = retreat_penalty(stack, 2)
    assert two.to_cadre == ("d1", "d2") and two.eliminated == ()
    three = retreat_penalty(stack, 3)
    assert three.eliminated == ("art",)
    no_div = [Unit("a", "german", "axis", UnitType.ARTILLERY),
              Unit("b", "german", "axis", UnitType.ENGINEER)]
    assert retreat_penalty(no_div, 1).eliminated == ("a",)
    assert retreat_penalty([div("c", cadre=True)], 1).eliminated == ("c",)
    with pytest.raises(InputError):
        retreat_penalty(stack, -1)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), length=st.sampled_from([1, 2]), europa=st.booleans())
def test_property_retreats_are_legal(seed, length, europa):
    m = generate_map(14, 12, seed=seed)
    sc = generate_front(m, units=40, seed=seed, depth=3)
    z = zoc_field(m, sc.forces, "axis", europa_revised_zoc() if europa else third_reich_zoc())
    rules = europa_revised_retreat() if europa else third_reich_retreat()
    stacks = np.unique(sc.forces.hex[sc.forces.of_side("axis")])
    t = retreat_table(m, stacks, length, z, rules)
    zm = z.mask(Purpose.RETREAT)
    for j, s in enumerate(stacks.tolist()):
        for o in t.options(j):
            h = list(o.hexes)
            assert h[0] == s and len(h) == length + 1
            assert not z.enemy[h[1:]].any()
            assert [distance(m.hex(s), m.hex(x)) for x in h] == list(range(length + 1))
            assert o.zoc_entered == int(zm[h[1:]].sum())
            if not europa:
                assert o.zoc_entered == 0
