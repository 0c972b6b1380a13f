"""TR-50 / TR-79: the 1D10 effectiveness fire (RULES.md section 3c reconstruction)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from grognard.core.dice import Dice
from grognard.core.errors import InputError
from grognard.core.tables import parse_table
from grognard.third_reich.air_naval.effectiveness import (
    effectiveness_hits,
    effectiveness_hits_sampled,
    effectiveness_odds,
    multiplier,
)


def test_tr50_london_raid_fifteen_factors_tv02():
    """TR-TV02, seed 002 "Economic loss from conquest and air attack": 3 German 5-4 air fleets
    (15 factors) bomb London unopposed; 1D10 = 1..10 inflicts 0,0,3,3,3,6,6,6,9,9 BRPs."""
    assert [effectiveness_hits(15, r) for r in range(1, 11)] == [0, 0, 3, 3, 3, 6, 6, 6, 9, 9]


def test_tr50_london_raid_fleet_by_fleet_gives_the_same():
    """Section 3c: computed fleet by fleet (3 x 5 factors) the example is the same."""
    assert [3 * effectiveness_hits(5, r) for r in range(1, 11)] == [0, 0, 3, 3, 3, 6, 6, 6, 9, 9]


def test_tr79_tv17_half_factor_bombers_use_06_rule():
    """TR-TV17: 5 bombers fire at interceptors as 3 factors, roll 9 -> 1.8 -> 2 hits."""
    assert effectiveness_hits(3, 9, round06=True) == 2
    assert effectiveness_hits(3, 9) == 1


def test_tr79_tv17_surviving_subs_double_factors_round_down():
    """TR-TV17: 3 surviving subs at the economy, 2x factors, roll 6 -> 2.4 -> 2 BRP hits."""
    assert effectiveness_hits(6, 6) == 2


def test_tr50_small_forces_three_factors_both_roundings():
    """Section 3c: 3 factors give 0,0,0,0,0,1,1,1,1,1 rounding down, 0,0,1,1,1,1,1,1,2,2 with 0.6."""
    assert [effectiveness_hits(3, r) for r in range(1, 11)] == [0] * 5 + [1] * 5
    assert [effectiveness_hits(3, r, round06=True) for r in range(1, 11)] == [
        0, 0, 1, 1, 1, 1, 1, 1, 2, 2]


def test_tr50_drm_moves_roll_before_clamping():
    """Section 3c: roll 10 + 1 is treated as 10; roll 1 - 3 as 1."""
    assert effectiveness_hits(10, 10, drm=1) == 6
    assert effectiveness_hits(10, 3, drm=-3) == 0
    assert effectiveness_hits(10, 5, drm=1) == 4


def test_tr50_multiplier_is_floor_roll_over_three_fifths():
    assert [multiplier(r) for r in range(1, 11)] == [Fraction(r // 3, 5) for r in range(1, 11)]


def test_tr50_exact_odds_mean_point_three_per_factor():
    odds = effectiveness_odds(10)
    assert sum(odds.values()) == 1
    assert sum(h * p for h, p in odds.items()) == 3


def test_tr50_fractional_factors_allowed():
    """One third of 9 fleet factors fire as 3 (TR-21)."""
    assert effectiveness_hits(Fraction(9, 3), 10) == 1


def test_tr50_user_table_replaces_shipped():
    raw = {"id": "tr_new3r_airnaval", "title": "t", "source": "user", "dice": "1D10",
           "row_key": "roll", "columns": ["multiplier"],
           "rows": [{"key": r, "results": ["1/2"]} for r in range(1, 11)]}
    t = parse_table(raw)
    assert effectiveness_hits(10, 1, table=t) == 5


def test_tr50_bad_input_names_field():
    with pytest.raises(InputError, match="roll"):
        effectiveness_hits(5, 11)
    with pytest.raises(InputError, match="factors"):
        effectiveness_hits(-1, 5)


def test_tr50_sampled_matches_pure_function():
    rolls = Dice(3).stream("eff").sample("1d10", 100_000)
    got = effectiveness_hits_sampled(15, rolls, drm=1)
    want = np.array([effectiveness_hits(15, int(r), 1) for r in range(1, 11)])[rolls - 1]
    assert np.array_equal(got, want)
    assert abs(float(got.mean()) - 5.4) < 0.1
