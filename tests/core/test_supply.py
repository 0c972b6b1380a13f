"""Supply tracing (C-SUPPLY; EUR-26, EUR-30, TR-72, TR-73) on hand-drawn maps.

Odd-q layout: in a single row "cccccc" the hexes 0101, 0201, 0301, ... form a line.
"""

import itertools
from collections import deque
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grognard.core.errors import InputError
from grognard.core.hexgrid import distance
from grognard.core.mapdata import City, CityClass, HexsideFeature, MapData
from grognard.core.mapgen import generate_front, generate_map, map_from_rows
from grognard.core.movement import third_reich_movement
from grognard.core.paths import Forces, Purpose, edge_tables, hex_index, interdiction_zone
from grognard.core.supply import (
    LengthUnit,
    SupplyRules,
    city_hexes,
    europa_revised_supply,
    path_to_friendly_city,
    supply_phase_marks,
    third_reich_supply,
    trace_any_length,
    trace_supply,
)
from grognard.core.zoc import europa_revised_zoc, third_reich_zoc, zoc_field


def setup(rows, units, side="axis", m=None, **kw):
    m = m or map_from_rows(rows, **kw)
    f = Forces.build(m, [h for h, _ in units], [s for _, s in units],
                     side_names=["axis", "allies"])
    return m, f, zoc_field(m, f, side, third_reich_zoc())


def trace(m, f, z, sources, max_length, rules=None, **kw):
    mine = f.of_side(z.side)
    return trace_supply(m, f.hex[mine], z, sources, max_length=max_length,
                        rules=rules or third_reich_supply(), **kw)


def test_c_supply_line_within_length_and_reported_path():
    m, f, z = setup(["cccccc"], [("0101", "axis")])
    t = trace(m, f, z, ["0601"], 5)
    assert t.in_supply.tolist() == [True]
    assert t.path(0) == ["0101", "0201", "0301", "0401", "0501", "0601"]
    assert t.length.tolist() == [5]
    assert trace(m, f, z, ["0601"], 4).in_supply.tolist() == [False]
    assert trace(m, f, z, ["0601"], 4).path(0) == []


def test_c_supply_weather_shortened_length_is_just_a_smaller_limit():
    m, f, z = setup(["cccc"], [("0101", "axis")])
    assert trace(m, f, z, ["0401"], 3).in_supply[0]
    assert not trace(m, f, z, ["0401"], 3 - 1).in_supply[0]


def test_c_supply_blocked_by_enemy_units():
    m, f, _z = setup(["ccccc"], [("0101", "axis"), ("0301", "allies")])
    z0 = zoc_field(m, f, "axis", replace(third_reich_zoc(), not_into_terrain=frozenset()))
    rules = SupplyRules(enemy_zoc_blocks=False)
    assert not trace(m, f, z0, ["0501"], 10, rules).in_supply[0]


def test_tr72_enemy_zoc_blocks_supply_unless_a_friendly_unit_is_there():
    # two rows: the allied unit at 0402 covers 0401 and 0302 (a wall) and 0502
    units = [("0101", "axis"), ("0402", "allies")]
    m, f, z = setup(["cccccc", "cccccc"], units)
    assert not trace(m, f, z, ["0601"], 20).in_supply[0]
    m, f, z = setup(["cccccc", "cccccc"], [*units, ("0401", "axis")])
    t = trace(m, f, z, ["0601"], 20)
    assert t.in_supply.tolist() == [True, True]
    assert "0401" in t.path(0)


def test_tr72_a_unit_in_enemy_zoc_still_traces_from_its_own_hex():
    m, f, z = setup(["cccc"], [("0201", "axis"), ("0101", "allies")])
    assert z.contains(hex_index(m, "0201"))
    assert trace(m, f, z, ["0401"], 3).in_supply[0]
    # even where the rules grant no negation for supply, the line may start there
    zr = replace(third_reich_zoc(), negated_for=frozenset())
    z2 = zoc_field(m, f, "axis", zr)
    assert trace(m, f, z2, ["0401"], 3).in_supply[0]


def test_c_supply_not_across_sea_hexsides_but_across_rivers():
    m, f, z = setup(["ccc"], [("0101", "axis")], hexsides={("0201", "0301"): "sea"})
    assert not trace(m, f, z, ["0301"], 9).in_supply[0]
    m, f, z = setup(["ccc"], [("0101", "axis")], hexsides={("0201", "0301"): "river"})
    assert trace(m, f, z, ["0301"], 2).in_supply[0]


