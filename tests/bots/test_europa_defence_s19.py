"""Issue 25 (Europa, session 19): Leningrad's front falls back on it, not Moscow's.

Session 18's ``reach=Leningrad:20`` (Leningrad's ring wanted from 20 hexes, the units out
of contact marching on it) halved Leningrad's losses on held-out seeds, but Moscow and
Kharkov fell more: the marching units were drawn from the whole front, Moscow's and
Kharkov's defenders among them. Lead 1 of session 19 (a Soviet player's answer): a ring
that only the plan's reach wants yet (the enemy farther from its fortress than
:data:`europa_defence.RING_REACH`) draws only the units whose own front it is - those whose
nearest fortress it is (``planner@own_front=1``).
"""

from __future__ import annotations

from typing import Any

from tests.bots.europa_boards import lab
from tests.bots.test_europa_defence import Actions, Grid, Sit, obj, unit

from grognard.bots import europa_defence as ed
from grognard.bots.planner import parse_params
from grognard.bots.planner_plans import plan_for
from grognard.engine.commands import Command

W, H = 40, 7
LENINGRAD, MOSCOW = (10, 0), (37, 6)


def _moves(mine: dict[str, dict[str, Any]], n: int = 3) -> Actions:
    out = []
    for uid, u in mine.items():
        x0, y0 = int(u["hex"][:2]), int(u["hex"][2:])
        out += [Command("move", "soviet", {"unit": uid, "to": lab(x, y)})
                for y in range(H) for x in range(W) if 0 < abs(x - x0) + abs(y - y0) <= n]
    return Actions(out)


def _ends(reaches: dict[str, int] | None, own_front: bool) -> dict[str, int]:
    """Each unit's distance from Leningrad after the plan's moves."""
    g = Grid(w=W, h=H, cities=(LENINGRAD, MOSCOW))
    mine = {f"n{k}": unit("soviet", (16, k)) for k in (0, 1)}  # Leningrad's front
    mine.update({f"c{k}": unit("soviet", (28, k)) for k in range(2, H)})  # nearer Moscow
    # the enemy 16 hexes from Leningrad, 37 from Moscow: only Leningrad's reach wants a ring
    others = [unit("axis", (0, y), attack=6) for y in (5, 6)]
    objectives = [obj(LENINGRAD, "Leningrad", 5), obj(MOSCOW, "Moscow", 6)]
    sit = Sit(g, mine, others)
    out = ed.defence_moves(sit, _moves(mine), objectives,  # type: ignore[arg-type]
                           [lab(39, 0)], [lab(0, 6)], ("Leningrad", "Moscow"), g=g,
                           by_worth=True, reaches=reaches, own_front=own_front)
    to = {uid: str(u["hex"]) for uid, u in mine.items()}
    to.update({str(c.args["unit"]): str(c.args["to"]) for _s, c in out})
    return {uid: sit.distance(h, lab(*LENINGRAD)) for uid, h in to.items()}


def test_a_ring_the_reach_alone_wants_draws_only_its_own_fronts_units():
    """Lead 1: the units nearer Moscow than Leningrad (column 28) march west on Leningrad's
    ring with ``reach`` Leningrad:20 alone; with ``own_front`` they keep the line as with
    no reach at all, while Leningrad's own units (column 16) fall back on it as before."""
    assert ed.RING_REACH == 12
    centre = [f"c{k}" for k in range(2, H)]
    plain, drained, own = _ends(None, False), _ends({"Leningrad": 20}, False), \
        _ends({"Leningrad": 20}, True)
    assert sum(drained[u] for u in centre) < sum(plain[u] for u in centre) - 3
    assert sum(own[u] for u in centre) >= sum(plain[u] for u in centre)
    assert [own["n0"], own["n1"]] == [drained["n0"], drained["n1"]]


def test_a_unit_of_another_front_does_not_stop_the_march():
    """A Moscow-front unit (b) nearer Leningrad's lacking ring than Leningrad's own unit (a,
    west of the city) is not sent there; the march goes on to the next unit, which falls
    back on Leningrad (it stopped there while the march ended at the first unit with no
    goal: a left toward the enemy's side, 13 hexes from the city)."""
    leningrad, moscow = (10, 0), (24, 6)
    g = Grid(w=W, h=H, cities=(leningrad, moscow))
    mine = {"a": unit("soviet", (0, 2)), "b": unit("soviet", (18, 3))}
    others = [unit("axis", (0, y), attack=6) for y in (5, 6)]
    objectives = [obj(leningrad, "Leningrad", 5), obj(moscow, "Moscow", 6)]
    sit = Sit(g, mine, others)
    assert ed.own_front_of(sit, lab(18, 3), [lab(*leningrad), lab(*moscow)]) == lab(*moscow)
    out = ed.defence_moves(sit, _moves(mine), objectives,  # type: ignore[arg-type]
                           [lab(39, 0)], [lab(0, 6)], ("Leningrad", "Moscow"), g=g,
                           by_worth=True, reaches={"Leningrad": 20}, own_front=True)
    to = {str(c.args["unit"]): str(c.args["to"]) for _s, c in out}
    assert sit.distance(to.get("a", lab(0, 2)), lab(*leningrad)) == 9  # from 12
    assert sit.distance(to.get("b", lab(18, 3)), lab(*leningrad)) >= 11  # not drawn west


def test_own_front_of_is_the_nearest_fortress():
    sit = Sit(Grid(w=W, h=H), {}, [])
    forts = [lab(*LENINGRAD), lab(*MOSCOW)]
    assert ed.own_front_of(sit, lab(28, 3), forts) == lab(*MOSCOW)
    assert ed.own_front_of(sit, lab(16, 1), forts) == lab(*LENINGRAD)
    assert ed.own_front_of(sit, lab(16, 1), []) is None


def test_the_plan_reads_own_front():
    """``planner@own_front=1`` -> the Soviet plan's ``own_front``; not a number: refused."""
    import pytest

    from grognard.core.errors import InputError

    assert plan_for("europa-barbarossa", parse_params("own_front=1"))["soviet"]["own_front"]
    assert not plan_for("europa-barbarossa", parse_params("own_front=0"))["soviet"]["own_front"]
    with pytest.raises(InputError, match="own_front"):
        parse_params("own_front=yes")
