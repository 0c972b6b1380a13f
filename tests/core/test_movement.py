"""Movement ranges (TR-27, TR-28, EUR-17, EUR-19, EUR-20, EUR-26) on hand-drawn maps.

Odd-q layout: a single row "cccccc" is a line 0101-0201-0301-..., each hex adjacent to the next.
"""

import heapq
import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.mapdata import HexsideFeature
from grognard.core.mapgen import generate_front, generate_map, map_from_rows
from grognard.core.movement import (
    MoveClass,
    MovementPhase,
    MovementReadings,
    MovementRules,
    SpecialCost,
    edge_cost,
    edge_costs,
    europa_revised_movement,
    is_mechanized,
    movement_graph,
    movement_range,
    movement_ranges,
    overrun_allowed,
    overrun_mp,
    third_reich_movement,
    third_reich_movement_allowance,
)
from grognard.core.paths import Forces, Purpose, edge_tables, hex_index, interdiction_zone
from grognard.core.units import Unit, UnitType
from grognard.core.zoc import europa_revised_zoc, third_reich_zoc, zoc_field

FOOT, MECH = MoveClass.FOOT, MoveClass.MECHANIZED


def setup(rows, units=(), side="axis", zrules=None, **kw):
    m = map_from_rows(rows, **kw)
    f = Forces.build(m, [h for h, _ in units], [s for _, s in units],
                     side_names=["axis", "allies"])
    return m, zoc_field(m, f, side, zrules or third_reich_zoc())


# --- 3R ---------------------------------------------------------------------------------------
def test_tr28_every_hex_costs_one_mp():
    m, z = setup(["cccccc"])
    r = movement_range(m, "0101", 3, FOOT, z, third_reich_movement())
    assert r.labels() == ["0101", "0201", "0301", "0401"]
    assert r.cost_to("0401") == 3 and r.cost_to("0501") is None


def test_tr28_river_hexside_costs_one_more():
    m, z = setup(["cccc"], hexsides={("0201", "0301"): "river"})
    r = movement_range(m, "0101", 3, FOOT, z, third_reich_movement())
    assert r.cost_to("0301") == 3
    assert "0401" not in r


def test_tr28_infantry_pays_two_for_swamp_and_mountain():
    for letter in "sm":
        m, z = setup(["c" + letter + "cc"])
        r = movement_range(m, "0101", 3, FOOT, z, third_reich_movement())
        assert r.cost_to("0201") == 2 and r.cost_to("0301") == 3


def test_tr28_armor_enters_swamp_only_as_its_whole_move():
    m, z = setup(["cscs"])
    r = movement_range(m, "0101", 6, MECH, z, third_reich_movement())
    assert r.cost_to("0201") == 6  # all MPs, by the one-hex move
    assert "0301" not in r  # cannot continue through the swamp
    r2 = movement_range(m, "0301", 6, MECH, z, third_reich_movement())
    assert r2.cost_to("0401") == 6  # adjacent swamp: all MPs
    m2, z2 = setup(["ccs"])
    assert "0301" not in movement_range(m2, "0101", 6, MECH, z2, third_reich_movement())


def test_tr28_armor_may_not_enter_swamp_in_the_mechanized_phase():
    m, z = setup(["cs"])
    normal = movement_range(m, "0101", 4, MECH, z, third_reich_movement())
    mech = movement_range(m, "0101", 4, MECH, z, third_reich_movement(),
                          phase=MovementPhase.MECHANIZED)
    assert "0201" in normal and "0201" not in mech


def test_tr28_one_hex_move_regardless_of_cost():
    m, z = setup(["cs"], hexsides={("0101", "0201"): "river"})
    r = movement_range(m, "0101", 1, FOOT, z, third_reich_movement())
    assert r.cost_to("0201") == 1  # swamp 2 + river 1, but one hex is always allowed
    eur = movement_range(m, "0101", 1, FOOT, z, europa_revised_movement(
        terrain_costs={FOOT: {"swamp": 2}}))
    assert "0201" not in eur  # Europa revised has no such rule configured


def test_tr28_one_hex_move_never_across_a_sea_hexside():
    m, z = setup(["cc"], hexsides={("0101", "0201"): "sea"})
    assert movement_range(m, "0101", 4, FOOT, z, third_reich_movement()).labels() == ["0101"]


def test_tr27_entering_enemy_zoc_costs_one_more():
    m, z = setup(["cccccc"], [("0101", "axis"), ("0501", "allies")])
    r = movement_range(m, "0101", 6, MECH, z, third_reich_movement())
    assert r.cost_to("0401") == 4  # 3 hexes + 1 for the ZOC


