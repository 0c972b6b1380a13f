"""EUR-23 air phase order, EUR-24 fighter sweep, EUR-25 interception and escorts
(001_20f3acfdeb9925e5.txt, "Air phase")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grognard.core.dice import Distribution
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.tables import load_tables, parse_table
from grognard.europa.air.phase import (
    AIR_PHASE_ORDER,
    AfterEscorts,
    AirPhaseReadings,
    AirPhaseState,
    AirResult,
    AirStep,
    AirUnit,
    Mission,
    MissionKind,
    air_combat_column,
    air_combat_odds,
    air_combat_result,
    air_step,
    assign_mission,
    can_air_step,
    can_intercept,
    can_sweep,
    fighter_sweep,
    intercept,
    interception_range,
    mission_order,
    removal_chance,
    step_player,
    sweep_pairings,
    sweep_removal_chance,
    verify_interception,
    verify_resolve_mission,
    verify_sweep_pairings,
)
from grognard.europa.air.wings import wing_for


def F(i, ac=3, rng=10):
    return AirUnit(i, ac, rng, fighter=True)


def B(i, ac=1, tac=6, strat=15):
    return AirUnit(i, ac, 10, fighter=False, tactical=tac, strategic=strat)


# --- table ---------------------------------------------------------------------------------------

def test_eur24_air_combat_table_is_reconstructed_with_a_note():
    t = load_tables().table("europa_air_combat")
    assert t.source.value == "reconstructed" and "EXTERNAL" in t.meta["note"]


def test_eur24_column_is_rating_differential_clamped():
    assert air_combat_column(5, 3) == "+2"
    assert air_combat_column(9, 0) == "+3" and air_combat_column(0, 9) == "-3"
    assert air_combat_column(2, 2) == "0"


def test_eur24_odds_are_the_resolution_mapped_over_2d6():
    odds = air_combat_odds(4, 3)
    assert sum(odds.values()) == 1
    direct = Distribution.of("2d6").map(lambda r: air_combat_result(4, 3, r))
    assert odds == direct
    assert removal_chance(4, 3) > removal_chance(3, 3) > removal_chance(2, 3)


def test_eur24_user_table_replaces_shipped():
    t = parse_table({"id": "europa_air_combat", "title": "x", "source": "user",
                     "columns": ["0"], "rows": [{"key": r, "results": ["X"]}
                                                for r in range(2, 13)]})
    assert air_combat_result(0, 9, 2, t) is AirResult.ELIMINATED
    assert removal_chance(1, 1, t) == 1


# --- EUR-24 sweep --------------------------------------------------------------------------------

def test_eur24_sweepers_spread_evenly():
    """Seed: "if they outnumber the defending fighters they may double up etc, but must be spread
    as evenly as possible"."""
    p = sweep_pairings(["a", "b", "c", "d", "e"], ["x", "y"])
    assert [d for _, d in p].count("x") == 3 and [d for _, d in p].count("y") == 2
    assert can_sweep(["a", "b", "c"], ["x", "y"], [("a", "x"), ("b", "x"), ("c", "y")])
    with pytest.raises(IllegalOrder) as e:
        verify_sweep_pairings(["a", "b", "c"], ["x", "y"],
                              [("a", "x"), ("b", "x"), ("c", "x")])
    assert e.value.rule == "EUR-24"
    # doubling up while another enemy fighter is left unengaged is not "as evenly as possible"
    assert not can_sweep(["a", "b"], ["x", "y"], [("a", "x"), ("b", "x")])
    assert not can_sweep(["a", "b"], ["x"], [("a", "x")])  # every sweeper picks one


def test_eur24_defender_stays_unless_r_a_or_x():
    """Seed: "the defending fighter remains unless an R, A, or X result is obtained against
    it. It may fire at as many fighters as engage it, while each of the sweeping fighters fires
    only once and returns to base"."""
    sw = [F("s1"), F("s2")]
    df = [F("d1")]
    pairs = [("s1", "d1"), ("s2", "d1")]
    # even differential: 2..7 no effect, 8..9 R, 10..11 A, 12 X
    r = fighter_sweep(sw, df, pairs, [7, 12, 7, 2])
    assert r.defenders_remaining == ("d1",) and r.defenders_removed == ()
    assert r.fights[0].vs_attacker is AirResult.ELIMINATED  # the defender fired at s1 ...
    assert r.fights[1].vs_attacker is AirResult.NONE  # ... and at s2
    assert r.sweepers_returned == ("s2",)  # s1 shot down, s2 back to base
    r2 = fighter_sweep(sw, df, pairs, [2, 2, 8, 2])
    assert r2.defenders_removed == ("d1",) and r2.fights[1].vs_target is AirResult.RETURN
    assert r2.to_json()["defenders_removed"] == ["d1"]


