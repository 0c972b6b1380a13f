"""third_reich system, round 3 commands: 3R move, air/naval support, TR-40 withdraw, TR-41
saves, land SR and the Allied side of the Murmansk box (scenario ``tr-1939-support``)."""

from __future__ import annotations

import json

from grognard.engine import Command, Game
from grognard.engine.save import dumps, loads
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.engine.testing import assert_rejected, assert_replays
from grognard.third_reich.air_naval.airnaval import HexForces, resolve_hex_combat
from grognard.third_reich.air_naval.support import combat_support
from grognard.third_reich.economy.economy import Economy
from grognard.third_reich.movement.sr import sr_budget
from grognard.third_reich.play.history import ledger_history
from grognard.third_reich.play.testing import (
    assert_reaction_rejected,
    play_order,
    settle_battle,
)
from grognard.third_reich.strategic.murmansk import (
    AlliedAssets,
    GermanAssets,
    MurmanskRolls,
    murmansk_combat,
)
from grognard.third_reich.turn.forces import AirUnit, Fleet
from grognard.third_reich.war import retreat_options

SCENARIO = "tr-1939-support"


def C(kind, player, **args):
    return Command(kind, player, args)


def new(seed=3):
    return Game.new(SCENARIO, seed=seed)


def to_phase(g, name, player):
    while not (g.phase.name == name and g.phase.player == player):
        g.apply(C("end_phase", g.phase.player))


def declare(g, player="axis", power="germany", **options):
    return g.apply(C("declare_options", player, power=power, options=options))


def offensive(seed=3):
    g = new(seed)
    declare(g, eastern="offensive", western="attrition")
    return g


# --- move (TR-27/TR-28 on the map) ------------------------------------------------------------


def test_tr28_move_costs_and_allowance_checked_on_the_map():
    g = offensive()
    to_phase(g, "movement", "axis")
    assert_rejected(g, C("move", "axis", unit="ge-inf2", path=["B6", "B7", "B8", "B9"]),
                   "TR-28.*needs 4 MPs, has 3")
    (ev,) = g.apply(C("move", "axis", unit="ge-inf2", path=["B6", "B7"]))
    assert ev.data == {"unit": "ge-inf2", "from": "B5", "path": ["B6", "B7"], "mp": 2,
                       "phase": "normal"}
    assert g.state["units"]["ge-inf2"]["hex"] == "B7"
    assert_rejected(g, C("move", "axis", unit="ge-inf2", path=["B8"]), "already moved")


def test_tr27_no_entry_into_enemy_hexes_and_no_jumps():
    g = offensive()
    to_phase(g, "movement", "axis")
    assert_rejected(g, C("move", "axis", unit="ge-inf1", path=["D4"]), "TR-27.*prohibited")
    assert_rejected(g, C("move", "axis", unit="ge-arm1", path=["B10"]), "TR-27.*not adjacent")
    assert_rejected(g, C("move", "axis", unit="fr-arm1", path=["D3"]), "not a ground unit of axis")
    assert_rejected(g, C("move", "axis", unit="ge-air1", path=["E10"]), "not a ground unit")


def test_tr02_mech_movement_only_armor_on_an_offensive_front_with_zoc_cost():
    g = offensive()
    to_phase(g, "mech_movement", "axis")
    assert_rejected(g, C("move", "axis", unit="ge-inf3", path=["F10"]), "does not move")
    assert_rejected(g, C("move", "axis", unit="ge-inf1", path=["C5"]), "TR-02")
    (ev,) = g.apply(C("move", "axis", unit="ge-arm2", path=["D7", "D6", "D5"]))
    # D7 1 + D6 1 + D5 (river +1, French ZOC +1) 3 = 5 of the armor's 6 MPs
    assert ev.data["mp"] == 5 and ev.data["phase"] == "mechanized"
    assert g.state["units"]["ge-arm2"]["mp_spent"] == 5


# --- attack with air and naval support (TR-35, TR-46..TR-49) ------------------------------------


