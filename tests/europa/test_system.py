"""The europa engine system: scripted combats on demo-europa through Game and the CLI.

Every die comes from a named seeded stream, so each test checks the recorded dice against the
stream itself, then the result against the CRT for those dice, and the fixed regression values.
"""

import json

from grognard.cli import main
from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.save import dumps, loads
from grognard.engine.system import system_named
from grognard.engine.testing import assert_rejected, end_phase
from grognard.europa.combat.commands import COMBAT_STREAM
from grognard.europa.combat.crt import crt_result
from grognard.europa.play.system import EUROPA


def move(unit, *path):
    return Command("move", "axis", {"unit": unit, "path": list(path)})


ATTACK = Command("attack", "axis", {"attackers": ["de-7pz", "de-20mot"], "defender_hex": "0704"})
ORDERS = [move("de-7pz", "0504", "0604"), move("de-20mot", "0505", "0604"),
          Command("end_phase", "axis")]


def combat_game(seed):
    g = Game.new("demo-europa", seed=seed)
    for c in ORDERS:
        g.apply(c)
    return g


def allocate(side, *units, player="axis"):
    return Command("allocate_losses", player, {"side": side, "units": list(units)})


def test_europa_system_registers_and_keeps_the_generic_commands():
    g = Game.new("demo-europa", seed=7)
    assert system_named("europa") is EUROPA and g.system.name == "europa"
    assert {"move", "roll_table", "end_phase", "attack", "allocate_losses",
            "retreat"} <= set(EUROPA.commands)
    g.apply(move("de-7pz", "0504"))
    assert g.state["units"]["de-7pz"]["hex"] == "0504"
    assert g.state["units"]["de-7pz"]["re_size"] == 3 and g.state["combat"]["pending"] is None


def test_eur09_scripted_combat_records_odds_drms_roll_and_result():
    """EUR-09: 7 Pz (9, full AEC) + 20 Mot (6, limited AEC) attack the 112 Rifle (6) in clear
    terrain: 15 to 6 = 2-1; armor DRM +1 (armor vs none); the 2D6 from ``europa.combat``."""
    g = combat_game(2)
    events = g.apply(ATTACK)
    ev = events[0]
    d = ev.data
    assert ev.type == "combat_resolved"
    expected = Dice(2).stream(COMBAT_STREAM).roll("2d6")
    assert d["dice"] == list(expected.dice) and d["roll"] == expected.total
    assert d["odds"] == "2-1" and d["column"] == "2-1"
    assert d["attack_strength"] == 15 and d["defense_strength"] == 6
    assert d["drm"] == 1 and d["drm_breakdown"] == {"bombardment": 0, "armor": 1}
    assert d["result"] == str(crt_result("2-1", 1, d["roll"], g.context.tables.get(
        "europa_revised_crt")))
    # the regression values of seed 2
    assert (d["dice"], d["roll"], d["modified_roll"], d["result"]) == ([1, 5], 6, 7, "X1")
    assert d["loss_unit"] == 3 and d["weaker_side"] == "defender"
    assert d["requirements"] == [
        {"side": "attacker", "requirement": 3, "units": ["de-7pz", "de-20mot"]},
        {"side": "defender", "requirement": 3, "units": ["su-112rifle"]}]
    assert d["model"]["terrain"] == "clear" and d["model"]["attackers"][0]["hexsides"] == []
    # EUR-12: the defender's one-step loss leaves a single legal allocation: the engine makes
    # it in the same command and logs it; the attacker's (two choices) is the attacker's
    forced = events[1]
    assert forced.type == "losses_allocated" and forced.data["decided_by"] == "engine"
    assert forced.data["side"] == "defender" and forced.data["eliminated"] == ["su-112rifle"]
    assert forced.data["command"]["player"] == "soviet"
    assert g.state["combat"]["pending"]["requirements"] == d["requirements"][:1]
    assert g.active() == ("axis",) and g.allowed("axis") == {"allocate_losses"}


