"""Issue 25 item 2 (session 15): the search bot's standing posture and more postures for
EuroFront's defending side.

Counter-attack edges as the whole Allied policy beat the plan's counter-attack-everything on
the tuning seeds (session 14), so the search's Allies may play a standing posture
(``mcts@posture=NAME``) in every month, and the month's search weighs it first against the
others; below budget 4 (and ``mcts@budget=0`` without ``posture``) the bot plays the
planner's very game (tests/bots/test_mcts_s13.py)."""

from __future__ import annotations

import pytest

from grognard.bots import mcts
from grognard.bots.base import LazyView, LegalActions, Seat
from grognard.bots.catalog import make_bot
from grognard.core.errors import InputError
from grognard.engine.game import Game


def _first_macro(seed: int, seat: str) -> Game:
    g = Game.new("eurofront-1941", seed=seed)
    bots = {p: make_bot("planner", Seat.of(g, p, seed)) for p in g.scenario.sides}
    while not (seat in g.active() and g.legal(seat, "place_chit")):
        p = g.active()[0]
        g.apply(bots[p].choose(LazyView(g, p), LegalActions(g, p)))
    return g


def test_the_standing_posture_holds_where_no_month_posture_is_set():
    """The edge of the standing posture is played in a month with no posture set (or
    another month's); a posture set for this month, even the plan's, overrides it."""
    g = _first_macro(3, "allies")
    pol = make_bot("planner", Seat.of(g, "allies", 3)).policy
    view = g.view("allies")
    sit = pol.situation(view, g)
    assert pol.posture_edge(sit) is None  # the planner: the plan's
    pol.standing = 1.5
    assert pol.posture_edge(sit) == 1.5
    pol.posture = ("1939-01", 2.0)  # another month's
    assert pol.posture_edge(sit) == 1.5
    pol.set_posture(view, "plan")
    assert pol.posture_edge(sit) is None
    pol.set_posture(view, "even")
    assert pol.posture_edge(sit) == 1.0


def test_a_standing_posture_without_search(monkeypatch):
    """``mcts@budget=0@posture=odds``: no simulation, the odds posture (1.5x) set for the
    month at its first macro decision and standing for the months after."""
    g = _first_macro(3, "allies")
    monkeypatch.setattr(mcts.MctsBot, "simulate", lambda *a, **k: pytest.fail("simulated"))
    bot = make_bot("mcts@budget=0@posture=odds", Seat.of(g, "allies", 3))
    bot.choose(LazyView(g, "allies"), LegalActions(g, "allies"))
    month = bot.policy.posture_key(g.view("allies"))
    assert bot.policy.posture == (month, 1.5)
    assert bot.policy.standing == 1.5
    assert make_bot("mcts@budget=0", Seat.of(g, "allies", 3)).stance == "plan"


@pytest.mark.parametrize(("budget", "weighed"), [
    (8, ["odds", "plan"]), (16, ["odds", "plan", "cautious", "even"])])
def test_the_search_weighs_the_standing_posture_first(monkeypatch, budget, weighed):
    """The standing posture is the first candidate (it stands unless another beats it):
    at budget 8 against the plan's, at 16 against every posture, 4 paired rounds each."""
    g = _first_macro(3, "allies")
    played: list[object] = []

    def sim(self, view, game, cmd, seed=None, buying=False, posture=None):
        played.append(posture)
        return 0.0
    monkeypatch.setattr(mcts.MctsBot, "simulate", sim)
    bot = make_bot(f"mcts@budget={budget}@horizon=40@posture=odds", Seat.of(g, "allies", 3))
    bot.choose(LazyView(g, "allies"), LegalActions(g, "allies"))
    n = len(weighed)
    assert played[:4 * n] == weighed * 4
    month = bot.policy.posture_key(g.view("allies"))
    assert bot.policy.posture == (month, 1.5)  # no other beat it
    assert bot.postures_changed == 0


def test_the_rollout_keeps_the_standing_posture(monkeypatch):
    """A simulation of a chit (no posture weighed) has the rollout's Allied planner under the
    bot's posture of the month and its standing one, which holds past the month."""
    g = _first_macro(3, "allies")
    seen: list[object] = []
    real = mcts.PlannerBot.choose

    def choose(self, view, legal):
        if self.seat.player == "allies":
            seen.append((self.policy.posture, self.policy.standing))
        return real(self, view, legal)
    monkeypatch.setattr(mcts.PlannerBot, "choose", choose)
    bot = make_bot("mcts@budget=0@horizon=40@posture=cautious", Seat.of(g, "allies", 3))
    bot.choose(LazyView(g, "allies"), LegalActions(g, "allies"))
    month = bot.policy.posture_key(g.view("allies"))
    seen.clear()
    bot.simulate(g.view("allies"), g, g.legal("allies", "place_chit")[0], 11)
    assert seen and all(s == ((month, 2.0), 2.0) for s in seen)


def test_an_unknown_posture_is_refused():
    g = Game.new("eurofront-1941", seed=0)
    with pytest.raises(InputError):
        make_bot("mcts@posture=reckless", Seat.of(g, "allies", 0))
