"""TR-81 forced conversions in the engine (issue 12 "Also"): the unit the conversion takes
leaves the map and the force pool, chosen by its owner as a decision."""

from __future__ import annotations

import pytest

from grognard.engine import Command, Game
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.engine.testing import assert_rejected, assert_replays
from grognard.third_reich.economy.orders.build_unit import buildable

BOXES = ('sw_boxes = { germany = { subs = 40, interceptors = 0 }, uk = { asw = 0, bombers = 60 },'
         ' us = { asw = 0, bombers = 40 } }\n')


def C(kind, player, **args):
    return Command(kind, player, args)


def end_until(g: Game, phase: str, player: str) -> None:
    while not (g.phase.name == phase and g.phase.player == player):
        g.apply(C("end_phase", g.phase.player))


@pytest.fixture(scope="module")
def bombed() -> Game:
    """tr-1944, Spring 1944: a U-boat round of 32 BRP hits on the UK, then a bomber round of 60
    hits on Germany (4 multiples of 15; dice seed 4)."""
    text = load_scenario("tr-1944").text.replace("[third_reich]\n", "[third_reich]\n" + BOXES, 1)
    g = Game(parse_scenario(text, "tr-1944-sw.toml"), 4)
    g.apply(C("year_start", "axis"))
    end_until(g, "strategic_warfare", "axis")
    g.apply(C("sw_uboats", "axis", target="uk"))
    assert g.events[-1][0].data["round"]["hits"] == 32
    end_until(g, "strategic_warfare", "allies")
    g.apply(C("sw_bombing", "allies", losses_first="uk"))
    assert g.events[-1][0].data["record"]["air_conversions"] == 4
    return g


def _air5(g: Game) -> list[str]:
    return sorted(uid for uid, u in g.state["units"].items()
                  if u["power"] == "germany" and u["type"] == "air" and u["attack"] == 5)


def test_tr81_bomber_conversions_remove_germanys_5_factor_air_fleets(bombed):
    """TR-81: "Remove 1 5-4 from the map and place 5 new Interceptor factors in their strategic
    warfare box instead" every 15 bomber hits; the German player chooses which, at once, from
    the map while one is there (3 on the map, 2 in the force pool, 4 conversions)."""
    g = bombed
    air = _air5(g)
    on_map = sorted(uid for uid in air if g.state["units"][uid]["hex"] is not None)
    assert len(air) == 5 and len(on_map) == 3
    assert g.state["sw_boxes"]["germany"]["interceptors"] == 20
    assert g.state["sw_conversions"] == {"germany": 4}
    assert [(d.player, d.kinds, d.rule) for d in g.decisions()] == \
        [("axis", frozenset({"sw_convert"}), "TR-81")]
    assert_rejected(g, C("end_phase", "allies"), "")
    assert_rejected(g, C("sw_convert", "axis", unit="ger-nav28"), "TR-81")
    assert_rejected(g, C("sw_convert", "axis", unit="ger-air37"), "TR-81.*from the map")
    assert_rejected(g, C("sw_convert", "allies", unit="uk-nav49"), "")
    for uid in on_map:
        assert {c.args["unit"] for c in g.legal("axis", "sw_convert")} == \
            {x for x in on_map if g.state["units"][x]["status"] != "converted"}
        g.apply(C("sw_convert", "axis", unit=uid))
        u = g.state["units"][uid]
        assert (u["status"], u["hex"], u["box"]) == ("converted", None, "strategic_warfare")
        assert not buildable(g.state, uid)  # "the German build pool ... permanently smaller"
    assert {c.args["unit"] for c in g.legal("axis", "sw_convert")} == {"ger-air37", "ger-air38"}
    g.apply(C("sw_convert", "axis", unit="ger-air38"))
    assert g.decisions() == [] and g.state["sw_conversions"] == {"germany": 0}
    assert_rejected(g, C("sw_convert", "axis", unit="ger-air37"), "TR-81|may not act")
    assert buildable(g.state, "ger-air37")
    assert_replays(g)


def test_tr81_uboat_conversion_removes_one_fleet_of_the_economy_hit(bombed):
    """TR-81: 25+ BRPs lost to U-boats in 1944: at the 1945 Year Start "remove one 9 factor
    British ... fleet from the map and their force pool" (the economy actually hit: the UK)."""
    g = bombed
    while g.decisions():
        g.apply(g.legal(g.decisions()[0].player, "sw_convert")[0])
    while g.state["turn"] < 28:  # Spring 1945
        g.apply(C("end_phase", g.phase.player))
    g.apply(C("year_start", "axis"))
    assert g.state["sw_conversions"]["uk"] == 1 and "us" not in g.state["sw_conversions"]
    assert [(d.player, d.rule) for d in g.decisions()] == [("allies", "TR-81")]
    fleets = {c.args["unit"] for c in g.legal("allies", "sw_convert")}
    assert fleets == {uid for uid, u in g.state["units"].items()
                      if u["power"] == "uk" and u["type"] == "naval" and u["attack"] == 9
                      and u["hex"] is not None}
    assert_rejected(g, C("sw_convert", "allies", unit="us-nav67"), "TR-81")
    uid = sorted(fleets)[0]
    g.apply(C("sw_convert", "allies", unit=uid))
    assert g.state["units"][uid]["status"] == "converted" and g.decisions() == []