def test_tr35_tr49_attack_with_air_and_one_fleet_fights_then_caps_support():
    g = offensive(3)
    to_phase(g, "combat", "axis")
    (ev,) = play_order(g, C("attack", "axis", hex="F12", attackers=["ge-inf3", "ge-inf4"],
                      air=["ge-air1"], fleet="ge-fleet1", defensive_air=["pl-air1"]))
    d = ev.data
    an = d["air_naval"]
    # the same hex combat from the same 1D10 rolls
    rec = resolve_hex_combat(HexForces((AirUnit("ge-air1", 5),), (Fleet("ge-fleet1", 9),)),
                             HexForces((AirUnit("pl-air1", 2),)), iter(an["rolls"]))
    assert an["steps"][0]["step"] == "AirToAir"
    assert an["losses"] == {"ge-air1": 5 - rec.phasing.air[0].factors,
                            "pl-air1": 2 - rec.nonphasing.air[0].factors}
    left = [a for a in rec.phasing.air if a.factors]
    sup = combat_support(left, [Fleet("ge-fleet1", 9)], d["defense"], 6, "clear")
    assert d["support_detail"] == sup.to_json() and d["support"] == sup.used
    assert sup.cap == 2 * d["defense"]  # TR-35: min(2 x defense, 2 x ground attack)
    assert g.state["units"]["ge-air1"]["attack"] == rec.phasing.air[0].factors
    assert set(g.state["air_used"]) == {"ge-air1", "pl-air1"}
    assert g.state["fleets_used"] == ["ge-fleet1"]
    assert_replays(g)


def test_tr35_support_orders_checked_state_untouched():
    g = offensive(3)
    to_phase(g, "combat", "axis")
    atk = {"hex": "F12", "attackers": ["ge-inf3", "ge-inf4"]}
    assert_rejected(g, C("attack", "axis", **atk, air=["ge-air2"]), "TR-35.*out of range")
    assert_rejected(g, C("attack", "axis", **atk, air=["pl-air1"]), "TR-35.*not a axis")
    assert_rejected(g, C("attack", "axis", **atk, defensive_air=["pl-air1"]),
                    "TR-35.*defender's decision")
    assert_reaction_rejected(g, C("attack", "axis", **atk, defensive_air=["ge-air1"]),
                             "not an enemy")
    assert_rejected(g, C("attack", "axis", **atk, fleets=["ge-fleet1", "ge-fleet1"]),
                   "named twice")
    assert_rejected(g, C("attack", "axis", hex="C9", attackers=["ge-arm1"],
                        fleet="ge-fleet1"), "TR-58.*adjacent to C9")
    assert_rejected(g, C("attack", "axis", **atk, fleet="ge-inf3"), "not a axis fleet")
    play_order(g, C("attack", "axis", hex="C9", attackers=["ge-arm1", "ge-arm2"], air=["ge-air1"]))
    settle_battle(g)
    assert_rejected(g, C("attack", "axis", **atk, air=["ge-air1"]), "already flown")


def test_tr35_without_support_the_battle_is_as_before():
    g = offensive(3)
    to_phase(g, "combat", "axis")
    (ev,) = play_order(g, C("attack", "axis", hex="C9", attackers=["ge-arm1", "ge-arm2"]))
    assert ev.data["air_naval"] == {"rolls": [], "steps": [], "losses": {}, "flown": [],
                                    "fleets": []}
    assert ev.data["support"] == 0 and ev.data["result"] == "D2"


# --- TR-40 withdraw ---------------------------------------------------------------------------------


def _hexes_taken(seed=5):
    g = offensive(seed)
    to_phase(g, "attrition", "axis")
    g.apply(C("attrition", "axis", front="western"))
    g.state["pending_hexes"] = {"side": "axis", "front": "western", "n": 1, "candidates": ["D4"],
                                "attackers": ["ge-inf1", "ge-inf2"]}  # as an H1 leaves it (its eligible hex)
    g.apply(C("take_hexes", "axis", hexes=["D4"], advance={"D4": ["ge-inf1"]}))
    return g


