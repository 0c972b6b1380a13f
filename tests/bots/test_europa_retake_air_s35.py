"""Issue 25, session 35: the search's Soviet air moves on what its last assault may retake
(``EuropaPlannerPolicy.air_goals``, ``retake_air``). In the Soviets' last player turn of
europa-barbarossa half their attacks on the objectives the Axis had taken went in without
ground support (99 of 194 over seeds 12260-12459): the bombers sat on bases out of range of
Moscow, Kharkov and Leningrad, flying their missions against hexes that scored nothing (seed
12264: Moscow attacked at 3 to 2 without a bombardment hit's +1, while the DBA
corps bombed a hex by Dnepropetrovsk). Better from 200 positions, worse on 100 new whole
games (docs/AI.md, session 35): a study setting, off by default."""

from __future__ import annotations

import copy
from typing import Any

from tests.bots.test_europa_air_s29 import check_transfers

from grognard.bots.base import LazyView, LegalActions, Seat
from grognard.bots.catalog import make_bot
from grognard.bots.europa_defence import objective_stakes
from grognard.engine.game import Game


def _soviet_air_phase(seed: int) -> Game:
    g = Game.new("europa-barbarossa", seed=seed)
    bots = {p: make_bot("planner", Seat.of(g, p, seed)) for p in g.scenario.sides}
    while "air_transfer" not in g.allowed("soviet"):  # the Soviets' first air phase
        p = g.active()[0]
        g.apply(bots[p].choose(LazyView(g, p), LegalActions(g, p)))
        assert int(g.state["turn"]) <= 2, "the Soviets' air phase offers no transfer"
    return g


def _at_turn(g: Game, turn: int) -> None:
    st = copy.deepcopy(g.state)
    st["turn"] = turn
    g.state = st
    g._changed()


def test_the_search_soviet_air_reaches_for_what_it_may_retake():
    """With ``mcts@retake_air=2`` (a study setting; 0, off, by default), in the 2 game turns
    before the scenario's last the defender's air front is the objectives its last assault
    may retake - those the Axis holds (their points at stake, a line's shared) and its own
    that Axis ground units are within ``AIR_GOAL_REACH`` hexes of (their points) - near its
    ground units; before them, in the last turn itself and for the default search, the enemy
    ground units next to ours."""
    g = _soviet_air_phase(5)
    seat = Seat.of(g, "soviet", 5)
    for turn, window in ((10, False), (11, True), (12, True), (13, False)):
        _at_turn(g, turn)
        search: Any = make_bot("mcts@retake_air=2", seat).policy
        sit = search.situation(g.view("soviet"), g)
        search.defending = True
        assert search.scenario_last_turn(sit) == 13
        objs = sit.memo("victory.objectives", list)
        reach = search.AIR_GOAL_REACH
        want = {str(o.hex): float(o.value) for o in objs if o.holder == "soviet"
                and sit.nearest(str(o.hex), sit.enemy_hexes) <= reach}
        want.update(objective_stakes(sit, objs))
        want = {h: s for h, s in want.items()
                if s > 0 and sit.nearest(h, sit.friendly_hexes) <= reach}
        front = {h: 1.0 for h in sit.enemy_hexes if sit.nearest(h, sit.friendly_hexes) <= 1}
        got = search.air_goals(sit)
        if window:
            assert got == want and got, turn
            assert search.air_front(sit) == got and search.air_hop(sit)
        else:
            assert got == {} and search.air_front(sit) == front and not search.air_hop(sit)
        off: Any = make_bot("mcts", seat).policy
        off.defending = True
        assert off.retake_air == 0 and off.air_goals(off.situation(g.view("soviet"), g)) == {}


def test_the_search_soviet_air_moves_toward_those_objectives_before_the_last_turn():
    """With ``mcts@retake_air=2``, in Dec I 1941 every transfer the Soviet search plans brings
    a unit that reached some of those objectives to a base reaching ``air_better`` times their
    points, or a unit that reached none nearer the weightiest of them."""
    g = _soviet_air_phase(5)
    _at_turn(g, 12)
    search: Any = make_bot("mcts@retake_air=2", Seat.of(g, "soviet", 5)).policy
    sit = search.situation(g.view("soviet"), g)
    search.defending = True
    goals = search.air_goals(sit)
    assert goals  # the border's objectives here: the Axis stands within reach of them
    la = LegalActions(g, "soviet")
    planned = search.plan(sit, la, "air_transfer")
    assert planned, "no transfer planned"
    check_transfers(search, sit, goals, la, planned, g.view("soviet")["air_units"])
