"""Issue 25, session 26: the search bot's last assault weighs the verdict it makes, not the
points it retakes (``europa_defence.last_assault``'s ``verdict``;
``EuropaPlannerPolicy.last_verdict``; ``mcts``, budget 4 and up, ``mcts@verdict=0|1``,
``planner@verdict=1``). The game's last player turn is the Soviets' (nothing follows it), so
what their assault leaves is the verdict itself: with the Axis at 21 points a sure Minsk (2)
changes nothing, a long chance at Moscow (6) makes a draw."""

from __future__ import annotations

from typing import Any

import pytest
from tests.bots.europa_boards import barbarossa_objectives
from tests.bots.test_europa_defence import Grid, Sit, lab, moves_of, obj, unit

from grognard.bots import europa_defence as ed
from grognard.bots.base import Seat
from grognard.bots.catalog import make_bot
from grognard.bots.situation import Situation
from grognard.engine.game import Game

WEAK, STRONG = (2, 3), (6, 3)  # Minsk (2 points) and Moscow (6), both the Axis's


def last_moves(verdict: Any) -> dict[str, str]:
    """Three Soviet units of attack 4 between the two cities, on the game's last movement
    phase: Minsk held by a defense of 2 (doubled: 4; the three at 3 to 1), Moscow by 6 (12:
    1 to 1). Where each unit ends."""
    g = Grid(cities=(WEAK, STRONG))
    mine = {f"r{k}": unit("soviet", (4, 2 + k), attack=4) for k in range(3)}
    enemy = [unit("axis", WEAK, attack=2, defense=2), unit("axis", STRONG, attack=4, defense=6)]
    objectives = [obj(WEAK, "Minsk", 2, holder="axis"), obj(STRONG, "Moscow", 6, holder="axis")]
    sit = Sit(g, mine, enemy)
    out = ed.defence_moves(sit, moves_of(mine), objectives, [lab(8, 3)], [lab(0, 0)],  # type: ignore[arg-type]
                           last_turn=True, g=g, verdict=verdict)
    to = {uid: str(u["hex"]) for uid, u in mine.items()}
    to.update({str(c.args["unit"]): str(c.args["to"]) for _s, c in out})
    return to


def sides(g: Grid, at: tuple[int, int]) -> set[str]:
    return {g.label(j) for j in g.nbrs[g.index_of_label(lab(*at))]}


def test_the_last_assault_goes_for_the_verdict_not_the_points():
    """The points rule sends all three to Minsk (2 x 0.47 expected; Moscow at 1 to 1 is
    under its least odds, ASSAULT_MIN); with the Axis at 21 points only Moscow turns the
    verdict (15: a draw), so the verdict's assault sends them to Moscow's sides at 1 to 1
    (VERDICT_MIN: the last assault's long chance costs nothing)."""
    assert ed.ASSAULT_MIN == 1.5 and ed.VERDICT_MIN == 1.0 and ed.p_clear(1.0) > 0
    g = Grid(cities=(WEAK, STRONG))

    def verdict(retaken: Any) -> float:  # 21 points: Moscow retaken is a draw, else a loss
        return 0.0 if lab(*STRONG) in retaken else -1.0
    points = last_moves(None)
    assert set(points.values()) <= sides(g, WEAK), points
    by_verdict = last_moves(verdict)
    assert set(by_verdict.values()) <= sides(g, STRONG), by_verdict
    # a verdict that the points rule already serves keeps the plan's assault
    assert last_moves(lambda retaken: 1.0 if lab(*WEAK) in retaken else 0.0) == points


def test_verdict_value_sums_the_verdict_over_each_target_falling_or_holding():
    both = ed.verdict_value(lambda got: float(len(got)), [("a", 0.5), ("b", 0.25)])
    assert both == 0.75
    assert ed.verdict_value(lambda got: 1.0, []) == 1.0


def test_last_verdict_reads_the_scenarios_victory_table():
    """europa-barbarossa's table: the Axis at 17 (Leningrad, Kiev, Kharkov, Odessa, the
    Smolensk line with all 4 hexes, Minsk, Riga) wins marginally (-1); Kharkov retaken
    leaves 14, a draw (0, and 3 points retaken); one line hex retaken leaves 3 of 4 (need
    3): still 17; two, 15; Leningrad and Kharkov, 9 - a Soviet marginal win. With Moscow
    too the Axis's 23 is decisive (-3), 20 substantive."""
    g = Game.new("europa-barbarossa", seed=0)
    bot = make_bot("mcts", Seat.of(g, "soviet", 0))
    sit = Situation.of(bot.seat.context, g.view("soviet"), "soviet")
    sit.memo("victory.objectives", lambda: barbarossa_objectives(
        {"3306", "3446", "5348", "3663", "3326", "3429", "3928", "3431", "2631", "1618"}))
    worth = bot.policy.last_verdict(sit)  # type: ignore[attr-defined]
    assert worth is not None
    point = bot.policy.VERDICT_POINT  # type: ignore[attr-defined]
    assert worth(()) == -1.0 and worth(("5348",)) == pytest.approx(3 * point)
    assert worth(("3326",)) == -1.0 and worth(("3326", "3429")) == pytest.approx(2 * point)
    assert worth(("3306", "5348")) == pytest.approx(1 + 8 * point)
    # the levels: 17 is the Axis's marginal win (-1), 20 its substantive (-2), 23 decisive
    sit = Situation.of(bot.seat.context, g.view("soviet"), "soviet")
    sit.memo("victory.objectives", lambda: barbarossa_objectives(
        {"5422", "3306", "3446", "5348", "3663", "3326", "3429", "3928", "3431", "2631", "1618"}))
    worth = bot.policy.last_verdict(sit)  # type: ignore[attr-defined]
    assert worth(()) == -3.0  # 23 points
    assert worth(("3446",)) == pytest.approx(-2 + 3 * point)  # 20
    assert worth(("5422", "3306", "5348")) == pytest.approx(1 + 14 * point)  # 9
    # the counted side (the Axis) weighs the hexes it takes (session 27:
    # tests/bots/test_europa_last_assault_s27.py)


def test_the_search_weighs_the_verdict_and_the_planner_the_points():
    g = Game.new("europa-barbarossa", seed=0)
    seat = Seat.of(g, "soviet", 0)
    assert make_bot("mcts", seat).policy.verdict_assault  # type: ignore[attr-defined]
    assert not make_bot("mcts@budget=0", seat).policy.verdict_assault  # type: ignore[attr-defined]
    assert not make_bot("mcts@verdict=0", seat).policy.verdict_assault  # type: ignore[attr-defined]
    assert not make_bot("planner", seat).policy.verdict_assault  # type: ignore[attr-defined]
    assert make_bot("planner@verdict=1", seat).policy.verdict_assault  # type: ignore[attr-defined]
