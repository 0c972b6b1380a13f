"""Issue 25, session 28: the Europa air units follow the front (``EuropaPolicy.air_transfers``
over the ``air_transfer`` order, the EUR-23 reading), and in the scenario's last turn the
search's ground support goes to the objectives first, the strongest strike units to each
(``EuropaPlannerPolicy.support_first``, ``support_strikers``). Until session 28 no air unit
could change base: in europa-barbarossa the Luftwaffe's June bases (hex columns 05-14) were
out of range of every attack from August on (seed 9177: the last turn's one mission flew to
hex 1752 while Kharkov and Dnepropetrovsk were stormed at 2 to 1 without air)."""

from __future__ import annotations

import copy
from typing import Any

from grognard.bots.base import LazyView, LegalActions, Seat
from grognard.bots.catalog import make_bot
from grognard.engine.game import Game


def test_the_last_turns_ground_support_goes_to_the_objectives_first():
    """EUR-23/EUR-07 One air mission a hex: in the scenario's last turn the search
    (``verdict_assault``) puts an enemy-held objective's ground support first
    (``LAST_FIRST``) with the strongest strike units in range until ``LAST_AIR`` tactical
    factors; any other hex, any other turn and the planner keep three."""
    g = Game.new("europa-barbarossa", seed=3)
    seat = Seat.of(g, "axis", 3)
    search: Any = make_bot("mcts", seat).policy
    planner: Any = make_bot("planner", seat).policy
    air = g.view("axis")["air_units"]
    strikers = sorted(u for u, x in air.items() if x["side"] == "axis" and x["type"] != "F")
    tactical = {u: int(air[u]["tactical"]) for u in strikers}
    for turn in (13, 12):
        st = copy.deepcopy(g.state)
        st["turn"] = turn
        g.state = st
        g._changed()
        sit = search.situation(g.view("axis"), g)
        got = search.support_strikers(sit, "5422", strikers)
        if turn == 13:
            assert search.support_first(sit, "5422") == search.LAST_FIRST
            want = sorted(strikers, key=lambda u: (-tactical[u], u))
            assert got == want[:len(got)]
            assert sum(tactical[u] for u in got) >= search.LAST_AIR
            assert sum(tactical[u] for u in got[:-1]) < search.LAST_AIR
        else:
            assert search.support_first(sit, "5422") == 0.0
            assert got == strikers[:3]
        assert search.support_first(sit, "5323") == 0.0  # no objective
        assert search.support_strikers(sit, "5323", strikers) == strikers[:3]
        psit = planner.situation(g.view("axis"), g)
        assert planner.support_first(psit, "5422") == 0.0
        assert planner.support_strikers(psit, "5422", strikers) == strikers[:3]


def test_an_air_unit_out_of_reach_of_the_front_transfers_toward_it():
    """EUR-23 (the ``air_transfer`` reading) The Axis's first air phase (the surprise turn's) with
    one fighter group's base moved to a rear city, out of range of every Soviet unit next to
    ours: the planner transfers it - a legal order, to a base within its range that reaches
    the front, at least ``AIR_SAFE`` hexes from the enemy's ground units; the units whose
    base reaches the front stay. ``planner@air_forward=0`` transfers nothing."""
    g = Game.new("europa-barbarossa", seed=5)
    bots = {p: make_bot("planner", Seat.of(g, p, 5)) for p in g.scenario.sides}
    while "air_transfer" not in g.allowed("axis"):  # the surprise turn's air phase
        p = g.active()[0]
        g.apply(bots[p].choose(LazyView(g, p), LegalActions(g, p)))
        assert int(g.state["turn"]) == 1, "the Axis's air phase offers no transfer"
    pol: Any = bots["axis"].policy
    sit = pol.situation(g.view("axis"), g)
    front = {h for h in sit.enemy_hexes if sit.nearest(h, sit.friendly_hexes) <= 1}
    # the fighter group (range 8) based where no front hex is in its range, some base it may
    # move to reaching one: the first such city of the Axis's, west to east
    m = g.scenario.map
    far = sorted(h for h in (m.label(int(i)) for i, cs in m.cities.items() if cs)
                 if 9 <= min(sit.distance(h, f) for f in front) <= 12)
    for base in far:
        st = copy.deepcopy(g.state)
        st["air_units"]["de-lf1-jg-54"]["base"] = base
        g.state = st
        g._changed()
        la = LegalActions(g, "axis")
        if any(c.args["unit"] == "de-lf1-jg-54" for c in la.candidates("air_transfer")):
            break
    else:
        raise AssertionError("no rear city to move the fighter group to")
    sit = pol.situation(g.view("axis"), g)
    planned = pol.plan(sit, la, "air_transfer")
    assert planned, "no transfer planned"
    moved = {str(c.args["unit"]): str(c.args["to"]) for _s, c in planned}
    assert "de-lf1-jg-54" in moved
    air = g.view("axis")["air_units"]

    def reached(h: str, reach: int) -> int:
        return sum(1 for f in front if sit.distance(h, f) <= reach)
    for uid, to in moved.items():
        reach = int(air[uid]["range"])
        here, there = reached(str(air[uid]["base"]), reach), reached(to, reach)
        assert sit.distance(str(air[uid]["base"]), to) <= reach
        # session 29: a unit that reaches some of the front moves only for air_better times more
        assert here == 0 or there >= pol.air_better * here
        assert there > 0
        assert sit.nearest(to, sit.enemy_hexes) >= pol.AIR_SAFE
    assert all(la.allows(c) for _s, c in planned)
    # session 28's rule (``planner@air_better=0``): only the units that reach none of it move
    old: Any = make_bot("planner@air_better=0", Seat.of(g, "axis", 5)).policy
    kept = old.plan(old.situation(g.view("axis"), g), la, "air_transfer")
    assert "de-lf1-jg-54" in {str(c.args["unit"]) for _s, c in kept}
    for _s, c in kept:
        uid = str(c.args["unit"])
        assert reached(str(air[uid]["base"]), int(air[uid]["range"])) == 0
    off: Any = make_bot("planner@air_forward=0", Seat.of(g, "axis", 5)).policy
    assert off.plan(off.situation(g.view("axis"), g), la, "air_transfer") == []
