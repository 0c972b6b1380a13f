"""C-HIDDEN: the Europa bots read an uncopied view (Europa's view is exactly hide_secrets, so
``LazyView`` shares the state's values as it does for 3R) - it must equal ``Game.view``, and a
bot's decision must never change the game it reads."""

from __future__ import annotations

import copy

from grognard.bots.base import LazyView, LegalActions, Seat, shared_view
from grognard.bots.catalog import make_bot
from grognard.engine.game import Game


def test_europa_view_is_shared_and_equals_the_players_view():
    g = Game.new("europa-barbarossa", seed=3)
    assert getattr(g.system.view, "secrets_only", False)
    for p in g.scenario.sides:
        assert shared_view(g.state, p) == g.view(p)
    lazy = LazyView(g, "soviet")
    assert dict(lazy) == g.view("soviet")
    assert lazy["units"] is g.state["units"]  # shared, not copied


def test_europa_bots_never_change_the_state_they_read():
    g = Game.new("europa-pocket", seed=5)
    bots = {p: make_bot(name, Seat.of(g, p, 5))
            for p, name in zip(g.scenario.sides, ("planner", "heuristic"), strict=True)}
    for _ in range(120):
        if g.over:
            break
        player = g.active()[0]
        before = copy.deepcopy(g.state)
        cmd = bots[player].choose(LazyView(g, player), LegalActions(g, player))
        assert g.state == before, f"{player}'s bot changed the state it read"
        g.apply(cmd)
