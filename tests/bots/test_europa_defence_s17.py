"""Issue 25 (Europa, session 17): the planner's Soviets stop losing Leningrad.

Lead 1 of session 16 (HB2): Leningrad fell to two new rifle corps and two militia, the
only units near it, while the arrivals stood at the front. With the plan's ``stand``
(EUR-22) an arrival is placed where a fortress is short of its own force - its garrison
(the city's stacking limit in corps) and its ring (:data:`europa_defence.RING` on each
land hex next to it) - weighed by the points the fortress is worth, whatever the enemy's
distance: Leningrad (5 points) empty draws the arrivals before Moscow (6) with its force
in place. A study setting, off in the shipped plan: both capitals at once, or every
fortress, held Leningrad on the tuning seeds and lost Moscow and Kharkov more; Moscow's
force first (``stand_first``) lost Leningrad more on the held-out seeds.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.bots.europa_boards import lab
from tests.bots.test_europa_defence import Grid, Sit, obj, unit

from grognard.bots import europa_defence as ed

MOSCOW, LENINGRAD = (8, 3), (2, 3)


def _sit(mine: dict[str, dict[str, Any]]) -> tuple[Grid, Sit, list[Any]]:
    g = Grid(w=11, h=7, cities=(MOSCOW, LENINGRAD))
    objectives = [obj(MOSCOW, "Moscow", 6), obj(LENINGRAD, "Leningrad", 5),
                  obj((5, 5), "Kiev", 3, holder="axis")]
    return g, Sit(g, mine, []), objectives


def _moscow_force() -> dict[str, dict[str, Any]]:
    """Moscow's whole own force: three corps in the city, two on each of its 4 sides."""
    x, y = MOSCOW
    at = [MOSCOW] * 3 + [h for h in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
                         for _ in range(2)]
    return {f"m{k}": unit("soviet", h) for k, h in enumerate(at)}


def test_eur22_a_fortress_is_short_by_its_worth_times_the_force_it_lacks():
    """Moscow with its garrison (3) and ring (2 on each of 4 land sides: 11 units) is short
    nothing; Leningrad with no unit near it its whole worth (5); with one corps in the city
    and one on a side, 9 of its 11 (5 x 9/11); a unit two hexes off is not its own."""
    g, sit, objectives = _sit(_moscow_force())
    short = ed.stand_shortfall(sit, objectives, ("Moscow", "Leningrad"), (), g=g)  # type: ignore[arg-type]
    assert short == {lab(*MOSCOW): 0.0, lab(*LENINGRAD): 5.0}
    mine = {**_moscow_force(), "l1": unit("soviet", LENINGRAD), "l2": unit("soviet", (3, 3)),
            "far": unit("soviet", (4, 3))}
    g, sit, objectives = _sit(mine)
    short = ed.stand_shortfall(sit, objectives, ("Moscow", "Leningrad"), (), g=g)  # type: ignore[arg-type]
    assert short[lab(*LENINGRAD)] == 5.0 * 9 / 11


def test_eur22_an_arrival_is_placed_at_the_fortress_most_points_short():
    """The arrival's score at Leningrad (or next to it) is Leningrad's shortfall, at Moscow
    (full) none, and far from both none: placed at Leningrad, not next to the front."""
    g, sit, objectives = _sit(_moscow_force())
    short = ed.stand_shortfall(sit, objectives, ("Moscow", "Leningrad"), (), g=g)  # type: ignore[arg-type]
    assert ed.stand_score(sit, lab(*LENINGRAD), short) == 5.0  # type: ignore[arg-type]
    assert ed.stand_score(sit, lab(3, 3), short) == 5.0  # type: ignore[arg-type]
    assert ed.stand_score(sit, lab(*MOSCOW), short) == 0.0  # type: ignore[arg-type]
    assert ed.stand_score(sit, lab(5, 0), short) == 0.0  # type: ignore[arg-type]


