"""Issue 25, item 1 (session 15): the 3R planner's desert war. Once Paris is held, four German
units go by rail (TR-66) to Taranto, Italy's fleets sail there (TR-70) and carry them to
Tripoli (TR-57: a 9-factor fleet carries 4 factors) - Libya's ports and Naples were missing
from the sea-zone table - and they drive on Egypt's victory locations (TR-04). The Allies keep
a garrison in each. Item 2: the Western Allies ship lend lease by Murmansk (TR-15/TR-17) from
the first Spring the USSR is at war. Seeded games: the referee judges every step."""

from __future__ import annotations

from typing import Any

import pytest

from grognard.bots.base import Seat
from grognard.bots.catalog import make_bot
from grognard.bots.planner_plans import PLANS, plan_for
from grognard.bots.play import play_game
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.third_reich.air_naval.sea_zones import same_zone, sea_zones

TRIPOLI, TARANTO = "AI28", "Z32"
SPRING_1942 = 13


class _Logged:
    """A bot that notes each command it chooses with the game turn it is chosen in."""

    def __init__(self, bot: Any, log: list[tuple[int, Command]]) -> None:
        self.bot, self.log, self.name = bot, log, bot.name

    def choose(self, view: Any, actions: Any) -> Command:
        cmd = self.bot.choose(view, actions)
        self.log.append((actions.game.turn, cmd))
        return cmd


@pytest.fixture(scope="module")
def desert() -> tuple[Game, list[tuple[int, Command]]]:
    seed = 1
    g = Game.new("tr-1939-campaign", seed=seed)
    log: list[tuple[int, Command]] = []
    bots = {side: _Logged(make_bot("planner", Seat.of(g, side, seed)), log)
            for side in ("axis", "allies")}
    play_game(g, bots, seed=seed, max_turns=SPRING_1942)
    return g, log


def test_tr57_libyas_ports_and_naples_are_in_the_sea_zone_table() -> None:
    sea = sea_zones()
    for port in ("tripoli", "benghazi", "tobruk", "naples", "taranto"):
        assert "mediterranean" in sea.port(port).zones
    assert same_zone(sea, "taranto", "tripoli") == {"mediterranean"}


def test_desert_is_a_setting() -> None:
    assert PLANS["tr-1939-campaign"]["desert"]
    assert plan_for("tr-1939-campaign", {"desert_year": "1941"})["desert"] == "Spring 1941"
    assert plan_for("tr-1939-campaign", {"desert_year": "0"})["desert"] == ""  # off
    (stage,) = [s for s in plan_for("tr-1939-campaign", {})["axis"]["stages"]
                if s["name"] == "desert"]
    assert stage["start"] == "desert" and stage["to"][0] == "Tripoli"
    assert set(stage["goals"]) == {"Alexandria", "Cairo", "Suez"}
    allies = plan_for("tr-1939-campaign", {})["allies"]["garrisons"]
    assert all(allies.get(c) for c in ("Alexandria", "Cairo", "Suez"))


def test_tr57_tr70_german_units_reach_tripoli_on_italian_fleets(desert) -> None:
    g, log = desert
    rides = [(t, c) for t, c in log if c.kind == "naval_transport"]
    assert rides, "no naval transport"
    for _t, c in rides:
        assert c.args["to"] == TRIPOLI
        assert all(f.startswith("ita-") for f in c.args["fleets"])
        assert all(u.startswith("ger-") for u in c.args["units"])
        assert len(c.args["units"]) <= len(c.args["fleets"])  # one unit a fleet (4 factors)
    # the rules carried them: each was in Libya or Egypt after it
    carried = {u for _t, c in rides for u in c.args["units"]}
    events = [e.data for evs in g.events for e in evs if e.type == "naval_transported"]
    assert {u for d in events for u in d.get("units", [])} & carried
    # a fleet left in Tripoli (TR-57) sailed back to Taranto by its own SR (TR-70)
    back = [c for _t, c in log if c.kind == "sr" and c.args.get("kind") == "fleet"
            and c.args["unit"].startswith("ita-")]
    assert back and all(c.args["to"] == TARANTO for c in back)


def test_tr15_tr17_lend_lease_by_murmansk_from_spring_1942(desert) -> None:
    """Barbarossa in Summer I 1941: the first Spring with the USSR at war is 1942's, when the
    UK and the US each ship 20 BRPs (TR-19: one counter each)."""
    _g, log = desert
    ships = sorted((t, c.args["sender"]) for t, c in log if c.kind == "murmansk_ship")
    assert ships == [(SPRING_1942, "uk"), (SPRING_1942, "us")]
