"""War and peace between every pair of countries (TR-22..TR-26, TR-84, TR-86, TR-87, TR-15..18;
issue 23 item 1): third_reich/conquest/diplomacy.py, and the start of each 3R scenario as data.

Quotes are from 002_67ce4e3275b117b3.txt.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.scenario import load_scenario, shipped_scenarios
from grognard.third_reich.conquest import diplomacy as dip
from grognard.third_reich.conquest.diplomacy import Action, Cause, Diplomacy
from grognard.third_reich.scenario_schema import (
    CampaignSection,
    WarsSection,
    third_reich_rules,
)

ROOT_DATA = Path(__file__).resolve().parents[2] / "src" / "grognard" / "data" / "scenarios"
HOME = {
    "germany": ["germany", "slovakia"], "italy": ["italy", "libya", "albania"], "ussr": ["ussr"],
    "uk": ["uk", "egypt", "palestine", "iraq"],
    "france": ["france", "morocco", "algeria", "tunisia", "syria"], "poland": ["poland"],
    "belgium": ["belgium"], "netherlands": ["netherlands"], "hungary": ["hungary"],
    "romania": ["romania"], "bulgaria": ["bulgaria"], "finland": ["finland"],
    "estonia": ["estonia"], "latvia": ["latvia"], "lithuania": ["lithuania"],
    "persia": ["persia"], "greece": ["greece"],
}
SIDES = {"germany": "axis", "italy": "axis", "ussr": "allies", "uk": "allies",
         "france": "allies", "us": "allies", "poland": "allies"}
WARS = msgspec.convert({"at_war": [
    {"between": ["germany", "poland"], "since": 1, "cause": "declaration", "by": "germany"},
    {"between": ["uk", "germany"], "since": 1, "cause": "declaration", "by": "uk"},
    {"between": ["france", "germany"], "since": 1, "cause": "declaration", "by": "france"}],
    "patrons": {"poland": "uk", "belgium": "france", "netherlands": "uk", "greece": "uk"}},
    WarsSection)
CAMP = msgspec.convert({"neutral": ["belgium", "netherlands", "estonia", "latvia", "lithuania",
                                    "persia", "greece"],
                        "axis_minors": ["hungary", "romania", "bulgaria", "finland"],
                        "us_entry_turn": 13}, CampaignSection)


def fall_1939() -> Diplomacy:
    return dip.start(HOME, SIDES, WARS, CAMP)


def test_tr25_fall_1939_germany_at_war_with_poland_uk_france_only() -> None:
    d = fall_1939()
    assert dip.at_war(d, "germany", "poland") and dip.at_war(d, "germany", "uk")
    assert dip.at_war(d, "germany", "france")
    assert dip.at_war(d, "germany", "egypt")  # a colony with its mother country
    for x in ("ussr", "belgium", "netherlands", "hungary", "us", "persia"):
        assert not dip.at_war(d, "germany", x), x
    assert not dip.at_war(d, "italy", "france")  # Italy is not a belligerent yet
    assert not dip.at_war(d, "uk", "france")
    w = dip.war_between(d, "germany", "poland")
    assert w is not None and (w.since, w.cause, w.by) == (1, Cause.DECLARATION, "germany")


def test_tr25_neutral_territory_is_closed_with_the_rule_named() -> None:
    """Done-means: a German attack on a Soviet or Dutch hex, an Italian attack on France, a
    German move into Hungary and an air SR into Iraq are refused in Fall 1939."""
    d = fall_1939()
    for power, country, act, rule in (("germany", "ussr", Action.ATTACK, "TR-25"),
                                      ("germany", "netherlands", Action.ATTACK, "TR-25"),
                                      ("italy", "france", Action.ATTACK, "TR-25"),
                                      ("germany", "hungary", Action.MOVE, "TR-25"),
                                      ("germany", "iraq", Action.SR, "TR-68"),
                                      ("germany", "belgium", Action.ZOC, "TR-27")):
        r = dip.may_enter(d, power, country, act)
        assert r is not None and r.rule == rule, (power, country)
        with pytest.raises(IllegalOrder) as exc:
            dip.verify_may_enter(d, power, country, act)
        assert exc.value.rule == rule
    assert dip.may_enter(d, "germany", "poland", Action.ATTACK) is None
    assert dip.may_enter(d, "germany", "poland", Action.SR, controller_side="axis") is None
    assert dip.may_enter(d, "germany", "persia", Action.SR).rule == "TR-68"  # type: ignore
    assert dip.may_enter(d, "germany", "", Action.NAVAL) is None   # the sea
    assert dip.may_enter(d, "germany", "slovakia") is None        # its own
    assert dip.may_enter(d, "uk", "france") is None               # an ally's
    assert dip.may_enter(d, "uk", "poland") is None               # a minor ally's
    # Italy, neutral, is no ally of Germany yet: German units stay out of Italy
    assert dip.may_enter(d, "germany", "italy") is not None


def test_tr25_declarations_open_the_doors_and_cost_what_the_text_says() -> None:
    """"Declarations of war against minor powers cost 5 BRPs, but any number of minor powers
    can be attacked (and DoWed) for the same 5 BRP cost in the same season. Declarations of
    war against major powers cost 15 BRPs"."""
    d = fall_1939()
    d, rec = dip.declare(d, "germany", ["netherlands", "belgium"], 1)
    assert rec.cost == 5 and rec.rule == "TR-25"
    assert dip.may_enter(d, "germany", "netherlands", Action.ATTACK) is None
    assert rec.joined == {"netherlands": "uk", "belgium": "france"}  # TR-24: join patrons
    d, rec2 = dip.declare(d, "germany", ["hungary"], 1)  # same season: no second 5 BRPs
    assert rec2.cost == 0
    d, rec3 = dip.declare(d, "germany", ["greece"], 2)  # a new season: 5 again
    assert rec3.cost == 5
    d, rec4 = dip.declare(d, "germany", ["ussr"], 2)
    assert rec4.cost == 15
    assert dip.may_enter(d, "germany", "ussr", Action.ATTACK) is None
    assert dip.declaration_cost(fall_1939(), "italy", ["france", "belgium"], 1) == 20


