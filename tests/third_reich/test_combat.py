"""TR-32, TR-34, TR-36: odds, column shifts, armor superiority, the land CRT and its results."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from grognard.core.dice import DiceStream, Distribution
from grognard.core.errors import IllegalOrder, InputError, TableError
from grognard.core.tables import load_tables, parse_table
from grognard.third_reich.combat.combat import (
    Battle,
    Terrain,
    apply_land_result,
    armor_superiority,
    assess_battle,
    battle_odds,
    column_odds,
    crt_result,
    expected_losses,
    left_shifts,
    odds_column,
    parse_crt_result,
    resolve_battle,
    sample_land_results,
)
from grognard.third_reich.turn.calendar import Weather
from grognard.third_reich.turn.combat_readings import (
    OddsRounding,
    RetreatImpossible,
    TRCombatReadings,
)
from grognard.third_reich.turn.forces import AirUnit, Fleet, GroundKind, GroundUnit, Side


def unit(uid: str, f: int, kind: GroundKind = GroundKind.INFANTRY,
         side: Side = Side.AXIS) -> GroundUnit:
    return GroundUnit(uid, "german" if side is Side.AXIS else "british", side, kind, f)


def allied(uid: str, f: int, kind: GroundKind = GroundKind.INFANTRY) -> GroundUnit:
    return unit(uid, f, kind, Side.ALLIES)


# ------------------------------------------------------------------ TR-32 results


def test_tr32_tv06_bridgehead_d2r_loses_three_keeps_one() -> None:
    """RULES.md TR-TV06; seed 002 "Changes to land combat": "a bridgehead containing 4 units
    suffers a D2R result and has its backs to the sea. They lose 3 units and the last remains."""
    out = apply_land_result(parse_crt_result("D2R"), attackers=2, defenders=4,
                            defender_can_retreat=False, stacking_limit=4)
    assert out.defender_losses == 3
    assert out.retreat is not None and not out.retreat.possible and out.retreat.extra_loss == 1
    assert not out.hex_emptied and out.advance_max == 0


def test_tr32_tv06_bridgehead_through_a_whole_battle() -> None:
    """The same example through resolve_battle: 6-1 column, natural 6 is D2R."""
    battle = Battle(
        attackers=(allied("a1", 5, GroundKind.ARMOR), allied("a2", 5, GroundKind.ARMOR),
                   allied("a3", 5, GroundKind.ARMOR), allied("a4", 5, GroundKind.ARMOR)),
        defenders=(unit("d1", 0), unit("d2", 0), unit("d3", 1), unit("d4", 1)),
        bridgehead=True, defender_can_retreat=False, terrain=Terrain.FOREST)
    out = resolve_battle(battle, 6)
    assert out.assessment.odds.column == "6-1"
    assert out.result.code == "D2R"
    assert out.outcome.defender_losses == 3


def test_tr32_extra_loss_only_when_retreat_impossible() -> None:
    possible = apply_land_result(parse_crt_result("D2R"), 2, 4, defender_can_retreat=True)
    assert possible.defender_losses == 2 and possible.retreat is not None
    assert possible.retreat.possible and possible.retreat.units == 2
    assert possible.hex_emptied and possible.advance_max == 2


def test_tr32_retreat_impossible_reading_eliminates() -> None:
    r = TRCombatReadings(tr_retreat_impossible=RetreatImpossible.ELIMINATED)
    out = apply_land_result(parse_crt_result("D2R"), 2, 4, defender_can_retreat=False,
                            readings=r)
    assert out.defender_losses == 4 and out.hex_emptied


def test_tr32_attacker_retreat_and_extra_loss() -> None:
    ar = apply_land_result(parse_crt_result("AR"), 2, 2)
    assert ar.retreat is not None and ar.retreat.side == "attacker" and ar.attacker_losses == 0
    stuck = apply_land_result(parse_crt_result("AR"), 2, 2, attacker_can_retreat=False)
    assert stuck.attacker_losses == 1


def test_tr32_x1_and_losses_capped_by_stack() -> None:
    x = apply_land_result(parse_crt_result("X1"), 2, 2)
    assert (x.attacker_losses, x.defender_losses, x.hex_emptied) == (1, 1, False)
    d2 = apply_land_result(parse_crt_result("D2"), 3, 1)
    assert d2.defender_losses == 1 and d2.hex_emptied and d2.advance_max == 2


def test_tr32_advance_up_to_stacking_limit() -> None:
    out = apply_land_result(parse_crt_result("D2"), 4, 2)
    assert out.advance_max == 2
    out = apply_land_result(parse_crt_result("D2"), 4, 2, stacking_limit=4)
    assert out.advance_max == 4
    # the defender never advances; an attacker who retreats does not advance either
    assert apply_land_result(parse_crt_result("A2"), 2, 2).advance_max == 0


def test_tr32_result_alphabet_parses() -> None:
    codes = {parse_crt_result(c) for c in ("A1", "A2", "D1", "D2", "X1", "AR", "DR",
                                             "D1R", "D2R", "-")}
    assert len(codes) == 10
    with pytest.raises(TableError):
        parse_crt_result("B3")


def test_tr32_crt_has_no_breakthrough_and_uses_2d6() -> None:
    t = load_tables().get("tr_new3r_land_crt")
    assert t.dice == "2D6" and list(t.row_keys) == list(range(2, 13))
    cells = {c for row in t.rows.values() for c in row}
    assert cells <= {"A1", "A2", "D1", "D2", "X1", "AR", "DR", "D1R", "D2R", "-"}
    assert "D2R" in cells


# ------------------------------------------------------------------ odds and shifts


def test_tr32_odds_round_down_to_column() -> None:
    assert odds_column(20, 7).column == "2-1"  # 2.86 -> 2-1
    assert odds_column(21, 7).column == "3-1"
    assert odds_column(10, 7).column == "1-1"
    assert odds_column(7, 14).column == "1-2"


def test_tr32_nearest_rounding_reading() -> None:
    r = TRCombatReadings(tr_odds_rounding=OddsRounding.NEAREST)
    assert odds_column(20, 7, readings=r).column == "3-1"


def test_tr32_below_min_declared_odds_is_illegal() -> None:
    with pytest.raises(IllegalOrder, match="TR-32"):
        odds_column(6, 13)
    with pytest.raises(InputError, match="defense"):
        odds_column(6, 0)


def test_tr32_odds_above_top_use_top_column() -> None:
    assert odds_column(100, 7).column == "6-1"


def test_tr34_left_shift_lands_on_lower_column_and_1_3() -> None:
    assert odds_column(7, 14, shifts=1).column == "1-3"
    assert odds_column(7, 14, shifts=3).column == "1-3"
    # shifts apply to the extended ladder before the cap: 8-1 with one shift is 7-1 -> 6-1,
    # 7-1 with two shifts is 5-1
    assert odds_column(56, 7, shifts=1).column == "6-1"
    assert odds_column(49, 7, shifts=2).column == "5-1"


def test_tr34_shift_sources_and_cumulative() -> None:
    assert left_shifts(Terrain.CLEAR) == 0
    assert left_shifts(Terrain.SWAMP) == 1
    assert left_shifts(Terrain.MOUNTAIN) == 1
    assert left_shifts(Terrain.CLEAR, all_river=True) == 1
    assert left_shifts(Terrain.CLEAR, amphibious=True) == 1
    assert left_shifts(Terrain.MOUNTAIN, all_river=True, amphibious=True) == 3
    assert left_shifts(Terrain.FOREST, all_river=True) == 1
    single = TRCombatReadings(tr_shifts_cumulative=False)
    assert left_shifts(Terrain.MOUNTAIN, all_river=True, readings=single) == 1


def test_tr34_airborne_cancels_river_and_invasion_shifts() -> None:
    assert left_shifts(Terrain.CLEAR, all_river=True, amphibious=True,
                       airborne_in_hex=True) == 0
    assert left_shifts(Terrain.SWAMP, all_river=True, airborne_in_hex=True) == 1


# ------------------------------------------------------------------ TR-36 armor


def test_tr36_attacker_armor_superiority() -> None:
    assert armor_superiority(6, 6, False, True, Weather.CLEAR, Terrain.CLEAR) == 1
    assert armor_superiority(6, 6, False, True, Weather.SNOW, Terrain.CLEAR) == 1
    assert armor_superiority(5, 6, False, True, Weather.CLEAR, Terrain.CLEAR) == 0
    assert armor_superiority(9, 6, True, True, Weather.CLEAR, Terrain.CLEAR) == 0


def test_tr36_defender_armor_superiority() -> None:
    assert armor_superiority(0, 6, True, False, Weather.CLEAR, Terrain.CLEAR) == -1


def test_tr36_mud_removes_armor_superiority() -> None:
    assert armor_superiority(6, 6, False, True, Weather.MUD, Terrain.CLEAR) == 0
    assert armor_superiority(0, 6, True, False, Weather.MUD, Terrain.CLEAR) == 0


def test_tr36_only_into_clear_terrain() -> None:
    for t in (Terrain.FOREST, Terrain.SWAMP, Terrain.MOUNTAIN, Terrain.OTHER):
        assert armor_superiority(20, 6, False, True, Weather.CLEAR, t) == 0


def test_tr36_drm_moves_and_clamps_the_roll() -> None:
    assert crt_result("1-1", 1, 11).code == crt_result("1-1", 0, 12).code
    assert crt_result("1-1", 1, 12).code == "D1R"  # 13 clamps to 12
    assert crt_result("1-1", -1, 2).code == "A2"
    with pytest.raises(InputError, match="roll"):
        crt_result("1-1", 0, 13)


# ------------------------------------------------------------------ whole battles


def battle_2_1() -> Battle:
    # 2 x 3-3 infantry in clear (defense 7); 10 ground + 5 air = 15 -> 2-1
    return Battle(
        attackers=(allied("a", 5, GroundKind.ARMOR), allied("b", 5)),
        defenders=(unit("d1", 3), unit("d2", 3)),
        air=(AirUnit("af", 5),),
    )


def test_tr32_battle_assessment_every_modifier() -> None:
    a = assess_battle(battle_2_1())
    assert a.defense.total == 7
    assert a.support.used == 5
    assert a.odds.column == "2-1" and a.odds.odds == Fraction(15, 7)
    assert a.drm == 0  # 5 armor factors < defense 7


def test_tr32_battle_with_snow_mountain_and_fleet() -> None:
    b = Battle(
        attackers=(allied("a", 4), allied("b", 4)),
        defenders=(unit("d", 4),),
        weather=Weather.SNOW, terrain=Terrain.MOUNTAIN,
        air=(AirUnit("x", 5), AirUnit("y", 5)), fleets=(Fleet("f", 9),),
    )
    a = assess_battle(b)
    assert a.defense.total == 6
    assert a.support.offered == 13 and a.support.used == 6  # snow: 1x defense
    assert a.odds.raw_column == "2-1" and a.odds.column == "3-2"


def test_tr32_resolve_battle_json_keys() -> None:
    out = resolve_battle(battle_2_1(), 9).to_json()
    assert list(out) == ["defense", "support", "odds", "column", "shifts", "drm", "roll",
                         "result", "attacker_losses", "defender_losses", "retreat"]
    assert out["result"] == "D2" and out["defender_losses"] == 2 and out["odds"] == "15/7"


def test_tr32_battle_from_json_errors_name_the_field() -> None:
    with pytest.raises(InputError, match=r"battle\.weather"):
        Battle.from_json({"attackers": [{"factors": 3}], "defenders": [{"factors": 2}],
                          "weather": "fog"})
    with pytest.raises(InputError, match=r"battle\.attackers\[0\]\.factors"):
        Battle.from_json({"attackers": [{"factors": -1}], "defenders": [{"factors": 2}]})
    with pytest.raises(InputError, match=r"battle\.bogus"):
        Battle.from_json({"attackers": [{"factors": 3}], "defenders": [{"factors": 2}],
                          "bogus": 1})


# ------------------------------------------------------------------ exact odds


def test_tr32_column_odds_sum_to_one_and_match_tables_md() -> None:
    for col in load_tables().get("tr_new3r_land_crt").columns:
        assert sum(column_odds(col).values()) == 1
    att, dfn = expected_losses("1-1")
    assert att == Fraction(22, 36) and dfn == Fraction(12, 36)  # TABLES.md 0.611 / 0.333
    att, dfn = expected_losses("6-1")
    assert att == Fraction(8, 36) and dfn == Fraction(59, 36)  # 0.222 / 1.639
    att, _ = expected_losses("4-1", drm=1)
    assert att == Fraction(8, 36)  # TABLES.md DRM +1: 0.222


def test_tr32_exact_odds_agree_with_monte_carlo() -> None:
    _, exact = battle_odds(battle_2_1())
    t = load_tables().get("tr_new3r_land_crt")
    _, alphabet = t.codes()
    n = 400_000
    rolls = DiceStream(11, "tr32-mc").sample("2d6", n)
    codes = sample_land_results("2-1", 0, rolls, t)
    counts = np.bincount(codes, minlength=len(alphabet))
    for code, p in exact.items():
        freq = counts[alphabet.index(code)] / n
        sigma = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(freq - float(p)) < 5 * sigma + 1e-9, code


def test_tr32_exact_odds_are_the_resolve_function_mapped() -> None:
    b = battle_2_1()
    _, exact = battle_odds(b)
    mapped = Distribution.of("2d6").map(lambda r: resolve_battle(b, r).result.code)
    assert mapped == exact


def test_tr32_user_table_replaces_shipped() -> None:
    raw = {"id": "tr_new3r_land_crt", "title": "user", "source": "user", "dice": "2D6",
           "columns": ["1-2", "1-1", "2-1"],
           "rows": [{"key": k, "results": ["A1", "-", "D1"]} for k in range(2, 13)]}
    t = parse_table(raw)
    assert crt_result("2-1", 0, 7, t).code == "D1"
    assert odds_column(100, 7, table=t).column == "2-1"


# ------------------------------------------------------------------ properties

CODES = ["A1", "A2", "D1", "D2", "X1", "AR", "DR", "D1R", "D2R", "-"]


@given(st.sampled_from(CODES), st.integers(1, 6), st.integers(1, 6), st.booleans(),
       st.booleans(), st.integers(1, 4))
def test_tr32_property_losses_never_exceed_units(code: str, att: int, dfn: int, d_can: bool,
                                                 a_can: bool, limit: int) -> None:
    out = apply_land_result(parse_crt_result(code), att, dfn, d_can, a_can, limit)
    assert 0 <= out.attacker_losses <= att and 0 <= out.defender_losses <= dfn
    assert out.advance_max <= limit
    assert out.advance_max == 0 or out.hex_emptied


@given(st.integers(1, 40), st.integers(1, 20), st.integers(0, 3), st.integers(-1, 1))
def test_tr32_property_column_odds_sum_to_one(att: int, dfn: int, shifts: int, drm: int) -> None:
    if Fraction(att, dfn) < Fraction(1, 2):
        with pytest.raises(IllegalOrder):
            odds_column(att, dfn, shifts)
        return
    col = odds_column(att, dfn, shifts).column
    assert sum(column_odds(col, drm).values()) == 1


def test_tr32_loser_picks_exactly_the_units_lost() -> None:
    from grognard.third_reich.combat.combat import verify_land_losses

    units = [unit("a", 3), unit("b", 2)]
    verify_land_losses(units, ["b"], 1)
    verify_land_losses(units, ["a", "b"], 3)  # capped by the stack
    with pytest.raises(IllegalOrder, match="TR-32"):
        verify_land_losses(units, ["a"], 2)
    with pytest.raises(IllegalOrder, match="TR-32"):
        verify_land_losses(units, ["z"], 1)
