"""TR-55: naval interception chances by range and the interception procedure."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.tables import load_tables
from grognard.third_reich.air_naval.naval import (
    InterceptionAttempt,
    intercept_attempt,
    interception_number,
    interception_probability,
    resolve_interceptions,
)
from grognard.third_reich.turn.forces import Fleet


def test_tr55_tv19_interception_chance_by_range() -> None:
    """RULES.md TR-TV19; seed 002 "The new interception chances by range in hexes"."""
    ranges = [1, 5, 6, 10, 11, 15, 16, 20, 21, 25, 26]
    expect = [5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0]
    assert [interception_number(r) for r in ranges] == expect
    for r, n in zip(ranges, expect, strict=True):
        assert [intercept_attempt(r, d) for d in range(1, 7)] == [d <= n for d in range(1, 7)]
    assert interception_probability(26) == 0 and interception_probability(3) == Fraction(5, 6)


def test_tr55_table_is_published() -> None:
    t = load_tables().get("tr_interception")
    assert str(t.source) == "published" and t.dice == "1D6"


def test_tr55_bad_input_names_field() -> None:
    with pytest.raises(InputError, match="range"):
        interception_number(-1)
    with pytest.raises(InputError, match="roll"):
        intercept_attempt(3, 7)


def test_tr55_one_roll_per_port_combined_battle() -> None:
    attempts = [
        InterceptionAttempt("Kiel", (Fleet("k1", 9), Fleet("k2", 9)), "convoy", 12),
        InterceptionAttempt("Wilhelmshaven", (Fleet("w1", 9),), "convoy", 4),
        InterceptionAttempt("Brest", (Fleet("b1", 9),), "convoy", 22),
    ]
    rolls, battles = resolve_interceptions(attempts, {"Kiel": 3, "Wilhelmshaven": 5,
                                                      "Brest": 2})
    assert [r.intercepted for r in rolls] == [True, True, False]
    assert len(battles) == 1 and battles[0].target == "convoy"
    assert [f.id for f in battles[0].fleets] == ["k1", "k2", "w1"]  # fight as one force
    assert battles[0].factors == 27


def test_tr55_a_port_may_not_roll_twice() -> None:
    attempts = [InterceptionAttempt("Kiel", (Fleet("k1", 9),), "a", 3),
                InterceptionAttempt("Kiel", (Fleet("k2", 9),), "b", 3)]
    with pytest.raises(IllegalOrder, match="TR-55"):
        resolve_interceptions(attempts, {"Kiel": 1})


def test_tr55_every_declared_port_needs_its_roll_before_any_resolves() -> None:
    attempts = [InterceptionAttempt("Kiel", (Fleet("k1", 9),), "a", 3),
                InterceptionAttempt("Brest", (Fleet("b1", 9),), "a", 3)]
    with pytest.raises(InputError, match="Brest"):
        resolve_interceptions(attempts, {"Kiel": 1})
