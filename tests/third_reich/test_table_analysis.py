"""Analysis of the 3R combat tables: exact distributions (TR-32, TR-42, TR-50)."""

from __future__ import annotations

from fractions import Fraction

from grognard.third_reich.table_analysis import (
    attrition_comparison,
    attrition_expectations,
    fire_distribution,
    in_36ths,
    land_crt_distributions,
    land_crt_monte_carlo,
)


def test_tr42_attrition_table_reproduces_published_expectations_in_36ths() -> None:
    """Seed 002 "New attrition table" (Def 0.67 … 8.67, Att 0.33 … 4.25, Hex 0.08 … 4.00)."""
    rows = attrition_expectations()
    assert [r["def"] for r in rows] == ["24/36", "54/36", "99/36", "144/36", "207/36",
                                        "258/36", "312/36"]
    assert [r["att"] for r in rows] == ["12/36", "27/36", "48/36", "69/36", "99/36",
                                        "126/36", "153/36"]
    assert [r["hex"] for r in rows] == ["3/36", "18/36", "48/36", "72/36", "90/36",
                                        "120/36", "144/36"]


def test_tr42_comparison_shows_the_column4_inconsistency() -> None:
    col4 = attrition_comparison()[3]
    assert col4["diff"] == Fraction(75, 36)
    assert col4["printed"]["diff"] == "2.17"


def test_tr32_land_crt_distributions_sum_to_one() -> None:
    for drm in (-1, 0, 1):
        for s in land_crt_distributions(drm):
            assert sum(s.probabilities.values()) == 1
    six = land_crt_distributions(0)[-1]
    assert six.column == "6-1" and six.defender_units == Fraction(59, 36)


def test_tr32_monte_carlo_agrees_with_exact() -> None:
    exact = {s.column: s for s in land_crt_distributions(0)}["3-1"].probabilities
    sampled = land_crt_monte_carlo("3-1", 0, 300_000, seed=3)
    for code, p in exact.items():
        assert abs(sampled.get(code, 0.0) - float(p)) < 0.005, code


def test_tr50_fire_distribution() -> None:
    d = fire_distribution(15)
    assert d == {0: Fraction(1, 5), 3: Fraction(3, 10), 6: Fraction(3, 10), 9: Fraction(1, 5)}
    assert fire_distribution(3, round06=True)[2] == Fraction(1, 5)


def test_in_36ths() -> None:
    assert in_36ths(Fraction(2, 3)) == "24/36"
