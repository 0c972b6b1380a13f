"""EF-17/EF-18 sequential activation run by the engine (rule system ``eurofront``)."""

import pytest

from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.scenario import parse_scenario
from grognard.eurofront import system as ef_system

PHASES = ",\n  ".join(
    f'{{name = "{p["name"]}", player = "{p["player"]}", commands = {p["commands"]!r}}}'.replace(
        "'", '"') for p in ef_system.SEQUENCE_PHASES)

SCENARIO = f"""
[scenario]
id = "ef-test"
title = "EuroFront sequential activation test"
system = "eurofront"
sides = ["axis", "allies"]
seed = 5

[calendar]
month = "1941-06"
surprised = "allies"

[map]
layout = {{ offset = "odd-q", style = "numeric", origin = 1 }}
legend = {{ "." = "clear" }}
grid = \"\"\"
....
....
\"\"\"

[[units]]
id = "A1"
side = "axis"
type = "hq"
attack = 3
hex = "0101"

[[units]]
id = "A2"
side = "axis"
type = "hq"
attack = 1
hex = "0201"

[[units]]
id = "S1"
side = "allies"
type = "hq"
attack = 2
hex = "0402"

[sequence]
phases = [
  {PHASES}
]
"""


def game(seed=5):
    return Game(parse_scenario(SCENARIO, "ef-test.toml"), seed)


def play_phase(g, chit_axis, chit_allies):
    """Weather, chits, initiative (re-rolled on ties), then every activation the engine asks for."""
    g.apply(Command("roll_weather", "axis"))
    g.apply(Command("place_chit", "axis", chit_axis))
    g.apply(Command("place_chit", "allies", chit_allies))
    while True:
        ev = g.apply(Command("roll_initiative", "axis"))[0]
        if not ev.data["tie"]:
            break
    if ev.data["month_over"]:
        g.apply(Command("end_production", "allies"))
        g.apply(Command("end_production", "axis"))
        return ev, []
    order = []
    hqs = {"axis": {"A1": 3, "A2": 1}, "allies": {"S1": 2}}
    chits = {"axis": chit_axis, "allies": chit_allies}
    while g.phase.name == "activate":
        side = g.phase.player
        done = set(g.state["activation"]["activated_this_phase"])
        hq = next(h for h, s in hqs[side].items() if s == chits[side]["strength"] and h not in done)
        g.apply(Command("activate_hq", side, {"hq": hq}))
        g.apply(Command("end_operation", side))
        order.append(hq)
    g.apply(Command("end_activation_phase", "axis"))
    return ev, order


def test_ef18_engine_runs_a_month_of_activation_phases():
    g = game()
    assert g.phase.name == "weather"
    ev, order = play_phase(g, {"strength": 3, "count": 1}, {"strength": 2, "count": 1})
    first = ev.data["first"]
    assert sorted(order) == ["A1", "S1"]
    assert order[0] == ("A1" if first == "axis" else "S1")
    assert g.state["activation"]["phase"] == 2
    ev, order = play_phase(g, {"strength": 0, "count": 0}, {"strength": 0, "count": 0})
    assert ev.data["month_over"] and order == []
    assert g.state["turn"] == 2 and g.state["activation"]["month"] == "1941-07"
    assert g.phase.name == "weather"


def test_ef18_engine_view_hides_the_opponent_chit_until_reveal():
    g = game()
    g.apply(Command("roll_weather", "axis"))
    g.apply(Command("place_chit", "axis", {"strength": 3, "count": 1}))
    assert g.view("axis")["secrets"]["axis"]["chit"] == [3, 1]
    assert "axis" not in g.view("allies")["secrets"]
    assert g.view("allies")["activation"]["chits"] == {}
    g.apply(Command("place_chit", "allies", {"strength": 2, "count": 1}))
    g.apply(Command("roll_initiative", "axis"))
    assert g.view("allies")["activation"]["chits"]["axis"] == [3, 1]


def test_ef18_engine_refuses_out_of_turn_and_bad_chits():
    g = game()
    with pytest.raises(IllegalOrder):
        g.apply(Command("place_chit", "axis", {"strength": 1, "count": 1}))
    g.apply(Command("roll_weather", "axis"))
    assert set(g.active()) == {"axis", "allies"}  # EF-18: both place at once
    with pytest.raises(IllegalOrder, match="EF-18"):
        g.apply(Command("place_chit", "axis", {"strength": 3, "count": 2}))  # only one 3-HQ
    before = g.state_hash()
    assert g.state_hash() == before


def test_ef18_engine_replay_is_deterministic():
    a, b = game(9), game(9)
    for g in (a, b):
        play_phase(g, {"strength": 1, "count": 1}, {"strength": 2, "count": 1})
    assert a.state_hash() == b.state_hash()
    again = Game.replay(a.scenario, 9, a.commands, a.events)
    assert again.state_hash() == a.state_hash()

