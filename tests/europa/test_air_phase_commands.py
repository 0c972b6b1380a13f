"""Engine commands of the air phase (EUR-23..EUR-28) on the demo-europa scenario: verify,
execute (dice from named seeded streams, recorded in the events) and fold."""

from __future__ import annotations

import pytest

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError, IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.state import copy_state
from grognard.europa.air.commands import air_phase_state
from grognard.europa.air.phase import AirStep
from grognard.europa.play.sequence import AIR_COMMANDS
from grognard.europa.play.system import EUROPA, ORDERS


@pytest.fixture
def game():
    return Game.new("demo-europa", seed=11)


def run(game, state, command, seed=5, player="axis", **args):
    spec = EUROPA.commands[command]
    cmd = Command(command, player, args)
    spec.verify(game.context, state, cmd)
    events = spec.execute(game.context, state, cmd, Dice(seed))
    for ev in events:
        state = EUROPA.folds[ev.type](state, ev)
    return state, events


def test_eur23_every_air_phase_command_has_a_spec_and_folds_on_a_copy(game):
    # Folds work in place (the engine checkpoints); folding a copy leaves the game untouched.
    air_orders = {o.kind: o for o in ORDERS if o.kind in AIR_COMMANDS}
    assert set(air_orders) == set(AIR_COMMANDS)
    assert all(o.folds and o.rule.startswith("EUR-2") for o in air_orders.values())
    before = game.state
    snapshot = repr(before)
    state, _ = run(game, copy_state(before), "air_mission", id="m1", kind="interdiction")
    assert repr(before) == snapshot
    assert state["air"]["missions"] == [["m1", "interdiction"]]


def test_eur23_commands_follow_the_air_phase_order(game):
    s, _ = run(game, game.state, "air_mission", id="m1", kind="ground_support")
    s, _ = run(game, s, "interdiction", centre="0604", tactical=6)
    assert air_phase_state(s).step is AirStep.INTERDICTION
    with pytest.raises(IllegalOrder) as e:  # sweeps are over
        run(game, s, "fighter_sweep", sweepers=[{"id": "a", "air_combat": 3}],
            defenders=[{"id": "b", "air_combat": 3}])
    assert e.value.rule == "EUR-23"
    with pytest.raises(IllegalOrder):
        run(game, s, "air_mission", id="m2", kind="ground_support")
    # a new air phase (another phase index) starts again at the missions step
    later = dict(s, phase=s["phase"] + 7)
    assert air_phase_state(later).step is AirStep.MISSIONS


def test_eur24_sweep_command_records_stream_rolls(game):
    s, (ev,) = run(game, game.state, "fighter_sweep", seed=3,
                   sweepers=[{"id": "a", "air_combat": 3}, {"id": "b", "air_combat": 3}],
                   defenders=[{"id": "x", "air_combat": 2}])
    stream = Dice(3).stream("europa.air.sweep")
    assert ev.data["rolls"] == [stream.roll("2d6").total for _ in range(4)]
    assert [f["attacker_roll"] for f in ev.data["result"]["fights"]] == ev.data["rolls"][::2]
    assert s["air"]["step"] == "sweep"


def test_eur25_intercept_command_checks_half_range(game):
    args = {"interceptors": [{"id": "i", "air_combat": 3, "range": 8}],
            "mission": {"id": "m1", "kind": "ground_support",
                        "strikers": [{"id": "ju87", "air_combat": 1, "tactical": 15}]},
            "strike_targets": {"i": "ju87"}}
    with pytest.raises(IllegalOrder) as e:
        run(game, game.state, "intercept", player="soviet", distances={"i": 5}, **args)
    assert e.value.rule == "EUR-25"
    s, (ev,) = run(game, game.state, "intercept", player="soviet", distances={"i": 4}, **args)
    assert s["air"]["step"] == "interception"
    assert len(ev.data["rolls"]) == ev.data["result"]["rolls_used"] == 2


def test_eur26_interdiction_command_places_zone_on_the_map(game):
    s, (ev,) = run(game, game.state, "interdiction", centre="0604", tactical=6, rail=True)
    zone = ev.data["result"]["zone"]
    assert ev.data["roll"] == Dice(5).stream("europa.air.interdiction").die(6)
    assert zone["centre"] == "0604" and zone["rail_break"] and "0604" in zone["hexes"]
    assert s["air"]["zones"] == [zone]
    s2, (ev2,) = run(game, s, "interdiction", centre="0604", tactical=0)
    assert ev2.data["result"]["zone"] is None and s2["air"]["zones"] == [zone]


def test_eur27_airbase_commands_track_hits_and_repair(game):
    s, (ev,) = run(game, game.state, "airbase_attack", base="Kiev", capacity=3,
                   active=["a", "b", "c"], hits=2)
    assert s["air"]["airbases"]["Kiev"]["hits"] == 2
    assert len(s["air"]["airbases"]["Kiev"]["inactive"]) == 2
    assert ev.data["result"]["eliminated"] == []
    s, _ = run(game, s, "airbase_repair", base="Kiev")
    assert s["air"]["airbases"]["Kiev"]["hits"] == 1
    with pytest.raises(IllegalOrder):  # once per turn
        run(game, s, "airbase_repair", base="Kiev")
    with pytest.raises(GrognardError):
        run(game, game.state, "airbase_attack", base="Kiev", capacity=3, strength=0)


def test_eur28_strategic_command_carries_odd_hits_within_the_turn(game):
    s, (ev,) = run(game, game.state, "strategic_bombing", target="factory", results=[1])
    assert ev.data["result"]["replacement_points_lost"] == 0
    s, (ev,) = run(game, s, "strategic_bombing", target="factory", results=[1])
    assert ev.data["result"]["replacement_points_lost"] == 1
    with pytest.raises(GrognardError):
        run(game, s, "strategic_bombing", target="factory", results=[5])
