"""Issue 25 (Europa, session 20, helper HB): fewer Soviet units lost forward in the summer.

The lead's brief for session 20: the Red Army loses about 105 infantry units a game, most in
the summer's battles, and those are the fortresses' missing defenders in November. A Soviet
player trades space for time: a unit whose line the enemy's armour has outflanked (its mech
units past it toward our supply sources, the line's ``behind``) falls back to the next line
not outflanked instead of holding to die (``planner@fall_back=N``: N or more such units).
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


def _moves(mine: dict[str, dict[str, Any]], n: int = 3) -> Actions:
    out = []
    for uid, u in mine.items():
        x0, y0 = int(u["hex"][:2]), int(u["hex"][2:])
        out += [Command("move", "soviet", {"unit": uid, "to": lab(x, y)})
                for y in range(H) for x in range(W) if 0 < abs(x - x0) + abs(y - y0) <= n]
    return Actions(out)


def _ends(fall_back: int, raiders: list[tuple[int, int]]) -> tuple[Sit, str]:
    """Where the lone Soviet unit at (10, 3) ends: Axis infantry in contact west of it,
    Axis armour at ``raiders``."""
    g = Grid(w=W, h=H, cities=((10, 3),))
    mine = {"r": unit("soviet", (10, 3))}
    others: list[dict[str, Any]] = [unit("axis", (8, 3), attack=6)]
    others += [unit("axis", at, kind="armor", attack=10) for at in raiders]
    sit = Sit(g, mine, others)
    out = ed.defence_moves(sit, _moves(mine), [obj(SOURCE, "Moscow", 6)],  # type: ignore[arg-type]
                           [lab(*SOURCE)], [lab(0, 3)], ("Moscow",), g=g, by_worth=True,
                           fall_back=fall_back)
    to = {str(c.args["unit"]): str(c.args["to"]) for _s, c in out}
    return sit, to.get("r", lab(10, 3))


def test_an_outflanked_unit_falls_back_to_a_line_not_outflanked():
    """Two panzer units past the unit's flanks (nearer our source by two or more, within six
    hexes): with ``fall_back`` 1 it leaves for a hex no raider is behind; without it it holds
    the line (the same hex or one as near the enemy)."""
    raiders = [(14, 1), (14, 5)]
    sit, held = _ends(0, raiders)
    _sit, fell = _ends(1, raiders)
    assert sit.distance(fell, lab(*SOURCE)) < sit.distance(held, lab(*SOURCE))
    assert sit.distance(fell, lab(8, 3)) >= 4  # out of the enemy infantry's contact


def test_a_unit_not_outflanked_holds_as_before():
    """No armour behind the unit: ``fall_back`` changes nothing."""
    assert _ends(1, [(4, 0)])[1] == _ends(0, [(4, 0)])[1]


def test_the_plan_reads_fall_back():
    """``planner@fall_back=2`` -> the Soviet plan's ``fall_back`` 2; off (0) in the shipped
    plan; not a whole number: refused."""
    assert plan_for("europa-barbarossa", {})["soviet"]["fall_back"] == 0
    assert plan_for("europa-barbarossa", parse_params("fall_back=2"))["soviet"]["fall_back"] == 2
    with pytest.raises(InputError):
        parse_params("fall_back=x")
