"""Issue 25 (Europa, session 13): the planner's Soviets play the last turn and the rings as a
veteran does.

* The game's last movement phase, when our player turn closes the game (nothing the enemy
  does follows), needs no garrison: a hex stays ours until an enemy unit enters it, so the
  whole army assaults the objectives the enemy holds (EUR-09 odds, the CRT's chance to clear
  the hex), the ones worth most to the verdict first - a line's hex only when retaking it
  drops the enemy below the line's ``need``.
* A fortress's ring is scaled to the enemy's attack in reach (a full stack on each side
  under a heavy threat, a screen of one while the enemy is far), and the most threatened
  fortress gets its units first.

Small constructed boards, as in tests/bots/test_europa_defence.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from tests.bots.test_europa_defence import (
    SOURCE,
    Grid,
    Sit,
    lab,
    obj,
    run,
    unit,
)

from grognard.bots import europa_defence as ed

ENEMY_CITY = (3, 3)
OUR_CITY = (6, 3)


def _last(mine: dict[str, dict[str, Any]], others: list[dict[str, Any]], objectives: list[Any],
          g: Grid, last_turn: bool) -> dict[str, str]:
    return run(mine, others, objectives, g, [SOURCE], last_turn=last_turn)


def test_eur09_the_last_movement_assaults_an_enemy_held_objective_with_the_garrisons():
    """The enemy holds a city (one infantry corps of defense 5, doubled: 10) three hexes
    from a city of ours held by three units of attack 6 (18: 1.8 to 1). In an ordinary
    turn the enemy in reach keeps a garrison in our city; on the game's last movement
    phase (our player turn closes the game) all three leave it for the sides of the enemy's
    city, where the combat phase attacks at any odds (EuropaPolicy.score_attack)."""
    g = Grid(cities=(ENEMY_CITY, OUR_CITY))
    mine = {f"g{k}": unit("soviet", OUR_CITY, attack=6) for k in range(3)}
    enemy = [unit("axis", ENEMY_CITY, attack=6, defense=5)]
    objectives = [obj(ENEMY_CITY, "Minsk", 2, holder="axis"), obj(OUR_CITY, "Kiev", 3)]
    target = g.index_of_label(lab(*ENEMY_CITY))
    sides = {g.label(j) for j in g.nbrs[target]}
    before = _last(mine, enemy, objectives, g, last_turn=False)
    assert lab(*OUR_CITY) in before.values()  # a garrison while the enemy may still move
    last = _last(mine, enemy, objectives, g, last_turn=True)
    assert all(h in sides for h in last.values()), last


def test_the_last_assault_is_not_made_at_hopeless_odds_nor_outside_the_final_phase():
    """A panzer stack of 30 defense (doubled in the city: 60) against 18 attack factors is
    no assault (0.3 to 1, under ASSAULT_MIN); and last_assault gives nothing for a hex with
    no stake."""
    assert ed.ASSAULT_MIN == 1.5
    g = Grid(cities=(ENEMY_CITY, OUR_CITY))
    mine = {f"g{k}": unit("soviet", OUR_CITY, attack=6) for k in range(3)}
    enemy = [unit("axis", ENEMY_CITY, kind="armor", attack=9, defense=10) for _ in range(3)]
    objectives = [obj(ENEMY_CITY, "Minsk", 2, holder="axis"), obj(OUR_CITY, "Kiev", 3)]
    target = g.index_of_label(lab(*ENEMY_CITY))
    sides = {g.label(j) for j in g.nbrs[target]}
    last = _last(mine, enemy, objectives, g, last_turn=True)
    assert not any(h in sides for h in last.values()), last


def test_eur09_p_clear_reads_the_crt_columns():
    """The chance to clear a hex rises with the odds' column (the revised CRT's DR and D2
    with no modifier): none below 1 to 1, 0.47 at 3 to 1, 0.83 from 7 to 1."""
    from grognard.europa.combat.crt_analysis import column_stats

    stats = {s.column: float(s.p_defender_dislodged) for s in column_stats(drms=(0,))}
    for odds, col in ((1.0, "1-1"), (2.0, "2-1"), (3.0, "3-1"), (4.0, "4-1"), (5.0, "5-1"),
                      (7.0, "7-1")):
        assert abs(ed.p_clear(odds) - stats[col]) < 0.01, col
    assert ed.p_clear(0.9) == 0.0
    assert ed.p_clear(2.9) == ed.p_clear(2.0)  # the column, not the ratio
    assert ed.p_clear(12.0) == ed.p_clear(7.0)


@dataclass
class CtxSit(Sit):
    """A board with the scenario's public victory table (a line of 4 hexes, need 3)."""

    context: Any = field(default=None)


LINE = [lab(1, y) for y in (1, 2, 3, 4)]


def _stakes(held: int) -> dict[str, float]:
    table = {"victory": {"objectives": [
        {"name": "Line", "hexes": LINE, "need": 3, "points": 2},
        {"name": "Minsk", "hex": lab(5, 5), "points": 1}]}}
    ctx = SimpleNamespace(scenario=SimpleNamespace(rules=SimpleNamespace(table=table)))
    sit = CtxSit(Grid(), {}, [], context=ctx)
    objectives = [obj((1, y), "Line", 1, holder="axis" if k < held else "soviet")
                  for k, y in enumerate((1, 2, 3, 4))] + [obj((5, 5), "Minsk", 1, "axis")]
    return ed.objective_stakes(sit, objectives)  # type: ignore[arg-type]


