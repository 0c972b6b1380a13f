"""TR-38/TR-39: the 3R bots' attrition loss removal, built from the view (not the rules'
listing of every combination, which cost seconds a call late in the war)."""

from __future__ import annotations

import itertools

import pytest

from grognard.bots.base import Seat
from grognard.bots.catalog import make_bot
from grognard.engine.game import Game
from grognard.third_reich.attritions import removal_choices
from grognard.third_reich.board import ground_unit_of
from grognard.third_reich.combat.attrition import removal_value, verify_attrition_removal


def _owed(g: Game, units: list[str], n: int) -> None:
    g.state = {**g.state, "pending_losses": {"side": "axis", "front": "eastern", "hexes": 0,
                                             "owed": {"axis": {"units": units, "n": n}}}}


def _front(g: Game) -> list[str]:
    """German units of every kind plus 1-3 infantry (the half units of TR-39)."""
    units = g.state["units"]
    ground = sorted(u for u, x in units.items() if x["side"] == "axis"
                    and x["type"] in ("infantry", "armor"))
    halves = [u for u in ground if units[u]["attack"] == 1 and units[u]["movement"] == 3]
    others = [u for u in ground if u not in halves]
    return others[:5] + halves[:4]


def test_tr39_front_has_half_units():
    g = Game.new("tr-1939-campaign", seed=0)
    units = [ground_unit_of(u, g.state["units"][u], "axis") for u in _front(g)]
    assert any(u.counts_half for u in units) and any(not u.counts_half for u in units)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6])
def test_tr39_heuristic_removal_is_the_rules_first_listed_choice(n):
    """The heuristic removes the same units as before: the rules' first listed set (the
    fewest units, the first in name order)."""
    g = Game.new("tr-1939-campaign", seed=0)
    front = _front(g)
    _owed(g, front, n)
    bot = make_bot("heuristic", Seat.of(g, "axis", 0))
    sit = bot.policy.situation(g.view("axis"), g)
    cmd = bot.policy.removal(sit)
    assert cmd is not None and cmd.kind == "remove_losses"
    assert cmd.args["units"] == sorted(removal_choices(g.state, front, n)[0])


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6])
def test_tr39_planner_removal_is_legal_and_cheapest(n):
    """The planner's removal passes the rules' check and loses no more attack factors
    (armor twice) than any legal set."""
    g = Game.new("tr-1939-campaign", seed=0)
    front = _front(g)
    _owed(g, front, n)
    bot = make_bot("planner", Seat.of(g, "axis", 0))
    sit = bot.policy.situation(g.view("axis"), g)
    cmd = bot.policy.removal(sit)
    assert cmd is not None
    units = g.state["units"]
    ground = [ground_unit_of(u, units[u], "axis") for u in front]
    verify_attrition_removal(n, ground, [True] * len(ground), cmd.args["units"])

    def cost(s):
        return sum(units[u]["attack"] * (2 if units[u]["type"] == "armor" else 1)
                   for u in s)
    legal = [c for k in range(1, len(front) + 1) for c in itertools.combinations(front, k)
             if sum(removal_value(ground_unit_of(u, units[u], "axis")) for u in c) == n]
    hold = sit.memo("plan.hold", set)
    assert cost(cmd.args["units"]) <= min(cost(c) for c in legal) + 3 * len(hold & set(front))


def test_tr39_nothing_owed_no_removal():
    g = Game.new("tr-1939-campaign", seed=0)
    bot = make_bot("heuristic", Seat.of(g, "axis", 0))
    assert bot.policy.removal(bot.policy.situation(g.view("axis"), g)) is None