def test_tr40_defender_chooses_the_retreat_hex_then_attackers_advance():
    g = _hexes_taken()
    legal = retreat_options(g.context, g.state, "allies", "D4")
    assert legal == ["C4", "D3", "E4"]
    (ev,) = g.apply(C("withdraw", "allies", retreats={"fr-arm1": "E4"}))  # not the first hex
    assert ev.data["retreats"] == {"fr-arm1": "E4"} and ev.data["chosen"] == ["fr-arm1"]
    assert g.state["units"]["fr-arm1"]["hex"] == "E4"
    assert g.state["units"]["ge-inf1"]["hex"] == "D4"
    assert g.state["pending_withdrawal"] is None


def test_tr40_withdraw_orders_checked_and_removal_allowed():
    g = _hexes_taken()
    assert_rejected(g, C("withdraw", "axis", retreats={"fr-arm1": "E4"}), "TR-40.*decision is owed first by allies")
    assert_rejected(g, C("withdraw", "allies", retreats={"fr-arm1": "C5"}), "TR-40.*legal")
    assert_rejected(g, C("withdraw", "allies", retreats={"fr-arm1": "D4"}), "TR-40")
    assert_rejected(g, C("withdraw", "allies", retreats={"fr-arm2": "A4"}), "not in a hex taken")
    assert_rejected(g, C("end_phase", "axis"), "TR-40")
    (ev,) = g.apply(C("withdraw", "allies", retreats={"fr-arm1": None}))
    assert ev.data["eliminated"] == ["fr-arm1"]
    assert g.state["units"]["fr-arm1"]["status"] == "eliminated"
    assert_rejected(g, C("withdraw", "allies"), "may not act")  # nothing owed any more
    assert_rejected(g, C("withdraw", "axis"), "no hexes taken|withdraw")


# --- TR-41 save_attrition_losses ----------------------------------------------------------------


def test_tr41_save_french_armor_with_a_replacement_pays_cost_minus_4():
    g = offensive(1)
    to_phase(g, "attrition", "axis")
    (ev,) = g.apply(C("attrition", "axis", front="western"))
    if ev.data.get("losses_owed"):  # TR-38: the Allies choose their loss (issue 23)
        assert ev.data["eliminated"] == [] and set(ev.data["losses_owed"]) == {"allies"}
        g.apply(C("remove_losses", "allies", units=["fr-arm1"]))
    else:
        assert ev.data["eliminated"] == ["fr-arm1"]
    brp = g.state["economy"]["summary"]["france"]["brp"]
    assert_rejected(g, C("save_attrition_losses", "axis", saves={"fr-arm1": "ge-rep1"}),
                   "TR-41.*friendly replacement")
    assert_rejected(g, C("save_attrition_losses", "axis", saves={"fr-arm2": "fr-rep1"}),
                   "TR-41.*not removed by attrition")
    (ev,) = g.apply(C("save_attrition_losses", "axis", saves={"fr-arm1": "fr-rep1"}))
    # a 3-factor armor unit costs 6 BRPs (TR-31): the save pays 6 - 4 = 2
    assert ev.data["saves"] == [{"unit": "fr-arm1", "replacement": "fr-rep1",
                                 "power": "france", "hex": "A1", "cost": 2}]
    assert g.state["economy"]["summary"]["france"]["brp"] == brp - 2
    entry = ledger_history(g).ledger.entries[-1]  # the postings re-fold from the events
    assert (entry.rule, entry.amount, entry.account) == ("TR-41", -2, "france.brp")
    assert g.state["units"]["fr-arm1"]["hex"] == "A1"
    assert g.state["units"]["fr-arm1"]["status"] == "active"
    assert g.state["units"]["fr-rep1"]["status"] == "pool"
    assert g.state["saved"] == {"axis:france": 1}
    assert_rejected(g, C("save_attrition_losses", "axis", saves={"fr-arm1": "fr-rep2"}),
                   "not removed")
    assert_replays(g)


