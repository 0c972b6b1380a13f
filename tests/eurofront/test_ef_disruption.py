"""EF-11..EF-16 Eurofront Air Power Disruption (003_bbc0beaac187b5b3.txt, "Eurofront Air Power
Disruption ...or how to replicate the Battle of Britain", "How to use the table")."""

from fractions import Fraction

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex, hex_range
from grognard.core.tables import load_tables, parse_table
from grognard.eurofront.disruption import (
    ApdResult,
    ApdState,
    NavalStatus,
    airpower_disruption,
    apd_can_target,
    apd_effective,
    apd_hex_effects,
    apd_odds,
    apd_outcome,
    apd_roll,
    apd_row,
    battle_hq_in_range,
    end_of_month_apd_cleanup,
    hq_disrupted,
    naval_status_under_apd,
    remove_apd_marker,
    verify_apd_target,
)
from grognard.eurofront.model import AirPower, Block, BlockType, Board, Front, HQClass, Side
from grognard.eurofront.readings import EuroFrontReadings, OptionalRule, OptionalRules

AX, AL = Side.AXIS, Side.ALLIES
THD, NONE, OHD = ApdResult.THD, ApdResult.NONE, ApdResult.OHD


def board():
    """A radius-6 map; the Axis holds q <= 0, the Allies q > 0; all West Front."""
    hexes = hex_range(Hex(0, 0), 6)
    return Board(control={h: (AX if h.q <= 0 else AL) for h in hexes},
                 front={h: Front.WEST for h in hexes})


HQ_HOME = Hex(-1, 0)


def hq(hid="H1", cls=HQClass.BATTLE, strength=3, at=HQ_HOME, side=AX):
    return Block(hid, side, BlockType.HQ, strength=strength, max_strength=3, hq_class=cls, at=at)


def test_ef12_shipped_table_is_the_reconstruction():
    t = load_tables().get("eurofront_airpower_disruption")
    assert str(t.source) == "reconstructed" and t.row_keys == (0, 1, 2, 3)


def test_ef11_row_is_the_air_power_difference_only_zero_or_better_rolls():
    """'If this gives the active player an equal or positive difference then continue using the
    appropriate row'."""
    assert apd_row(AirPower.TF, AirPower.SF) == 2
    assert apd_row(AirPower.DF, AirPower.DF) == 0
    assert apd_row(AirPower.QF, AirPower.SF) == 3
    assert apd_row(AirPower.SF, AirPower.DF) is None
    with pytest.raises(IllegalOrder, match="EF-11"):
        apd_roll(1, -1, [6])


def test_ef12_one_die_per_hq_strength_point_each_result_applies():
    """'The active player then rolls his combat dice based on the activated HQ strength. There
    are three results possible'."""
    assert apd_roll(3, 0, [1, 3, 6]) == (OHD, NONE, THD)
    assert apd_roll(2, 3, [1, 3]) == (NONE, THD)
    with pytest.raises(InputError, match="rolls"):
        apd_roll(3, 1, [6, 6])
    with pytest.raises(InputError, match="strength"):
        apd_roll(4, 1, [6, 6, 6, 6])
    with pytest.raises(InputError, match=r"rolls\[1\]"):
        apd_roll(2, 1, [6, 7])


def test_ef12_user_table_replaces_the_reconstruction():
    raw = {"id": "eurofront_airpower_disruption", "title": "user", "source": "user",
           "columns": [f"d6={i}" for i in range(1, 7)],
           "rows": [{"key": 0, "results": ["THD"] * 6}]}
    t = parse_table(raw)
    assert apd_roll(1, 0, [1], t) == (THD,)


def test_ef12_exact_odds_match_tables_md():
    """TABLES.md §5.2: 3 dice at difference 2 disrupt 88% (1 - (1/2)^3 = 7/8)."""
    odds = apd_odds(HQClass.BATTLE, 3, 2)
    p_eff = sum(p for (eff, _), p in odds.items() if eff)
    p_own = sum(p for (_, own), p in odds.items() if own)
    assert p_eff == Fraction(7, 8)
    assert p_own == 1 - Fraction(5, 6) ** 3
    assert sum(odds.values()) == 1


def test_ef16_supreme_hq_out_of_battle_range_needs_two_thd():
    """'if ... the target hex is not in range of an activated Battle HQ then they require two
    Target Hex Disrupted results for the result to be effective.'"""
    assert apd_effective(HQClass.SUPREME, 1, battle_hq_in_range=True)
    assert not apd_effective(HQClass.SUPREME, 1, battle_hq_in_range=False)
    assert apd_effective(HQClass.SUPREME, 2, battle_hq_in_range=False)
    assert apd_effective(HQClass.BATTLE, 1, battle_hq_in_range=False)
    o = apd_outcome(HQClass.SUPREME, 3, 2, [6, 1, 2], in_battle_range=False)
    assert (o.thd, o.effective) == (1, False)
    odds = apd_odds(HQClass.SUPREME, 3, 3, in_battle_range=False)
    assert sum(p for (eff, _), p in odds.items() if eff) == Fraction(20, 27)  # TABLES.md 74%
    near = [hq("B1", at=Hex(0, 0))]
    assert battle_hq_in_range(Hex(2, 0), near) and not battle_hq_in_range(Hex(6, 0), near)


