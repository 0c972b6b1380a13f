"""Tests of TR-56 (interception geography) and the sea-zone data."""

from __future__ import annotations

from pathlib import Path

import pytest

from grognard.core.errors import IllegalOrder, InputError, TableError
from grognard.core.tables import load_tables
from grognard.third_reich.air_naval.sea_zones import (
    ATLANTIC_TRANSITION_HEX,
    interception_points,
    junction,
    may_intercept,
    may_intercept_at_sea,
    same_zone,
    sea_zones,
    verify_route,
)

SEA = sea_zones()


def test_tr56_dual_zone_ports_intercept_into_either_zone() -> None:
    """002_67ce4e3275b117b3.txt "Naval operations": "Interception is only possible into the
    same zone as the port of the intercepting fleet. Dual zone ports (e.g. Gibraltar, Kiel)
    can intercept into either adjacent zone." """
    assert may_intercept(SEA, "gibraltar", "atlantic")
    assert may_intercept(SEA, "gibraltar", "mediterranean")
    assert may_intercept(SEA, "Kiel", "baltic") and may_intercept(SEA, "kiel", "north_sea")
    assert not may_intercept(SEA, "brest", "mediterranean")
    assert SEA.port("gibraltar").dual_zone and not SEA.port("brest").dual_zone


def test_tr56_fleets_at_sea_intercept_in_their_zone_only() -> None:
    assert may_intercept_at_sea(SEA, "atlantic", "atlantic")
    assert not may_intercept_at_sea(SEA, "atlantic", "north_sea")


def test_tr56_atlantic_transitions_use_m10() -> None:
    """002_67ce4e3275b117b3.txt: "For the Atlantic, hex M10 (9 hexes west of Brest) is
    considered the transition hex for SRs to or from the US, or through the Atlantic zone to
    the middle east around Africa (UK and USA only)." """
    assert ATLANTIC_TRANSITION_HEX == "M10"
    assert junction(SEA, "us", "atlantic") == "M10"
    assert junction(SEA, "atlantic", "cape_route", "uk") == "M10"
    with pytest.raises(IllegalOrder, match="only uk, us"):
        junction(SEA, "atlantic", "cape_route", "germany")
    assert interception_points(SEA, ["us", "atlantic"], "brest", "us", "us_box") == (
        "M10", "brest")


def test_tr56_same_zone_sr_intercepted_only_at_destination() -> None:
    assert interception_points(SEA, ["mediterranean"], "malta") == ("malta",)
    pts = interception_points(SEA, ["atlantic", "north_sea", "baltic"], "konigsberg")
    assert pts == ("J-ATL-NS", "J-NS-BAL", "konigsberg")


def test_tr56_route_must_join_its_zones_and_ports() -> None:
    with pytest.raises(IllegalOrder, match="do not join"):
        verify_route(SEA, ["baltic", "black_sea"], None, "sevastopol")
    with pytest.raises(IllegalOrder, match="destination port"):
        verify_route(SEA, ["atlantic"], "brest", "malta")
    with pytest.raises(IllegalOrder, match="origin port"):
        verify_route(SEA, ["mediterranean"], "brest", "malta")
    with pytest.raises(InputError, match="unknown sea zone"):
        verify_route(SEA, ["pacific"], None, "malta")
    with pytest.raises(InputError, match="unknown port"):
        SEA.port("atlantis")
    with pytest.raises(InputError):
        verify_route(SEA, [], None, "malta")


def test_tr57_same_zone_helper() -> None:
    assert same_zone(SEA, "gibraltar", "malta") == frozenset({"mediterranean"})
    assert same_zone(SEA, "brest", "malta") == frozenset()


def test_sea_zone_tables_are_replaceable(tmp_path: Path) -> None:
    (tmp_path / "ports.toml").write_text(
        'id = "tr_sea_zones_ports"\ntitle = "t"\nsource = "user"\nrow_key = "port"\n'
        'columns = ["zones", "hex"]\n[[rows]]\nkey = "x"\nresults = ["a|b", "X1"]\n'
        '[[rows]]\nkey = "y"\nresults = ["b", "Y1"]\n')
    sea = sea_zones(load_tables(tmp_path))
    assert may_intercept(sea, "x", "a") and not may_intercept(sea, "y", "a")
    assert interception_points(sea, ["b"], "y") == ("Y1",)
    (tmp_path / "ports.toml").write_text(
        'id = "tr_sea_zones_ports"\ntitle = "t"\nsource = "user"\nrow_key = "port"\n'
        'columns = ["zones", "hex"]\n[[rows]]\nkey = "x"\nresults = ["", "X1"]\n')
    with pytest.raises(TableError):
        sea_zones(load_tables(tmp_path))


def test_sea_zone_data_is_marked_reconstructed_with_a_note() -> None:
    t = load_tables()
    for tid in ("tr_sea_zones_ports", "tr_sea_zones_junctions"):
        assert str(t.get(tid).source) == "reconstructed"
    assert "M10" in t.get("tr_sea_zones_junctions").meta["published"]
    assert SEA.to_json()["ports"]["kiel"]["zones"] == ["baltic", "north_sea"]
