"""core/dice: expressions, exact distributions, seeded streams (C-RNG)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from grognard.core.dice import (
    Dice,
    DiceExpr,
    DiceStream,
    Distribution,
    clamp_roll,
    column_outcome_weights,
    modified_roll_weights,
)
from grognard.core.errors import DiceError
from grognard.core.tables import load_tables


@pytest.mark.parametrize("m", range(-4, 5))
def test_2d6_plus_m_clamped_matches_hand_counted_36ths(m):
    """Exact 2D6 + m clamped to 2..12 (the Europa revised modified roll) equals a count of
    the 36 equally likely (die1, die2) pairs, for every m in -4..+4."""
    counts = dict.fromkeys(range(2, 13), 0)
    for a, b in itertools.product(range(1, 7), repeat=2):
        counts[min(max(a + b + m, 2), 12)] += 1
    dist = Distribution.of("2d6").shift(m).clamp(2, 12)
    for total in range(2, 13):
        assert dist.probability(total) == Fraction(counts[total], 36), (m, total)
    assert sum(dist.probabilities().values()) == 1


def test_clamped_extremes_by_hand():
    # +4: natural 8..12 all become 12 -> 5+4+3+2+1 = 15/36.
    assert Distribution.of("2d6").shift(4).clamp(2, 12).probability(12) == Fraction(15, 36)
    # -4: natural 2..6 all become 2 -> 1+2+3+4+5 = 15/36.
    assert Distribution.of("2d6").shift(-4).clamp(2, 12).probability(2) == Fraction(15, 36)


def test_parse_expressions():
    assert DiceExpr.parse("1d6") == DiceExpr(1, 6, 0)
    assert DiceExpr.parse("2d6+1") == DiceExpr(2, 6, 1)
    assert DiceExpr.parse("1D10") == DiceExpr(1, 10, 0)
    assert DiceExpr.parse("d6-2") == DiceExpr(1, 6, -2)
    assert str(DiceExpr.parse("2d6+1")) == "2d6+1"


@pytest.mark.parametrize("bad", ["", "2x6", "0d6", "2d1", "d", "2d6+", "six"])
def test_bad_expressions_are_named(bad):
    with pytest.raises(DiceError, match="expression|die"):
        DiceExpr.parse(bad)


def test_distribution_of_1d10_and_3d6():
    assert Distribution.of("1d10").probabilities() == {i: Fraction(1, 10) for i in range(1, 11)}
    d = Distribution.of("3d6")
    assert d.lo == 3 and d.hi == 18 and d.total == 216
    assert d.probability(10) == Fraction(27, 216)
    assert d.expectation() == Fraction(21, 2)


def test_map_is_exact_and_sums_to_one():
    odds = Distribution.of("2d6").map(lambda r: "hit" if r >= 9 else "miss")
    assert odds == {"miss": Fraction(26, 36), "hit": Fraction(10, 36)}


def test_clamp_roll():
    assert clamp_roll(12, 2, 2, 12) == 12
    assert clamp_roll(3, -3, 2, 12) == 2
    assert clamp_roll(6, 1, 2, 12) == 7


def test_vectorised_table_odds_agree_with_map():
    """modified_roll_weights + column_outcome_weights equal Distribution.map per cell."""
    table = load_tables().table("europa_revised_crt")
    codes, alphabet = table.codes()
    drms = range(-2, 3)
    w = modified_roll_weights(Distribution.of("2d6"), drms, 2, 12)
    p = column_outcome_weights(w, codes, len(alphabet))
    assert p.shape == (5, len(table.columns), len(alphabet))
    assert (p.sum(axis=2) == 36).all()
    for di, drm in enumerate(drms):
        for ci, col in enumerate(table.columns):
            exact = Distribution.of("2d6").map(
                lambda r, drm=drm, col=col: table.lookup(clamp_roll(r, drm, 2, 12), col))
            for k, code in enumerate(alphabet):
                assert Fraction(int(p[di, ci, k]), 36) == exact.get(code, 0)


def test_streams_are_reproducible_and_independent():
    a = [DiceStream(42, "combat").die(6) for _ in range(1)]
    s1, s2 = DiceStream(42, "combat"), DiceStream(42, "combat")
    seq1 = [s1.die(6) for _ in range(50)]
    seq2 = [s2.die(6) for _ in range(50)]
    assert seq1 == seq2 and a[0] == seq1[0]
    other = DiceStream(42, "weather")
    assert [other.die(6) for _ in range(50)] != seq1
    assert [DiceStream(43, "combat").die(6) for _ in range(50)] != seq1


def test_roll_records_each_die():
    r = Dice(5).roll("2d6+1", stream="x")
    assert len(r.dice) == 2 and r.total == sum(r.dice) + 1
    assert all(1 <= d <= 6 for d in r.dice)


def test_snapshot_restore_gives_back_draws():
    d = Dice(9)
    d.roll("2d6", "a")
    snap = d.snapshot()
    first = [d.roll("1d6", "a").total for _ in range(5)] + [d.roll("1d6", "b").total]
    d.restore(snap)
    again = [d.roll("1d6", "a").total for _ in range(5)] + [d.roll("1d6", "b").total]
    assert first == again


def test_sample_matches_distribution():
    s = DiceStream(1, "mc").sample("2d6", 360_000)
    counts = np.bincount(s, minlength=13)[2:]
    expected = np.array([1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]) * 10_000
    # 5 sigma on each cell of a multinomial with n = 360,000
    sigma = np.sqrt(expected * (1 - expected / 360_000))
    assert (np.abs(counts - expected) < 5 * sigma).all()


@given(st.integers(0, 2**32), st.sampled_from(["1d6", "2d6", "1d10", "2d6+1"]))
def test_rolls_within_range(seed, expr):
    e = DiceExpr.parse(expr)
    r = DiceStream(seed, "p").roll(e)
    assert e.minimum <= r.total <= e.maximum


def test_negative_seed_rejected():
    with pytest.raises(DiceError, match="seed"):
        Dice(-1)
