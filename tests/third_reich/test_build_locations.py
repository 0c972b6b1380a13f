"""TR-64 build locations (002_67ce4e3275b117b3.txt "Build locations")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex
from grognard.core.mapdata import City, CityClass, MapData
from grognard.third_reich.air_naval.air_zones import BasedAir
from grognard.third_reich.economy.build_locations import (
    BuildSite,
    build_location_problem,
    build_site,
    can_build,
    verify_build_location,
)
from grognard.third_reich.turn.forces import AirUnit, GroundKind, GroundUnit, Side

OPEN = BuildSite(home_country=True, controlled=True)
CITY = replace(OPEN, city=True)
PORT = replace(CITY, port=True)


def test_tr64_naval_only_in_home_port_outside_uncontested_enemy_air():
    assert can_build("naval", PORT)
    assert not can_build("naval", CITY)
    assert not can_build("naval", replace(PORT, uncontested_enemy_air_zone=True))
    assert not can_build("naval", replace(PORT, friendly_ground=True,
                                          uncontested_enemy_air_zone=True))
    assert not can_build("naval", replace(PORT, home_country=False))
    assert not can_build("naval", replace(PORT, controlled=False))


def test_tr64_air_only_in_home_city_never_airbase():
    assert can_build("air", CITY)
    assert not can_build("air", replace(OPEN, airbase_marker=True))
    assert "airbase" in build_location_problem("air", replace(OPEN, airbase_marker=True))
    assert not can_build("air", replace(CITY, in_enemy_zoc=True))
    assert can_build("air", replace(CITY, in_enemy_zoc=True, friendly_ground=True))


def test_tr64_ground_not_adjacent_to_enemy_unless_occupied_home_city():
    assert can_build("infantry", OPEN)
    assert not can_build("armor", replace(OPEN, adjacent_enemy_ground=True))
    assert not can_build("armor", replace(CITY, adjacent_enemy_ground=True))
    assert can_build("armor", replace(CITY, adjacent_enemy_ground=True, friendly_ground=True))


def test_tr64_ground_not_in_uncontested_enemy_air_zone_unless_home_city():
    assert not can_build("infantry", replace(OPEN, uncontested_enemy_air_zone=True))
    assert can_build("infantry", replace(CITY, uncontested_enemy_air_zone=True))
    assert can_build("airborne", replace(CITY, uncontested_enemy_air_zone=True))


def test_tr64_occupied_home_city_always_builds_ground_and_air():
    """"To be clear, a friendly home country city with a friendly ground unit in it could
    always build a new ground or air unit, even adjacent to an enemy unit and under an
    uncontested enemy air zone.\""""
    worst = replace(CITY, friendly_ground=True, adjacent_enemy_ground=True, in_enemy_zoc=True,
                    uncontested_enemy_air_zone=True)
    for kind in ("infantry", "armor", "airborne", "replacement", "air"):
        assert can_build(kind, worst), kind


def test_tr64_errors():
    with pytest.raises(IllegalOrder, match="TR-64"):
        verify_build_location("naval", OPEN)
    with pytest.raises(InputError):
        can_build("sw", OPEN)
    with pytest.raises(InputError):
        can_build("battleship", OPEN)


def test_tr64_build_site_from_map():
    hexes = [Hex(q, 0) for q in range(6)]
    m = MapData.build(hexes, ["clear"] * 6, country=["germany"] * 4 + ["france"] * 2,
                      cities={Hex(1, 0): [City("Kiel", frozenset({CityClass.BLACK_PORT}),
                                                   "germany")]})
    foe = GroundUnit("f", "french", Side.ALLIES, GroundKind.INFANTRY, 2)
    placed = [(Hex(2, 0), foe)]
    raf = [BasedAir(AirUnit("raf", 5), Side.ALLIES, Hex(5, 0))]
    kiel = build_site(m, Hex(1, 0), "axis", ["germany"], placed, raf)
    assert kiel.port and kiel.city and kiel.adjacent_enemy_ground and kiel.in_enemy_zoc
    assert kiel.uncontested_enemy_air_zone and not kiel.friendly_ground
    assert can_build("air", kiel) is False and can_build("naval", kiel) is False
    assert can_build("infantry", kiel) is False  # adjacent to the enemy, not occupied
    far = build_site(m, Hex(0, 0), "axis", ["germany"], placed, raf)
    assert can_build("infantry", far)
    assert not build_site(m, Hex(4, 0), "axis", ["germany"], placed, raf).home_country