def test_ef11_eligible_hqs_and_targets():
    """'any Battle or Theatre or Supreme HQ may roll'; 'Choose a target hex that is both in range
    of the activated HQ and adjacent to either a friendly controlled hex or an enemy-controlled
    disrupted hex.'"""
    b, st = board(), ApdState()
    assert apd_can_target(b, st, hq(), Hex(1, 0))
    assert apd_can_target(b, st, hq(cls=HQClass.THEATRE), Hex(1, 0))
    assert not apd_can_target(b, st, hq(cls=HQClass.TACTICAL), Hex(1, 0))
    assert not apd_can_target(b, st, hq(), Hex(1, 0), activated=False)
    assert not apd_can_target(b, st, hq(), Hex(2, 0))  # deep: no friendly neighbour
    st2 = ApdState({Hex(1, 0): (AX,)})
    assert apd_can_target(b, st2, hq(), Hex(2, 0))  # next to an enemy hex we disrupted
    assert not apd_can_target(b, ApdState({Hex(1, 0): (AL,)}), hq(), Hex(2, 0))
    far = hq(at=Hex(-5, 0))
    with pytest.raises(IllegalOrder, match="air range"):
        verify_apd_target(b, st, far, Hex(1, 0))
    assert apd_can_target(b, st, hq(cls=HQClass.SUPREME, at=Hex(-5, 0)), Hex(1, 0))


def test_ef11_rule_off_forbids_the_roll():
    off = OptionalRules.all().without(OptionalRule.AIRPOWER_DISRUPTION)
    assert not apd_can_target(board(), ApdState(), hq(), Hex(1, 0), rules=off)
    assert apd_hex_effects(ApdState({Hex(1, 0): (AX,)}), Hex(1, 0), AL, off).disrupted is False


def test_ef13_target_hex_disrupted_places_a_marker_with_its_effects():
    """'Enemy HQs in the hex are Airpower Disrupted'; 'No enemy Block can receive Combat Air
    Support'; naval supremacy reduced; 'production ... interdictable and no cadres can be
    built'."""
    b = board()
    st, rec = airpower_disruption(b, ApdState(), hq(), Hex(1, 0), AirPower.TF, AirPower.SF,
                                  [6, 3, 2])
    assert rec.difference == 2 and rec.results == (THD, NONE, NONE)
    assert rec.effective and rec.marker_placed and rec.combat_air_support_forgone
    assert st.markers == {Hex(1, 0): (AX,)}
    fx = apd_hex_effects(st, Hex(1, 0), AL)
    assert fx.hqs_disrupted and fx.no_combat_air_support and fx.production_interdicted
    assert fx.no_cadre_or_rebuild and fx.naval_status_reduced
    assert not apd_hex_effects(st, Hex(1, 0), AX).disrupted
    enemy_hq = hq("E1", side=AL, at=Hex(1, 0))
    assert hq_disrupted(st, enemy_hq)
    with pytest.raises(IllegalOrder, match="EF-13"):
        verify_apd_target(b, st, enemy_hq, Hex(0, 0))
    assert naval_status_under_apd(NavalStatus.SUPREMACY, True) is NavalStatus.PARITY
    assert naval_status_under_apd(NavalStatus.PARITY, True) is NavalStatus.ENEMY_SUPREMACY
    assert naval_status_under_apd(NavalStatus.SUPREMACY, False) is NavalStatus.SUPREMACY


def test_ef12_several_thd_place_one_marker_per_hq_roll():
    st, _ = airpower_disruption(board(), ApdState(), hq(), Hex(1, 0), AirPower.QF, AirPower.SF,
                                [6, 6, 6])
    assert st.markers[Hex(1, 0)] == (AX,)
    st, _ = airpower_disruption(board(), st, hq("H2"), Hex(1, 0), AirPower.QF, AirPower.SF,
                                [6, 6, 6])
    assert st.markers[Hex(1, 0)] == (AX, AX)  # several HQs may target one hex


def test_ef11_negative_difference_may_not_roll():
    with pytest.raises(IllegalOrder, match="negative"):
        airpower_disruption(board(), ApdState(), hq(), Hex(1, 0), AirPower.SF, AirPower.DF,
                            [6, 6, 6])


def test_ef15_own_hq_disrupted_until_month_end():
    """'Own HQ Disrupted means that for the rest of the month the friendly activated HQ is
    disrupted'."""
    b = board()
    st, rec = airpower_disruption(b, ApdState(), hq(), Hex(1, 0), AirPower.DF, AirPower.DF,
                                  [1, 4, 5])
    assert rec.own_hq_disrupted and not rec.effective and st.markers == {}
    assert hq_disrupted(st, hq())
    with pytest.raises(IllegalOrder, match="EF-15"):
        verify_apd_target(b, st, hq(), Hex(1, 0))
    st, ended = end_of_month_apd_cleanup(b, st)
    assert ended.hqs_recovered == ("H1",) and not hq_disrupted(st, hq())


