"""TR-72..TR-74, TR-38, TR-40 read off the map (third_reich/supply/supply_map.py)."""

from __future__ import annotations

import pytest

from grognard.core.errors import InputError
from grognard.core.hexgrid import Hex
from grognard.core.mapdata import City, CityClass, MapData
from grognard.core.paths import Forces
from grognard.engine import Game
from grognard.third_reich.play.system import forces_of_state, front_mask
from grognard.third_reich.supply.isolation import UssrSupplyTier
from grognard.third_reich.supply.supply_map import (
    attrition_contact,
    city_control,
    hexes_won_candidates,
    isolation_rolls,
    supply_check,
    supply_sources,
    trace_3r_supply,
    ussr_supply,
    weather_region,
)
from grognard.third_reich.turn.calendar import Region, Season, Weather

SCENARIO = "tr-1939-two-fronts"


def scenario_setup():
    g = Game.new(SCENARIO, seed=1)
    forces = forces_of_state(g.context, g.state)
    powers = {u: g.state["units"][u]["power"] for u in forces.ids}
    return g, forces, powers


def check(g, forces, powers, side="allies", turn=1):
    return supply_check(g.scenario.map, forces, side, g.state["control"], turn,
                        unit_powers=powers, home_countries=g.scenario.home_countries)


def test_tr72_pocket_out_of_supply_others_trace_to_sources():
    g, forces, powers = scenario_setup()
    chk = check(g, forces, powers)
    assert chk.out_of_supply == ("pl-inf2",)
    (trace,) = chk.supply.traces
    m = g.scenario.map
    sources = {m.label(int(h)) for h in supply_sources(m, g.state["control"], "allies",
                                                       capital_countries={"france", "poland"})}
    assert sources == {"C2", "E1", "C11"}  # Paris, Brest (red port), Warsaw; not Lodz
    for i, uid in enumerate(trace.ids):
        if uid != "pl-inf2":
            assert trace.path(i)[-1] in sources


def test_tr72_axis_units_in_supply_from_berlin():
    g, forces, powers = scenario_setup()
    chk = check(g, forces, powers, side="axis")
    assert chk.out_of_supply == () and chk.hexes == ()


def rebuilt(g, forces, drop=(), add=()):
    keep = [i for i, u in enumerate(forces.ids) if u not in drop]
    hexes = [int(forces.hex[i]) for i in keep] + [g.scenario.map.index_of_label(h)
                                                  for _, h, _ in add]
    sides = [forces.side_names[forces.side[i]] for i in keep] + [s for _, _, s in add]
    ids = [forces.ids[i] for i in keep] + [u for u, _, _ in add]
    return Forces.build(g.scenario.map, hexes, sides, ids=ids, side_names=forces.side_names)


def test_tr72_enemy_zoc_blocks_supply_even_without_a_unit():
    """E12 emptied is still in the ZOC of the German unit in F11: the pocket stays cut."""
    g, forces, powers = scenario_setup()
    f2 = rebuilt(g, forces, drop={"ge-inf4"})
    assert check(g, f2, powers).out_of_supply == ("pl-inf2",)
    f3 = rebuilt(g, forces, drop={"ge-inf3", "ge-inf4"})
    assert check(g, f3, powers).out_of_supply == ()


def test_tr72_friendly_unit_negates_enemy_zoc_for_supply():
    g, forces, powers = scenario_setup()
    f2 = rebuilt(g, forces, drop={"ge-inf4"}, add=[("pl-new", "E12", "allies")])
    assert check(g, f2, dict(powers, **{"pl-new": "poland"})).out_of_supply == ()