def test_tr25_kept_answers_follow_each_new_diplomacy_value() -> None:
    """may_enter and allies_of keep their answers per diplomacy value: asking the old value
    again after a declaration still gives the old answer, the new value the new one."""
    before = fall_1939()
    closed = dip.may_enter(before, "germany", "netherlands", Action.ATTACK)
    assert closed is not None and closed.rule == "TR-25"
    assert "italy" not in dip.allies_of(before, "germany")  # Italy is not yet at war
    after, _ = dip.declare(before, "germany", ["netherlands"], 1)
    assert dip.may_enter(after, "germany", "netherlands", Action.ATTACK) is None
    assert dip.may_enter(before, "germany", "netherlands", Action.ATTACK) == closed
    at_war, _ = dip.declare(before, "italy", ["france"], 1)
    assert "italy" in dip.allies_of(at_war, "germany")
    assert "italy" not in dip.allies_of(before, "germany")
    # an equal but separate value gets the same answers
    assert dip.may_enter(fall_1939(), "germany", "netherlands", Action.ATTACK) == closed


def test_tr25_declaring_on_a_major_brings_war_with_all_its_allies() -> None:
    """"declaring against a single major power creates a state of war against all countries
    allied with that power": Italy declares on France, and is at war with the UK and Poland."""
    d, rec = dip.declare(fall_1939(), "italy", ["france"], 4)
    assert rec.cost == 15
    for x in ("france", "uk", "poland", "tunisia", "egypt"):
        assert dip.at_war(d, "italy", x), x
    assert not dip.at_war(d, "italy", "ussr")  # the USSR is no belligerent ally of France
    causes = {(w.a, w.b): w.cause for w in rec.new_wars}
    assert causes[("france", "italy")] is Cause.DECLARATION
    assert causes[("italy", "uk")] is Cause.ALLIANCE
    assert "italy" in rec.consequences.belligerent


def test_tr25_refusals_name_the_rule() -> None:
    d = fall_1939()
    for power, targets in (("germany", ["poland"]), ("germany", ["italy"]),
                           ("germany", ["slovakia"]), ("uk", ["france"]),
                           ("germany", ["atlantis"]), ("poland", ["germany"]),
                           ("germany", [])):
        r = dip.can_declare(d, power, targets)
        assert r is not None and r.rule == "TR-25", (power, targets)
        with pytest.raises(IllegalOrder):
            dip.declare(d, power, targets, 1)


