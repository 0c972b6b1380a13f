"""TR-30 air zones and contested air zones; TR-TV18 (the text's air-zone Examples 1 and 2)."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex
from grognard.core.mapgen import map_from_rows
from grognard.third_reich.air_naval.air_zones import (
    AirZoneAction,
    AirZoneReadings,
    BasedAir,
    LandSrScope,
    air_zone_blocks,
    air_zone_field,
    air_zone_status,
    air_zone_strength,
    apply_counter_air,
    can_air_zone_action,
    is_uncontested_enemy,
    load_air_zone_map,
    verify_air_zone_action,
)
from grognard.third_reich.air_naval.airnaval import counter_air
from grognard.third_reich.turn.forces import AirUnit, Side


@pytest.fixture(scope="module")
def zones():
    return load_air_zone_map("tr-air-zones")


def _air(uid, side, h, factors=5, rng=4, neut=0):
    return BasedAir(AirUnit(uid, factors, rng), Side(side), h, neut)


def test_tr30_strength_is_total_factors_in_range():
    air = [_air("a", "axis", Hex(0, 0)), _air("b", "axis", Hex(1, 0), 3),
           _air("c", "axis", Hex(9, 0))]
    assert air_zone_strength(Hex(4, 0), "axis", air) == 5 + 3
    assert air_zone_strength(Hex(5, 0), "axis", air) == 3 + 5
    assert air_zone_strength(Hex(4, 0), "allies", air) == 0


def test_tr30_equal_totals_contest_for_both_sides():
    air = [_air("a", "axis", Hex(0, 0)), _air("b", "allies", Hex(6, 0))]
    for side in ("axis", "allies"):
        st = air_zone_status(Hex(3, 0), side, air)
        assert st.contested and not st.uncontested_enemy and not st.uncontested_friendly


def test_tr30_more_enemy_factors_is_uncontested_enemy_zone():
    air = [_air("a", "axis", Hex(0, 0)), _air("a2", "axis", Hex(0, 1)),
           _air("b", "allies", Hex(6, 0))]
    assert is_uncontested_enemy(Hex(3, 0), "allies", air)  # 5 v 10
    assert not is_uncontested_enemy(Hex(3, 0), "axis", air)


def test_tr30_neutralized_air_does_not_count():
    air = [_air("a", "axis", Hex(0, 0), neut=5), _air("b", "allies", Hex(9, 0))]
    assert air_zone_strength(Hex(1, 0), "axis", air) == 0
    assert not is_uncontested_enemy(Hex(1, 0), "allies", air)


def test_tr30_field_matches_pointwise_strengths():
    m = map_from_rows(["cccccccc"] * 6)
    air = [_air("a", "axis", m.hex(3)), _air("b", "allies", m.hex(40), 4, 3)]
    fr, en = air_zone_field(m, "allies", air)
    for i in range(m.n):
        assert fr[i] == air_zone_strength(m.hex(i), "allies", air)
        assert en[i] == air_zone_strength(m.hex(i), "axis", air)


def test_tr30_forbidden_actions_name_the_rule():
    air = [_air("a", "axis", Hex(0, 0))]
    with pytest.raises(IllegalOrder, match="TR-30"):
        verify_air_zone_action("airborne_drop", [Hex(1, 0)], "allies", air)
    # amphibious assault checks the offshore hex and the beach
    assert air_zone_blocks("amphibious_assault", [Hex(9, 0), Hex(4, 0)], "allies", air) \
        == [Hex(4, 0)]
    assert can_air_zone_action(AirZoneAction.SEA_SR, [Hex(9, 0), Hex(8, 0)], "allies", air)
    with pytest.raises(InputError):
        air_zone_blocks("sea_sr", [Hex(9, 0)], "allies", air)
    with pytest.raises(InputError):
        air_zone_blocks("swim", [Hex(9, 0)], "allies", air)


def test_tr30_land_sr_reading_switch():
    air = [_air("a", "axis", Hex(0, 0))]
    path = [Hex(9, 0), Hex(3, 0)]
    assert not can_air_zone_action("land_sr", path, "allies", air)
    lax = AirZoneReadings(land_sr_contest_scope=LandSrScope.AIR_UNITS)
    assert can_air_zone_action("land_sr", path, "allies", air, lax)
    assert not can_air_zone_action("air_unit_land_sr", path, "allies", air, lax)


def test_tr_tv18_example1_rome_malta(zones):
    """002 "Naval interception and enemy air zones", Example 1: Italian 5-4 at Rome, UK 5-4 at
    Malta: no UK invasion at Taranto, the Adriatic coast, southern Sardinia or Corsica;
    Syracuse is possible."""
    air = zones.situation("example1")
    for place in ("Taranto", "Pescara", "Cagliari", "Ajaccio"):
        assert not can_air_zone_action("amphibious_assault",
                                       [zones.hex_of(place), zones.hex_of(place)],
                                       "allies", air), place
    syr = zones.hex_of("Syracuse")
    assert can_air_zone_action("amphibious_assault", [syr, syr], "allies", air)


def test_tr_tv18_example1_syracuse_contested_with_italians_at_taranto(zones):
    """Example 1: "even if the Italian 5-4 was at Taranto, as their 5-4 on Malta would contest
    the air zone"."""
    air = zones.situation("example1-taranto")
    st = air_zone_status(zones.hex_of("Syracuse"), "allies", air)
    assert (st.friendly, st.enemy, st.contested, st.uncontested_enemy) == (5, 5, True, False)