def test_tr41_german_infantry_saved_free_and_limit_applies():
    g = offensive(2)
    to_phase(g, "attrition", "axis")
    (ev,) = g.apply(C("attrition", "axis", front="western"))
    assert ev.data["eliminated"] == ["ge-inf1", "ge-inf2"]
    assert_rejected(g, C("save_attrition_losses", "axis",
                        saves={"ge-inf1": "ge-rep1", "ge-inf2": "ge-rep1"}), "one replacement")
    g.state["saved"]["axis:germany"] = 5  # as after five saves this player turn
    assert_rejected(g, C("save_attrition_losses", "axis", saves={"ge-inf1": "ge-rep1"}),
                   "TR-41.*at most 5")
    g.state["saved"] = {}
    (ev,) = g.apply(C("save_attrition_losses", "axis", saves={"ge-inf1": "ge-rep1"}))
    assert ev.data["saves"][0]["cost"] == 0  # 3 BRPs <= 4: free
    assert g.state["units"]["ge-inf1"]["hex"] == "A6"


# --- SR by land (TR-66..TR-68) ------------------------------------------------------------------------


def test_tr66_tr68_land_sr_spends_the_power_budget():
    g = offensive()
    to_phase(g, "strategic_deployment", "axis")
    (ev,) = play_order(g, C("sr", "axis", unit="ge-rep1", to="C7"))
    assert ev.data == {"side": "axis", "unit": "ge-rep1", "from": "A6", "to": "C7",
                       "path": ["B6", "C7"], "power": "germany", "kind": "land", "used": 1,
                       "budget": sr_budget("germany")}
    assert g.state["units"]["ge-rep1"]["hex"] == "C7"
    assert g.state["sr"]["germany"]["used"] == 1
    play_order(g, C("sr", "axis", unit="ge-inf2", to="A7"))
    assert g.state["sr"]["germany"]["used"] == 2
    assert_replays(g)


def test_tr67_tr68_sr_orders_checked():
    g = offensive()
    to_phase(g, "strategic_deployment", "axis")
    assert_rejected(g, C("sr", "axis", unit="ge-inf3", to="A5"), "TR-67.*enemy ZOC")
    assert_rejected(g, C("sr", "axis", unit="ge-air2", to="A8"), "TR-67.*city or airbase")
    assert_rejected(g, Command("sr", "axis", {"unit": "ge-inf2", "to": "A7", "kind": "sea"}),
                   "TR-69")
    assert_rejected(g, C("sr", "axis", unit="fr-arm1", to="A1"), "TR-66")
    g.state["sr"]["germany"] = {"power": "germany", "used": 9, "us_initial": 0, "units": {}}
    assert_rejected(g, C("sr", "axis", unit="ge-rep1", to="C7"), "TR-66.*all 9")


# --- Murmansk, the Allied side (TR-19..TR-21) -----------------------------------------------------


MURMANSK_BOXES = "sw_boxes = { germany = { subs = 6 }, uk = { asw = 2 } }\n"


def spring_at_war(timing, seed=4, boxes=MURMANSK_BOXES):
    """tr-1939-support in Spring 1940 under ``murmansk_timing = timing``, Germany at war with
    the USSR (TR-19: northern lend lease needs it), at the Allied Declare Options phase; the SW
    boxes hold ``boxes`` (TR-20: the box's U-boats and ASW are SW factors)."""
    sc = load_scenario(SCENARIO)
    text = sc.text.replace("[calendar]\nturn = 1", "[calendar]\nturn = 3") + \
        f'\n[readings]\nmurmansk_timing = "{timing}"\n'
    text = text.replace("[third_reich]\n", "[third_reich]\n" + boxes, 1)
    g = Game(parse_scenario(text, "tr-spring.toml"), seed)
    g.apply(C("year_start", "axis"))
    to_phase(g, "declare_options", "axis")
    g.apply(C("declare_war", "axis", power="germany", majors=["ussr"]))
    to_phase(g, "declare_options", "allies")
    return g


