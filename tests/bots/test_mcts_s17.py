"""Issue 25 item 2 (session 17): the search bot's defending side keeps the objectives it must
hold.

eurofront-1941's Axis wins holding 3 of its 5 objectives after September 1941, so the Allies
must keep 3. As the whole Allied policy (buying through every production phase) against the
planner's Axis, on the tuning seeds 200-299: keeping the 3 held objectives furthest from the
enemy - a block on one stays while it is one of at most 2 there, a block out of contact goes
to one with fewer - won 46 of 100 games, 25 without. So the search's Allies keep them at
budget 4 and up (``EuroFrontPolicy.hold``), and the seat's rollouts keep them as it plays; the
planner keeps none, and ``mcts@budget=0`` plays the planner's very game
(tests/bots/test_mcts_s13.py)."""

from __future__ import annotations

from typing import Any

import pytest

from grognard.bots import mcts
from grognard.bots.base import LazyView, LegalActions, Seat
from grognard.bots.catalog import make_bot
from grognard.bots.heuristic import destination
from grognard.bots.planner import parse_params
from grognard.core.errors import InputError
from grognard.engine.game import Game


def _kept(g: Game) -> tuple[Any, Any, set[str]]:
    """The Allied planner's policy keeping 3, its picture of ``g`` and its kept objectives."""
    pol: Any = make_bot("planner", Seat.of(g, "allies", 3)).policy
    pol.hold = 3
    sit = pol.situation(g.view("allies"), g)
    return pol, sit, pol.kept(sit)


def _garrison_can_move(g: Game) -> bool:
    if "allies" not in g.active():
        return False
    _pol, sit, kept = _kept(g)
    return any(str(sit.mine[str(c.args["block"])]["hex"]) in kept
               for c in LegalActions(g, "allies").candidates("move"))


def _allied_moves(seed: int) -> Game:
    """A planner game of eurofront-1941 played to an Allied decision where a block on a kept
    objective may move."""
    g = Game.new("eurofront-1941", seed=seed)
    bots = {p: make_bot("planner", Seat.of(g, p, seed)) for p in g.scenario.sides}
    while not _garrison_can_move(g):
        assert not g.over
        p = g.active()[0]
        g.apply(bots[p].choose(LazyView(g, p), LegalActions(g, p)))
    return g


@pytest.fixture(scope="module")
def moving() -> Game:
    return _allied_moves(3)


def test_the_allies_must_keep_three_of_five(moving):
    """EF victory (eurofront-1941: the Axis needs 3 of the 5 objectives): the defending side
    keeps 5 - 3 + 1; the attacking side keeps none."""
    allies = make_bot("planner", Seat.of(moving, "allies", 3)).policy
    axis = make_bot("planner", Seat.of(moving, "axis", 3)).policy
    assert allies.hold_count() == 3  # type: ignore[attr-defined]
    assert axis.hold_count() is None  # type: ignore[attr-defined]


def test_the_kept_objectives_are_the_held_ones_furthest_from_the_enemy(moving):
    pol: Any = make_bot("planner", Seat.of(moving, "allies", 3)).policy
    pol.hold = 3
    sit = pol.situation(moving.view("allies"), moving)
    held, kept = pol.held(sit), pol.kept(sit)
    assert len(held) > 3 and len(kept) == 3 and kept <= held
    far = min(sit.nearest(h, sit.enemy_hexes) for h in kept)
    assert all(sit.nearest(h, sit.enemy_hexes) <= far for h in held - kept)


def test_a_kept_objectives_garrison_stays(moving):
    """A block on a kept objective, one of at most two there, scores every move below
    staying (-1); the planner's policy (no kept objectives) scores some move of it above."""
    pol: Any = make_bot("planner", Seat.of(moving, "allies", 3)).policy
    la = LegalActions(moving, "allies")
    moves = la.candidates("move")
    pol.hold = 3
    sit = pol.situation(moving.view("allies"), moving)
    kept = pol.kept(sit)
    garrison = [c for c in moves if str(sit.mine[str(c.args["block"])]["hex"]) in kept]
    assert garrison, "a kept objective's block can move"
    assert all(pol.score(sit, c) == -1.0 for c in garrison)
    pol.hold = None
    sit = pol.situation(moving.view("allies"), moving)
    assert max(pol.score(sit, c) for c in garrison) > -1.0


def test_blocks_out_of_contact_go_to_a_kept_objective_short_of_its_garrison(moving):
    """A block out of contact and off the kept objectives scores a move that closes on one
    wanting blocks above one that does not."""
    pol: Any = make_bot("planner", Seat.of(moving, "allies", 3)).policy
    pol.hold = 3
    sit = pol.situation(moving.view("allies"), moving)
    want = {h for h in pol.kept(sit) if sit.friendly_hexes.get(h, 0) < pol.garrison}
    assert want
    checked = 0
    for c in LegalActions(moving, "allies").candidates("move"):
        u = sit.mine[str(c.args["block"])]
        here, to = str(u["hex"]), destination(c)
        if to is None or sit.in_contact(here) or to in sit.enemy_hexes or here in want:
            continue
        closer = sit.nearest(to, want) < sit.nearest(here, want)
        assert (pol.score(sit, c) > 0) == closer
        checked += 1
    assert checked


def test_the_search_keeps_them_from_budget_4(moving):
    """The search's Allies keep 3 at budget 4 and up (or ``hold=N``; ``hold=0``: none); its
    Axis and ``mcts@budget=0`` keep none."""
    def hold(spec: str, side: str) -> Any:
        return make_bot(spec, Seat.of(moving, side, 3)).policy.hold  # type: ignore[attr-defined]
    assert hold("mcts", "allies") == 3
    assert hold("mcts@budget=4", "allies") == 3
    assert hold("mcts@budget=0", "allies") is None
    assert hold("mcts@hold=0", "allies") is None
    assert hold("mcts@budget=0@hold=2", "allies") == 2
    assert hold("mcts", "axis") is None
    assert hold("planner", "allies") is None


def test_the_rollouts_keep_the_seats_objectives(moving, monkeypatch):
    """A simulation's Allied planner keeps the seat's objectives; its Axis planner (the
    attacker) has none set."""
    seen: dict[str, set[object]] = {"allies": set(), "axis": set()}
    real = mcts.PlannerBot.choose

    def choose(self, view, legal):
        seen[self.seat.player].add(getattr(self.policy, "hold", None))
        return real(self, view, legal)
    monkeypatch.setattr(mcts.PlannerBot, "choose", choose)
    bot = make_bot("mcts@budget=8@horizon=60", Seat.of(moving, "allies", 3))
    la = LegalActions(moving, "allies")
    move = next(c for c in la.candidates("move") if la.allows(c))
    bot.simulate(moving.view("allies"), moving, move, 11)  # type: ignore[attr-defined]
    assert seen["allies"] == {3}
    assert seen["axis"] <= {None}


@pytest.mark.parametrize("text", ["hold=x", "budget=", "budget=²", "worth_pull=x", "stand=1e"])
def test_a_bot_parameter_that_is_not_its_number_is_refused_in_one_line(text: str) -> None:
    """Bad input: ``mcts@hold=x`` is an InputError naming the parameter, not a traceback
    from ``int()`` when the bot is made."""
    with pytest.raises(InputError, match="takes a number"):
        parse_params(text)
    assert parse_params("budget=8@hold=0@worth_pull=0.5@stand=") == {
        "budget": "8", "hold": "0", "worth_pull": "0.5", "stand": ""}