def test_tr27_infantry_stops_on_entering_enemy_zoc_armor_continues():
    # the allied unit at 0402 covers 0401 and 0302: a wall across both rows
    m, z = setup(["cccccc", "cccccc"], [("0101", "axis"), ("0402", "allies")])
    foot = movement_range(m, "0101", 8, FOOT, z, third_reich_movement())
    armor = movement_range(m, "0101", 8, MECH, z, third_reich_movement())
    assert "0401" in foot and "0501" not in foot
    assert armor.cost_to("0601") == 6  # five hexes + 1 for the ZOC
    assert armor.path_to("0601") == ["0101", "0201", "0301", "0401", "0501", "0601"]


def test_tr27_one_hex_move_directly_zoc_to_zoc():
    m, z = setup(["ccccc"], [("0201", "axis"), ("0301", "allies")])
    r = movement_range(m, "0201", 1, FOOT, z, third_reich_movement())
    assert r.labels() == ["0101", "0201"]
    # the allied unit at 0201 covers both 0101 and 0102
    m2, z2 = setup(["ccc", "ccc"], [("0101", "axis"), ("0201", "allies")])
    r2 = movement_range(m2, "0101", 1, FOOT, z2, third_reich_movement())
    assert all(z2.contains(hex_index(m2, h)) for h in ("0101", "0102"))
    assert r2.cost_to("0102") == 1  # ZOC to ZOC by the one-hex move (cost 2 > 1 MP)


def test_tr27_leaving_a_zoc_costs_nothing():
    m, z = setup(["cccc"], [("0201", "axis"), ("0101", "allies")])
    r = movement_range(m, "0201", 2, FOOT, z, third_reich_movement())
    assert r.cost_to("0401") == 2


def test_tr27_friendly_units_never_negate_zoc_for_movement():
    m, z = setup(["cccccc"], [("0101", "axis"), ("0401", "axis"), ("0501", "allies")])
    r = movement_range(m, "0101", 6, FOOT, z, third_reich_movement())
    assert r.cost_to("0401") == 4  # still +1 although a friendly unit is there
    assert "0601" not in r  # and infantry still stops


def test_enemy_occupied_hexes_are_never_entered():
    m, z = setup(["ccc"], [("0101", "axis"), ("0201", "allies")])
    assert movement_range(m, "0101", 9, MECH, z, third_reich_movement()).labels() == ["0101"]


def test_tr28_eur17_one_edge_cost_is_the_whole_map_cost_of_that_edge():
    """TR-28/TR-27/EUR-17: ``edge_cost`` (a path check's single step) gives exactly the value
    ``edge_costs`` gives that edge - terrain, rivers, enemy ZOC entry/leave/ZOC-to-ZOC costs,
    enemy-held hexes, the mechanized phase's prohibitions - for every edge, class and phase."""
    rows = ["cwmsc", "ccccc", "cmwcc", "scccc"]
    seen = []
    units = [("0202", "allies"), ("0404", "allies"), ("0101", "axis"), ("0303", "axis")]
    for zrules, rules in ((third_reich_zoc(), third_reich_movement()),
                          (europa_revised_zoc(), europa_revised_movement())):
        m, z = setup(rows, units, zrules=zrules)
        m.edge_features[0] |= np.uint16(HexsideFeature.RIVER)  # a river on the first edge
        for cls in MoveClass:
            for ph in MovementPhase:
                for zoc in (None, z):
                    full = edge_costs(m, cls, zoc, rules, phase=ph)
                    one = [edge_cost(m, cls, zoc, rules, e, phase=ph) for e in range(len(full))]
                    assert np.array_equal(np.array(one), full)
                    seen.extend(one)
    assert any(np.isinf(seen)) and any(1 < c < np.inf for c in seen)  # not all plain clear


# --- Europa revised ---------------------------------------------------------------------------
def test_eur17_leaving_enemy_zoc_costs_two_more():
    m, z = setup(["cccc"], [("0201", "axis"), ("0101", "allies")], zrules=europa_revised_zoc())
    r = movement_range(m, "0201", 4, FOOT, z, europa_revised_movement())
    assert r.cost_to("0301") == 3 and r.cost_to("0401") == 4


def test_eur17_non_mechanized_never_moves_zoc_to_zoc():
    m, z = setup(["ccc", "ccc"], [("0101", "axis"), ("0201", "allies")],
                 zrules=europa_revised_zoc())
    foot = movement_range(m, "0101", 9, FOOT, z, europa_revised_movement())
    mech = movement_range(m, "0101", 9, MECH, z, europa_revised_movement())
    assert "0102" not in foot  # 0101 -> 0102 would be ZOC to ZOC
    assert mech.cost_to("0102") == 1 + 3  # mechanized: entry + 3 (replacing the +2)


