"""TR-32 (issue 23 item 4): in 3R land combat the loser chooses which of its units the CRT
result removes ("The loser chooses which units are lost (as 3R4)", spec TR-32; TR-71: a
defender's CRT loss is never met by a replacement while another unit stands), and the attacker
chooses which surviving attacking units advance into an emptied hex ("surviving attacking
units may advance into that hex up to the 2 unit stacking limit", 002 "Changes to land
combat"). Each choice is a decision owed to that seat (``land_losses``, ``advance``), listed
by ``game legal``, refused with the rule named when illegal, and applied by the engine only
when forced (the event says why).

The position: tr-1939-two-fronts with a second Polish unit (pl-inf3, 2 factors) moved into C9
beside pl-inf1, attacked by ge-arm1 + ge-arm2 (8 v 5, 3-2); the seeds give each CRT result.
"""

from __future__ import annotations

import pytest

from grognard.bots import play_game
from grognard.core.errors import IllegalOrder, InputError
from grognard.engine import Command, Game
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.engine.testing import assert_rejected, assert_replays

SEED_D1, SEED_DR, SEED_X1, SEED_D2, SEED_A1 = 1, 3, 4, 9, 12
SEED_REPLACEMENT_X1 = 2


def C(kind: str, player: str, **args: object) -> Command:
    return Command(kind, player, args)


def _text(replacement: bool = False) -> str:
    text = load_scenario("tr-1939-two-fronts").text
    pl3 = 'id = "pl-inf3"\nnationality = "polish"\nside = "allies"\ntype = "infantry"\n' \
          'attack = 2\ndefense = 2\nmovement = 3\nhex = "B10"'
    assert pl3 in text
    moved = pl3.replace('hex = "B10"', 'hex = "C9"')
    if replacement:
        moved = moved.replace('type = "infantry"', 'type = "replacement"')
    return text.replace(pl3, moved)


def battle(seed: int, replacement: bool = False, **extra: object) -> tuple[Game, dict]:
    """The axis attacks C9 (pl-inf1 + pl-inf3) with ge-arm1 + ge-arm2; the battle's event."""
    g = Game(parse_scenario(_text(replacement)), seed)
    g.apply(C("declare_options", "axis", power="germany",
              options={"eastern": "offensive", "western": "offensive"}))
    while not (g.phase.name == "combat" and g.phase.player == "axis"):
        g.apply(C("end_phase", g.phase.player))
    evs = g.apply(C("attack", "axis", hex="C9", attackers=["ge-arm1", "ge-arm2"], **extra))
    if g.state.get("pending_reaction"):
        evs = g.apply(C(g.state["pending_reaction"]["reaction"], "allies"))
    (ev,) = [e for e in evs if e.type == "battle_resolved"]
    return g, dict(ev.data)


def test_tr32_the_defender_chooses_which_unit_the_d1_removes():
    g, d = battle(SEED_D1)
    assert d["result"] == "D1" and d["eliminated"] == []
    assert d["losses_owed"] == {"allies": {"n": 1, "units": ["pl-inf1", "pl-inf3"],
                                           "crt_defender": True, "role": "defender"}}
    # the loser's seat is asked; the attacker waits
    assert g.active() == ("allies",)
    assert "choose 1 of your units in the battle for C9" in g.prompt("allies")
    assert_rejected(g, C("end_phase", "axis"), "decision (is )?owed")
    legal = g.legal("allies")
    assert [c.args["units"] for c in legal] == [["pl-inf1"], ["pl-inf3"]]
    assert all(c.kind == "land_losses" and g.can(c) for c in legal)
    # not the engine's old pick (weakest first, then by id: pl-inf1): the player's
    (ev,) = g.apply(C("land_losses", "allies", units=["pl-inf3"]))
    assert ev.type == "land_losses_chosen" and ev.data["units"] == ["pl-inf3"]
    assert g.state["units"]["pl-inf3"]["status"] == "eliminated"
    assert g.state["units"]["pl-inf1"]["hex"] == "C9"
    assert "pending_battle" not in g.state and "pending_advance" not in g.state  # C9 held
    assert g.active() == ("axis",)
    assert_replays(g)


def test_tr32_an_illegal_loss_is_refused_with_one_line_and_changes_nothing():
    g, _ = battle(SEED_D1)
    before = g.state_hash()
    assert_rejected(g, C("land_losses", "allies", units=["ge-arm1"]),
                    "TR-32.*ge-arm1 is not in the combat")
    assert_rejected(g, C("land_losses", "allies", units=["pl-inf1", "pl-inf3"]),
                    "TR-32.*2 units chosen, 1 must be lost")
    assert_rejected(g, C("land_losses", "allies", units=["pl-inf1", "pl-inf1"]),
                    "TR-32.*chosen twice")
    assert_rejected(g, C("land_losses", "axis", units=["ge-arm1"]), "decision (is )?owed|owes no")
    with pytest.raises(InputError):
        g.apply(C("land_losses", "allies", units=["pl-inf1"], advance=True))
    with pytest.raises(IllegalOrder, match="TR-32"):
        g.apply(C("advance", "axis", units=["ge-arm1"]))
    assert g.state_hash() == before