def test_tr15_tr84_war_on_the_ussr_opens_lend_lease_and_sets_the_russian_winter() -> None:
    """"Once the USSR is at war with Germany, the UK may elect to give 20 BRPs to the USSR";
    "The first winter turn after Germany and the USSR are at war"."""
    d = fall_1939()
    r = dip.lend_lease_open(d, "uk", "ussr")
    assert r is not None and r.rule == "TR-15"
    assert dip.russian_winter_turn(d) is None
    d, rec = dip.declare(d, "germany", ["ussr"], 9)  # Summer I 1941
    assert dip.lend_lease_open(d, "uk", "ussr") is None
    assert rec.consequences.lend_lease == ("uk->ussr",)
    assert rec.consequences.russian_winter_turn == 12 == dip.russian_winter_turn(d)
    assert rec.consequences.at_war_with_germany == ("ussr",)
    assert dip.lend_lease_open(d, "us", "ussr") is not None  # TR-17 needs the US too
    # a war begun in a Winter turn makes that Winter the first (the reading of
    # combat/hex_defense.russian_winter_applies, which the battles use)
    _, rec2 = dip.declare(fall_1939(), "germany", ["ussr"], 7)
    assert rec2.consequences.russian_winter_turn == 7
    from grognard.third_reich.combat.hex_defense import russian_winter_applies
    from grognard.third_reich.turn.calendar import date_of

    for since in range(2, 20):
        _, r = dip.declare(fall_1939(), "germany", ["ussr"], since)
        t = r.consequences.russian_winter_turn
        assert t is not None
        w, x = date_of(since), date_of(t)
        assert russian_winter_applies(x.year, x.season, w.year, w.season, True), since
        assert not any(russian_winter_applies(date_of(u).year, date_of(u).season, w.year,
                                              w.season, True) for u in range(since, t))


def test_tr24_axis_minors_join_germany_in_summer_1941() -> None:
    """"If not activated before then, all the Axis Minor Powers - Hungary, Romania, Bulgaria
    and Finland - join German in the Summer I turn of 1941"."""
    d, _ = dip.declare(fall_1939(), "germany", ["ussr"], 9)
    assert dip.entries_due(d, 8) == []
    assert dip.entries_due(d, 9) == [Cause.AXIS_MINORS]
    d, recs = dip.enter_by_date(d, 9)
    assert [r.rule for r in recs] == ["TR-24"]
    assert recs[0].joined == {m: "germany" for m in ("hungary", "romania", "bulgaria",
                                                      "finland")}
    for m in ("hungary", "romania", "bulgaria", "finland"):
        assert dip.at_war(d, m, "ussr") and dip.at_war(d, m, "uk")
        assert dip.may_enter(d, "germany", m) is None  # allied territory now
    assert dip.entries_due(d, 9) == []


def test_tr24_a_minor_attacked_joins_and_an_axis_minor_attacked_by_the_allies_joins_germany(
        ) -> None:
    d, rec = dip.declare(fall_1939(), "ussr", ["finland"], 2)
    assert rec.joined == {"finland": "germany"}
    assert dip.at_war(d, "finland", "ussr")
    assert dip.may_enter(d, "germany", "finland") is None
    # a minor with no patron at war with the attacker fights alone
    d, rec = dip.declare(fall_1939(), "ussr", ["persia"], 2)
    assert rec.joined == {} and dip.at_war(d, "ussr", "persia")


def test_tr22_a_minor_ally_enters_its_patrons_new_wars() -> None:
    """A minor "activate[s] at the same time as their controlling nation": Poland, the UK's
    ally, is at war with Italy once the UK is."""
    d, _ = dip.declare(fall_1939(), "italy", ["uk"], 4)
    assert dip.at_war(d, "poland", "italy")


def test_tr86_the_us_enters_in_1942_against_germany_and_its_allies() -> None:
    d, _ = dip.declare(fall_1939(), "italy", ["france"], 4)
    assert dip.entries_due(d, 12) == []
    d, recs = dip.enter_by_date(d, 13)
    assert [r.cause for r in recs] == [Cause.US_ENTRY]
    assert dip.at_war(d, "us", "germany") and dip.at_war(d, "us", "italy")
    assert recs[0].consequences.us_entered
    assert "us->uk" in recs[0].consequences.lend_lease
    # a German declaration brings the US in earlier; the clock then has nothing to do
    d2, rec = dip.declare(fall_1939(), "germany", ["us"], 6)
    assert rec.consequences.us_entered and dip.entries_due(d2, 13) == []


