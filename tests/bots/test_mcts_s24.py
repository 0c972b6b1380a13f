"""Issue 25 item 2 (session 24): the 3R search weighs Barbarossa's date (TR-25, TR-86).

The planner declares war on the USSR on its plan's date (Summer I 1941, turn 9). On that
date the search bot's Axis weighs the plan's date against a year later (``later``: the plan's
``barbarossa`` label moved on by a year) by rollouts to the game's end - the choice is made
once and its worth shows only years later - and holds the winner to the end, in its own play
and in its later rollouts. The posture decides the very decision it is weighed at (the
declaration it puts off), so the planner chooses it again under the posture. The planner
never sets a posture."""

from __future__ import annotations

import pytest

from grognard.bots import mcts
from grognard.bots.base import LazyView, LegalActions, Seat
from grognard.bots.catalog import make_bot
from grognard.bots.planner_plans import TRPosture
from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.engine.game import Game

SCENARIO = "tr-1939-campaign"
#: TR-04's calendar from Fall 1939 (turn 1): Summer I 1941 is turn 9, Summer I 1942 turn 14
SUMMER_1941, SUMMER_1942 = 9, 14


def _at_turn(turn: int) -> Game:
    g = Game.new(SCENARIO, seed=0)
    g.state = {**g.state, "turn": turn, "control": {**g.state["control"], "Paris": "axis"}}
    return g


def _war_on_ussr(policy, g: Game) -> float:
    sit = policy.situation(g.view("axis"), g)
    return policy.score(sit, Command("declare_war", "axis",
                                     {"power": "germany", "majors": ["ussr"]}))


def test_tr25_later_puts_barbarossa_off_a_year_and_the_plans_posture_restores_it():
    """Under ``later`` the planner's war on the USSR waits for Summer I 1942 (every stage that
    starts with Barbarossa waits with it); ``plan`` moves nothing, and the plan's posture
    (``TRPosture(None, False)``, as a rollout restores the search's) restores the date."""
    g9, g14 = _at_turn(SUMMER_1941), _at_turn(SUMMER_1942)
    pol = make_bot("planner", Seat.of(g9, "axis", 0)).policy
    stage = next(st for st in pol.campaign.stages if st["name"] == "barbarossa")
    assert _war_on_ussr(pol, g9) > 0
    pol.set_posture(g9.view("axis"), "plan")  # the plan's: nothing moves
    assert pol.posture == TRPosture(None, False)
    pol.set_posture(g9.view("axis"), "later")
    assert pol.posture == TRPosture(1, False)
    assert pol.campaign.start_label(stage) == "Summer I 1942"
    assert _war_on_ussr(pol, g9) < 0 < _war_on_ussr(pol, g14)
    pol.posture = TRPosture(None, False)  # as a rollout restores the search's postures
    assert pol.campaign.start_label(stage) == "Summer I 1941"
    assert _war_on_ussr(pol, g9) > 0


def test_the_date_is_weighed_once_on_the_plans_date_by_the_axis():
    """Only on the plan's date, only by the side whose stages start on it, only while no
    posture is set, only when weighed (``mcts@weigh=none``: never), and only with the game's
    calendar at hand."""
    g = _at_turn(SUMMER_1941)
    axis = make_bot("planner", Seat.of(g, "axis", 0)).policy
    allies = make_bot("planner", Seat.of(g, "allies", 0)).policy
    assert axis.posture_names({"turn": SUMMER_1941}, g) == ["plan", "later"]
    for turn in (SUMMER_1941 - 1, SUMMER_1941 + 1, SUMMER_1942):
        assert axis.posture_names({"turn": turn}, g) == []
    assert axis.posture_names({"turn": SUMMER_1941}) == []  # no calendar: nothing weighed
    assert allies.posture_names({"turn": SUMMER_1941}, g) == []
    assert axis.posture_key({"turn": SUMMER_1941}) != axis.posture_key({"turn": 10})
    assert axis.posture_stop({"turn": SUMMER_1941}) is None  # rollouts to the game's end
    axis.set_posture({"turn": SUMMER_1941}, "later")
    assert axis.posture_names({"turn": SUMMER_1941}, g) == []  # decided: held to the end
    assert make_bot("mcts@weigh=none", Seat.of(g, "axis", 0)).policy.posture_names(
        {"turn": SUMMER_1941}, g) == []
    with pytest.raises(InputError, match="weigh"):
        make_bot("mcts@weigh=bold", Seat.of(g, "axis", 0))  # Europa's, not 3R's


def test_a_posture_that_decides_now_is_set_before_the_planner_chooses():
    """``mcts@budget=0@posture=later`` (the posture standing, no simulation): at the Axis's
    first macro decision of Summer I 1941 it plays what the planner with Barbarossa planned
    for 1942 plays there (the posture set before the planner chooses), not the plan's."""
    g = _at_turn(SUMMER_1941)
    la = LegalActions(g, "axis")
    later = make_bot("mcts@budget=0@posture=later", Seat.of(g, "axis", 0))
    chosen = later.choose(LazyView(g, "axis"), la)
    assert later.policy.posture.delay == 1
    planned = make_bot("planner", Seat.of(g, "axis", 0)).choose(LazyView(g, "axis"), la)
    in_1942 = make_bot("planner@barbarossa_year=1942", Seat.of(g, "axis", 0)).choose(
        LazyView(g, "axis"), la)
    assert planned != in_1942  # the date changes this decision
    assert chosen == in_1942
    plain = make_bot("mcts@budget=0", Seat.of(g, "axis", 0))
    assert plain.choose(LazyView(g, "axis"), la) == planned
    assert plain.policy.posture == TRPosture(None, False)


def test_the_dates_rollouts_start_before_the_decision_and_run_to_the_end(monkeypatch):
    """A posture that decides now is simulated from before the decision (no command played
    first: the seat's planner chooses it under the posture), to the game's end (no stop)
    with the policy's long horizon; twice a decision's rounds."""
    g = _at_turn(SUMMER_1941)
    bot = make_bot("mcts", Seat.of(g, "axis", 0))
    seen: list[tuple] = []

    def fake_rollout(game, seed, horizon, side=None, turns=1, posture=None, keep=None,
                     buyer=None, stop=None):
        seen.append((len(game.commands), horizon, side, stop, posture))
        return 0

    monkeypatch.setattr(mcts, "rollout", fake_rollout)
    bot.simulate(g.view("axis"), g, None, seed=1, posture="later")
    assert seen == [(0, 20000, None, None, ("axis", "later"))]
    seen.clear()
    k = bot.search(g.view("axis"), g, [None, None], postures=["plan", "later"])
    assert k == 0  # every rollout the same: the plan stands
    assert len(seen) == 2 * (bot.budget // 2) * 2  # 8 paired rounds at budget 8
