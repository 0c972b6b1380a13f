"""Map facts of the shipped ``europa-barbarossa`` map (issue 13; C-HEX, C-TERRAIN, C-HEXSIDE,
C-POLITY): the Eastern front of 22 June 1941 at 16 miles a hex."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

from grognard.core.hexgrid import distance, neighbors
from grognard.core.mapdata import CityClass, HexsideFeature, MapData, Terrain
from grognard.engine.scenario import load_scenario


@cache
def eb_map() -> MapData:
    return load_scenario("europa-barbarossa-map").map


@cache
def tables() -> dict:
    text = resources.files("grognard.data").joinpath("maps", "europa-barbarossa.toml")
    return tomllib.loads(text.read_text("utf-8"))


def city(name: str) -> int:
    for i, cs in eb_map().cities.items():
        if any(c.name == name for c in cs):
            return i
    raise AssertionError(f"no city {name}")


def country(i: int) -> str:
    m = eb_map()
    return m.country_names[int(m.country[i])]


def test_brest_litovsk_is_soviet_and_on_the_1941_border() -> None:
    m = eb_map()
    i = city("Brest-Litovsk")
    assert country(i) == "ussr"
    nbr = [m.index(h) for h in neighbors(m.hex(i)) if m.has(h)]
    assert "general_government" in {country(j) for j in nbr}
    assert m.label(i) in tables()["europa"]["map"]["border_1941"]


def test_1941_countries() -> None:
    expect = {"Warsaw": "general_government", "Lublin": "general_government",
              "Konigsberg": "germany", "Memel": "germany", "Lodz": "germany",
              "Lvov": "ussr", "Riga": "ussr", "Kaunas": "ussr", "Kishinev": "ussr",
              "Chernovtsy": "ussr", "Iasi": "romania", "Cluj": "hungary", "Kosice": "hungary",
              "Moscow": "ussr", "Helsinki": "finland", "Vyborg": "ussr"}
    for name, c in expect.items():
        assert country(city(name)) == c, name


def test_area_reaches_past_leningrad_smolensk_kiev_odessa() -> None:
    """Issue 13: from the June 1941 border to at least the Leningrad-Smolensk-Kiev-Odessa line,
    and a bit east of it: Moscow and Kharkov are on the map, with hexes east of them."""
    m = eb_map()
    for name in ("Leningrad", "Smolensk", "Kiev", "Odessa", "Moscow", "Kharkov", "Warsaw",
                 "Bucharest", "Sevastopol"):
        city(name)
    for name in ("Leningrad", "Kiev", "Moscow", "Kharkov", "Odessa", "Riga", "Warsaw", "Minsk"):
        assert CityClass.MAJOR_CITY in next(c for c in m.cities[city(name)] if c.name == name).classes
    cols = [m.layout.to_offset(m.hex(i))[0] for i in range(m.n)]
    assert max(cols) - m.layout.to_offset(m.hex(city("Kharkov")))[0] >= 2
    # 16 miles a hex: Leningrad to Moscow is about 630 km, i.e. 24-26 hexes
    assert 22 <= distance(m.hex(city("Leningrad")), m.hex(city("Moscow"))) <= 28


def test_terrain_rivers_and_lakes() -> None:
    m = eb_map()
    assert int(m.terrain_mask(Terrain.SWAMP).sum()) >= 40  # the Pripyat marshes
    assert m.terrain_of(m.hex(city("Pinsk"))) in (Terrain.CLEAR, Terrain.WOODS)  # city hex
    pinsk_nbrs = [m.terrain_of(h) for h in neighbors(m.hex(city("Pinsk"))) if m.has(h)]
    assert Terrain.SWAMP in pinsk_nbrs or Terrain.MARSH in pinsk_nbrs
    assert int(m.terrain_mask(Terrain.LAKE).sum()) >= 10  # Ladoga, Peipus, Ilmen
    assert int(m.terrain_mask(Terrain.WOODS).sum()) > 500
    feats = m.edge_features
    assert int(((feats & int(HexsideFeature.MAJOR_RIVER)) > 0).sum()) > 200
    assert int(((feats & int(HexsideFeature.RIVER)) > 0).sum()) > 100
    # Kiev and Smolensk lie on the Dnieper: a major-river hexside on the city hex
    for name in ("Kiev", "Smolensk"):
        i = city(name)
        sides = [m.features_between(m.hex(i), h) for h in neighbors(m.hex(i)) if m.has(h)]
        assert any(f & HexsideFeature.MAJOR_RIVER for f in sides), name


def test_size_and_rail_hubs() -> None:
    m = eb_map()
    assert 3000 <= m.n <= 6000
    hubs = tables()["europa"]["map"]["rail_hubs"]
    assert m.label(city("Brest-Litovsk")) in hubs and m.label(city("Orsha")) in hubs
    assert m.label(city("Odessa")) in tables()["europa"]["map"]["ports"]
    regions = set(m.region_names)
    assert {"baltic_smd", "western_smd", "kiev_smd", "odessa_md", "leningrad_md"} <= regions
