"""TR-71, TR-75, TR-76: replacements, build limits, fleet repair."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder
from grognard.third_reich.economy.builds import (
    Basket,
    air_factor_cap,
    buy,
    recover_unit,
    recovery_cost,
    recovery_cost_for_build_cost,
    repair_cost,
    repair_turns,
    start_repair,
    verify_purchase,
    verify_recovery,
)
from grognard.third_reich.economy.economy import at_turn, begin_player_turn, new_campaign
from grognard.third_reich.economy.readings import StrategicReadings


def test_tr71_tv07_armor_recovery_costs():
    """TR-TV07, seed 002 "Changes to replacements": armor of strength 2, 3, 4, 5 costs 0, 2, 4,
    6 BRPs to recover."""
    assert [recovery_cost("armor", s) for s in (2, 3, 4, 5)] == [0, 2, 4, 6]
    assert recovery_cost("infantry", 3) == 0


def test_tr41_tv23_saving_a_6_brp_unit_pays_2():
    """TR-TV23: saving a 6-BRP unit with an attrition replacement costs 2."""
    assert recovery_cost_for_build_cost(6) == 2


def test_tr71_airborne_and_ineligible_losses():
    with pytest.raises(IllegalOrder, match="airborne"):
        recovery_cost("airborne", 2)
    with pytest.raises(IllegalOrder, match="never"):
        verify_recovery("germany", "infantry", "defender_crt_loss", 0)
    with pytest.raises(IllegalOrder, match="never"):
        verify_recovery("germany", "infantry", "isolation", 0)
    with pytest.raises(IllegalOrder, match="USSR"):
        verify_recovery("ussr", "infantry", "enemy_attrition", 0)
    verify_recovery("germany", "armor", "attacker_crt_loss", 4)


def test_tr71_per_player_turn_limits():
    """Seed 002: 5 for the US and Germany, 4 for the UK, 3 for France and Italy."""
    for power, limit in (("us", 5), ("germany", 5), ("uk", 4), ("france", 3), ("italy", 3)):
        verify_recovery(power, "infantry", "enemy_attrition", limit - 1)
        with pytest.raises(IllegalOrder, match="TR-71"):
            verify_recovery(power, "infantry", "enemy_attrition", limit)


def test_tr71_recovery_pays_from_the_pool():
    e, cost = recover_unit(new_campaign(), "germany", "armor", 5, "enemy_attrition", 0)
    assert cost == 6 and e.brp("germany") == 144 and e.ledger.entries[-1].rule == "TR-71"


def test_tr75_fleet_and_air_caps():
    """Seed 002 "Build limits"."""
    verify_purchase("germany", 1941, Basket(naval_fleets=1, air_factors=5))
    with pytest.raises(IllegalOrder, match="9-factor fleet"):
        verify_purchase("uk", 1941, Basket(naval_fleets=2))
    with pytest.raises(IllegalOrder, match="air factors"):
        verify_purchase("germany", 1941, Basket(air_factors=10))
    assert [air_factor_cap(p, y) for p, y in (("us", 1942), ("us", 1943), ("us", 1944),
                                              ("france", 1940), ("italy", 1941),
                                              ("ussr", 1944))] == [5, 5, 10, 2, 2, 5]
    with pytest.raises(IllegalOrder):
        verify_purchase("italy", 1941, Basket(air_factors=3))


def test_tr75_buy_counts_toward_half_cap():
    e = begin_player_turn(new_campaign(), "germany")  # 150 -> cap 75
    e, rec = buy(e, "germany", Basket(infantry_factors=6, armor_factors=8, air_factors=5))
    assert rec.amount == 6 + 16 + 15
    with pytest.raises(IllegalOrder, match="TR-75"):
        buy(e, "germany", Basket(naval_fleets=1, armor_factors=6))


def test_tr76_tv14_repair_costs():
    """TR-TV14: repairing a fleet at 7, 5, 3, 0 factors costs 6, 12, 18, 27."""
    assert [repair_cost(f) for f in (7, 5, 3, 0)] == [6, 12, 18, 27]
    with pytest.raises(IllegalOrder, match="TR-76"):
        repair_cost(9)


def test_tr76_tv15_repair_times():
    """TR-TV15, seed 002 "Build limits": 1-2 factors 2 turns, 3-4 3, 5-6 4, 7+ a year (5)."""
    assert [repair_turns(m) for m in (1, 2, 3, 4, 5, 6, 7, 9)] == [2, 2, 3, 3, 4, 4, 5, 5]


def test_tr76_one_repair_per_turn_not_with_new_fleet():
    e = at_turn(new_campaign(), 3)
    e2, rec = start_repair(e, "uk", 5)
    assert (rec.cost, rec.turns, rec.completes_turn) == (12, 3, 6)  # 4 missing: 3 turns
    assert e2.brp("uk") == 113
    with pytest.raises(IllegalOrder, match="one fleet repair"):
        start_repair(e, "uk", 5, repairs_started_this_turn=1)
    with pytest.raises(IllegalOrder, match="new fleet"):
        start_repair(e, "uk", 5, fleet_bought_this_turn=True)


def test_tr76_destroyed_fleet_rebuild_reading():
    e = at_turn(new_campaign(), 3)
    assert start_repair(e, "uk", 0)[1].cost == 27
    e2 = at_turn(new_campaign(readings=StrategicReadings(
        destroyed_fleet_rebuild_is_repair=False)), 3)
    with pytest.raises(IllegalOrder, match="force pool"):
        start_repair(e2, "uk", 0)