def test_tr20_spring_timing_escort_face_down_then_german_commit_resolves_in_spring():
    """TR-19/TR-20/TR-21 under the default ``murmansk_timing = spring`` (issue 12: the timing
    follows the reading): the UK's 20 BRPs are deducted at once; the Allies then owe their
    escort (face down: the Axis sees only that escorts are there, in the state and in the log),
    Germany owes its commitment, the combat follows in the Allied Spring turn and the survivors
    reach the USSR at the start of its Summer I turn."""
    g = spring_at_war("spring")
    assert_rejected(g, C("murmansk_ship", "allies", sender="germany"), "TR-19")
    assert_rejected(g, C("murmansk_escort", "allies", naval=9), "not allowed")  # not owed
    uk = Economy.from_json(g.state["economy"]).brp("uk")
    g.apply(C("murmansk_ship", "allies", sender="uk"))
    e = Economy.from_json(g.state["economy"])
    assert e.brp("uk") == uk - 20 and e.balance("ll.north.uk") == 20  # TR-19: at once
    assert_rejected(g, C("murmansk_ship", "allies", sender="uk"), "TR-19")
    assert [d.kinds for d in g.decisions()] == [frozenset({"murmansk_escort", "murmansk_ship"})]
    assert_rejected(g, C("end_phase", "allies"), "")
    g.apply(C("murmansk_escort", "allies", naval=9, asw=2))
    axis = g.view("axis")
    assert axis["murmansk"]["allied"] == {"naval": None, "asw": None, "present": True}
    assert "allies" not in axis["secrets"]
    logged = g.events_for("axis", len(g.events) - 1)[0][0]["data"]["allied"]
    assert logged == {"naval": None, "asw": None, "present": True}
    assert [(d.player, d.kinds) for d in g.decisions()] == [("axis", frozenset({"murmansk_commit"}))]
    assert_rejected(g, C("murmansk_commit", "axis", subs=-1), "german.subs")
    _, ev = g.apply(C("murmansk_commit", "axis", air=5, naval=0, subs=6))
    res = ev.data["result"]
    want = murmansk_combat(GermanAssets(5, 0, 6), AlliedAssets(9, 2), 20,
                           MurmanskRolls(**res["rolls"]))
    assert res == want.to_json() and g.state["murmansk"]["resolved"] is True
    assert g.view("axis")["murmansk"]["allied"] == {"naval": 9, "asw": 2}
    assert g.events_for("axis", len(g.events) - 2)[0][0]["data"]["allied"]["naval"] == 9
    e = Economy.from_json(g.state["economy"])
    assert e.balance("ll.north.uk") == 0 and e.balance("ll.murmansk.due") == want.brps_delivered
    assert g.decisions() == [] and g.state["turn"] == 3
    ussr = e.brp("ussr")
    evs = []
    while g.state["turn"] == 3 or g.phase.player != "allies":  # the USSR's Summer I turn
        evs += g.apply(C("end_phase", g.phase.player))
    got = [x.data["murmansk_received"] for x in evs if x.data.get("murmansk_received")]
    assert got == ([want.brps_delivered] if want.brps_delivered else [])
    assert g.state["turn"] == 4 and evs[-1].data.get("murmansk_received") == got[0]
    assert ledger_history(g).brp("ussr") == ussr + want.brps_delivered
    assert_replays(g)


