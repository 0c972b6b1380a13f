"""EUR-27 airbase attacks (001_20f3acfdeb9925e5.txt, "Air phase": "Attacks on airbases always
target the base itself for points of damage ...")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grognard.core.dice import DiceStream, Distribution
from grognard.core.errors import IllegalOrder, InputError
from grognard.europa.air.airbase_attack import (
    Airbase,
    airbase_attack,
    airbase_hit_odds,
    airbase_hits,
    can_repair_airbase,
    flyable_units,
    random_picks,
    repair_airbase,
)
from grognard.europa.combat.bombardment import bombardment_column, bombardment_hits


def base():
    return Airbase("Kiev", capacity=4, active=("a", "b", "c"), inactive=("z",))


def test_eur27_each_hit_damages_base_and_makes_one_unit_inactive():
    """Seed: "each hit on the airbase also moves 1 active air unit there to inactive status.
    Determine the affected air unit randomly"."""
    b, rec = airbase_attack(base(), 2, [2, 0])
    assert b.hits == 2 and rec.made_inactive == ("c", "a")
    assert b.active == ("b",) and b.inactive == ("z", "c", "a")
    assert rec.to_json()["base_hits_after"] == 2


def test_eur27_never_eliminates_air_units():
    """Seed: "Hits on airbases never permanently eliminate enemy air units"."""
    b, rec = airbase_attack(base(), 5, [0, 0, 0])
    assert rec.eliminated == () and b.hits == 5
    assert sorted(b.active + b.inactive) == ["a", "b", "c", "z"]


def test_eur27_hits_reduce_flyable_units():
    """Seed: "Hits reduce the number of air units that may be flown from that airbase"."""
    assert flyable_units(base()) == 4
    b, _ = airbase_attack(base(), 1, [1])
    assert flyable_units(b) == 3
    b, _ = airbase_attack(b, 2, [0, 0])
    b, _ = airbase_attack(b, 2, [])
    assert flyable_units(b) == 0


def test_eur27_repair_one_hit_per_turn():
    """Seed: "Airbase hits can be repaired by 1 point per turn after that player's air
    phase"."""
    b, _ = airbase_attack(base(), 2, [0, 0])
    b, rec = repair_airbase(b, turn=3)
    assert b.hits == 1 and rec.hits_after == 1
    assert not can_repair_airbase(b, 3)
    with pytest.raises(IllegalOrder) as e:
        repair_airbase(b, 3)
    assert e.value.rule == "EUR-27"
    b, _ = repair_airbase(b, 4)
    assert b.hits == 0 and not can_repair_airbase(b, 5)


def test_eur27_random_picks_are_seeded_and_valid():
    s1, s2 = DiceStream(7, "europa.airbase"), DiceStream(7, "europa.airbase")
    p = random_picks(base(), 2, s1)
    assert p == random_picks(base(), 2, s2)
    assert len(p) == 2 and 0 <= p[0] < 3 and 0 <= p[1] < 2
    with pytest.raises(InputError):
        airbase_attack(base(), 2, [3, 0])
    with pytest.raises(InputError):
        airbase_attack(base(), 2, [0])
    with pytest.raises(InputError):
        airbase_attack(base(), -1, [])
    with pytest.raises(InputError):
        Airbase("x", 2, active=("a",), inactive=("a",))


def test_eur27_hits_come_from_the_bombardment_table():
    col = bombardment_column(15, Fraction(3))
    for r in range(2, 13):
        assert airbase_hits(15, r) == bombardment_hits(col, 0, r)
    odds = airbase_hit_odds(15)
    assert odds == Distribution.of("2d6").map(lambda r: airbase_hits(15, r))
    assert sum(odds.values()) == 1 and odds.get(2, 0) > 0
