"""TR-51 airborne drops, TR-52 airborne combat, TR-53 air-landing SR
(002_67ce4e3275b117b3.txt "Airborne operations")."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex
from grognard.third_reich.air_naval.air_zones import BasedAir
from grognard.third_reich.combat.airborne import (
    AirborneReadings,
    DropOrder,
    DropOutcome,
    air_drop,
    air_drop_odds,
    airborne_combat_role,
    airborne_sr,
    can_air_drop,
    verify_air_drop,
    verify_airborne_attack,
    verify_airborne_sr,
)
from grognard.third_reich.combat.combat import Terrain, left_shifts
from grognard.third_reich.turn.forces import AirUnit, GroundKind, GroundUnit, Side

PARA = GroundUnit("fj", "german", Side.AXIS, GroundKind.AIRBORNE, 3, 3)
INF = GroundUnit("i", "german", Side.AXIS, GroundKind.INFANTRY, 3, 3)


def air(uid, side, q, factors=5, neut=0):
    return BasedAir(AirUnit(uid, factors, 4), Side(side), Hex(q, 0), neut)


def order(**kw):
    return replace(DropOrder(PARA, Hex(0, 0), Hex(6, 0)), **kw)


def test_tr51_drop_allowed_within_six_hexes():
    assert can_air_drop(order(), [])
    assert not can_air_drop(order(target=Hex(7, 0)), [])


@pytest.mark.parametrize("change, reason", [
    ({"option": "attrition"}, "offensive"),
    ({"phase": "mechanized"}, "ordinary movement"),
    ({"weather": "mud"}, "mud"),
    ({"weather": "snow"}, "snow"),
    ({"start_is_friendly_base": False}, "city or airbase"),
    ({"moved_this_turn": True}, "only move"),
    ({"target_is_land": False}, "land"),
    ({"unit": INF}, "not an airborne"),
])
def test_tr51_drop_conditions(change, reason):
    with pytest.raises(IllegalOrder, match=reason):
        verify_air_drop(order(**change), [])


def test_tr51_not_into_uncontested_enemy_air_zone():
    foe = [air("raf", "allies", 9)]
    with pytest.raises(IllegalOrder, match="TR-30"):
        verify_air_drop(order(), foe)
    # as many friendly factors in range contest it
    assert can_air_drop(order(), [*foe, air("lw", "axis", 3)])
    assert not can_air_drop(order(), [*foe, air("lw", "axis", 3, factors=4)])


def test_tr51_unintercepted_drop_lands_without_rolls():
    rec = air_drop(PARA, interceptors=0, escorts=5)
    assert rec.outcome is DropOutcome.LANDED and rec.phasing_roll is None


def test_tr51_hits_beyond_escorts_fall_on_airborne():
    # 10 interceptors roll 10: 10 x 0.6 = 6 hits; 3 escorts absorb 3; 3 reach the 3-factor unit
    rec = air_drop(PARA, 10, 3, phasing_roll=1, nonphasing_roll=10)
    assert (rec.interceptor_hits, rec.hits_on_airborne, rec.outcome) == \
        (6, 3, DropOutcome.DESTROYED)
    assert rec.air_combat is not None and rec.air_combat.hits_on_phasing == 3
    rec2 = air_drop(PARA, 10, 4, phasing_roll=1, nonphasing_roll=10)
    assert (rec2.hits_on_airborne, rec2.outcome, rec2.factors_after) == \
        (2, DropOutcome.LANDED, 3)


def test_tr51_partial_hits_reading():
    rec = air_drop(PARA, 10, 4, 1, 10, readings=AirborneReadings(
        airborne_partial_hits_reduce=True))
    assert rec.factors_after == 1 and rec.outcome is DropOutcome.LANDED


def test_tr51_hits_capped_at_strength():
    rec = air_drop(PARA, 20, 0, 1, 10)  # 12 hits, the unit has 3 factors
    assert rec.hits_on_airborne == 3


def test_tr51_exact_odds():
    # 5 interceptors, no escort: rolls 1-2 give 0, 3-5 give 1, 6-8 give 2, 9-10 give 3 hits
    odds = air_drop_odds(PARA, 5, 0)
    assert odds == {DropOutcome.LANDED: Fraction(8, 10), DropOutcome.DESTROYED: Fraction(2, 10)}
    assert sum(odds.values()) == 1


def test_tr51_bad_input():
    with pytest.raises(InputError):
        air_drop(PARA, -1, 0)
    with pytest.raises(InputError, match="rolls"):
        air_drop(PARA, 5, 0)


def test_tr52_landing_turn_attacks_own_hex_only():
    verify_airborne_attack(PARA, True, Hex(6, 0), Hex(6, 0), target_occupied=True)
    with pytest.raises(IllegalOrder, match="only its landing hex"):
        verify_airborne_attack(PARA, True, Hex(6, 0), Hex(7, 0), target_occupied=True)
    with pytest.raises(IllegalOrder, match="no enemy"):
        verify_airborne_attack(PARA, True, Hex(6, 0), Hex(6, 0), target_occupied=False)
    verify_airborne_attack(PARA, False, Hex(6, 0), Hex(7, 0), target_occupied=True)


def test_tr52_roles_and_shift_cancellation():
    combat = airborne_combat_role(PARA, True, "combat")
    assert combat.cancels_river_and_coast_shifts and not combat.attacks_as_mechanized
    mech = airborne_combat_role(PARA, True, "mech_combat")
    assert mech.attacks_as_mechanized and not mech.moves_in_mech_movement
    other = airborne_combat_role(PARA, False, "mech_combat")
    assert not other.attacks_as_mechanized and not other.attacks_landing_hex_only
    shifts = left_shifts(Terrain.CLEAR, all_river=True, amphibious=True,
                         airborne_in_hex=combat.cancels_river_and_coast_shifts)
    assert shifts == 0 and left_shifts(Terrain.CLEAR, True, True) == 2
    with pytest.raises(InputError):
        airborne_combat_role(PARA, True, "movement")


def test_tr53_two_air_links_of_six():
    bases = {Hex(0, 0): True, Hex(6, 0): True, Hex(12, 0): True, Hex(13, 0): True}
    rec = airborne_sr(PARA, [Hex(0, 0), Hex(6, 0), Hex(12, 0)], bases, [])
    assert rec.link_lengths == (6, 6)
    with pytest.raises(IllegalOrder, match="1 to 2"):
        verify_airborne_sr(PARA, [Hex(0, 0), Hex(6, 0), Hex(12, 0), Hex(13, 0)], bases, [])
    with pytest.raises(IllegalOrder, match="7 hexes"):
        verify_airborne_sr(PARA, [Hex(6, 0), Hex(13, 0)], bases, [])
    with pytest.raises(IllegalOrder, match="not a friendly"):
        verify_airborne_sr(PARA, [Hex(0, 0), Hex(3, 0)], bases, [])


def test_tr53_no_hex_passed_through_uncontested_enemy_zone():
    bases = {Hex(0, 0): True, Hex(6, 0): True}
    foe = [air("raf", "allies", 3, factors=5, neut=0)]
    foe_far = [BasedAir(AirUnit("raf", 5, 1), Side.ALLIES, Hex(3, 2))]  # reaches (3,1) only
    with pytest.raises(IllegalOrder, match="uncontested"):
        verify_airborne_sr(PARA, [Hex(0, 0), Hex(6, 0)], bases, foe)
    verify_airborne_sr(PARA, [Hex(0, 0), Hex(6, 0)], bases, foe_far)
    with pytest.raises(IllegalOrder):
        verify_airborne_sr(PARA, [Hex(0, 0), Hex(6, 0)], bases, foe_far,
                           routes=[[Hex(0, 0), Hex(3, 1), Hex(6, 0)]])
