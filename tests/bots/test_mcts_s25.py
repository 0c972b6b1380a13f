"""Issue 25 item 2 (session 25): the search's evaluation of a drawn game, and the 3R search's
last turns' push (TR-04).

TR-04: the campaign's verdict counts the victory locations the Axis holds after Summer I
1945 - 30 or more an Axis win, 14 or fewer an Allied win, a draw between. A rollout that
ends in a draw is neither side's loss: the search weighs it between a win and a loss (it
counted as a loss for both seats before session 25, so a posture that turned a loss into a
draw looked no better)."""

from __future__ import annotations

from types import SimpleNamespace

from grognard.bots.base import Seat
from grognard.bots.catalog import make_bot
from grognard.engine.game import Game

SCENARIO = "tr-1939-campaign"


def _over(winner: str | None) -> SimpleNamespace:
    """A finished game as the evaluation reads it (its result)."""
    return SimpleNamespace(result={"winner": winner, "rule": "TR-04"})


def test_tr04_a_draw_is_weighed_between_a_win_and_a_loss():
    g = Game.new(SCENARIO, seed=0)
    for side, other in (("axis", "allies"), ("allies", "axis")):
        pol = make_bot("planner", Seat.of(g, side, 0)).policy
        view = g.view(side)
        assert pol.result_value(_over(side)) == 1000.0
        assert pol.result_value(_over(other)) == -1000.0
        assert pol.result_value(_over("draw")) == 0.0
        # 3R adds the cities and BRPs held (TR-37, TR-07) to the result: the verdicts stay
        # apart, a draw half way
        won, drawn, lost = (pol.evaluate(view, _over(w)) for w in (side, "draw", other))
        assert won - drawn == drawn - lost == 1000.0
    # a game going on: judged by the position (neither bound)
    pol = make_bot("planner", Seat.of(g, "axis", 0)).policy
    assert pol.result_value(g) is None
    assert -1000.0 < pol.evaluate(g.view("axis"), g) < 1000.0
