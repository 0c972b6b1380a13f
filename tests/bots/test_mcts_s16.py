"""Issue 25 item 2 (session 16): the search bot's defending side buys.

The planner scores EuroFront's purchases at nothing and passes every production phase (~30 PP
unspent a game); as the whole Allied policy against the planner's Axis, buying through every
phase (``EuroFrontPolicy.purchase``) won 25 of 100 games on the tuning seeds 200-299 against 16
passing as the planner does (the same bot and tie-break stream). So the search's Allies buy at budget 4 and up without weighing passing
(``EuroFrontPolicy.buys``), and the seat's rollouts buy as it plays; the Axis search still
weighs buying against passing, and ``mcts@budget=0`` plays the planner's very game
(tests/bots/test_mcts_s13.py)."""

from __future__ import annotations

import pytest

from grognard.bots import mcts
from grognard.bots.base import LazyView, LegalActions, Seat
from grognard.bots.catalog import make_bot
from grognard.engine.game import Game


def _allied_production(seed: int) -> Game:
    """A planner game of eurofront-1941 played to the Allies' first production decision."""
    g = Game.new("eurofront-1941", seed=seed)
    bots = {p: make_bot("planner", Seat.of(g, p, seed)) for p in g.scenario.sides}
    while not (g.state.get("production") is not None and "allies" in g.active()
               and g.legal("allies", "end_production")):
        p = g.active()[0]
        g.apply(bots[p].choose(LazyView(g, p), LegalActions(g, p)))
    return g


@pytest.fixture(scope="module")
def prod() -> Game:
    return _allied_production(5)


def test_only_the_defending_side_buys_by_standing(prod):
    allies = make_bot("planner", Seat.of(prod, "allies", 5)).policy
    axis = make_bot("planner", Seat.of(prod, "axis", 5)).policy
    assert allies.buys(prod.view("allies")) is True  # type: ignore[attr-defined]
    assert axis.buys(prod.view("axis")) is False  # type: ignore[attr-defined]


def test_the_searchs_allies_buy_without_simulating(prod, monkeypatch):
    """At budget 8 the Allies play the policy's purchase where the planner passes, and go on
    buying through the phase, with no simulation; at budget 0 they pass as the planner."""
    monkeypatch.setattr(mcts.MctsBot, "simulate", lambda *a, **k: pytest.fail("simulated"))
    la = LegalActions(prod, "allies")
    planner = make_bot("planner", Seat.of(prod, "allies", 5))
    assert planner.choose(LazyView(prod, "allies"), la).kind == "end_production"
    assert make_bot("mcts@budget=0", Seat.of(prod, "allies", 5)).choose(
        LazyView(prod, "allies"), la).kind == "end_production"
    bot = make_bot("mcts@budget=8", Seat.of(prod, "allies", 5))
    pol = bot.policy
    want = pol.purchase(pol.situation(prod.view("allies"), prod), la)  # type: ignore[attr-defined]
    assert want is not None and want.kind in ("build", "rebuild")
    g = mcts.fork(prod, prod.state, 1)
    pp0 = int(g.state["pp"]["allies"])
    assert pp0 > 0
    first = bot.choose(LazyView(g, "allies"), LegalActions(g, "allies"))
    assert first == want
    bought = 0
    cmd = first
    while cmd.kind != "end_production":
        g.apply(cmd)
        bought += 1
        cmd = bot.choose(LazyView(g, "allies"), LegalActions(g, "allies"))
    assert bought >= 2 and int(g.state["pp"]["allies"]) < pp0
    assert bot.simulations == 0


def test_a_rollout_buys_for_the_buyer_only(prod):
    """``rollout(buyer=...)``: the buyer's planner buys where it would pass; without a buyer
    the rollout's Allies pass and keep their PP (the planner's production)."""
    def allied_pp_after(buyer: str | None) -> tuple[int, int]:
        g = mcts.fork(prod, prod.state, 2)
        pp0 = int(g.state["pp"]["allies"])
        mcts.rollout(g, 2, 400, buyer=buyer)
        steps = sum(int(u.get("steps") or 0) for u in g.state["units"].values()
                    if u.get("side") == "allies")
        return pp0 - int(g.state["pp"]["allies"]), steps
    spent_none, _ = allied_pp_after(None)
    spent_allies, _ = allied_pp_after("allies")
    assert spent_allies > spent_none
    spent_axis, _ = allied_pp_after("axis")
    assert spent_axis == spent_none
