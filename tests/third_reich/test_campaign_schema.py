"""Issue 22 item 2: ``[third_reich.campaign]`` and the rest of ``[third_reich]`` are typed and
checked once, when the scenario is parsed (third_reich/scenario_schema.py): a bad value is one
line naming the file, the line and the field, before any game is created. The rules each key
serves: TR-04 victory, TR-24 minors, TR-86 the US entry, economy and builds, TR-87 values and
the Ribbentrop-Molotov annexations, TR-22/TR-25 a later start's wars and conquests."""

from __future__ import annotations

import re
import typing

import msgspec
import pytest

from grognard.core.errors import InputError, ScenarioError
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario, parse_scenario, shipped_scenarios
from grognard.third_reich.board import economy_of
from grognard.third_reich.conquest import diplomacy as dip
from grognard.third_reich.conquest.campaign import victory_thresholds
from grognard.third_reich.scenario_schema import (
    DEFAULT_AXIS_MINORS,
    DEFAULT_RM,
    DEFAULT_US_ENTRY_TURN,
    CampaignSection,
    SwBoxes,
    ThirdReichSection,
    third_reich_rules,
)
from grognard.third_reich.strategic.sw_boxes import START_BOXES

TR_1944 = load_scenario("tr-1944").text


def _refused(old: str, new: str, base: str = TR_1944) -> ScenarioError:
    """Parse ``base`` with its line ``old`` replaced by ``new``; the error it must raise, whose
    line is the changed line's."""
    assert base.count(old) == 1, old
    text = base.replace(old, new)
    with pytest.raises(ScenarioError) as exc:
        parse_scenario(text, "bad.toml")
    err = exc.value
    assert "\n" not in str(err)
    assert str(err).startswith(f"bad.toml:{err.line}, field ")
    return err


def _line_of(text: str, new: str) -> int:
    """The line of the last line of ``new`` in ``text`` (the key that is bad)."""
    last = new.strip("\n").splitlines()[-1]
    return text[: text.index(new) + new.index(last)].count("\n") + 1


@pytest.mark.parametrize("old, new, field, reason", [
    # TR-04: the victory levels are whole numbers >= 0, allies below axis
    ("axis = 30\n", "axis = -1\n", "third_reich.campaign.victory.axis", ">= 0"),
    ("axis = 30\n", 'axis = "many"\n', "third_reich.campaign.victory.axis", "integer"),
    ("allies = 14\n", "allies = 30\n", "third_reich.campaign.victory",
     r"TR-04: allies \(30\) must be below axis \(30\)"),
    ("allies = 14\n", "allies = 14\ndraw = 20\n", "third_reich.campaign.victory",
     "unknown field 'draw'"),
    # TR-87: a minor's BRP value is a whole number >= 0
    ("belgium = 15\n", "belgium = -5\n", "third_reich.campaign.values.belgium", ">= 0"),
    ("belgium = 15\n", "belgium = true\n", "third_reich.campaign.values.belgium", "integer"),
])
def test_tr04_tr87_a_bad_victory_level_or_value_is_refused_at_load(old, new, field, reason):
    err = _refused(old, new)
    assert err.field == field and re.search(reason, err.reason), str(err)
    assert err.line == _line_of(TR_1944.replace(old, new), new), str(err)