def test_tr20_summer1_timing_german_commit_in_summer1_then_allied_escort():
    """TR-20 under ``murmansk_timing = summer1``: Spring only ships; Germany owes its
    commitment in its Summer I player turn (U-boats inverted: the Allies see only that some are
    there, in the state and in the log); the Allies then owe the escort in theirs, the combat
    follows, and the survivors are first spendable in the USSR's Summer II turn."""
    g = spring_at_war("summer1")
    g.apply(C("murmansk_ship", "allies", sender="uk"))
    assert g.decisions() == []
    while g.state["turn"] == 3:
        g.apply(C("end_phase", g.phase.player))
    assert g.phase.player == "axis"
    assert [(d.player, d.kinds) for d in g.decisions()] == [("axis", frozenset({"murmansk_commit"}))]
    assert_rejected(g, C("murmansk_escort", "allies", naval=9), "")
    g.apply(C("murmansk_commit", "axis", air=0, naval=0, subs=6))
    allied = g.view("allies")
    assert allied["murmansk"]["german"] == {"air": 0, "naval": 0, "subs": None,
                                            "subs_present": True}
    assert "murmansk" not in allied["secrets"].get("axis", {})
    assert g.events_for("allies", len(g.events) - 1)[0][0]["data"]["german"]["subs"] is None
    assert g.view("axis")["secrets"]["axis"]["murmansk"]["subs"] == 6
    assert g.decisions() == []  # the Allies escort in their own Summer I turn
    while g.phase.player == "axis":
        g.apply(C("end_phase", "axis"))
    _, ev = g.apply(C("murmansk_escort", "allies", naval=9, asw=2))
    res = ev.data["result"]
    want = murmansk_combat(GermanAssets(0, 0, 6), AlliedAssets(9, 2), 20,
                           MurmanskRolls(**res["rolls"]))
    assert res == want.to_json() and ev.data["german"] == {"air": 0, "naval": 0, "subs": 6}
    assert g.view("allies")["murmansk"]["german"]["subs"] == 6  # open after the combat
    assert_rejected(g, C("murmansk_escort", "allies", naval=9), "not allowed")  # resolved
    held = Economy.from_json(g.state["economy"]).balance("ll.murmansk.due")
    assert held == want.brps_delivered
    evs = []
    while g.state["turn"] == 4:
        evs += g.apply(C("end_phase", g.phase.player))
    assert not any(x.data.get("murmansk_received") for x in evs)  # not in Summer I
    while g.state["turn"] == 5 and g.phase.player != "allies":
        evs += g.apply(C("end_phase", g.phase.player))
    got = [x.data["murmansk_received"] for x in evs if x.data.get("murmansk_received")]
    assert got == ([want.brps_delivered] if want.brps_delivered else [])
    assert_replays(g)


def test_tr19_no_northern_lend_lease_before_the_ussr_is_at_war_or_outside_spring():
    g = new(4)
    to_phase(g, "declare_options", "allies")
    assert_rejected(g, C("murmansk_ship", "allies", sender="uk"), "TR-19")
    assert_rejected(g, C("murmansk_escort", "allies", naval=9), "not allowed")
    assert_rejected(g, C("murmansk_escort", "axis", naval=9), "may not act")
    assert_rejected(g, C("murmansk_commit", "axis", subs=3), "may not act")


# --- whole scripted turn: save, load, replay -----------------------------------------------------------


def test_scripted_turn_with_every_new_command_replays_to_the_same_hash():
    g = offensive(3)
    to_phase(g, "movement", "axis")
    g.apply(C("move", "axis", unit="ge-inf2", path=["B6", "B7"]))
    to_phase(g, "combat", "axis")
    play_order(g, C("attack", "axis", hex="F12", attackers=["ge-inf3", "ge-inf4"],
              air=["ge-air1"], fleet="ge-fleet1"))
    settle_battle(g)  # TR-32: the losses and the advance the battle owes
    to_phase(g, "attrition", "axis")
    g.apply(C("attrition", "axis", front="western"))
    to_phase(g, "strategic_deployment", "axis")
    play_order(g, C("sr", "axis", unit="ge-rep1", to="C7"))
    text = dumps(g)
    again = loads(text)
    assert again.state_hash() == g.state_hash()
    other = Game.new(SCENARIO, seed=3)
    for cmd in g.commands:
        other.apply(cmd)
    assert other.state_hash() == g.state_hash()
    assert json.loads(text)  # the save is JSON


# --- air_stage (TR-29) and airdrop (TR-51/TR-52) ---------------------------------------------------


