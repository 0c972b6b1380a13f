"""EUR-28 strategic bombing changes (001_20f3acfdeb9925e5.txt, "Air phase": "Besides the listed
strategic bombing missions ...")."""

from __future__ import annotations

import pytest

from grognard.core.dice import Distribution
from grognard.core.errors import InputError
from grognard.europa.air.strategic_bombing import (
    StrategicBombingReadings,
    StrategicTarget,
    replacement_points_lost,
    strategic_bombing,
    strategic_hit_odds,
    strategic_hits,
)


def test_eur28_marshalling_yard_hits_remove_one_sp_each():
    """Seed: "all 'rail marshaling yard' attacks also reduce enemy supply points on their supply
    track by 1 per hit"."""
    e = strategic_bombing("marshalling_yard", [2, 1, 0])
    assert (e.hits, e.supply_points_lost, e.supply_steps_lost) == (3, 3, 0)


def test_eur28_marshalling_yard_same_hit_limit_as_rail_mission():
    """Seed: "subject to the same limits on effective hits per target as the rail mission"
    (limit EXTERNAL, given as hit_limit)."""
    e = strategic_bombing("marshalling_yard", [2, 2, 2], hit_limit=4)
    assert e.effective_hits == 4 and e.supply_points_lost == 4
    assert strategic_bombing("rail_capacity", [2, 2], hit_limit=3).effective_hits == 3
    assert strategic_bombing("rail_capacity", [2, 2]).supply_points_lost == 0


def test_eur28_factory_and_supply_city_one_replacement_per_two_hits():
    """Seed: "hits on factories and Soviet supply cities reduce Russian replacements by 1 for
    every 2 hits recorded against them, not 1 per 3 hits as in the original rules"."""
    assert [replacement_points_lost(h) for h in (1, 2, 3, 4, 6)] == [0, 1, 1, 2, 3]
    assert strategic_bombing("soviet_supply_city", [2, 2]).replacement_points_lost == 2
    original = StrategicBombingReadings(hits_per_replacement_point=3)
    assert replacement_points_lost(6, original) == 2


def test_eur28_odd_hits_carry_within_the_turn():
    """RULES.md EUR-28 reading: leftover odd hits accumulate within the turn."""
    first = strategic_bombing("factory", [1])
    assert first.replacement_points_lost == 0 and first.hits_carried == 1
    second = strategic_bombing("factory", [1], prior_hits=1)
    assert second.replacement_points_lost == 1 and second.hits_carried == 0
    no_carry = StrategicBombingReadings(carry_odd_hits=False)
    assert strategic_bombing("factory", [1], prior_hits=1,
                             readings=no_carry).replacement_points_lost == 0


def test_eur28_explicit_supply_units_only_two_results_count():
    """Seed: "In games with explicit supply units (e.g. Western Desert), only results with 2
    hits reduce supply by 1 step, while '1' hit results have no effect"."""
    e = strategic_bombing("marshalling_yard", [1, 1, 1], explicit_supply_units=True)
    assert (e.supply_steps_lost, e.supply_points_lost) == (0, 0)
    e = strategic_bombing("marshalling_yard", [2, 1, 2], explicit_supply_units=True)
    assert (e.supply_steps_lost, e.supply_points_lost) == (2, 0)


def test_eur28_other_targets_report_hits_only():
    e = strategic_bombing(StrategicTarget.PORT, [2])
    assert (e.effective_hits, e.supply_points_lost, e.replacement_points_lost) == (2, 0, 0)
    assert e.to_json()["target"] == "port"


def test_eur28_bad_input():
    with pytest.raises(InputError):
        strategic_bombing("moon", [1])
    with pytest.raises(InputError):
        strategic_bombing("factory", [3])
    with pytest.raises(InputError):
        strategic_bombing("factory", [1], prior_hits=-1)


def test_eur28_strategic_hits_and_exact_odds():
    odds = strategic_hit_odds(30)
    assert odds == Distribution.of("2d6").map(lambda r: strategic_hits(30, r))
    assert sum(odds.values()) == 1
    assert strategic_hits(30, 2) <= strategic_hits(30, 12)
