"""Engine commands of the air phase (EUR-23..EUR-28) on the demo-europa scenario: verify,
execute (dice from named seeded streams, recorded in the events) and fold."""

from __future__ import annotations

import pytest

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
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


def test_eur23_a_new_air_phase_starts_again_at_the_missions_step(game):
    s, _ = run(game, game.state, "air_mission", id="m1", kind="ground_support")
    assert air_phase_state(s).step is AirStep.MISSIONS
    with pytest.raises(IllegalOrder):  # the mission id is taken in this air phase
        run(game, s, "air_mission", id="m1", kind="ground_support")
    later = dict(s, phase=s["phase"] + 7)
    assert air_phase_state(later).step is AirStep.MISSIONS


# Issue 24: the air commands' calculator form (ratings, distances, rolls' results and
# airbases given in the order) is gone: they are the referee's facts, held in the state for
# the scenario's air units (``[europa.air_units]``; played in tests/europa/test_air_engine.py).
@pytest.mark.parametrize("command,player,args", [
    ("fighter_sweep", "axis", {"sweepers": [{"id": "a", "air_combat": 3}],
                               "defenders": [{"id": "x", "air_combat": 2}]}),
    ("intercept", "soviet", {"mission": "m1", "interceptors": ["i"], "distances": {"i": 4}}),
    ("interdiction", "axis", {"centre": "0604", "tactical": 6, "rail": True}),
    ("airbase_attack", "axis", {"base": "Kiev", "capacity": 3, "active": ["a"], "hits": 2}),
    ("strategic_bombing", "axis", {"target": "factory", "results": [1]}),
    ("airbase_repair", "axis", {"base": "Kiev", "capacity": 3, "active": ["a"]}),
])
def test_eur24_eur28_orders_naming_air_facts_are_refused_in_one_line(game, command, player,
                                                                     args):
    before = game.state_hash()
    with pytest.raises(IllegalOrder) as e:
        run(game, game.state, command, player=player, **args)
    text = str(e.value)
    assert "referee" in text and "\n" not in text and e.value.rule.startswith("EUR-2")
    assert game.state_hash() == before


def test_eur27_repair_names_an_airbase_the_state_knows(game):
    with pytest.raises(IllegalOrder) as e:
        run(game, game.state, "airbase_repair", base="Kiev")
    assert e.value.rule in ("EUR-23", "EUR-27")