def test_tr26_vichy_peace_ends_frances_wars_and_splits_the_colonies() -> None:
    """"If Paris is controlled by the Axis at the end of any game turn, France makes peace with
    Germany forming Vichy France"; colonies roll Vichy or Free French; "UK earns BRPs from any
    colonies that go Free French"."""
    d, rec = dip.make_peace(fall_1939(), "france", 5, Cause.VICHY,
                            {"syria": "free_french", "morocco": "vichy", "algeria": "vichy",
                             "tunisia": "vichy"})
    assert rec.rule == "TR-26" and not dip.at_war(d, "france", "germany")
    assert [(w.a, w.b) for w in rec.ended] == [("france", "germany")]
    assert dip.at_war(d, "germany", "syria")           # Free French: the UK's
    assert not dip.at_war(d, "germany", "morocco")     # Vichy: neutral
    assert dip.may_enter(d, "germany", "morocco") is not None
    # occupied France: open to whoever controls it and to its enemies
    assert dip.may_enter(d, "germany", "france", controller_side="axis") is None
    assert dip.may_enter(d, "uk", "france", controller_side="axis") is None
    assert dip.may_enter(d, "germany", "france", controller_side=None) is not None
    with pytest.raises(InputError):
        dip.make_peace(fall_1939(), "france", 5, Cause.VICHY, {"egypt": "vichy"})


def test_tr87_ribbentrop_molotov_annexation_is_no_war() -> None:
    d, rec = dip.annex(fall_1939(), "ussr", ["estonia", "latvia", "lithuania"], 2)
    assert rec.minors == ("estonia", "latvia", "lithuania")
    assert not dip.at_war(d, "germany", "estonia") and not dip.at_war(d, "ussr", "germany")
    assert dip.belligerent_of(d, "latvia") == "ussr"
    assert dip.may_enter(d, "ussr", "latvia") is None
    assert dip.may_enter(d, "germany", "latvia", Action.ATTACK) is not None


def test_diplomacy_round_trips_through_json() -> None:
    d, _ = dip.declare(fall_1939(), "germany", ["netherlands", "belgium"], 1)
    d, _ = dip.make_peace(d, "france", 5, Cause.VICHY, {"syria": "free_french"})
    text = json.dumps(dip.to_json(d), sort_keys=True)
    assert dip.from_json(json.loads(text)) == d
    with pytest.raises(InputError):
        dip.from_json({"sides": 3})


def test_start_refuses_bad_tables() -> None:
    for wars in ({"at_war": [{"between": ["germany"]}]},
                 {"at_war": [{"between": ["germany", "atlantis"]}]},
                 {"at_war": [{"between": ["germany", "uk"], "cause": "boredom"}]},
                 {"at_war": [{"between": ["germany", "uk"]}, {"between": ["uk", "germany"]}]},
                 {"patrons": {"belgium": "atlantis"}}, {"patrons": {"uk": "france"}}):
        with pytest.raises(InputError):
            dip.start(HOME, SIDES, msgspec.convert(wars, WarsSection), CAMP)


TR_SCENARIOS = sorted(n for n in shipped_scenarios()
                      if n.startswith("tr-") or n == "demo-third-reich")


@pytest.mark.parametrize("name", TR_SCENARIOS)
def test_every_3r_scenario_states_its_wars(name: str) -> None:
    """Each 3R scenario's start is data: [third_reich.wars] lists the wars in progress."""
    sc = load_scenario(name)
    sides = {**{p: ("axis" if p in ("germany", "italy") else "allies") for p in dip.MAJORS}}
    tr = third_reich_rules(sc).section
    sides.update(tr.sides)
    assert tr.wars.at_war, f"{name} has no [third_reich.wars] at_war"
    d = dip.from_scenario(sc, sides)
    assert d.wars
    assert dip.at_war(d, "germany", "france") or dip.at_war(d, "germany", "uk") or \
        dip.at_war(d, "germany", "ussr")


def test_tr_1939_campaign_starts_in_fall_1939_with_the_texts_wars() -> None:
    sc = load_scenario("tr-1939-campaign")
    sides = {"germany": "axis", "italy": "axis", "ussr": "allies", "uk": "allies",
             "france": "allies", "us": "allies", "poland": "allies"}
    d = dip.from_scenario(sc, sides)
    assert {(w.a, w.b) for w in d.wars} == {("germany", "poland"), ("germany", "uk"),
                                            ("france", "germany")}
    assert d.aligned == {"poland": "uk"}
    assert dip.may_enter(d, "germany", "netherlands", Action.ATTACK) is not None
    assert dip.may_enter(d, "italy", "france", Action.ATTACK) is not None