def test_eur22_stand_counts_only_the_fortresses_worth_its_least_points():
    """``least`` 5: Moscow (6) and Leningrad (5) only - a lesser fortress (Kharkov, 3)
    empty is short nothing the arrivals fill."""
    g = Grid(w=11, h=7, cities=(MOSCOW, LENINGRAD, (5, 1)))
    objectives = [obj(MOSCOW, "Moscow", 6), obj(LENINGRAD, "Leningrad", 5),
                  obj((5, 1), "Kharkov", 3)]
    sit = Sit(g, _moscow_force(), [])
    names = ("Moscow", "Leningrad", "Kharkov")
    every = ed.stand_shortfall(sit, objectives, names, (), g=g)  # type: ignore[arg-type]
    assert every[lab(5, 1)] == 3.0
    capitals = ed.stand_shortfall(sit, objectives, names, (), g=g, least=5)  # type: ignore[arg-type]
    assert capitals == {lab(*MOSCOW): 0.0, lab(*LENINGRAD): 5.0}


def test_eur22_with_first_leningrad_counts_short_only_once_moscow_has_its_force():
    """``first``: while Moscow (6) lacks part of its force Leningrad (5) counts short of
    nothing (the arrivals go to Moscow); with Moscow's force in place, Leningrad's whole
    worth."""
    g, sit, objectives = _sit({"m0": unit("soviet", MOSCOW)})
    short = ed.stand_shortfall(sit, objectives, ("Moscow", "Leningrad"), (), g=g,  # type: ignore[arg-type]
                               first=True)
    assert short == {lab(*MOSCOW): 6.0 * 10 / 11, lab(*LENINGRAD): 0.0}
    g, sit, objectives = _sit(_moscow_force())
    short = ed.stand_shortfall(sit, objectives, ("Moscow", "Leningrad"), (), g=g,  # type: ignore[arg-type]
                               first=True)
    assert short == {lab(*MOSCOW): 0.0, lab(*LENINGRAD): 5.0}


def test_stand_is_off_in_the_shipped_plan_and_a_study_turns_it_on():
    """Off as shipped (held-out 5600-5639 lost Leningrad more with it: docs/AI.md, session
    17); ``planner@stand=5@stand_first=1`` fills Moscow's force, then Leningrad's."""
    from grognard.bots.planner import parse_params
    from grognard.bots.planner_plans import plan_for
    shipped = plan_for("europa-barbarossa", {})["soviet"]
    assert shipped["stand"] == 0 and shipped["stand_first"] is False
    got = plan_for("europa-barbarossa", parse_params("stand=5@stand_first=1"))["soviet"]
    assert got["stand"] == 5 and got["stand_first"] is True
    got = plan_for("europa-barbarossa", parse_params("stand=1@stand_first=0"))["soviet"]
    assert got["stand"] == 1 and got["stand_first"] is False


def test_eur22_the_planners_soviets_place_an_arrival_at_leningrad_by_its_shortfall():
    """On the scenario's first turn (no Soviet unit next to Leningrad or Moscow) an arrival
    placed at Leningrad (3306) scores Leningrad's whole worth (5) more with ``stand=5`` than
    with it off (the shipped plan), and nothing more with ``stand_first`` (Moscow's force
    first), where an arrival at Moscow (5422) scores its whole worth (6) more; one
    placed at a hex no fortress stands at or next to scores the same."""
    from grognard.bots.base import Seat
    from grognard.bots.planner_plans import plan_for, planner_policy
    from grognard.engine.commands import Command
    from grognard.engine.game import Game

    game = Game.new("europa-barbarossa", seed=0)

    def score(params: dict[str, str], to: str) -> float:
        policy = planner_policy(Seat.of(game, "soviet", 0), plan_for("europa-barbarossa", params))
        policy.defending = True  # type: ignore[attr-defined]
        sit = policy.situation(game.view("soviet"), game)
        cmd = Command("place_reinforcement", "soviet", {"unit": "su-22a-rifle-1", "hex": to})
        return float(policy.score_place_reinforcement(sit, cmd))  # type: ignore[attr-defined]

    both = {"stand": "5", "stand_first": "0"}
    first = {"stand": "5", "stand_first": "1"}
    off: dict[str, str] = {}
    assert score(both, "3306") - score(off, "3306") == pytest.approx(5.0)
    assert score(first, "3306") == score(off, "3306")
    assert score(first, "5422") - score(off, "5422") == pytest.approx(6.0)
    assert score(first, "3928") == score(off, "3928") == score(both, "3928")
