"""Issue 25 (Europa, session 18): Leningrad's ring stands before the enemy is at its gates.

Lead 1 of session 17: Leningrad fell to two new rifle corps and two militia in the city and
4-8 units on its ring, while the units of its front had died forward or stood at the front.
The ring of a fortress is wanted (and the units out of contact march on it) once the enemy
is within :data:`europa_defence.RING_REACH` hexes (12) - for Leningrad, whose front is the
Axis's shortest drive, that was Sep I, too late for its front's units to fall back on it.
The plan's ``reach`` (a fortress's name -> hexes) wants that fortress's ring from farther
off: ``planner@reach=Leningrad:20`` from the start of the Axis's drive on it - a study setting,
off in the shipped plan (held-out 6400-6599: Moscow and Kharkov lost more, 16 Axis wins against
15; docs/AI.md, session 18).
"""

from __future__ import annotations

from typing import Any

from tests.bots.europa_boards import lab
from tests.bots.test_europa_defence import Grid, Sit, moves_of, obj, unit

from grognard.bots import europa_defence as ed
from grognard.bots.planner import parse_params
from grognard.bots.planner_plans import plan_for

LENINGRAD, MOSCOW = (2, 3), (24, 3)


def _wants(enemy_at: tuple[int, int], reaches: dict[str, int] | None) -> dict[str, int]:
    g = Grid(w=27, h=7, cities=(LENINGRAD, MOSCOW))
    others = [unit("axis", enemy_at, attack=6)]
    sit = Sit(g, {}, others)
    enemy = [(g.index_of_label(str(u["hex"])), u) for u in others]
    objectives = [obj(LENINGRAD, "Leningrad", 5), obj(MOSCOW, "Moscow", 6)]
    want, _ring = ed.fortress_wants(
        sit, g, objectives, {lab(*LENINGRAD), lab(*MOSCOW)},  # type: ignore[arg-type]
        enemy, [True] * (g.w * g.h), set(range(g.w * g.h)), reaches=reaches)
    return {g.label(i): n for i, n in want.items()}


def _ring(want: dict[str, int], city: tuple[int, int]) -> list[int]:
    x, y = city
    return [want.get(lab(*h), 0) for h in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))]


def test_a_fortress_ring_is_wanted_from_the_plans_reach():
    """The enemy 16 hexes from Leningrad (and 6 from Moscow): with the default reach (12)
    Leningrad wants its garrison but no ring; with ``reach`` Leningrad:20 its ring of
    RING a side too. Moscow, not named, keeps RING_REACH: a ring at 6 hexes, none at 16."""
    assert ed.RING_REACH == 12 and ed.RING == 2
    plain = _wants((18, 3), None)
    assert plain[lab(*LENINGRAD)] == 3 and _ring(plain, LENINGRAD) == [0, 0, 0, 0]
    assert _ring(plain, MOSCOW) == [2, 2, 2, 2]
    early = _wants((18, 3), {"Leningrad": 20})
    assert early[lab(*LENINGRAD)] == 3 and _ring(early, LENINGRAD) == [2, 2, 2, 2]
    assert _ring(early, MOSCOW) == [2, 2, 2, 2]
    # the enemy far from Moscow (16) and near Leningrad (6): Moscow's ring not wanted early
    assert _ring(_wants((8, 3), {"Leningrad": 20}), MOSCOW) == [0, 0, 0, 0]
    # beyond the reach: no ring
    assert _ring(_wants((26, 3), {"Leningrad": 20}), LENINGRAD) == [0, 0, 0, 0]


def test_the_march_falls_back_on_leningrads_ring_from_its_reach():
    """Units out of contact between the front and Leningrad: with the enemy 16 hexes off
    they stay on the heuristic's line by default, and march toward Leningrad's ring with
    ``reach`` Leningrad:20 (the front's units falling back on their city)."""
    g = Grid(w=27, h=7, cities=(LENINGRAD, MOSCOW))
    mine: dict[str, dict[str, Any]] = {f"u{k}": unit("soviet", (9, k)) for k in range(7)}
    others = [unit("axis", (18, y), attack=6) for y in (2, 3, 4)]
    objectives = [obj(LENINGRAD, "Leningrad", 5), obj(MOSCOW, "Moscow", 6)]

    def ends(reaches: dict[str, int] | None) -> list[int]:
        out = ed.defence_moves(Sit(g, mine, others), moves_of(mine), objectives,  # type: ignore[arg-type]
                               [lab(26, 0)], [lab(26, 6)], ("Leningrad", "Moscow"), g=g,
                               by_worth=True, reaches=reaches)
        to = {uid: str(u["hex"]) for uid, u in mine.items()}
        to.update({str(c.args["unit"]): str(c.args["to"]) for _s, c in out})
        sit = Sit(g, mine, others)
        return [sit.distance(h, lab(*LENINGRAD)) for h in to.values()]
    assert sum(ends({"Leningrad": 20})) < sum(ends(None))


def test_the_plan_reads_reach_as_a_name_and_hexes():
    """``planner@reach=Leningrad:20+Moscow:14`` -> the Soviet plan's ``reach``; the shipped
    plan has none (every ring from RING_REACH), ``reach=`` (empty) keeps it so."""
    assert plan_for("europa-barbarossa", {})["soviet"]["reach"] == {}
    plan = plan_for("europa-barbarossa", parse_params("reach=Leningrad:20+Moscow:14"))
    assert plan["soviet"]["reach"] == {"Leningrad": 20, "Moscow": 14}
    assert plan_for("europa-barbarossa", parse_params("reach="))["soviet"]["reach"] == {}


def test_a_bad_reach_or_rings_is_refused_in_one_line():
    """Bad input: ``reach``/``rings`` not NAME:N pairs, or a name that is not one of the plan's
    fortresses (a misspelt one would change nothing in silence), is refused as an InputError
    naming the parameter, not a ValueError from ``int()``."""
    import pytest

    from grognard.core.errors import InputError

    for text in ("reach=Leningrad", "reach=Leningrad:x", "reach=Leningrad:-3", "rings=Moscow:a"):
        with pytest.raises(InputError, match=text.partition("=")[0]):
            parse_params(text)
    with pytest.raises(InputError, match="Leningrd is not a fortress of a plan"):
        parse_params("reach=Leningrd:20")
