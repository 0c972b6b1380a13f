"""TR-27 zones of control and TR-28 movement costs / the one-hex minimum move, on hand-drawn
maps (002_67ce4e3275b117b3.txt "ZOCs and changes to land movement")."""

from __future__ import annotations

import pytest

from grognard.core.errors import InputError
from grognard.core.mapgen import map_from_rows
from grognard.core.movement import MovementPhase, SpecialCost
from grognard.third_reich.movement.movement import (
    check_path,
    enemy_zoc,
    exerts_zoc,
    may_move_in_phase,
    minimum_move_ok,
    move_class,
    move_cost,
    move_range,
    movement_allowance,
    movement_phases,
    must_stop,
    zoc_entry_cost,
    zoc_hexes,
)
from grognard.third_reich.turn.forces import AirUnit, GroundKind, GroundUnit, Side


def inf(uid="i", side="axis", ma=3, kind=GroundKind.INFANTRY):
    return GroundUnit(uid, "x", Side(side), kind, 2, ma)


def arm(uid="a", side="axis", ma=5):
    return GroundUnit(uid, "x", Side(side), GroundKind.ARMOR, 4, ma)


LINE = map_from_rows(["cccccccc"])  # 0101 .. 0801 in a row


def test_tr27_ground_units_exert_zoc_air_does_not():
    assert exerts_zoc(inf()) and exerts_zoc(inf(kind=GroundKind.AIRBORNE))
    assert not exerts_zoc(AirUnit("lw", 5))


def test_tr27_zoc_covers_six_neighbours():
    m = map_from_rows(["ccc", "ccc", "ccc"])
    assert len(zoc_hexes(m, "0202")) == 6


def test_tr27_zoc_not_into_swamp_mountain_fortress_but_out_of_them():
    m = map_from_rows(["cscmc"], fortress=["0501"])
    assert zoc_hexes(m, "0101") == []  # neighbour 0201 is swamp
    assert zoc_hexes(m, "0201") == ["0101", "0301"]  # out of the swamp
    assert zoc_hexes(m, "0301") == []  # swamp and mountain on both sides
    assert "0501" not in zoc_hexes(m, "0401")  # not into the fortress


def test_tr27_zoc_not_across_sea_hexside_but_across_river():
    m = map_from_rows(["ccc"], hexsides={("0101", "0201"): "sea", ("0201", "0301"): "river"})
    assert zoc_hexes(m, "0201") == ["0301"]


def test_tr27_zoc_not_across_border_before_dow():
    m = map_from_rows(["ccc"], country={"0101": "germany", "0201": "germany",
                                        "0301": "belgium"})
    assert zoc_hexes(m, "0201", closed_countries=["belgium"]) == ["0101"]
    assert zoc_hexes(m, "0201") == ["0101", "0301"]


def test_tr27_entering_zoc_costs_one_leaving_nothing():
    placed = [("0501", inf("f", "allies"))]
    z = enemy_zoc(LINE, placed, "axis")
    assert zoc_entry_cost(z, "0401") == 1 and zoc_entry_cost(z, "0201") == 0
    assert move_cost(LINE, inf(), "0301", "0401", z) == 2
    assert move_cost(LINE, inf(), "0401", "0301", z) == 1  # leaving: no extra


def test_tr27_infantry_stops_armor_continues():
    placed = [("0401", inf("f", "allies"))]
    z = enemy_zoc(LINE, placed, "axis")
    assert must_stop(inf(), z, "0301") and not must_stop(arm(), z, "0301")
    m = map_from_rows(["cccccc", "cccccc"])
    placed = [("0301", inf("f", "allies"))]
    r_inf = move_range(m, inf(ma=6), "0101", placed)
    r_arm = move_range(m, arm(ma=8), "0101", placed)
    assert "0601" not in r_inf  # it must stop at the first ZOC hex it enters
    assert "0601" in r_arm  # armor goes on through the ZOC hexes, paying +1 each
    assert r_arm.cost_to("0201") == 2


def test_tr27_friendly_units_do_not_negate_zoc_for_movement():
    placed = [("0501", inf("f", "allies")), ("0401", inf("g", "axis"))]
    z = enemy_zoc(LINE, placed, "axis")
    assert zoc_entry_cost(z, "0401") == 1
    assert must_stop(inf(), z, "0401")


def test_tr28_swamp_mountain_costs():
    m = map_from_rows(["cscmc"])
    assert move_cost(m, inf(), "0101", "0201") == 2
    assert move_cost(m, arm(), "0101", "0201") is SpecialCost.ALL
    assert move_cost(m, arm(), "0101", "0201", phase="mechanized") is SpecialCost.PROHIBITED
    assert move_cost(m, inf(), "0201", "0301") == 1


