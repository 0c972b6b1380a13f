"""Stacking checks (C-STACK; EUR-21, TR-29, TR-32/TR-61..63)."""

from fractions import Fraction

import numpy as np
import pytest

from grognard.core.errors import InputError
from grognard.core.mapgen import map_from_rows
from grognard.core.stacking import (
    StackingRules,
    StackMeasure,
    europa_revised_stacking,
    stack_totals,
    stacking_limits,
    stacking_room,
    stacking_violations,
    third_reich_air_stacking,
    third_reich_stacking,
)


def test_eur21_tv03_two_and_three_divisions_and_mountain():
    """RULES.md EUR-TV03 (001 "Stacking"): 2 divisions (6 RE) leave 4 RE; 3 divisions (9 RE)
    leave 1 RE; the limit in mountain is 7."""
    m = map_from_rows(["cm"])
    rules = europa_revised_stacking()
    assert stacking_room(m, "0101", [3, 3], rules) == 4
    assert stacking_room(m, "0101", [3, 3, 3], rules) == 1
    assert stacking_limits(m, rules).tolist() == [10, 7]
    assert stacking_room(m, "0201", [], rules) == 7


def test_eur21_violations_report_the_hex_and_the_count():
    m = map_from_rows(["cm"])
    rules = europa_revised_stacking()
    assert stacking_violations(m, ["0101"] * 4, [3, 3, 3, 1], rules) == []
    v = stacking_violations(m, ["0101"] * 4 + ["0201"] * 3, [3, 3, 3, Fraction(3, 2), 3, 3, 2],
                            rules)
    assert [(x.hex, x.total, x.limit) for x in v] == [("0101", Fraction(21, 2), 10),
                                                      ("0201", Fraction(8), 7)]
    assert v[0].to_json() == {"hex": "0101", "total": "10.5", "limit": 10, "measure": "RE"}


def test_tr_stacking_two_units_four_in_a_bridgehead():
    """002 "Bridgeheads": a bridgehead allows stacking up to 4 units instead of 2."""
    m = map_from_rows(["ccc"])
    rules = third_reich_stacking()
    hexes = ["0101"] * 3 + ["0201"] * 3
    v = stacking_violations(m, hexes, None, rules)
    assert [(x.hex, x.total) for x in v] == [("0101", 3), ("0201", 3)]
    bridgehead = np.array([False, True, False])
    v2 = stacking_violations(m, hexes, None, rules, marked=bridgehead)
    assert [x.hex for x in v2] == ["0101"]
    assert stacking_room(m, "0201", [1, 1], rules, marked=True) == 2


def test_tr29_five_air_factors_per_city_or_airbase():
    """002 "Air unit movement (staging) and stacking": only 5 air factors per hex."""
    m = map_from_rows(["cc"])
    rules = third_reich_air_stacking()
    assert stacking_violations(m, ["0101", "0101"], [5, 0], rules) == []
    v = stacking_violations(m, ["0101", "0101"], [5, 1], rules)
    assert v[0].describe() == "0101: 6 air factors over the limit of 5"


def test_stack_totals_are_exact():
    m = map_from_rows(["cc"])
    assert stack_totals(m, ["0101", "0101", "0201"], [Fraction(1, 3), Fraction(1, 2), 1]) == {
        0: Fraction(5, 6), 1: Fraction(1)}


def test_stacking_rules_are_configuration():
    m = map_from_rows(["cs"])
    rules = StackingRules(StackMeasure.UNITS, 3, {"swamp": 1})
    assert [v.hex for v in stacking_violations(m, ["0101"] * 3 + ["0201"] * 2, None,
                                               rules)] == ["0201"]


def test_stacking_bad_input():
    m = map_from_rows(["cc"])
    rules = europa_revised_stacking()
    with pytest.raises(InputError, match="not on the map"):
        stacking_violations(m, ["0909"], [1], rules)
    with pytest.raises(InputError, match="sizes"):
        stacking_violations(m, ["0101"], [1, 2], rules)
    with pytest.raises(InputError, match="negative"):
        stacking_violations(m, ["0101"], [-1], rules)
    with pytest.raises(InputError, match="limit"):
        StackingRules(StackMeasure.RE, -1)


def test_eur21_integer_numpy_sizes_take_the_numpy_path():
    m = map_from_rows(["cm"])
    v = stacking_violations(m, np.array([1, 1, 1]), np.array([3, 3, 2]), europa_revised_stacking())
    assert [(x.hex, x.total, x.limit) for x in v] == [("0201", 8, 7)]
    with pytest.raises(InputError, match="negative"):
        stacking_violations(m, np.array([0]), np.array([-1]), europa_revised_stacking())