def test_tr_1944_starts_with_the_wars_of_1944() -> None:
    sc = load_scenario("tr-1944")
    sides = {"germany": "axis", "italy": "axis", "ussr": "allies", "uk": "allies",
             "france": "allies", "us": "allies", "poland": "allies"}
    d = dip.from_scenario(sc, sides)
    for x in ("uk", "ussr", "us"):
        assert dip.at_war(d, "germany", x)
    assert dip.at_war(d, "hungary", "ussr")  # the Axis minors joined in 1941
    assert "france" in d.out and "italy" in d.out
    assert dip.russian_winter_turn(d) == 12  # long past


def test_tr24_an_axis_minor_at_war_from_the_start_entered_in_summer_1941() -> None:
    sc = load_scenario("tr-1944")
    d = dip.from_scenario(sc, {"germany": "axis", "italy": "axis", "ussr": "allies",
                               "uk": "allies", "france": "allies", "us": "allies"})
    w = dip.war_between(d, "hungary", "uk")
    assert w is not None and w.since == 9 and w.cause is Cause.ALLIANCE


@pytest.mark.parametrize("table, field", [
    ('at_war = [{ between = ["germany"] }]', "between"),
    ('at_war = [{ between = ["germany", "atlantis"] }]', "between"),
    ('at_war = [{ between = ["germany", "france"], cause = "boredom" }]', "cause"),
    ('at_war = [{ between = ["germany", "france"], since = 0 }]', "since"),
    ('at_war = [{ between = ["germany", "france"], when = 1 }]', "when"),
    ('patrons = { germany = "uk" }', "patrons"),
])
def test_scenario_schema_refuses_a_bad_wars_table(table: str, field: str) -> None:
    """engine/scenario.py validates [third_reich.wars] with the file's line and field."""
    from grognard.core.errors import GrognardError
    from grognard.engine.scenario import parse_scenario

    text = (ROOT_DATA / "tr-1939-cutoff.toml").read_text("utf-8")
    text = text.split("[third_reich.wars]")[0] + "[third_reich.wars]\n" + table + "\n"
    with pytest.raises(GrognardError) as exc:
        parse_scenario(text)
    assert field in str(exc.value)
    parse_scenario(text.split("[third_reich.wars]")[0])  # without the table it loads


def test_tr25_on_the_map_budapest_and_the_netherlands_are_closed_in_fall_1939() -> None:
    """Done-means, on tr-1939-campaign's map: German armour into Budapest (R34), infantry into
    the Netherlands (K26), air SR into W58 (USSR) and AD53 (Iraq) are refused with the rule
    named; after the declarations they are open (Iraq to an SR only once controlled)."""
    sc = load_scenario("tr-1939-campaign")
    sides = {"germany": "axis", "italy": "axis", "ussr": "allies", "uk": "allies",
             "france": "allies", "us": "allies", "poland": "allies"}
    d = dip.from_scenario(sc, sides)
    m = sc.map
    assert dip.may_enter_hex(d, m, "germany", "R34").rule == "TR-25"  # type: ignore[union-attr]
    r = dip.first_refusal(d, m, "germany", ["L28", "K27", "K26"])
    assert r is not None and r.rule == "TR-25" and r.reason.startswith("K27")
    assert dip.may_enter_hex(d, m, "germany", "W58", Action.SR).rule == "TR-68"  # type: ignore
    assert dip.may_enter_hex(d, m, "germany", "AD53", Action.SR).rule == "TR-68"  # type: ignore
    assert dip.may_enter_hex(d, m, "germany", "M10", Action.NAVAL) is None  # the Atlantic
    d, rec = dip.declare(d, "germany", ["hungary", "netherlands"], 1)
    assert dip.may_enter_hex(d, m, "germany", "R34") is None
    assert dip.first_refusal(d, m, "germany", ["L28", "K27", "K26"]) is None
    d, _ = dip.declare(d, "germany", ["ussr"], 1)
    assert dip.may_enter_hex(d, m, "germany", "W58", Action.SR, controller_side="axis") is None
    data = dip.record_json(rec)
    assert data["cost"] == 5 and data["rule"] == "TR-25"
    # an Axis minor attacked by Germany itself joins the other side (as the engine does)
    assert json.loads(json.dumps(data))["joined"] == {"netherlands": "uk", "hungary": "uk"}
    with pytest.raises(InputError):
        dip.may_enter_hex(d, m, "germany", "ZZ99")
