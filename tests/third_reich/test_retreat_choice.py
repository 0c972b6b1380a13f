"""TR-32 retreats after combat are the retreating player's choice, within the stacking limit
(issue 23: the last engine picks of the 3R referee).

"required retreats by either side, which are always a single hex when required" and "If a side
is required to retreat and cannot do so, they may lose 1 additional unit to cancel the
retreat. Note that this option is only available when retreat is impossible" (002 "Changes to
land combat"); 2 ground units a hex, 4 in a bridgehead (TR-28/TR-63). The defender of an
attack (DR, D1R, D2R) or of an invaded beach, and the attacker on an AR, name their hexes
(``retreat``); the engine retreats the units itself only when one way is legal, and says so.

The position (as tests/third_reich/test_land_losses_choice.py): tr-1939-two-fronts, pl-inf1 and
pl-inf3 in C9 attacked by ge-arm1 (C8) and ge-arm2 (D8); seed 3 rolls DR, seed 15 AR.
"""

from __future__ import annotations

import re

from grognard.bots import play_game
from grognard.engine import Command, Game
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.engine.testing import assert_rejected, assert_replays
from grognard.third_reich.air_naval.naval_ops import AirZone
from grognard.third_reich.combat.amphibious import InvasionPlan, OffshoreGroup, resolve_invasion
from grognard.third_reich.combat.battle import retreat_moves
from grognard.third_reich.combat.combat import apply_land_result, parse_crt_result
from grognard.third_reich.turn.forces import Fleet, GroundKind, GroundUnit, Side

SEED_DR, SEED_AR = 3, 15


def C(kind: str, player: str, **args: object) -> Command:
    return Command(kind, player, args)


def _text(at: dict[str, str]) -> str:
    """tr-1939-two-fronts with units moved (``at``: unit -> hex)."""
    text = load_scenario("tr-1939-two-fronts").text
    parts = text.split("[[units]]")
    for uid, h in at.items():
        parts = [re.sub(r'hex = "[A-Z]+[0-9]+"', f'hex = "{h}"', p) if f'id = "{uid}"' in p
                 else p for p in parts]
    return "[[units]]".join(parts)


def battle(seed: int, at: dict[str, str] | None = None,
           bridgeheads: dict[str, list[str]] | None = None) -> tuple[Game, dict]:
    g = Game(parse_scenario(_text({"pl-inf3": "C9", **(at or {})})), seed)
    g.apply(C("declare_options", "axis", power="germany",
              options={"eastern": "offensive", "western": "offensive"}))
    while not (g.phase.name == "combat" and g.phase.player == "axis"):
        g.apply(C("end_phase", g.phase.player))
    if bridgeheads:  # TR-63 bridgeheads as an invasion would have left them
        g.state["bridgehead_owners"] = bridgeheads
        g.state["bridgeheads"] = sorted(h for hs in bridgeheads.values() for h in hs)
    evs = g.apply(C("attack", "axis", hex="C9", attackers=["ge-arm1", "ge-arm2"]))
    if g.state.get("pending_reaction"):
        evs = g.apply(C(g.state["pending_reaction"]["reaction"], "allies"))
    (ev,) = [e for e in evs if e.type == "battle_resolved"]
    return g, dict(ev.data)


def test_tr32_the_defender_chooses_its_retreat_hexes_whole_or_split():
    g, d = battle(SEED_DR)
    assert d["result"] == "DR" and d["retreats"] == {}
    rc = d["retreat_choice"]
    assert rc["side"] == "allies" and rc["options"] == ["B9", "C10"]
    assert g.active() == ("allies",)
    assert "choose where" in g.prompt("allies") and "C9" in g.prompt("allies")
    legal = g.legal("allies")
    assert [c.args["to"] for c in legal] == [
        "B9", "C10", {"pl-inf1": "B9", "pl-inf3": "C10"}, {"pl-inf1": "C10", "pl-inf3": "B9"}]
    assert all(c.kind == "retreat" and g.can(c) for c in legal)
    assert g.describe(legal[0]).short == "retreat to B9"
    assert g.describe(legal[3]).short == "retreat pl-inf1->C10, pl-inf3->B9"
    assert g.places(legal[3]).path == ("B9", "C10")
    assert g.places(legal[3]).units == ("pl-inf1", "pl-inf3")
    (ev,) = g.apply(C("retreat", "allies", to={"pl-inf1": "C10", "pl-inf3": "B9"}))
    assert ev.data["moves"] == {"pl-inf1": "C10", "pl-inf3": "B9"}
    assert g.state["units"]["pl-inf1"]["hex"] == "C10"
    assert g.state["units"]["pl-inf3"]["hex"] == "B9"
    assert g.state["pending_advance"]["side"] == "axis"  # the attacker's advance follows
    assert_replays(g)


