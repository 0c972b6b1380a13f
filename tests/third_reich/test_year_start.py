"""TR-07..TR-13, TR-80, TR-81 at Year Start; TR-04's 1945 40% income."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grognard.core.errors import IllegalOrder, InputError
from grognard.third_reich.conquest.conquest import conquer
from grognard.third_reich.economy.economy import at_turn, declare_war, new_campaign, spend
from grognard.third_reich.economy.readings import Rounding, StrategicReadings
from grognard.third_reich.economy.year_start import (
    growth,
    income_share,
    sw_limits,
    ussr_base_adjust,
    year_start,
)
from grognard.third_reich.strategic.strategic_warfare import record_sw_hits


def _spring_1940(econ=None):
    e = at_turn(econ or new_campaign(), 3)
    return year_start(e)


def _spend_to(e, power, left):
    return spend(e, power, e.brp(power) - left, "TR-75", "spent in play")[0]


def test_tr10_tv01_germany_saving_85_gains_51():
    """TR-TV01, seed 002 "1941 and later Year Start Sequences": Germany with 85 BRPs unspent
    in Winter 1940 has its 1941 base raised by 0.6 x 85 = 51."""
    assert growth("germany", 85) == 51
    e, _ = _spring_1940()
    base_1940 = e.base("germany")
    e = _spend_to(at_turn(e, 7), "germany", 85)
    e, rec = year_start(at_turn(e, 8))
    g = next(p for p in rec.powers if p.power == "germany")
    assert (g.saved, g.growth) == (85, 51)
    assert e.base("germany") == base_1940 + 51
    assert e.brp("germany") == base_1940 + 51  # the 85 are removed


def test_tr10_tv01_102_for_85_over_two_years():
    """TR-TV01: 'by 1942 it will have received 102 BRPs for the lost 85, a profit of 17'."""
    def run(saved):
        e, _ = _spring_1940()
        e = _spend_to(at_turn(e, 7), "germany", saved)
        received = Fraction(0)
        for spring in (8, 13):
            e, _ = year_start(at_turn(e, spring))
            received += e.brp("germany")
            e = _spend_to(at_turn(e, spring + 4), "germany", 0)
        return received
    extra = run(85) - run(0)
    assert extra == 102
    assert extra - 85 == 17


def test_tr10_growth_rates_by_power():
    """Seed 002: US 70%; Germany, UK, USSR 60%; Italy, France 50%."""
    assert [growth(p, 100) for p in ("us", "germany", "uk", "ussr", "italy", "france")] == [
        70, 60, 60, 60, 50, 50]


def test_tr10_growth_rounding_reading():
    assert growth("germany", 9) == 5
    assert growth("germany", 9, StrategicReadings(growth_rounding=Rounding.HALF_UP)) == 5
    assert growth("germany", 9, StrategicReadings(growth_rounding=Rounding.CEIL)) == 6
    with pytest.raises(InputError, match="saved"):
        growth("germany", -1)


def test_tr07_tv08_france_60_gets_24_in_spring_1940():
    """TR-TV08, seed 002 "Playtesting the system": France's base 60 receives +24 at the Spring
    1940 special Year Start and has 84 BRPs to last through 1940."""
    e, rec = _spring_1940()
    assert e.brp("france") == 84
    f = next(p for p in rec.powers if p.power == "france")
    assert (f.received, f.brp) == (24, 84)
    assert rec.special_1940


def test_tr07_spring_1940_adds_conquests_then_40_percent_nothing_zeroed():
    """Seed 002 "1940 Year Start Sequence": base adjusted for 1939 conquests, then 40% of the new
    base on top of the existing total."""
    e = new_campaign()
    e = conquer(e, "poland", "germany")[0]
    e = _spend_to(e, "germany", 100)
    e, _ = _spring_1940(e)
    assert e.base("germany") == 170
    assert e.brp("germany") == 100 + 68


def test_tr07_spring_1940_sw_limits_germany_and_uk_only():
    e, _rec = _spring_1940()
    assert e.balance("germany.sw_limit.subs") == 15
    assert e.balance("uk.sw_limit.bombers") == Fraction(75, 4)
    assert e.balance("uk.sw_limit.asw") == Fraction(25, 2)
    assert "france.sw_limit.asw" not in e.ledger.balances


def test_tr09_year_start_only_in_spring_and_once():
    with pytest.raises(IllegalOrder, match="TR-09"):
        year_start(at_turn(new_campaign(), 4))
    e, _ = _spring_1940()
    with pytest.raises(IllegalOrder, match="TR-09"):
        year_start(e)


def test_tr09_on_hand_reset_to_new_base():
    e, _ = _spring_1940()
    e = _spend_to(e, "italy", 10)
    e, _ = year_start(at_turn(e, 8))
    # everything saved was converted to base: on hand equals the new base
    assert all(e.brp(p) == e.base(p) for p in e.powers)
    assert e.base("italy") == 50 + 5


def test_tr11_conquest_pays_nothing_before_year_start():
    e, _ = _spring_1940()
    e = conquer(at_turn(e, 5), "denmark", "germany")[0]
    base, brp = e.base("germany"), e.brp("germany")
    assert e.balance("germany.pending") == 5 and e.base("germany") == base
    assert e.brp("germany") == brp
    e = _spend_to(e, "germany", 0)
    e, _ = year_start(at_turn(e, 8))
    assert e.base("germany") == base + 5
    assert e.balance("germany.pending") == 0


def test_tr12_tv21_ussr_city_losses_and_half_recovery():
    """TR-TV21: Axis-held pre-war USSR city value 0 -> 18 -> 8 -> 8 gives -18, +5, 0."""
    assert ussr_base_adjust(0, 18) == -18
    assert ussr_base_adjust(18, 8) == 5
    assert ussr_base_adjust(8, 8) == 0
    assert ussr_base_adjust(18, 7, Rounding.FLOOR) == 5
    assert ussr_base_adjust(18, 7, Rounding.CEIL) == 6


def test_tr12_year_start_applies_ussr_change_since_last_year():
    e, _ = _spring_1940()
    base = e.base("ussr")
    e = _spend_to(e, "ussr", 0)
    e, _ = year_start(at_turn(e, 8), ussr_axis_cities=0)
    e = _spend_to(e, "ussr", 0)
    e, _ = year_start(at_turn(e, 13), ussr_axis_cities=18)
    assert e.base("ussr") == base - 18
    e = _spend_to(e, "ussr", 0)
    e, _ = year_start(at_turn(e, 18), ussr_axis_cities=8)
    assert e.base("ussr") == base - 13
    e = _spend_to(e, "ussr", 0)
    e, _ = year_start(at_turn(e, 23), ussr_axis_cities=8)
    assert e.base("ussr") == base - 13


def test_tr13_sw_hits_come_off_the_base_next_year_and_tally_zeroed():
    e, _ = _spring_1940()
    e, _ = record_sw_hits(at_turn(e, 4), "subs", "uk", 7)
    e, _ = record_sw_hits(at_turn(e, 6), "subs", "uk", 5)
    base = e.base("uk")
    e = _spend_to(e, "uk", 0)
    e, rec = year_start(at_turn(e, 8))
    assert e.base("uk") == base - 12
    assert next(p for p in rec.powers if p.power == "uk").sw_hits == 12
    assert e.balance("uk.sw_hits") == 0 and e.balance("uk.sw_base_hits") == 0


def test_tr80_sw_limits():
    """Seed 002 "Strategic warfare spending limits": Germany 10%/10%; UK 10% ASW, 15% bombers;
    US 5% each in 1942, 10% each in 1943."""
    assert sw_limits("germany", 200, 1941) == {"subs": 20, "interceptors": 20}
    assert sw_limits("uk", 200, 1941) == {"asw": 20, "bombers": 30}
    assert sw_limits("us", 200, 1942) == {"asw": 10, "bombers": 10}
    assert sw_limits("us", 200, 1943) == {"asw": 20, "bombers": 20}
    assert sw_limits("us", 200, 1944) == {"asw": 20, "bombers": 30}
    assert sw_limits("ussr", 200, 1944) == {}


def test_tr81_uboat_conversion_at_year_start_counts_against_asw_limit():
    """Seed 002: 25+ BRPs lost to U-boats in a year: one 9-factor fleet becomes 9 ASW at the
    Spring Year Start, counted against the ASW limit."""
    e, _ = _spring_1940()
    e, _ = record_sw_hits(at_turn(e, 5), "subs", "uk", 25)
    e, rec = year_start(at_turn(_spend_to(e, "uk", 0), 8))
    assert next(p for p in rec.powers if p.power == "uk").fleet_conversion
    assert e.balance("uk.fleet_conversions") == 1
    assert e.balance("uk.sw_spent.asw") == 27


def test_tr81_no_conversion_below_25():
    e, _ = _spring_1940()
    e, _ = record_sw_hits(at_turn(e, 5), "subs", "uk", 24)
    e, rec = year_start(at_turn(e, 8))
    assert not next(p for p in rec.powers if p.power == "uk").fleet_conversion
    assert e.balance("uk.sw_spent.asw") == 0


def test_tr04_tv23_1945_income_is_40_percent():
    """TR-TV23: 1945 income on a base of 200 is 80."""
    assert income_share(200, 1945) == 80
    e, _ = _spring_1940()
    e = e.set("germany.base", 200, "TEST", "fixture")
    for spring in (8, 13, 18, 23):
        e = _spend_to(e, "germany", 0)
        e = e.set("germany.base", 200, "TEST", "fixture")
        e, _ = year_start(at_turn(e, spring))
    e = _spend_to(e, "germany", 0)
    e, _ = year_start(at_turn(e, 28))
    assert e.base("germany") == 200 and e.brp("germany") == 80


def test_tr86_us_enters_with_250():
    e, _ = _spring_1940()
    e, _ = year_start(at_turn(e, 8))
    e = declare_war(at_turn(e, 12), "us", on_germany=True)
    e, _rec = year_start(at_turn(e, 13))
    assert e.base("us") == 250 and e.brp("us") == 250
    assert e.balance("us.sw_limit.asw") == Fraction(25, 2)


@settings(max_examples=25, deadline=None)
@given(st.dictionaries(st.sampled_from(["germany", "italy", "ussr", "uk", "france"]),
                       st.integers(0, 60)))
def test_tr09_property_base_is_sum_of_its_entries_and_brp_equals_base(saved):
    """Property: after any 1941 Year Start each base equals the sum of its audited entries,
    growth matches TR-10, and BRPs on hand equal the new base."""
    e, _ = _spring_1940()
    for p in e.powers:
        e = _spend_to(e, p, min(saved.get(p.value, 0), int(e.brp(p))))
    before = {p: e.base(p) for p in e.powers}
    kept = {p: e.brp(p) for p in e.powers}
    e, _ = year_start(at_turn(e, 8))
    for p in e.powers:
        assert sum(x.amount for x in e.ledger.history(f"{p.value}.base")) == e.base(p)
        assert e.base(p) == before[p] + growth(p, kept[p])
        assert e.brp(p) == e.base(p)


def test_tr81_western_allies_together_convert_at_most_one_fleet_a_year():
    """Issue 12 / TR-81: "The allies are never forced to remove more than 1 surface fleet in
    this manner in a given year": UK and US both over 25 -> only the UK (first hit in order)
    converts."""
    from grognard.third_reich.economy.economy import declare_war

    e, _ = _spring_1940()
    e = declare_war(e, "us", on_germany=True)
    e, _ = record_sw_hits(at_turn(e, 5), "subs", "uk", 25)
    e, _ = record_sw_hits(e, "subs", "us", 30)
    e, rec = year_start(at_turn(e, 8))
    conv = {p.power: p.fleet_conversion for p in rec.powers}
    assert conv["uk"] is True and conv["us"] is False
    assert e.balance("uk.fleet_conversions") == 1 and e.balance("us.fleet_conversions") == 0