def test_tr29_air_stage_city_to_city_within_twice_range():
    g = offensive()
    to_phase(g, "movement", "axis")
    assert_rejected(g, C("air_stage", "axis", unit="ge-air1", to="E7"), "TR-29.*does not start")
    assert_rejected(g, C("air_stage", "axis", unit="ge-air2", to="C11"), "TR-29.*friendly city")
    assert_rejected(g, C("air_stage", "axis", unit="ge-inf1", to="E7"), "not an air unit")
    (ev,) = g.apply(C("air_stage", "axis", unit="ge-air2", to="E7"))
    assert ev.data == {"side": "axis", "unit": "ge-air2", "from": "C7", "to": "E7",
                       "distance": 2, "allowance": 8}
    assert g.state["units"]["ge-air2"]["hex"] == "E7"
    assert_rejected(g, C("air_stage", "axis", unit="ge-air2", to="C7"), "already moved")


def test_tr51_airdrop_with_escort_and_interceptor_then_tr52_attack_in_its_hex():
    from grognard.third_reich.combat.airborne import air_drop
    from grognard.third_reich.turn.forces import GroundKind, GroundUnit, Side

    g = offensive(3)
    to_phase(g, "movement", "axis")
    (ev,) = play_order(g, C("airdrop", "axis", unit="ge-para1", to="C9", escorts=["ge-air2"],
                      interceptors=["pl-air1"]))
    d = ev.data
    para = GroundUnit("ge-para1", "german", Side.AXIS, GroundKind.AIRBORNE, 3, 3)
    want = air_drop(para, 2, 5, *d["rolls"])
    assert (d["outcome"], d["hits_on_airborne"], d["factors_after"]) == (
        want.outcome.value, want.hits_on_airborne, want.factors_after)
    assert d["air_losses"] == {k: v for k, v in (
        ("ge-air2", want.air_combat.hits_on_phasing),
        ("pl-air1", want.air_combat.hits_on_nonphasing)) if v}
    assert g.state["units"]["ge-para1"]["hex"] == "C9"  # on the enemy-held hex
    assert_rejected(g, C("move", "axis", unit="ge-para1", path=["C10"]), "TR-28|TR-51")
    to_phase(g, "combat", "axis")
    assert_rejected(g, C("attack", "axis", hex="B10", attackers=["ge-para1"]), "TR-52")
    (ev,) = play_order(g, C("attack", "axis", hex="C9", attackers=["ge-para1", "ge-arm1"]))
    assert ev.data["attackers"] == ["ge-para1", "ge-arm1"] and ev.data["result"] == "D2"
    # TR-32/TR-52: the air-landed para already stands in C9 and counts against its stacking
    # limit: only ge-arm1 may advance, alone (issue 23: the attacker's choice)
    assert ev.data["advance_owed"]["units"] == ["ge-arm1"] and ev.data["advance_owed"]["max"] == 1
    assert [c.args["units"] for c in g.legal("axis")] == [["ge-arm1"], []]
    g.apply(C("advance", "axis", units=["ge-arm1"]))
    assert {g.state["units"][u]["hex"] for u in ("ge-para1", "ge-arm1")} == {"C9"}
    assert_replays(g)


def test_tr51_airdrop_orders_checked():
    g = offensive(3)
    to_phase(g, "movement", "axis")
    assert_rejected(g, C("airdrop", "axis", unit="ge-inf1", to="C9"), "not an airborne")
    assert_rejected(g, C("airdrop", "axis", unit="ge-para1", to="F12"), "TR-51.*7 hexes")
    assert_rejected(g, C("airdrop", "axis", unit="ge-para1", to="D4"), "TR-51.*offensive")
    assert_rejected(g, C("airdrop", "axis", unit="ge-para1", to="C9",
                        interceptors=["fr-air1"]), "TR-51.*defender's decision")
    g.apply(C("move", "axis", unit="ge-para1", path=["B7"]))
    assert_rejected(g, C("airdrop", "axis", unit="ge-para1", to="C9"), "TR-51")


# --- naval_transport (TR-54..TR-57) ------------------------------------------------------------------


def _transport(seed, **extra):
    g = Game.new("tr-1939-sea", seed=seed)  # a British air unit contests F5 (TR-60)
    declare(g, eastern="offensive", western="attrition")
    to_phase(g, "movement", "axis")
    (ev,) = play_order(g, C("naval_transport", "axis", fleets=["ge-fleet2"], units=["ge-inf5"],
                      to="F5", **extra))
    return g, ev.data


