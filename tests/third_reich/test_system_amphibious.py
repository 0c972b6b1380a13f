"""third_reich system: TR-61..TR-63 amphibious invasions and bridgeheads through ``Game``
(scenario ``tr-1939-invasion``: ge-fleet2 and ge-inf5 (3) in Kiel F6, German air at
Wilhelmshaven F5, the French beach F3 held by fr-inf9 (1), F4 empty, uk-fleet1 in Harwich F2)."""

from __future__ import annotations

import pytest

from grognard.engine import Command, Game
from grognard.engine.save import dumps, loads
from grognard.engine.testing import assert_rejected
from grognard.third_reich.air_naval.naval import InterceptionAttempt
from grognard.third_reich.air_naval.naval_ops import AirZone
from grognard.third_reich.board import side_bridgeheads
from grognard.third_reich.combat.amphibious import (
    InvasionPlan,
    OffshoreGroup,
    intercept_offshore,
    resolve_invasion,
)
from grognard.third_reich.play.testing import assert_reaction_rejected, play_order
from grognard.third_reich.turn.forces import Fleet, GroundKind, GroundUnit, Side

SCENARIO = "tr-1939-invasion"
INF5 = GroundUnit("ge-inf5", "german", Side.AXIS, GroundKind.INFANTRY, 3, 3)
INF9 = GroundUnit("fr-inf9", "french", Side.ALLIES, GroundKind.INFANTRY, 1, 3)


def C(k, player, **args):
    return Command(k, player, args)


def at_movement(seed=3):
    g = Game.new(SCENARIO, seed=seed)
    g.apply(C("declare_options", "axis", power="germany", options={"western": "offensive"}))
    while g.phase.name != "movement":
        g.apply(C("end_phase", "axis"))
    return g


def invade(beach, sea, **extra):
    return Command("invade", "axis", {
        "beach": beach, "groups": [{"hex": sea, "zone": "north_sea", "fleets": ["ge-fleet2"],
                                    "cargo": {"ge-fleet2": ["ge-inf5"]}}], **extra})


def plan(beach, sea):
    group = OffshoreGroup(sea, "north_sea", (Fleet("ge-fleet2", 9),), (INF5,),
                          {"ge-fleet2": ("ge-inf5",)}, AirZone.CONTESTED)
    return InvasionPlan(beach, (group,), AirZone.CONTESTED)


def test_tr61_tr63_empty_beach_taken_bridgehead_placed_and_a_supply_source():
    g = at_movement()
    (ev,) = play_order(g, invade("F4", "G4"))
    d = ev.data
    pure = resolve_invasion(plan("F4", "G4"), [], None)
    assert d["automatic"] is pure.automatic is True
    assert d["advanced"] == list(pure.must_advance) == ["ge-inf5"]
    assert d["dice"] == [] and d["bridgehead"] == {"power": "germany", "placed": "F4",
                                                   "removed": [], "count": 1}
    assert g.state["units"]["ge-inf5"]["hex"] == "F4"
    assert g.state["bridgeheads"] == ["F4"]
    assert g.state["bridgehead_owners"] == {"germany": ["F4"]}
    assert side_bridgeheads(g.state, "axis") == ["F4"] and side_bridgeheads(g.state,
                                                                           "allies") == []
    assert g.state["fleet_ops"]["used"] == {"ge-fleet2": "invasion"}
    again = loads(dumps(g))
    assert again.state_hash() == g.state_hash() and again.state == g.state


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_tr61_opposed_invasion_uses_the_crt_with_the_amphibious_shift(seed):
    g = at_movement(seed)
    (ev,) = play_order(g, invade("F3", "G3"))
    d = ev.data
    assert d["defenders"] == ["fr-inf9"] and len(d["dice"]) == 2
    pure = resolve_invasion(plan("F3", "G3"), [INF9], sum(d["dice"]))
    j = pure.to_json()
    for k in ("odds", "column", "shifts", "result", "support", "succeeded", "defense"):
        assert d[k] == j[k], k
    assert (g.state["units"]["ge-inf5"]["hex"] == "F3") == (pure.succeeded
                                                            and bool(d["advanced"]))
    assert (g.state["bridgeheads"] == ["F3"]) == (d["bridgehead"] is not None)
    assert loads(dumps(g)).state_hash() == g.state_hash()


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_tr55_tr61_offshore_interception_rolls_match_the_rule_function(seed):
    g = at_movement(seed)
    (ev,) = play_order(g, invade("F4", "G4", interceptors={"G4": ["uk-fleet1"]}))
    i = ev.data["interceptions"][0]
    (r,) = i["rolls"]
    assert (r["port"], r["fleets"], r["range"]) == ("F2", ["uk-fleet1"], 2)
    group = plan("F4", "G4").groups[0]
    attempt = InterceptionAttempt("F2", (Fleet("uk-fleet1", 9),), "G4", 2)
    pure = intercept_offshore(group, [attempt], {"F2": r["roll"]}, iter(i["combat_rolls"]))
    assert r["intercepted"] == pure.rolls[0].intercepted
    assert i["turned_back"] == list(pure.turn_back.returning_units)
    # the event names the fight's rules when there was one (TR-49 and its steps' TR-46..48)
    assert ("TR-49" in ev.data["rules"]) == bool(i["steps"])
    assert ("TR-48" in ev.data["rules"]) == any(st["step"] == "NavalNaval" for st in i["steps"])
    if pure.combat is not None:
        fleet = {f.id: f.factors for f in pure.combat.phasing.fleets}
        assert g.state["units"]["ge-fleet2"]["attack"] == fleet.get("ge-fleet2", 0) or \
            g.state["units"]["ge-fleet2"]["status"] == "eliminated"
    landed = not pure.turn_back.returning_units
    assert (g.state["units"]["ge-inf5"]["hex"] == "F4") == landed
    assert loads(dumps(g)).state_hash() == g.state_hash()