def test_tr_tv18_example2_north_coast_open_not_south_of_bordeaux(zones):
    """Example 2: German 5-4s at Paris and Vichy, UK at London, US at Portsmouth: invasion
    anywhere on the northern coast of France but not beyond Bordeaux."""
    air = zones.situation("example2")
    for place in ("Calais", "Dieppe", "Lorient"):
        assert not is_uncontested_enemy(zones.hex_of(place), "allies", air), place
    assert is_uncontested_enemy(zones.hex_of("Bayonne"), "allies", air)


def test_tr_tv18_example2_counter_air_on_paris_frees_north_coast(zones):
    """Example 2: counter-air neutralising Paris leaves Lorient, Dieppe and Calais out of
    reach of any German air (the Vichy unit does not reach them)."""
    air = zones.situation("example2")
    ca = counter_air(5, 5, phasing_roll=1, nonphasing_roll=1)  # no hits, 5 neutralised
    after = apply_counter_air(air, "uk-1", "ge-1", ca)
    for place in ("Lorient", "Dieppe", "Calais"):
        assert air_zone_strength(zones.hex_of(place), "axis", after) == 0, place


def test_tr_tv18_example2_lorient_5_v_10_then_5_v_5(zones):
    """Example 2: UK at Harwich, the Vichy unit at La Rochelle: Lorient blocked, Germans 10 v
    US 5; the Harwich 5-4 counter-airs Paris and it becomes 5 v 5, allowed."""
    air = zones.situation("example2-harwich")
    lorient = zones.hex_of("Lorient")
    st = air_zone_status(lorient, "allies", air)
    assert (st.friendly, st.enemy, st.uncontested_enemy) == (5, 10, True)
    with pytest.raises(IllegalOrder, match="5 friendly v 10 enemy"):
        verify_air_zone_action("amphibious_assault", [lorient, lorient], "allies", air)
    harwich = next(a for a in air if a.unit.id == "uk-1")
    paris = next(a for a in air if a.unit.id == "ge-1")
    assert harwich.reaches(paris.hex)  # counter-air needs the target within range
    ca = counter_air(5, 5, phasing_roll=10, nonphasing_roll=10)  # hits both ways
    after = apply_counter_air(air, "uk-1", "ge-1", ca)
    st2 = air_zone_status(lorient, "allies", after)
    assert (st2.friendly, st2.enemy, st2.uncontested_enemy) == (5, 5, False)
    verify_air_zone_action("amphibious_assault", [lorient, lorient], "allies", after)


def test_tr30_based_air_rejects_bad_neutralization():
    with pytest.raises(InputError, match="neutralized"):
        _air("a", "axis", Hex(0, 0), neut=6)
    with pytest.raises(InputError):
        load_air_zone_map("tr-air-zones").situation("nope")