@pytest.mark.parametrize("old, new, field, reason", [
    # TR-24: the minors the campaign lists are minors of [home_countries]
    ('axis_minors = ["hungary", "romania", "bulgaria", "finland"]',
     'axis_minors = ["hungary", "romania", "bulgaria", "finnland"]',
     "third_reich.campaign.axis_minors", "TR-24: names a minor of .home_countries., not "
                                         "'finnland'"),
    ('neutral = ["estonia"', 'neutral = ["germany"', "third_reich.campaign.neutral",
     "TR-24: .* not 'germany'"),
    ('start_allies = ["hungary"', 'start_allies = ["hungry"', "third_reich.campaign.start_allies",
     "TR-24: .* not 'hungry'"),
    ('start_conquered = ["poland"', 'start_conquered = ["polska"',
     "third_reich.campaign.start_conquered", "TR-22: .* not 'polska'"),
    # TR-86: the US entry is a turn; the economy, builds, wars and exits name major powers
    ("us_entry_turn = 13", "us_entry_turn = 0", "third_reich.campaign.us_entry_turn", ">= 1"),
    ("economy = { germany = { base = 180, brp = 0 },", "economy = { germania = { base = 180, "
     "brp = 0 },", "third_reich.campaign.economy.germania", "TR-86: a major power, not "
                                                            "'germania'"),
    ("economy = { germany = { base = 180, brp = 0 },", "economy = { germany = { base = 180 },",
     "third_reich.campaign.economy.germany", "missing required field 'brp'"),
    ('start_out = ["france", "italy"]', 'start_out = ["france", "poland"]',
     "third_reich.campaign.start_out", "TR-86: names a major power, not 'poland'"),
    ('start_at_war = ["ussr", "us"]', 'start_at_war = ["ussr", "usa"]',
     "third_reich.campaign.start_at_war", "not 'usa'"),
    ('build_in = { us = ["uk"] }', 'build_in = { us = ["england"] }',
     "third_reich.campaign.build_in.us", "TR-86: names countries of the map, not 'england'"),
    # TR-87: the Ribbentrop-Molotov trigger is a minor, its territories areas of the map
    ('rm_trigger = "poland"', 'rm_trigger = "polska"', "third_reich.campaign.rm_trigger",
     "TR-87: .* not 'polska'"),
    ('ribbentrop_molotov = ["eastern_poland", "baltic_states", "bessarabia"]',
     'ribbentrop_molotov = ["eastern_poland", "baltics", "bessarabia"]',
     "third_reich.campaign.ribbentrop_molotov", r"TR-87: names areas of \[third_reich.areas\], "
                                                "not 'baltics'"),
    ('rm_minors = ["estonia"', 'rm_minors = ["esthonia"', "third_reich.campaign.rm_minors",
     "TR-87: .* not 'esthonia'"),
    # a later start's control: the scenario's sides and the map's cities
    ('start_control = { axis = ["Paris"', 'start_control = { axes = ["Paris"',
     "third_reich.campaign.start_control.axes", "unknown side 'axes'"),
    ('start_control = { axis = ["Paris"', 'start_control = { axis = ["Pariss"',
     "third_reich.campaign.start_control.axis", "names cities of the map, not 'Pariss'"),
    ('start_vichy = true', 'start_vichy = "yes"', "third_reich.campaign.start_vichy",
     "true or false"),
    # a misspelt key is refused, not ignored
    ('rm_trigger = "poland"', 'rm_triger = "poland"', "third_reich.campaign",
     "unknown field 'rm_triger'"),
])
def test_tr24_tr86_tr87_a_bad_campaign_key_is_refused_at_load(old, new, field, reason):
    err = _refused(old, new)
    assert err.field == field and re.search(reason, err.reason), str(err)
    assert err.line == _line_of(TR_1944.replace(old, new), new), str(err)


def test_tr25_a_war_listed_twice_is_refused_at_load():
    old = '  { between = ["uk", "germany"], since = 1, cause = "declaration", by = "uk" },\n'
    err = _refused(old, old + old.replace('["uk", "germany"]', '["germany", "uk"]'))
    assert err.field == "third_reich.wars.at_war[1].between"
    assert "TR-25: the war germany-uk is listed twice" in err.reason


@pytest.mark.parametrize("old, new, field, reason", [
    ("[third_reich]\n", "[third_reich]\nfront_wether = {}\n", "third_reich",
     "unknown field 'front_wether'"),
    ("[third_reich]\n", '[third_reich]\ncontrol = { axis = ["france", "vichy"] }\n',
     "third_reich.control.axis", "C-POLITY: control lists countries of the map, not 'vichy'"),
    ('front_weather = { western = "europe",', 'front_weather = { western = "europa",',
     "third_reich.front_weather.western", "TR-02/TR-05: .* not 'western' -> 'europa'"),
    ('front_weather = { western = "europe",', 'front_weather = { westerm = "europe",',
     "third_reich.front_weather.westerm", "TR-02/TR-05: .* not 'westerm' -> 'europe'"),
    ("[third_reich]\n", "[third_reich]\nsw_boxes = { italy = { subs = 1 } }\n",
     "third_reich.sw_boxes", "unknown field 'italy' .known: germany, uk, us."),
    ("[third_reich]\n", "[third_reich]\nsw_boxes = { uk = { subs = 1 } }\n",
     "third_reich.sw_boxes.uk", "unknown field 'subs' .known: asw, bombers."),
    ("[third_reich]\n", "[third_reich]\nsw_boxes = { germany = { subs = -2 } }\n",
     "third_reich.sw_boxes.germany.subs", ">= 0"),
    ("[third_reich]\n", '[third_reich]\nareas = { vichy = "Q22" }\n', "third_reich.areas.vichy",
     "array"),
    ("[third_reich]\n", '[third_reich]\nports = { brest = { zones = ["atlantic"] } }\n',
     "third_reich.ports.brest", "missing required field 'hex'"),
])
def test_the_rest_of_third_reich_is_typed_too(old, new, field, reason):
    """TR-02/TR-05 each front's weather region (a bad one failed only at the first end of a
    phase), TR-82 the SW boxes (refused only when a game was created), TR-26 / TR-87 areas (the Vichy zone, the R-M territories), TR-54 ports: the map file's
    keys and the scenario's own are typed; an unknown key of ``[third_reich]`` is refused."""
    err = _refused(old, new)
    assert err.field == field and re.search(reason, err.reason), str(err)
    assert err.line == _line_of(TR_1944.replace(old, new), new), str(err)