def test_tr61_invasion_orders_checked():
    g = at_movement()
    assert_rejected(g, invade("F1", "G1"), "TR-61.*uncontested enemy air")
    assert_rejected(g, invade("F4", "G6"), "TR-61.*not a sea hex adjacent")
    assert_rejected(g, invade("G5", "G4"), "TR-61.*not a land hex")
    assert_rejected(g, Command("invade", "axis", {
        "beach": "F4", "groups": [{"hex": "G4", "fleets": ["ge-fleet2"],
                                   "cargo": {"ge-fleet2": ["ge-inf5"]}}]}), "name the group")
    assert_rejected(g, Command("invade", "axis", {
        "beach": "F4", "groups": [{"hex": "G4", "zone": "north_sea", "fleets": ["ge-fleet2"],
                                   "cargo": {"ge-fleet2": ["ge-inf1"]}}]}), "TR-61.*port")
    assert_rejected(g, invade("F4", "G4", interceptors={"G4": ["uk-fleet1"]}),
                    "TR-61.*defender's decision")
    assert_reaction_rejected(g, invade("F4", "G4", interceptors={"G4": ["ge-fleet1"]}), "TR-55")
    assert_reaction_rejected(g, invade("F4", "G4", interceptors={"G3": ["uk-fleet1"]}),
                             "TR-61.*not an offshore hex")
    g.apply(C("end_phase", "axis"))
    assert_rejected(g, invade("F4", "G4"), "not allowed|TR-61")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tr61_air_interception_of_the_offshore_group_against_escorts(seed):
    """Seed 002, Amphibious operations: offshore forces "are subject to interception there by
    non-phasing naval units in the zone and non-phasing air units within range"."""
    from grognard.third_reich.turn.forces import AirUnit

    g = at_movement(seed)
    (ev,) = play_order(g, invade("F4", "G4", air_interceptors={"G4": ["fr-air1"]},
                           escorts={"G4": ["ge-air3"]}))
    i = ev.data["interceptions"][0]
    pure = intercept_offshore(plan("F4", "G4").groups[0], [], {}, iter(i["combat_rolls"]),
                              (AirUnit("ge-air3", 5),), (AirUnit("fr-air1", 5),))
    assert i["turned_back"] == list(pure.turn_back.returning_units)
    after = {a.id: a.factors for a in (*pure.combat.phasing.air, *pure.combat.nonphasing.air)}
    for uid in ("ge-air3", "fr-air1"):
        assert ev.data["losses"].get(uid, 0) == 5 - after[uid]
    assert sorted(ev.data["flown"]) == ["fr-air1", "ge-air3"]
    assert {"fr-air1", "ge-air3"} <= set(g.state["air_used"])
    assert loads(dumps(g)).state_hash() == g.state_hash()


def test_tr63_bridgehead_stacks_4_and_stays_while_an_enemy_is_adjacent():
    from grognard.engine.state import thaw
    from grognard.third_reich.board import bridgehead_removals, hex_stacking_limit

    g = at_movement()
    play_order(g, invade("F4", "G4"))
    assert hex_stacking_limit(g.state, "F4") == 4 and hex_stacking_limit(g.state, "F3") == 2
    # fr-inf9 in F3 is adjacent: the bridgehead stays at the start of the next German turn
    assert bridgehead_removals(g.context, g.state, "axis") == {}
    while not (g.state["turn"] == 2 and g.phase.player == "axis"):
        g.apply(C("end_phase", g.phase.player))
    assert g.state["bridgehead_owners"] == {"germany": ["F4"]}
    alone = thaw(g.state)
    alone["units"]["fr-inf9"]["hex"] = "C3"
    assert bridgehead_removals(g.context, alone, "axis") == {"germany": ["F4"]}
    assert bridgehead_removals(g.context, alone, "allies") == {}


