"""EUR-31 Break Out."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grognard.core.dice import Distribution
from grognard.core.errors import InputError
from grognard.europa.supply.breakout import break_out, breakout_odds, breakout_replacements
from grognard.europa.supply.phase import SupplyReadings


def test_eur_tv06_breakout_replacements():
    """RULES.md EUR-TV06 (seed 001 "Isolation Attrition"): total 12 with roll >= 7 -> 3;
    total 12 with a 6-SP required loss -> 1; total 3 -> 0 infantry REs."""
    assert breakout_replacements(12, 0) == 3
    assert breakout_replacements(12, 6) == 1
    assert breakout_replacements(3, 0) == 0


def test_eur31_never_negative():
    assert breakout_replacements(1, 0) == 0
    assert breakout_replacements(Fraction(5, 2), Fraction(5, 4)) == 0


def test_eur31_factor_games_reading():
    r = SupplyReadings(breakout_factor_games=True)
    assert breakout_replacements(12, 6, r) == 5
    assert breakout_replacements(1, 0, r) == 0


def test_eur31_break_out_uses_the_attrition_roll():
    """Seed 001: on 6 or less the excess over the required loss, minus 1; on 7+ the full
    amount (total / 3, round down, minus 1)."""
    low = break_out("1010", ["a", "b"], 12, 6)
    high = break_out("1010", ["a", "b"], 12, 7)
    assert (low.required_loss, low.infantry_replacements) == (6, 1)
    assert (high.required_loss, high.infantry_replacements) == (0, 3)
    assert high.to_json()["eliminated"] == ["a", "b"]


def test_eur31_exact_odds_from_same_function():
    odds = breakout_odds(12, -1)
    p_low = Distribution.of("2d6").map(lambda r: r - 1 <= 6)[True]
    assert odds == {1: p_low, 3: 1 - p_low}


def test_eur31_bad_input():
    with pytest.raises(InputError):
        breakout_replacements(3, 6)
    with pytest.raises(InputError):
        breakout_replacements(-1, 0)
    with pytest.raises(InputError):
        break_out("1010", [], 12, 7)


def test_eur31_eur32_isolation_attrition_rolls_every_hex_reproducibly():
    """Break Outs are declared before the rolls; breakout hexes roll too (reading)."""
    from grognard.core.dice import DiceStream
    from grognard.europa.supply.breakout import IsolatedHex, isolation_attrition

    hexes = [IsolatedHex("0101", ("a",), 12, adjacent_enemy=True, region="russia"),
             IsolatedHex("0505", ("b", "c"), 9, break_out=True)]
    recs = isolation_attrition(hexes, DiceStream(3, "europa.isolation"))
    again = isolation_attrition(hexes, DiceStream(3, "europa.isolation"))
    assert recs == again
    first, second = recs
    assert first.roll.modified_roll == first.dice.total - 2
    assert first.roll.loss == (6 if first.roll.modified_roll <= 6 else 0)
    assert first.break_out is None
    assert second.break_out is not None
    assert second.break_out.infantry_replacements == breakout_replacements(
        9, second.roll.loss)
    with pytest.raises(InputError):
        isolation_attrition([hexes[0], hexes[0]], DiceStream(3, "europa.isolation"))


def test_eur31_eur32_a_modified_roll_outside_2d6_plus_the_drms_is_refused():
    """Issue 16: ``--modified-roll 99`` was accepted. The isolation DRMs total -3..+2, so a
    modified roll is -1..14 and both ends are accepted."""
    assert break_out("1010", ["a"], 12, -1).required_loss == 6
    assert break_out("1010", ["a"], 12, 14).required_loss == 0
    for bad in (99, -2, 15):
        with pytest.raises(InputError, match="modified attrition roll is 2D6 -3..\\+2"):
            break_out("1010", ["a"], 12, bad)
    with pytest.raises(InputError, match="drm"):
        breakout_odds(12, 3)
