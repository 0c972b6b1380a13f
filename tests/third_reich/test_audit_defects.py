"""Defects the whole-campaign audit of issue 23 found (item 6), each with a test that failed
before its fix. Quotes are from 002_67ce4e3275b117b3.txt."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder
from grognard.engine import Command, Game
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.third_reich.combat.combat import land_loss_choices, verify_land_losses
from grognard.third_reich.economy.economy import (
    Economy,
    advance_turn,
    at_turn,
    declare_war,
    new_campaign,
)
from grognard.third_reich.economy.lendlease import open_iran_route, send_lend_lease
from grognard.third_reich.economy.year_start import next_year_start
from grognard.third_reich.turn.forces import GroundKind, GroundUnit, Side


def _spring_1942_with_iran_lend_lease() -> Economy:
    e = at_turn(new_campaign(), 13)
    e = declare_war(e, "ussr", on_germany=True)
    e = declare_war(e, "us", on_germany=True, enters_economy_with=250)
    e, _ = next_year_start(e)
    e, _ = open_iran_route(e)
    e, _ = send_lend_lease(e, "us", "ussr", "south", 20)
    return e


def test_tr18_iran_lend_lease_reaches_the_ussr_total_in_summer_i() -> None:
    """"These are deducted immediately from the US total, arrive in the Summer I turn and are
    added to the USSR total" (TR-18). The ledger advanced into Summer I 1942 kept the 20 BRPs
    in transit for ever (``grognard tr ledger advance``)."""
    e = _spring_1942_with_iran_lend_lease()
    assert e.balance("ll.south") == 20
    ussr = e.brp("ussr")
    e = advance_turn(e)
    assert e.date.season.value == "summer1"
    assert e.balance("ll.south") == 0 and e.brp("ussr") == ussr + 20
    assert [x.rule for x in e.ledger.entries if x.account == "ussr.brp"][-1] == "TR-18"
    # it arrives once: the next turns change nothing
    e2 = advance_turn(e)
    assert e2.brp("ussr") == e.brp("ussr")


def _unit(uid: str, kind: GroundKind, factors: int) -> GroundUnit:
    return GroundUnit(uid, "french", Side.ALLIES, kind, factors)


def test_tr71_a_defender_crt_loss_is_not_met_by_a_replacement() -> None:
    """"Defender CRT losses in enemy offensives are never recovered by replacements": a D1
    against an infantry corps stacked with a replacement counter costs the corps, not the
    replacement (which would be the corps recovered by a replacement in all but name)."""
    stack = [_unit("fr-inf", GroundKind.INFANTRY, 3), _unit("fr-rep", GroundKind.REPLACEMENT, 1)]
    with pytest.raises(IllegalOrder) as exc:
        verify_land_losses(stack, ["fr-rep"], 1, crt_defender=True)
    assert exc.value.rule == "TR-71"
    verify_land_losses(stack, ["fr-inf"], 1, crt_defender=True)
    verify_land_losses(stack, ["fr-inf", "fr-rep"], 2, crt_defender=True)  # D2: both
    assert land_loss_choices(stack, 1, crt_defender=True) == [("fr-inf",)]
    # a replacement alone in the hex is lost like any unit
    verify_land_losses(stack[1:], ["fr-rep"], 1, crt_defender=True)
    # an attacker's loss may be any unit (replacements do not attack, but the rule is the
    # defender's only)
    assert len(land_loss_choices(stack, 1)) == 2


def test_tr04_no_event_after_campaign_ended_in_the_same_command() -> None:
    """A sudden-death end (Germany's capital held by the Allies at the end of a game turn,
    TR-04) closes the campaign: the same end_phase must not go on to open the next turn with
    ``us_entered`` (TR-86) after ``campaign_ended``. A variant of tr-1939-campaign with the
    Allies in Berlin and the US due in Winter 1939 shows it at the first turn's end."""
    text = load_scenario("tr-1939-campaign").text
    text = text.replace("us_entry_turn = 13", "us_entry_turn = 2\n"
                        'start_control = { allies = ["Berlin"] }')
    g = Game(parse_scenario(text, "variant.toml"))
    while g.turn == 1 and not g.over:
        g.apply(Command("end_phase", g.phase.player, {}))
    types = [e.type for e in g.events[-1]]
    assert types[-1] == "campaign_ended", types
    assert "us_entered" not in types  # the next turn never opens: no entry after the end


def test_tr71_the_engine_does_not_meet_a_defender_crt_loss_with_a_replacement() -> None:
    """tr-1939-cutoff with a French replacement counter stacked with fr-inf1 in B3: the first
    seeded German attack that costs the defender one unit (X1, D1) must not take the
    replacement while the infantry stands (TR-71)."""
    text = load_scenario("tr-1939-cutoff").text
    old = ('id = "fr-arm2"\nnationality = "french"\nside = "allies"\ntype = "armor"\n'
           'attack = 5\nmovement = 4')
    assert old in text
    sc = parse_scenario(text.replace(old, 'id = "fr-rep1"\nnationality = "french"\n'
                                     'side = "allies"\ntype = "replacement"\nattack = 1\n'
                                     'movement = 0'), "variant.toml")
    for seed in range(1, 60):
        g = Game(sc, seed)
        g.apply(Command("declare_options", "axis",
                        {"power": "germany", "options": {"western": "offensive"}}))
        while g.phase.name != "combat":
            g.apply(Command("end_phase", g.phase.player, {}))
        events = g.apply(Command("attack", "axis", {"hex": "B3",
                                                     "attackers": ["ge-inf1", "ge-inf2"]}))
        d = next(e.data for e in events if e.type == "battle_resolved")
        if d["defender_losses"] == 1:
            assert set(d["defenders"]) == {"fr-inf1", "fr-rep1"}
            assert "fr-inf1" in d["eliminated"] and "fr-rep1" not in d["eliminated"], d
            return
    pytest.fail("no seeded attack cost the defender exactly one unit")


def _last_turn_variant(berlin_allied: bool) -> Game:
    """tr-1944 started at its last turn, Summer I 1945 (with Berlin the Allies' if asked)."""
    text = load_scenario("tr-1944").text
    assert "[calendar]\nturn = 23" in text and 'allies = ["Taranto",' in text
    text = text.replace("[calendar]\nturn = 23", "[calendar]\nturn = 29")
    if berlin_allied:
        text = text.replace('allies = ["Taranto",', 'allies = ["Berlin", "Taranto",')
    return Game(parse_scenario(text, "variant.toml"))


@pytest.mark.parametrize("berlin_allied, why", [(True, "Germany surrenders"),
                                                (False, "victory locations")])
def test_tr04_berlin_held_at_the_end_of_the_last_turn_still_makes_germany_surrender(
        berlin_allied: bool, why: str) -> None:
    """TR-04: the end of Summer I 1945 is a game turn's end too. With the Allies holding
    Berlin then, Germany surrenders (an Allied win) - before session 11 the campaign's end
    counted victory locations only, and a Berlin taken on the last turn ended in a draw."""
    g = _last_turn_variant(berlin_allied)
    while not g.over:
        g.apply(Command("end_phase", g.phase.player, {}))
    last = g.events[-1][-1]
    assert last.type == "campaign_ended"
    assert why in last.data["reason"], last.data
    if berlin_allied:
        assert last.data["winner"] == "allies"
