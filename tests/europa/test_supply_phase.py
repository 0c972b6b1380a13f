"""EUR-30 supply phase and EUR-36 defensive supply."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from grognard.core.errors import InputError
from grognard.core.mapgen import map_from_rows
from grognard.core.paths import Forces
from grognard.core.zoc import europa_revised_zoc, zoc_field
from grognard.europa.supply.phase import (
    SupplyReadings,
    apply_defensive_supply,
    supply_phase,
    supply_phase_from_json,
)


def _setup(axis: list[str], allies: list[str], rows: list[str] | None = None):
    m = map_from_rows(rows or ["ccccccc"])
    hexes = axis + allies
    f = Forces.build(m, hexes, ["axis"] * len(axis) + ["allies"] * len(allies))
    return m, zoc_field(m, f, "axis", europa_revised_zoc())


def test_eur30_marked_unit_cut_off_by_enemy_is_isolated():
    """Seed 001 "Supply phase": already OOS, still OOS and no path of any length -> Isolated."""
    m, z = _setup(["0101"], ["0301"])
    r = supply_phase(m, ["0101"], z, ["0701"], max_length=10, was_out=[True], ids=["inf"])
    assert r.isolated == ("inf",)
    assert r.isolated_hexes == ("0101",)
    assert r.newly_marked == ()


def test_eur30_newly_out_unit_is_marked_not_isolated():
    """Seed 001: newly OOS units are marked; no isolation attrition until the next game turn."""
    m, z = _setup(["0101"], ["0301"])
    r = supply_phase(m, ["0101"], z, ["0701"], max_length=10, was_out=[False], ids=["inf"])
    assert r.newly_marked == ("inf",)
    assert r.isolated == ()


def test_eur30_too_far_but_open_path_is_not_isolated():
    """Path of any length (reading): only enemy units/ZOCs block; the length limit does not."""
    m, z = _setup(["0101"], [])
    r = supply_phase(m, ["0101"], z, ["0701"], max_length=2, was_out=[True], ids=["inf"])
    assert r.isolated == ()
    assert r.still_out == ("inf",)


def test_eur30_marker_removed_when_back_in_supply():
    m, z = _setup(["0101"], [])
    r = supply_phase(m, ["0101"], z, ["0401"], max_length=5, was_out=[True], ids=["inf"])
    assert r.restored == ("inf",)
    assert r.in_supply == ("inf",)


def test_eur30_defensive_supply_never_isolated():
    """EUR-36: units in defensive supply never suffer isolation attrition."""
    m, z = _setup(["0101"], ["0301"])
    r = supply_phase(m, ["0101"], z, ["0701"], max_length=10, was_out=[True], ids=["inf"],
                     defensive=[True])
    assert r.isolated == ()


def test_eur30_bad_flags_raise():
    m, z = _setup(["0101"], [])
    with pytest.raises(InputError, match="was_out"):
        supply_phase(m, ["0101"], z, ["0401"], max_length=5, was_out=[True, False])


def test_eur36_defensive_supply_halves_attack_and_mech_ma():
    """Seed 001 "Defensive supply": halved attack and motorized MA, full defense, no mech
    phase movement."""
    e = apply_defensive_supply("armor", 9, 10, 10)
    assert (e.attack, e.defense, e.movement) == (Fraction(9, 2), 10, 5)
    assert not e.may_exploit
    assert not e.isolation_attrition


def test_eur36_infantry_keeps_ma_and_defense():
    e = apply_defensive_supply("infantry", 4, 6, 4)
    assert (e.attack, e.defense, e.movement) == (2, 6, 4)
    assert e.may_exploit


def test_eur36_artillery_cannot_bombard_and_gives_1():
    e = apply_defensive_supply("artillery", 6, 5, 6)
    assert e.defense == 1 and not e.may_bombard


def test_eur36_in_supply_is_unchanged_and_bad_values_raise():
    e = apply_defensive_supply("armor", 9, 10, 10, supply="in")
    assert (e.attack, e.movement, e.may_exploit) == (9, 10, True)
    with pytest.raises(InputError):
        apply_defensive_supply("armor", -1, 10, 10)
    with pytest.raises(InputError):
        apply_defensive_supply("tank", 1, 1, 1)


def test_supply_readings_defaults_match_rules_md():
    r = SupplyReadings()
    assert r.to_mapping() == {
        "breakout_factor_games": False, "isolation_winter_definition": "winter_months",
        "single_step_return_cost": "one", "sp_half_rounding": "up",
        "supply_weather_zone": "front_majority", "supply_weather_rounding": "floor",
        "fite_air_surprise_pooling": "per_airfield",
    }


EXAMPLE = Path(__file__).parents[2] / "src/grognard/data/examples/europa_supply_phase.json"


def test_eur30_supply_phase_from_example_file():
    """The shipped example: a pocket behind two enemy units is isolated; a fresh unit there
    is only marked; a unit near the source is restored."""
    r = supply_phase_from_json(json.loads(EXAMPLE.read_text(encoding="utf-8")))
    assert (r.isolated, r.newly_marked, r.restored) == (("pocket",), ("fresh",), ("near",))


def test_eur30_interdiction_shortens_line():
    """EUR-26 via the map layer: a line through an interdiction zone is 1 hex shorter."""
    raw = {"rows": ["ccccc"], "side": "axis", "max_length": 2, "sources": ["0301"],
           "units": [{"id": "a", "hex": "0101", "side": "axis"}]}
    assert supply_phase_from_json(raw).in_supply == ("a",)
    raw["interdiction"] = ["0201"]
    assert supply_phase_from_json(raw).newly_marked == ("a",)


def test_eur30_supply_phase_file_errors():
    with pytest.raises(InputError, match="rows"):
        supply_phase_from_json({"rows": "x"})
    with pytest.raises(InputError, match="units"):
        supply_phase_from_json({"rows": ["cc"], "side": "axis", "units": [
            {"hex": "0101", "side": "allies"}]})
