"""TR-29 air staging, operating hexes, air stacking and air SR (002_67ce4e3275b117b3.txt "Air
unit movement (staging) and stacking", "Air operations, bases, and ranges")."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex
from grognard.core.tables import load_tables
from grognard.third_reich.air_naval.air_basing import (
    AirBaseHex,
    BaseKind,
    air_stacking_ok,
    air_stacking_violations,
    can_air_sr,
    can_stage,
    end_staging,
    may_fly_missions,
    mission_in_range,
    stage,
    staging_range,
    stranded,
    verify_air_sr,
    verify_stage,
)
from grognard.third_reich.air_naval.air_zones import BasedAir
from grognard.third_reich.turn.forces import AirUnit, Side

AX = Side.AXIS


def base(q, kind=BaseKind.CITY, side=AX, supply=True):
    return AirBaseHex(Hex(q, 0), kind, side, supply)


def bases(*bs):
    return {b.hex: b for b in bs}


def air(uid="lw", q=0, factors=5, side=AX, rng=4):
    return BasedAir(AirUnit(uid, factors, rng), side, Hex(q, 0))


def test_tr29_staging_up_to_twice_range():
    b = bases(base(0), base(8), base(9, BaseKind.AIRBASE))
    assert staging_range(AirUnit("a", 5, 4)) == 8
    moved, rec = stage(air(), Hex(8, 0), b)
    assert moved.hex == Hex(8, 0) and (rec.distance, rec.allowance) == (8, 8)
    assert not can_stage(air(), Hex(9, 0), b)


def test_tr29_staging_multiple_is_a_table_value():
    t = load_tables().get("tr_air_values")
    assert staging_range(AirUnit("a", 5, 3), t) == 6


def test_tr29_staging_needs_friendly_bases_at_both_ends():
    b = bases(base(0), base(4, side=Side.ALLIES))
    with pytest.raises(IllegalOrder, match="TR-29"):
        verify_stage(air(), Hex(4, 0), b)  # enemy city
    with pytest.raises(IllegalOrder, match="does not start"):
        verify_stage(air(q=1), Hex(0, 0), b)
    with pytest.raises(IllegalOrder):
        verify_stage(air(), Hex(3, 0), b)  # open country


def test_tr29_staging_from_out_of_supply_allowed_but_must_end_in_supply():
    b = bases(base(0, supply=False), base(4), base(5, supply=False))
    assert can_stage(air(), Hex(4, 0), b)
    with pytest.raises(IllegalOrder, match="in-supply"):
        verify_stage(air(), Hex(5, 0), b)


def test_tr29_non_phasing_air_never_stages():
    b = bases(base(0), base(4))
    with pytest.raises(IllegalOrder, match="non-phasing"):
        verify_stage(air(), Hex(4, 0), b, phasing=False)


def test_tr29_stacking_five_factors_per_hex():
    two = [air("a", 0, 5), air("b", 0, 1)]
    assert [(v.hex, v.factors, v.limit) for v in air_stacking_violations(two)] == \
        [(Hex(0, 0), 6, 5)]
    assert not air_stacking_ok(Hex(0, 0), two)
    assert air_stacking_ok(Hex(0, 0), [air("a", 0, 3), air("b", 0, 2)])


def test_tr29_end_of_staging_checks_stacking_and_eliminates_stranded():
    b = bases(base(0), base(20, supply=False))
    with pytest.raises(IllegalOrder, match="6 air factors"):
        end_staging([air("a", 0, 5), air("b", 0, 1)], b, "axis")
    res = end_staging([air("a", 0, 5), air("c", 20, 3)], b, "axis")
    assert res.eliminated == ("c",) and [a.unit.id for a in res.air] == ["a"]
    assert stranded(air("c", 20), b) and not stranded(air("c", 20), bases(base(14), *b.values()))


def test_tr29_missions_only_from_in_supply_base_on_offensive():
    b = bases(base(0), base(8, supply=False))
    assert may_fly_missions(air(), b, "offensive")
    assert not may_fly_missions(air(), b, "attrition")
    assert not may_fly_missions(air(q=8), b, "offensive")
    assert not may_fly_missions(air(q=3), b, "offensive")


def test_tr29_mission_range_from_operating_hex():
    assert mission_in_range(air(), Hex(4, 0)) and not mission_in_range(air(), Hex(5, 0))


def test_tr29_air_sr_to_in_supply_base_outside_uncontested_enemy_zone():
    b = bases(base(0), base(10), base(12, supply=False))
    path = [Hex(q, 0) for q in range(11)]
    foe = air("raf", 16, side=Side.ALLIES)
    assert can_air_sr(air(), Hex(10, 0), b, path, [air(), foe])
    with pytest.raises(IllegalOrder, match="TR-29"):
        verify_air_sr(air(), Hex(12, 0), b, [*path, Hex(11, 0), Hex(12, 0)], [air()])
    assert not can_air_sr(air(), Hex(10, 0), b, path, [air()], land_sr_reachable=False)
    near = air("raf", 13, side=Side.ALLIES)  # reaches 9..10: 5 v 0, the SRing unit not counted
    with pytest.raises(IllegalOrder, match="TR-30"):
        verify_air_sr(air(), Hex(10, 0), b, path, [air(), near])
    with pytest.raises(InputError):
        verify_air_sr(air(), Hex(10, 0), b, [Hex(0, 0)], [air()])
