"""TR-14..TR-19: lend lease."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder
from grognard.third_reich.economy.economy import Economy, at_turn, declare_war, new_campaign
from grognard.third_reich.economy.lendlease import (
    MURMANSK_DUE,
    can_receive_murmansk,
    can_send_lend_lease,
    deliver_iran,
    deliver_murmansk,
    northern_in_transit,
    open_iran_route,
    receive_murmansk,
    send_lend_lease,
)
from grognard.third_reich.economy.readings import MurmanskTiming, StrategicReadings
from grognard.third_reich.economy.year_start import year_start


def _spring(year=1942, readings=None):
    e = new_campaign(readings=readings)
    e = declare_war(e, "italy")
    e = declare_war(e, "ussr", on_germany=True)
    e = declare_war(e, "us", on_germany=True)
    e, _ = year_start(at_turn(e, 3))
    for t in range(8, 3 + 5 * (year - 1940) + 1, 5):
        e, _ = year_start(at_turn(e, t))
    return e


def test_tr14_germany_to_italy_0_5_10_only():
    """Seed 002 "Lend Lease procedures": 0, 5 or 10, immediately, never other amounts."""
    e = _spring(1941)
    g, i = e.brp("germany"), e.brp("italy")
    e2, rec = send_lend_lease(e, "germany", "italy", "direct", 10)
    assert (e2.brp("germany"), e2.brp("italy")) == (g - 10, i + 10)
    assert rec.rule == "TR-14" and rec.sr_used == 0
    with pytest.raises(IllegalOrder, match="TR-14"):
        send_lend_lease(e, "germany", "italy", "direct", 7)
    with pytest.raises(IllegalOrder, match="TR-19"):
        send_lend_lease(e, "italy", "germany", "direct", 5)
    with pytest.raises(IllegalOrder, match="TR-19"):
        send_lend_lease(e2, "germany", "italy", "direct", 5)  # once a year


def test_tr14_italy_must_be_belligerent():
    e, _ = year_start(at_turn(new_campaign(), 3))
    e, _ = year_start(at_turn(e, 8))
    with pytest.raises(IllegalOrder, match="TR-14"):
        send_lend_lease(e, "germany", "italy", "direct", 5)


def test_tr15_uk_to_ussr_exactly_20_into_murmansk_box():
    e = _spring(1942)
    uk = e.brp("uk")
    e2, rec = send_lend_lease(e, "uk", "ussr", "north", 20)
    assert e2.brp("uk") == uk - 20 and northern_in_transit(e2) == {"uk": 20}
    assert (rec.rule, rec.sr_used, rec.arrives) == ("TR-15", 1, "murmansk")
    with pytest.raises(IllegalOrder, match="TR-15"):
        send_lend_lease(e, "uk", "ussr", "north", 10)


def test_tr15_ussr_must_be_at_war():
    e, _ = year_start(at_turn(new_campaign(), 3))
    e, _ = year_start(at_turn(e, 8))
    with pytest.raises(IllegalOrder, match="not at war"):
        send_lend_lease(e, "uk", "ussr", "north", 20)


def test_tr16_us_to_uk_direct():
    e = _spring(1942)
    us, uk = e.brp("us"), e.brp("uk")
    e2, rec = send_lend_lease(e, "us", "uk", "direct", 20)
    assert (e2.brp("us"), e2.brp("uk"), rec.rule, rec.sr_used) == (us - 20, uk + 20, "TR-16", 1)


def test_tr17_tr18_us_north_and_iran_route():
    e = _spring(1942)
    e, _ = send_lend_lease(e, "us", "ussr", "north", 20)
    assert not can_send_lend_lease(e, "us", "ussr", "south", 20)
    us = e.brp("us")
    e, paid = open_iran_route(e)
    assert paid == 15 and e.brp("us") == us - 15
    with pytest.raises(IllegalOrder, match="TR-18"):
        open_iran_route(e)
    e, rec = send_lend_lease(e, "us", "ussr", "south", 20)
    assert (rec.rule, rec.arrives) == ("TR-18", "summer1")
    ussr = e.brp("ussr")
    e = deliver_iran(at_turn(e, 14))
    assert e.brp("ussr") == ussr + 20 and e.balance("ll.south") == 0


def test_tr19_spring_only_after_year_start():
    e = _spring(1942)
    with pytest.raises(IllegalOrder, match="TR-19"):
        send_lend_lease(at_turn(e, 14), "uk", "ussr", "north", 20)
    before = at_turn(new_campaign(), 8)
    before = declare_war(before, "ussr", on_germany=True)
    with pytest.raises(IllegalOrder, match="after the Year Start"):
        send_lend_lease(before, "uk", "ussr", "north", 20)


def test_tr21_murmansk_delivery_spring_timing_default():
    e = _spring(1942)
    e, _ = send_lend_lease(e, "uk", "ussr", "north", 20)
    e, _ = send_lend_lease(e, "us", "ussr", "north", 20)
    ussr = e.brp("ussr")
    e2, delivered = deliver_murmansk(e, 7)
    assert delivered == 33 and e2.brp("ussr") == ussr  # held until Summer I (TR-20)
    assert e2.balance(MURMANSK_DUE) == 33
    assert northern_in_transit(e2) == {}


def test_tr20_murmansk_brps_received_at_start_of_ussr_summer1_turn():
    """TR-20; seed 002 "Lend Lease procedures": "One full round of combat ... is then
    conducted in the Murmansk box.  BRPs that survive are received by the USSR at the start
    of their Summer I turn."  Spring combat credits nothing; Summer I moves the held BRPs."""
    e = _spring(1942)
    e, _ = send_lend_lease(e, "uk", "ussr", "north", 20)
    ussr = e.brp("ussr")
    e, delivered = deliver_murmansk(e, 5)
    assert delivered == 15 and e.brp("ussr") == ussr
    assert not can_receive_murmansk(e)
    with pytest.raises(IllegalOrder, match="TR-20.*summer1"):
        receive_murmansk(e)
    e2 = receive_murmansk(at_turn(e, 14))
    assert e2.brp("ussr") == ussr + 15 and e2.balance(MURMANSK_DUE) == 0
    rules = [x.rule for x in e2.ledger.entries if x.account in (MURMANSK_DUE, "ussr.brp")][-3:]
    assert rules == ["TR-21", "TR-20", "TR-20"]


def test_tr20_summer1_timing_delivers_in_summer1():
    e = _spring(1942, StrategicReadings(murmansk_timing=MurmanskTiming.SUMMER1))
    e, _ = send_lend_lease(e, "uk", "ussr", "north", 20)
    with pytest.raises(IllegalOrder, match="TR-20"):
        deliver_murmansk(e, 0)
    e2, delivered = deliver_murmansk(at_turn(e, 14), 25)
    assert e2.balance("ll.north.uk") == 0
    assert delivered == 0
    e3, delivered = deliver_murmansk(at_turn(e, 14), 5)
    with pytest.raises(IllegalOrder, match="TR-20"):
        receive_murmansk(e3)  # Summer I combat: first spendable in Summer II
    ussr = e3.brp("ussr")
    assert receive_murmansk(at_turn(e3, 15)).brp("ussr") == ussr + 15


def test_tr19_conservation_of_brps_in_transit():
    e = _spring(1942)
    total = sum(e.brp(p) for p in e.powers)
    e, _ = send_lend_lease(e, "uk", "ussr", "north", 20)
    e, _ = send_lend_lease(e, "us", "uk", "direct", 20)
    assert sum(e.brp(p) for p in e.powers) + e.balance("ll.north.uk") == total
    assert isinstance(Economy.from_json(e.to_json()), Economy)
