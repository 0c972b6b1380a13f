"""Issue 25 item 2 (session 14): the search bot's postures for EuroFront's defending side.

The planner's Allies counter-attack every Axis hex in reach whatever the odds (the generic
defence, ``EuroFrontPolicy.score_move``). The search weighs, once a month, the plan's posture
against a cautious one (a counter-attack only where the blocks that can join it expect more
than twice the defenders' hits) and plays the winner to the month's end; a bot that sets no
posture plays the planner's very game."""

from __future__ import annotations

import pytest

from grognard.bots import mcts
from grognard.bots.base import LazyView, LegalActions, Seat
from grognard.bots.catalog import make_bot
from grognard.bots.heuristic import EuroFrontPolicy, destination
from grognard.engine.game import Game


def _to_allied_counter_attack(seed: int) -> tuple[Game, object, list]:
    """A planner game of eurofront-1941 played to the first Allied decision that lists a move
    into an Axis hex at poor odds (the planner's Allies take it: 1 point and the hex's value);
    the Allied planner and those moves."""
    g = Game.new("eurofront-1941", seed=seed)
    bots = {p: make_bot("planner", Seat.of(g, p, seed)) for p in g.scenario.sides}
    pol = bots["allies"].policy
    for _ in range(5000):
        p = g.active()[0]
        if p == "allies":
            view = g.view("allies")
            sit = pol.situation(view, g)
            poor = [c for c in g.legal("allies", "move")
                    if destination(c) in sit.enemy_hexes
                    and str(c.args.get("block")) in sit.mine
                    and pol._battle_odds(sit, destination(c))[0]
                    <= 2.0 * pol._battle_odds(sit, destination(c))[1]]
            if poor:
                return g, bots["allies"], poor
        g.apply(bots[p].choose(LazyView(g, p), LegalActions(g, p)))
    raise AssertionError("no Allied counter-attack at poor odds")


@pytest.fixture(scope="module")
def counter() -> tuple[Game, object, list]:
    return _to_allied_counter_attack(201)


def test_the_cautious_posture_refuses_a_counter_attack_at_poor_odds(counter):
    """Without a posture (the planner) a move into an Axis hex scores 1 and the hex's value;
    under the cautious posture of this month it scores below holding (-0.5); a posture set
    for another month changes nothing."""
    g, bot, poor = counter
    pol = bot.policy
    view = g.view("allies")
    sit = pol.situation(view, g)
    assert isinstance(pol, EuroFrontPolicy) and pol.posture is None
    plain = [pol.score(sit, c) for c in poor]
    assert all(s >= 1.0 for s in plain)
    pol.set_posture(view, "cautious")
    assert pol.posture == (pol.posture_key(view), 2.0)
    sit = pol.situation(view, g)
    assert all(pol.score(sit, c) == -0.5 for c in poor)
    pol.posture = ("1939-01", 2.0)  # another month's posture
    sit = pol.situation(view, g)
    assert [pol.score(sit, c) for c in poor] == plain
    pol.set_posture(view, "plan")
    assert pol.posture == (pol.posture_key(view), None)
    sit = pol.situation(view, g)
    assert [pol.score(sit, c) for c in poor] == plain
    pol.posture = None


def test_postures_are_the_defenders_only():
    """The attacking side (the Axis, which must take the objectives) already attacks only at
    odds: no posture is offered to it; the Allies get the plan's posture first."""
    g = Game.new("eurofront-1941", seed=0)
    axis = make_bot("planner", Seat.of(g, "axis", 0)).policy
    allies = make_bot("planner", Seat.of(g, "allies", 0)).policy
    assert axis.posture_names(g.view("axis")) == []
    assert allies.posture_names(g.view("allies"))[:2] == ["plan", "cautious"]


def _first_macro(seed: int, seat: str) -> Game:
    g = Game.new("eurofront-1941", seed=seed)
    bots = {p: make_bot("planner", Seat.of(g, p, seed)) for p in g.scenario.sides}
    while not (seat in g.active() and g.legal(seat, "place_chit")):
        p = g.active()[0]
        g.apply(bots[p].choose(LazyView(g, p), LegalActions(g, p)))
    return g


@pytest.mark.parametrize("winner", [0, 1])
def test_the_search_weighs_the_postures_once_a_month(monkeypatch, winner):
    """At the month's first macro decision the search simulates each posture (budget // 2
    rounds each, the rollout's Allies under it) and plays the winner for the month; the
    next macro decision of the month weighs no posture again."""
    g = _first_macro(3, "allies")
    played: list[object] = []
    real = mcts.MctsBot.simulate

    def sim(self, view, game, cmd, seed=None, buying=False, posture=None):
        played.append(posture)
        return real(self, view, game, cmd, seed, buying, posture)
    monkeypatch.setattr(mcts.MctsBot, "simulate", sim)
    picks = iter([winner])
    monkeypatch.setattr(mcts, "better", lambda values: next(picks, 0))
    bot = make_bot("mcts@budget=8@horizon=60", Seat.of(g, "allies", 3))
    bot.choose(LazyView(g, "allies"), LegalActions(g, "allies"))
    assert played[:8] == ["plan", "cautious"] * 4
    month = bot.policy.posture_key(g.view("allies"))
    assert bot.policy.posture == (month, 2.0 if winner else None)
    assert bot.postures_changed == winner
    n = played.count("cautious")
    bot.choose(LazyView(g, "allies"), LegalActions(g, "allies"))
    assert played.count("cautious") == n  # once a month


def test_the_rollout_plays_the_posture(monkeypatch):
    """In a posture's simulation the rollout's Allied planner holds the posture (its
    counter-attacks at poor odds refused); the plan's posture leaves it as the planner."""
    g = _first_macro(3, "allies")
    seen: list[object] = []
    real = mcts.PlannerBot.choose

    def choose(self, view, legal):
        if self.seat.player == "allies":
            seen.append(self.policy.posture)
        return real(self, view, legal)
    monkeypatch.setattr(mcts.PlannerBot, "choose", choose)
    bot = make_bot("mcts@budget=8@horizon=40", Seat.of(g, "allies", 3))
    view = g.view("allies")
    cmd = g.legal("allies", "place_chit")[0]
    seen.clear()
    bot.simulate(view, g, cmd, 11, posture="cautious")
    month = bot.policy.posture_key(view)
    assert seen and all(p == (month, 2.0) for p in seen)
    seen.clear()
    bot.simulate(view, g, cmd, 11, posture="plan")
    assert seen and all(p == (month, None) for p in seen)
    assert bot.policy.posture is None