def test_eur17_non_mechanized_stop_on_entering_zoc_mechanized_may_continue():
    # the allied unit at 0402 covers 0401, 0302 and 0502
    m, z = setup(["cccccc", "cccccc"], [("0101", "axis"), ("0402", "allies")],
                 zrules=europa_revised_zoc())
    foot = movement_range(m, "0101", 12, FOOT, z, europa_revised_movement())
    mech = movement_range(m, "0101", 12, MECH, z, europa_revised_movement())
    assert foot.cost_to("0401") == 3 and "0501" not in foot
    assert mech.cost_to("0501") == 3 + 1 + 2  # leaving the ZOC costs +2
    assert mech.cost_to("0601") == 7


def test_eur17_mechanized_definition_reading():
    mot = Unit("m", "german", "axis", UnitType.MOTORIZED, movement=8)
    assert not is_mechanized(mot)
    assert is_mechanized(mot, MovementReadings(mech_definition_ma_threshold=8))
    assert is_mechanized(Unit("a", "german", "axis", UnitType.ARMOR, movement=6))
    assert not is_mechanized(Unit("i", "german", "axis", UnitType.INFANTRY, movement=10))


def test_eur26_interdiction_zone_costs_one_more_mp():
    m, z = setup(["cccccc"])
    zone = interdiction_zone(m, ["0401"])
    assert zone.sum() == 3
    plain = movement_range(m, "0101", 9, FOOT, z, europa_revised_movement())
    slow = movement_range(m, "0101", 9, FOOT, z, europa_revised_movement(), interdiction=zone)
    assert plain.cost_to("0601") == 5 and slow.cost_to("0601") == 8


def test_tr28_mud_halves_armor_ma_rounding_down():
    assert third_reich_movement_allowance(5, mechanized=True, mud=True) == 2
    assert third_reich_movement_allowance(5, mechanized=False, mud=True) == 5
    assert third_reich_movement_allowance(5, mechanized=True, mud=False) == 5


def test_eur19_tv12_overrun_costs():
    """RULES.md EUR-TV12: overrun of a clear hex 4 MP; plus leaving another unit's ZOC 6;
    woods-type entry 2: 5 MP."""
    assert overrun_mp(1, leaves_zoc=False, zoc_to_zoc=False) == 4
    assert overrun_mp(1, leaves_zoc=True, zoc_to_zoc=False) == 6
    assert overrun_mp(2, leaves_zoc=False, zoc_to_zoc=False) == 5
    assert overrun_mp(1, leaves_zoc=True, zoc_to_zoc=True) == 7
    with pytest.raises(IllegalOrder, match="EUR-17"):
        overrun_mp(1, leaves_zoc=True, zoc_to_zoc=True, move_class=FOOT)


def test_eur20_overrun_prohibitions():
    m = map_from_rows(["cRcfcwcm"], hexsides={("0101", "0201"): "major_river"})
    assert not overrun_allowed(m, "0101", "0201")  # wooded rough
    assert overrun_allowed(m, "0301", "0401", mud=False) is False  # forest
    assert overrun_allowed(m, "0501", "0601")  # woods
    assert not overrun_allowed(m, "0501", "0601", mud=True)
    assert not overrun_allowed(m, "0701", "0801")  # mountain
    m2 = map_from_rows(["cc"], hexsides={("0101", "0201"): "major_river"})
    assert not overrun_allowed(m2, "0101", "0201")
    assert overrun_allowed(m2, "0101", "0201", frozen_rivers=True)
    m3 = map_from_rows(["cd"])
    assert overrun_allowed(m3, "0101", "0201")
    assert not overrun_allowed(m3, "0101", "0201",
                               readings=MovementReadings(overrun_unlisted_terrain_allowed=False))