def test_eur26_interdiction_zone_shortens_supply_line_by_one_hex():
    """001 "Interdiction": lines through any number of zones must be 1 hex shorter."""
    m, f, z = setup(["cccccc"], [("0101", "axis")])
    zone = interdiction_zone(m, ["0401"])
    rules = europa_revised_supply()
    assert trace(m, f, z, ["0601"], 5, rules).in_supply[0]
    assert not trace(m, f, z, ["0601"], 5, rules, interdiction=zone).in_supply[0]
    assert trace(m, f, z, ["0601"], 6, rules, interdiction=zone).in_supply[0]
    # two zones still cost only one hex
    two = interdiction_zone(m, ["0201", "0501"])
    assert trace(m, f, z, ["0601"], 6, rules, interdiction=two).in_supply[0]
    # 3R has no such rule configured
    assert trace(m, f, z, ["0601"], 5, third_reich_supply(), interdiction=zone).in_supply[0]


def test_eur26_a_line_around_the_zone_keeps_the_full_length():
    m, f, z = setup(["cccccc"] * 3, [("0101", "axis")])
    zone = interdiction_zone(m, ["0303"])  # covers 0302, on the plain shortest line
    rules = europa_revised_supply()
    plain = trace(m, f, z, ["0601"], 5, rules)
    assert "0302" in plain.path(0) and zone[hex_index(m, "0302")]
    t = trace(m, f, z, ["0601"], 5, rules, interdiction=zone)
    assert t.in_supply[0]
    assert t.path(0) == ["0101", "0201", "0301", "0401", "0502", "0601"]
    assert not any(zone[hex_index(m, h)] for h in t.path(0))


def test_eur30_path_of_any_length_isolation_test():
    units = [("0101", "axis"), ("0402", "allies")]
    m, f, z = setup(["cccccc", "cccccc"], units)
    mine = f.of_side("axis")
    assert not trace_any_length(m, f.hex[mine], z, ["0601"], third_reich_supply()).in_supply[0]
    m, f, z = setup(["cccccccccc", "cccccccccc"], [("0101", "axis")])
    t = trace_any_length(m, f.hex[f.of_side("axis")], z, ["1001"], third_reich_supply())
    assert t.in_supply[0] and t.length[0] == 9
    assert not trace(m, f, z, ["1001"], 8).in_supply[0]


def test_eur30_supply_phase_marks():
    """EUR-30: still OOS and no path of any length -> isolated; back in supply -> restored;
    newly OOS -> marked, not isolated this turn."""
    was = np.array([True, True, True, False, False])
    ins = np.array([False, False, True, False, True])
    anyl = np.array([False, True, True, False, True])
    marks = supply_phase_marks(was, ins, anyl)
    assert marks.isolated.tolist() == [True, False, False, False, False]
    assert marks.restored.tolist() == [False, False, True, False, False]
    assert marks.newly_out.tolist() == [False, False, False, True, False]
    with pytest.raises(InputError):
        supply_phase_marks(was, ins[:2], anyl)


def test_tr73_path_to_a_friendly_city():
    from grognard.core.hexgrid import Hex

    hexes = [Hex(q, 0) for q in range(4)]
    m = MapData.build(hexes, ["clear"] * 4,
                      cities={Hex(3, 0): [City("Paris", frozenset({CityClass.CAPITAL}))],
                              Hex(1, 0): [City("Sedan", frozenset({CityClass.CITY}))]})
    f = Forces.build(m, [Hex(0, 0)], ["axis"], side_names=["axis", "allies"])
    z = zoc_field(m, f, "axis", third_reich_zoc())
    assert city_hexes(m).tolist() == [1, 3]
    assert city_hexes(m, ["capital"]).tolist() == [3]
    friendly = np.array([False, False, False, True])
    t = path_to_friendly_city(m, f.hex, z, friendly, third_reich_supply())
    assert t.in_supply[0] and t.path(0)[-1] == m.label(3)
    none = path_to_friendly_city(m, f.hex, z, np.zeros(4, bool), third_reich_supply())
    assert not none.in_supply[0]


def test_c_supply_length_in_mps():
    m, f, z = setup(["csc"], [("0101", "axis")])
    rules = SupplyRules(length_unit=LengthUnit.MP, movement=third_reich_movement())
    t = trace(m, f, z, ["0301"], 3, rules)
    assert t.in_supply[0] and t.length[0] == 3  # swamp 2 + clear 1
    assert not trace(m, f, z, ["0301"], 2, rules).in_supply[0]
    with pytest.raises(InputError, match="movement"):
        trace(m, f, z, ["0301"], 2, SupplyRules(length_unit=LengthUnit.MP))


def test_supply_json_report():
    m, f, z = setup(["ccc"], [("0101", "axis")])
    j = trace(m, f, z, ["0301"], 2).to_json()
    assert j == {"max_length": 2, "units": [
        {"id": "u0", "hex": "0101", "in_supply": True, "length": 2,
         "path": ["0101", "0201", "0301"], "reason": "in supply: 2 of 2 to 0301"}]}


