"""TR-44..TR-50: counter-air, air-to-air, air-naval, naval-naval, order in a hex, 1D10 fire."""

from __future__ import annotations

import pytest

from grognard.core.errors import InputError
from grognard.third_reich.air_naval.airnaval import (
    HexForces,
    air_naval,
    air_to_air,
    counter_air,
    naval_naval,
    nonphasing_air_round06,
    resolve_hex_combat,
)
from grognard.third_reich.air_naval.effectiveness import effectiveness_hits
from grognard.third_reich.turn.combat_readings import (
    NeutralizeGranularity,
    Round06Scope,
    TRCombatReadings,
)
from grognard.third_reich.turn.forces import AirUnit, Fleet


def test_tr50_tv02_london_example() -> None:
    """RULES.md TR-TV02; seed 002 "City bombing": 15 factors, rolls 1..10 → 0,0,3,3,3,6,6,6,9,9."""
    assert [effectiveness_hits(15, r) for r in range(1, 11)] == [0, 0, 3, 3, 3, 6, 6, 6, 9, 9]


def test_tr50_clamping_and_round06() -> None:
    assert effectiveness_hits(5, 10, drm=2) == 3
    assert effectiveness_hits(5, 1, drm=-2) == 0
    assert effectiveness_hits(3, 9, round06=True) == 2  # 1.8 -> 2
    assert effectiveness_hits(3, 9) == 1


def test_tr46_nonphasing_small_units_round_06_up() -> None:
    # 3 non-phasing factors on a 9: 1.8 -> 2; 3 phasing factors: 1
    r = air_to_air(3, 3, phasing_roll=9, nonphasing_roll=9)
    assert r.hits_on_phasing == 2 and r.hits_on_nonphasing == 1
    # 5 or more non-phasing factors round down: 8 x 0.6 = 4.8 -> 4
    assert air_to_air(10, 8, 1, 9).hits_on_phasing == 4
    everyone = TRCombatReadings(nonphasing_round06_scope=Round06Scope.ALL)
    assert air_to_air(10, 8, 1, 9, readings=everyone).hits_on_phasing == 5
    assert nonphasing_air_round06(4) and not nonphasing_air_round06(5)


def test_tr46_hits_capped_at_target_factors() -> None:
    assert air_to_air(20, 3, 10, 1).hits_on_nonphasing == 3


def test_tr44_counter_air_neutralizes_factor_for_factor() -> None:
    """Seed 002 "Counter air missions": as many non-phasing air factors as were sent are
    neutralized, automatically and whatever the air combat result."""
    ca = counter_air(5, 10, phasing_roll=1, nonphasing_roll=1)
    assert ca.combat.hits_on_nonphasing == 0 and ca.neutralized == 5
    ca = counter_air(5, 10, phasing_roll=10, nonphasing_roll=1)  # 3 destroyed, 5 tied up
    assert ca.combat.hits_on_nonphasing == 3 and ca.neutralized == 5
    ca = counter_air(10, 5, phasing_roll=9, nonphasing_roll=1)  # 5 destroyed, none left
    assert ca.neutralized == 0
    with pytest.raises(InputError, match="sent_factors"):
        counter_air(0, 5, 1, 1)


def test_tr44_whole_unit_neutralization_reading() -> None:
    r = TRCombatReadings(counterair_neutralize_granularity=NeutralizeGranularity.WHOLE_UNIT)
    ca = counter_air(3, 10, 1, 1, target_units=[AirUnit("a", 5), AirUnit("b", 5)], readings=r)
    assert ca.neutralized == 5


def test_tr47_fleets_fire_at_a_third_limited_by_air_fleets() -> None:
    air = [AirUnit("a", 5)]
    fleets = [Fleet("f1", 9), Fleet("f2", 9)]
    r = air_naval(air, fleets, air_roll=9, naval_roll=10)
    assert r.hits_on_fleets == 3  # 5 x 0.6
    assert r.fleets_firing == 1  # only one 5-4 fired at them
    assert r.hits_on_air == 1  # 9/3 = 3 factors x 0.6 = 1.8 -> 1
    two = air_naval([AirUnit("a", 5), AirUnit("b", 5)], fleets, 9, 10)
    assert two.fleets_firing == 2 and two.hits_on_air == 3  # 6 x 0.6 = 3.6 -> 3
    assert two.hits_on_fleets == 6


def test_tr48_naval_naval_simultaneous_full_factors() -> None:
    r = naval_naval(9, 6, phasing_roll=9, nonphasing_roll=6)
    assert (r.hits_on_nonphasing, r.hits_on_phasing) == (5, 2)  # 5.4 -> 5 (cap 6); 2.4 -> 2