def test_eur24_sweep_needs_enough_rolls_and_known_units():
    with pytest.raises(InputError):
        fighter_sweep([F("s1")], [F("d1")], [("s1", "d1")], [7])
    with pytest.raises(IllegalOrder):
        fighter_sweep([F("s1")], [F("d1")], [("s1", "zz")], [7, 7])


def test_eur24_doubling_up_raises_removal_chance_exactly():
    one = removal_chance(3, 3)
    assert one == Fraction(15, 36)
    assert sweep_removal_chance([3, 3], 3) == 1 - (1 - one) ** 2


# --- EUR-25 interception -------------------------------------------------------------------------

def test_eur25_interception_range_is_half_range_rounded_down():
    """Seed: "intercept within 1/2 their fighter's listed range from its patrol hex or ready
    airbase"; RULES.md: ½ range is rounded down."""
    assert [interception_range(r) for r in (0, 1, 7, 8, 17)] == [0, 0, 3, 4, 8]
    assert can_intercept(4, 9) and not can_intercept(5, 9)
    with pytest.raises(IllegalOrder) as e:
        verify_interception(6, 10)
    assert e.value.rule == "EUR-25"
    with pytest.raises(InputError):
        interception_range(-1)


def test_eur25_interceptors_must_fight_escorts_first():
    """Seed: "Intercepting fighters must first fight any escorting fighter groups ... none may
    pick other targets while any escorting fighters remain"."""
    m = Mission("m1", MissionKind.GROUND_SUPPORT, (F("e1"),), (B("b1"), B("b2")))
    with pytest.raises(IllegalOrder):
        intercept([F("i1"), F("i2")], m, {"i1": "e1", "i2": "b1"}, {}, [7] * 8)
    with pytest.raises(IllegalOrder):  # every interceptor must take on an escort
        intercept([F("i1"), F("i2")], m, {"i1": "e1"}, {}, [7] * 8)
    # escorts survive: no interceptor reaches the bombers
    r = intercept([F("i1"), F("i2")], m, {"i1": "e1", "i2": "e1"}, {}, [7, 7, 7, 7])
    assert r.escorts_remaining == ("e1",) and r.strikers_remaining == ("b1", "b2")
    assert r.strike_fights == () and r.strike_value == 12
    # a standing order against a bomber is not flown while the escort remains
    r = intercept([F("i1")], m, {"i1": "e1"}, {"i1": "b1"}, [7] * 4)
    assert r.strike_fights == () and r.rolls_used == 2
    with pytest.raises(IllegalOrder):  # strike orders must name strike units
        intercept([F("i1")], m, {"i1": "e1"}, {"i1": "e1"}, [7] * 4)


def test_eur25_escorts_cleared_then_remaining_interceptors_attack_one_bomber_each():
    """RULES.md EUR-25 (with "escorting" read as "intercepting"): with no escorts left each
    remaining interceptor may attack one bomber, for one round."""
    m = Mission("m1", MissionKind.STRATEGIC_BOMBING, (F("e1"),), (B("b1"), B("b2")))
    ic = [F("i1"), F("i2")]
    # i1 returns the escort (roll 8 = R); i2 is eliminated by the escort's fire back (12)
    rolls = [8, 2, 2, 12, 12, 2]
    r = intercept(ic, m, {"i1": "e1", "i2": "e1"}, {"i1": "b2", "i2": "b1"}, rolls)
    assert r.escorts_remaining == ()
    assert r.interceptors_remaining == ("i1",)
    assert [(f.attacker, f.target) for f in r.strike_fights] == [("i1", "b2")]
    assert r.strikers_remaining == ("b1",) and r.strike_value == 15  # strategic rating
    assert r.rolls_used == 6
    # reading "none": the interceptors' one attack was spent on the escorts
    r3 = intercept(ic, m, {"i1": "e1", "i2": "e1"}, {"i1": "b2"}, rolls,
                   AirPhaseReadings(after_escorts=AfterEscorts.NONE))
    assert r3.strike_fights == () and r3.strikers_remaining == ("b1", "b2")


def test_eur25_unescorted_mission_and_strike_fighters_targeted_or_ignored():
    """Seed: "fighters on escort missions do not contribute strike value, and if on strike
    missions they may be targeted or ignored at the interceptor's option"."""
    strike_fighter = AirUnit("f9", 3, 10, fighter=True, tactical=3)
    m = Mission("m2", MissionKind.GROUND_SUPPORT, (), (B("b1"), strike_fighter))
    r = intercept([F("i1")], m, {}, {"i1": "b1"}, [12, 2])
    assert r.strikers_remaining == ("f9",) and r.strike_value == 3
    r = intercept([F("i1")], m, {}, {"i1": "f9"}, [12, 2])
    assert r.strikers_remaining == ("b1",) and r.strike_value == 6
    escorted = Mission("m3", MissionKind.GROUND_SUPPORT, (F("e1", 3),), (B("b1"),))
    assert intercept([F("i1")], escorted, {"i1": "e1"}, {}, [2, 2]).strike_value == 6


