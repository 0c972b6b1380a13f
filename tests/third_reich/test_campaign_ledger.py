"""A whole 1939-1945 campaign ledger driven by a scripted sequence of events.

Conquests, minor allies, Vichy, saving, lend lease (direct, Murmansk, Iran), U-boat and bomber
hits, both forced conversions, USSR city losses with half recovery and the 1945 40% income.
Every total at each Year Start is computed by hand in the comments.
"""

from __future__ import annotations

import json

from grognard.third_reich.conquest.conquest import axis_minors_join, conquer, form_vichy
from grognard.third_reich.economy.economic_loss import capture_city, liberate_ussr_city
from grognard.third_reich.economy.economy import Economy, at_turn, declare_war, new_campaign, spend
from grognard.third_reich.economy.lendlease import (
    deliver_iran,
    deliver_murmansk,
    open_iran_route,
    receive_murmansk,
    send_lend_lease,
)
from grognard.third_reich.economy.year_start import year_start
from grognard.third_reich.strategic.murmansk import (
    AlliedAssets,
    GermanAssets,
    MurmanskRolls,
    murmansk_combat,
)
from grognard.third_reich.strategic.strategic_warfare import happy_time, record_sw_hits, sw_round


def _spend_to(e, power, left):
    return spend(e, power, e.brp(power) - left, "TR-31", "builds in play")[0]


def _totals(e):
    return {p.value: (int(e.base(p)), int(e.brp(p))) for p in e.powers}


