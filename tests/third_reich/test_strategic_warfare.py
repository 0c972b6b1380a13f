"""TR-08, TR-13, TR-79..TR-82: strategic warfare every turn."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.third_reich.economy.economy import at_turn, declare_war, new_campaign
from grognard.third_reich.economy.year_start import year_start
from grognard.third_reich.strategic.strategic_warfare import (
    buy_sw_factors,
    forced_air_conversions,
    forced_fleet_conversion,
    happy_time,
    record_sw_hits,
    sw_round,
    sw_round_from_rolls,
    sw_round_odds,
)


def _1940():
    return year_start(at_turn(new_campaign(), 3))[0]


def test_tr79_tv17_bombers_half_factors_06_rule():
    """TR-TV17: 5 bombers v interceptors, roll 9: fire as 3 factors -> 1.8 -> 2 hits."""
    r = sw_round("bombers", 5, 5, roll_offense=9, roll_defense=1, roll_economy=1)
    assert (r.fire_factors, r.defense_losses) == (3, 2)


def test_tr79_tv17_three_surviving_subs_double_factors():
    """TR-TV17: 3 surviving subs v the economy, roll 6: 2 x 3 x 0.4 = 2.4 -> 2 BRP hits."""
    r = sw_round("subs", 3, 0, roll_economy=6)
    assert (r.economy_factors, r.economy_hits) == (6, 2)


def test_tr79_full_round_defenders_fire_full_factors_round_down():
    # 10 subs v 7 ASW: subs fire 5 at roll 7 -> 2 ASW lost; ASW fire 7 at roll 9 -> 4.2 -> 4
    r = sw_round_from_rolls("subs", 10, 7, [7, 9, 10])
    assert (r.defense_losses, r.offense_losses, r.surviving) == (2, 4, 6)
    assert r.economy_hits == 7  # 12 x 0.6 = 7.2
    assert r.to_json()["sub_losses"] == 4 and r.to_json()["asw_losses"] == 2


def test_tr79_bombers_fire_1x_at_economy():
    r = sw_round_from_rolls("bombers", 10, 0, [10])
    assert r.economy_hits == 6


def test_tr79_two_rolls_share_the_exchange_roll():
    """Reading: with two rolls, one effectiveness roll serves both sides of the exchange."""
    r = sw_round_from_rolls("subs", 10, 7, [9, 10])
    assert (r.defense_losses, r.offense_losses, r.rolls) == (3, 4, (9, 9, 10))
    assert sw_round_from_rolls("subs", 3, 0, [1, 6]).economy_hits == 2


def test_tr79_roll_count_checked():
    with pytest.raises(InputError, match="rolls"):
        sw_round_from_rolls("subs", 3, 3, [5])
    with pytest.raises(InputError, match="rolls"):
        sw_round_from_rolls("subs", 3, 0, [5, 5, 5])
    with pytest.raises(InputError, match="roll"):
        sw_round("subs", 3, 3, 11, 1, 1)


def test_tr08_no_sw_before_spring_1940():
    with pytest.raises(IllegalOrder, match="TR-08"):
        record_sw_hits(at_turn(new_campaign(), 2), "subs", "uk", 3)


def test_tr13_targets():
    e = _1940()
    with pytest.raises(IllegalOrder, match="TR-79"):
        record_sw_hits(e, "subs", "us", 3)  # US not yet belligerent
    with pytest.raises(IllegalOrder, match="TR-79"):
        record_sw_hits(e, "bombers", "italy", 3)
    e2 = declare_war(e, "us", on_germany=True)
    assert record_sw_hits(e2, "subs", "us", 3)[1].target == "us"


def test_tr08_1945_hits_come_off_the_pool_at_once():
    """Seed 002 "Strategic warfare in 1945": hits are deducted from the BRP pool at once."""
    e = at_turn(_1940(), 29)
    brp, base = e.brp("germany"), e.base("germany")
    e, rec = record_sw_hits(e, "bombers", "germany", 6)
    assert rec.immediate and e.brp("germany") == brp - 6 and e.base("germany") == base
    assert e.balance("germany.sw_base_hits") == 0


def test_tr81_tv22_bomber_conversions_at_15_30():
    """TR-TV22: cumulative bomber hits 14, 15, 31 -> 0, 1, 2 forced conversions."""
    assert [forced_air_conversions(h) for h in (14, 15, 31)] == [0, 1, 2]
    e = at_turn(_1940(), 4)
    conv = []
    for h in (14, 1, 16):
        e, rec = record_sw_hits(e, "bombers", "germany", h)
        conv.append(rec.air_conversions)
    assert conv == [0, 1, 1]
    assert e.balance("germany.air_conversions") == 2


def test_tr81_bomber_conversions_count_against_next_year_interceptor_limit():
    e = at_turn(_1940(), 4)
    e, _ = record_sw_hits(e, "bombers", "germany", 15)
    e, _ = year_start(at_turn(e, 8))
    assert e.balance("germany.sw_spent.interceptors") == 15
    assert e.balance("germany.air_conversions_year") == 0


def test_tr81_uboat_threshold():
    assert not forced_fleet_conversion(24) and forced_fleet_conversion(25)


def test_tr82_second_happy_time_spring_1942():
    """Seed 002 "The Happy Times": Spring 1942 U-boat attacks on the US get +1 DRM and UK ASW
    may not oppose them; normal from Summer 1942."""
    h = happy_time(13, "us")
    assert (h.drm, h.uk_asw_allowed, h.us_asw_exists) == (1, False, False)
    assert happy_time(14, "us").drm == 0 and happy_time(13, "uk").drm == 0
    r0 = sw_round("subs", 5, 0, roll_economy=8)
    r1 = sw_round("subs", 5, 0, roll_economy=8, drm=h.drm)
    assert (r0.economy_hits, r1.economy_hits) == (4, 6)


def test_tr80_tr82_buying_sw_factors():
    with pytest.raises(IllegalOrder, match="TR-82"):
        buy_sw_factors(at_turn(new_campaign(), 2), "germany", "subs", 1)
    e = _1940()  # Germany base 150: subs limit 15 BRPs = 5 factors
    e, rec = buy_sw_factors(e, "germany", "subs", 5)
    assert rec.amount == 15 and e.balance("germany.sw_spent.subs") == 15
    with pytest.raises(IllegalOrder, match="TR-80"):
        buy_sw_factors(e, "germany", "subs", 1)
    with pytest.raises(IllegalOrder, match="TR-80"):
        buy_sw_factors(e, "germany", "bombers", 1)


def test_tr79_exact_odds_match_the_round():
    odds = sw_round_odds("subs", 10, 7)
    assert sum(odds.values()) == 1
    # the same function over all 1000 roll triples
    manual: dict[int, int] = {}
    for a in range(1, 11):
        for b in range(1, 11):
            for c in range(1, 11):
                h = sw_round("subs", 10, 7, a, b, c).economy_hits
                manual[h] = manual.get(h, 0) + 1
    assert {h: p * 1000 for h, p in odds.items()} == manual
