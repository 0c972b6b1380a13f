"""analysis/montecarlo: vectorised sampling agrees with the exact odds of the same table."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from grognard.analysis.montecarlo import outcome_codes, simulate_column
from grognard.core.dice import DiceStream, Distribution, clamp_roll
from grognard.core.tables import load_tables


def test_outcome_codes_are_the_table_lookup():
    t = load_tables().table("europa_revised_crt")
    codes, alphabet = outcome_codes(t, "2-1", 1)
    lookup = Distribution.of("2d6").outcome_lookup()
    assert len(codes) == 36
    for raw, code in zip(lookup, codes, strict=True):
        assert alphabet[code] == t.lookup(clamp_roll(int(raw), 1, 2, 12), "2-1")


def test_one_million_combats_agree_with_exact_odds():
    t = load_tables().table("europa_revised_crt")
    n = 1_000_000
    counts = simulate_column(t, "3-1", 1, n, DiceStream(2024, "mc-test"))
    exact = Distribution.of("2d6").map(lambda r: t.lookup(clamp_roll(r, 1, 2, 12), "3-1"))
    assert set(counts) <= set(exact)
    for result, p in exact.items():
        sigma = np.sqrt(float(p * (1 - p)) * n)
        assert abs(counts.get(result, 0) - float(p) * n) < 5 * sigma, result
    assert sum(exact.values()) == Fraction(1)
