"""third_reich system: TR-53 the airborne air-landing SR through ``Game``
(scenario ``tr-1939-support``: ge-para1 in Berlin C7; Breslau E7, Wilhelmshaven F5 German)."""

from __future__ import annotations

from grognard.engine import Command, Game
from grognard.engine.save import dumps, loads
from grognard.engine.testing import assert_rejected
from grognard.third_reich.board import ground_unit_of
from grognard.third_reich.combat.airborne import airborne_sr
from grognard.third_reich.movement.sr import sr_budget
from grognard.third_reich.state import based_air


def C(k, player, **args):
    return Command(k, player, args)


def at_sr(seed=3):
    g = Game.new("tr-1939-support", seed=seed)
    while not (g.phase.name == "strategic_deployment" and g.phase.player == "axis"):
        g.apply(C("end_phase", g.phase.player))
    return g


def landing(**args):
    return Command("sr", "axis", {"unit": "ge-para1", "kind": "air_landing", **args})


def test_tr53_air_landing_sr_two_links_matches_the_rule_function():
    g = at_sr()
    m = g.context.scenario.map
    unit = ground_unit_of("ge-para1", g.state["units"]["ge-para1"], "axis")
    stops = [m.layout.from_label(x) for x in ("C7", "E7", "F5")]
    bases = {h: True for h in stops}
    pure = airborne_sr(unit, stops, bases, based_air(g.context, g.state))
    (ev,) = g.apply(landing(via="E7", to="F5"))
    assert ev.type == "sr_made"
    assert ev.data == {"side": "axis", "unit": "ge-para1", "from": "C7", "to": "F5",
                       "path": ["E7", "F5"], "power": "germany", "kind": "air_landing",
                       "used": 1, "budget": sr_budget("germany"),
                       "links": list(pure.link_lengths), "rules": ["TR-53"]}
    assert g.state["units"]["ge-para1"]["hex"] == "F5"
    assert g.state["sr"]["germany"]["units"] == {"ge-para1": "land"}
    again = loads(dumps(g))
    assert again.state_hash() == g.state_hash()
    assert_rejected(g, landing(to="E7"), "TR-53.*already made its SR")


def test_tr53_air_landing_sr_orders_checked():
    g = at_sr()
    assert_rejected(g, landing(to="C11"), "TR-53.*not a friendly city")
    assert_rejected(g, landing(to="D6"), "TR-53.*not a friendly city")
    assert_rejected(g, Command("sr", "axis", {"unit": "ge-inf2", "kind": "air_landing",
                                             "to": "E7"}), "TR-53")
    assert_rejected(g, landing(to="E7", via="D6"), "TR-53")
    assert_rejected(g, Command("sr", "axis", {"unit": "ge-para1", "kind": "rail", "to": "E7"}),
                   "TR-66.*unknown SR kind")
