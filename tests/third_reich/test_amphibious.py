"""Tests of TR-61 (amphibious invasion) and TR-62 (large invasions, invasion-turn limits)."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.third_reich.air_naval.naval_ops import AirZone
from grognard.third_reich.combat.amphibious import (
    InvasionPlan,
    OffshoreGroup,
    advance_limit,
    after_interception,
    can_invade,
    invaded_unit_may,
    invasion_capacity,
    invasion_support,
    resolve_invasion,
    sea_sr_destination_ok,
    sr_into_captured_port_ok,
    verify_invasion,
)
from grognard.third_reich.combat.combat import Battle, resolve_battle
from grognard.third_reich.turn.forces import AirUnit, Fleet, GroundKind, GroundUnit, Side


def uk(uid: str, factors: int, kind: GroundKind = GroundKind.INFANTRY) -> GroundUnit:
    return GroundUnit(uid, "british", Side.ALLIES, kind, factors, 3)


def it(uid: str, factors: int) -> GroundUnit:
    return GroundUnit(uid, "italian", Side.AXIS, GroundKind.INFANTRY, factors, 3)


def group(hex_: str = "S1", fleets: tuple[Fleet, ...] = (Fleet("rn", 9),),
          units: tuple[GroundUnit, ...] = (), cargo: dict[str, tuple[str, ...]] | None = None,
          air: AirZone = AirZone.NONE) -> OffshoreGroup:
    units = units or (uk("a", 3),)
    cargo = cargo if cargo is not None else {fleets[0].id: tuple(u.id for u in units)}
    return OffshoreGroup(hex_, "mediterranean", fleets, units, cargo, air)


def test_tr61_capacity_is_a_third_of_current_factors() -> None:
    assert [invasion_capacity(Fleet("f", n)) for n in (9, 8, 6, 5, 2)] == [3, 2, 2, 1, 0]


def test_tr61_over_capacity_and_wrong_phase_rejected() -> None:
    with pytest.raises(IllegalOrder, match="can carry 3"):
        verify_invasion(InvasionPlan("B", (group(units=(uk("a", 4),)),)))
    with pytest.raises(IllegalOrder, match="movement phase"):
        verify_invasion(InvasionPlan("B", (group(),), phase="combat"))
    with pytest.raises(IllegalOrder, match="exactly one fleet"):
        verify_invasion(InvasionPlan("B", (group(cargo={"rn": ()}),)))
    other_zone = OffshoreGroup("S1", "mediterranean", (Fleet("rn", 9),), (uk("a", 3),),
                               {"rn": ("a",)}, fleet_zones={"rn": frozenset({"atlantic"})})
    with pytest.raises(IllegalOrder, match="one zone"):
        verify_invasion(InvasionPlan("B", (other_zone,)))


def test_tr61_no_invasion_from_or_into_uncontested_enemy_air_zone() -> None:
    """002_67ce4e3275b117b3.txt "Amphibious operations": "amphibious landing may not be
    attempted from a hex or into a hex in an uncontested enemy air zone." """
    assert can_invade(InvasionPlan("B", (group(air=AirZone.CONTESTED),), AirZone.CONTESTED))
    assert not can_invade(InvasionPlan("B", (group(),), beach_air_zone=AirZone.ENEMY))
    assert not can_invade(InvasionPlan("B", (group(air=AirZone.ENEMY),)))


def test_tr62_at_most_two_units_per_sea_hex_but_several_hexes_per_beach() -> None:
    """002_67ce4e3275b117b3.txt "Large invasions": "Only 2 ground units may attack from the
    same sea hex, but invasion fleets could cooperate from multiple hexes"."""
    f = (Fleet("r1", 9), Fleet("r2", 9), Fleet("r3", 9))
    three = (uk("a", 1), uk("b", 1), uk("c", 1))
    with pytest.raises(IllegalOrder) as e:
        verify_invasion(InvasionPlan("B", (group(fleets=f, units=three,
                                                 cargo={"r1": ("a", "b", "c")}),)))
    assert e.value.rule == "TR-62"
    g1 = group("S1", (Fleet("r1", 9),), (uk("a", 3),))
    g2 = group("S2", (Fleet("r2", 9),), (uk("b", 3),))
    verify_invasion(InvasionPlan("B", (g1, g2)))
    with pytest.raises(IllegalOrder, match="once"):
        verify_invasion(InvasionPlan("B", (g1, g1)))


