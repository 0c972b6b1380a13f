"""Issue 25, session 29: the planner's Europa air keeps up with the front
(``EuropaPolicy.air_transfers``, ``air_better``) and the search's air moves on the objectives
of its last assaults (``EuropaPlannerPolicy.air_goals``). Until session 29 an air unit moved only once no enemy
ground unit next to ours was within its range, so a few Soviet stragglers in range held the
Luftwaffe on its summer bases: in December 1941 (seed 9573, the search's Axis) all but a few of
its 26 units were 20 to 50 hexes from Moscow and Kharkov, and no last-turn attack on them had
air support."""

from __future__ import annotations

import copy
from typing import Any

from grognard.bots.base import LazyView, LegalActions, Seat
from grognard.bots.catalog import make_bot
from grognard.engine.game import Game


def _air_phase(seed: int) -> tuple[Game, dict[str, Any]]:
    g = Game.new("europa-barbarossa", seed=seed)
    bots = {p: make_bot("planner", Seat.of(g, p, seed)) for p in g.scenario.sides}
    while "air_transfer" not in g.allowed("axis"):  # the surprise turn's air phase
        p = g.active()[0]
        g.apply(bots[p].choose(LazyView(g, p), LegalActions(g, p)))
        assert int(g.state["turn"]) == 1, "the Axis's air phase offers no transfer"
    return g, bots


def test_an_air_unit_moves_to_a_base_that_reaches_twice_as_much_of_the_front():
    """EUR-23 (the ``air_transfer`` reading) The planner's unit that reaches some of the front
    moves when a base the order lists reaches ``air_better`` (2) times as many of the enemy
    ground units next to ours - and flies no ground-support mission that phase (the transfer
    is its flight); with ``planner@air_better=0`` (session 28's rule, the heuristic's) it
    stays."""
    g, bots = _air_phase(5)
    pol: Any = bots["axis"].policy
    la = LegalActions(g, "axis")
    sit = pol.situation(g.view("axis"), g)
    front = {h for h in sit.enemy_hexes if sit.nearest(h, sit.friendly_hexes) <= 1}
    air = g.view("axis")["air_units"]

    def reached(h: str, reach: int) -> int:
        return sum(1 for f in front if sit.distance(h, f) <= reach)
    planned = pol.plan(sit, la, "air_transfer")
    forward = [(str(c.args["unit"]), str(c.args["to"])) for _s, c in planned
               if reached(str(air[str(c.args["unit"])]["base"]),
                          int(air[str(c.args["unit"])]["range"])) > 0]
    assert forward, "no unit that reaches some of the front moved"
    for uid, to in forward:
        reach = int(air[uid]["range"])
        assert reached(to, reach) >= pol.air_better * reached(str(air[uid]["base"]), reach)
    assert all(la.allows(c) for _s, c in planned)
    assert all(s > max((m for m, c in pol.plan(sit, la, "air_mission")), default=0)
               for s, _c in planned), "a mission goes before a transfer"
    moving = {uid for _s, c in planned for uid in [str(c.args["unit"])]}
    flown = {u for _s, c in pol.plan(sit, la, "air_mission") for u in c.args["units"]}
    assert not moving & flown, "a moving unit is also sent on a mission"
    old: Any = make_bot("planner@air_better=0", Seat.of(g, "axis", 5)).policy
    kept = {str(c.args["unit"]) for _s, c in
            old.plan(old.situation(g.view("axis"), g), la, "air_transfer")}
    assert not kept & {uid for uid, _to in forward}
    # the heuristic keeps session 28's rule: only the units that reach none of the front move
    heuristic: Any = make_bot("heuristic", Seat.of(g, "axis", 5)).policy
    assert heuristic.air_better == 0 and pol.air_better == 2
    for _s, c in heuristic.plan(heuristic.situation(g.view("axis"), g), la, "air_transfer"):
        uid = str(c.args["unit"])
        assert reached(str(air[uid]["base"]), int(air[uid]["range"])) == 0


