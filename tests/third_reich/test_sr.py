"""Tests of TR-66..TR-70 (strategic redeployment)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.tables import load_tables
from grognard.third_reich.air_naval.naval_ops import AirZone, EscortSurvival, NavalReadings
from grognard.third_reich.air_naval.sea_zones import sea_zones
from grognard.third_reich.movement.sr import (
    FLEET_SR_NAVAL_INTERCEPTION,
    SeaSROrder,
    SRKind,
    SRPhase,
    SRStatus,
    SRStep,
    UnitClass,
    fleet_sr_ok,
    record_sr,
    sea_sr,
    sr_budget,
    us_initial_cap,
    verify_fleet_sr,
    verify_land_sr,
    verify_sr,
)
from grognard.third_reich.turn.forces import Fleet
from grognard.third_reich.turn.powers import Power

SEA = sea_zones()


def _allowed(verify: Callable[..., None], *args: object) -> bool:
    """Whether the engine's check ``verify`` accepts these (it refuses with IllegalOrder)."""
    try:
        verify(*args)
    except IllegalOrder:
        return False
    return True


def test_tr66_sr_budgets_per_power() -> None:
    """002_67ce4e3275b117b3.txt "SR and SR limits": "10 for the US, 9 for Germany, 6 for the
    USSR and UK, and 5 for Italy and France" ... "limited to 6 initial SR unit moves"."""
    assert {p.value: sr_budget(p) for p in Power} == {
        "germany": 9, "italy": 5, "ussr": 6, "uk": 6, "france": 5, "us": 10}
    assert us_initial_cap() == 6


def test_tr66_budget_spent_by_sr_lend_lease_and_initial_deployments() -> None:
    s = SRPhase(Power.ITALY)
    for i in range(4):
        s, _ = record_sr(s, f"u{i}", SRKind.LAND)
    s, rec = record_sr(s, None, "lend_lease")
    assert (rec.used, rec.budget) == (5, 5)
    assert not _allowed(verify_sr, s, "u9", "land")
    with pytest.raises(IllegalOrder) as e:
        record_sr(s, "u9", "sea")
    assert e.value.rule == "TR-66"


def test_tr66_us_initial_deployments_capped_at_six() -> None:
    s = SRPhase(Power.US)
    for i in range(6):
        s, _ = record_sr(s, f"d{i}", SRKind.US_INITIAL)
    assert s.us_initial == 6 and not _allowed(verify_sr, s, "d6", SRKind.US_INITIAL)
    assert _allowed(verify_sr, s, "d6", SRKind.SEA)
    assert not _allowed(verify_sr, SRPhase(Power.UK), "x", SRKind.US_INITIAL)


def test_tr68_land_and_sea_sr_cannot_be_mixed_for_one_unit() -> None:
    s, _ = record_sr(SRPhase(Power.GERMANY), "pz1", SRKind.LAND)
    assert not _allowed(verify_sr, s, "pz1", SRKind.SEA)
    assert _allowed(verify_sr, s, "pz1", SRKind.LAND)
    assert not _allowed(verify_sr, s, None, SRKind.LAND)


def test_tr66_limits_table_is_replaceable(tmp_path: Path) -> None:
    (tmp_path / "x.toml").write_text(
        'id = "tr_naval_sr_limits"\ntitle = "t"\nsource = "user"\nrow_key = "power"\n'
        'columns = ["sr_actions", "initial_from_us"]\n[[rows]]\nkey = "us"\n'
        'results = [12, 4]\n')
    t = load_tables(tmp_path)
    assert sr_budget("us", t) == 12 and us_initial_cap(t) == 4