def test_tr32_an_illegal_retreat_is_refused_with_the_rule_named():
    g, _ = battle(SEED_DR)
    before = g.state_hash()
    assert_rejected(g, C("retreat", "allies", to="D9"), "TR-32.*cannot retreat to D9")
    assert_rejected(g, C("retreat", "allies", to={"pl-inf1": "B9"}),
                    "TR-32.*name a retreat hex for pl-inf3")
    assert_rejected(g, C("retreat", "allies", to={"pl-inf1": "B9", "pl-inf3": "B9",
                                                  "ge-arm1": "B9"}),
                    "TR-32.*ge-arm1 is not one of the retreating units")
    assert_rejected(g, C("retreat", "axis", to="B9"), "TR-32|decision (is )?owed")
    assert g.state_hash() == before


def test_tr28_retreat_destinations_keep_the_stacking_limit():
    """B9 already holds 2 friendly units: no room. C10 holds 1: room for one more. Both
    survivors cannot retreat: the retreat is impossible, so they lose 1 more unit and the
    other stays in C9 (TR-32)."""
    g, d = battle(SEED_DR, {"fr-inf1": "B9", "fr-inf2": "B9", "fr-inf3": "C10"})
    assert d["result"] == "DR"
    assert d["retreat"] == {"side": "defender", "possible": False, "units": 0, "extra_loss": 1}
    assert d["defender_losses"] == 1 and "retreat_choice" not in d
    assert d["losses_owed"]["allies"]["n"] == 1  # the defender chooses which unit it loses
    (_ev,) = g.apply(C("land_losses", "allies", units=["pl-inf3"]))
    assert g.state["units"]["pl-inf1"]["hex"] == "C9"
    assert "pending_retreat" not in g.state and "pending_advance" not in g.state
    assert_replays(g)


def test_tr28_the_only_legal_retreat_is_the_engines_and_the_event_says_why():
    """B9 is full; C10 is empty: both units fit only there."""
    g, d = battle(SEED_DR, {"fr-inf1": "B9", "fr-inf2": "B9"})
    assert d["retreats"] == {"pl-inf1": "C10", "pl-inf3": "C10"}
    assert d["forced_retreat"]["side"] == "allies" and "only legal" in d["forced_retreat"]["why"]
    assert g.state["units"]["pl-inf1"]["hex"] == "C10"
    assert g.state["pending_advance"]["side"] == "axis"


def test_tr28_a_retreat_into_a_hex_without_room_is_refused():
    """C10 holds 1 friendly unit: only one Pole may go there."""
    g, d = battle(SEED_DR, {"fr-inf3": "C10"})
    assert d["retreat_choice"]["room"] == {"B9": 2, "C10": 1}
    assert_rejected(g, C("retreat", "allies", to="C10"),
                    "TR-28.*2 units cannot retreat into C10: it has room for 1")
    assert [c.args["to"] for c in g.legal("allies")] == [
        "B9", {"pl-inf1": "B9", "pl-inf3": "C10"}, {"pl-inf1": "C10", "pl-inf3": "B9"}]
    g.apply(C("retreat", "allies", to={"pl-inf1": "B9", "pl-inf3": "C10"}))