def test_tr63_unthreatened_bridgehead_removed_at_the_start_of_the_friendly_turn():
    g = at_movement()
    play_order(g, invade("F4", "G4"))
    while g.phase.name != "combat":
        g.apply(C("end_phase", "axis"))
    (ev,) = play_order(g, C("attack", "axis", hex="F3", attackers=["ge-inf5"]))
    if "fr-inf9" not in ev.data["eliminated"] and "fr-inf9" not in ev.data["retreats"]:
        pytest.skip("fr-inf9 held F3 with this seed")
    removed = None
    while not (g.state["turn"] == 2 and g.phase.player == "axis"):
        (e,) = g.apply(C("end_phase", g.phase.player))
        removed = e.data.get("bridgeheads_removed", removed)
    adjacent_enemy = any(u["side"] == "allies" and u["hex"] in {"E4", "E5", "F3", "F5"}
                         and u["status"] == "active" for u in g.state["units"].values())
    assert (removed == {"germany": ["F4"]}) == (not adjacent_enemy)
    assert (g.state["bridgeheads"] == []) == (not adjacent_enemy)
    assert loads(dumps(g)).state_hash() == g.state_hash()


def test_tr63_sea_sr_into_a_bridgehead_and_tr62_captured_this_turn():
    """TR-63: a bridgehead acts as a friendly port for SR with an escort in the zone; TR-62: a
    hex taken by invasion this turn receives SR only if no interception is possible (here
    German air holds F4 uncontested, so no fleet may intercept, TR-60)."""
    from grognard.third_reich.movement.sea_srs import _interceptable

    g = at_movement()
    (ev,) = [e for e in play_order(g, invade("F4", "G4")) if e.type == "invaded"]
    assert ev.data["advanced"] == ["ge-inf5"] and ev.data["bridgehead"] is not None
    assert ev.data["rules"] == ["TR-62", "TR-63"]  # the event names the rules that applied
    g.apply(C("move", "axis", unit="ge-inf1", path=["E6", "F6"]))
    while g.phase.name != "strategic_deployment":
        g.apply(C("end_phase", "axis"))
    assert g.state["invaded_hexes"] == ["F4"] and g.state["invaded"] == ["ge-inf5"]
    assert _interceptable(g.context, g.state, "axis", "F4", ["north_sea"]) is False
    assert _interceptable(g.context, g.state, "axis", "F5", ["north_sea"]) is False
    sr = Command("sr", "axis", {"unit": "ge-inf1", "to": "F4", "kind": "sea",
                                "escorts": {"north_sea": ["ge-fleet3"]}})
    assert_rejected(g, sr, "args.route")
    (ev,) = play_order(g, Command("sr", "axis", {**sr.args, "route": ["north_sea"]}))
    assert ev.data["status"] == "done" and ev.data["interception_points"] == ["F4"]
    assert g.state["units"]["ge-inf1"]["hex"] == "F4"
    assert loads(dumps(g)).state_hash() == g.state_hash()


def test_tr63_at_most_2_attack_out_of_a_bridgehead_across_one_hexside():
    """TR-63; seed 002 "Bridgeheads": "All 4 units may attack out of the bridgehead, but no
    more than 2 may attack across the same hexside" (in one phase)."""
    g = at_movement()
    play_order(g, invade("F4", "G4"))
    for uid in ("ge-inf1", "ge-inf2", "ge-inf3"):
        g.state["units"][uid]["hex"] = "F4"  # 4 units in the bridgehead (its stacking limit)
    while g.phase.name != "combat":
        g.apply(C("end_phase", "axis"))
    assert_rejected(g, C("attack", "axis", hex="F3", attackers=["ge-inf5", "ge-inf1", "ge-inf2"]),
                   "TR-63.*at most 2")
    assert g.can(C("attack", "axis", hex="F3", attackers=["ge-inf5", "ge-inf1"]))


def test_tr63_sea_sr_into_a_bridgehead_uses_its_stacking_limit_of_4():
    """TR-63; seed 002 "Bridgeheads": "The bridgehead hex may be stacked with up to 4 units
    rather than the normal 2"; it acts as a friendly port for SR. A third unit may arrive by
    sea SR."""
    g = at_movement()
    (ev,) = [e for e in play_order(g, invade("F4", "G4")) if e.type == "invaded"]
    assert ev.data["advanced"] == ["ge-inf5"] and ev.data["bridgehead"] is not None
    assert ev.data["rules"] == ["TR-62", "TR-63"]  # the event names the rules that applied
    g.apply(C("move", "axis", unit="ge-inf1", path=["E6", "F6"]))
    g.state["units"]["ge-inf2"]["hex"] = "F4"  # 2 units in the bridgehead already
    while g.phase.name != "strategic_deployment":
        g.apply(C("end_phase", "axis"))
    (ev,) = play_order(g, Command("sr", "axis", {"unit": "ge-inf1", "to": "F4", "kind": "sea",
                                           "escorts": {"north_sea": ["ge-fleet3"]},
                                           "route": ["north_sea"]}))
    assert ev.data["status"] == "done"
    assert sorted(u for u, x in g.state["units"].items()
                  if x["hex"] == "F4" and x["side"] == "axis" and x["type"] == "infantry") == [
        "ge-inf1", "ge-inf2", "ge-inf5"]