def test_tr04_tr24_tr86_tr87_defaults_are_the_rules_own():
    """A scenario without ``[third_reich.campaign]`` gets the defaults the readers had: the
    Axis minors join in 1941, the US enters in Spring 1942, R-M annexes the three areas, the
    victory levels are half and a quarter of the map's victory locations."""
    camp = third_reich_rules(load_scenario("demo-third-reich")).section.campaign
    assert camp == CampaignSection()
    assert camp.axis_minors == DEFAULT_AXIS_MINORS == ("hungary", "romania", "bulgaria",
                                                       "finland")
    assert camp.ribbentrop_molotov == DEFAULT_RM and camp.rm_trigger == "poland"
    assert camp.us_entry_turn == DEFAULT_US_ENTRY_TURN == 13
    assert victory_thresholds(load_scenario("demo-third-reich"), 9) == {"axis": 5, "allies": 2}
    assert victory_thresholds(load_scenario("tr-1944"), 9) == {"axis": 30, "allies": 14}
    with pytest.raises(InputError, match="allies must be below axis"):
        victory_thresholds(load_scenario("demo-third-reich"), 0)  # a map without any


def test_tr86_tr87_the_start_state_is_read_from_the_typed_campaign():
    """tr-1944's later start (TR-86 economy, TR-87 values, start_*), read from the typed
    section: the values the state and the diplomacy start with are the table's."""
    sc = load_scenario("tr-1944")
    camp = third_reich_rules(sc).section.campaign
    s = Game.new(sc, 1).state
    assert s["campaign"]["values"] == camp.values and camp.values["belgium"] == 15
    assert s["campaign"]["victory"] == {"axis": 30, "allies": 14}
    econ = economy_of(s)
    assert econ.base("germany") == camp.economy["germany"].base == 180
    assert econ.brp("uk") == camp.economy["uk"].brp == 0
    assert sorted(s["campaign"]["majors_out"]) == sorted(camp.start_out) == ["france", "italy"]
    assert all(s["campaign"]["minors"][m]["status"] == "conquered" for m in camp.start_conquered)
    assert s["control"]["Paris"] == "axis" and s["control"]["Taranto"] == "allies"
    d = dip.from_json(s["diplomacy"])
    assert d.us_entry_turn == camp.us_entry_turn and set(camp.start_out) <= set(d.out)


@pytest.mark.parametrize("name", sorted(n for n in shipped_scenarios()
                                        if n.startswith("tr-") or n == "demo-third-reich"))
def test_every_3r_scenario_types_its_whole_third_reich_table(name):
    """Every shipped 3R scenario loads with its whole ``[third_reich]`` typed (the map file's
    sea zones, junctions, ports, areas and facts included): converting it again from the
    section's own JSON gives the same value (no key left as written)."""
    section = third_reich_rules(load_scenario(name)).section
    assert isinstance(section, ThirdReichSection)
    again = msgspec.json.decode(msgspec.json.encode(section), type=ThirdReichSection)
    assert again == section
    if load_scenario(name).text.count("map = \"tr-europe\""):
        assert section.ports["brest"].zones and section.junctions["atlantic|us"].hex == "M10"
        assert set(section.areas) == {"eastern_poland", "bessarabia", "baltic_states", "vichy"}


def test_tr82_the_sw_boxes_schema_has_the_rules_boxes():
    """The powers and kinds ``sw_boxes`` accepts are exactly the start boxes of TR-82
    (strategic/sw_boxes.py ``START_BOXES``), and the factors written are the ones the game
    starts with (the others the rules' start)."""
    fields = {f.name: f.type for f in msgspec.structs.fields(SwBoxes)}
    schema = {p: set(next(a for a in typing.get_args(fields[p]) if a is not type(None))
                     .__struct_fields__) for p in fields}
    assert schema == {p: set(k) for p, k in START_BOXES.items()}
    text = TR_1944.replace("[third_reich]\n", "[third_reich]\nsw_boxes = { germany = "
                           "{ subs = 6 }, us = { bombers = 2 } }\n", 1)
    sc = parse_scenario(text)
    assert third_reich_rules(sc).section.sw_boxes.given() == {"germany": {"subs": 6},
                                                               "us": {"bombers": 2}}
    s = Game.new(sc, 1).state["sw_boxes"]
    assert s["germany"] == {"subs": 6, "interceptors": 0} and s["us"]["bombers"] == 2
