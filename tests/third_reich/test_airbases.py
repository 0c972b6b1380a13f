"""TR-65 airbases (002_67ce4e3275b117b3.txt "Building airbases")."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex
from grognard.third_reich.air_naval.air_basing import AirBaseHex, BaseKind, can_stage
from grognard.third_reich.air_naval.air_zones import BasedAir
from grognard.third_reich.economy.airbases import (
    Airbases,
    build_airbase,
    can_build_airbase,
    enemy_ground_enters,
    remove_airbase,
    verify_build_airbase,
)
from grognard.third_reich.turn.forces import AirUnit, Side

OK = {"city": False, "in_supply": True, "friendly_ground": True}


def built(*hexes, power="germany"):
    s = Airbases()
    for h in hexes:
        s, _ = build_airbase(s, power, "axis", h, **OK)
    return s


def test_tr65_costs_two_brps():
    _, rec = build_airbase(Airbases(), "germany", "axis", "0101", **OK)
    assert rec.cost == 2 and rec.removed is None


@pytest.mark.parametrize("flag, reason", [
    ("city", "city"), ("in_supply", "supply"), ("friendly_ground", "ground unit")])
def test_tr65_location_conditions(flag, reason):
    kw = dict(OK)
    kw[flag] = not kw[flag]
    with pytest.raises(IllegalOrder, match=reason):
        verify_build_airbase(Airbases(), "germany", "axis", "0101", **kw)


def test_tr65_three_per_power_remove_one_to_build():
    s = built("0101", "0202", "0303")
    assert not can_build_airbase(s, "germany", "axis", "0404", **OK)
    assert can_build_airbase(s, "italy", "axis", "0404", **OK)  # per power
    s2, rec = build_airbase(s, "germany", "axis", "0404", remove="0101", **OK)
    assert rec.removed == "0101" and s2.of_power("germany") == ("0202", "0303", "0404")
    with pytest.raises(IllegalOrder, match="no airbase at 0909"):
        verify_build_airbase(s, "germany", "axis", "0404", remove="0909", **OK)


def test_tr65_one_airbase_per_hex():
    with pytest.raises(IllegalOrder, match="already"):
        verify_build_airbase(built("0101"), "italy", "axis", "0101", **OK)


def test_tr65_enemy_ground_unit_destroys_it_friendly_does_not():
    s = built("0101")
    same, gone = enemy_ground_enters(s, "0101", "axis")
    assert gone is None and same.of_power("germany") == ("0101",)
    after, gone = enemy_ground_enters(s, "0101", "allies")
    assert gone is not None and after.of_power("germany") == ()


def test_tr65_owner_removes():
    assert remove_airbase(built("0101", "0202"), "germany", "0101").of_power("germany") == \
        ("0202",)
    with pytest.raises(IllegalOrder):
        remove_airbase(built("0101"), "italy", "0101")


def test_tr65_usable_at_once_as_an_air_base():
    """An airbase lets air units operate as from a city, e.g. staging there at once."""
    s = built("0101")
    assert s.at("0101") is not None
    bases = {Hex(0, 0): AirBaseHex(Hex(0, 0), BaseKind.CITY, Side.AXIS),
             Hex(3, 0): AirBaseHex(Hex(3, 0), BaseKind.AIRBASE, Side.AXIS)}
    assert can_stage(BasedAir(AirUnit("lw", 5), Side.AXIS, Hex(0, 0)), Hex(3, 0), bases)


def test_tr65_json_round_trip_and_errors():
    s = built("0101")
    assert Airbases.from_json(s.to_json()) == s
    with pytest.raises(InputError):
        Airbases.from_json([{"hex": "0101"}])
    with pytest.raises(InputError):
        Airbases.from_json({"hex": "0101"})
