"""The loser's choices back to the loser (issue 23 item 4), attrition: "The side taking the
losses decides which units to remove" (TR-38, seed 002). After an ``attrition`` whose result
leaves the losing side a choice, that side owes ``remove_losses`` (a decision on its seat,
listed by ``game legal``, verified against the result by TR-39); the engine removes the units
itself only when there is no choice. Scenario ``tr-1939-cutoff``, seed 6: a D2H1 result
against fr-inf1 and fr-inf2 in B3 and the French units around it."""

from __future__ import annotations

from grognard.engine import Command, Game
from grognard.engine.testing import assert_rejected
from grognard.third_reich.attritions import forced_removal, removal_choices


def C(k: str, player: str, **args: object) -> Command:
    return Command(k, player, args)


def resolved() -> tuple[Game, dict]:
    g = Game.new("tr-1939-cutoff", seed=6)
    g.apply(C("declare_options", "axis", power="germany", options={"western": "attrition"}))
    while g.phase.name != "attrition":
        g.apply(C("end_phase", "axis"))
    (ev,) = g.apply(C("attrition", "axis", front="western"))
    return g, ev.data


def test_tr38_the_defender_chooses_its_attrition_losses() -> None:
    g, d = resolved()
    assert d["result"] == "D2H1" and d["eliminated"] == []
    owed = d["losses_owed"]["allies"]
    assert owed["n"] == 2 and len(owed["units"]) > 2
    (dec,) = g.decisions()
    assert dec.player == "allies" and dec.kinds == {"remove_losses"} and dec.rule == "TR-38"
    assert g.active() == ("allies",)
    listed = g.legal("allies")
    assert listed and {c.kind for c in listed} == {"remove_losses"}
    assert all(g.can(c) for c in listed)  # game legal lists only what verify passes
    assert len(listed) == len(removal_choices(g.state, owed["units"], 2))
    # refused: too few, a superfluous unit, a unit not in contact, the other side, end_phase
    assert_rejected(g, C("remove_losses", "allies", units=["fr-inf1"]), "TR-39")
    assert_rejected(g, C("remove_losses", "allies", units=owed["units"]), "TR-39")
    assert_rejected(g, C("remove_losses", "allies", units=["ge-inf1", "fr-inf1"]), "TR-39")
    assert_rejected(g, C("remove_losses", "axis", units=["fr-inf1", "fr-inf2"]), "TR-38")
    assert_rejected(g, C("take_hexes", "axis", hexes=["B3"]), "TR-38")
    assert_rejected(g, C("end_phase", "axis"), "TR-38")
    # the choice is the defender's: it keeps fr-inf1 and removes two others
    pick = next(c.args["units"] for c in listed if "fr-inf1" not in c.args["units"])
    (ev,) = g.apply(C("remove_losses", "allies", units=pick))
    assert ev.data["units"] == sorted(pick) and ev.data["rule"] == "TR-39"
    assert all(g.state["units"][u]["status"] == "eliminated" for u in pick)
    assert g.state["units"]["fr-inf1"]["status"] == "active"
    assert g.state["pending_losses"] is None and g.decisions() == []
    # TR-40: the hexes won wait for the losses; now the attacker names them
    assert g.state["pending_hexes"]["n"] == 1


def test_tr39_the_engine_decides_only_a_forced_choice() -> None:
    g, d = resolved()
    units = d["losses_owed"]["allies"]["units"]
    assert forced_removal(g.state, units, 0) == []
    assert forced_removal(g.state, units, 2) is None  # a choice: owed to the side
    assert forced_removal(g.state, units[:1], 2) == units[:1]  # every eligible unit goes