def test_eur12_allocation_through_the_engine_applies_elimination_and_replacements():
    g = combat_game(2)
    g.apply(ATTACK)
    assert_rejected(g, ATTACK, "EUR-12.*not the decision owed")
    assert_rejected(g, Command("end_phase", "axis"), "EUR-12.*not the decision owed")
    assert_rejected(g, allocate("attacker", "su-112rifle"), "EUR-12.*su-112rifle")
    assert_rejected(g, allocate("attacker", "de-20mot", "de-7pz"), "EUR-12.*de-7pz is not needed")
    assert_rejected(g, allocate("attacker", "de-20mot", player="soviet"), "EUR-12.*may not act")
    assert_rejected(g, Command("retreat", "axis", {"units": ["su-112rifle"], "path": ["0804"]}),
                     "EUR-12")
    legal = g.legal("axis")
    assert {tuple(c.args["units"]) for c in legal} == {("de-20mot",), ("de-7pz",)}
    events = g.apply(allocate("attacker", "de-20mot"))
    ev = events[0].data
    assert ev["steps"] == [{"unit": "de-20mot", "action": "eliminate", "credit": 6,
                            "armor": True}]
    assert ev["credited"] == 6 and ev["excess"] == 3 and ev["eliminated"] == ["de-20mot"]
    assert ev["replacements"] == {"series": "re", "armor": 1, "infantry": 0}
    assert g.state["units"]["de-20mot"]["status"] == "eliminated"
    assert g.state["units"]["de-20mot"]["hex"] is None
    assert g.state["units"]["su-112rifle"]["status"] == "eliminated"
    # EUR-15: the hex is empty, so the attacker may advance (its decision, none = stay)
    assert g.state["combat"]["pending"]["advance"] == {"hex": "0704", "units": ["de-7pz"]}
    assert_rejected(g, allocate("attacker", "de-7pz"), "EUR-15.*not the decision owed")
    assert {tuple(c.args["units"]) for c in g.legal("axis")} == {(), ("de-7pz",)}
    g.apply(Command("advance", "axis", {"units": ["de-7pz"]}))
    assert g.state["combat"]["pending"] is None and g.state["units"]["de-7pz"]["hex"] == "0704"
    # save -> load -> replay gives the same state
    again = loads(dumps(g))
    assert again.state_hash() == g.state_hash()
    replayed = Game.replay(g.scenario, g.seed, g.commands, g.events)
    assert replayed.state_hash() == g.state_hash()
    assert replayed.fold_recorded(g.events) == g.state


def retreat(player, units, path, **more):
    return Command("retreat", player, {"units": units, "path": path, **more})


def test_eur15_eur16_defender_retreat_two_hexes_along_a_legal_path():
    """EUR-15: after DR the defender (the Soviet player, not the attacker) chooses the
    retreat; the attacker may not act until it is made, then chooses its advance."""
    g = combat_game(1)
    d = g.apply(ATTACK)[0].data
    assert d["result"] == "DR" and d["retreats"] == [
        {"side": "defender", "hexes": 2, "units": ["su-112rifle"]}]
    assert g.active() == ("soviet",) and "retreat" in g.prompt("soviet")
    assert_rejected(g, retreat("axis", ["su-112rifle"], ["0804", "0904"]), "may not act")
    assert_rejected(g, Command("end_phase", "axis"), "EUR-15.*may not act")
    assert_rejected(g, retreat("soviet", ["su-112rifle"], ["0804"]),
                     "EUR-16.*not a legal 2-hex retreat")
    assert_rejected(g, retreat("soviet", ["de-7pz"], ["0504"]), "EUR-15.*no pending retreat")
    legal = g.legal("soviet")
    assert Command("retreat", "soviet", {"units": ["su-112rifle"], "path": ["0804", "0904"]}
                   ) in legal and all(g.can(c) for c in legal)
    ev = g.apply(retreat("soviet", ["su-112rifle"], ["0804", "0904"]))[0].data
    assert ev["from"] == "0704" and ev["path"] == ["0804", "0904"]
    assert ev["zoc_entered"] == 0 and ev["losses"] == []
    assert g.state["units"]["su-112rifle"]["hex"] == "0904"
    assert g.active() == ("axis",) and g.allowed("axis") == {"advance"}
    g.apply(Command("advance", "axis", {"units": []}))
    assert g.state["combat"]["pending"] is None and g.state["units"]["de-7pz"]["hex"] == "0604"
    assert loads(dumps(g)).state_hash() == g.state_hash()


