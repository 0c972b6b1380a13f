"""Issue 25, session 34: the search's attacker holds in the scenario's last game turn what it
holds against the enemy's last player turn (``mcts@last_hold=N``: the last N game turns'
exploitation phases and the last turn's movement phase; 2 by default, 0 off).

The verdict counts the objectives each side holds after the last turn, and a hex stays the
side's whose ground unit entered it last. On held-out seeds 11400-11599 the search's Axis
drew 29 games at 14-15 points; in 16 of them it stood at 16-23 before the Soviets' last
player turn and lost Kharkov, Moscow, Odessa or a Smolensk-line city to it: a city taken and
left with the one corps that advanced into it, an objective held with none. So in its last
movement phase the units its last assault leaves, and in its exploitation phase the units
that may move, fill the objectives the enemy's last player turn threatens
(``europa_defence.hold_plan``), by what losing each costs (``hold_stakes``: the verdict's
levels it drops, a tenth a point).

Small constructed boards, as in tests/bots/test_europa_defence.py.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from tests.bots.europa_boards import lab
from tests.bots.test_europa_defence import Grid, Sit, unit

from grognard.bots import europa_defence as ed
from grognard.bots.base import Seat
from grognard.bots.catalog import make_bot
from grognard.bots.planner import parse_params
from grognard.bots.planner_plans import level_worth
from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.engine.game import Game


def _moves(g: Grid, mine: dict[str, dict[str, Any]], n: int) -> dict[str, dict[int, Command]]:
    """Each unit's moves (map index -> command): the board's hexes within ``n`` of it."""
    out: dict[str, dict[int, Command]] = {}
    for uid, u in mine.items():
        x0, y0 = int(u["hex"][:2]), int(u["hex"][2:])
        out[uid] = {g.index_of_label(lab(x, y)): Command("move", "axis",
                                                         {"unit": uid, "to": lab(x, y)})
                    for y in range(g.h) for x in range(g.w)
                    if 0 < abs(x - x0) + abs(y - y0) <= n}
    return out


def _enemy(g: Grid, others: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    return [(g.index_of_label(str(u["hex"])), u) for u in others]


def test_p_lost_falls_with_each_defense_factor():
    """Between the CRT's columns the chance to lose the hex falls with each factor added
    (``p_clear`` moves only at a column: 2.9 to 1 and 2.1 to 1 read the same there)."""
    assert ed.p_lost(2.9) > ed.p_lost(2.5) > ed.p_lost(2.1) > ed.p_lost(2.0) == 0.28
    assert ed.p_lost(7.0) == ed.p_lost(20.0) == 0.83
    assert ed.p_lost(0.5) == 0.0


def test_a_city_taken_with_one_corps_is_filled_before_a_safe_one():
    """Kharkov (worth 3 to the Axis) stands with one infantry corps (defense 7, doubled in the
    city) and eight Soviet tank corps (attack 9) within reach; Kiev (worth 3), held by one
    corps, has no Soviet unit within reach; Minsk is held with nobody in it and one Soviet
    corps 3 hexes off. The
    free units go to Kharkov (to its stacking limit: 10 REs, two more corps of 3) and one to
    Minsk; none to Kiev."""
    g = Grid(w=15, h=7, cities=((4, 3), (10, 3), (12, 6)))
    kharkov, kiev, minsk = g.index_of_label(lab(4, 3)), g.index_of_label(lab(10, 3)), \
        g.index_of_label(lab(12, 6))
    mine = {"held": unit("axis", (4, 3), attack=6, defense=7)}
    mine.update({f"f{k}": unit("axis", (6, 2 + k % 3), attack=6, defense=7) for k in range(4)})
    mine["far"] = unit("axis", (12, 3), attack=6, defense=7)
    mine["kiev"] = unit("axis", (10, 3), attack=6, defense=7)
    others = [unit("soviet", (1, y), kind="armor", attack=9) for y in range(1, 5)]
    others += [unit("soviet", (0, y), kind="armor", attack=9) for y in range(1, 5)]
    others.append(unit("soviet", (14, 5), attack=4))
    sit = Sit(g, mine, others)
    stakes = {kharkov: 1.3, kiev: 1.3, minsk: 0.1}
    planned, holding = ed.hold_plan(sit, g, _moves(g, mine, 4), stakes, _enemy(g, others))
    ends = {str(c.args["unit"]): str(c.args["to"]) for _s, c in planned}
    assert "held" in holding and "kiev" not in holding  # the threatened one's stays
    assert len([u for u, to in ends.items() if to == lab(4, 3)]) == 2
    assert ends.get("far") == lab(12, 6)  # an empty objective in the enemy's reach is lost
    assert lab(10, 3) not in ends.values()  # Kiev: no enemy in reach
    assert all(s >= 240 for s, _c in planned)  # before the phase's other moves
    assert len(planned) == 3


def test_nothing_moves_when_nothing_is_threatened_or_nothing_is_at_stake():
    g = Grid(w=15, h=7, cities=((4, 3),))
    city = g.index_of_label(lab(4, 3))
    mine = {"f0": unit("axis", (6, 3), attack=6, defense=7)}
    far = [unit("soviet", (14, 6), attack=9)]  # a foot corps 13 hexes off
    near = [unit("soviet", (1, 3), kind="armor", attack=9)]
    for others, stakes in ((far, {city: 1.3}), (near, {city: 0.0}), (near, {})):
        planned, holding = ed.hold_plan(Sit(g, mine, others), g, _moves(g, mine, 4), stakes,
                                        _enemy(g, others))
        assert planned == [] and holding == set()


def test_hold_stakes_are_the_verdict_levels_a_retaking_drops():
    """europa-barbarossa's levels: the Axis at 17 points holding Kharkov (3) and Minsk (1)
    loses its marginal win by Kharkov's retaking (1 level and 0.3) but not by Minsk's (0.1);
    at 16 every point held decides the win."""
    bands = [(23, "axis"), (20, "axis"), (16, "axis"), (12, None), (8, "soviet"),
             (4, "soviet"), (0, "soviet")]
    assert level_worth(bands, "axis", 16) == 1 and level_worth(bands, "axis", 15) == 0
    g = Game.new("europa-barbarossa", seed=0)
    bot = make_bot("mcts@last_hold=1", Seat.of(g, "axis", 0))
    policy = bot.policy  # type: ignore[attr-defined]
    assert policy.last_hold == 1
    table = {"side": "axis", "levels": [{"level": "x", "winner": w, "min": m} for m, w in bands],
             "objectives": [{"name": "Kharkov", "hex": "5348", "points": 3},
                            {"name": "Minsk", "hex": "2631", "points": 1},
                            {"name": "Kiev", "hex": "3446", "points": 13},
                            {"name": "Riga", "hex": "1618", "points": 1}]}
    held = ["5348", "2631", "3446"]
    objs = [SimpleNamespace(hex=h, holder="axis" if h in held else "soviet")
            for h in ("5348", "2631", "3446", "1618")]
    sit = SimpleNamespace(player="axis", memo=lambda key, make: objs,
                          context=SimpleNamespace(scenario=SimpleNamespace(
                              rules=SimpleNamespace(table={"victory": table}))))
    got = policy.hold_stakes(sit)  # 17 points
    assert got == pytest.approx({"5348": 1.3, "2631": 0.1, "3446": 3 + 1.3})  # 17 -> 4: a Soviet substantive win
    objs[1].holder = "soviet"  # 16 points: Minsk is gone, every point decides
    got = policy.hold_stakes(sit)
    assert got["5348"] == pytest.approx(1.3) and "2631" not in got
    sit.player = "soviet"  # the side the table does not count holds nothing for it
    assert policy.hold_stakes(sit) == {}


def test_last_hold_is_the_search_s_and_a_study_setting():
    """On in the search (its last assaults weigh the verdict; the last 2 game turns), off
    with ``last_hold=0``; the
    planner's last turn is the plan's (``verdict_assault`` off: no hold is planned)."""
    assert parse_params("last_hold=1") == {"last_hold": "1"}
    with pytest.raises(InputError, match="last_hold takes a number"):
        parse_params("last_hold=yes")
    g = Game.new("europa-barbarossa", seed=0)
    search = make_bot("mcts", Seat.of(g, "axis", 0)).policy  # type: ignore[attr-defined]
    assert search.verdict_assault and search.last_hold == 2
    assert make_bot("mcts@last_hold=0", Seat.of(g, "axis", 0)).policy.last_hold == 0  # type: ignore[attr-defined]
    assert not make_bot("planner", Seat.of(g, "axis", 0)).policy.verdict_assault  # type: ignore[attr-defined]


def test_an_empty_objective_is_held_against_the_tanks_that_can_reach_it():
    """Odessa held with nobody in it (seed 11545: a Soviet tank corps entered it from 13
    hexes off in the last turn): a tank corps 15 hexes off (its movement and exploitation
    phases, EMPTY_REACH) draws a unit to it, an infantry corps there does not, nor does a
    tank corps 25 off."""
    assert ed.EMPTY_REACH == (8, 20)
    g = Grid(w=30, h=3, cities=((2, 1),))
    odessa = g.index_of_label(lab(2, 1))
    mine = {"a": unit("axis", (4, 1), attack=6, defense=7)}
    for others, moved in (([unit("soviet", (17, 1), kind="armor", attack=9)], True),
                          ([unit("soviet", (17, 1), attack=4)], False),
                          ([unit("soviet", (27, 1), kind="armor", attack=9)], False)):
        planned, _holding = ed.hold_plan(Sit(g, mine, others), g, _moves(g, mine, 3),
                                         {odessa: 0.2}, _enemy(g, others))
        assert [str(c.args["to"]) for _s, c in planned] == ([lab(2, 1)] if moved else [])


@pytest.mark.parametrize(("spec", "held"), [
    ("mcts", {(12, "exploitation"), (13, "exploitation"), (13, "movement")}),
    ("mcts@last_hold=1", {(13, "exploitation"), (13, "movement")}),
    ("mcts@last_hold=3", {(11, "exploitation"), (12, "exploitation"), (13, "exploitation"),
                          (13, "movement")}),
])
def test_the_hold_is_planned_in_the_last_turns_exploitation_phases(spec, held, monkeypatch):
    """europa-barbarossa's last game turn is 13 (Dec II 1941): the hold is planned in its
    movement phase (after the last assault) and in the exploitation phases of the last N
    game turns, never in an earlier movement phase (the plan's own assaults)."""
    g = Game.new("europa-barbarossa", seed=0)
    bot = make_bot(spec, Seat.of(g, "axis", 0))
    policy = bot.policy  # type: ignore[attr-defined]
    assert policy.scenario_last(bot.seat.context) == 13
    below = next(c for c in type(policy).__mro__[1:] if "plan" in c.__dict__)
    monkeypatch.setattr(below, "plan", lambda *_a: None)  # the plan's own moves: not here
    seen: set[tuple[int, str]] = set()
    for turn in range(9, 14):
        for phase in ("movement", "combat", "exploitation"):
            sit = SimpleNamespace(view={"turn": turn}, context=bot.seat.context, player="axis")
            policy._phase_name = lambda _sit, phase=phase: phase
            policy.last_moves = lambda _sit, _a, turn=turn, phase=phase: (
                seen.add((turn, phase)), [])[1]
            policy.last_hold_moves = policy.last_moves
            policy.defending = False
            policy.plan(sit, None, "move")  # type: ignore[arg-type]
    assert seen == held
