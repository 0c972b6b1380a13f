"""EUR-37 SP costs; EUR-38..EUR-41 FitE supply zones, rates, stockpiles and weather."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex
from grognard.core.ledger import Ledger
from grognard.europa.supply.logistics import (
    Combat,
    Operations,
    ZoneLine,
    base_rate,
    can_special_use,
    enter_zone,
    expire_special,
    german_zone,
    grant_special,
    initial_stockpile,
    line_reached,
    open_stockpile,
    pay_operations,
    receive,
    soviet_receipt,
    sp_cost,
    special_allocation,
    stockpile_on_transition,
    turn_receipt,
    unfuelled_mechanized_ma,
    verify_special_use,
    weather_adjusted_receipt,
)
from grognard.europa.supply.phase import HalfRounding, ReceiptRounding, SupplyReadings

TV11 = Operations(mechanized_moves=2, motorized_moves=1, air_units=5,
                  combats=(Combat(divisions=1, minor_divisions=2, artillery=True),))


def test_eur_tv11_sp_cost():
    """RULES.md EUR-TV11: 2 + 1/2 + 1 + 1 + 1 + round(5/3)=2 -> 7 1/2 (8 if rounded up)."""
    c = sp_cost(TV11)
    assert c.exact == Fraction(15, 2)
    assert c.total == 8
    assert sp_cost(TV11, SupplyReadings(sp_half_rounding=HalfRounding.EXACT)).total == \
        Fraction(15, 2)
    assert [v for _, v in c.items] == [2, Fraction(1, 2), 1, 1, 1, 2]


def test_eur37_minor_divisions_ceil_per_combat():
    """Reading 1: "1 per 2" = ceil(n/2) per combat."""
    c = sp_cost(Operations(combats=(Combat(minor_divisions=3), Combat(minor_divisions=1))))
    assert c.total == 3


def test_eur37_air_rounds_to_nearest():
    assert sp_cost(Operations(air_units=4)).total == 1
    assert sp_cost(Operations(air_units=2)).total == 1
    assert sp_cost(Operations(air_units=1)).total == 0


def test_eur37_overrun_then_attack_pays_twice():
    """Reading 3: a division that overruns and later attacks pays for each attack."""
    c = sp_cost(Operations(combats=(Combat(divisions=1, overrun=True), Combat(divisions=1))))
    assert c.total == 2


def test_eur37_free_actions_cost_nothing():
    assert sp_cost(Operations()).total == 0


def test_eur37_unpaid_operation_not_allowed():
    """Seed 001: "If the supply costs ... cannot be paid then that move or attack may not be
    made"; the ledger is unchanged."""
    led = Ledger().post("german.sp", 7, "EUR-38", "test")
    with pytest.raises(IllegalOrder) as e:
        pay_operations(led, "german.sp", sp_cost(TV11))
    assert e.value.rule == "EUR-37"
    assert led.balance("german.sp") == 7
    paid = pay_operations(led.post("german.sp", 1, "EUR-38", "more"), "german.sp", sp_cost(TV11))
    assert paid.balance("german.sp") == 0
    assert paid.entries[-1].rule == "EUR-37"


def test_eur37_unfuelled_mech_half_ma_and_bad_counts():
    assert unfuelled_mechanized_ma(9) == Fraction(9, 2)
    with pytest.raises(InputError):
        sp_cost(Operations(mechanized_moves=-1))


def test_eur_tv04_stockpile_on_transition():
    """RULES.md EUR-TV04 (seed 001 "Fire in the East Supply rates"): 100 entering zone 2 ->
    80; 100 entering zone 3 -> 75; 90 entering zone 4 -> 60."""
    assert stockpile_on_transition(100, 1, 2) == 80
    assert stockpile_on_transition(100, 2, 3) == 75
    assert stockpile_on_transition(90, 3, 4) == 60


def test_eur38_skipping_zone_applies_product_and_never_back():
    assert stockpile_on_transition(100, 1, 3) == 60
    with pytest.raises(IllegalOrder):
        stockpile_on_transition(100, 3, 2)


def test_eur40_soviet_stockpile_never_reduced():
    assert stockpile_on_transition(100, 1, 4, side="soviet") == 100