def test_the_search_air_reaches_for_the_objectives_in_the_last_turns():
    """With ``mcts@air_turns=4`` (a study setting; 0, off, by default), in the 4 game turns
    before the scenario's last, the search's air front is the objectives the enemy holds within
    ``AIR_GOAL_REACH`` hexes of our ground units, weighed by the points taking each is worth;
    before them, in the last turn itself, for the default search and for the planner, the
    enemy ground units next to ours."""
    g, _bots = _air_phase(5)
    seat = Seat.of(g, "axis", 5)
    search: Any = make_bot("mcts@air_turns=4", seat).policy
    planner: Any = make_bot("planner", seat).policy
    last = 13
    for turn, window in ((8, False), (9, True), (12, True), (13, False)):
        st = copy.deepcopy(g.state)
        st["turn"] = turn
        g.state = st
        g._changed()
        sit = search.situation(g.view("axis"), g)
        assert search.scenario_last_turn(sit) == last
        want = {h: s for h, s in search.attack_stakes(sit).items()
                if s > 0 and sit.nearest(h, sit.friendly_hexes) <= search.AIR_GOAL_REACH}
        got = search.air_goals(sit)
        front = {h: 1.0 for h in sit.enemy_hexes if sit.nearest(h, sit.friendly_hexes) <= 1}
        if window:
            assert got == want and got, turn
            assert search.air_front(sit) == got and search.air_hop(sit)
        else:
            assert got == {} and search.air_front(sit) == front and not search.air_hop(sit)
        psit = planner.situation(g.view("axis"), g)
        assert planner.air_goals(psit) == {} and planner.air_front(psit) == front
        off: Any = make_bot("mcts", seat).policy
        assert off.air_turns == 0 and off.air_goals(off.situation(g.view("axis"), g)) == {}


def test_the_search_air_hops_toward_the_objectives_it_cannot_reach():
    """With ``mcts@air_turns=4``, in Dec I 1941 (a turn of the window) every transfer the
    search plans either brings a unit that reached some of its objectives to a base reaching
    ``air_better`` times their points, or - a unit that reached none - to the base nearest
    the weightiest of them (``AIR_HOP_PULL`` of a point a hex short), nearer than its own;
    every transfer scores over any mission (``AIR_FIRST``)."""
    g, _bots = _air_phase(5)
    st = copy.deepcopy(g.state)
    st["turn"] = 12
    g.state = st
    g._changed()
    search: Any = make_bot("mcts@air_turns=4", Seat.of(g, "axis", 5)).policy
    sit = search.situation(g.view("axis"), g)
    goals = search.air_goals(sit)
    assert goals
    la = LegalActions(g, "axis")
    planned = search.plan(sit, la, "air_transfer")
    assert planned, "no transfer planned"
    hops = check_transfers(search, sit, goals, la, planned, g.view("axis")["air_units"])
    assert hops, "no unit hopped toward the objectives"


def check_transfers(search: Any, sit: Any, goals: dict[str, float], la: LegalActions,
                    planned: list[Any], air: dict[str, Any]) -> int:
    """Every planned transfer scores over any mission (``AIR_FIRST``), is legal and either
    brings a unit that reached some of ``goals`` to a base reaching ``air_better`` times their
    points or - a unit that reached none - nearer the weightiest of them (``AIR_HOP_PULL`` of
    a point a hex short) than its own base; how many hopped so."""
    def cover(h: str, reach: int) -> float:
        return sum(w for f, w in goals.items() if sit.distance(h, f) <= reach)

    def toward(h: str, reach: int) -> float:
        return max(w - search.AIR_HOP_PULL * (sit.distance(h, f) - reach)
                   for f, w in goals.items())
    hops = 0
    for score, c in planned:
        assert score >= search.AIR_FIRST and la.allows(c)
        uid, to = str(c.args["unit"]), str(c.args["to"])
        base, reach = str(air[uid]["base"]), int(air[uid]["range"])
        if cover(base, reach) > 0:
            assert cover(to, reach) >= search.air_better * cover(base, reach)
        elif cover(to, reach) <= 0:
            hops += 1
            assert toward(to, reach) > toward(base, reach)
    return hops
