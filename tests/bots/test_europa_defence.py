"""Issue 25 (Europa, session 9): the side that holds the objectives defends like a player.

The heuristic's Europa policy finds the defender of ``Game.objectives()`` (the side that held
most of their worth at set-up) and plans its moves once a phase: a line off the enemy with
stacks in good terrain, falling back from a hex the enemy would attack at long odds, hexes that
trace to a supply source (EUR-30) rather than pockets, the objectives garrisoned, every move
one the rules accept and no stack over the limit (EUR-21); its counter-attacks weigh its own
losses more (caution 5/2)."""

from __future__ import annotations

import copy
from fractions import Fraction

from grognard.bots.base import LegalActions, Seat
from grognard.bots.heuristic import EuropaPolicy, HeuristicBot, destination
from grognard.core.hexgrid import distance
from grognard.engine.commands import Command
from grognard.engine.game import Game


def _soviet_movement(name: str) -> Game:
    g = Game.new(name, seed=1)
    while "move" not in g.allowed("soviet"):
        g.apply(Command("end_phase", g.active()[0], {}))
    return g


def _plan(g: Game) -> tuple[EuropaPolicy, LegalActions, list[Command]]:
    pol = EuropaPolicy(Seat.of(g, "soviet", 1))
    la = LegalActions(g, "soviet")
    sit = pol.situation(g.view("soviet"), g)
    planned = pol.plan(sit, la, "move")
    assert planned is not None
    return pol, la, [c for _s, c in planned]


def test_the_defender_is_the_side_that_held_the_objectives_at_set_up():
    g = Game.new("europa-barbarossa", seed=1)
    soviet, axis = EuropaPolicy(Seat.of(g, "soviet", 1)), EuropaPolicy(Seat.of(g, "axis", 1))
    soviet.situation(g.view("soviet"), g)
    axis.situation(g.view("axis"), g)
    assert soviet.defending is True and axis.defending is False
    assert soviet.caution == Fraction(5, 2) and axis.caution == Fraction(6, 5)
    # without the rules' hooks nothing is decided (and no move is planned)
    blind = EuropaPolicy(Seat.of(g, "soviet", 1))
    blind.situation(g.view("soviet"), None)
    assert blind.defending is None


def test_eur17_eur21_the_defence_plan_is_legal_and_keeps_the_pocket_on_its_objectives():
    g = _soviet_movement("europa-pocket")
    _pol, la, cmds = _plan(g)
    assert cmds and all(la.allows(c) for c in cmds)
    moved = {str(c.args["unit"]) for c in cmds}
    assert len(moved) == len(cmds)  # one move a unit
    # Uman and the pocket's east hex (the objectives) keep their garrisons
    assert not moved & {"su-pocket-1", "su-pocket-2", "su-pocket-3"}
    # EUR-21: no hex ends over the stacking limit (3 divisions of 3 REs here)
    units = g.state["units"]
    end = {uid: u["hex"] for uid, u in units.items() if u["side"] == "soviet" and u.get("hex")}
    end.update({str(c.args["unit"]): str(destination(c)) for c in cmds})
    for h in set(end.values()):
        assert sum(int(units[u]["re_size"]) for u, x in end.items() if x == h) <= 10


def test_a_lone_unit_falls_back_from_a_hex_the_enemy_attacks_at_long_odds():
    g = _soviet_movement("europa-pocket")
    # a relief division alone next to the ring, in the open (a position set up by hand)
    state = copy.deepcopy(g.state)
    state["units"]["su-relief-1"]["hex"] = "0803"
    g.state = state
    g._changed()
    layout = g.scenario.map.layout
    enemy = [layout.from_label(u["hex"]) for u in g.state["units"].values()
             if u["side"] == "axis" and u.get("hex") and u["type"] != "air"]
    assert min(distance(layout.from_label("0803"), e) for e in enemy) == 1  # in contact
    _pol, la, cmds = _plan(g)
    mine = [c for c in cmds if c.args["unit"] == "su-relief-1"]
    assert mine and la.allows(mine[0])
    to = layout.from_label(str(destination(mine[0])))
    assert min(distance(to, e) for e in enemy) >= 2  # out of contact


def test_the_bot_plays_the_plan_in_its_movement_phase():
    g = _soviet_movement("europa-pocket")
    bot = HeuristicBot(Seat.of(g, "soviet", 1))
    _pol, _la, cmds = _plan(g)
    first = bot.choose(g.view("soviet"), LegalActions(g, "soviet"))
    assert first in cmds


def test_the_bot_reads_the_set_up_holders_as_the_rules_do():
    """The defender is found from public scenario data (placements, map, victory table), the
    same holders as the rules' own reading (europa.victory.initial_holders), with no import
    of a rule package in the bot (tests/test_floors.py)."""
    from grognard.bots.heuristic import set_up_holders
    from grognard.bots.situation import Situation
    from grognard.europa.victory import initial_holders

    for name in ("europa-barbarossa", "europa-pocket", "demo-europa", "europa-fite-surprise"):
        g = Game.new(name, seed=1)
        sit = Situation.of(g.context, g.view("soviet"), "soviet")
        first = initial_holders(g.scenario)
        assert first and set_up_holders(sit, list(first)) == first, name
