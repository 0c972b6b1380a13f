"""EUR-34, EUR-35, EUR-43, EUR-44, EUR-45 Fire in the East adjustments."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.europa.fite import (
    SetupUnit,
    air_surprise,
    air_surprise_eliminations,
    gauge_conversion_cost,
    supply_grade_through,
    surprise_turn_move_ok,
    truck_range,
    validate_fite_setup,
    verify_surprise_turn_move,
    verify_truck_flip,
)
from grognard.europa.supply.phase import AirSurprisePooling, SupplyReadings


def test_eur34_gauge_conversion_one_mp_beyond_entry():
    """Seed 001: "convert a rail gauge for 1 MP spent in the hex, beyond the cost of moving
    into it, instead of the 2 MP"."""
    assert gauge_conversion_cost() == 1
    assert gauge_conversion_cost(entry_cost=2) == 3


def test_eur35_truck_ranges():
    """Seed 001: "4 in clear and 2 even in mud"; flipped to deplete: 8 in clear."""
    assert truck_range("clear") == 4
    assert truck_range("mud") == 2
    assert truck_range("clear", extended=True) == 8
    assert truck_range("frost", original=2) == 3


def test_eur35_other_weather_needs_original():
    with pytest.raises(InputError, match="EXTERNAL"):
        truck_range("snow")


def test_eur35_extended_link_gives_defensive_supply_and_revert_in_movement():
    assert supply_grade_through(True).value == "defensive"
    verify_truck_flip(True, False, "movement")
    verify_truck_flip(False, True, "combat")
    with pytest.raises(IllegalOrder, match="EUR-35"):
        verify_truck_flip(True, False, "combat")


GEO = {"B1": 0, "B2": 0, "S1": 1, "S3": 3, "S6": 6, "G1": -1}


def test_eur43_legal_setup():
    units = [
        SetupUnit("a1", "soviet", "B1", "kiev", "army"),
        SetupUnit("a2", "soviet", "B2", "kiev", "army"),
        SetupUnit("m1", "soviet", "S3", "kiev", "mechanized_corps"),
        SetupUnit("art", "soviet", "B1", "kiev", "non_divisional", artillery=True, ma=6),
        SetupUnit("eng", "soviet", "S3", "kiev", "non_divisional"),
        SetupUnit("g1", "german", "G1"),
    ]
    assert validate_fite_setup(units, GEO, {"B1", "B2"}) == []


def test_eur43_violations():
    units = [
        SetupUnit("a1", "soviet", "S3", "kiev", "army"),
        SetupUnit("m1", "soviet", "S1", "kiev", "mechanized_corps"),
        SetupUnit("art", "soviet", "S6", "kiev", "non_divisional", artillery=True, ma=6),
        SetupUnit("eng", "soviet", "S6", "odessa", "non_divisional"),
        SetupUnit("g1", "german", "S1"),
    ]
    errs = validate_fite_setup(units, GEO, {"B1"})
    assert any(e.startswith("a1: Army") for e in errs)
    assert any(e.startswith("m1: Mechanized Corps") for e in errs)
    assert any(e.startswith("art: MA-6") for e in errs)
    assert any(e.startswith("eng: non-divisional") for e in errs)
    assert any(e.startswith("g1: German") for e in errs)
    assert "border hex B2 is not in a Soviet ZOC" in errs


def test_eur43_siege_artillery_free_to_stack_with_any_listing():
    units = [SetupUnit("m1", "soviet", "S3", "kiev", "mechanized_corps"),
             SetupUnit("siege", "soviet", "S3", "kiev", "non_divisional", artillery=True,
                       ma=6, siege=True)]
    assert validate_fite_setup(units, {"S3": 3}, set()) == []


SOVIET = {"S1", "S2"}
BORDER = {"G1"}
ZOC = {"G1", "S1", "S2"}


def test_eur44_one_step_across_the_border():
    """Seed 001: the only ground movement is across the border, stopping in the first hex."""
    assert surprise_turn_move_ok(["G1", "S1"], SOVIET, BORDER, set())
    assert not surprise_turn_move_ok(["G1", "S1", "S2"], SOVIET, BORDER, set())
    assert not surprise_turn_move_ok(["G0", "G1"], SOVIET, BORDER, set())


def test_eur44_no_zoc_to_zoc_no_overrun_no_exploitation():
    assert not surprise_turn_move_ok(["G1", "S1"], SOVIET, BORDER, ZOC)
    with pytest.raises(IllegalOrder, match="overrun"):
        verify_surprise_turn_move(["G1", "S1"], SOVIET, BORDER, set(), overrun=True)
    with pytest.raises(IllegalOrder, match="exploitation"):
        verify_surprise_turn_move(["G1", "S1"], SOVIET, BORDER, set(), phase="exploitation")


def test_eur_tv09_air_surprise():
    """RULES.md EUR-TV09: 20 and 7 German air units on airfield surprise strikes -> 10 and 3
    Soviet air units eliminated."""
    r = air_surprise([20, 7])
    assert r.eliminated == (10, 3) and r.total == 13


def test_eur45_pooled_reading():
    pooled = SupplyReadings(fite_air_surprise_pooling=AirSurprisePooling.POOLED)
    assert air_surprise_eliminations([3, 3], pooled) == 3
    assert air_surprise_eliminations([3, 3]) == 2
    with pytest.raises(InputError):
        air_surprise([-1])


def _row_map():
    from grognard.core.mapgen import map_from_rows
    from grognard.core.paths import Forces
    from grognard.core.zoc import europa_revised_zoc, zoc_field

    m = map_from_rows(["c" * 15])
    f = Forces.build(m, ["0101"], ["axis"])
    return m, zoc_field(m, f, "axis", europa_revised_zoc())


def test_eur35_truck_extends_supply_4_hexes_in_clear():
    from grognard.europa.fite import truck_supply

    m, z = _row_map()
    r = truck_supply(m, ["0701", "0801"], z, ["0101"], max_length=2, weather="clear",
                     trucks=["0301"], ids=["near", "far"])
    assert r.trucks_supplied == (True,)
    assert [s.value for s in r.units] == ["in", "out"]


def test_eur35_extended_truck_gives_defensive_supply_8_hexes():
    """Seed 001: flipped to deplete, range 8 in clear, but units tracing through it are only
    in defensive supply."""
    from grognard.europa.fite import truck_supply

    m, z = _row_map()
    r = truck_supply(m, ["1101", "1201"], z, ["0101"], max_length=2, weather="clear",
                     trucks=["0301"], extended=[True])
    assert [s.value for s in r.units] == ["defensive", "out"]


def test_eur35_truck_chain_and_mud_range():
    from grognard.europa.fite import truck_supply

    m, z = _row_map()
    r = truck_supply(m, ["1101"], z, ["0101"], max_length=2, weather="clear",
                     trucks=["0301", "0701"])
    assert r.trucks_supplied == (True, True) and r.units[0].value == "in"
    mud = truck_supply(m, ["0601"], z, ["0101"], max_length=2, weather="mud",
                       trucks=["0301"])
    assert mud.units[0].value == "out"  # 3 hexes from the truck, mud range 2
