"""Issue 25 item 2 (session 25): the search's evaluation of a drawn game, and the 3R search's
last turns' push (TR-04).

TR-04: the campaign's verdict counts the victory locations the Axis holds after Summer I
1945 - 30 or more an Axis win, 14 or fewer an Allied win, a draw between. A rollout that
ends in a draw is neither side's loss: the search weighs it between a win and a loss (it
counted as a loss for both seats before session 25, so a posture that turned a loss into a
draw looked no better)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from grognard.bots import mcts
from grognard.bots.base import LegalActions, Seat
from grognard.bots.catalog import make_bot
from grognard.bots.planner_plans import PUSH_OBJECTIVE, PUSH_VALUE, TRPosture
from grognard.bots.tr_plans import tr_front
from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.engine.game import Game

SCENARIO = "tr-1939-campaign"


def _over(winner: str | None) -> SimpleNamespace:
    """A finished game as the evaluation reads it (its result)."""
    return SimpleNamespace(result={"winner": winner, "rule": "TR-04"})


def test_tr04_a_draw_is_weighed_between_a_win_and_a_loss():
    g = Game.new(SCENARIO, seed=0)
    for side, other in (("axis", "allies"), ("allies", "axis")):
        pol = make_bot("planner", Seat.of(g, side, 0)).policy
        view = g.view(side)
        assert pol.result_value(_over(side)) == 1000.0
        assert pol.result_value(_over(other)) == -1000.0
        assert pol.result_value(_over("draw")) == 0.0
        # 3R adds the cities and BRPs held (TR-37, TR-07) to the result: the verdicts stay
        # apart, a draw half way
        won, drawn, lost = (pol.evaluate(view, _over(w)) for w in (side, "draw", other))
        assert won - drawn == drawn - lost == 1000.0
    # a game going on: judged by the position (neither bound)
    pol = make_bot("planner", Seat.of(g, "axis", 0)).policy
    assert pol.result_value(g) is None
    assert -1000.0 < pol.evaluate(g.view("axis"), g) < 1000.0


# --- the last turns' push (TR-04) ------------------------------------------------------------
#: TR-04's calendar from Fall 1939 (turn 1): Summer I 1945, the campaign's last turn, is 29
LAST_TURN = 29


def _warsaw_lost(turn: int) -> Game:
    """The set-up with Warsaw (a capital: a victory location) held by the Allies, on ``turn``
    (the German army stands on the Polish border, within reach of it)."""
    g = Game.new(SCENARIO, seed=0)
    g.state = {**g.state, "turn": turn, "control": {**g.state["control"], "Warsaw": "allies"}}
    return g


def _warsaw(g: Game) -> str:
    return next(g.scenario.map.label(i) for i, cs in g.scenario.map.cities.items() for c in cs
                if c.name == "Warsaw")


def test_tr04_the_push_aims_at_the_enemys_victory_locations_in_the_last_turns():
    """``planner@push_turns=1``: in the campaign's last turn an enemy-held victory location
    within reach of the side's ground units is a goal - an objective above the stage's, worth
    more as an attack's target; a turn earlier, or without the setting, nothing changes."""
    last, before = _warsaw_lost(LAST_TURN), _warsaw_lost(LAST_TURN - 1)
    warsaw = _warsaw(last)
    push = make_bot("planner@push_turns=1", Seat.of(last, "axis", 0)).policy
    plain = make_bot("planner", Seat.of(last, "axis", 0)).policy
    sit = push.situation(last.view("axis"), last)
    assert warsaw in push.push_goals(sit, last)
    assert sit.objectives[warsaw] == PUSH_OBJECTIVE
    plain_sit = plain.situation(last.view("axis"), last)
    assert plain.push_goals(plain_sit, last) == set()
    assert push.hex_value(sit, warsaw) == PUSH_OBJECTIVE + PUSH_VALUE > \
        plain.hex_value(plain_sit, warsaw)
    early = make_bot("planner@push_turns=1", Seat.of(before, "axis", 0)).policy
    assert early.push_goals(early.situation(before.view("axis"), before), before) == set()
    # the Allies hold it: no goal of theirs (a side pushes on the enemy's places only)
    allies = make_bot("planner@push_turns=1", Seat.of(last, "allies", 0)).policy
    assert warsaw not in allies.push_goals(allies.situation(last.view("allies"), last), last)


def test_tr03_the_push_declares_the_offensive_where_a_goal_is():
    """TR-03: under the push a power in contact on a front with a goal in reach wants the
    offensive there (the plan's defence wanted attrition or nothing)."""
    g = _warsaw_lost(LAST_TURN)
    warsaw = _warsaw(g)
    push = make_bot("planner@push_turns=1", Seat.of(g, "axis", 0)).policy
    sit = push.situation(g.view("axis"), g)
    front = tr_front(sit, warsaw)

    def options(o: str) -> Command:
        return Command("declare_options", "axis", {"power": "germany", "options": {front: o}})

    # the set-up's German army on the Polish border is in contact on Warsaw's front
    assert push._front_strength(sit, "germany").get(front, (0, 0))[0] > 0
    assert push.score(sit, options("offensive")) > push.score(sit, options("attrition"))


def test_the_push_is_weighed_in_the_last_turn_by_both_sides_until_chosen():
    g = _warsaw_lost(LAST_TURN)
    for side in ("axis", "allies"):
        pol = make_bot("planner", Seat.of(g, side, 0)).policy
        assert pol.posture_names({"turn": LAST_TURN}, g) == ["plan", "push"]
        assert pol.posture_names({"turn": LAST_TURN - 1}, g) == []
        pol.set_posture({"turn": LAST_TURN}, "push")
        assert pol.posture == TRPosture(None, True)
        assert pol.posture_names({"turn": LAST_TURN}, g) == []  # chosen: held to the end
    assert make_bot("mcts@weigh=later", Seat.of(g, "axis", 0)).policy.posture_names(
        {"turn": LAST_TURN}, g) == []
    with pytest.raises(InputError, match="push_turns"):
        make_bot("planner@push_turns=x", Seat.of(g, "axis", 0))


def test_the_search_stands_on_its_plans_prior_unless_the_rollouts_beat_it(monkeypatch):
    """The plan's ``prior`` (the Axis's: Barbarossa a year later, the last turn's push) is the
    posture the search stands on where it weighs it: with rollouts that cannot tell the
    postures apart it plays the prior; asked for another (``posture=plan``) or below budget 4
    it stands on the plan. The Allies have no prior. The planner never reads it."""
    monkeypatch.setattr(mcts, "rollout", lambda *a, **k: 0)  # every rollout the same
    summer_1941 = 9
    g = Game.new(SCENARIO, seed=0)
    g.state = {**g.state, "turn": summer_1941,
               "control": {**g.state["control"], "Paris": "axis"}}
    view = g.view("axis")
    assert make_bot("planner", Seat.of(g, "axis", 0)).policy.prior(view) == ["later", "push"]
    assert make_bot("planner", Seat.of(g, "allies", 0)).policy.prior(g.view("allies")) == []
    la = LegalActions(g, "axis")
    searched = make_bot("mcts", Seat.of(g, "axis", 0))
    searched._posture(view, la, None)
    assert searched.policy.posture == TRPosture(1, False)  # the prior stood
    for spec in ("mcts@posture=plan", "mcts@budget=0"):
        bot = make_bot(spec, Seat.of(g, "axis", 0))
        bot._posture(view, la, None)
        assert bot.policy.posture == TRPosture(None, False), spec