def test_tr73_pocket_isolation_inputs_read_off_the_map():
    """The F12 pocket: Poland is in the east weather zone, German units adjacent, Polish
    units at home, no path to a friendly city (RULES.md TR-73 DRM list)."""
    g, forces, powers = scenario_setup()
    (h,) = check(g, forces, powers).hexes
    assert (h.hex, h.units, h.region, h.season, h.weather) == (
        "F12", ("pl-inf2",), Region.EAST, Season.FALL, Weather.CLEAR)
    assert (h.adjacent_enemy, h.home_country, h.city_path) == (True, True, False)
    assert h.drms() == {"remote_region": -1, "adjacent_enemy": -1, "home_country": 1}
    survive, die = isolation_rolls(check(g, forces, powers), [9])[0], h.roll(8)
    assert (survive.modified_roll, survive.eliminated) == (8, False)
    assert (die.modified_roll, die.eliminated) == (7, True)


def test_tr73_winter_and_summer_weather_from_the_calendar():
    g, forces, powers = scenario_setup()
    (winter,) = check(g, forces, powers, turn=2).hexes  # Winter 1939: snow in the east
    assert winter.weather is Weather.SNOW and winter.drms()["snow"] == -2
    (summer,) = check(g, forces, powers, turn=4).hexes  # Summer I 1940
    assert summer.drms()["summer"] == 1


def line_map(cities, countries=None):
    hexes = [Hex(q, 0) for q in range(6)]
    return MapData.build(hexes, ["clear"] * 6, cities=cities,
                         country=countries or ["poland"] * 6)


def test_tr73_city_path_to_a_friendly_city_that_is_no_source():
    cities = {Hex(0, 0): [City("Warsaw", frozenset({CityClass.CAPITAL}), "poland")],
              Hex(3, 0): [City("Lodz", frozenset({CityClass.BLACK_CITY}), "poland")]}
    m = line_map(cities)
    f = Forces.build(m, [Hex(1, 0), Hex(4, 0)], ["axis", "allies"], ids=["ge", "pl"])
    control = city_control(m, {"poland": "allies"})
    chk = supply_check(m, f, "allies", control, 1, unit_powers={"ge": "germany", "pl": "poland"},
                       home_countries={"poland": ("poland",)})
    (h,) = chk.hexes
    assert chk.out_of_supply == ("pl",)
    assert (h.city_path, h.adjacent_enemy, h.home_country) == (True, False, True)
    # captured Lodz: no friendly city any more
    chk2 = supply_check(m, f, "allies", city_control(m, {"poland": "allies"}, {"Lodz": "axis"}),
                        1, unit_powers={"ge": "germany", "pl": "poland"},
                        home_countries={"poland": ("poland",)})
    assert chk2.hexes[0].city_path is False


def test_tr73_home_country_needs_every_unit_at_home():
    m = line_map({Hex(0, 0): [City("Warsaw", frozenset({CityClass.CAPITAL}), "poland")]})
    f = Forces.build(m, [Hex(1, 0), Hex(4, 0), Hex(4, 0)], ["axis", "allies", "allies"],
                     ids=["ge", "pl", "fr"])
    chk = supply_check(m, f, "allies", city_control(m, {"poland": "allies"}), 1,
                       unit_powers={"ge": "germany", "pl": "poland", "fr": "france"},
                       home_countries={"poland": ("poland",), "france": ("france",)},
                       capital_countries={"poland"})
    assert chk.hexes[0].units == ("fr", "pl") and chk.hexes[0].home_country is False


def ussr_map():
    cities = {Hex(0, 0): [City("Moscow", frozenset({CityClass.CAPITAL}), "ussr")],
              Hex(2, 0): [City("Leningrad", frozenset({CityClass.RED_VICTORY}), "ussr")],
              Hex(5, 0): [City("Archangel", frozenset({CityClass.RED_PORT}), "ussr")]}
    return MapData.build([Hex(q, 0) for q in range(6)], ["clear"] * 6, cities=cities,
                         country=["ussr"] * 6)


