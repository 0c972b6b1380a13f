"""Issue 25 item 2: the ``mcts`` bot's search - paired rounds that are never wasted, the plan
kept unless the simulations tell the candidates apart, one determinization per round, and the
rollout's cut (the end of the game turn, or ``cut=side``: of the seat's own player turn)."""

from __future__ import annotations

import copy

import pytest

import grognard.bots.mcts as mcts
from grognard.bots.base import Seat
from grognard.bots.catalog import make_bot
from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.engine.game import Game

CANDS = [Command("end_phase", "axis", {}), Command("declare_war", "axis", {"power": "x"}),
         Command("declare_war", "axis", {"power": "y"}),
         Command("declare_war", "axis", {"power": "z"})]


def _counting(game: Game, budget: int, values: list[float]):
    bot = make_bot(f"mcts@budget={budget}", Seat.of(game, "axis", 0))
    calls: list[tuple[Command, int | None]] = []

    def simulate(view, g, cmd, seed=None):
        calls.append((cmd, seed))
        return values[CANDS.index(cmd)]
    bot.simulate = simulate
    return bot, calls


@pytest.fixture(scope="module")
def tr() -> Game:
    return Game.new("tr-1939-campaign", seed=0)


def test_a_small_budget_simulates_nothing_it_cannot_use(tr):
    """Every candidate needs ``ROUNDS`` (4) paired rounds: budgets 2 to 7 play the planner's
    choice without a simulation (session 10 simulated every candidate once and then kept the
    planner's; session 11 compared on two rounds, too few - the winner's curse)."""
    assert mcts.ROUNDS == 4
    for budget in (2, 3, 4, 7):
        bot, calls = _counting(tr, budget, [0.0, 50.0, 1.0, 2.0])
        assert bot.search(tr.view("axis"), tr, CANDS) == CANDS[0]
        assert calls == [] and bot.searched == 0


def test_the_budget_buys_four_rounds_of_the_planners_first_candidates(tr):
    """Budget 8 with four candidates: the planner's first two, four paired rounds (the same
    seed for both candidates of a round, another seed next round); budget 16: all four."""
    bot, calls = _counting(tr, 8, [0.0, 50.0, 100.0, 100.0])
    assert bot.search(tr.view("axis"), tr, CANDS) == CANDS[1]
    assert [c for c, _s in calls] == [CANDS[0], CANDS[1]] * 4
    assert calls[0][1] == calls[1][1] != calls[2][1] == calls[3][1]
    assert (bot.searched, bot.changed) == (1, 1)
    bot, calls = _counting(tr, 16, [0.0, 1.0, 2.0, 50.0])
    assert bot.search(tr.view("axis"), tr, CANDS) == CANDS[3]
    assert [c for c, _s in calls] == CANDS * 4


def test_another_candidate_must_win_round_by_round():
    """The paired differences decide: better on average by the margin is not enough when it
    lost a round (two rounds, Z = 1: it must win both); it wins when it won every round."""
    assert mcts.better([[0.0, 0.0], [30.0, -5.0]]) == 0  # +30 then -5: mean 12.5, se 17.5
    assert mcts.better([[0.0, 0.0], [30.0, 5.0]]) == 0  # mean 17.5, se 12.5: not 1.5 se
    assert mcts.better([[0.0, 0.0], [30.0, 20.0]]) == 1  # mean 25, se 5
    assert mcts.better([[0.0, 10.0], [1.0, 11.0], [-50.0, -40.0]]) == 0  # below the margin
    assert mcts.better([[0.0, 10.0, 0.0], [20.0, 30.0, 1.0], [5.0, 5.0, 5.0]]) == 1
    assert mcts.better([[0.0], [100.0]]) == 0  # one round compares nothing
    assert mcts.better([[5.0, 5.0], [5.0, 5.0]]) == 0  # a tie keeps the plan


def test_one_determinization_per_round_copied_for_each_candidate(tr, monkeypatch):
    """The seat's view is sampled once per seed; every candidate plays on its own copy (the
    sampled state is not changed by a simulation)."""
    sampled: list[int] = []
    real = mcts.sampled_state

    def counting(game, view, seed):
        sampled.append(seed)
        return real(game, view, seed)
    monkeypatch.setattr(mcts, "sampled_state", counting)
    bot = make_bot("mcts@budget=4@horizon=3", Seat.of(tr, "axis", 0))
    view = tr.view("axis")
    end = Command("end_phase", "axis", {})
    bot.simulate(view, tr, end, 11)
    start = copy.deepcopy(bot._start)
    bot.simulate(view, tr, end, 11)
    assert sampled == [11] and bot._start == start
    bot.simulate(view, tr, end, 12)
    assert sampled == [11, 12] and bot.simulations == 3
    assert tr.state["turn"] == 1 and not tr.commands  # the real game is untouched


def test_the_rollout_cut_at_the_seats_player_turn():
    """``cut=side``: a rollout from the Axis options phase stops at the first Allied phase of
    the same turn; the default goes on to the end of the game turn."""
    g = mcts.determinize(Game.new("tr-1939-campaign", seed=0), Game.new(
        "tr-1939-campaign", seed=0).view("axis"), 5)
    h = mcts.fork(g, g.state, 5)
    assert g.phase.player == "axis"
    n = mcts.rollout(g, 5, 1000, "axis")
    assert n > 10 and g.state["turn"] == 1 and g.phase.player == "allies"
    m = mcts.rollout(h, 5, 1000)
    assert m > n and (h.state["turn"] == 2 or h.over)


def test_an_unknown_cut_is_refused():
    g = Game.new("eurofront-1941", seed=0)
    with pytest.raises(InputError, match="cut"):
        make_bot("mcts@cut=phase", Seat.of(g, "axis", 0))
    assert make_bot("mcts@cut=side", Seat.of(g, "axis", 0)).cut == "side"


def test_passing_never_replaces_the_plans_action(tr):
    """In the Axis options phase of Fall 1939 the planner declares options: the candidates
    are its choice and the next best of its scores, never passing (a one-turn rollout sees an
    offensive's cost and not the conquest it begins: passing used to replace the plan)."""
    from grognard.bots.base import LazyView, LegalActions
    from grognard.bots.planner import PlannerBot

    bot = make_bot("mcts", Seat.of(tr, "axis", 0))
    la = LegalActions(tr, "axis")
    first = PlannerBot.choose(bot, LazyView(tr, "axis"), la)
    assert first.kind in bot.policy.macro_kinds
    cands = bot._candidates(LazyView(tr, "axis"), la, first)
    assert cands[0] == first and len(cands) >= 2
    assert all(c.kind != "end_phase" for c in cands)


def test_the_bench_reports_the_searchs_own_speed():
    """bench/study.py --search (issue 25 item 5): simulations per CPU second of the search's
    own decisions beside those of the whole game, the decisions simulated and changed, and
    one simulation from the opening."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    r = subprocess.run([sys.executable, str(root / "bench" / "study.py"), "--search", "8",
                        "--quick", "--json"], capture_output=True, text=True, check=True)
    out = json.loads(r.stdout)
    assert out["simulations"] >= 8 and out["decisions_searched"] >= 1
    assert 0 < out["search_cpu_s"] <= out["cpu_s"]
    assert out["simulations_per_search_cpu_s"] >= out["simulations_per_cpu_s"] > 0
    assert 0 <= out["planner_choice_changed"] <= out["decisions_searched"]
    assert out["opening_simulation_cpu_s"] > 0
