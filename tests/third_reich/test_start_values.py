"""TR-85..TR-87: starting BRP bases and territory values."""

from __future__ import annotations

import pytest

from grognard.core.errors import InputError
from grognard.third_reich.economy.readings import StrategicReadings
from grognard.third_reich.economy.start_values import (
    FORCE_POOL_ADJUSTMENTS,
    axis_minors,
    group_value,
    rm_pact_total,
    starting_base,
    territory_value,
)


def test_tr86_starting_bases():
    """Seed 002 "Post playtest refinements": France 60, Italy 50, US 250, Germany 150, UK 125,
    USSR 90."""
    assert {p: starting_base(p) for p in ("france", "italy", "us", "germany", "uk", "ussr")} == {
        "france": 60, "italy": 50, "us": 250, "germany": 150, "uk": 125, "ussr": 90}


def test_tr86_tv09_germany_170_after_poland_ussr_110_after_rm():
    """TR-TV09: Germany 150 + Poland = 170; USSR 90 + E. Poland 5 + Bessarabia 5 + Baltics 10
    = 110."""
    assert starting_base("germany") + territory_value("poland") == 170
    assert starting_base("ussr") + rm_pact_total() == 110


def test_tr87_tv10_group_totals():
    """TR-TV10: Axis minors 35; Yugoslavia + Greece 25; the west 60 with Belgium+Netherlands 25
    (EXTERNAL, 3R4)."""
    assert group_value(axis_minors()) == 35
    assert group_value(["yugoslavia", "greece"]) == 25
    assert group_value(["occupied_france", "denmark", "norway", "luxembourg"]) + 25 == 60


def test_tr87_values():
    assert [territory_value(t) for t in ("sweden", "spain", "turkey", "vichy", "morocco",
                                         "romania", "hungary")] == [15, 20, 20, 15, 5, 15, 10]


def test_tr12_rm_pact_reading_25():
    """RULES.md ambiguity 5: rm_pact_value 25 puts eastern Poland at 10 (the earlier text)."""
    r = StrategicReadings(rm_pact_value=25)
    assert rm_pact_total(r) == 25 and territory_value("eastern_poland", r) == 10


def test_tr87_external_value_rejected():
    with pytest.raises(InputError, match="EXTERNAL"):
        territory_value("belgium")


def test_tr85_force_pool_adjustments_as_data():
    units = {(a["power"], a["unit"]) for a in FORCE_POOL_ADJUSTMENTS}
    assert ("uk", "4-5 armor") in units and ("france", "5-4 air fleet") in units