def test_a_line_hex_is_worth_the_line_only_when_retaking_it_breaks_the_need():
    """The enemy holds 3 of a line's 4 hexes (need 3, 2 points): each is worth the line's 2
    points (one retaken breaks it); holding all 4, two must be retaken: 1 each; holding 2,
    the line does not count: 0. A single objective is worth its points."""
    three = _stakes(3)
    assert [three[h] for h in LINE[:3]] == [2.0, 2.0, 2.0] and LINE[3] not in three
    four = _stakes(4)
    assert [four[h] for h in LINE] == [1.0] * 4
    two = _stakes(2)
    assert [two[h] for h in LINE[:2]] == [0.0, 0.0]
    assert three[lab(5, 5)] == 1.0


def test_eur22_reinforcements_enter_at_the_fortress_the_enemy_drives_on():
    """Two fortresses, the enemy's infantry next to A (eight corps of 9 within 4 hexes: 72
    factors, three corps of defense 5 in A: 15 of the 28.8 that hold 2.5 to 1) and none
    within reach of B: an arrival entering at A (or
    within 2 hexes of it) scores the shortfall, at B nothing; once A's defence suffices
    (enough defense on its ring) its pull is gone."""
    a, b = (2, 3), (8, 3)
    g = Grid(cities=(a, b))
    mine = {f"g{k}": unit("soviet", a) for k in range(3)}
    heavy = [unit("axis", (0, y), attack=9) for y in range(1, 6)] + \
        [unit("axis", (1, y), attack=9) for y in (0, 1, 5)]
    objectives = [obj(a, "Moscow", 6), obj(b, "Leningrad", 5)]
    sit = Sit(g, mine, heavy)
    pressure = ed.entry_pressure(sit, objectives, ["Moscow", "Leningrad"], [])  # type: ignore[arg-type]
    assert set(pressure) == {lab(*a)} and abs(pressure[lab(*a)] - (28.8 - 15) / 28.8) < 1e-9
    assert ed.reinforcement_score(sit, lab(*a), pressure) > 1.9  # type: ignore[arg-type]
    assert ed.reinforcement_score(sit, lab(3, 4), pressure) > 1.9  # type: ignore[arg-type]
    assert ed.reinforcement_score(sit, lab(*b), pressure) == 0.0  # type: ignore[arg-type]
    held = dict(mine)
    held.update({f"r{k}": unit("soviet", h, defense=8) for k, h in
                 enumerate([(3, 3), (2, 2), (2, 4), (3, 3), (2, 2), (2, 4)])})
    enough = ed.entry_pressure(Sit(g, held, heavy), objectives,  # type: ignore[arg-type]
                               ["Moscow", "Leningrad"], [])
    assert enough.get(lab(*a), 0.0) == 0.0


def test_eur22_the_planner_soviets_route_arrivals_by_the_fortresses_shortfall():
    """europa-barbarossa: the planner's Soviet score of an arrival is the heuristic's plus
    europa_defence.reinforcement_score (the heuristic's own policy is unchanged); session
    17's ``stand`` (the capitals' own force, added to it) off here."""
    from grognard.bots.base import Seat
    from grognard.bots.planner import PlannerBot
    from grognard.engine.commands import Command
    from grognard.engine.game import Game

    g = Game.new("europa-barbarossa", seed=1)
    bot = PlannerBot(Seat.of(g, "soviet", 1), {"stand": "0"})
    pol = bot.policy
    sit = pol.situation(g.view("soviet"), g)
    cmd = Command("place_reinforcement", "soviet", {"unit": "x", "hex": "5422"})
    sit._memo["defence.pressure"] = {"5422": 1.0}
    from grognard.bots.heuristic import EuropaPolicy

    base = EuropaPolicy.score_place_reinforcement(pol, sit, cmd)
    assert pol.score_place_reinforcement(sit, cmd) == base + 4.0
    sit._memo["defence.pressure"] = {"5422": 0.0}
    assert pol.score_place_reinforcement(sit, cmd) == base


def test_the_most_threatened_fortress_ring_gets_the_units_first():
    """Two fortresses with their garrisons, both with the enemy within RING_REACH: three
    panzer corps next to A (27 factors in reach), none in reach of B. The four free units
    halfway between them (each able to reach either ring) fill A's ring, not B's (session
    12 filled the rings in the order of their hex labels: B's first)."""
    a, b = (6, 1), (2, 5)
    g = Grid(cities=(a, b))
    mine = {f"a{k}": unit("soviet", a) for k in range(3)}
    mine.update({f"b{k}": unit("soviet", b) for k in range(3)})
    mine.update({f"f{k}": unit("soviet", (4, 3)) for k in range(4)})
    enemy = [unit("axis", (8, y), kind="armor", attack=9) for y in (0, 1, 2)]
    objectives = [obj(a, "Moscow", 6), obj(b, "Leningrad", 5)]
    got = run(mine, enemy, objectives, g, [lab(8, 6)], fortresses=("Moscow", "Leningrad"))
    ia, ib = g.index_of_label(lab(*a)), g.index_of_label(lab(*b))
    ring_a = {g.label(j) for j in g.nbrs[ia]}
    ring_b = {g.label(j) for j in g.nbrs[ib]}
    free = [got[f"f{k}"] for k in range(4)]
    assert all(h in ring_a for h in free), free
    assert not any(h in ring_b for h in free)