def test_ef14_one_marker_per_hex_removed_monthly_unless_surrounded():
    """'One Airpower Disrupted marker per hex is removed at the end of each month unless: at the
    end of a month it is surrounded by friendly-controlled hex or one that has an Airpower
    Disrupted marker on it'."""
    b = board()
    exposed = ApdState({Hex(2, 0): (AX, AX)})  # Allied neighbours without markers
    st, rec = end_of_month_apd_cleanup(b, exposed)
    assert st.markers == {Hex(2, 0): (AX,)} and rec.removed == ((Hex(2, 0), AX),)
    st, _ = end_of_month_apd_cleanup(b, st)
    assert st.markers == {}
    # Hex(1,0): neighbours (2,0) (2,-1) (1,1) are Allied; cover them with Axis markers
    ring_st = ApdState({Hex(1, 0): (AX,), Hex(2, 0): (AX,), Hex(2, -1): (AX,),
                        Hex(1, 1): (AX,), Hex(1, -1): (AX,)})
    st, rec = end_of_month_apd_cleanup(b, ring_st)
    assert (Hex(1, 0), AX) in rec.kept_surrounded and Hex(1, 0) in st.markers


def test_ef14_owner_may_remove_and_enemy_thd_removes():
    """'The owning player chooses to remove it'; 'an enemy Target Hex Disrupted result is applied
    to that hex' (reading: removes one of the owner's markers; switch ef_apd_counter_removal)."""
    st = remove_apd_marker(ApdState({Hex(1, 0): (AX,)}), Hex(1, 0), AX)
    assert st.markers == {}
    with pytest.raises(IllegalOrder, match="EF-14"):
        remove_apd_marker(st, Hex(1, 0), AX)
    b = board()
    allied = hq("E1", side=AL, at=Hex(2, 0))
    marked = ApdState({Hex(0, 0): (AX,)})
    st, rec = airpower_disruption(b, marked, allied, Hex(0, 0), AirPower.DF, AirPower.DF, [6, 3, 3])
    assert rec.enemy_markers_removed == 1 and st.markers[Hex(0, 0)] == (AL,)
    keep = EuroFrontReadings(ef_apd_counter_removal=False)
    st, rec = airpower_disruption(b, marked, allied, Hex(0, 0), AirPower.DF, AirPower.DF, [6, 3, 3],
                                  readings=keep)
    assert rec.enemy_markers_removed == 0 and st.markers[Hex(0, 0)] == (AX, AL)


def test_ef12_monte_carlo_agrees_with_exact_odds():
    """Same table, vectorised over 200,000 sampled HQ rolls: within 0.01 of the exact odds."""
    from grognard.core.dice import DiceStream
    from grognard.eurofront.disruption import apd_sample

    for cls, strength, diff, near in [(HQClass.BATTLE, 3, 2, True),
                                      (HQClass.SUPREME, 3, 1, False)]:
        s = apd_sample(cls, strength, diff, 200_000, DiceStream(5, "apd"), near)
        exact = apd_odds(cls, strength, diff, near)
        p_eff = sum(p for (eff, _), p in exact.items() if eff)
        p_own = sum(p for (_, own), p in exact.items() if own)
        assert abs(float(s["effective"].mean()) - float(p_eff)) < 0.01
        assert abs(float(s["own_hq_disrupted"].mean()) - float(p_own)) < 0.01


def test_ef08_ef12_battle_of_britain_figures_of_tables_md():
    """TABLES.md §5.1 'Battle of Britain': in 1940 the Axis keeps TF in the West while the
    Allies stay at SF, a difference of 2; a 3-strength HQ disrupts the target 88% of the time
    and its own HQ is knocked out 42% of the time. Supreme HQ out of Battle-HQ range, 3 dice:
    7% / 26% / 50% / 74% by difference."""
    from grognard.eurofront.airpower import AirPowerState, air_power_level
    from grognard.eurofront.model import Turn

    st = AirPowerState(Turn(1940, 8))
    diff = apd_row(air_power_level(AX, Front.WEST, st), air_power_level(AL, Front.WEST, st))
    assert diff == 2
    odds = apd_odds(HQClass.BATTLE, 3, diff)
    p_eff = sum(p for (eff, _), p in odds.items() if eff)
    p_own = sum(p for (_, own), p in odds.items() if own)
    assert round(100 * p_eff) == 88 and round(100 * p_own) == 42
    supreme = [sum(p for (eff, _), p in apd_odds(HQClass.SUPREME, 3, d, False).items() if eff)
               for d in range(4)]
    assert [round(100 * p) for p in supreme] == [7, 26, 50, 74]