def test_eur20_every_city_type_can_be_overrun_even_in_unlisted_terrain():
    """001 "Overruns": "Clear, woods, normal rough, and all city types can be overrun in all
    other weather conditions." A city in steppe is listed (a city type), so it may be overrun
    even when unlisted terrain is read as prohibited; the same steppe hex without the city
    may not; a city in forest stays prohibited (the named prohibition wins)."""
    from grognard.core.hexgrid import Hex
    from grognard.core.mapdata import City, CityClass, MapData

    city = (City("Town", frozenset({CityClass.CITY})),)
    m = MapData.build([Hex(q, 0) for q in range(4)], ["clear", "steppe", "steppe", "forest"],
                      cities={Hex(1, 0): city, Hex(3, 0): city})
    strict = MovementReadings(overrun_unlisted_terrain_allowed=False)
    assert overrun_allowed(m, "0101", "0201", readings=strict)  # city in steppe
    assert not overrun_allowed(m, "0201", "0302", readings=strict)  # bare steppe
    assert overrun_allowed(m, "0201", "0302")  # default reading: unlisted terrain allowed
    assert not overrun_allowed(m, "0302", "0402")  # city in forest
    assert not overrun_allowed(m, "0101", "0201", mud=True, readings=strict)


# --- configuration, batching, errors ----------------------------------------------------------
def test_movement_rules_configure_costs():
    rules = MovementRules(terrain_costs={FOOT: {"woods": 3}},
                          hexside_costs={HexsideFeature.RIVER: SpecialCost.PROHIBITED})
    m, z = setup(["cwc"], hexsides={("0201", "0301"): "river"})
    r = movement_range(m, "0101", 9, FOOT, z, rules)
    assert r.cost_to("0201") == 3 and "0301" not in r


def test_batched_ranges_equal_single_ranges():
    m = generate_map(20, 20, seed=3)
    sc = generate_front(m, units=80, seed=3, depth=3)
    z = zoc_field(m, sc.forces, "axis", third_reich_zoc())
    mine = np.nonzero(sc.forces.of_side("axis"))[0][:12]
    starts, mps = sc.forces.hex[mine], sc.mp[mine]
    classes = [sc.move_class[i] for i in mine]
    batch = movement_ranges(m, starts, mps, classes, z, third_reich_movement(), chunk=5)
    for b, s, mp, c in zip(batch, starts, mps, classes, strict=True):
        one = movement_range(m, int(s), int(mp), c, z, third_reich_movement())
        assert np.array_equal(b.hexes, one.hexes) and np.array_equal(b.cost, one.cost)


def test_movement_json_lists_reachable_hexes_with_costs():
    m, z = setup(["ccc"])
    j = movement_range(m, "0101", 1, FOOT, z, third_reich_movement()).to_json()
    assert j == {"start": "0101", "mp": 1, "class": "foot",
                 "reachable": {"0101": 0, "0201": 1}}


def test_movement_bad_input():
    m, z = setup(["ccc"], [("0301", "allies")])
    rules = third_reich_movement()
    with pytest.raises(InputError, match="not on the map"):
        movement_range(m, "0909", 3, FOOT, z, rules)
    with pytest.raises(InputError, match="negative"):
        movement_range(m, "0101", -1, FOOT, z, rules)
    with pytest.raises(InputError, match="move_classes"):
        movement_range(m, "0101", 3, "hovercraft", z, rules)
    with pytest.raises(InputError, match="enemy"):
        movement_range(m, "0301", 3, FOOT, z, rules)
    with pytest.raises(InputError, match="cost"):
        MovementRules(terrain_costs={FOOT: {"woods": 0}})
    with pytest.raises(InputError):
        map_from_rows(["cX"])


# --- property: never more than the MPs, and the same as a plain reference search ---------------
def reference_range(m, start, mp, cls, z, rules):
    """A plain heapq search written straight from the rules, hex by hex."""
    et = edge_tables(m)
    w = edge_costs(m, cls, z, rules)
    zm = z.mask(Purpose.MOVEMENT)
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        c, h = heapq.heappop(heap)
        if c > best.get(h, 1e18):
            continue
        if h != start and cls in rules.must_stop_in_zoc and zm[h]:
            continue
        for d in range(6):
            e = int(et.pos[h, d])
            if e < 0 or not np.isfinite(w[e]):
                continue
            step = float(w[e])
            if h == start:
                if mp < 1:
                    continue
                if step >= 1e9:
                    step = mp
                elif rules.one_hex_minimum:
                    step = min(step, mp)
            elif step >= 1e9:
                continue
            nc = c + step
            t = int(m.indices[e])
            if nc <= mp and nc < best.get(t, 1e18):
                best[t] = nc
                heapq.heappush(heap, (nc, t))
    return {h: int(c) for h, c in best.items()}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), mp=st.integers(0, 9), pick=st.integers(0, 10_000),
       mech=st.booleans(), europa=st.booleans())
