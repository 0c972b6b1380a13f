"""Tests of TR-54, TR-57..TR-60 (naval operations)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.third_reich.air_naval.naval_ops import (
    AirZone,
    EscortSurvival,
    FleetOps,
    NavalOp,
    NavalReadings,
    TransportOrder,
    bombard,
    bombardment_support,
    escort_holds,
    fleet_operation_allowed,
    naval_interception_possible,
    perform_operation,
    start_game_turn,
    start_player_turn,
    transport,
    transport_capacity,
    verify_bombardment,
    verify_fleet_operation,
)
from grognard.third_reich.combat.amphibious import invasion_capacity
from grognard.third_reich.turn.combat_readings import NavalThirdRounding, TRCombatReadings
from grognard.third_reich.turn.forces import Fleet, GroundKind, GroundUnit, Side


def inf(uid: str, factors: int) -> GroundUnit:
    return GroundUnit(uid, "british", Side.ALLIES, GroundKind.INFANTRY, factors, 3)


def test_trtv16_nine_factor_fleet_transports_4_invades_3_bombards_3() -> None:
    """RULES.md TR-TV16 (DERIVED from 002_67ce4e3275b117b3.txt "Naval transport operation":
    "ground combat factors equal to 1/2 the fleet's strength, round fractions downward";
    "Amphibious operations": "up to 1/3rd their combat strength"; "Naval bombardment
    operation": "1/3rd of its combat factors"): a 9-factor fleet transports 4, lifts 3 for
    an invasion and bombards with 3."""
    fleet = Fleet("rn", 9)
    assert transport_capacity(fleet) == 4
    assert invasion_capacity(fleet) == 3
    assert bombardment_support(fleet) == 3


def test_tr57_capacity_is_half_rounded_down() -> None:
    assert [transport_capacity(Fleet("f", n)) for n in (0, 1, 2, 5, 8, 9)] == [0, 0, 1, 2, 4, 4]


def test_tr58_bombardment_third_follows_rounding_reading() -> None:
    assert bombardment_support(Fleet("f", 8)) == 2
    exact = TRCombatReadings(naval_support_rounding=NavalThirdRounding.EXACT)
    assert bombardment_support(Fleet("f", 8), exact) == Fraction(8, 3)
    rec = bombard(Fleet("f", 6, 9))
    assert (rec.factors, rec.support) == (6, 2)


def test_tr54_one_operation_type_per_game_turn() -> None:
    s = FleetOps(game_turn=3)
    s, rec = perform_operation(s, "rn1", NavalOp.TRANSPORT)
    assert rec.tapped and s.used["rn1"] is NavalOp.TRANSPORT
    assert fleet_operation_allowed(s, "rn1", "transport")
    assert not fleet_operation_allowed(s, "rn1", "bombardment")
    with pytest.raises(IllegalOrder) as e:
        verify_fleet_operation(s, "rn1", NavalOp.INVASION)
    assert e.value.rule == "TR-54"
    s2 = start_game_turn(s, 4)
    assert fleet_operation_allowed(s2, "rn1", "bombardment")
    with pytest.raises(InputError):
        start_game_turn(s, 3)


def test_tr54_only_inactive_fleets_intercept_and_interception_never_taps() -> None:
    s, _ = perform_operation(FleetOps(), "rn1", NavalOp.SR_ESCORT)
    assert not fleet_operation_allowed(s, "rn1", NavalOp.INTERCEPTION)
    assert fleet_operation_allowed(s, "rn2", NavalOp.INTERCEPTION)
    s2, rec = perform_operation(s, "rn2", NavalOp.INTERCEPTION)
    assert not rec.tapped and "rn2" not in s2.tapped and "rn2" not in s2.used
    # escorts return and are untapped at the start of their owner's next player turn
    s3 = start_player_turn(s, ["rn1"])
    assert fleet_operation_allowed(s3, "rn1", NavalOp.INTERCEPTION)
    with pytest.raises(InputError):
        perform_operation(s, "rn1", "sightseeing")


def test_tr57_transport_within_one_zone_up_to_capacity() -> None:
    order = TransportOrder((Fleet("rn", 9),), (inf("a", 2), inf("b", 2)),
                           frozenset({"mediterranean"}), frozenset({"mediterranean"}))
    rec = transport(order)
    assert (rec.capacity, rec.cargo, rec.zone) == (4, 4, "mediterranean")
    assert rec.units_still_arriving == ("a", "b")
    assert rec.naval_interception_possible and not rec.air_interception_possible


def test_tr57_transport_rejections() -> None:
    base = dict(fleets=(Fleet("rn", 9),), units=(inf("a", 3), inf("b", 2)),
                origin_zones=frozenset({"atlantic"}), destination_zones=frozenset({"atlantic"}))
    with pytest.raises(IllegalOrder, match="exceed the capacity 4"):
        transport(TransportOrder(**base))  # type: ignore[arg-type]
    other = {**base, "units": (inf("a", 2),), "destination_zones": frozenset({"north_sea"})}
    with pytest.raises(IllegalOrder, match="sea SR"):
        transport(TransportOrder(**other))  # type: ignore[arg-type]
    moved = {**base, "units": (inf("a", 2),), "units_moved_by_land": ("a",)}
    with pytest.raises(IllegalOrder, match="moved by land"):
        transport(TransportOrder(**moved))  # type: ignore[arg-type]
    beach = {**base, "units": (inf("a", 2),), "destination_is_port": False}
    with pytest.raises(IllegalOrder, match="bridgehead"):
        transport(TransportOrder(**beach))  # type: ignore[arg-type]
    ok = {**base, "units": (inf("a", 2),), "destination_is_port": False,
          "destination_is_bridgehead": True, "destination_air_zone": AirZone.ENEMY}
    rec = transport(TransportOrder(**ok))  # type: ignore[arg-type]
    assert rec.naval_interception_possible and rec.air_interception_possible


def test_tr57_transport_into_own_uncontested_air_zone_cannot_be_naval_intercepted() -> None:
    order = TransportOrder((Fleet("rn", 4),), (inf("a", 2),), frozenset({"atlantic"}),
                           frozenset({"atlantic"}), destination_air_zone=AirZone.FRIENDLY)
    assert not transport(order).naval_interception_possible


def test_tr58_bombardment_placement() -> None:
    verify_bombardment(frozenset({"mediterranean"}), "mediterranean", True, True, True, True)
    with pytest.raises(IllegalOrder, match="zone"):
        verify_bombardment(frozenset({"atlantic"}), "mediterranean", True, True, True, True)
    with pytest.raises(IllegalOrder, match="all-sea"):
        verify_bombardment(frozenset({"atlantic"}), "atlantic", False, True, True, True)
    with pytest.raises(IllegalOrder, match="enemy occupied"):
        verify_bombardment(frozenset({"atlantic"}), "atlantic", True, True, False, True)


def test_tr59_escort_holds_with_nine_factors_in_total_by_default() -> None:
    """002_67ce4e3275b117b3.txt "Naval escort of SRs by sea": "If after such combat, at least
    9 naval factors remain on escort, the sea SRs are conducted normally."""
    assert escort_holds([Fleet("a", 5), Fleet("b", 4)])
    assert not escort_holds([Fleet("a", 5), Fleet("b", 3)])
    assert not escort_holds([])


def test_tr59_fleet9_reading_needs_one_strength_9_fleet() -> None:
    r = NavalReadings(sr_escort_survival=EscortSurvival.FLEET9)
    assert not escort_holds([Fleet("a", 5), Fleet("b", 4)], r)
    assert escort_holds([Fleet("a", 9), Fleet("b", 1)], r)
    assert NavalReadings.from_mapping({"sr_escort_survival": "fleet9"}) == r


def test_tr60_own_uncontested_air_zone_excludes_naval_interception() -> None:
    assert not naval_interception_possible(AirZone.FRIENDLY)
    assert naval_interception_possible("contested")
    assert naval_interception_possible(AirZone.NONE)
    assert naval_interception_possible(AirZone.ENEMY)
    with pytest.raises(InputError):
        naval_interception_possible("blue")


def test_tr60_tv18_example1_italian_air_excludes_uk_interception_near_taranto() -> None:
    """002_67ce4e3275b117b3.txt "Naval interception and enemy air zones", Example 1 (TR-TV18):
    Italian 5-4 at Rome, UK 5-4 at Malta. Seen from the phasing Italians, Taranto is their
    uncontested air zone (no UK naval interception there); Syracuse is contested by Malta."""
    from grognard.third_reich.air_naval.air_zones import air_zone_status, load_air_zone_map
    from grognard.third_reich.air_naval.naval_ops import air_zone_of

    zones = load_air_zone_map("tr-air-zones")
    air = zones.situation("example1")
    taranto = air_zone_of(air_zone_status(zones.hex_of("Taranto"), "axis", air))
    assert taranto is AirZone.FRIENDLY and not naval_interception_possible(taranto)
    uk_view = air_zone_of(air_zone_status(zones.hex_of("Taranto"), "allies", air))
    assert uk_view is AirZone.ENEMY
    syr = air_zone_of(air_zone_status(zones.hex_of("Syracuse"), "axis",
                                      zones.situation("example1-taranto")))
    assert syr is AirZone.CONTESTED and naval_interception_possible(syr)
