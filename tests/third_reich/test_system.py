"""The third_reich engine system: options drive the phases; ledger, combat, supply, views."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grognard.core.errors import IllegalOrder
from grognard.engine import Command, Game
from grognard.engine.save import dumps, loads
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.engine.system import system_named
from grognard.engine.testing import assert_rejected
from grognard.third_reich.combat.combat import resolve_battle
from grognard.third_reich.economy.economy import Economy, at_turn, new_campaign
from grognard.third_reich.economy.year_start import year_start
from grognard.third_reich.play.history import ledger_history
from grognard.third_reich.play.testing import play_order, settle_battle
from grognard.third_reich.turn.sequence import player_turn

SCENARIO = "tr-1939-two-fronts"


def C(kind, player, **args):
    return Command(kind, player, args)


def new(seed=3):
    return Game.new(SCENARIO, seed=seed)


def to_phase(g, name, player):
    while not (g.phase.name == name and g.phase.player == player):
        g.apply(C("end_phase", g.phase.player))


def declare(g, player="axis", power="germany", **options):
    return g.apply(C("declare_options", player, power=power, options=options))


def econ(g) -> Economy:
    """The balances from the state; the postings re-folded from the events (the state holds
    current facts only)."""
    e = ledger_history(g)
    assert e.summary() == Economy.from_json(g.state["economy"]).summary()
    assert g.state["economy"]["ledger"]["entries"] == []
    return e


def test_system_registered_and_runs_the_demo_scenario():
    assert system_named("third_reich").name == "third_reich"
    g = Game(load_scenario("demo-third-reich"), 1)
    assert g.system.name == "third_reich" and g.phase.name == "declare_options"
    assert "ge-sub" not in g.view("allies")["units"]


def test_tr04_fall_1939_starts_at_the_axis_options_no_year_start():
    g = new()
    assert (g.turn, g.phase.name, g.phase.player) == (1, "declare_options", "axis")


def test_tr02_options_drive_the_phases_the_side_plays():
    g = new()
    declare(g, eastern="offensive", western="attrition")
    seen = []
    while g.phase.player == "axis":
        seen.append(g.phase.name)
        g.apply(C("end_phase", "axis"))
    expected = player_turn({"eastern": "offensive", "western": "attrition"}, {}, "fall")
    allowed = [p.value for p in expected.unified()]
    # issue 11: the phases the options open in which the side has nothing to do but end
    # them are passed over (no air to fly counter air, nothing to intercept, ...)
    assert seen == [p for p in allowed if p in seen]
    assert {"declare_options", "movement", "combat", "attrition"} <= set(seen)
    assert "interception" not in seen  # no command of its own: never stopped in
    # the allies pass everywhere: movement, supply and the tail at most
    declare(g, "allies", "france", western="pass", eastern="pass")
    seen = []
    while g.phase.player == "allies":
        seen.append(g.phase.name)
        g.apply(C("end_phase", "allies"))
    tail = ["declare_options", "movement", "supply", "build", "strategic_deployment",
            "strategic_warfare"]
    assert seen == [p for p in tail if p in seen] and seen[:2] == tail[:2]
    # the turn wraps: Winter 1939, options cleared, the ledger's turn moves too
    assert (g.turn, g.phase.name, g.phase.player) == (2, "declare_options", "axis")
    assert g.state["options"] == {} and econ(g).turn == 2


def test_tr03_options_charged_to_the_ledger_with_rule_and_cause():
    g = new()
    (ev,) = declare(g, eastern="offensive", western="attrition")
    assert ev.data == {"side": "axis", "power": "germany",
                       "options": {"eastern": "offensive", "western": "attrition"}, "cost": 15}
    e = econ(g)
    assert e.brp("germany") == 135
    last = [x for x in e.ledger.entries if x.account == "germany.brp"][-1]
    assert (last.account, last.amount, last.rule) == ("germany.brp", -15, "TR-03")
    assert "eastern offensive" in last.cause and "western attrition" in last.cause
    assert e.balance("germany.turn_cap") == 75  # TR-75: half of 150 on hand at turn start
    assert g.state["economy"]["summary"]["germany"] == {"base": 150, "brp": 135}


def test_tr03_southern_offensive_costs_5_through_1941():
    g = new()
    (ev,) = declare(g, southern="offensive")
    assert ev.data["cost"] == 5


def test_tr03_illegal_options_leave_the_game_untouched():
    g = new()
    assert_rejected(g, C("declare_options", "allies", options={"western": "pass"}), "SEQ")
    assert_rejected(g, C("declare_options", "axis", options={"northern": "pass"}), "front")
    assert_rejected(g, C("declare_options", "axis", power="france",
                        options={"western": "pass"}), "TR-01")
    declare(g, western="pass")
    assert_rejected(g, C("declare_options", "axis", options={"eastern": "pass"}),
                   "already declared")


def test_tr25_declare_war_costs_5_for_minors_once_a_season_and_15_a_major():
    """(The minors' 5 once a season: tests/third_reich/test_war_state.py on the full map;
    this scenario's only minor, Poland, is at war with Germany from the start.)"""
    g = new()
    (ev,) = g.apply(C("declare_war", "axis", power="italy", majors=["france"]))
    assert ev.data["cost"] == 15 and econ(g).brp("italy") == 35
    assert_rejected(g, C("declare_war", "axis", power="germany", minors=["poland"]),
                   "already at war")
    assert_rejected(g, C("declare_war", "axis", power="italy", minors=["poland"]),
                   "already at war")  # TR-25: war on France is war on its allies
    assert_rejected(g, C("declare_war", "axis", power="germany", majors=["italy"]),
                   "own or an ally")


def test_tr75_builds_capped_at_half_the_total():
    g = new()
    declare(g, western="pass", eastern="pass")
    to_phase(g, "build", "axis")
    (ev,) = g.apply(C("build", "axis", power="germany", armor_factors=5))  # 10 BRPs
    assert ev.data["cost"] == 10 and econ(g).brp("germany") == 140
    assert econ(g).ledger.entries[-1].rule == "TR-75"
    # 75 may be spent in all: 65 left -> 66 infantry factors is too much
    assert_rejected(g, C("build", "axis", power="germany", infantry_factors=66), "TR-75")
    g.apply(C("build", "axis", power="germany", infantry_factors=65))
    assert econ(g).brp("germany") == 75
    assert_rejected(g, C("build", "axis", power="germany", naval_fleets=2), "TR-75")


def test_tr32_attack_with_a_fixed_seed_is_recorded_and_applied():
    g = new(seed=3)
    declare(g, eastern="offensive", western="attrition")
    to_phase(g, "combat", "axis")
    (ev,) = play_order(g, C("attack", "axis", hex="C9", attackers=["ge-arm1", "ge-arm2"]))
    d = ev.data
    assert d["dice"] == [6, 2] and d["roll"] == 8
    assert (d["defense"], d["odds"], d["column"], d["drm"]) == (3, "8/3", "2-1", 1)
    assert (d["result"], d["defender_losses"], d["eliminated"]) == ("D2", 1, ["pl-inf1"])
    # TR-32: the hex is emptied; which survivors advance is the attacker's choice
    assert d["advanced"] == [] and d["advance_owed"]["units"] == ["ge-arm1", "ge-arm2"]
    assert d["forced"] == {"defender": "all 1 units lost: no choice"}
    (adv,) = g.apply(C("advance", "axis", units=["ge-arm1", "ge-arm2"]))
    assert adv.data["units"] == ["ge-arm1", "ge-arm2"]
    # the event agrees with the pure rule function on the same roll
    from grognard.third_reich.combat.combat import Battle
    from grognard.third_reich.play.system import ground_unit_of
    s0 = new(seed=3).state
    battle = Battle(attackers=tuple(ground_unit_of(u, s0["units"][u], "axis")
                                    for u in ("ge-arm1", "ge-arm2")),
                    defenders=(ground_unit_of("pl-inf1", s0["units"]["pl-inf1"], "axis"),),
                    defender_can_retreat=True)
    assert resolve_battle(battle, 8, g.context.tables).to_json()["result"] == "D2"
    assert g.state["units"]["pl-inf1"]["status"] == "eliminated"
    assert g.state["units"]["ge-arm1"]["hex"] == "C9"


def test_tr32_illegal_attacks():
    g = new(seed=5)
    declare(g, eastern="offensive", western="attrition")
    assert_rejected(g, C("attack", "axis", hex="C9", attackers=["ge-arm1"]), "SEQ")
    to_phase(g, "combat", "axis")
    assert_rejected(g, C("attack", "axis", hex="D4", attackers=["ge-inf1"]), "TR-03")
    assert_rejected(g, C("attack", "axis", hex="C9", attackers=["ge-inf3"]), "not adjacent")
    assert_rejected(g, C("attack", "axis", hex="C9", attackers=["pl-inf3"]), "not a ground unit")
    assert_rejected(g, C("attack", "axis", hex="C10", attackers=["ge-arm1"]), "no enemy")
    play_order(g, C("attack", "axis", hex="F12", attackers=["ge-inf3"]))
    assert_rejected(g, C("attack", "axis", hex="F12", attackers=["ge-inf4"]), "already been")
    assert_rejected(g, C("attack", "axis", hex="C9", attackers=["ge-inf3"]), "already attacked")
    to_phase(g, "mech_combat", "axis")
    assert_rejected(g, C("attack", "axis", hex="B10", attackers=["ge-inf4"]), "not armor")


def test_tr38_attrition_on_a_front_with_losses_and_hexes():
    g = new(seed=6)
    declare(g, eastern="offensive", western="attrition")
    to_phase(g, "attrition", "axis")
    assert_rejected(g, C("attrition", "axis", front="eastern"), "TR-38")
    (ev,) = g.apply(C("attrition", "axis", front="western"))
    d = ev.data
    assert (d["contact_units"], d["factors"], d["column"]) == (["ge-inf1", "ge-inf2"], 6,
                                                               "col1")
    assert d["roll"] == sum(d["dice"]) == 12 and d["result"] == "D2H1"
    assert d["eliminated"] == ["fr-inf1", "fr-inf2"]  # only units adjacent to the attackers
    assert g.state["units"]["fr-inf3"]["status"] == "active"
    assert g.state["pending_hexes"]["n"] == 1
    assert_rejected(g, C("attrition", "axis", front="western"), "done this turn")
    g.apply(C("take_hexes", "axis", hexes=[]))  # nothing left adjacent to take
    assert g.state["pending_hexes"] is None


def test_tr40_take_hexes_rejects_a_fortified_hex():
    g = new(seed=5)
    declare(g, eastern="offensive", western="attrition")
    to_phase(g, "attrition", "axis")
    g.apply(C("attrition", "axis", front="western"))
    g.state["pending_hexes"] = {"side": "axis", "front": "western", "n": 1, "candidates": ["D4"],
                                "attackers": ["ge-inf1", "ge-inf2"]}  # as an H1 leaves it (its eligible hex)
    assert_rejected(g, C("take_hexes", "axis", hexes=["B4"]), "fortified")
    assert_rejected(g, C("take_hexes", "axis", hexes=[]), "must be named")
    assert_rejected(g, C("take_hexes", "axis", hexes=["D4"], advance={"D4": ["ge-arm1"]}),
                   "did not take part")
    assert_rejected(g, C("take_hexes", "axis", hexes=["D4"], advance={"D4": ["ge-inf2"]}),
                   "not adjacent")
    (ev,) = g.apply(C("take_hexes", "axis", hexes=["D4"], advance={"D4": ["ge-inf1"]}))
    assert ev.data["hexes"] == ["D4"] and ev.data["withdrawing"] == {"D4": ["fr-inf1"]}
    assert g.state["units"]["fr-inf1"]["hex"] == "D4"  # the defender withdraws next
    assert_rejected(g, C("end_phase", "axis"), "decision is owed first by allies")
    # issue 23: no unit is left to the engine - the defender names each (a hex, or null)
    assert_rejected(g, C("withdraw", "allies"), "TR-40.*fr-inf1 not named")
    listed = g.legal("allies", "withdraw")  # complete answers only: each names fr-inf1
    assert listed and all(set(c.args["retreats"]) == {"fr-inf1"} for c in listed)
    assert {c.args["retreats"]["fr-inf1"] for c in listed} == {"C4", "D3", "E4", None}
    (ev,) = g.apply(C("withdraw", "allies", retreats={"fr-inf1": "E4"}))
    assert ev.data["eliminated"] == [] and ev.data["chosen"] == ["fr-inf1"]
    assert g.state["units"]["fr-inf1"]["hex"] == ev.data["retreats"]["fr-inf1"] == "E4"
    assert g.state["units"]["ge-inf1"]["hex"] == "D4"


def test_tr40_withdrawal_forced_when_only_removal_is_left():
    """Issue 23: when the defender's only answer is removing every unit (no retreat hex with
    room: C4, D3 and E4 hold 2 allied units each), the engine makes it and says why."""
    g = new(seed=5)
    declare(g, eastern="offensive", western="attrition")
    to_phase(g, "attrition", "axis")
    g.apply(C("attrition", "axis", front="western"))
    g.state["pending_hexes"] = {"side": "axis", "front": "western", "n": 1, "candidates": ["D4"],
                                "attackers": ["ge-inf1", "ge-inf2"]}
    units = g.state["units"]
    units["fr-inf9"] = {**units["fr-inf1"], "hex": "E4"}
    for uid, to in (("fr-inf2", "C4"), ("pl-inf1", "D3"), ("pl-inf2", "D3"), ("pl-inf3", "E4")):
        units[uid]["hex"] = to
    g.context.cache.clear()
    taken, ev = g.apply(C("take_hexes", "axis", hexes=["D4"], advance={"D4": ["ge-inf1"]}))
    assert taken.type == "hexes_taken" and ev.type == "withdrawn"
    assert ev.data["eliminated"] == ["fr-inf1"] and ev.data["retreats"] == {}
    assert ev.data["forced"]["side"] == "allies" and "room" in ev.data["forced"]["why"]
    assert g.state["pending_withdrawal"] is None and g.state["units"]["fr-inf1"]["hex"] is None
    assert g.state["units"]["ge-inf1"]["hex"] == "D4"
    assert_rejected(g, C("withdraw", "allies", retreats={"fr-inf1": None}), "TR-40|may not act")


def test_tr72_tr73_supply_check_isolates_the_pocket():
    g = new(seed=3)
    declare(g, eastern="offensive", western="attrition")
    to_phase(g, "declare_options", "allies")
    declare(g, "allies", "france", western="pass", eastern="pass")
    to_phase(g, "supply", "allies")
    (ev,) = g.apply(C("supply_check", "allies"))
    d = ev.data
    assert d["out_of_supply"] == ["pl-inf2"]
    (h,) = d["hexes"]
    assert (h["hex"], h["region"], h["adjacent_enemy"], h["home_country"], h["city_path"]) == (
        "F12", "east", True, True, False)
    (r,) = d["rolls"]
    assert r["roll"] == sum(r["dice"]) and r["modified_roll"] == r["roll"] - 1
    assert r["eliminated"] == (r["modified_roll"] <= 7)
    assert (d["eliminated"] == ["pl-inf2"]) == r["eliminated"]
    assert g.state["units"]["pl-inf1"]["supply"] == "in"
    assert_rejected(g, C("supply_check", "allies"), "done")


def test_tr32_impossible_retreat_costs_the_pocket_its_last_unit():
    """TR-32: DR on a unit that cannot retreat (F12 is ringed): one extra loss instead."""
    g = new(seed=1)
    declare(g, eastern="offensive")
    to_phase(g, "combat", "axis")
    (ev,) = play_order(g, C("attack", "axis", hex="F12", attackers=["ge-inf3"]))
    d = ev.data
    assert d["result"] == "DR" and d["retreat"] == {"side": "defender", "possible": False,
                                                    "units": 0, "extra_loss": 1}
    assert d["eliminated"] == ["pl-inf2"] and d["advance_owed"]["units"] == ["ge-inf3"]


def test_tr32_attacker_retreat_moves_the_attacker_back():
    g = new(seed=2)
    declare(g, eastern="offensive")
    to_phase(g, "combat", "axis")
    (ev,) = play_order(g, C("attack", "axis", hex="F12", attackers=["ge-inf3"]))
    d = ev.data
    # TR-32 (issue 23): the attacker chooses its retreat hex among the open ones
    assert d["result"] == "AR" and d["retreats"] == {}
    assert d["retreat_choice"]["side"] == "axis" and d["retreat_choice"]["units"] == ["ge-inf3"]
    to = d["retreat_choice"]["options"][-1]
    g.apply(C("retreat", "axis", to=to))
    assert g.state["units"]["ge-inf3"]["hex"] == to != "F11"


def test_tr72_breakout_eliminates_without_a_roll():
    g = new()
    declare(g, western="pass", eastern="pass")
    to_phase(g, "declare_options", "allies")
    declare(g, "allies", "france", western="pass")
    to_phase(g, "supply", "allies")
    assert_rejected(g, C("supply_check", "allies", breakout=["D4"]), "no out-of-supply")
    (ev,) = g.apply(C("supply_check", "allies", breakout=["F12"]))
    assert ev.data["breakout"] == ["pl-inf2"] and ev.data["rolls"] == []
    assert g.state["units"]["pl-inf2"]["status"] == "eliminated"


def spring_game():
    sc = load_scenario(SCENARIO)
    return Game(parse_scenario(sc.text.replace("[calendar]\nturn = 1", "[calendar]\nturn = 3"),
                               "tr-spring.toml"), 5)


def test_tr09_year_start_in_spring_through_the_engine():
    g = spring_game()
    assert (g.turn, g.phase.name, g.phase.player) == (3, "year_start", "axis")
    assert_rejected(g, C("end_phase", "axis"), "TR-09")
    g.apply(C("year_start", "axis"))
    expected, _ = year_start(at_turn(new_campaign(), 3))
    assert econ(g).summary() == expected.summary()
    assert econ(g).brp("france") == Fraction(60 + 24)  # the Spring 1940 special: +40%
    assert_rejected(g, C("year_start", "axis"), "already")
    g.apply(C("end_phase", "axis"))
    assert g.phase.name == "declare_options"


def test_tr09_year_start_only_in_spring():
    g = new()
    assert_rejected(g, C("year_start", "axis"), "SEQ")


def test_save_load_replay_same_hash():
    g = new(seed=3)
    declare(g, eastern="offensive", western="attrition")
    to_phase(g, "movement", "axis")
    g.apply(C("move", "axis", unit="ge-inf2", path=["B6"]))
    to_phase(g, "combat", "axis")
    play_order(g, C("attack", "axis", hex="C9", attackers=["ge-arm1", "ge-arm2"]))
    settle_battle(g)
    to_phase(g, "attrition", "axis")
    g.apply(C("attrition", "axis", front="western"))
    to_phase(g, "build", "axis")
    g.apply(C("build", "axis", power="germany", infantry_factors=3))
    to_phase(g, "declare_options", "allies")
    declare(g, "allies", "france", western="pass", eastern="pass")
    to_phase(g, "supply", "allies")
    g.apply(C("supply_check", "allies"))
    text = dumps(g)
    again = loads(text)
    assert again.state_hash() == g.state_hash() and dumps(again) == text
    replayed = Game.replay(g.scenario, g.seed, g.commands, g.events)
    assert replayed.state_hash() == g.state_hash()
    assert g.fold_recorded(g.events) == g.state
    # the ledger in state is exact: strings or integers, never floats
    assert all(isinstance(v, (int, str)) for v in g.state["economy"]["ledger"]["balances"]
               .values())


def test_unknown_command_and_wrong_player_leave_hash_unchanged():
    g = new()
    assert_rejected(g, C("teleport", "axis"), "unknown command")
    assert_rejected(g, C("end_phase", "allies"), "SEQ")
    with pytest.raises(IllegalOrder):
        g.apply(C("move", "axis", unit="fr-inf1", path=["D5"]))