def test_tr57_transport_port_to_port_in_one_zone_without_interceptors():
    g, d = _transport(4)
    assert (d["zone"], d["capacity"], d["cargo"], d["arrived"]) == ("north_sea", 4, 3, True)
    assert d["interception"] == {"rolls": [], "combat_rolls": [], "steps": [], "losses": {}}
    assert g.state["units"]["ge-inf5"]["hex"] == "F5" == g.state["units"]["ge-fleet2"]["hex"]
    assert g.state["fleet_ops"]["used"] == {"ge-fleet2": "transport"}
    assert_rejected(g, C("move", "axis", unit="ge-inf5", path=["E5"]), "already moved")


def test_tr55_tr56_interception_roll_and_naval_combat_recorded():
    from grognard.third_reich.air_naval.naval import intercept_attempt

    g, d = _transport(2, interceptors=["uk-fleet1"])
    (r,) = d["interception"]["rolls"]
    assert (r["port"], r["range"], r["needed"]) == ("F2", 3, 5)  # 1-5 hexes: 1..5 on 1D6
    assert r["intercepted"] == intercept_attempt(3, r["roll"])
    if r["intercepted"]:
        rec = resolve_hex_combat(HexForces(fleets=(Fleet("ge-fleet2", 9),)),
                                 HexForces(fleets=(Fleet("uk-fleet1", 9),)),
                                 iter(d["interception"]["combat_rolls"]))
        assert d["interception"]["losses"].get("ge-fleet2", 0) == 9 - rec.phasing.fleets[0].factors
        left = rec.phasing.fleets[0].factors
        assert g.state["units"]["ge-fleet2"]["attack"] == left
        assert d["arrived"] == (left // 2 >= 3)
    assert_replays(g)


def test_tr55_transport_turns_back_when_the_fleet_can_no_longer_carry():
    g, d = _transport(5, interceptors=["uk-fleet1"])
    assert d["interception"]["losses"]["ge-fleet2"] == 5  # 4 factors left carry 2 < 3
    assert d["arrived"] is False
    assert g.state["units"]["ge-inf5"]["hex"] == "F6" == g.state["units"]["ge-fleet2"]["hex"]
    assert g.state["units"]["ge-fleet2"]["attack"] == 4


def test_tr57_transport_orders_checked():
    g = offensive(4)
    to_phase(g, "movement", "axis")
    t = {"fleets": ["ge-fleet2"], "units": ["ge-inf5"]}
    assert_rejected(g, C("naval_transport", "axis", **t, to="E5"), "TR-57.*not a port")
    assert_rejected(g, C("naval_transport", "axis", **t, to="F2"), "TR-57.*friendly")
    assert_rejected(g, C("naval_transport", "axis", fleets=["ge-fleet2"], units=["ge-inf1"],
                        to="F5"), "TR-57.*start together")
    assert_rejected(g, C("naval_transport", "axis", **t, to="F5", interceptors=["ge-fleet1"]),
                   "TR-55")
    g.apply(C("move", "axis", unit="ge-inf5", path=["F7"]))
    assert_rejected(g, C("naval_transport", "axis", fleets=["ge-fleet2"], units=["ge-inf5"],
                        to="F5"), "TR-57.*start together")


def test_tr19_murmansk_brps_are_a_whole_number_never_truncated_or_crashing():
    """TR-19 (issue 16): ``brps = "abc"`` raised a ValueError traceback and ``brps = 20.9`` was
    truncated to 20; both are refused and the game is unchanged."""
    g = spring_at_war("spring")
    assert_rejected(g, C("murmansk_ship", "allies", sender="uk", brps="abc"), "brps")
    assert_rejected(g, C("murmansk_ship", "allies", sender="uk", brps=20.9), "brps")
    g.apply(C("murmansk_ship", "allies", sender="uk", brps=20))
