"""Issue 25 (Europa, session 21, helper HL): the summer's line out of the Axis's reach.

The lead's brief for session 21: about 115 of the 155-170 Soviet units lost a game fall far
from every fortress, most of them in Jun II-Aug II, on the heuristic's line in supply; the
line's threat counts enemy units within 2 hexes while the Axis armour moves 3-6 hexes a
phase, so the line stands within the Axis's real reach. A Soviet player trades space for
time in the summer: the line stands ``reach_line`` hexes or more off the enemy
(``planner@reach_line=N``), where the enemy's foot units cannot attack it next turn.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.bots.europa_boards import lab
from tests.bots.test_europa_defence import Actions, Grid, Sit, obj, unit

from grognard.bots import europa_defence as ed
from grognard.bots.planner import parse_params
from grognard.bots.planner_plans import plan_for
from grognard.core.errors import InputError
from grognard.engine.commands import Command

W, H = 40, 7
SOURCE = (39, 3)
ENEMY = (8, 3)


def _moves(mine: dict[str, dict[str, Any]], n: int = 4) -> Actions:
    out = []
    for uid, u in mine.items():
        x0, y0 = int(u["hex"][:2]), int(u["hex"][2:])
        out += [Command("move", "soviet", {"unit": uid, "to": lab(x, y)})
                for y in range(H) for x in range(W) if 0 < abs(x - x0) + abs(y - y0) <= n]
    return Actions(out)


def _ends(reach_line: int, turn: int = 2) -> tuple[Sit, dict[str, str]]:
    """Where two Soviet units two hexes off an Axis stack end in game turn ``turn``."""
    g = Grid(w=W, h=H)
    mine = {"r1": unit("soviet", (10, 2)), "r2": unit("soviet", (10, 4))}
    others: list[dict[str, Any]] = [unit("axis", ENEMY, attack=6),
                                    unit("axis", ENEMY, kind="armor", attack=10)]
    sit = Sit(g, mine, others)
    sit.view = {"turn": turn}  # type: ignore[attr-defined]
    out = ed.defence_moves(sit, _moves(mine), [obj(SOURCE, "Moscow", 6)],  # type: ignore[arg-type]
                           [lab(*SOURCE)], [lab(0, 3)], ("Moscow",), g=g, by_worth=True,
                           reach_line=reach_line)
    to = {str(c.args["unit"]): str(c.args["to"]) for _s, c in out}
    return sit, {u: to.get(u, mine[u]["hex"]) for u in mine}


def test_the_summer_line_stands_out_of_reach():
    """In a summer turn with ``reach_line`` 4 every unit of the line stands four or more
    hexes off the enemy; without it the heuristic's line stands nearer (one to three)."""
    sit, near = _ends(0)
    _sit, back = _ends(4)
    assert min(sit.distance(h, lab(*ENEMY)) for h in near.values()) < 4
    assert all(sit.distance(h, lab(*ENEMY)) >= 4 for h in back.values())


def test_after_the_summer_the_line_is_the_heuristics():
    """After :data:`europa_defence.SUMMER_LAST` ``reach_line`` changes nothing."""
    assert _ends(4, turn=ed.SUMMER_LAST + 1)[1] == _ends(0, turn=ed.SUMMER_LAST + 1)[1]


def test_the_plan_reads_reach_line():
    """``planner@reach_line=4`` -> the Soviet plan's ``reach_line`` 4; off (0) in the shipped
    plan; not a whole number: refused."""
    assert plan_for("europa-barbarossa", {})["soviet"]["reach_line"] == 0
    assert plan_for("europa-barbarossa",
                    parse_params("reach_line=4"))["soviet"]["reach_line"] == 4
    with pytest.raises(InputError):
        parse_params("reach_line=x")


def _stacks(line_stacks: int, mine: dict[str, dict[str, Any]], turn: int = 2
            ) -> tuple[Sit, dict[str, str]]:
    """Where the Soviet units ``mine`` end in game turn ``turn``, an Axis stack at ENEMY."""
    g = Grid(w=W, h=H)
    others: list[dict[str, Any]] = [unit("axis", ENEMY, attack=6),
                                    unit("axis", ENEMY, kind="armor", attack=10)]
    sit = Sit(g, mine, others)
    sit.view = {"turn": turn}  # type: ignore[attr-defined]
    out = ed.defence_moves(sit, _moves(mine), [obj(SOURCE, "Moscow", 6)],  # type: ignore[arg-type]
                           [lab(*SOURCE)], [lab(0, 3)], ("Moscow",), g=g, by_worth=True,
                           line_stacks=line_stacks)
    to = {str(c.args["unit"]): str(c.args["to"]) for _s, c in out}
    return sit, {u: to.get(u, mine[u]["hex"]) for u in mine}


def test_a_lone_unit_leaves_the_summer_line():
    """One unit two hexes off the enemy: the heuristic's line keeps it within three hexes
    of the enemy, alone; with ``line_stacks`` (no stack to join) it falls back out of the
    line's hexes (four or more off)."""
    mine = {"r": unit("soviet", (10, 3))}
    sit, held = _stacks(0, mine)
    _sit, fell = _stacks(1, mine)
    assert sit.distance(held["r"], lab(*ENEMY)) <= ed.LINE_NEAR
    assert sit.distance(fell["r"], lab(*ENEMY)) > ed.LINE_NEAR


def test_no_lone_unit_stands_on_the_summer_line():
    """Five units near the enemy: the heuristic's line leaves lone units within
    :data:`europa_defence.LINE_NEAR` of the enemy; with ``line_stacks`` no such hex holds
    a lone unit; after the summer the setting changes nothing."""
    mine = {f"r{k}": unit("soviet", (10 + (2 * k) % 3, k)) for k in range(5)}

    def lone(line_stacks: int) -> int:
        sit, ends = _stacks(line_stacks, mine)
        near = [h for h in ends.values() if sit.distance(h, lab(*ENEMY)) <= ed.LINE_NEAR]
        return sum(1 for h in near if near.count(h) == 1)
    assert lone(0) > 0
    assert lone(1) == 0
    late = ed.SUMMER_LAST + 1
    assert _stacks(1, mine, late)[1] == _stacks(0, mine, late)[1]


def test_a_lone_unit_holds_where_its_fortress_is_near():
    """``line_stacks`` N > 1: a lone unit whose own fortress is fewer than N hexes from the
    enemy holds as the heuristic's line has it (little ground left to trade); N or more:
    it falls back as with 1."""
    mine = {"r": unit("soviet", (10, 3))}
    sit, held = _stacks(0, mine)
    near = lab(*SOURCE)  # Moscow, 31 hexes from the enemy
    assert sit.distance(near, lab(*ENEMY)) == 31
    assert _stacks(32, mine)[1] == held
    assert sit.distance(_stacks(31, mine)[1]["r"], lab(*ENEMY)) > ed.LINE_NEAR


def test_the_plan_reads_line_stacks():
    """``planner@line_stacks=24`` -> the Soviet plan's ``line_stacks`` 24; off (0) in the
    shipped plan; not a whole number: refused."""
    assert plan_for("europa-barbarossa", {})["soviet"]["line_stacks"] == 0
    assert plan_for("europa-barbarossa",
                    parse_params("line_stacks=24"))["soviet"]["line_stacks"] == 24
    with pytest.raises(InputError):
        parse_params("line_stacks=on")