def test_tr32_x1_exchange_each_side_chooses_its_own_loss():
    g, d = battle(SEED_X1)
    assert d["result"] == "X1" and set(d["losses_owed"]) == {"allies", "axis"}
    assert d["losses_owed"]["axis"]["crt_defender"] is False
    assert set(g.active()) == {"allies", "axis"}  # simultaneous choices
    assert [c.args["units"] for c in g.legal("axis")] == [["ge-arm1"], ["ge-arm2"]]
    g.apply(C("land_losses", "axis", units=["ge-arm2"]))
    assert g.active() == ("allies",) and g.state["pending_battle"]["lost"] == ["ge-arm2"]
    assert_rejected(g, C("land_losses", "axis", units=["ge-arm1"]), "decision (is )?owed")
    (ev,) = g.apply(C("land_losses", "allies", units=["pl-inf1"]))
    assert ev.data["retreats"] == {} and "advance_owed" not in ev.data  # pl-inf3 holds C9
    lost = {u for u, x in g.state["units"].items() if x["status"] == "eliminated"}
    assert {"ge-arm2", "pl-inf1"} <= lost and not {"ge-arm1", "pl-inf3"} & lost
    assert g.state["units"]["ge-arm1"]["hex"] == "C8"
    assert_replays(g)


def test_tr32_the_attacker_chooses_its_own_a1_loss():
    g, d = battle(SEED_A1)
    assert d["result"] == "A1" and set(d["losses_owed"]) == {"axis"}
    assert g.active() == ("axis",)
    g.apply(C("land_losses", "axis", units=["ge-arm1"]))
    assert g.state["units"]["ge-arm1"]["status"] == "eliminated"
    assert g.state["units"]["ge-arm2"]["hex"] == "D8"


def test_tr32_the_attacker_chooses_who_advances_and_none_is_legal():
    g, d = battle(SEED_D2)
    # forced: both defenders go (D2 on 2 units), the engine says why
    assert d["result"] == "D2" and d["eliminated"] == ["pl-inf1", "pl-inf3"]
    assert d["forced"] == {"defender": "all 2 units lost: no choice"}
    assert d["advanced"] == [] and d["advance_owed"] == {
        "side": "axis", "hex": "C9", "units": ["ge-arm1", "ge-arm2"], "max": 2}
    assert g.active() == ("axis",)
    legal = [c.args["units"] for c in g.legal("axis")]
    assert legal[0] == ["ge-arm1", "ge-arm2"] and legal[-1] == [] and len(legal) == 4
    assert_rejected(g, C("advance", "axis", units=["pl-inf1"]), "TR-32.*not a surviving")
    assert_rejected(g, C("advance", "axis", units=["ge-arm1", "ge-arm1"]), "TR-32.*twice")
    assert_rejected(g, C("end_phase", "axis"), "decision (is )?owed")
    (ev,) = g.apply(C("advance", "axis", units=["ge-arm2"]))
    assert ev.type == "units_advanced" and ev.data == {"side": "axis", "hex": "C9",
                                                       "units": ["ge-arm2"], "rule": "TR-32"}
    assert g.state["units"]["ge-arm2"]["hex"] == "C9"
    assert g.state["units"]["ge-arm1"]["hex"] == "C8"
    assert "pending_advance" not in g.state
    assert g.active() == ("axis",) and g.can(C("end_phase", "axis"))
    assert_replays(g)


def test_tr32_choosing_no_advance_leaves_the_attackers_in_place():
    g, _ = battle(SEED_D2)
    g.apply(C("advance", "axis", units=[]))
    assert g.state["units"]["ge-arm1"]["hex"] == "C8"
    assert g.state["units"]["ge-arm2"]["hex"] == "D8"


def test_tr32_an_attack_declared_without_advance_owes_none():
    g, d = battle(SEED_D2, advance=False)
    assert "advance_owed" not in d and "pending_advance" not in g.state
    assert g.can(C("end_phase", "axis"))


def test_tr32_the_advance_follows_the_defenders_retreat_choice():
    g, d = battle(SEED_DR)
    assert d["result"] == "DR" and d["retreat_choice"]["options"] == ["B9", "C10"]
    assert g.active() == ("allies",)  # the retreat first
    assert_rejected(g, C("advance", "axis", units=["ge-arm1"]), "decision (is )?owed")
    (ev,) = g.apply(C("retreat", "allies", to="C10"))
    assert ev.data["advance_owed"]["units"] == ["ge-arm1", "ge-arm2"]
    assert g.active() == ("axis",) and g.state["pending_advance"]["hex"] == "C9"
    g.apply(C("advance", "axis", units=["ge-arm1", "ge-arm2"]))
    assert {g.state["units"][u]["hex"] for u in ("ge-arm1", "ge-arm2")} == {"C9"}
    assert {g.state["units"][u]["hex"] for u in ("pl-inf1", "pl-inf3")} == {"C10"}
    assert_replays(g)


