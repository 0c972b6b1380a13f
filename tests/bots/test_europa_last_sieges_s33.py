"""Issue 25, session 33: the Europa attacker's last game turns besiege every objective in
reach at once (the plan's ``last_sieges``, ``planner@last_sieges=N``; off by default) - no
later turn wants the units the plan's ``sieges`` keeps back."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from grognard.bots.base import Seat
from grognard.bots.catalog import make_bot
from grognard.bots.planner import parse_params
from grognard.bots.planner_plans import plan_for
from grognard.core.errors import InputError
from grognard.engine.game import Game


def test_last_sieges_is_plan_data_a_study_varies():
    assert "last_sieges" not in plan_for("europa-barbarossa", {})["axis"]  # off when shipped
    assert plan_for("europa-barbarossa", {"last_sieges": "2"})["axis"]["last_sieges"] == 2
    assert "last_sieges" not in plan_for("tr-1939-campaign", {"last_sieges": "2"})["axis"]
    assert parse_params("last_sieges=2") == {"last_sieges": "2"}
    with pytest.raises(InputError, match="last_sieges takes a number"):
        parse_params("last_sieges=late")


@pytest.mark.parametrize(("spec", "turns"), [
    ("planner@last_sieges=2", {10: 2, 11: 2, 12: 4, 13: 4}),
    ("planner@last_sieges=1", {11: 2, 12: 2, 13: 4}),
    ("planner", {12: 2, 13: 2}),
    ("mcts@last_sieges=3", {10: 2, 11: 4, 13: 4}),
])
def test_every_city_in_reach_is_besieged_in_the_last_turns(spec, turns):
    g = Game.new("europa-barbarossa", seed=0)
    bot = make_bot(spec, Seat.of(g, "axis", 0))
    policy = bot.policy  # type: ignore[attr-defined]
    assert policy.scenario_last(bot.seat.context) == 13  # Dec II 1941
    in_reach = [(1, 6.0), (2, 5.0), (3, 2.0), (4, 2.0)]
    policy.siege_cities = lambda sit: in_reach  # four objectives within the siege march
    for turn, want in turns.items():
        sit = SimpleNamespace(view={"turn": turn}, context=bot.seat.context)
        assert policy.siege_count(sit) == want, (spec, turn)
