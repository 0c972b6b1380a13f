"""third_reich system: SR by sea with interception (TR-69) and fleet SR (TR-70) through
``Game`` (scenario ``tr-1939-sea``: tr-1939-support plus a British air unit at Harwich, so the
North Sea ports Kiel F6 and Wilhelmshaven F5 are contested air zones)."""

from __future__ import annotations

import pytest

from grognard.engine import Command, Game
from grognard.engine.save import dumps, loads
from grognard.engine.testing import assert_rejected
from grognard.third_reich.air_naval.naval import InterceptionAttempt
from grognard.third_reich.air_naval.sea_zones import sea_zones
from grognard.third_reich.movement.sr import SeaSROrder, UnitClass, sr_budget
from grognard.third_reich.movement.sr_sea import ZoneInterception, resolve_sea_sr
from grognard.third_reich.play.testing import (
    assert_no_reaction,
    assert_reaction_rejected,
    play_order,
)
from grognard.third_reich.turn.forces import Fleet

SCENARIO = "tr-1939-sea"


def C(k, player, **args):
    return Command(k, player, args)


def at_sr(seed):
    g = Game.new(SCENARIO, seed=seed)
    while not (g.phase.name == "strategic_deployment" and g.phase.player == "axis"):
        g.apply(C("end_phase", g.phase.player))
    return g


def sea_sr(**extra):
    args = {"unit": "ge-inf5", "to": "F5", "kind": "sea", "escorts": {"north_sea": ["ge-fleet2"]}}
    return Command("sr", "axis", {**args, **extra})


def pure(ev):
    """The same SR through the pure rule function with the event's dice."""
    order = SeaSROrder("ge-inf5", UnitClass.GROUND, "germany", ("north_sea",), "kiel",
                       "wilhelmshaven", {"north_sea": (Fleet("ge-fleet2", 9),)})
    attempt = InterceptionAttempt("harwich", (Fleet("uk-fleet1", 9),), "north_sea", 3)
    rolls = {r["port"]: r["roll"] for r in ev["interception_rolls"]}
    return resolve_sea_sr(order, sea_zones(), [ZoneInterception("north_sea", (attempt,))],
                          rolls, iter(ev["combat_rolls"].get("north_sea", [])))


@pytest.mark.parametrize("seed", [1, 6])
def test_tr69_sea_sr_interception_matches_the_rule_function(seed):
    g = at_sr(seed)
    ev = play_order(g, sea_sr(interceptors={"north_sea": ["uk-fleet1"]}))[0]
    assert ev.type == "sea_sr_made"
    d = ev.data
    assert (d["power"], d["kind"], d["used"], d["budget"]) == ("germany", "sea", 1,
                                                               sr_budget("germany"))
    assert d["interception_rolls"][0]["range"] == 3
    assert d["rules"] == ["TR-59"]  # escorted by ge-fleet2: the escort rule took effect
    res = pure(d)
    assert d["status"] == res.record.status.value
    assert d["escort_factors"] == dict(res.record.escort_factors)
    assert d["interception_rolls"] == res.to_json()["interception_rolls"]
    hex_after = "F5" if d["status"] == "done" else "F6"
    assert g.state["units"]["ge-inf5"]["hex"] == hex_after
    assert g.state["sr"]["germany"]["units"] == {"ge-inf5": "sea"}
    assert g.state["fleet_ops"]["used"] == {"ge-fleet2": "sr_escort"}
    for f, lost in d["losses"].items():
        assert g.state["units"][f]["attack"] == 9 - lost
    again = loads(dumps(g))
    assert again.state_hash() == g.state_hash()


def test_tr69_seed1_escort_blocked_seed6_sr_done():
    assert play_order(at_sr(1), sea_sr(interceptors={"north_sea": ["uk-fleet1"]}))[0] \
        .data["status"] == "blocked"
    g = at_sr(6)
    d = play_order(g, sea_sr(interceptors={"north_sea": ["uk-fleet1"]}))[0].data
    assert d["status"] == "done" and d["interception_rolls"][0]["intercepted"] is False
    assert d["combat_rolls"] == {} and d["losses"] == {}


def test_tr69_uninterrupted_sea_sr_rolls_no_dice():
    g = at_sr(3)
    d = play_order(g, sea_sr())[0].data
    assert d["status"] == "done" and d["interception_rolls"] == []
    assert g.state["units"]["ge-inf5"]["hex"] == "F5"


def test_tr69_sea_sr_orders_checked():
    g = at_sr(3)
    assert_rejected(g, C("sr", "axis", unit="ge-inf5", to="F5", kind="sea"), "TR-69.*escort")
    assert_rejected(g, C("sr", "axis", unit="ge-inf2", to="F5", kind="sea",
                        escorts={"north_sea": ["ge-fleet2"]}), "TR-69.*origin")
    assert_rejected(g, sea_sr(to="E7"), "TR-69.*destination")
    assert_rejected(g, sea_sr(to="F2"), "TR-67.*controls")
    assert_rejected(g, sea_sr(interceptors={"north_sea": ["uk-fleet1"]}), "TR-69.*defender's")
    assert_reaction_rejected(g, sea_sr(interceptors={"north_sea": ["ge-fleet1"]}), "TR-55")
    assert_rejected(g, C("sr", "axis", unit="ge-inf5", to="F5", kind="sea",
                        escorts={"north_sea": ["ge-fleet1"]}), "TR-69.*port of zone")


def test_tr60_no_interception_in_the_phasing_uncontested_air_zone():
    g = Game.new("tr-1939-support", seed=3)
    while not (g.phase.name == "strategic_deployment" and g.phase.player == "axis"):
        g.apply(C("end_phase", g.phase.player))
    assert_no_reaction(g, sea_sr(interceptors={"north_sea": ["uk-fleet1"]}))  # TR-60
    assert_rejected(g, C("intercept", "allies", interceptors={"north_sea": ["uk-fleet1"]}),
                    "may not act")


def test_tr70_fleet_sr_port_to_port_spends_an_sr_action():
    g = at_sr(3)
    ev = play_order(g, C("sr", "axis", unit="ge-fleet2", to="F5", kind="fleet"))[0]
    assert ev.type == "sr_made"
    assert ev.data["kind"] == "fleet" and ev.data["used"] == 1
    assert ev.data["rules"] == ["TR-70"]  # the event names the rule (FEATURES "in play")
    assert g.state["units"]["ge-fleet2"]["hex"] == "F5"
    assert_rejected(g, C("sr", "axis", unit="ge-fleet1", to="F6", kind="fleet"),
                   "TR-70.*not a port")
    assert_rejected(g, C("sr", "axis", unit="ge-fleet2", to="F2", kind="fleet"),
                   "TR-70.*friendly")
    assert_rejected(g, C("sr", "axis", unit="ge-inf5", to="F5", kind="fleet"),
                   "TR-70.*not a fleet")
    again = loads(dumps(g))
    assert again.state_hash() == g.state_hash()