def test_tr71_a_loss_forced_by_the_replacement_rule_is_applied_by_the_engine():
    """X1 on pl-inf1 + a replacement: TR-71 leaves the defender one legal loss (pl-inf1), so
    the engine applies it and says why; the attacker still chooses its own."""
    g, d = battle(SEED_REPLACEMENT_X1, replacement=True)
    assert d["result"] == "X1" and d["eliminated"] == ["pl-inf1"]
    assert "TR-71" in d["forced"]["defender"] and set(d["losses_owed"]) == {"axis"}
    assert g.active() == ("axis",)
    g.apply(C("land_losses", "axis", units=["ge-arm1"]))
    assert g.state["units"]["pl-inf3"]["hex"] == "C9"


def test_tr32_words_for_the_new_decisions():
    g, _ = battle(SEED_D1)
    w = g.describe(C("land_losses", "allies", units=["pl-inf3"]))
    assert "pl-inf3" in str(w) or "Polish" in str(w)
    assert "{" not in str(w)
    g2, _ = battle(SEED_D2)
    assert "No advance" in str(g2.describe(C("advance", "axis", units=[])))


def test_tr32_heuristic_bots_answer_the_new_decisions_and_reach_the_verdict():
    g = Game.new("tr-1939-two-fronts", seed=2)
    rec = play_game(g, {"axis": "heuristic", "allies": "heuristic"}, seed=2, max_commands=3000)
    assert rec.end == "over" and g.over and g.result["winner"], rec.end
    kinds = {c.kind for c in g.commands}
    assert {"attack", "land_losses", "advance"} <= kinds


# --- invasions (TR-61..TR-63): the same choices after an opposed landing ------------------


def invasion(seed: int) -> tuple[Game, dict]:
    """tr-1939-invasion: ge-inf5 (3) lands from G3 on the French beach F3 (fr-inf9)."""
    g = Game.new("tr-1939-invasion", seed=seed)
    g.apply(C("declare_options", "axis", power="germany", options={"western": "offensive"}))
    while g.phase.name != "movement":
        g.apply(C("end_phase", "axis"))
    evs = g.apply(C("invade", "axis", beach="F3", groups=[
        {"hex": "G3", "zone": "north_sea", "fleets": ["ge-fleet2"],
         "cargo": {"ge-fleet2": ["ge-inf5"]}}]))
    if g.state.get("pending_reaction"):
        evs = g.apply(C(g.state["pending_reaction"]["reaction"], "allies"))
    (ev,) = [e for e in evs if e.type == "invaded"]
    return g, dict(ev.data)


def test_tr32_tr63_the_invader_chooses_to_land_and_places_its_bridgehead():
    g, d = invasion(2)
    assert d["result"] == "D2" and d["succeeded"] and d["eliminated"] == ["fr-inf9"]
    assert d["advanced"] == [] and d["bridgehead"] is None  # not yet: the invader lands
    assert d["advance_owed"]["units"] == ["ge-inf5"] and d["advance_owed"]["max"] == 1
    assert g.active() == ("axis",) and g.state["bridgeheads"] == []
    (ev,) = g.apply(C("advance", "axis", units=["ge-inf5"]))
    assert ev.data["rules"] == ["TR-62", "TR-63"]
    assert g.state["units"]["ge-inf5"]["hex"] == "F3"
    assert g.state["bridgeheads"] == ["F3"] and "ge-inf5" in g.state["invaded"]
    assert_replays(g)


def test_tr32_tr63_an_invader_that_does_not_land_places_no_bridgehead():
    g, _ = invasion(13)
    start = g.state["units"]["ge-inf5"]["hex"]
    g.apply(C("advance", "axis", units=[]))
    assert g.state["units"]["ge-inf5"]["hex"] == start != "F3"
    assert g.state["bridgeheads"] == [] and "ge-inf5" not in g.state.get("invaded", [])


def test_tr32_invasion_retreat_then_the_landing_is_owed():
    """The defender beaten off the beach chooses its retreat hex among the open ones (TR-32,
    issue 23: no longer the engine's first legal hex), then the invader's landing is owed."""
    g, d = invasion(14)
    assert d["result"] == "DR" and d["retreats"] == {}
    assert d["retreat_choice"]["options"] == ["E3", "E4", "F2", "F4"]
    assert g.active() == ("allies",)
    assert [c.args for c in g.legal("allies")] == [{"to": h} for h in ("E3", "E4", "F2", "F4")]
    (ev,) = g.apply(C("retreat", "allies", to="E4"))
    assert ev.data["moves"] == {"fr-inf9": "E4"} and ev.data["advance_owed"]["units"] == ["ge-inf5"]
    assert g.state["units"]["fr-inf9"]["hex"] == "E4"
    assert [c.args["units"] for c in g.legal("axis")] == [["ge-inf5"], []]
