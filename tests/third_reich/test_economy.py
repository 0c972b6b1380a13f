"""C-ECON ledger, TR-75 half cap, TR-77/TR-78 economic loss from conquest and air attack."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grognard.core.errors import IllegalOrder, InputError
from grognard.third_reich.economy.economic_loss import (
    bomb_city,
    capture_city,
    city_bombing,
    city_value,
    liberate_ussr_city,
)
from grognard.third_reich.economy.economy import (
    Economy,
    advance_turn,
    at_turn,
    begin_player_turn,
    new_campaign,
    spend,
)
from grognard.third_reich.economy.year_start import year_start


def test_cecon_new_campaign_starting_ledger():
    e = new_campaign()
    assert e.summary() == {
        "germany": {"base": 150, "brp": 150}, "italy": {"base": 50, "brp": 50},
        "ussr": {"base": 90, "brp": 90}, "uk": {"base": 125, "brp": 125},
        "france": {"base": 60, "brp": 60}}
    assert all(x.rule == "TR-86" for x in e.ledger.entries)
    with pytest.raises(InputError, match="scenario"):
        new_campaign("campaign-1942")


def test_cecon_every_change_is_an_entry_with_rule_and_cause():
    e, rec = spend(new_campaign(), "germany", 10, "TR-03", "western offensive")
    last = e.ledger.entries[-1]
    assert (last.account, last.amount, last.rule, last.cause) == (
        "germany.brp", -10, "TR-03", "western offensive")
    assert rec.brp_after == 140


def test_cecon_json_round_trip():
    e, _ = spend(new_campaign(), "uk", Fraction(15, 2), "TR-31", "half")
    raw = json.loads(json.dumps(e.to_json()))
    back = Economy.from_json(raw)
    assert back.ledger == e.ledger and back.turn == e.turn and back.powers == e.powers
    assert raw["summary"]["uk"]["brp"] == "117.5"


def test_cecon_ledger_json_is_the_ledgers_own_form_with_remembered_values():
    """C-ECON: the economy writes and reads its ledger through remembered exact values
    (economy.ledger_json / ledger_of); the JSON is the ledger's own, exact, and repeated
    reads give equal ledgers, a malformed balance is still refused."""
    from grognard.core.ledger import Ledger
    from grognard.third_reich.economy.economy import ledger_json, ledger_of

    e, _ = spend(new_campaign(), "uk", Fraction(15, 2), "TR-31", "half")
    e, _ = spend(e, "france", Fraction(1, 3), "TR-31", "a third")
    assert ledger_json(e.ledger) == e.ledger.to_json()
    raw = json.loads(json.dumps(e.to_json()))
    assert raw["ledger"]["balances"]["france.brp"] == "179/3"
    for _ in range(2):
        assert ledger_of(raw["ledger"]) == Ledger.from_json(raw["ledger"]) == e.ledger
    cleared = {**raw["ledger"], "entries": []}
    assert ledger_of(cleared) == Ledger.from_json(cleared)
    assert ledger_of(cleared).entries == ()
    with pytest.raises(InputError, match="ledger"):
        Economy.from_json({**raw, "ledger": {"balances": {"uk.brp": "x/y"}}})


def test_cecon_bad_ledger_file():
    with pytest.raises(InputError, match="format"):
        Economy.from_json({"format": "other"})
    with pytest.raises(InputError, match="turn"):
        Economy.from_json({"format": "grognard.tr_ledger/1", "turn": 40})
    with pytest.raises(InputError, match="powers"):
        Economy.from_json({"format": "grognard.tr_ledger/1", "turn": 1, "powers": ["japan"]})


def test_cecon_cannot_spend_more_than_on_hand_state_unchanged():
    e = new_campaign()
    with pytest.raises(IllegalOrder):
        spend(e, "france", 61, "TR-31", "too much")
    assert e.brp("france") == 60
    with pytest.raises(InputError, match="power"):
        spend(e, "japan", 1, "TR-31", "x")


def test_tr75_half_of_total_per_turn():
    """Seed 002 "Build limits": 'Any power can only spend 1/2 of its BRP total in a single game
    turn.'"""
    e = begin_player_turn(new_campaign(), "france")
    e, _ = spend(e, "france", 20, "TR-31", "units")
    e, _ = spend(e, "france", 10, "TR-03", "offensive", build=False)
    with pytest.raises(IllegalOrder, match="TR-75"):
        spend(e, "france", 1, "TR-31", "one more")
    e2 = begin_player_turn(advance_turn(e), "france")
    assert spend(e2, "france", 15, "TR-31", "ok")[0].brp("france") == 15


def test_tr04_campaign_ends_after_turn_29():
    with pytest.raises(IllegalOrder, match="TR-04"):
        advance_turn(at_turn(new_campaign(), 29))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 30), max_size=12))
