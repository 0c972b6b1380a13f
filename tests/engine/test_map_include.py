"""``[scenario] map = "ID"``: a scenario includes a shipped map's tables (C-HEX; FORMATS.md
"Map files")."""

from __future__ import annotations

import tomllib

import pytest

from grognard.core.errors import ScenarioError
from grognard.core.mapdata import CityClass
from grognard.engine.scenario import include_map, parse_scenario

HEAD = """[scenario]
id = "t"
sides = ["axis", "allies"]
map = "tr-europe"
"""


def test_scenario_gets_the_map_tables() -> None:
    sc = parse_scenario(HEAD)
    assert sc.map.n > 2000
    assert sc.map.layout.style == "letter"
    assert "murmansk" in sc.map.boxes


def test_scenario_tables_win_and_arrays_are_appended() -> None:
    text = HEAD + """
[countries]
germany = ["L31"]

[[cities]]
hex = "L32"
name = "Nowhere"
classes = ["black_city"]

[[boxes]]
id = "extra"

[third_reich]
sides = { poland = "allies" }
"""
    sc = parse_scenario(text)
    m = sc.map
    assert m.country_of(m.layout.from_label("L31")) == "germany"
    # the scenario's germany list replaced the map's: L32 is no longer German
    assert m.country_of(m.layout.from_label("L32")) != "germany"
    names = {c.name for cs in m.cities.values() for c in cs}
    assert {"Nowhere", "Berlin", "Leningrad"} <= names
    assert {"extra", "murmansk"} <= set(m.boxes)
    merged = include_map(tomllib.loads(text))
    assert merged["third_reich"]["sides"] == {"poland": "allies"}
    assert "sea_zones" in merged["third_reich"]  # the map's subtables are kept
    assert "map_info" not in merged


def test_without_map_nothing_is_included() -> None:
    raw = {"scenario": {"id": "x"}, "map": {"grid": "."}}
    assert include_map(raw) == raw


@pytest.mark.parametrize("name", ["no-such-map", "../scenarios/demo-europa"])
def test_unknown_map_is_one_clear_error(name: str) -> None:
    with pytest.raises(ScenarioError) as exc:
        parse_scenario(HEAD.replace('"tr-europe"', f'"{name}"'), "s.toml")
    msg = str(exc.value)
    assert "unknown map" in msg and "tr-europe" in msg and "s.toml" in msg
    assert "\n" not in msg


def test_a_map_that_is_not_a_name_is_refused() -> None:
    with pytest.raises(ScenarioError, match="scenario.map"):
        parse_scenario(HEAD.replace('"tr-europe"', "3"), "s.toml")


def test_the_map_capitals_keep_their_classes() -> None:
    sc = parse_scenario(HEAD)
    berlin = [c for cs in sc.map.cities.values() for c in cs if c.name == "Berlin"]
    assert berlin and CityClass.CAPITAL in berlin[0].classes
