"""Issue 25, session 11 (balance): the 3R planner's plan changes that make planner against
planner a contest (each side wins some on held-out seeds) - Germany into Spain by land, by
Bordeaux and the Hendaye border (T19) that the Vichy zone leaves occupied (TR-26)."""

from __future__ import annotations

from grognard.bots.base import Seat
from grognard.bots.campaign import city_hexes
from grognard.bots.catalog import make_bot
from grognard.engine.commands import Command
from grognard.engine.game import Game

#: Fall 1940 (Fall 1939 is turn 1, five turns a year)
FALL_1940 = 6
IBERIA = ["Madrid", "Barcelona", "Lisbon"]


def _axis_at(turn: int, control: dict[str, str] | None = None):
    g = Game.new("tr-1939-campaign", seed=0)
    g.state = {**g.state, "turn": turn}
    if control:
        g.state["control"] = {**g.state["control"], **control}
    player = make_bot("planner", Seat.of(g, "axis", 0))
    return g, player.policy, player.policy.situation(g.view("axis"), g)


def _marching(g: Game, sit) -> list[str]:
    """The German units of the land detachment: driving on Spain's and Portugal's victory
    locations or on Bordeaux (its way there)."""
    m = g.context.scenario.map
    land = set(city_hexes(m, IBERIA).values())
    bordeaux = set(city_hexes(m, ["Bordeaux"]).values())
    return [u for u, hs in sit.memo("plan.unit_goals", dict).items()
            if hs and (hs <= land or hs == bordeaux) and sit.mine[u].get("power") == "germany"]


def test_tr26_tr25_germany_marches_into_spain_by_hendaye_once_bordeaux_is_held():
    """TR-26/TR-25: from Fall 1940, Paris and Bordeaux held (the occupied Atlantic coast, which
    borders Spain at Hendaye), four German units march on Madrid, Barcelona and Lisbon by
    Bordeaux, beside the six infantry of the landing from Brest, and Germany declares war on
    Spain and Portugal; not before Fall 1940 and not while Bordeaux is not held."""
    g, pol, sit = _axis_at(FALL_1940, {"Paris": "axis", "Bordeaux": "axis"})
    crew = _marching(g, sit)
    assert len(crew) == 4
    # armour too (the landing takes only what a fleet carries)
    brest = set(city_hexes(g.context.scenario.map, ["Brest"]).values())
    assert not [u for u in crew if sit.memo("plan.unit_goals", dict)[u] == brest]
    war = pol.score(sit, Command("declare_war", "axis", {"power": "germany",
                                                         "minors": ["spain"]}))
    assert war > 0
    for turn, control in ((FALL_1940, {"Paris": "axis"}),
                          (FALL_1940 - 1, {"Paris": "axis", "Bordeaux": "axis"})):
        g, pol, sit = _axis_at(turn, control)
        assert not _marching(g, sit), (turn, control)