def test_eur16_retreat_through_enemy_zoc_pays_the_penalty():
    """EUR-16: one penalty per enemy-ZOC hex entered: the full-strength division (no cadre
    side in the scenario) is eliminated by the one penalty of 0603 (next to 7 Pz in 0604)."""
    g = combat_game(1)
    g.apply(ATTACK)
    ev = g.apply(retreat("soviet", ["su-112rifle"], ["0603", "0503"]))[0].data
    assert ev["zoc_entered"] >= 1
    assert ev["losses"][0] == {"unit": "su-112rifle", "action": "eliminate"}
    assert g.state["units"]["su-112rifle"]["status"] == "eliminated"


def test_illegal_attacks_leave_the_state_hash_unchanged():
    g = combat_game(2)
    assert_rejected(g, Command("attack", "axis", {"attackers": ["de-5inf"],
                                                   "defender_hex": "0704"}),
                     "EUR-09.*not adjacent")
    assert_rejected(g, Command("attack", "axis", {"attackers": ["de-7pz"],
                                                   "defender_hex": "0504"}),
                     "EUR-09.*no enemy unit")
    assert_rejected(g, Command("attack", "axis", {"attackers": ["su-126rifle"],
                                                   "defender_hex": "0704"}),
                     "EUR-09.*belongs to soviet")
    assert_rejected(g, Command("attack", "soviet", {"attackers": ["su-112rifle"],
                                                     "defender_hex": "0604"}), "SEQ")
    assert_rejected(g, allocate("defender", "su-112rifle"), "EUR-12.*no combat result")
    assert_rejected(g, Command("attack", "axis", {"attackers": ["de-7pz"],
                                                   "defender_hex": "0704",
                                                   "bombardment": 3}), "bombardment")


def test_eur09_combat_through_the_cli_replays_to_the_same_hash(capsys, tmp_path):
    save = tmp_path / "g.json"

    def run(*args):
        capsys.readouterr()
        rc = main(list(args))
        out, err = capsys.readouterr()
        return rc, out, err

    rc, _, _ = run("game", "new", "demo-europa", "--seed", "2", "--out", str(save), "--json")
    assert rc == 0
    for c in [*ORDERS, ATTACK]:
        rc, out, err = run("game", "apply", str(save), json.dumps(c.to_json()), "--json")
        assert rc == 0, err
    ev = json.loads(out)["events"][0]["data"]
    assert (ev["roll"], ev["result"], ev["loss_unit"]) == (6, "X1", 3)
    before = save.read_bytes()
    rc, _, err = run("game", "apply", str(save),
                     json.dumps(allocate("attacker", "su-112rifle").to_json()))
    assert rc == 2 and "EUR-12" in err and save.read_bytes() == before
    rc, out, _ = run("game", "apply", str(save),
                     json.dumps(allocate("attacker", "de-7pz").to_json()), "--json")
    data = json.loads(out)
    assert data["events"][0]["data"]["eliminated"] == ["de-7pz"]
    assert data["events"][0]["data"]["replacements"] == {"series": "re", "armor": 2,
                                                          "infantry": 0}
    rc, out, _ = run("game", "replay", str(save), "--json")
    assert rc == 0 and json.loads(out)["state_hash"] == data["state_hash"]
    g = combat_game(2)
    g.apply(ATTACK)
    g.apply(allocate("attacker", "de-7pz"))
    assert g.state_hash() == data["state_hash"]


# --- rule 47 plans as commands -----------------------------------------------------------------
def surprise(kind, **args):
    return Command(kind, "axis", {"command": "AGC", **args})


def to_phase(g, turn, index):
    while (g.turn, g.state["phase"]) != (turn, index):
        end_phase(g)  # a supply phase's check first (EUR-30)


