"""Strategic warfare in the engine (issue 12 "Also"): SW factor purchases (TR-80/TR-31), the
U-boat v ASW round (TR-79, TR-82) and the bomber v interceptor round (TR-79, TR-81), the hits
posted exactly to the ledger (TR-08/TR-13)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grognard.core.errors import IllegalOrder
from grognard.engine import Command, Game
from grognard.engine.events import Event
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.engine.testing import assert_rejected
from grognard.third_reich.economy.economy import Economy, at_turn, new_campaign
from grognard.third_reich.strategic.orders.sw_uboats import SwUboatsArgs, uboat_target
from grognard.third_reich.strategic.strategic_warfare import sw_round
from grognard.third_reich.strategic.sw_boxes import (
    fold_sw_round_fought,
    initial_sw_boxes,
    sw_year_start,
    uboat_defense,
)

BOXES = ('sw_boxes = { germany = { subs = 6, interceptors = 4 }, uk = { asw = 4, bombers = 5 }, '
         'us = { asw = 2, bombers = 3 } }\n')


def C(kind, player, **args):
    return Command(kind, player, args)


def econ(g: Game) -> Economy:
    return Economy.from_json(g.state["economy"])


@pytest.fixture(scope="module")
def spring_1944() -> Game:
    """tr-1944 with SW boxes on both sides, after the 1944 Year Start."""
    text = load_scenario("tr-1944").text.replace("[third_reich]\n", "[third_reich]\n" + BOXES, 1)
    g = Game(parse_scenario(text, "tr-1944-sw.toml"))
    g.apply(C("year_start", "axis"))
    return g


def end_until(g: Game, phase: str, player: str) -> None:
    while not (g.phase.name == phase and g.phase.player == player):
        g.apply(C("end_phase", g.phase.player))


def _round(g: Game) -> dict:
    (ev,) = g.events[-1]
    assert ev.type == "sw_round_fought"
    return dict(ev.data)


def test_tr82_start_boxes_and_scenario_boxes():
    assert initial_sw_boxes()["germany"] == {"subs": 3, "interceptors": 0}
    assert initial_sw_boxes()["uk"]["asw"] == 0
    with pytest.raises(Exception, match="subs"):
        initial_sw_boxes({"uk": {"subs": 2}})


def test_tr08_no_uboat_round_before_spring_1940():
    state = {"turn": 2, "power_sides": {"germany": "axis", "uk": "allies"}, "sw_fought": {},
             "economy": at_turn(new_campaign(), 2).to_json(), "sw_boxes": initial_sw_boxes()}
    with pytest.raises(IllegalOrder, match="TR-08"):
        uboat_target(state, C("sw_uboats", "axis", target="uk"), SwUboatsArgs("uk"))


def test_tr82_second_happy_time_no_asw_and_plus_one_against_the_us():
    boxes = initial_sw_boxes({"uk": {"asw": 5}, "us": {"asw": 4}})
    assert uboat_defense({"turn": 13, "sw_boxes": boxes}, "us") == (0, 1)  # Spring 1942
    assert uboat_defense({"turn": 13, "sw_boxes": boxes}, "uk") == (5, 0)
    assert uboat_defense({"turn": 14, "sw_boxes": boxes}, "us") == (4, 0)  # Summer I 1942: normal


def test_tr80_sw_build_within_the_year_limit(spring_1944):
    g = spring_1944
    end_until(g, "build", "axis")
    e = econ(g)
    limit = e.balance("germany.sw_limit.subs")
    offered = sorted(c.args["factors"] for c in g.legal("axis", "sw_build")
                     if c.args["category"] == "subs")
    assert offered == list(range(1, int(limit // 3) + 1))
    brp = e.brp("germany")
    g.apply(C("sw_build", "axis", power="germany", category="subs", factors=2))
    assert econ(g).brp("germany") == brp - 6  # TR-31: 3 BRPs a factor
    assert econ(g).balance("germany.sw_spent.subs") == 6
    assert g.state["sw_boxes"]["germany"]["subs"] == 8
    left = int((limit - 6) // 3)
    assert_rejected(g, C("sw_build", "axis", power="germany", category="subs", factors=left + 1),
                    "TR-80")
    assert_rejected(g, C("sw_build", "axis", power="germany", category="asw", factors=1), "TR-80")


def test_tr79_uboat_round_every_die_in_the_event_and_hits_on_the_tally(spring_1944):
    g = spring_1944
    end_until(g, "strategic_warfare", "axis")
    assert {c.args["target"] for c in g.legal("axis", "sw_uboats")} == {"uk", "us"}
    subs, asw = g.state["sw_boxes"]["germany"]["subs"], g.state["sw_boxes"]["uk"]["asw"]
    tally = econ(g).balance("uk.sw_base_hits")
    brp = econ(g).brp("uk")
    g.apply(C("sw_uboats", "axis", target="uk"))
    d = _round(g)
    r1, r2, r3 = d["round"]["rolls"]
    expect = sw_round("subs", subs, asw, r1, r2, r3).to_json()
    assert d["round"] == expect and r1 is not None and r2 is not None
    assert g.state["sw_boxes"]["germany"]["subs"] == subs - expect["sub_losses"]
    assert g.state["sw_boxes"]["uk"]["asw"] == asw - expect["asw_losses"]
    # TR-13: 1944 hits come off the base at the next Year Start, not off the pool now
    assert econ(g).balance("uk.sw_base_hits") == tally + expect["hits"]
    assert econ(g).brp("uk") == brp
    assert_rejected(g, C("sw_uboats", "axis", target="us"), "TR-79")  # once a game turn


def test_tr79_tr81_bombing_round_losses_first_as_the_owner_says(spring_1944):
    g = spring_1944
    end_until(g, "strategic_warfare", "allies")
    firsts = {c.args["losses_first"] for c in g.legal("allies", "sw_bombing")}
    assert firsts == {"uk", "us"}
    b = {p: g.state["sw_boxes"][p]["bombers"] for p in ("uk", "us")}
    icp = g.state["sw_boxes"]["germany"]["interceptors"]
    hits_before = econ(g).balance("germany.sw_hits")
    g.apply(C("sw_bombing", "allies", losses_first="us"))
    d = _round(g)
    expect = sw_round("bombers", b["uk"] + b["us"], icp, *d["round"]["rolls"]).to_json()
    assert d["round"] == expect
    lost = expect["bomber_losses"]
    assert g.state["sw_boxes"]["us"]["bombers"] == b["us"] - min(lost, b["us"])
    assert g.state["sw_boxes"]["uk"]["bombers"] == b["uk"] - max(0, lost - b["us"])
    conv = d["record"]["air_conversions"]
    assert g.state["sw_boxes"]["germany"]["interceptors"] == \
        icp - expect["interceptor_losses"] + 5 * conv
    assert econ(g).balance("germany.sw_hits") == hits_before + expect["hits"]
    assert_rejected(g, C("sw_bombing", "allies", losses_first="uk"), "TR-79")
    assert_rejected(g, C("sw_uboats", "allies", target="uk"), "TR-79|not allowed|phase")


def test_tr81_forced_fleet_conversion_puts_9_asw_in_the_box():
    state = {"sw_boxes": initial_sw_boxes({"uk": {"asw": 2}})}
    ev = Event("year_started", {"record": {"powers": [
        {"power": "uk", "fleet_conversion": True}, {"power": "us", "fleet_conversion": False}]}})
    s = sw_year_start(state, ev)
    assert s["sw_boxes"]["uk"]["asw"] == 11 and s["sw_boxes"]["us"]["asw"] == 0


def test_tr08_1945_hits_come_off_the_pool_at_once():
    """The fold posts through record_sw_hits: from 1945 the BRPs go at once (exact)."""
    e = at_turn(new_campaign(), 28)  # Spring 1945
    state = {"turn": 28, "economy": e.to_json(), "sw_boxes": initial_sw_boxes(), "sw_fought": {}}
    rnd = sw_round("subs", 3, 0, roll_economy=10).to_json()
    ev = Event("sw_round_fought", {"kind": "subs", "target": "uk", "round": rnd,
                                   "losses": {"germany": {"subs": 0}, "uk": {"asw": 0}}})
    s = fold_sw_round_fought(state, ev)
    after = Economy.from_json(s["economy"])
    assert rnd["hits"] > 0
    assert after.brp("uk") == e.brp("uk") - Fraction(rnd["hits"])
    assert s["sw_fought"] == {"subs": 28}
