"""Issue 25 (Europa, session 20): the planner's Soviets give up the western cities.

The lead of session 20: "the 9" western points (Kiev 3, Odessa 2, the Smolensk line 2, Minsk 1,
Riga 1) are the Axis's in about 90% of games, and the units the Soviets feed to them die there
in pockets; the verdict turns on Moscow, Leningrad and Kharkov. The plan's ``yield_west`` (a
game turn, ``planner@yield_west=T``; 0, the shipped plan: never): from that turn on, before
the last turn, an objective that is no fortress wants no garrison and is not retaken - its
units keep to the line and the march on the fortresses. The fortresses (held, or named by the
plan while the enemy holds them) and the last turn's assault are untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from tests.bots.europa_boards import lab
from tests.bots.test_europa_defence import Grid, Sit, obj, unit

from grognard.bots import europa_defence as ed
from grognard.bots.planner import parse_params
from grognard.bots.planner_plans import plan_for
from grognard.core.errors import InputError

KIEV, MOSCOW = (6, 3), (14, 3)


@dataclass
class TurnSit(Sit):
    """The bot's view carries the game turn (``yields`` reads it)."""

    view: dict[str, Any] = field(default_factory=dict)


def _wants(turn: int, yield_west: int | None, kiev_holder: str = "soviet",
           moscow_holder: str = "soviet", last_turn: bool = False) -> dict[str, int]:
    """The wants with three Axis infantry of 6 four hexes west of Kiev (a garrison of one,
    as in test_europa_defence) and Moscow 8 hexes east of Kiev."""
    g = Grid(w=17, h=7, cities=(KIEV, MOSCOW))
    others = [unit("axis", (2, y), attack=6) for y in (2, 3, 4)]
    sit = TurnSit(g, {}, others, "soviet", view={"turn": turn})
    enemy = [(g.index_of_label(str(u["hex"])), u) for u in others]
    objectives = [obj(KIEV, "Kiev", 3, kiev_holder), obj(MOSCOW, "Moscow", 6, moscow_holder)]
    held = {lab(*MOSCOW)} if moscow_holder == "soviet" else set()
    want, _ring = ed.fortress_wants(
        sit, g, objectives, held, enemy, [True] * (g.w * g.h),  # type: ignore[arg-type]
        set(range(g.w * g.h)), last_turn=last_turn, yield_west=yield_west,
        fortress_names=("Moscow",))
    return {g.label(i): n for i, n in want.items()}


def test_a_western_city_yielded_from_the_plans_turn_wants_no_garrison():
    """Kiev (no fortress) under a threat that wants one unit: garrisoned without the setting
    and before its turn (turn 5, ``yield_west`` 6); from turn 6 on no garrison. Moscow (a
    fortress) keeps its full stack of 3 whatever the setting."""
    kiev, moscow = lab(*KIEV), lab(*MOSCOW)
    assert _wants(6, None)[kiev] == 1
    assert _wants(5, 6)[kiev] == 1
    assert kiev not in _wants(6, 6) and kiev not in _wants(9, 1)
    assert _wants(6, 6)[moscow] == 3 == _wants(6, None)[moscow]


def test_a_yielded_city_is_not_retaken_but_a_fortress_is():
    """An empty Kiev the Axis holds is retaken (one unit) without the setting, not with it;
    an empty Moscow the Axis holds is still wanted back (the plan names it a fortress); on
    the last turn the yielded Kiev is wanted back again (the last assault's retaking)."""
    kiev, moscow = lab(*KIEV), lab(*MOSCOW)
    assert _wants(8, None, kiev_holder="axis")[kiev] == 1
    assert kiev not in _wants(8, 1, kiev_holder="axis")
    assert _wants(8, 1, kiev_holder="axis", moscow_holder="axis")[moscow] == 1
    assert _wants(13, 1, kiev_holder="axis", last_turn=True)[kiev] == 1


def test_the_plan_reads_yield_west_as_a_turn_off_by_default():
    """``planner@yield_west=6`` -> the Soviet plan's ``yield_west`` 6; the shipped plan has 0
    (off: main's games); a value that is no whole number is refused naming the key."""
    assert plan_for("europa-barbarossa", {})["soviet"]["yield_west"] == 0
    plan = plan_for("europa-barbarossa", parse_params("reach=Leningrad:20@yield_west=6"))
    assert plan["soviet"]["yield_west"] == 6 and plan["soviet"]["reach"] == {"Leningrad": 20}
    with pytest.raises(InputError, match="yield_west"):
        parse_params("yield_west=Sep")