def test_tr63_a_bridgehead_takes_retreating_units_up_to_4():
    """B9 holds 2 friendly units: full at 2, but a bridgehead there stacks 4 (TR-63), so both
    Poles may retreat into it."""
    at = {"fr-inf1": "B9", "fr-inf2": "B9"}
    _, d = battle(SEED_DR, at)
    assert d["forced_retreat"] and d["retreats"] == {"pl-inf1": "C10", "pl-inf3": "C10"}
    g, d = battle(SEED_DR, at, bridgeheads={"france": ["B9"]})
    assert d["retreat_choice"]["room"] == {"B9": 2, "C10": 2}
    g.apply(C("retreat", "allies", to="B9"))
    assert sum(1 for u in g.state["units"].values() if u["hex"] == "B9") == 4


def test_tr32_the_attacker_chooses_each_units_retreat_hex_on_an_ar():
    g, d = battle(SEED_AR)
    assert d["result"] == "AR" and d["retreats"] == {}
    rc = d["retreat_choice"]
    assert rc["side"] == "axis" and set(rc["units"]) == {"ge-arm1", "ge-arm2"}
    # each unit one hex from where it attacked (C8, D8): never into the attacked hex
    assert "C9" not in rc["each"]["ge-arm1"] and "C9" not in rc["each"]["ge-arm2"]
    assert g.active() == ("axis",)
    legal = g.legal("axis")
    assert legal and all(g.can(c) for c in legal)
    a1, a2 = rc["each"]["ge-arm1"][-1], rc["each"]["ge-arm2"][0]
    (_ev,) = g.apply(C("retreat", "axis", to={"ge-arm1": a1, "ge-arm2": a2}))
    assert g.state["units"]["ge-arm1"]["hex"] == a1
    assert g.state["units"]["ge-arm2"]["hex"] == a2
    assert "pending_advance" not in g.state  # the defender holds C9
    assert g.state["units"]["pl-inf1"]["hex"] == "C9"
    assert_replays(g)


def test_tr32_retreat_moves_and_room_counts():
    assert retreat_moves(["a", "b", "c"], {u: ["X", "Y"] for u in "abc"}, {"X": 2, "Y": 1}) \
        == [{"a": "X", "b": "X", "c": "Y"}, {"a": "X", "b": "Y", "c": "X"},
            {"a": "Y", "b": "X", "c": "X"}]
    # the bridgehead example: 4 units, D2R, backs to the sea -> 3 lost, 1 remains
    o = apply_land_result(parse_crt_result("D2R"), 2, 4, defender_retreat_room=0)
    assert (o.defender_losses, o.hex_emptied) == (3, False)
    # room for fewer than the survivors: impossible too
    o = apply_land_result(parse_crt_result("D1R"), 2, 4, defender_retreat_room=2)
    assert o.retreat is not None and not o.retreat.possible and o.defender_losses == 2


def test_tr61_a_beach_defender_with_nowhere_to_go_loses_one_more_unit():
    """TR-32 in an invasion: with no open hex the beach's defender is not wiped out (the old
    engine reading eliminated every survivor): it loses one more unit instead and the rest hold
    the beach, so the invasion fails."""
    plan = InvasionPlan("B", (OffshoreGroup("S1", "mediterranean", (Fleet("rn", 9),),
                                            (GroundUnit("a", "british", Side.ALLIES,
                                                        GroundKind.INFANTRY, 3, 3),),
                                            {"rn": ("a",)}, AirZone.NONE),))
    d = [GroundUnit(x, "italian", Side.AXIS, GroundKind.INFANTRY, 1, 3) for x in ("d", "e")]
    rolls = [r for r in range(2, 13)
             if (x := resolve_invasion(plan, d, r).result) is not None and x.code == "DR"]
    assert rolls
    free = resolve_invasion(plan, d, rolls[0], defender_retreat_room=2)
    assert free.succeeded and free.outcome is not None and free.outcome.defender_losses == 0
    boxed = resolve_invasion(plan, d, rolls[0], defender_retreat_room=0)
    assert boxed.outcome is not None and boxed.outcome.defender_losses == 1
    assert not boxed.succeeded and not boxed.outcome.hex_emptied


def test_tr32_heuristic_bots_answer_every_retreat():
    g, _ = battle(SEED_AR)
    assert g.active() == ("axis",)
    rec = play_game(g, {"axis": "heuristic", "allies": "heuristic"}, max_commands=40)
    assert rec.error is None and rec.refused == 0
    assert "pending_retreat" not in g.state
