"""third_reich system: TR-57/TR-60 naval transport and air: TR-60 (no naval interception in
the phasing side's uncontested air zone) read off the based air units, and air interception
of a transport (scenarios ``tr-1939-support``: Germany holds the air over Wilhelmshaven F5;
``tr-1939-sea``: a British air unit at Harwich F2 contests it)."""

from __future__ import annotations

import pytest

from grognard.core.errors import GrognardError
from grognard.engine import Command, Game
from grognard.engine.save import dumps, loads
from grognard.engine.testing import assert_rejected
from grognard.third_reich.air_naval.airnaval import HexForces, resolve_hex_combat
from grognard.third_reich.play.testing import assert_reaction_rejected, play_order
from grognard.third_reich.turn.forces import AirUnit, Fleet


def C(k, player, **args):
    return Command(k, player, args)


def at_movement(scenario, seed):
    g = Game.new(scenario, seed=seed)
    g.apply(C("declare_options", "axis", power="germany", options={"eastern": "offensive"}))
    while g.phase.name != "movement":
        g.apply(C("end_phase", "axis"))
    return g


def transport(**extra):
    return Command("naval_transport", "axis", {"fleets": ["ge-fleet2"], "units": ["ge-inf5"],
                                               "to": "F5", **extra})


def test_tr60_no_naval_interception_in_the_phasing_uncontested_air_zone():
    """TR-60: in the phasing side's uncontested air zone the defender has no interception to
    decide: the transport runs at once, and an attacker naming interceptors is refused."""
    g = at_movement("tr-1939-support", 3)
    before = g.state_hash()
    assert not g.can(transport(interceptors=["uk-fleet1"]))
    with pytest.raises(GrognardError, match="defender's decision"):
        g.apply(transport(interceptors=["uk-fleet1"]))
    assert g.state_hash() == before
    copy = Game.replay(g.scenario, g.seed, g.commands)
    copy.apply(transport())
    assert "pending_reaction" not in copy.state
    g.apply(transport())
    assert_rejected(g, Command("intercept", "allies", {"interceptors": ["uk-fleet1"]}),
                    "no naval_transport order waits|no enemy order waits|not allowed|may not act")


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_tr57_air_interception_of_a_transport_matches_the_air_naval_round(seed):
    g = at_movement("tr-1939-sea", seed)
    (ev,) = play_order(g, transport(air_interceptors=["uk-air1"], escorts=["ge-air2"]))
    d = ev.data
    i = d["interception"]
    assert i["rolls"] == [] and d["flown"] == ["ge-air2", "uk-air1"]
    rec = resolve_hex_combat(HexForces((AirUnit("ge-air2", 5),), (Fleet("ge-fleet2", 9),)),
                             HexForces((AirUnit("uk-air1", 10),)), iter(i["combat_rolls"]))
    assert len(i["steps"]) == len(rec.steps)
    left = rec.phasing.fleets[0].factors if rec.phasing.fleets else 0
    assert i["losses"].get("ge-fleet2", 0) == 9 - left
    assert d["arrived"] == (left // 2 >= 3)
    assert g.state["units"]["ge-inf5"]["hex"] == ("F5" if d["arrived"] else "F6")
    assert {"ge-air2", "uk-air1"} <= set(g.state["air_used"])
    assert loads(dumps(g)).state_hash() == g.state_hash()


def test_tr57_air_interceptors_checked():
    """TR-57: the defender names its own air interceptors; the attacker may not."""
    g = at_movement("tr-1939-sea", 3)
    before = g.state_hash()
    for cmd, match in ((transport(air_interceptors=["uk-air1"]), "defender's decision"),
                       (transport(escorts=["uk-air1"]), "TR-35")):
        assert not g.can(cmd)
        with pytest.raises(GrognardError, match=match):
            g.apply(cmd)
    assert g.state_hash() == before
    assert_reaction_rejected(g, transport(air_interceptors=["ge-air2"]), "TR-35")
    assert_reaction_rejected(g, transport(air_interceptors=["pl-air1"]), "TR-45.*out of range")
