"""core/exact, core/ledger, core/readings, core/units: exact values, audit trails, switches."""

from __future__ import annotations

import dataclasses
import enum
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import (
    ceil_q,
    exact_json,
    floor_q,
    q,
    ratio_str,
    round06,
    round_half_up,
)
from grognard.core.ledger import Ledger
from grognard.core.readings import Readings
from grognard.core.units import ArmorClass, Unit, UnitType


def test_exact_json_convention():
    assert exact_json(Fraction(544, 5)) == "108.8"
    assert exact_json(16) == 16 and exact_json(Fraction(10, 2)) == 5
    assert exact_json(Fraction(2, 3)) == "2/3"
    assert exact_json(Fraction(-7, 4)) == "-1.75"
    assert ratio_str(Fraction(1, 36)) == "1/36"


def test_rounding_helpers():
    assert (floor_q(Fraction(9, 2)), ceil_q(Fraction(9, 2)), round_half_up(Fraction(9, 2))) == (
        4, 5, 5)
    assert round_half_up(Fraction(-1, 2)) == 0
    # 0.6 rule: 1.8 -> 2, 2.4 -> 2, 0.6 -> 1, 0.4 -> 0
    assert [round06(Fraction(x, 10)) for x in (18, 24, 6, 4)] == [2, 2, 1, 0]
    with pytest.raises(TypeError):
        q(0.5)


@given(st.lists(st.tuples(st.sampled_from(["a", "b"]), st.fractions(max_denominator=20)),
                max_size=30))
def test_ledger_conserves_points(postings):
    led = Ledger()
    for acct, amt in postings:
        led = led.post(acct, amt, "TEST", "property")
    for acct in ("a", "b"):
        assert led.balance(acct) == sum((x for a, x in postings if a == acct), Fraction(0))
    assert len(led.entries) == len(postings)
    assert Ledger.from_json(led.to_json()) == led


def test_ledger_refuses_overdraft_and_leaves_state():
    led = Ledger().post("x", 5, "R", "start")
    with pytest.raises(IllegalOrder, match="R: spend: x has 5, cannot pay 6"):
        led.post("x", -6, "R", "spend", allow_negative=False)
    assert led.balance("x") == 5 and len(led.entries) == 1
    assert led.set("x", 2, "R", "reset").history("x").__next__().amount == 5


class Mode(enum.StrEnum):
    A = "a"
    B = "b"


@dataclasses.dataclass(frozen=True)
class DemoReadings(Readings):
    mode: Mode = Mode.A
    cap: int = 40
    flag: bool = False


def test_readings_round_trip_and_errors():
    r = DemoReadings.from_mapping({"mode": "b", "flag": True})
    assert r == DemoReadings(Mode.B, 40, True)
    assert DemoReadings.from_mapping(r.to_mapping()) == r
    with pytest.raises(InputError, match="readings.mode: 'c' is not one of a, b"):
        DemoReadings.from_mapping({"mode": "c"})
    with pytest.raises(InputError, match="readings.cap: expected an integer"):
        DemoReadings.from_mapping({"cap": "x"})


def test_unit_from_json_names_bad_field():
    u = Unit.from_json({"id": "pz", "type": "armor", "attack": 9, "defense": 10,
                        "armor": "full", "re_size": "3", "divisional": True})
    assert u.is_mechanized and u.armor is ArmorClass.FULL and u.re_size == 3
    with pytest.raises(InputError, match="unit pz.type: unknown unit type 'tank'"):
        Unit.from_json({"id": "pz", "type": "tank"})
    with pytest.raises(InputError, match="unit pz.attack: must be an integer"):
        Unit.from_json({"id": "pz", "attack": "9"})
    with pytest.raises(InputError, match="unit x.defense: must not be negative"):
        Unit("x", "german", "axis", UnitType.INFANTRY, defense=-1)


@given(st.fractions(max_denominator=10**6))
def test_exact_json_round_trips_exactly(x):
    encoded = exact_json(x)
    assert Fraction(encoded if isinstance(encoded, int) else str(encoded)) == x