def test_tr28_river_adds_one_sea_hexside_prohibited():
    m = map_from_rows(["ccc"], hexsides={("0101", "0201"): "river", ("0201", "0301"): "sea"})
    assert move_cost(m, inf(), "0101", "0201") == 2
    assert move_cost(m, inf(), "0201", "0301") is SpecialCost.PROHIBITED
    assert not minimum_move_ok(m, inf(), "0201", "0301")


def test_tr28_one_hex_minimum_move_even_zoc_to_zoc():
    m = map_from_rows(["cmc"])
    placed = [("0301", inf("f", "allies"))]
    z = enemy_zoc(m, placed, "axis")
    # armor into mountain: all MPs, by the one-hex move only
    assert minimum_move_ok(m, arm(), "0101", "0201", z)
    assert check_path(m, arm(), ["0101", "0201"], z).legal
    # ZOC to ZOC: a 1-MP infantry unit in the enemy ZOC steps to another ZOC hex
    m2 = map_from_rows(["ccc", "ccc"])
    placed2 = [("0201", inf("f", "allies"))]
    z2 = enemy_zoc(m2, placed2, "axis")
    slow = inf(ma=1)
    assert zoc_entry_cost(z2, "0101") == 1 and zoc_entry_cost(z2, "0102") == 1
    assert move_cost(m2, slow, "0101", "0102", z2) == 2  # more than its MA ...
    assert check_path(m2, slow, ["0101", "0102"], z2).legal  # ... but one hex is allowed
    assert "0102" in move_range(m2, slow, "0101", [("0101", slow), *placed2])


def test_tr28_all_mps_terrain_only_as_whole_move():
    m = map_from_rows(["ccmc"])
    chk = check_path(m, arm(), ["0101", "0201", "0301"], enemy_zoc(m, [], "axis"))
    assert not chk.legal and "one-hex" in chk.reason


def test_tr27_path_check_infantry_cannot_leave_zoc_hex_it_entered():
    placed = [("0501", inf("f", "allies"))]
    z = enemy_zoc(LINE, placed, "axis")
    m2 = map_from_rows(["cccccc", "cccccc"])
    z2 = enemy_zoc(m2, [("0401", inf("f", "allies"))], "axis")
    bad = check_path(m2, inf(ma=6), ["0201", "0301", "0302"], z2)
    assert not bad.legal and "stops" in bad.reason
    ok = check_path(LINE, inf(), ["0101", "0201", "0301"], z)
    assert ok.legal and ok.mp == 2
    over = check_path(LINE, inf(), ["0101", "0201", "0301", "0401"], z)
    assert not over.legal and over.mp == 4


def test_tr28_mud_halves_armor_ma_round_down():
    assert movement_allowance(arm(ma=5), "mud") == 2
    assert movement_allowance(arm(ma=5), "clear") == 5
    assert movement_allowance(inf(ma=3), "mud") == 3
    with pytest.raises(InputError):
        movement_allowance(inf(), "fog")


def test_tr28_movement_phases_per_option_and_weather():
    assert movement_phases("offensive", "clear") == (MovementPhase.NORMAL,
                                                      MovementPhase.MECHANIZED)
    assert movement_phases("offensive", "mud") == (MovementPhase.NORMAL,)
    assert movement_phases("offensive", "snow") == (MovementPhase.NORMAL,)
    assert movement_phases("attrition") == (MovementPhase.NORMAL,)
    assert movement_phases("pass") == (MovementPhase.NORMAL,)


def test_tr28_only_armor_moves_in_mechanized_phase():
    assert may_move_in_phase(arm(), "mechanized") and not may_move_in_phase(inf(), "mechanized")
    assert may_move_in_phase(inf(), "normal")
    assert not may_move_in_phase(inf(kind=GroundKind.AIRBORNE), "normal",
                                 air_landed_this_turn=True)
    assert move_class(arm()).value == "mechanized" and move_class(inf()).value == "foot"


def test_tr28_mud_range_shrinks_for_armor():
    r_clear = move_range(LINE, arm(ma=5), "0101", [])
    r_mud = move_range(LINE, arm(ma=5), "0101", [], weather="mud")
    assert "0601" in r_clear and "0401" not in r_mud and "0301" in r_mud


def test_tr28_not_adjacent_is_input_error():
    with pytest.raises(InputError, match="adjacent"):
        move_cost(LINE, inf(), "0101", "0401")


def test_tr28_no_allowance_no_move_and_mech_phase_infantry_stays():
    m = map_from_rows(["cc"])
    z = enemy_zoc(m, [], "axis")
    assert not check_path(m, arm(ma=1), ["0101", "0201"], z, weather="mud").legal
    assert not check_path(m, inf(), ["0101", "0201"], z, phase="mechanized").legal
    assert len(move_range(m, inf(), "0101", [], phase="mechanized")) == 1
