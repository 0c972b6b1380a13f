"""third_reich system: TR-44 counter air through ``Game`` (scenario ``tr-1939-support``:
ge-air2 5 factors in Berlin C7, pl-air1 2 factors in Warsaw C11, 4 hexes away)."""

from __future__ import annotations

import pytest

from grognard.core.errors import GrognardError
from grognard.engine import Command, Game
from grognard.engine.save import dumps, loads
from grognard.engine.testing import assert_rejected
from grognard.third_reich.air_naval.airnaval import counter_air
from grognard.third_reich.state import based_air
from grognard.third_reich.turn.forces import AirUnit


def C(k, player, **args):
    return Command(k, player, args)


def at_air_missions(seed=3, **options):
    g = Game.new("tr-1939-support", seed=seed)
    g.apply(C("declare_options", "axis", power="germany",
              options=options or {"eastern": "offensive"}))
    while g.phase.name != "air_missions":
        g.apply(C("end_phase", "axis"))
    return g


@pytest.mark.parametrize("seed", [1, 3, 7])
def test_tr44_counter_air_round_and_neutralisation_match_the_rule_function(seed):
    g = at_air_missions(seed)
    (ev,) = g.apply(C("counter_air", "axis", air=["ge-air2"], target="C11"))
    d = ev.data
    assert ev.type == "counter_air_flown"
    assert (d["sent"], d["target_factors"], d["targets"]) == (5, 2, ["pl-air1"])
    pure = counter_air(5, 2, d["rolls"][0], d["rolls"][1], (AirUnit("pl-air1", 2),))
    assert d["hits_on_phasing"] == pure.combat.hits_on_phasing
    assert d["hits_on_nonphasing"] == pure.combat.hits_on_nonphasing
    assert sum(d["neutralized"].values()) == pure.neutralized
    pl = g.state["units"]["pl-air1"]
    if pure.neutralized:
        assert g.state["neutralized"] == {"pl-air1": pure.neutralized}
    assert pl["attack"] == 2 - pure.combat.hits_on_nonphasing or pl["status"] == "eliminated"
    assert "ge-air2" in g.state["air_used"]
    again = loads(dumps(g))
    assert again.state_hash() == g.state_hash() and again.state == g.state


def _neutralising_seed():
    for seed in range(1, 30):
        g = at_air_missions(seed)
        (ev,) = g.apply(C("counter_air", "axis", air=["ge-air2"], target="C11"))
        if ev.data["neutralized"] == {"pl-air1": 2}:
            return g
    raise AssertionError("no seed neutralises pl-air1")


def test_tr44_neutralised_air_flies_nothing_and_contests_no_air_zone_this_player_turn():
    g = _neutralising_seed()
    pl = next(b for b in based_air(g.context, g.state) if b.unit.id == "pl-air1")
    assert pl.neutralized == 2
    while g.phase.name != "combat":
        g.apply(C("end_phase", "axis"))
    copy = Game.replay(g.scenario, g.seed, g.commands)  # the defender may not fly pl-air1
    copy.apply(C("attack", "axis", hex="F12", attackers=["ge-inf3", "ge-inf4"]))
    owed = copy.state.get("pending_reaction")
    assert owed is None or "pl-air1" not in {o["unit"] for o in owed["options"]}
    if owed:
        assert_rejected(copy, C("defensive_air", "allies", defensive_air=["pl-air1"]),
                        "TR-44.*neutralized")
    assert_rejected(g, C("attack", "axis", hex="F12", attackers=["ge-inf3", "ge-inf4"],
                        air=["ge-air2"]), "TR-35.*already flown")
    while g.phase.player == "axis":
        g.apply(C("end_phase", "axis"))
    assert "neutralized" not in g.state and "counter_air" not in g.state


def test_tr44_counter_air_orders_checked():
    g = at_air_missions(3)
    assert_rejected(g, C("counter_air", "axis", air=["ge-air2"], target="C10"),
                   "TR-44.*no un-neutralised enemy air")
    assert_rejected(g, C("counter_air", "axis", air=["ge-air2"], target="C2"),
                   "TR-44.*offensive")
    assert_rejected(g, C("counter_air", "axis", air=["pl-air1"], target="C11"), "TR-35")
    with pytest.raises(GrognardError, match="args.air"):
        g.apply(C("counter_air", "axis", air=[], target="C11"))
    g2 = Game.new("tr-1939-support", seed=3)
    g2.apply(C("declare_options", "axis", power="germany", options={"eastern": "offensive"}))
    while g2.phase.name != "movement":
        g2.apply(C("end_phase", "axis"))
    assert not g2.can(C("counter_air", "axis", air=["ge-air2"], target="C11"))