def test_c_supply_explains_too_far_and_isolated():
    m, f, z = setup(["cccccc"], [("0101", "axis")])
    t = trace(m, f, z, ["0601"], 3, explain=True)
    assert t.reason(0) == "out of supply: the shortest open line is 5, the limit 3"
    m, f, z = setup(["cccccc", "cccccc"], [("0101", "axis"), ("0402", "allies")])
    t = trace(m, f, z, ["0601"], 3, explain=True)
    assert t.reason(0).startswith("isolated")
    assert trace(m, f, z, ["0601"], 3).reason(0) == "out of supply"


def test_supply_bad_input():
    m, f, z = setup(["ccc"], [("0101", "axis")])
    with pytest.raises(InputError, match="not on the map"):
        trace(m, f, z, ["0909"], 3)
    with pytest.raises(InputError, match="max_length"):
        trace(m, f, z, ["0301"], -1)
    with pytest.raises(InputError, match="unit"):
        trace(m, f, z, ["0301"], 3).path(5)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), max_length=st.integers(0, 30), europa=st.booleans(),
       centre=st.integers(0, 10_000))
def test_property_supply_paths_never_pass_enemy_units_or_uncovered_zoc(seed, max_length, europa,
                                                                      centre):
    m = generate_map(16, 14, seed=seed)
    sc = generate_front(m, units=50, seed=seed, depth=3, sources_per_side=3)
    z = zoc_field(m, sc.forces, "axis", europa_revised_zoc() if europa else third_reich_zoc())
    rules = europa_revised_supply() if europa else third_reich_supply()
    zone = interdiction_zone(m, [centre % m.n])
    mine = sc.forces.of_side("axis")
    t = trace_supply(m, sc.forces.hex[mine], z, sc.sources["axis"], max_length=max_length,
                     rules=rules, interdiction=zone)
    zm = z.mask(Purpose.SUPPLY)
    for i in range(len(t.unit_hex)):
        p = [hex_index(m, h) for h in t.path(i)]
        if not t.in_supply[i]:
            assert p == []
            continue
        assert p[0] == t.unit_hex[i] and p[-1] in sc.sources["axis"]
        assert not z.enemy[p].any()
        assert not zm[p[1:]].any()  # after its own hex, no uncovered enemy ZOC
        assert all(distance(m.hex(a), m.hex(b)) == 1 for a, b in itertools.pairwise(p))
        allowed = max_length - (rules.interdiction_shortening if zone[p].any() else 0)
        assert len(p) - 1 <= allowed
    # and no unit is wrongly left out: a plain breadth-first search, unit by unit
    blocked = z.enemy | zm | edge_tables(m).water
    sources = set(sc.sources["axis"].tolist())
    shorten = rules.interdiction_shortening
    for i, start in enumerate(t.unit_hex.tolist()):
        d_any = reference_bfs(m, start, blocked, sources)
        if shorten and zone.any():
            d_clean = reference_bfs(m, start, blocked | zone, sources) if not zone[start] else None
            expected = (d_clean is not None and d_clean <= max_length) or \
                (d_any is not None and d_any <= max_length - shorten)
        else:
            expected = d_any is not None and d_any <= max_length
        assert bool(t.in_supply[i]) == expected


def reference_bfs(m, start, blocked, sources):
    """Hexes from ``start`` to the nearest source, never entering a blocked hex (None: none)."""
    et = edge_tables(m)
    bad = int(HexsideFeature.SEA | HexsideFeature.LAKE | HexsideFeature.IMPASSABLE)
    seen = {start: 0}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        if h in sources and not blocked[h]:
            return seen[h]
        for d in range(6):
            nb, e = int(et.nbr[h, d]), int(et.pos[h, d])
            if nb < 0 or nb in seen or blocked[nb] or int(m.edge_features[e]) & bad:
                continue
            seen[nb] = seen[h] + 1
            queue.append(nb)
    return None


def test_eur30_europa_supply_blocked_by_enemy_zoc_unless_friendly_occupied():
    """Europa supply lines (original rules, EXTERNAL; EUR-30 reading): enemy units and enemy
    ZOC block them; a friendly unit in the hex negates the ZOC."""
    rows = ["cccccc", "cccccc"]
    m = map_from_rows(rows)
    for extra, expected in (([], False), ([("0401", "axis")], True)):
        units = [("0101", "axis"), ("0402", "allies"), *extra]
        f = Forces.build(m, [h for h, _ in units], [s for _, s in units],
                         side_names=["axis", "allies"])
        z = zoc_field(m, f, "axis", europa_revised_zoc())
        t = trace(m, f, z, ["0601"], 20, europa_revised_supply())
        assert bool(t.in_supply[0]) is expected