def test_tr61_hit_fleet_below_its_cargo_turns_back_with_it() -> None:
    """002_67ce4e3275b117b3.txt: "If a fleet carrying units sustained hits that reduce its
    carrying ability below the number of factors it is transporting, then that portion of
    the fleet and units must return to any friendly port in the zone"."""
    g = group(fleets=(Fleet("r1", 9), Fleet("r2", 9)), units=(uk("a", 3), uk("b", 2)),
              cargo={"r1": ("a",), "r2": ("b",)})
    tb = after_interception(g, [Fleet("r1", 8), Fleet("r2", 6)])
    assert tb.returning_fleets == ("r1",) and tb.returning_units == ("a",)
    assert [u.id for u in tb.landing_units] == ["b"]
    assert [f.factors for f in tb.landing_fleets] == [6]
    sunk = after_interception(g, [Fleet("r1", 9)])
    assert sunk.returning_units == ("b",)
    with pytest.raises(InputError):
        after_interception(g, [Fleet("zz", 9)])


def test_tr61_support_transports_at_printed_third_extra_fleets_at_current_capped() -> None:
    s = invasion_support([Fleet("r1", 6, 9)], [Fleet("r2", 8)], [AirUnit("a", 5)], 3, 3)
    # 9//3 = 3 (printed) + 8//3 = 2 + 5 air = 10 offered; cap min(2x3, 2x3) = 6
    assert (s.naval, s.air, s.offered, s.cap, s.used) == (5, 5, 10, 6, 6)


def test_tr61_unoccupied_beach_is_taken_automatically_and_invaders_must_advance() -> None:
    """002_67ce4e3275b117b3.txt: "If the defending hex is unoccupied, then the invasion
    automatically succeeds and the invading units must advance into the hex." """
    out = resolve_invasion(InvasionPlan("B", (group(),)), [], None)
    assert out.automatic and out.succeeded and out.must_advance == ("a",)
    assert out.to_json()["roll"] is None


def test_tr61_opposed_invasion_matches_the_land_crt_with_amphibious_shift() -> None:
    plan = InvasionPlan("Syracuse", (group(),))
    d = [it("d", 2)]
    seen = set()
    for roll in range(2, 13):
        out = resolve_invasion(plan, d, roll)
        ref = resolve_battle(Battle((uk("a", 3),), tuple(d), amphibious=True,
                                    fleets=(Fleet("rn", 9),), attacker_can_retreat=False,
                                    bridgehead=True), roll)
        assert out.result == ref.result and out.odds == ref.assessment.odds
        assert out.outcome == ref.outcome
        seen.add(out.succeeded)
    out = resolve_invasion(plan, d, 12)
    assert out.odds is not None
    # 3 ground + 3 printed-third support vs defense 2+1 (clear): 2-1 shifted one left to 3-2
    assert (out.ground_attack, out.defense, out.odds.column, out.odds.shifts) == (3, 3, "3-2", 1)
    assert out.succeeded and seen == {True, False}
    with pytest.raises(InputError):
        resolve_invasion(plan, d, None)


def test_tr61_all_cargo_turned_back_means_no_invasion() -> None:
    plan = InvasionPlan("B", (group(),))
    out = resolve_invasion(plan, [it("d", 2)], 12, fleets_after={"S1": [Fleet("rn", 5)]})
    assert not out.succeeded and out.turned_back == ("a",) and out.ground_attack == 0


def test_tr62_advance_limits_and_invader_restrictions() -> None:
    assert (advance_limit(True), advance_limit(False)) == (4, 2)
    assert not invaded_unit_may("mech_move", True)
    assert invaded_unit_may("mech_attack", True)
    assert not invaded_unit_may("mech_attack", True, target_occupied=False)
    assert invaded_unit_may("advance", True)
    with pytest.raises(InputError):
        invaded_unit_may("fly", True)


def test_tr62_sr_into_port_captured_by_invasion_only_if_uninterceptable() -> None:
    assert sr_into_captured_port_ok(True, False, False)
    assert not sr_into_captured_port_ok(True, True, False)
    assert not sr_into_captured_port_ok(True, False, True)
    assert sr_into_captured_port_ok(False, True, True)
    assert sea_sr_destination_ok(False, True) and not sea_sr_destination_ok(False, False)


def test_tr61_plan_from_json() -> None:
    plan = InvasionPlan.from_json({
        "beach": "Salerno", "beach_air_zone": "contested",
        "groups": [{"hex": "S1", "zone": "mediterranean", "air_zone": "friendly",
                    "fleets": [{"id": "rn", "factors": 9}],
                    "units": [{"id": "a", "side": "allies", "factors": 3}],
                    "cargo": {"rn": ["a"]}}]})
    assert plan.groups[0].air_zone is AirZone.FRIENDLY and can_invade(plan)
    with pytest.raises(InputError):
        InvasionPlan.from_json({"beach": "B", "beach_air_zone": "purple"})