def test_sur05_designated_plan_is_hidden_from_the_enemy_view():
    g = Game.new("europa-surprise", seed=5)
    assert [p.name for p in g.sequence.phases[:11]] == [
        "initial", "bonus_movement", "reaction", "bonus_combat", "bonus_supply_air",
        "movement", "air", "combat", "exploitation", "supply", "replacement"]
    ev = g.apply(surprise("designate_surprise", centre="0604", level=5, target_turn=2))[0]
    assert ev.type == "surprise_planned"
    assert ev.data["record"]["srp_spent"] == 5 and ev.data["record"]["lead_turns"] == 1
    axis, soviet = g.view("axis"), g.view("soviet")
    assert axis["secrets"]["axis"]["surprise"]["AGC"]["plan"]["centre"] == "0604"
    # (the public objective holders name 0604 too: the plan's centre must not leak elsewhere)
    public = {k: v for k, v in soviet.items() if k != "held"}
    assert "axis" not in soviet["secrets"] and "0604" not in json.dumps(public)
    assert soviet["surprise"] == {}


def test_sur07_designation_checks_the_centre_on_the_map():
    g = Game.new("europa-surprise", seed=5)
    assert_rejected(g, surprise("designate_surprise", centre="0101", level=5, target_turn=2),
                     "SUR-07.*neither an enemy nor a friendly ZOC")
    assert_rejected(g, surprise("designate_surprise", centre="0804", level=5, target_turn=2),
                     "SUR-07.*behind the enemy front line")
    assert_rejected(g, surprise("designate_surprise", centre="0604", level=5, target_turn=1),
                     "SUR-05")


def test_sur09_sur10_sur11_sur12_plan_operations_and_the_public_front():
    g = Game.new("europa-surprise", seed=5)
    g.apply(surprise("designate_surprise", centre="0703", level=5, target_turn=2))
    d = g.apply(surprise("delay_surprise", turns=1))[0].data["record"]
    assert d["target_turn"] == 3 and d["srp_cost"] == "1.25"
    m = g.apply(surprise("move_surprise_centre", to="0803"))[0].data["record"]
    assert m["hexes_moved"] == 1 and m["effective_level"] == 4  # hexes counted on the map
    assert_rejected(g, surprise("move_surprise_centre", to="0101"), "SUR-07")
    assert_rejected(g, surprise("reduce_surprise", level=2), "SUR-09")
    assert_rejected(g, surprise("start_surprise"), "SUR-05")
    to_phase(g, 3, 0)
    r = g.apply(surprise("reduce_surprise", level=3))[0].data["record"]
    assert r["from_level"] == 4 and r["to_level"] == 3
    ev = g.apply(surprise("start_surprise"))[0]
    assert ev.type == "surprise_started"
    public = g.view("soviet")["surprise"]["axis"]["AGC"]
    assert public["level"] == 3 and public["centre"] == "0803" and public["status"] == "started"
    # SUR-12: level 3 -> 2 hexes each side of the centre, counted along core.front's line
    assert public["front"]["hexes"] == ["0603", "0703", "0803", "0904", "1004"]
    assert public["front"]["length"] == 5
    assert "axis" not in g.view("soviet")["secrets"]
    # SUR-13: the planner's own units within 5 (mandatory) / 20 (optional) hexes of the front
    cands = {c["id"]: c for c in g.view("axis")["secrets"]["axis"]["surprise"]["AGC"][
        "candidates"]}
    assert set(cands) == {"de-7pz", "de-20mot", "de-5inf", "de-art"}
    assert all(c["role"] == "mandatory" and c["hexes_from_front"] <= 5 for c in cands.values())
    assert cands["de-7pz"]["re"] == 3 and cands["de-art"]["re"] == 1
    assert loads(dumps(g)).state_hash() == g.state_hash()