def test_eur25_wing_units_from_eur01():
    u = AirUnit.from_wing("ju87", wing_for("Ju-87B", range_hexes=8, air_combat=1))
    assert (u.tactical, u.strategic, u.air_combat, u.range_hexes, u.fighter) == (15, 3, 1, 8,
                                                                                 False)


# --- EUR-23 air phase order ----------------------------------------------------------------------

def test_eur23_air_phase_order():
    """Seed: "He may perform fighter sweep operations ... and resolves any such sweep missions
    first ... After all fighter sweeps are resolved, the non-phasing player may intercept"."""
    assert AIR_PHASE_ORDER[:3] == (AirStep.MISSIONS, AirStep.SWEEP, AirStep.INTERCEPTION)
    assert AIR_PHASE_ORDER.index(AirStep.INTERCEPTION) < AIR_PHASE_ORDER.index(
        AirStep.GROUND_SUPPORT)
    assert step_player("interception") == "non_phasing" and step_player("sweep") == "phasing"
    assert [k.value for k in mission_order(["airbase_attack", "ground_support", "sweep"])] == [
        "sweep", "ground_support", "airbase_attack"]


def test_eur23_air_phase_moves_forward_only():
    s = assign_mission(AirPhaseState(), "m1", "interdiction")
    s, rec = air_step(s, "sweep")
    assert rec.from_step is AirStep.MISSIONS and rec.rule == "EUR-23"
    with pytest.raises(IllegalOrder):  # missions are placed before sweeps resolve
        assign_mission(s, "m2", "ground_support")
    with pytest.raises(IllegalOrder):  # interdiction waits for interception
        verify_resolve_mission(s, "interdiction")
    verify_resolve_mission(s, "sweep")
    s, _ = air_step(s, "interdiction")
    assert not can_air_step(s, "interception")
    with pytest.raises(IllegalOrder) as e:
        air_step(s, "sweep")
    assert e.value.rule == "EUR-23"
    with pytest.raises(IllegalOrder):
        assign_mission(AirPhaseState(missions=(("m1", MissionKind.SWEEP),)), "m1", "sweep")
    with pytest.raises(InputError):
        air_step(s, "nap")


# --- properties ----------------------------------------------------------------------------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(st.integers(1, 9), st.integers(1, 6), st.lists(st.integers(2, 12), min_size=18,
                                                      max_size=18))
def test_eur24_default_pairing_is_legal_and_sweep_conserves_units(n_sw, n_df, rolls):
    sw = [F(f"s{i}", ac=i % 5) for i in range(n_sw)]
    df = [F(f"d{i}", ac=i % 4) for i in range(n_df)]
    pairs = sweep_pairings([u.id for u in sw], [u.id for u in df])
    verify_sweep_pairings([u.id for u in sw], [u.id for u in df], pairs)
    r = fighter_sweep(sw, df, pairs, rolls)
    assert sorted(r.defenders_removed + r.defenders_remaining) == sorted(u.id for u in df)
    assert set(r.sweepers_returned) <= {u.id for u in sw}
    engaged = {d for _, d in pairs}
    assert set(r.defenders_removed) <= engaged  # only engaged fighters can be removed


@given(st.integers(1, 4), st.integers(0, 3), st.integers(1, 3),
       st.lists(st.integers(2, 12), min_size=16, max_size=16))
def test_eur25_interception_never_creates_units_and_escorts_screen(n_ic, n_es, n_st, rolls):
    ic = [F(f"i{i}") for i in range(n_ic)]
    m = Mission("m", MissionKind.GROUND_SUPPORT, tuple(F(f"e{i}") for i in range(n_es)),
                tuple(B(f"b{i}") for i in range(n_st)))
    et = {f"i{i}": f"e{i % n_es}" for i in range(n_ic)} if n_es else {}
    stg = {f"i{i}": f"b{i % n_st}" for i in range(n_ic)}
    r = intercept(ic, m, et, stg, rolls)
    assert set(r.strikers_remaining) <= {u.id for u in m.strikers}
    assert set(r.interceptors_remaining) <= {u.id for u in ic}
    if r.escorts_remaining:
        assert r.strike_fights == () and r.strikers_remaining == tuple(u.id for u in m.strikers)
    assert r.strike_value == 6 * len(r.strikers_remaining)