def test_property_movement_never_exceeds_mps(seed, mp, pick, mech, europa):
    m = generate_map(14, 12, seed=seed)
    sc = generate_front(m, units=40, seed=seed, depth=3)
    zr = europa_revised_zoc() if europa else third_reich_zoc()
    rules = europa_revised_movement() if europa else third_reich_movement()
    z = zoc_field(m, sc.forces, "axis", zr)
    mine = np.nonzero(sc.forces.of_side("axis"))[0]
    start = int(sc.forces.hex[mine[pick % len(mine)]])
    cls = MECH if mech else FOOT
    r = movement_range(m, start, mp, cls, z, rules)
    assert r.cost.max() <= mp
    assert {int(h): int(c) for h, c in zip(r.hexes, r.cost, strict=True)} == \
        reference_range(m, start, mp, cls, z, rules)
    g = movement_graph(m, cls, z, rules)
    et = edge_tables(m)
    for h in r.hexes.tolist():
        path = r.hex_path(h)
        assert path[0] == start and path[-1] == h
        assert not z.enemy[path[1:]].any()
        total = 0.0
        for i, (a, b) in enumerate(itertools.pairwise(path)):
            e = int(et.pos[a, next(d for d in range(6) if et.nbr[a, d] == b)])
            step = float(g.w[e])
            total += min(step, mp) if i == 0 and (rules.one_hex_minimum or step >= 1e9) else step
        assert total == r.cost_to(h) <= mp


def test_eur17_move_class_of_units():
    from grognard.core.movement import move_class_of

    assert move_class_of(Unit("a", "german", "axis", UnitType.ARMOR)) == MECH
    assert move_class_of(Unit("m", "german", "axis", UnitType.MOTORIZED, movement=10)) == MECH
    assert move_class_of(Unit("m", "german", "axis", UnitType.MOTORIZED, movement=8)) == FOOT
    assert move_class_of(Unit("i", "german", "axis", UnitType.INFANTRY, movement=4)) == FOOT


def reference_edge_cost(m, a, b, cls, zm, enemy, rules, zone, phase):
    """One edge's MP cost written straight from the rules (None: prohibited, 'all')."""
    from grognard.core.mapdata import TERRAIN_CODES

    t = TERRAIN_CODES[int(m.terrain[b])]
    if enemy[b] or t in ("sea", "lake"):
        return None
    if phase == MovementPhase.MECHANIZED and t in rules.mechanized_phase_prohibited.get(cls, ()):
        return None
    c = rules.terrain_costs.get(cls, {}).get(t, rules.default_cost)
    if c == SpecialCost.PROHIBITED:
        return None
    total = 0 if c == SpecialCost.ALL else c
    feats = m.features_between(m.hex(a), m.hex(b))
    for feat, fc in rules.hexside_costs.items():
        if feats & feat:
            if fc == SpecialCost.PROHIBITED:
                return None
            total += fc
    total += rules.interdiction_cost if zone[b] else 0
    total += rules.enter_zoc_cost if zm[b] else 0
    if zm[a] and zm[b] and cls in rules.zoc_to_zoc_cost:
        z2z = rules.zoc_to_zoc_cost[cls]
        if z2z == SpecialCost.PROHIBITED:
            return None
        total += z2z
    elif zm[a]:
        total += rules.leave_zoc_cost
    return "all" if c == SpecialCost.ALL else total


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), europa=st.booleans(), mech=st.booleans(),
       mech_phase=st.booleans(), centre=st.integers(0, 10_000))
def test_property_edge_costs_match_the_rules_edge_by_edge(seed, europa, mech, mech_phase, centre):
    m = generate_map(10, 9, seed=seed)
    sc = generate_front(m, units=24, seed=seed, depth=2)
    z = zoc_field(m, sc.forces, "axis", europa_revised_zoc() if europa else third_reich_zoc())
    rules = europa_revised_movement(
        terrain_costs={FOOT: {"woods": 2, "swamp": 3}, MECH: {"woods": 3, "swamp": 4}},
        hexside_costs={HexsideFeature.RIVER: 2}) if europa else third_reich_movement()
    cls = MECH if mech else FOOT
    phase = MovementPhase.MECHANIZED if mech_phase else MovementPhase.NORMAL
    zone = interdiction_zone(m, [centre % m.n])
    w = edge_costs(m, cls, z, rules, phase=phase, interdiction=zone)
    zm = z.mask(Purpose.MOVEMENT)
    et = edge_tables(m)
    for e in range(len(m.indices)):
        want = reference_edge_cost(m, int(et.src[e]), int(m.indices[e]), cls, zm, z.enemy, rules,
                                   zone, phase)
        if want is None:
            assert not np.isfinite(w[e])
        elif want == "all":
            assert np.isfinite(w[e]) and w[e] >= 1e9
        else:
            assert w[e] == want
