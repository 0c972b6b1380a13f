"""TR-35: air and naval support of ground combat and its caps."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder
from grognard.third_reich.air_naval.support import combat_support, naval_support, support_cap
from grognard.third_reich.turn.calendar import Weather
from grognard.third_reich.turn.combat_readings import NavalThirdRounding, TRCombatReadings
from grognard.third_reich.turn.forces import AirUnit, Fleet


def test_tr35_tv13_support_caps() -> None:
    """RULES.md TR-TV13: final defense 6, ground 10 / 2 in clear → caps 12 / 4; snow, ground 10 → 6."""
    assert support_cap(6, 10, snow=False) == 12
    assert support_cap(6, 2, snow=False) == 4
    assert support_cap(6, 10, snow=True) == 6


def test_tr35_snow_halves_the_defense_cap() -> None:
    air = [AirUnit("a", 5), AirUnit("b", 5)]
    assert combat_support(air, [], 4, 20, Weather.CLEAR).used == 8
    assert combat_support(air, [], 4, 20, Weather.SNOW).used == 4
    # mud is not snow: the 2x cap stands
    assert combat_support(air, [], 4, 20, Weather.MUD).used == 8


def test_tr35_naval_support_is_a_third() -> None:
    assert naval_support(Fleet("f", 9)) == 3
    assert naval_support(Fleet("f", 8)) == 2
    exact = TRCombatReadings(naval_support_rounding=NavalThirdRounding.EXACT)
    assert str(naval_support(Fleet("f", 8), readings=exact)) == "8/3"


def test_tr35_invasion_support_uses_printed_strength() -> None:
    assert naval_support(Fleet("f", 5, printed=9), invasion=True) == 3
    assert naval_support(Fleet("f", 5, printed=9)) == 1


def test_tr35_one_fleet_per_attack() -> None:
    with pytest.raises(IllegalOrder, match="TR-35"):
        combat_support([], [Fleet("f1", 9), Fleet("f2", 9)], 10, 10, Weather.CLEAR)
    assert combat_support([], [Fleet("f1", 9)], 10, 10, Weather.CLEAR).used == 3


def test_tr35_air_plus_fleet_capped_at_twice_ground() -> None:
    s = combat_support([AirUnit("a", 5)], [Fleet("f", 9)], 10, 3, Weather.CLEAR)
    assert (s.air, s.naval, s.offered, s.cap, s.used) == (5, 3, 8, 6, 6)
