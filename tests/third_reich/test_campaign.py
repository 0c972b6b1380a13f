"""The 1939 campaign in the engine: control, conquest, Ribbentrop-Molotov, the Spring 1940 Year
Start, Vichy, builds placed on the map, the end of the campaign with a verdict (issue 12)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from grognard.core.errors import IllegalOrder
from grognard.engine import Command, Game
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.engine.testing import assert_rejected
from grognard.third_reich.economy.economy import Economy
from grognard.third_reich.turn.powers import Power

SCENARIO = "tr-1939-campaign"


def C(kind, player, **args):
    return Command(kind, player, args)


def without(*nationalities: str, at: dict[str, str] | None = None,
            scenario: str = SCENARIO) -> Game:
    """The campaign with the on-map units of ``nationalities`` taken out and units moved to
    the hexes ``at`` names (a scripted opening without dice)."""
    text = load_scenario(scenario).text
    blocks = text.split("[[units]]")
    keep = [b for b in blocks[1:] if not any(f'nationality = "{n}"' in b and "hex = " in b
                                             for n in nationalities)]
    for uid, h in (at or {}).items():
        keep = [re.sub(r'hex = "[A-Z]+[0-9]+"', f'hex = "{h}"', b)
                if f'id = "{uid}"' in b else b for b in keep]
    return Game(parse_scenario("[[units]]".join([blocks[0], *keep]), "variant.toml"))


def econ(g: Game) -> Economy:
    return Economy.from_json(g.state["economy"])


def end_until(g: Game, turn: int, phase: str, player: str) -> None:
    while not (g.turn == turn and g.phase.name == phase and g.phase.player == player):
        g.apply(C("end_phase", g.phase.player))


def walk(g: Game, unit: str, *path: str) -> None:
    g.apply(C("move", "axis", unit=unit, path=list(path)))


def test_tr04_turn_label_and_start():
    g = Game.new(SCENARIO)
    assert g.status()["date"] == "Fall 1939"
    assert g.phase.name == "declare_options" and g.phase.player == "axis"
    assert g.state["control"]["Warsaw"] == "allies"
    assert "Brussels" not in g.state["control"]  # TR-24: a neutral's cities belong to no side


def test_c_polity_city_control_follows_the_ground_units():
    """A German unit entering Lodz-like cities takes them (issue 12: control never changed)."""
    g = without("polish", at={"ger-inf1": "M34"})
    # Germany is at war with Poland from the scenario start ([third_reich.wars], TR-25)
    g.apply(C("declare_options", "axis", power="germany", options={"eastern": "offensive"}))
    end_until(g, 1, "movement", "axis")
    assert g.state["control"]["Lodz"] == "allies"
    walk(g, "ger-inf1", "M35")
    assert g.state["control"]["Lodz"] == "axis"


def test_tr22_tr87_tv09_tv08_poland_conquered_rm_and_spring_1940_year_start():
    """Germany declares war on Poland and takes Warsaw in Fall 1939; the capital held through
    the Allied player turn conquers Poland (TR-22); the USSR takes its Ribbentrop-Molotov share;
    at the Spring 1940 special Year Start Germany's base is 170 and the USSR's 110 (TR-TV09),
    France receives +24 (60 -> 84, TR-TV08)."""
    g = without("polish", at={"ger-arm8": "M35"})
    # Germany is at war with Poland from the scenario start ([third_reich.wars], TR-25)
    g.apply(C("declare_options", "axis", power="germany", options={"eastern": "offensive"}))
    end_until(g, 1, "movement", "axis")
    walk(g, "ger-arm8", "M36")
    assert g.state["control"]["Warsaw"] == "axis"
    assert g.state["campaign"]["minors"]["poland"]["status"] == "at_war"
    end_until(g, 1, "declare_options", "allies")
    assert g.state["campaign"]["held"]["poland"]["by"] == "axis"
    end_until(g, 2, "declare_options", "axis")
    camp = g.state["campaign"]
    assert camp["minors"]["poland"]["status"] == "conquered"
    assert camp["rm_done"]
    assert g.state["control"]["Lwow"] == "allies"  # the USSR's share (2 players: allies)
    assert g.state["control"]["Krakow"] == "axis"
    assert g.state["control"]["Riga"] == "allies" and g.state["control"]["Kishinev"] == "allies"
    assert camp["minors"]["latvia"]["status"] == "conquered"
    e = econ(g)
    assert e.balance("germany.pending") == 20 and e.balance("ussr.pending") == 20
    assert e.conquests["poland"].value == "germany"
    assert e.conquests["baltic_states"].value == "ussr"
    assert e.base("germany") == 150  # TR-11: nothing before the next Year Start
    end_until(g, 3, "year_start", "axis")
    assert g.status()["date"] == "Spring 1940"
    spent_fr = 60 - econ(g).brp("france")
    events = g.apply(C("year_start", "axis"))
    assert events[0].data["rules"] == ["TR-07"]  # the special Year Start, not TR-09
    e = econ(g)
    assert e.base("germany") == 170 and e.base("ussr") == 110
    assert e.base("france") == 60 and e.brp("france") == 84 - spent_fr
    assert spent_fr == 0


def test_tr26_paris_taken_gives_vichy_and_the_german_portion():
    """Paris Axis-controlled at the end of a game turn: France makes peace, Vichy forms; the
    colonies roll 50-50; occupied France pays Germany 25 from the next Year Start."""
    g = without("polish", "french", "british", at={"ger-inf11": "N24"})
    g.apply(C("declare_options", "axis", power="germany", options={"western": "offensive"}))
    end_until(g, 1, "movement", "axis")
    walk(g, "ger-inf11", "N23")
    assert g.state["control"]["Paris"] == "axis"
    assert "france" in {p.value for p in econ(g).powers}
    end_until(g, 2, "declare_options", "axis")
    camp = g.state["campaign"]
    assert camp["vichy"] is not None and set(camp["vichy"]) == {"morocco", "algeria", "tunisia",
                                                                 "syria"}
    e = econ(g)
    assert "france" not in {p.value for p in e.powers}
    assert e.conquests["occupied_france"].value == "germany"
    assert e.balance("germany.pending") == 25
    free = [c for c, a in camp["vichy"].items() if a == "free_french"]
    assert e.balance("uk.pending") == 5 * len(free)
    assert "Lyon" not in g.state["control"]  # unoccupied France: Vichy, neutral
    assert g.state["control"]["Brest"] == "axis"  # occupied France (outside the Vichy zone)


def _to_build(g: Game, player: str = "axis") -> None:
    while not (g.phase.name == "build" and g.phase.player == player):
        g.apply(C("end_phase", g.phase.player))


def test_tr75_tr64_build_places_the_unit_at_a_legal_location():
    g = Game.new(SCENARIO)
    _to_build(g)
    pool = [c for c in g.legal("axis", "build_unit")]
    assert pool, "the German force pool can be built"
    before = econ(g).brp("germany")
    cmd = next(c for c in pool if c.args["unit"].startswith("ger-inf"))
    g.apply(cmd)
    u = g.state["units"][cmd.args["unit"]]
    assert u["hex"] == cmd.args["hex"] and u["box"] is None and u["status"] == "active"
    assert econ(g).brp("germany") == before - 3
    # TR-64: not outside the home country, not at sea, not a fleet inland
    uid = next(k for k, u in g.state["units"].items()
               if k.startswith("ger-inf") and u["box"] == "force_pool")
    assert_rejected(g, C("build_unit", "axis", unit=uid, hex="N23"), "TR-64")  # Paris
    fleet = next(c.args["unit"] for c in pool if c.args["unit"].startswith("ger-nav"))
    assert_rejected(g, C("build_unit", "axis", unit=fleet, hex="L31"), "TR-64")  # Berlin
    # TR-85: the 5-strength armour joins the pool only in 1941
    late = next(uid for uid, u in g.state["units"].items()
                if uid.startswith("ger-arm") and u["attack"] == 5)
    assert_rejected(g, C("build_unit", "axis", unit=late, hex="L31"), "TR-85")


def test_tr64_build_next_to_enemy_ground_follows_the_enemy_units():
    """TR-64: a ground unit is not built next to enemy ground units (except in an occupied
    home city); the hexes next to the enemy are kept across commands while the enemy-held
    hexes are the same, and follow them when the enemy moves."""
    g = Game.new(SCENARIO)
    _to_build(g)
    m = g.scenario.map
    held = {u["hex"] for u in g.state["units"].values() if u["status"] == "active"
            and u["hex"] is not None}
    cmd = next(c for c in g.legal("axis", "build_unit")
               if c.args["unit"].startswith("ger-inf") and c.args["hex"] not in held)
    g.verify(cmd)  # an empty German city, away from the enemy
    i = m.label_indices[cmd.args["hex"]]
    nb = next(m.label(int(j)) for j in m.neighbor_indices(i) if m.label(int(j)) not in held)
    enemy = next(uid for uid, u in sorted(g.state["units"].items())
                 if u["side"] == "allies" and u["status"] == "active" and u["hex"] is not None
                 and u["type"] == "infantry")
    home = g.state["units"][enemy]["hex"]
    g.state["units"][enemy]["hex"] = nb
    g._changed()
    assert_rejected(g, cmd, "TR-64")
    g.state["units"][enemy]["hex"] = home
    g._changed()
    g.verify(cmd)


def test_tr64_tr30_fleet_not_built_in_a_port_under_uncontested_enemy_air():
    """TR-64/TR-30: a fleet is not built in a port in an uncontested enemy air zone (the air
    zone is read only where it decides the answer); with the enemy air gone it may be."""
    g = Game.new(SCENARIO)
    _to_build(g)
    m = g.scenario.map
    cmd = next(c for c in g.legal("axis", "build_unit") if c.args["unit"].startswith("ger-nav"))
    g.verify(cmd)
    air = next(uid for uid, u in sorted(g.state["units"].items())
               if u["side"] == "allies" and u["type"] == "air" and u["status"] == "active"
               and u["hex"] is not None)
    home = g.state["units"][air]["hex"]
    i = m.label_indices[cmd.args["hex"]]
    g.state["units"][air]["hex"] = m.label(int(m.neighbor_indices(i)[0]))
    g._changed()
    assert_rejected(g, cmd, "TR-64.*uncontested enemy air zone")
    g.state["units"][air]["hex"] = home
    g._changed()
    g.verify(cmd)


def test_tr04_campaign_ends_after_summer_i_1945_with_a_verdict():
    g = Game.new(SCENARIO)
    while not g.over:
        g.apply(C("end_phase", g.active()[0]) if g.phase.name != "year_start"
                else C("year_start", "axis") if g.can(C("year_start", "axis"))
                else C("end_phase", "axis"))
    assert g.turn == 29 and g.status()["date"] == "Summer I 1945"
    res = g.result
    assert res["winner"] in ("axis", "allies", "draw") and res["rule"] == "TR-04"
    assert sum(res["victory_locations"].values()) > 0
    assert "Summer I 1945" in res["summary"]
    with pytest.raises(IllegalOrder):
        g.verify(C("end_phase", "axis"))


def test_tr24_axis_minors_join_in_summer_i_1941_and_us_enters_1942():
    g = Game.new(SCENARIO)
    while g.turn < 9:
        g.apply(C("end_phase", g.phase.player) if g.phase.name != "year_start" or not
                g.can(C("year_start", "axis")) else C("year_start", "axis"))
    minors = g.state["campaign"]["minors"]
    assert all(minors[m]["status"] == "ally" and minors[m]["side"] == "axis"
               for m in ("hungary", "romania", "bulgaria", "finland"))
    assert g.state["control"]["Budapest"] == "axis"
    hun = [u for u in g.state["units"].values() if u["power"] == "hungary"]
    assert hun and all(u["hex"] is not None for u in hun)
    assert econ(g).minor_allies["hungary"].value == "germany"
    while g.turn < 13:
        g.apply(C("end_phase", g.phase.player) if g.phase.name != "year_start" or not
                g.can(C("year_start", "axis")) else C("year_start", "axis"))
    assert "us" in {p.value for p in econ(g).powers} and econ(g).base("us") == 250


def test_tr03_declare_war_on_a_neutral_activates_it_on_the_other_side():
    g = Game.new(SCENARIO)
    g.apply(C("declare_war", "axis", power="germany", minors=["belgium"]))
    m = g.state["campaign"]["minors"]["belgium"]
    assert m["status"] == "at_war" and m["side"] == "allies"
    assert g.state["control"]["Brussels"] == "allies"
    bel = [u for u in g.state["units"].values() if u["power"] == "belgium"]
    assert bel and all(u["hex"] in ("L24", "L25", "M26") for u in bel)  # its cities


def test_c_polity_unknown_variant_scenarios_unchanged():
    """Scenarios without a campaign table still get control by occupation and an end."""
    g = Game.new("tr-1939-two-fronts")
    assert g.state["campaign"]["minors"]["poland"]["status"] == "at_war"
    assert Fraction(0) == 0
    assert re.match(r"Fall 1939", g.status()["date"])


def test_tr04_tr1944_starts_in_spring_1944_with_its_situation():
    g = Game.new("tr-1944")
    assert g.status()["date"] == "Spring 1944" and g.phase.name == "year_start"
    e = econ(g)
    assert {p.value for p in e.powers} == {"germany", "ussr", "uk", "us"}
    assert Power.US in e.at_war_with_germany and Power.USSR in e.at_war_with_germany
    assert g.state["control"]["Paris"] == "axis" and g.state["control"]["Taranto"] == "allies"
    assert g.state["campaign"]["minors"]["hungary"]["status"] == "ally"
    g.apply(C("year_start", "axis"))
    assert econ(g).brp("germany") == 180  # TR-09: BRPs = the base


def test_tr01_three_players_axis_ussr_western_allies():
    g = Game.new("tr-1939-campaign-3p")
    assert g.scenario.sides == ("axis", "ussr", "allies")
    seen = []
    while g.turn == 1:
        if g.phase.player not in seen:
            seen.append(g.phase.player)
        g.apply(C("end_phase", g.phase.player))
    assert seen == ["axis", "ussr", "allies"]
    assert g.state["power_sides"]["ussr"] == "ussr" and g.state["control"]["Moscow"] == "ussr"


def test_tr03_options_per_power_per_front():
    """TR-03: each power declares its own option per front (issue 12: Italy was refused after
    Germany had declared); a power declares once a turn; each pays its own."""
    g = Game.new(SCENARIO)
    g.apply(C("declare_options", "axis", power="germany", options={"eastern": "offensive"}))
    g.apply(C("declare_options", "axis", power="italy", options={"southern": "offensive",
                                                                  "eastern": "attrition"}))
    assert econ(g).brp("italy") == 40 and econ(g).brp("germany") == 140  # 5 + 5; 10
    opts = g.state["options"]["axis"]
    assert opts["eastern"] == {"option": "offensive", "power": "germany"}
    assert opts["southern"]["option"] == "offensive"
    assert_rejected(g, C("declare_options", "axis", power="germany",
                         options={"western": "attrition"}), "TR-03")
    end_until(g, 2, "declare_options", "axis")
    g.apply(C("declare_options", "axis", power="germany", options={"western": "attrition"}))


def test_tr16_tr18_lend_lease_us_to_uk_and_by_iran_arrives_in_summer_i():
    """Issue 12: lend lease in the engine: US -> UK 20 at once (TR-16); the US opens the Iran
    route (15) and sends 20, which reaches the USSR at the start of Summer I (TR-18)."""
    g = Game.new("tr-1944")
    g.apply(C("year_start", "axis"))
    end_until(g, 23, "declare_options", "allies")
    kinds = {(c.args["sender"], c.args["receiver"], c.args["route"])
             for c in g.legal("allies", "lend_lease")}
    assert ("us", "uk", "direct") in kinds and ("us", "ussr", "south") not in kinds
    uk, us = econ(g).brp("uk"), econ(g).brp("us")
    g.apply(C("lend_lease", "allies", sender="us", receiver="uk", route="direct", amount=20))
    assert econ(g).brp("uk") == uk + 20 and econ(g).brp("us") == us - 20
    assert_rejected(g, C("lend_lease", "allies", sender="us", receiver="ussr", route="south",
                         amount=20), "TR-18")
    g.apply(C("open_iran_route", "allies"))
    g.apply(C("lend_lease", "allies", sender="us", receiver="ussr", route="south", amount=20))
    assert econ(g).balance("ll.south") == 20
    ussr = econ(g).brp("ussr")
    end_until(g, 24, "declare_options", "axis")
    assert econ(g).balance("ll.south") == 0 and econ(g).brp("ussr") == ussr + 20
    assert_rejected(g, C("lend_lease", "axis", sender="germany", receiver="italy",
                         route="direct", amount=10), "TR-19")