def test_eur29_barrage_rolls_first_from_its_own_stream_and_adds_the_drm():
    """EUR-29/EUR-05: attacking artillery fires a barrage (2D6 from ``europa.barrage``) before
    the CRT roll; a "1" result gives +1 DRM."""
    g = Game.new("demo-europa", seed=2)
    g.apply(move("de-7pz", "0504", "0604"))
    g.apply(Command("move", "axis", {"unit": "de-art", "path": ["0404", "0504", "0603"]}))
    g.apply(Command("end_phase", "axis"))
    assert_rejected(g, Command("attack", "axis", {"attackers": ["de-art"],
                                                   "defender_hex": "0704"}), "EUR-03")
    d = g.apply(Command("attack", "axis", {"attackers": ["de-7pz", "de-art"],
                                           "defender_hex": "0704"}))[0].data
    expected = Dice(2).stream("europa.barrage").roll("2d6")
    assert d["barrage_dice"] == list(expected.dice) and d["barrage"]["roll"] == expected.total
    assert d["barrage"]["strength"] == 4 and d["barrage"]["hits"] == 1
    assert d["drm_breakdown"] == {"bombardment": 1, "armor": 1} and d["drm"] == 2
    assert d["attack_strength"] == 9  # artillery fires its factors and does not add them


def test_eur10_hexsides_crossed_come_from_the_map():
    """EUR-10: the hexside each attacker crosses is read from the map: the river 0504|0604,
    frozen in winter, and the major river 0505|0605."""
    from grognard.engine.state import thaw
    from grognard.europa.combat.commands import attack_json

    g = Game.new("demo-europa", seed=1)
    s = thaw(g.state)
    s["units"]["su-112rifle"]["hex"] = "0604"
    s["units"]["de-20mot"]["hex"] = "0605"
    s["units"]["de-5inf"]["hex"] = "0505"
    s["units"]["de-7pz"]["hex"] = "0504"
    raw = attack_json(g.context, s, "axis", {"attackers": ["de-7pz"], "defender_hex": "0604"})
    assert raw["attackers"][0]["hexsides"] == ["river"] and raw["terrain"] == "clear"
    raw = attack_json(g.context, s, "axis", {"attackers": ["de-7pz"], "defender_hex": "0604",
                                             "weather": "winter"})
    assert raw["attackers"][0]["hexsides"] == ["frozen_river"]
    s = thaw(s)  # a new position: per-position facts (units by hex) are kept per state
    s["units"]["su-112rifle"]["hex"] = "0605"
    s["units"]["de-20mot"]["hex"] = "0404"
    raw = attack_json(g.context, s, "axis", {"attackers": ["de-5inf"], "defender_hex": "0605"})
    assert raw["attackers"][0]["hexsides"] == ["major_river"]


def test_eur10_target_hex_terrain_fortification_and_major_city_come_from_the_map():
    from grognard.engine.state import thaw
    from grognard.europa.combat.commands import attack_json

    g = Game.new("demo-europa", seed=1)
    s = thaw(g.state)
    s["units"]["su-23tank"]["hex"] = "0805"  # Vitebsk: major city, fortified
    s["units"]["de-7pz"]["hex"] = "0705"
    s["units"]["su-126rifle"]["hex"] = "1008"
    raw = attack_json(g.context, s, "axis", {"attackers": ["de-7pz"], "defender_hex": "0805"})
    assert raw["fortified"] is True and raw["major_city"] is True
    s = thaw(s)  # a new position: per-position facts (units by hex) are kept per state
    s["units"]["su-23tank"]["hex"] = "0604"  # clear, no city
    assert attack_json(g.context, s, "axis", {"attackers": ["de-7pz"],
                                              "defender_hex": "0604"})["major_city"] is False


def test_sur14_sur11_designation_names_a_known_continent_and_delays_are_bounded():
    """SUR-14 / SUR-11 (issue 16): ``continent = "mars"`` was accepted, and a delay of 10^9
    turns recorded 1.25e9 SRPs spent; both are refused and the game is unchanged."""
    g = Game.new("europa-surprise", seed=5)
    assert_rejected(g, surprise("designate_surprise", centre="0604", level=5, target_turn=2,
                                continent="mars"), "continent.*europe, africa, asia")
    g.apply(surprise("designate_surprise", centre="0604", level=5, target_turn=2))
    assert_rejected(g, surprise("delay_surprise", turns=10**9), "turns.*0..24")