def test_tr49_order_air_then_naval_then_land_support() -> None:
    phasing = HexForces(air=(AirUnit("p1", 5), AirUnit("p2", 5)), fleets=(Fleet("pf", 9),))
    nonph = HexForces(air=(AirUnit("n1", 5),), fleets=(Fleet("nf", 9),))
    rec = resolve_hex_combat(phasing, nonph, iter([9, 9, 10, 1, 10, 1, 6, 6]))
    kinds = [type(s).__name__ for s in rec.steps]
    # air-to-air: 10 x .6 = 6 -> 5 (all of them) on non-phasing; 5 x .6 = 3 on phasing.
    # Non-phasing air is gone, so its air-naval step does not happen.
    assert kinds == ["AirToAir", "AirNaval", "NavalNaval"]
    assert rec.steps[0].hits_on_nonphasing == 5 and rec.steps[0].hits_on_phasing == 3
    # phasing air (7 left) on the fleet: roll 10 -> 4.2 -> 4; the fleet's 3 factors roll 1 -> 0
    assert rec.steps[1].hits_on_fleets == 4 and rec.steps[1].hits_on_air == 0
    # naval-naval: 9 x .6 = 5.4 -> 5 sinks the remaining 5; 5 x 0 on a 1
    assert rec.steps[2].hits_on_nonphasing == 5 and rec.steps[2].hits_on_phasing == 0
    assert rec.rolls == (9, 9, 10, 1, 10, 1)
    assert rec.nonphasing.fleet_factors == 0 and rec.phasing.fleet_factors == 9
    assert rec.support_air == 7  # the remaining phasing air supports the ground attack


def test_tr49_steps_that_do_not_happen_use_no_roll() -> None:
    phasing = HexForces(air=(AirUnit("p1", 5),))
    nonph = HexForces(air=(AirUnit("n1", 3),))
    rec = resolve_hex_combat(phasing, nonph, iter([9, 9]))
    assert rec.rolls == (9, 9) and len(rec.steps) == 1
    assert rec.support_air == 5 - 2  # 3 x 0.6 = 1.8 -> 2 (non-phasing, under 5 factors)
    with pytest.raises(InputError, match="rolls"):
        resolve_hex_combat(phasing, nonph, iter([9]))


def test_tr44_counter_air_only_under_offensive_option() -> None:
    from grognard.core.errors import IllegalOrder

    with pytest.raises(IllegalOrder, match="TR-44"):
        counter_air(5, 5, 1, 1, offensive_option=False)


def test_tr43_air_needs_an_in_supply_city_or_airbase() -> None:
    from grognard.third_reich.air_naval.airnaval import can_fly_missions

    assert can_fly_missions(True, True)
    assert not can_fly_missions(True, False)
    assert not can_fly_missions(False, True)
    assert not can_fly_missions(True, True, offensive_option=False)


def test_tr45_air_interception_rules() -> None:
    from grognard.core.errors import IllegalOrder
    from grognard.third_reich.air_naval.airnaval import declare_air_interception

    a = AirUnit("a", 5, range=4)
    assert declare_air_interception(a, "fleet", 4).factors == 5
    assert declare_air_interception(a, "fleet", 2, neutralized=3).factors == 2
    with pytest.raises(IllegalOrder, match="range"):
        declare_air_interception(a, "fleet", 5)
    with pytest.raises(IllegalOrder, match="neutralized"):
        declare_air_interception(a, "fleet", 1, neutralized=5)
    with pytest.raises(IllegalOrder, match="TR-45"):
        declare_air_interception(a, "ground stack", 1, target_is_air_or_fleet=False)


def test_tr50_round06_per_nonphasing_unit_under_5_factors() -> None:
    """TR-50; seed 002 "Air and naval combat tables": "Exception – non phasing air units with
    fewer than 5 air factors ... may round fractions of 0.6 or greater up to the next integer."

    Two 4-factor non-phasing air units, roll 6 (x0.4): each fires 1.6 -> 2, 4 hits in all; the
    side's 8 factors would only give 3.2 -> 3. An 8-factor unit still rounds down.
    """
    assert air_to_air(10, 8, 1, 6, nonphasing_units=[4, 4]).hits_on_phasing == 4
    assert air_to_air(10, 8, 1, 6, nonphasing_units=[8]).hits_on_phasing == 3
    assert air_to_air(10, 8, 1, 6).hits_on_phasing == 3  # no units given: one body
    assert air_to_air(10, 8, 1, 6, nonphasing_units=[5, 3]).hits_on_phasing == 3  # 2 + 1.2->1
    fleets = [Fleet("f", 9)]
    small = [AirUnit("a", 4), AirUnit("b", 4)]
    assert air_naval(small, fleets, 6, 1, air_is_nonphasing=True).hits_on_fleets == 4
    assert air_naval(small, fleets, 6, 1, air_is_nonphasing=False).hits_on_fleets == 3
    with pytest.raises(InputError):
        air_to_air(10, 8, 1, 6, nonphasing_units=[4, 3])


def test_tr50_round06_scope_all_rounds_every_nonphasing_unit() -> None:
    """TR-46/TR-50 reading ``nonphasing_round06_scope = all``: every non-phasing unit rounds
    0.6+ up (an 8-factor unit at x0.2: 1.6 -> 2; small_units: 1)."""
    r = TRCombatReadings(nonphasing_round06_scope=Round06Scope.ALL)
    assert air_to_air(10, 8, 1, 3, readings=r, nonphasing_units=[8]).hits_on_phasing == 2
    assert air_to_air(10, 8, 1, 3, nonphasing_units=[8]).hits_on_phasing == 1
    assert air_naval([AirUnit("a", 8)], [Fleet("f", 9)], 3, 1, True, readings=r
                     ).hits_on_fleets == 2