def test_tr67_land_unit_ends_in_enemy_zoc_only_in_first_zoc_hex_already_occupied() -> None:
    """002_67ce4e3275b117b3.txt "SR ending locations": "SRs of land units may end in an enemy
    ZOC only if the ending hex is already occupied by a friendly land unit, and is moreover
    the first hex in the SR path that is in an enemy ZOC." """
    front = SRStep("F", enemy_zoc=True, friendly_occupied=True)
    assert _allowed(verify_land_sr, "ground", [SRStep("A"), front])
    assert not _allowed(verify_land_sr, "ground", [SRStep("A"), SRStep("F", enemy_zoc=True)])
    assert not _allowed(verify_land_sr, "ground", [SRStep("A", enemy_zoc=True), front])
    assert not _allowed(verify_land_sr, "ground", [])


def test_tr67_air_endpoints() -> None:
    """Air units end a land SR at a city or airbase, not in uncontested enemy air (naval units
    never SR by land: TR-68 below; their sea SR ends in a port, TR-69)."""
    city = SRStep("C", city_or_airbase=True, enemy_zoc=True, friendly_occupied=True)
    assert _allowed(verify_land_sr, UnitClass.AIR, [city])
    assert not _allowed(verify_land_sr, UnitClass.AIR, [SRStep("C", friendly_occupied=True)])
    assert not _allowed(verify_land_sr, UnitClass.AIR, [SRStep("C", city_or_airbase=True,
                                                     air_zone=AirZone.ENEMY)])


def test_tr68_land_path_free_of_enemy_units_zocs_neutrals_and_enemy_home() -> None:
    ok = [SRStep("A"), SRStep("B"), SRStep("C")]
    assert _allowed(verify_land_sr, "ground", ok)
    for bad in (SRStep("B", enemy_unit=True), SRStep("B", enemy_zoc=True),
                SRStep("B", neutral=True), SRStep("B", uncontrolled_enemy_home=True)):
        assert not _allowed(verify_land_sr, "ground", [SRStep("A"), bad, SRStep("C")])
    with pytest.raises(IllegalOrder) as e:
        verify_land_sr("naval", ok)
    assert e.value.rule == "TR-68"
    with pytest.raises(IllegalOrder) as e:
        verify_land_sr("ground", [SRStep("A"), SRStep("F", enemy_zoc=True)])
    assert e.value.rule == "TR-67"
    with pytest.raises(InputError):
        _allowed(verify_land_sr, "cavalry", ok)


def test_tr68_into_enemy_air_range_only_through_contested_hexes() -> None:
    """002_67ce4e3275b117b3.txt "SRs by land": "a unit may SR into a hex in range of enemy air
    units only if every hex it traverses including its destination hex is within range of
    equal friendly air factors as well"."""
    dest = SRStep("D", air_zone=AirZone.CONTESTED)
    assert _allowed(verify_land_sr, "ground", [SRStep("A", air_zone=AirZone.CONTESTED), dest])
    assert not _allowed(verify_land_sr, "ground", [SRStep("A", air_zone=AirZone.ENEMY), dest])
    # not ending in enemy range: passing an enemy-air hex is no bar for ground units
    assert _allowed(verify_land_sr, "ground", [SRStep("A", air_zone=AirZone.ENEMY), SRStep("D")])
    # air units never SR by land into or through uncontested enemy air
    assert not _allowed(verify_land_sr, "air", [SRStep("A", air_zone=AirZone.ENEMY),
                                  SRStep("D", city_or_airbase=True)])


def order(**kw: object) -> SeaSROrder:
    base: dict[str, object] = dict(
        unit="inf1", unit_class=UnitClass.GROUND, power=Power.UK,
        route=("atlantic", "mediterranean"), origin="portsmouth", destination="alexandria",
        escorts={"atlantic": (Fleet("h1", 9),), "mediterranean": (Fleet("m1", 9),)})
    base.update(kw)
    return SeaSROrder(**base)  # type: ignore[arg-type]


def test_tr69_sea_sr_done_with_escorts_in_every_zone() -> None:
    rec = sea_sr(order(), SEA)
    assert rec.status is SRStatus.DONE
    assert rec.interception_points == ("J-ATL-MED", "alexandria")
    assert rec.to_json()["escort_factors"] == {"atlantic": 9, "mediterranean": 9}