def test_campaign_1939_1945_ledger_reproduces_hand_totals():
    e = new_campaign()
    # --- Fall 1939 (turn 1) / Winter 1939 (turn 2)
    e, _ = conquer(e, "poland", "germany")  # +20 at Spring 1940
    e, _ = conquer(e, "eastern_poland", "ussr")  # +5
    e = _spend_to(e, "germany", 100)  # 50 spent in 1939
    # --- Spring 1940 special Year Start: +40% of the new base, nothing zeroed
    e, _ = year_start(at_turn(e, 3))
    assert _totals(e) == {
        "germany": (170, 168),  # 100 + 0.4 x 170
        "italy": (50, 70),
        "ussr": (95, 128),  # 90 + 0.4 x 95
        "uk": (125, 175),
        "france": (60, 84),
    }
    # --- 1940
    e, _ = conquer(e, "denmark", "germany")
    e, _ = conquer(e, "norway", "germany")
    e, _ = record_sw_hits(at_turn(e, 4), "subs", "uk", 6)
    e, _ = conquer(at_turn(e, 5), "bessarabia", "ussr")
    e, _ = conquer(e, "baltic_states", "ussr")
    e, vichy = form_vichy(e, {"morocco": 2, "algeria": 5, "tunisia": 1, "syria": 4})
    assert vichy.uk_gain == 10
    e = declare_war(e, "italy")
    e, _ = record_sw_hits(at_turn(e, 6), "subs", "uk", 8)  # UK 1940 U-boat hits: 14
    e = at_turn(e, 7)
    for power, saved in (("germany", 85), ("uk", 20), ("ussr", 50), ("italy", 10)):
        e = _spend_to(e, power, saved)
    # --- Spring 1941
    e, rec41 = year_start(at_turn(e, 8))
    assert _totals(e) == {
        "germany": (256, 256),  # 170 + 51 growth + 5 + 5 + 25 (occupied France)
        "italy": (55, 55),  # 50 + 5
        "ussr": (140, 140),  # 95 + 30 + 5 + 10
        "uk": (133, 133),  # 125 + 12 + 10 (Free French) - 14 U-boat hits
    }
    assert next(p for p in rec41.powers if p.power == "uk").sw_hits == 14
    e, _ = send_lend_lease(e, "germany", "italy", "direct", 10)
    assert (e.brp("germany"), e.brp("italy")) == (246, 65)
    # round-trip the ledger file mid-campaign
    e = Economy.from_json(json.loads(json.dumps(e.to_json())))
    # --- 1941
    e, joined = axis_minors_join(at_turn(e, 9))
    assert len(joined) == 4
    e = declare_war(e, "ussr", on_germany=True)
    for city, cls in (("kiev", "red_victory"), ("odessa", "black_port"),
                      ("minsk", "red_victory"), ("kharkov", "red_victory")):
        e, _ = capture_city(e, "ussr", city, [cls])
    assert e.balance("ussr.axis_cities") == 18
    e, _ = record_sw_hits(e, "subs", "uk", 12)
    e, _ = record_sw_hits(at_turn(e, 10), "bombers", "germany", 6)
    e, _ = record_sw_hits(e, "subs", "uk", 9)
    e, conv = record_sw_hits(at_turn(e, 11), "bombers", "germany", 10)
    assert conv.air_conversions == 1  # 16 >= 15: a 5-4 becomes 5 interceptors at once
    e, _ = record_sw_hits(at_turn(e, 12), "bombers", "germany", 4)
    e, _ = record_sw_hits(e, "subs", "uk", 6)  # UK 1941 U-boat hits: 27 >= 25
    e = declare_war(e, "us", on_germany=True)
    for power, saved in (("germany", 40), ("uk", 0), ("ussr", 10), ("italy", 0)):
        e = _spend_to(e, power, saved)
    # --- Spring 1942
    e, rec42 = year_start(at_turn(e, 13))
    assert _totals(e) == {
        "germany": (295, 295),  # 256 + 24 + 35 (Axis minors) - 20 bomber hits
        "italy": (55, 55),
        "ussr": (128, 128),  # 140 + 6 - 18 (cities)
        "uk": (106, 106),  # 133 - 27 U-boat hits
        "us": (250, 250),
    }
    assert next(p for p in rec42.powers if p.power == "uk").fleet_conversion
    assert e.balance("uk.sw_spent.asw") == 27
    assert e.balance("germany.sw_spent.interceptors") == 15
    # lend lease
    e, _ = send_lend_lease(e, "uk", "ussr", "north", 20)
    e, _ = send_lend_lease(e, "us", "ussr", "north", 20)
    e, _ = open_iran_route(e)
    e, _ = send_lend_lease(e, "us", "ussr", "south", 20)
    e, _ = send_lend_lease(e, "us", "uk", "direct", 20)
    assert (e.brp("uk"), e.brp("us")) == (106, 175)
    # Murmansk in the Allied Spring turn (default timing): 6 U-boats, no escorts
    res = murmansk_combat(GermanAssets(subs=6), AlliedAssets(), 40,
                          MurmanskRolls(subs_vs_brps=10))
    e, delivered = deliver_murmansk(e, res.brp_hits)
    assert delivered == 33 and e.brp("ussr") == 128  # held until the USSR's Summer I turn
    # the second Happy Time: U-boats on the US economy at +1
    ht = happy_time(13, "us")
    r = sw_round("subs", 5, 0, roll_economy=7, drm=ht.drm)  # 10 x 0.4 = 4
    e, _ = record_sw_hits(e, "subs", "us", r.economy_hits)
    e = deliver_iran(receive_murmansk(at_turn(e, 14)))
    assert e.brp("ussr") == 181
    e = liberate_ussr_city(e, "kiev", ["red_victory"])
    e = liberate_ussr_city(e, "minsk", ["red_victory"])
    e = at_turn(e, 17)
    for power, saved in (("germany", 0), ("uk", 10), ("ussr", 20), ("us", 30), ("italy", 0)):
        e = _spend_to(e, power, saved)
    # --- Spring 1943
    e, _ = year_start(at_turn(e, 18))
    assert _totals(e) == {
        "germany": (295, 295),
        "italy": (55, 55),
        "ussr": (145, 145),  # 128 + 12 + 5 (half of 18 -> 8)
        "uk": (112, 112),  # 106 + 6
        "us": (267, 267),  # 250 + 21 - 4 U-boat hits
    }
    # --- Spring 1944: everything spent, no change
    for p in e.powers:
        e = _spend_to(e, p, 0)
    e, _ = year_start(at_turn(e, 23))
    assert _totals(e)["germany"] == (295, 295)
    for p in e.powers:
        e = _spend_to(e, p, 0)
    # --- Spring 1945: income computed normally, 40% received
    e, _ = year_start(at_turn(e, 28))
    assert _totals(e) == {
        "germany": (295, 118), "italy": (55, 22), "ussr": (145, 58), "uk": (112, 44),
        "us": (267, 106),
    }
    # 1945 hits come straight off the pool
    e, _ = record_sw_hits(e, "bombers", "germany", 5)
    assert (e.base("germany"), e.brp("germany")) == (295, 113)
    # the audit trail: every entry names a rule ID and a cause
    assert all(x.rule.startswith("TR-") and x.cause for x in e.ledger.entries)
    rules = {x.rule for x in e.ledger.entries}
    assert {"TR-07", "TR-09", "TR-10", "TR-11", "TR-12", "TR-13", "TR-14", "TR-15", "TR-16",
            "TR-17", "TR-18", "TR-21", "TR-24", "TR-26", "TR-81", "TR-04", "TR-08"} <= rules