def test_cecon_ledger_conserves_points(amounts):
    """Property: balances are always the sum of their entries; spending never goes negative."""
    e = new_campaign()
    for a in amounts:
        if a <= e.brp("germany"):
            e, _ = spend(e, "germany", a, "TR-31", "buy")
    total = sum(x.amount for x in e.ledger.history("germany.brp"))
    assert total == e.brp("germany") >= 0


def test_tr77_tv04_multi_city_hexes():
    """TR-TV04, seed 002 "Economic loss...": Southampton & Portsmouth 6; Manchester & Sheffield
    7."""
    assert city_value(["black_port", "black_port"]) == 6
    assert city_value(["red_victory", "black_city"]) == 7


def test_tr78_tv03_southern_england_41_a_year():
    """TR-TV03: 'An unopposed German air campaign could inflict 41 BRPs of loss on southern
    England each year (10 London, 10 for 2 red cities, 15 for 5 ports, 6 for 3 black cities).'"""
    cities = ["capital"] + ["red_victory"] * 2 + ["black_port"] * 5 + ["black_city"] * 3
    assert sum(city_value([c]) for c in cities) == 41


def test_tr78_tv02_london_raid_hits():
    """TR-TV02: 3 German 5-4s (15 factors) on London unopposed: 0,0,3,3,3,6,6,6,9,9."""
    assert [city_bombing(15, r, remaining=10) for r in range(1, 11)] == [
        0, 0, 3, 3, 3, 6, 6, 6, 9, 9]


def test_tr77_78_tv05_france_loses_23():
    """TR-TV05, seed 002: Germany occupies Sedan, Calais and Dieppe (7); Italy takes Marseilles
    (6); Germany bombs Paris for 6 hits; Italy gets 4 hits on Lyon: France loses 23. (Sedan,
    Calais, Dieppe classes are EXTERNAL: taken as black city, black port, black city = 7.)"""
    e = new_campaign()
    start = e.brp("france")
    e, _ = capture_city(e, "france", "sedan", ["black_city"])
    e, _ = capture_city(e, "france", "calais", ["black_port"])
    e, _ = capture_city(e, "france", "dieppe", ["black_city"])
    assert start - e.brp("france") == 7
    e, rec = capture_city(e, "france", "marseilles", ["red_port"])
    assert rec.loss == 6
    e, paris = bomb_city(e, "france", "paris", ["capital"], 10, 10)  # 10 x 0.6 = 6 hits
    e, lyon = bomb_city(e, "france", "lyon", ["red_victory"], 10, 7)  # 10 x 0.4 = 4 hits
    assert (paris.loss, lyon.loss) == (6, 4)
    assert start - e.brp("france") == 23
    assert [x.rule for x in e.ledger.history("france.brp")][-6:] == [
        "TR-77", "TR-77", "TR-77", "TR-77", "TR-78", "TR-78"]


def test_tr77_capture_loss_only_once():
    e, _ = capture_city(new_campaign(), "uk", "london", ["capital"])
    e, rec = capture_city(e, "uk", "london", ["capital"])
    assert rec.loss == 0 and e.brp("uk") == 115


def test_tr78_bombing_capped_by_city_value_per_year_cleared_in_spring():
    e = at_turn(new_campaign(), 4)
    e, r1 = bomb_city(e, "uk", "london", ["capital"], 15, 10)
    e, r2 = bomb_city(e, "uk", "london", ["capital"], 15, 10)
    assert (r1.loss, r2.loss) == (9, 1)
    e, r3 = bomb_city(e, "uk", "london", ["capital"], 15, 10)
    assert r3.loss == 0
    e, _ = year_start(at_turn(e, 8))
    e, r4 = bomb_city(e, "uk", "london", ["capital"], 15, 10)
    assert r4.loss == 9


def test_tr12_ussr_city_capture_goes_to_axis_value_not_pool():
    e = new_campaign()
    e, rec = capture_city(e, "ussr", "moscow", ["capital"])
    assert rec.rule == "TR-12" and e.brp("ussr") == 90 and e.balance("ussr.axis_cities") == 10
    e = liberate_ussr_city(e, "moscow", ["capital"])
    assert e.balance("ussr.axis_cities") == 0
    with pytest.raises(IllegalOrder, match="TR-12"):
        liberate_ussr_city(e, "kiev", ["red_victory"])
    with pytest.raises(IllegalOrder, match="TR-12"):
        bomb_city(e, "ussr", "kiev", ["red_victory"], 10, 10)


def test_tr77_unknown_city_class():
    with pytest.raises(InputError, match="city_classes"):
        city_value(["metropolis"])


