"""TR-33 / TR-84: hex defense strength, fortified hexes and the Russian winter."""

from __future__ import annotations

import pytest

from grognard.core.errors import InputError
from grognard.third_reich.combat.hex_defense import hex_defense, weather_add
from grognard.third_reich.turn.calendar import Weather
from grognard.third_reich.turn.combat_readings import TRCombatReadings
from grognard.third_reich.turn.forces import GroundKind, GroundUnit, Side


def inf(uid: str, f: int, nat: str = "german", side: Side = Side.AXIS) -> GroundUnit:
    return GroundUnit(uid, nat, side, GroundKind.INFANTRY, f)


def test_tr33_clear_adds_one_snow_and_mud_add_two() -> None:
    units = [inf("a", 3), inf("b", 2)]
    assert hex_defense(units, Weather.CLEAR).total == 6
    assert hex_defense(units, Weather.SNOW).total == 7
    assert hex_defense(units, Weather.MUD).total == 7
    assert [weather_add(w) for w in Weather] == [1, 2, 2]


def test_tr33_no_doubling_on_defense() -> None:
    assert hex_defense([inf("a", 4)], Weather.CLEAR).total == 5  # not 2x4


def test_tr33_tv12_fortified_hex_doubles_strongest_unit() -> None:
    """RULES.md TR-TV12; seed 002 "Changes to land combat": fortified hexes give the add to the
    single strongest unit, then double that unit; others count their ordinary factor."""
    units = [inf("a", 2), inf("b", 3)]
    clear = hex_defense(units, Weather.CLEAR, fortified=True)
    assert clear.total == 2 * (3 + 1) + 2 == 10
    assert clear.doubled_unit == "b"
    assert hex_defense(units, Weather.SNOW, fortified=True).total == 2 * (3 + 2) + 2 == 12


def test_tr33_replacement_defends_with_one() -> None:
    rep = GroundUnit("r", "german", Side.AXIS, GroundKind.REPLACEMENT, 0, 0)
    assert hex_defense([rep], Weather.CLEAR).total == 2


def test_tr84_russian_winter_voids_the_add_for_axis_units() -> None:
    """Seed 002 "Russian winter": non-Finnish Axis units get no defense adds; they defend with
    their printed strength."""
    units = [inf("a", 3), inf("b", 2)]
    d = hex_defense(units, Weather.SNOW, russian_winter=True)
    assert d.total == 5 and d.add == 0 and d.russian_winter


def test_tr84_finnish_units_keep_their_winter_add() -> None:
    fin = inf("f", 3, nat="finnish")
    assert hex_defense([fin], Weather.SNOW, russian_winter=True).total == 5
    # a German unit in the same position loses it
    assert hex_defense([inf("g", 3)], Weather.SNOW, russian_winter=True).total == 3


def test_tr84_soviet_defenders_unaffected() -> None:
    sov = inf("s", 3, nat="soviet", side=Side.ALLIES)
    assert hex_defense([sov], Weather.SNOW, russian_winter=True).total == 5


def test_tr84_mixed_stack_reading() -> None:
    units = [inf("f", 2, nat="finnish"), inf("g", 3)]
    assert hex_defense(units, Weather.SNOW, russian_winter=True).total == 7
    strict = TRCombatReadings(russian_winter_mixed_stack_keeps_add=False)
    assert hex_defense(units, Weather.SNOW, russian_winter=True, readings=strict).total == 5


def test_tr84_fortified_doubling_survives_russian_winter_by_default() -> None:
    units = [inf("a", 3), inf("b", 2)]
    assert hex_defense(units, Weather.SNOW, fortified=True, russian_winter=True).total == 8
    r = TRCombatReadings(russian_winter_voids_fort_doubling=True)
    assert hex_defense(units, Weather.SNOW, True, True, r).total == 5


def test_tr33_empty_hex_is_an_input_error() -> None:
    with pytest.raises(InputError, match="defenders"):
        hex_defense([], Weather.CLEAR)


def test_tr84_russian_winter_is_the_first_winter_of_the_war_only() -> None:
    from grognard.third_reich.combat.hex_defense import russian_winter_applies
    from grognard.third_reich.turn.calendar import Season

    war = (1941, Season.SUMMER1)
    assert russian_winter_applies(1941, Season.WINTER, *war, True)
    assert not russian_winter_applies(1941, Season.FALL, *war, True)
    assert not russian_winter_applies(1942, Season.WINTER, *war, True)
    assert not russian_winter_applies(1941, Season.WINTER, *war, False)  # outside the area
    assert not russian_winter_applies(1940, Season.WINTER, *war, True)  # before the war
    assert russian_winter_applies(1942, Season.WINTER, 1942, Season.WINTER, True)
