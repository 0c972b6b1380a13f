"""third_reich system: TR-40's optional withdrawal of units the hexes won would cut off
(scenario ``tr-1939-cutoff``: a one-hex French corridor B1-B7, the Germans on the isthmus C4
touching B3 and B4; seed 6 gives a D2H1 attrition result)."""

from __future__ import annotations

import pytest

from grognard.core.errors import GrognardError
from grognard.engine import Command, Game
from grognard.engine.save import dumps, loads
from grognard.engine.state import thaw
from grognard.engine.testing import assert_rejected
from grognard.third_reich.attritions import cut_off_units
from grognard.third_reich.board import forces_of_state
from grognard.third_reich.supply.supply_map import supply_check


def C(k, player, **args):
    return Command(k, player, args)


def taken_b3():
    g = Game.new("tr-1939-cutoff", seed=6)
    g.apply(C("declare_options", "axis", power="germany", options={"western": "attrition"}))
    while g.phase.name != "attrition":
        g.apply(C("end_phase", "axis"))
    (ev,) = g.apply(C("attrition", "axis", front="western"))
    assert ev.data["result"] == "D2H1" and ev.data["eliminated"] == []
    # TR-38: the Allies, taking the losses, choose the two units removed (issue 23)
    assert set(ev.data["losses_owed"]) == {"allies"} and ev.data["losses_owed"]["allies"]["n"] == 2
    assert [d.player for d in g.decisions()] == ["allies"]
    assert {"units": ["fr-inf1", "fr-inf2"]} in [c.args for c in g.legal("allies")]
    g.apply(C("remove_losses", "allies", units=["fr-inf1", "fr-inf2"]))
    g.apply(C("take_hexes", "axis", hexes=["B3"], advance={"B3": ["ge-inf1"]}))
    return g


def _out(g, state):
    forces = forces_of_state(g.context, state)
    return set(supply_check(g.context.scenario.map, forces, "allies", state["control"],
                            state["turn"],
                            unit_powers={u: state["units"][u]["power"] for u in forces.ids},
                            home_countries=g.context.scenario.home_countries).out_of_supply)


def test_tr40_cut_off_units_are_those_the_lost_hex_puts_out_of_supply():
    """Seed 002, Attrition: "Defenders ... may also withdraw any units that would be cut off
    by loss of these hexes"."""
    g = taken_b3()
    assert _out(g, g.state) == set()
    after = thaw(g.state)
    after["units"]["fr-arm2"]["hex"] = "B2"
    after["units"]["ge-inf1"]["hex"] = "B3"
    assert _out(g, after) == {"fr-arm1", "fr-inf3"}
    assert cut_off_units(g.context, g.state, {"fr-arm2": "B2"}) == ["fr-arm1", "fr-inf3"]


def test_tr40_defender_withdraws_a_cut_off_unit_one_hex():
    g = taken_b3()
    (ev,) = g.apply(C("withdraw", "allies", retreats={"fr-arm2": "B2"},
                      cut_off={"fr-arm1": "B5", "fr-inf3": "B7"}))
    assert ev.data["cut_off"] == {"fr-arm1": "B5", "fr-inf3": "B7"}
    assert ev.data["cut_off_candidates"] == ["fr-arm1", "fr-inf3"]
    u = g.state["units"]
    assert (u["fr-arm2"]["hex"], u["fr-arm1"]["hex"], u["fr-inf3"]["hex"],
            u["ge-inf1"]["hex"]) == ("B2", "B5", "B7", "B3")
    again = loads(dumps(g))
    assert again.state_hash() == g.state_hash() and again.state == g.state


def test_tr40_without_cut_off_the_other_units_stay():
    g = taken_b3()
    (ev,) = g.apply(C("withdraw", "allies", retreats={"fr-arm2": "B2"}))
    assert "cut_off" not in ev.data
    assert g.state["units"]["fr-arm1"]["hex"] == "B4"


def test_tr40_cut_off_withdrawals_checked():
    g = taken_b3()
    assert_rejected(g, C("withdraw", "allies", retreats={"fr-arm2": "B2"},
                        cut_off={"fr-arm2": "B4"}), "TR-40.*would not be cut off")
    assert_rejected(g, C("withdraw", "allies", retreats={"fr-arm2": "B2"},
                        cut_off={"fr-arm1": "B3"}), "TR-40.*legal")
    assert_rejected(g, C("withdraw", "allies", retreats={"fr-arm2": "B2"},
                        cut_off={"fr-inf3": "B4"}), "TR-40.*legal")
    # issue 23: every unit in the hexes taken is named (a hex, or null)
    assert_rejected(g, C("withdraw", "allies", cut_off={"fr-inf3": "B4"}), "TR-40.*fr-arm2 not named")
    assert_rejected(g, C("withdraw", "allies", retreats={"fr-arm2": "B2"},
                        cut_off={"fr-arm1": "B2", "fr-inf3": "B5"}), "TR-40.*legal")
    with pytest.raises(GrognardError, match="args.cut_off"):
        g.apply(C("withdraw", "allies", cut_off=["fr-arm1"]))


def test_tr63_withdrawal_into_a_bridgehead_uses_its_stacking_limit_of_4():
    """TR-63; seed 002 "Bridgeheads": "The bridgehead hex may be stacked with up to 4 units
    rather than the normal 2." A withdrawal into a friendly bridgehead may make 3 there;
    elsewhere the limit stays 2 (TR-40)."""
    g = taken_b3()
    for uid in ("fr-arm1", "fr-inf3"):
        g.state["units"][uid]["hex"] = "B2"
    cmd = C("withdraw", "allies", retreats={"fr-arm2": "B2"})
    assert_rejected(g, cmd, "TR-40.*stacking limit 2")
    g.state["bridgehead_owners"] = {"france": ["B2"]}
    g.state["bridgeheads"] = ["B2"]
    g.apply(cmd)
    assert sorted(u for u, x in g.state["units"].items() if x["hex"] == "B2") == [
        "fr-arm1", "fr-arm2", "fr-inf3"]


def test_tr40_cut_off_withdrawals_are_legal_actions():
    """Issue 11 (legal actions): the optional TR-40 withdrawal of cut-off units is offered to
    the defender: each cut-off unit alone to each of its legal hexes, and all together, with
    the first stacking-legal retreat of the units in the taken hex. Each one applies."""
    g = taken_b3()
    listed = [c.args for c in g.legal("allies") if c.kind == "withdraw" and "cut_off" in c.args]
    assert {tuple(sorted(a["cut_off"].items())) for a in listed} == {
        (("fr-arm1", "B5"),), (("fr-inf3", "B5"),), (("fr-inf3", "B7"),),
        (("fr-arm1", "B5"), ("fr-inf3", "B5"))}
    assert all(a["retreats"] == {"fr-arm2": "B2"} for a in listed)
    for args in listed:
        h = taken_b3()
        (ev,) = h.apply(Command("withdraw", "allies", args))
        assert ev.data["cut_off"] == args["cut_off"]
        assert all(h.state["units"][u]["hex"] == to for u, to in args["cut_off"].items())
    assert not any("cut_off" in c.args for c in g.legal("axis"))