def test_tr12_pre_war_ussr_city_values_worked_example():
    """TR-12 (002 "Strategic Warfare and the USSR"): "Moscow is worth 10 BRPs, Leningrad 6 BRPs
    (5 as a red victory city +1 for being a port), all other red victory cities 5 BRPs, all
    other ports 3 BRPs, and all other cities (the small black dots) 2 BRPs." Taking one of each
    puts 10 + 6 + 5 + 3 + 2 = 26 on the Axis-held value, which comes off the base at the next
    Year Start, not off the pool."""
    e = new_campaign()
    for city, cls in (("moscow", "capital"), ("leningrad", "red_port"), ("kiev", "red_victory"),
                      ("odessa", "black_port"), ("smolensk", "black_city")):
        e, rec = capture_city(e, "ussr", city, [cls])
        assert rec.loss == 0
    assert e.balance("ussr.axis_cities") == 26 and e.brp("ussr") == 90
    assert city_value(["red_port"]) == city_value(["red_victory"]) + 1 == 6


def test_c_econ_tr75_economy_json_reads_back_as_its_json_does() -> None:
    """C-ECON: the economy a fold writes (``economy_json``) reads back - the object itself or
    the state's copy without ledger entries - as parsing that JSON gives: the same values, the
    ledger's accounts and the conquests in the JSON's order; a copy with any other change is
    parsed."""
    from dataclasses import replace

    from grognard.third_reich.economy.economy import Economy, economy_json, spend
    from grognard.third_reich.turn.powers import Power

    e = new_campaign()
    e = replace(e, conquests={"poland": Power.GERMANY, "denmark": Power.GERMANY},
                lend_lease_done=frozenset({"uk"}))
    e, _ = spend(e, "uk", 5, "TR-14", "lend lease")
    e = e.post("city.Warsaw", Fraction(3, 2), "TR-78", "bombed")
    raw = economy_json(e)

    def parsed(x: dict) -> Economy:
        return Economy.from_json(json.loads(json.dumps(x)))  # a fresh object: a full parse

    def same(a: Economy, b: Economy) -> None:
        assert a == b
        assert list(a.ledger.balances) == list(b.ledger.balances)
        assert list(a.conquests) == list(b.conquests) == ["denmark", "poland"]

    same(Economy.from_json(raw), parsed(raw))
    assert Economy.from_json(raw).ledger.entries  # the postings are there
    bare = {**raw, "ledger": {**raw["ledger"], "entries": []}}
    same(Economy.from_json(bare), parsed(bare))
    assert Economy.from_json(bare).ledger.entries == ()
    assert Economy.from_json({**bare, "turn": 5}).turn == 5
    other = {**raw, "ledger": {"balances": {**raw["ledger"]["balances"], "uk.brp": 1},
                               "entries": []}}
    assert Economy.from_json(other).brp("uk") == 1


def test_tr75_begin_player_turn_posts_as_three_ledger_sets() -> None:
    """TR-75: opening a power's turn posts turn_open, turn_cap (half the BRPs on hand) and
    turn_spent (0) - the same balances and entries as three ``Economy.set`` postings."""
    from grognard.third_reich.economy.economy import begin_player_turn, spend

    e, _ = spend(new_campaign(), "germany", 7, "TR-03", "options")
    e = e.set("germany.turn_spent", 4, "TR-75", "spent before")
    by_sets = e.set("germany.turn_open", e.turn, "TR-75", "germany player turn opens")
    by_sets = by_sets.set("germany.turn_cap", e.brp("germany") / 2, "TR-75",
                          "germany turn: half of 143 BRPs may be spent")
    by_sets = by_sets.set("germany.turn_spent", 0, "TR-75", "germany turn opens")
    opened = begin_player_turn(e, "germany")
    assert opened == by_sets
    assert list(opened.ledger.balances) == list(by_sets.ledger.balances)
    assert opened.balance("germany.turn_cap") == Fraction(143, 2)
    assert opened.ledger.entries[-1].amount == -4


def test_tr75_spend_in_an_open_turn_posts_brps_and_turn_spent() -> None:
    """TR-75: a payment in an open player turn posts -amount to the BRPs and +amount to the
    turn's spending, as two ``Economy.post`` calls would; outside an open turn only the BRPs."""
    from grognard.third_reich.economy.economy import begin_player_turn, spend

    e = begin_player_turn(new_campaign(), "germany")
    paid, rec = spend(e, "germany", 7, "TR-31", "build")
    by_posts = e.post("germany.brp", -7, "TR-31", "build").post("germany.turn_spent", 7,
                                                                  "TR-31", "build")
    assert paid == by_posts and list(paid.ledger.balances) == list(by_posts.ledger.balances)
    assert rec.brp_after == 143
    closed, _ = spend(new_campaign(), "uk", 5, "TR-14", "lend lease")
    assert closed == new_campaign().post("uk.brp", -5, "TR-14", "lend lease")


def test_c_econ_account_names() -> None:
    """C-ECON: an account is named by its power's value, a power or its name alike; a name
    that is no power is refused every time it is asked."""
    from grognard.third_reich.economy.economy import acct
    from grognard.third_reich.turn.powers import Power

    assert acct(Power.GERMANY, "brp") == acct("germany", "brp") == "germany.brp"
    for _ in range(2):
        with pytest.raises(ValueError):
            acct("atlantis", "brp")
