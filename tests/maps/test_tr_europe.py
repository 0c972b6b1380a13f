"""Map facts the Revised Third Reich text states, checked on the shipped ``tr-europe`` map
(C-HEX, C-TERRAIN, C-POLITY, C-NAVAL; TR-05, TR-12, TR-56, TR-72)."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

import pytest

from grognard.core.hexgrid import distance
from grognard.core.mapdata import CityClass, MapData, Terrain
from grognard.engine.scenario import Scenario, load_scenario


@cache
def scenario() -> Scenario:
    return load_scenario("tr-europe-map")


def tr_map() -> MapData:
    return scenario().map


@cache
def map_tables() -> dict:
    text = resources.files("grognard.data").joinpath("maps", "tr-europe.toml").read_text("utf-8")
    return tomllib.loads(text)


def city(name: str) -> tuple[int, object]:
    m = tr_map()
    for i, cs in m.cities.items():
        for c in cs:
            if c.name == name:
                return i, c
    raise AssertionError(f"no city {name}")


def test_tr56_m10_is_nine_hexes_west_of_brest() -> None:
    """002_67ce4e3275b117b3.txt, "Naval escort of SRs by sea": "hex M10, 9 hexes west of
    Brest" (TR-56)."""
    m = tr_map()
    brest, _ = city("Brest")
    m10 = m.index_of_label("M10")
    assert distance(m.hex(brest), m.hex(m10)) == 9
    bc, br = m.layout.to_offset(m.hex(brest))
    mc, mr = m.layout.to_offset(m.hex(m10))
    assert (br, bc - mc) == (mr, 9)  # same row, to the west
    assert m.terrain_of(m.hex(m10)) is Terrain.SEA
    assert map_tables()["third_reich"]["sea_zones"]["atlantic"].count("M10") == 1
    assert map_tables()["third_reich"]["junctions"]["atlantic|us"]["hex"] == "M10"


def test_tr12_leningrad_is_a_port_and_red_victory_city() -> None:
    """002: "Leningrad 6 (red victory city 5 + 1 for the port)" (TR-12)."""
    i, c = city("Leningrad")
    assert {CityClass.RED_VICTORY, CityClass.RED_PORT} <= c.classes
    assert tr_map().country_names[int(tr_map().country[i])] == "ussr"
    # a port: next to a sea hex of the Baltic zone
    ports = map_tables()["third_reich"]["ports"]
    assert ports["leningrad"]["zones"] == ["baltic"]


def test_tr72_moscow_is_the_ussr_capital_and_supply_source() -> None:
    """002, "USSR supply sources": "Moscow is the USSR capital and ordinary supply source"."""
    i, c = city("Moscow")
    assert CityClass.CAPITAL in c.classes and c.country == "ussr"
    label = tr_map().label(i)
    assert map_tables()["third_reich"]["map"]["supply_sources"]["ussr"] == label
    assert map_tables()["third_reich"]["map"]["capitals"]["ussr"] == label


@pytest.mark.parametrize("name,country", [
    ("Warsaw", "poland"), ("Paris", "france"), ("Berlin", "germany"), ("London", "uk"),
    ("Rome", "italy"), ("Moscow", "ussr"), ("Bucharest", "romania"), ("Kaunas", "lithuania"),
])
def test_capitals_are_in_their_countries(name: str, country: str) -> None:
    i, c = city(name)
    assert CityClass.CAPITAL in c.classes
    assert c.country == country
    assert tr_map().country_names[int(tr_map().country[i])] == country


def test_1939_borders() -> None:
    """C-POLITY, 1 September 1939: Greater Germany holds Vienna and Prague; Lwow and Wilno are
    Polish; Kishinev Romanian (Bessarabia); Riga Latvian."""
    m = tr_map()
    for name, country in (("Vienna", "germany"), ("Prague", "germany"), ("Lwow", "poland"),
                          ("Wilno", "poland"), ("Kishinev", "romania"), ("Riga", "latvia"),
                          ("Konigsberg", "germany"), ("Bratislava", "slovakia"),
                          ("Gibraltar", "uk"), ("Malta", "uk")):
        i, _ = city(name)
        assert m.country_names[int(m.country[i])] == country, name


def test_every_city_is_in_a_country() -> None:
    """Issue 12: Algiers had no country (its hex lay north of the hand-drawn Algerian coast
    line), so conquest, control and Vichy alignment could never reach it. Every city of the
    map stands in a 1939 country, its own hex's."""
    m = tr_map()
    for i, cs in m.cities.items():
        for c in cs:
            assert c.country, c.name
            assert m.country_names[int(m.country[i])] == c.country, c.name
    i, c = city("Algiers")
    assert c.country == "algeria" and m.country_names[int(m.country[i])] == "algeria"


def test_ribbentrop_molotov_cities_and_areas() -> None:
    """TR-12/TR-87: the R-M cities lie in eastern Poland, the Baltic States and Bessarabia."""
    t = map_tables()["third_reich"]
    rm = set(t["map"]["ribbentrop_molotov_cities"])
    areas = t["areas"]
    zone = set(areas["eastern_poland"]) | set(areas["baltic_states"]) | set(areas["bessarabia"])
    assert rm and rm <= zone
    assert tr_map().label(city("Lwow")[0]) in rm
    assert tr_map().label(city("Warsaw")[0]) not in zone
    assert tr_map().label(city("Paris")[0]) not in areas["vichy"]
    assert tr_map().label(city("Vichy")[0]) in areas["vichy"]


def test_tr05_weather_regions_and_tr03_fronts() -> None:
    m = tr_map()

    def at(name: str) -> tuple[str, str]:
        i, _ = city(name)
        return m.region_names[int(m.region[i])], m.weather_zone_names[int(m.weather_zone[i])]

    assert at("Paris") == ("western", "europe")
    assert at("Moscow") == ("eastern", "east")
    assert at("Oslo") == ("western", "scandinavia")
    assert at("Cairo") == ("southern", "mediterranean")
    assert at("Rome") == ("southern", "europe")
    assert at("Konigsberg") == ("eastern", "east")


def test_sea_zones_and_dual_ports() -> None:
    """TR-56: Gibraltar and Kiel are dual-zone ports; Bergen is a North Sea port."""
    ports = map_tables()["third_reich"]["ports"]
    assert ports["gibraltar"]["zones"] == ["atlantic", "mediterranean"]
    assert ports["kiel"]["zones"] == ["baltic", "north_sea"]
    assert ports["bergen"]["zones"] == ["north_sea"]
    assert ports["sevastopol"]["zones"] == ["black_sea"]
    assert ports["alexandria"]["zones"] == ["mediterranean"]
    m = tr_map()
    for name, p in ports.items():
        assert m.terrain_of(m.layout.from_label(p["hex"])) not in (Terrain.SEA, Terrain.LAKE), name


def test_boxes_and_size() -> None:
    m = tr_map()
    assert {"murmansk", "sw", "us_box", "persia"} <= set(m.boxes)
    assert 1500 <= m.n <= 3000
    land = int((~m.terrain_mask(Terrain.SEA, Terrain.LAKE)).sum())
    assert land > 1000
    assert m.terrain_mask(Terrain.MOUNTAIN).sum() > 50
    assert m.terrain_mask(Terrain.SWAMP).sum() >= 3