def test_tr69_needs_a_fleet_at_sea_in_every_zone_traversed() -> None:
    with pytest.raises(IllegalOrder, match="mediterranean"):
        sea_sr(order(escorts={"atlantic": (Fleet("h1", 9),)}), SEA)


def test_tr69_blocked_when_escort_falls_below_nine_factors() -> None:
    """002_67ce4e3275b117b3.txt: "If fewer than 9 naval factors remain on escort, the SRs are
    blocked and returned to their starting location." """
    two = order(escorts={"atlantic": (Fleet("h1", 9),),
                         "mediterranean": (Fleet("m1", 5), Fleet("m2", 5))})
    rec = sea_sr(two, SEA, {"mediterranean": [Fleet("m1", 5), Fleet("m2", 4)]})
    assert rec.status is SRStatus.DONE
    rec = sea_sr(two, SEA, {"mediterranean": [Fleet("m1", 5), Fleet("m2", 3)]})
    assert rec.status is SRStatus.BLOCKED and rec.blocked_in == "mediterranean"
    fleet9 = NavalReadings(sr_escort_survival=EscortSurvival.FLEET9)
    rec = sea_sr(two, SEA, {"mediterranean": [Fleet("m1", 5), Fleet("m2", 4)]}, fleet9)
    assert rec.status is SRStatus.BLOCKED
    with pytest.raises(InputError):
        sea_sr(two, SEA, {"black_sea": []})


def test_tr69_no_sea_sr_from_or_to_uncontested_enemy_air_zone() -> None:
    with pytest.raises(IllegalOrder, match="destination"):
        sea_sr(order(destination_air_zone=AirZone.ENEMY), SEA)
    with pytest.raises(IllegalOrder, match="origin"):
        sea_sr(order(origin_air_zone=AirZone.ENEMY), SEA)
    assert sea_sr(order(destination_air_zone=AirZone.CONTESTED), SEA).status is SRStatus.DONE


def test_tr69_captured_port_and_bridgehead_destinations() -> None:
    with pytest.raises(IllegalOrder) as e:
        sea_sr(order(destination_captured_this_turn=True), SEA)
    assert e.value.rule == "TR-62"
    ok = sea_sr(order(destination_captured_this_turn=True, interceptable=False), SEA)
    assert ok.status is SRStatus.DONE
    bh = sea_sr(order(destination="Salerno", destination_is_bridgehead=True), SEA)
    assert bh.interception_points == ("J-ATL-MED", "Salerno")
    with pytest.raises(IllegalOrder, match="TR-70|fleet SR"):
        sea_sr(order(unit_class=UnitClass.NAVAL), SEA)


def test_tr70_fleet_sr_between_friendly_ports_not_in_uncontested_enemy_air() -> None:
    """002_67ce4e3275b117b3.txt: "Both ports may not be in an uncontested enemy air zone or
    the SR movement is blocked. Contested enemy air zones are OK." """
    assert fleet_sr_ok(True, True, "contested", "contested")
    assert not fleet_sr_ok(True, True, "none", "enemy")
    assert not fleet_sr_ok(True, False)
    with pytest.raises(IllegalOrder) as e:
        verify_fleet_sr(True, True, AirZone.ENEMY)
    assert e.value.rule == "TR-70"
    assert FLEET_SR_NAVAL_INTERCEPTION is False


def test_sr_step_from_json() -> None:
    s = SRStep.from_json({"hex": "A", "enemy_zoc": True, "air_zone": "contested"})
    assert s.enemy_zoc and s.air_zone is AirZone.CONTESTED
    with pytest.raises(InputError):
        SRStep.from_json({"hex": "A", "zoc": True})
    with pytest.raises(InputError):
        SRStep.from_json({"hex": "A", "enemy_zoc": "yes"})
