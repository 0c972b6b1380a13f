"""Issue 25 (Europa, session 21): the planner's Soviets raid the empty objectives the Axis holds.

The lead of session 21: main's one-unit walks into the empty western objectives the Axis
holds (Kiev, Odessa, the Smolensk line, Minsk, Riga) drew heuristic Axis units back to them
in the autumn, and a hex is held by the side whose ground unit entered it last, so what is
retaken and kept takes points off the Axis. The plan's ``raid`` (a game turn,
``planner@raid=T``; 0: never; the shipped plan 9, Oct II, since its held-out run on 7600-7799): from that turn on, before the last turn, an
empty objective the enemy holds that traces to our sources is retaken by a stack of
``RAID_STACK`` units, not one, and one that no longer traces (which main's Soviets leave
alone) is entered by a free unit that can move in this phase - a mechanized one first, then
the weakest defender.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from tests.bots.europa_boards import lab
from tests.bots.test_europa_defence import Grid, Sit, obj, reach, unit

from grognard.bots import europa_defence as ed
from grognard.bots import europa_offence as off
from grognard.bots.heuristic import DefencePlan
from grognard.bots.planner import parse_params
from grognard.bots.planner_plans import plan_for
from grognard.core.errors import InputError
from grognard.engine.commands import Command

KIEV, MINSK = (6, 3), (2, 3)
SOURCE = lab(8, 0)


@dataclass
class TurnSit(Sit):
    """The bot's view carries the game turn (``raid`` reads it)."""

    view: dict[str, Any] = field(default_factory=dict)


def _wants(turn: int, raid: int, last_turn: bool = False) -> dict[str, int]:
    """The wants for an empty Kiev the Axis holds (in trace), its infantry 4 hexes west."""
    g = Grid(w=17, h=7, cities=(KIEV,))
    others = [unit("axis", (2, y), attack=6) for y in (2, 4)]
    sit = TurnSit(g, {}, others, "soviet", view={"turn": turn})
    enemy = [(g.index_of_label(str(u["hex"])), u) for u in others]
    want, _ring = ed.fortress_wants(
        sit, g, [obj(KIEV, "Kiev", 3, "axis")], set(), enemy,  # type: ignore[arg-type]
        [True] * (g.w * g.h), set(range(g.w * g.h)), last_turn=last_turn, raid=raid)
    return {g.label(i): n for i, n in want.items()}


def test_an_empty_objective_is_retaken_by_a_stack_from_the_raid_turn():
    """One unit retakes the empty Kiev without the setting and before its turn (turn 8,
    ``raid`` 9); two (RAID_STACK) from turn 9 on; on the last turn one again (nothing the
    enemy does may follow: the hex is ours once a unit enters it)."""
    kiev = lab(*KIEV)
    assert ed.RAID_STACK == 2
    assert _wants(9, 0)[kiev] == 1
    assert _wants(8, 9)[kiev] == 1
    assert _wants(9, 9)[kiev] == 2 == _wants(12, 6)[kiev]
    assert _wants(13, 6, last_turn=True)[kiev] == 1


def _raid(raid: int, turn: int = 10) -> dict[str, str]:
    """Minsk (worth 1) empty, the Axis's, cut off from our source (not in ``safe``); a rifle
    corps (defense 5) and a tank corps (defense 6) 3-4 hexes east of it, an Axis infantry
    stack of defense 12 five hexes off (no counter-attack target). What the counter-attacks
    place."""
    g = Grid(w=17, h=7, cities=(MINSK, KIEV))
    mine = {"rifle": unit("soviet", (5, 3), defense=5),
            "tank": unit("soviet", (5, 4), kind="armor", defense=6)}
    enemy = unit("axis", (0, 0), attack=6, defense=12)
    sit = TurnSit(g, mine, [enemy], "soviet", view={"turn": turn})
    idx = g.index_of_label
    sit.memo("victory.objectives", lambda: [obj(MINSK, "Minsk", 1, "axis")])
    pic = off.Picture.of(sit, g, [SOURCE], [lab(0, 6)])  # type: ignore[arg-type]
    moves = {uid: {idx(lab(*h)): Command("move", "soviet", {"unit": uid, "to": lab(*h)})
                   for h in reach((int(u["hex"][:2]), int(u["hex"][2:])), 4)}
             for uid, u in mine.items()}
    at = {uid: idx(str(u["hex"])) for uid, u in mine.items()}
    safe = {i for i in range(g.w * g.h) if int(g.label(i)[:2]) >= 4}  # Minsk cut off
    plan = DefencePlan(sit, g, {}, safe, {}, {}, {}, set())  # type: ignore[arg-type]
    out = ed.counter_attacks(sit, g, pic, moves, sorted(mine), at, safe, plan,  # type: ignore[arg-type]
                             {idx(lab(*MINSK))}, raid=raid)
    return {uid: g.label(j) for _t, chosen in out for uid, j in chosen.items()}


def test_a_raid_enters_an_empty_objective_out_of_trace_with_the_mobile_unit():
    """Without the setting (main's Soviets) the cut-off Minsk draws no unit; with ``raid``
    10 from turn 10 the tank corps moves in (mechanized first, though the weaker rifle
    corps reaches it too); before the raid turn nothing."""
    assert _raid(0) == {}
    assert _raid(10, turn=9) == {}
    assert _raid(10) == {"tank": lab(*MINSK)}


def test_the_plan_reads_raid_as_a_turn_on_from_oct_ii():
    """The shipped plan raids from game turn 9, Oct II (on since the held-out run on
    7600-7799, docs/AI.md session 21); ``planner@raid=0`` turns it off, ``raid=6`` moves it;
    a value that is no whole number is refused naming the key."""
    assert plan_for("europa-barbarossa", {})["soviet"]["raid"] == 9
    assert plan_for("europa-barbarossa", parse_params("raid=0"))["soviet"]["raid"] == 0
    assert plan_for("europa-barbarossa", parse_params("raid=6"))["soviet"]["raid"] == 6
    with pytest.raises(InputError, match="raid"):
        parse_params("raid=Oct")
