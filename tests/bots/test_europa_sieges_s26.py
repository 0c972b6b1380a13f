"""Issue 25, session 26: how many cities the Europa attacker besieges at once - the plan's
``sieges`` (``planner@sieges=N``), passed to :func:`europa_offence.siege_plan`: with three
garrisoned cities in reach, the plan besieges the most valuable ``sieges`` of them."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import pytest
from tests.bots.europa_boards import Board, Sit, lab

from grognard.bots import europa_offence as off
from grognard.bots.base import Seat
from grognard.bots.catalog import make_bot
from grognard.bots.planner import parse_params
from grognard.bots.planner_plans import plan_for
from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.engine.game import Game

W, H = 11, 3
CITIES = ((1, 1), (5, 1), (9, 1))  # worth 6, 5 and 3


@dataclass
class Row(Board):
    """Three cities in a row of land, four hexes apart."""

    w: int = W
    h: int = H
    cities: Collection[tuple[int, int]] = CITIES


def unit(side: str, at: tuple[int, int], attack: int = 6, defense: int = 5) -> dict[str, Any]:
    return {"side": side, "type": "infantry", "attack": attack, "defense": defense,
            "hex": lab(*at), "zoc_class": 2, "re_size": 3}


def besieged(sieges: int) -> list[tuple[int, int]]:
    g = Row()
    garrisons = [unit("soviet", c) for c in CITIES]
    # one Axis foot unit above each city, free to move to the hex beside it
    mine = {f"a{k}": unit("axis", (x, 0), attack=20) for k, (x, _y) in enumerate(CITIES)}
    sit = Sit(g, mine, garrisons)
    pic = off.Picture.of(sit, g, [lab(0, 0)], [lab(*c) for c in CITIES])  # type: ignore[arg-type]
    moves = {uid: {g.index_of_label(lab(x, 0)): Command("move", "axis",
                                                        {"unit": uid, "to": lab(x, 0)})}
             for uid, (x, _y) in zip(mine, CITIES, strict=True)}
    cities = [(g.index_of_label(lab(*c)), w) for c, w in zip(CITIES, (6.0, 5.0, 3.0),
                                                              strict=True)]
    _out, _committed, got = off.siege_plan(pic, moves, cities, (), sieges)
    return [(i % W, i // W) for i in got]


def test_the_plan_besieges_the_most_valuable_sieges_cities_at_once():
    assert off.SIEGES == 2  # the heuristic's
    assert besieged(2) == [CITIES[0], CITIES[1]]
    assert besieged(3) == list(CITIES)
    assert besieged(1) == [CITIES[0]]


def test_sieges_is_plan_data_a_study_varies():
    shipped = plan_for("europa-barbarossa", {})
    assert plan_for("europa-barbarossa", {"sieges": "4"})["axis"]["sieges"] == 4
    assert "sieges" not in plan_for("tr-1939-campaign", {"sieges": "4"})["axis"]
    assert parse_params("sieges=4") == {"sieges": "4"}
    with pytest.raises(InputError, match="sieges takes a number"):
        parse_params("sieges=many")
    g = Game.new("europa-barbarossa", seed=0)
    for n in (1, 4):
        bot = make_bot(f"planner@sieges={n}", Seat.of(g, "axis", 0))
        assert bot.policy.siege_count(None) == n  # type: ignore[attr-defined]
    bot = make_bot("planner", Seat.of(g, "axis", 0))
    assert bot.policy.siege_count(None) == shipped["axis"]["sieges"]  # type: ignore[attr-defined]
    heuristic = make_bot("heuristic", Seat.of(g, "axis", 0))
    assert heuristic.policy.siege_count(None) == off.SIEGES  # type: ignore[attr-defined]