def test_tr74_ussr_fallback_chain_from_the_map():
    m = ussr_map()
    base = {"ussr": "allies"}
    got, hexes = ussr_supply(m, city_control(m, base), "allies")
    assert got.tier is UssrSupplyTier.MOSCOW and hexes.tolist() == [0]
    got, hexes = ussr_supply(m, city_control(m, base, {"Moscow": "axis"}), "allies")
    assert got.tier is UssrSupplyTier.RED_VICTORY_CITIES and got.sources == ("Leningrad",)
    assert hexes.tolist() == [2]
    got, hexes = ussr_supply(m, city_control(m, base, {"Moscow": "axis", "Leningrad": "axis"}),
                             "allies")
    assert got.tier is UssrSupplyTier.CITIES_AND_PORTS and got.sources == ("Archangel",)


def test_tr74_soviet_units_trace_to_the_chain_not_to_other_sources():
    m = ussr_map()
    control = city_control(m, {"ussr": "allies"}, {"Moscow": "axis", "Leningrad": "axis"})
    f = Forces.build(m, [Hex(3, 0)], ["allies"], ids=["su"])
    sup = trace_3r_supply(m, f, "allies", control, capital_countries=(), soviet=[True])
    assert bool(sup.in_supply[0]) and sup.traces[0].path(0)[-1] == m.label(5)
    assert sup.ussr is not None and sup.ussr.tier is UssrSupplyTier.CITIES_AND_PORTS
    # the same unit as a non-Soviet unit has no source (Archangel is not its port: axis...)
    f2 = Forces.build(m, [Hex(3, 0), Hex(4, 0)], ["allies", "axis"], ids=["su", "ge"])
    sup2 = trace_3r_supply(m, f2, "allies", control, capital_countries=(), soviet=[True, False])
    assert not bool(sup2.in_supply[0])  # the German unit blocks the way to Archangel


def test_tr72_bridgehead_is_a_source():
    m = line_map({})
    f = Forces.build(m, [Hex(4, 0)], ["allies"], ids=["uk"])
    no = trace_3r_supply(m, f, "allies", {}, capital_countries=())
    yes = trace_3r_supply(m, f, "allies", {}, capital_countries=(), bridgeheads=[Hex(5, 0)])
    assert not bool(no.in_supply[0]) and bool(yes.in_supply[0])


def test_weather_region_defaults_to_europe():
    m = line_map({})
    assert weather_region(m, 0) is Region.EUROPE


def test_tr38_attrition_contact_on_a_front():
    g, forces, _ = scenario_setup()
    m = g.scenario.map
    factors = [g.state["units"][u]["attack"] for u in forces.ids]
    west = attrition_contact(m, forces, "axis", factors, front_mask(m, "western"))
    assert west.units == ("ge-inf1", "ge-inf2") and west.factors == 6
    every = attrition_contact(m, forces, "axis", factors)
    assert set(every.units) == {"ge-arm1", "ge-arm2", "ge-inf1", "ge-inf2", "ge-inf3",
                                "ge-inf4"}
    assert every.factors == 20
    with pytest.raises(InputError, match="factors"):
        attrition_contact(m, forces, "axis", [1])


def test_tr40_hex_candidates_mark_fortified_hexes():
    g, forces, _ = scenario_setup()
    m = g.scenario.map
    west = hexes_won_candidates(m, forces, "axis", on_front=front_mask(m, "western"))
    assert [(h.id, h.eligible) for h in west] == [("B4", False), ("D4", True)]
    assert west[0].fortified
    every = hexes_won_candidates(m, forces, "axis", bridgeheads=["F12"])
    assert {h.id: h.eligible for h in every} == {"B4": False, "C9": True, "D4": True,
                                                 "F12": False}


def test_tr40_capital_is_never_won():
    m = line_map({Hex(2, 0): [City("Warsaw", frozenset({CityClass.CAPITAL}), "poland")]})
    f = Forces.build(m, [Hex(1, 0), Hex(2, 0)], ["axis", "allies"], ids=["ge", "pl"])
    (h,) = hexes_won_candidates(m, f, "axis")
    assert h.capital and not h.eligible


def test_supply_check_needs_every_units_power():
    g, forces, powers = scenario_setup()
    powers.pop("pl-inf2")
    with pytest.raises(InputError, match="unit_powers"):
        check(g, forces, powers)