def test_eur38_rates_and_initial_stockpiles():
    """Seed 001: German 200-160-120-80, initial 120; Soviet 120-160-120-80, initial 160."""
    assert [base_rate("german", z) for z in (1, 2, 3, 4)] == [200, 160, 120, 80]
    assert [base_rate("soviet", z) for z in (1, 2, 3, 4)] == [120, 160, 120, 80]
    assert (initial_stockpile("german"), initial_stockpile("soviet")) == (120, 160)
    with pytest.raises(InputError):
        base_rate("german", 5)


def test_eur38_ledger_entries():
    led = open_stockpile("german")
    led = receive(led, "german.sp", turn_receipt("german", 1, "1941-06", "clear"))
    assert led.balance("german.sp") == 320
    led = enter_zone(led, "german.sp", 1, 2)
    assert led.balance("german.sp") == 256
    assert [e.rule for e in led.entries] == ["EUR-38", "EUR-38", "EUR-38"]


def test_eur38_line_reached_within_2_or_beyond():
    line = ZoneLine("Odessa-Kiev-Minsk-Riga", (Hex(10, -6), Hex(10, 0), Hex(10, 6)))
    rear = Hex(0, 0)
    assert not line_reached([Hex(5, 0)], line, rear)
    assert line_reached([Hex(8, 0)], line, rear)  # within 2 of "Kiev"
    assert line_reached([Hex(14, -3)], line, rear)  # beyond the line between cities
    assert not line_reached([Hex(7, -3)], line, rear)


def test_eur38_zone_furthest_line_and_never_back():
    lines = [ZoneLine("1", (Hex(10, -6), Hex(10, 6))), ZoneLine("2", (Hex(20, -6), Hex(20, 6))),
             ZoneLine("3", (Hex(30, -6), Hex(30, 6)))]
    assert german_zone([Hex(0, 0)], lines, Hex(0, 0)) == 1
    assert german_zone([Hex(0, 0), Hex(21, 0)], lines, Hex(-5, 0)) == 3
    assert german_zone([Hex(0, 0)], lines, Hex(-5, 0), previous=3) == 3


def test_eur39_special_allocation_use_and_expiry():
    """Seed 001: 160 special SPs for the surprise turn, for air, fuel and attacks by AG North,
    Center and South only; no overruns or exploitation; use them or lose them."""
    assert special_allocation(True) == 160 and special_allocation(False) == 0
    assert can_special_use("air") and can_special_use("attack", "Center")
    assert not can_special_use("attack", "Finland")
    with pytest.raises(IllegalOrder, match="overrun"):
        verify_special_use("overrun", "north")
    led = grant_special(Ledger())
    led = led.post("german.special_sp", -100, "EUR-39", "attacks")
    led = expire_special(led)
    assert led.balance("german.special_sp") == 0
    assert led.entries[-1].amount == -60


def test_eur40_soviet_receipt_with_lend_lease():
    """Seed 001: +40 from May 1942, another +40 from July 1943."""
    assert soviet_receipt(1, "1941-06") == 120
    assert soviet_receipt(3, "1942-05") == 160
    assert soviet_receipt(3, "1943-06") == 160
    assert soviet_receipt(3, "1943-07") == 200
    with pytest.raises(InputError):
        soviet_receipt(1, "June 1942")


def test_eur_tv05_weather_reduction():
    """RULES.md EUR-TV05 (seed 001 "Weather and supply rates"): 200 in frost/snow/mud ->
    180/160/140."""
    assert [weather_adjusted_receipt(200, w) for w in ("frost", "snow", "mud")] == \
        [180, 160, 140]
    assert weather_adjusted_receipt(200, "clear") == 200


def test_eur41_rounding_reading_and_lend_lease_reduced():
    assert weather_adjusted_receipt(125, "frost") == 112
    exact = SupplyReadings(supply_weather_rounding=ReceiptRounding.EXACT)
    assert weather_adjusted_receipt(125, "frost", exact) == Fraction(225, 2)
    r = turn_receipt("soviet", 1, "1942-05", "mud")
    assert (r.base, r.increment, r.received) == (120, 40, 112)
    with pytest.raises(InputError):
        weather_adjusted_receipt(100, "sandstorm")