def test_tr61_tv18_example2_lorient_invasion_blocked_at_5_v_10() -> None:
    """002_67ce4e3275b117b3.txt Example 2 (TR-TV18): with the UK 5-4 at Harwich and the German
    Vichy unit at La Rochelle, "Lorient in Brittany would not be a possible invasion
    location, as the Germans would have 10 factors in range to only 5 US"."""
    from grognard.third_reich.air_naval.air_zones import air_zone_status, load_air_zone_map
    from grognard.third_reich.air_naval.naval_ops import air_zone_of

    zones = load_air_zone_map("tr-air-zones")
    lorient = air_zone_of(air_zone_status(zones.hex_of("Lorient"), "allies",
                                          zones.situation("example2-harwich")))
    assert lorient is AirZone.ENEMY
    plan = InvasionPlan("Lorient", (group(air=AirZone.CONTESTED),), lorient)
    assert not can_invade(plan)
    calais = air_zone_of(air_zone_status(zones.hex_of("Calais"), "allies",
                                         zones.situation("example2")))
    assert can_invade(InvasionPlan("Calais", (group(air=calais),), calais))


def test_tr61_exact_success_chance_is_the_resolution_mapped_over_2d6() -> None:
    from fractions import Fraction

    from grognard.core.dice import Distribution
    from grognard.third_reich.combat.amphibious import InvasionCase, invasion_success_odds

    case = InvasionCase(InvasionPlan("Syracuse", (group(),)), (it("d", 2),))
    p = invasion_success_odds(case)
    # 3-2 column, DRM 0: success on DR (9), D1 (10), D2 (11), D2R (12)
    expected = sum((Distribution.of("2d6").probability(r) for r in (9, 10, 11, 12)),
                   start=Fraction(0))
    assert p == expected == Fraction(10, 36)
    assert invasion_success_odds(InvasionCase(InvasionPlan("B", (group(),)))) == 1


def test_tr61_offshore_interception_one_hit_turns_the_transport_back() -> None:
    """002_67ce4e3275b117b3.txt "Amphibious operations": the offshore force is "subject to
    interception there by non-phasing naval units in the zone"; a 9-factor fleet carrying 3
    that takes 1 hit can lift only 2 and returns with its cargo."""
    from grognard.third_reich.air_naval.airnaval import naval_naval
    from grognard.third_reich.air_naval.naval import InterceptionAttempt
    from grognard.third_reich.combat.amphibious import intercept_offshore

    g = group()
    att = [InterceptionAttempt("taranto", (Fleet("it", 9),), "S1", 2)]
    assert naval_naval(9, 9, 5, 3).hits_on_phasing == 1
    hit = intercept_offshore(g, att, {"taranto": 1}, iter([5, 3]))
    assert hit.rolls[0].intercepted and hit.combat is not None
    assert hit.turn_back.returning_units == ("a",) and hit.turn_back.landing_units == ()
    missed = intercept_offshore(g, att, {"taranto": 6}, iter([]))
    assert missed.combat is None and [u.id for u in missed.turn_back.landing_units] == ["a"]
    unharmed = intercept_offshore(g, att, {"taranto": 2}, iter([5, 1]))
    assert unharmed.turn_back.returning_units == ()


def test_tr60_offshore_hex_in_invaders_uncontested_air_zone_cannot_be_intercepted() -> None:
    from grognard.third_reich.air_naval.naval import InterceptionAttempt
    from grognard.third_reich.combat.amphibious import intercept_offshore

    g = group(air=AirZone.FRIENDLY)
    att = [InterceptionAttempt("taranto", (Fleet("it", 9),), "S1", 2)]
    with pytest.raises(IllegalOrder) as e:
        intercept_offshore(g, att, {"taranto": 1}, iter([]))
    assert e.value.rule == "TR-60"
    assert intercept_offshore(g, [], {}, iter([])).combat is None


def test_tr61_every_fleet_present_offshore_supports_at_a_third_of_printed_strength() -> None:
    """TR-61 (002 "Amphibious operations"): "the remaining offshore ground units attack any
    adjacent beach hex with support from any fleet present – including the transporting fleets
    – at 1/3rd of those fleet's printed combat strength". A damaged (6 of 9) fleet without
    cargo in the offshore hex is present: it supports with 9 // 3 = 3, not 6 // 3 = 2. A fleet
    bombarding from elsewhere (``extra_bombarding``, TR-58) keeps a third of current factors."""
    g = group(fleets=(Fleet("rn", 9), Fleet("hms", 6, 9)))
    out = resolve_invasion(InvasionPlan("Syracuse", (g,)), [it("d", 5)], 7)
    assert out.support is not None
    assert (out.support.naval, out.support.cap, out.support.used) == (6, 6, 6)
    out2 = resolve_invasion(InvasionPlan("Syracuse", (group(),)), [it("d", 5)], 7,
                            extra_bombarding=(Fleet("hms", 6, 9),))
    assert out2.support is not None and out2.support.naval == 3 + 2
