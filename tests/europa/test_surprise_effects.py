"""SUR-15..SUR-21: surprise effects roll, "+ # MP" markers, bonus-phase restrictions, reactions,
ground support, supply and the bonus air phase.

Source: /work/shared/seeds/000_0eee5b9a7c244d48.txt (Europa rule 47.A.4, 47.A.5).
"""

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from grognard.core.dice import DiceStream
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.tables import load_tables
from grognard.europa.surprise.effects import (
    ActionContext,
    AirType,
    Reaction,
    RecoveryCandidate,
    Result,
    StackMember,
    SurpriseAction,
    air_combat_marker_drm,
    bonus_air_recovery,
    bonus_supply_judgement,
    commands_near_front,
    effects_odds,
    effects_result,
    effects_rolls,
    ground_support_tbf,
    isolation_at_each_combat,
    marker_count,
    marker_removal_mp,
    reaction_allowed,
    stack_nationality_modifier,
    success_result,
    surprise_action_allowed,
    surprise_attack_sp,
    transport_increase_cost,
    verify_surprise_action,
)
from grognard.europa.surprise.general import (
    AirStatus,
    DistanceCapMode,
    HalvingRounding,
    Nationality,
    SurpriseKind,
    SurpriseReadings,
)

SOV = [StackMember(Nationality.SOVIET)]
RANGE = SurpriseReadings(surprise_distance_cap_mode=DistanceCapMode.RANGE_LIMIT)


def test_sur15_tv09_marker_counts():
    """SUR-TV09 (DERIVED), seed 000 §47.A.4 Table 2 under the RULES.md reading: (a) S, Soviet,
    0 hexes, SRP 10, invasion, first, 1941 -> 5; (b) same at 14 hexes -> 3; (c) F, German, 1944,
    local, not first -> 0; (d) S, Soviet, 40 hexes, SRP 1 -> 4; (e) same with RANGE_LIMIT -> 0."""
    kw = {"invasion": True, "first": True, "year": 1941}
    a = marker_count("S", SOV, distance=0, level=10, **kw)
    b = marker_count("S", SOV, distance=14, level=10, **kw)
    c = marker_count("F", [StackMember(Nationality.GERMAN)], distance=3, level=5, year=1944)
    d = marker_count("S", SOV, distance=40, level=1, **kw)
    e = marker_count("S", SOV, distance=40, level=1, readings=RANGE, **kw)
    assert [m.markers for m in (a, b, c, d, e)] == [5, 3, 0, 4, 0]
    assert c.raw == -1 and e.out_of_range


def test_sur15_modifiers_are_itemised():
    m = marker_count("S", SOV, distance=14, level=10, invasion=True, first=True, year=1941)
    assert [(x.name, x.value) for x in m.modifiers] == [
        ("result S", 1), ("nationality soviet", 1), ("distance 14 hexes", -2),
        ("invasion surprise turn", 1), ("first surprise against the country", 1),
        ("year 1941", 1)]
    assert m.to_json()["markers"] == 3


def test_sur15_result_modifiers_f_star_f_s_and_s_star_as_s():
    kw = {"distance": 0, "level": 5, "year": 1944}
    us = [StackMember(Nationality.US)]
    assert marker_count("F*", us, **kw).raw == -1
    assert marker_count("F", us, **kw).raw == 0
    assert marker_count("S", us, **kw).raw == 1
    assert marker_count("S*", us, **kw).raw == 1


def test_sur15_year_window_1939_to_1942():
    kw = {"distance": 0, "level": 5}
    assert marker_count("F", SOV, year=1942, **kw).raw == 2
    assert marker_count("F", SOV, year=1943, **kw).raw == 1
    assert marker_count("F", SOV, year=1939, **kw).raw == 2


def test_sur15_tv10_mixed_stacks():
    """SUR-TV10 (DERIVED), seed 000 §47.A.4 note 3: "If two or more nationalities are stacked
    together, use the modifier for the unit with the largest ZOC. If equal, average the modifiers
    and round up." German+US equal -> ceil(-1/2) = 0; Italian+German equal -> 0; German (larger
    ZOC)+Soviet -> -1."""
    g2, us2 = StackMember(Nationality.GERMAN, 2), StackMember(Nationality.US, 2)
    it2, g3 = StackMember(Nationality.ITALIAN, 2), StackMember(Nationality.GERMAN, 3)
    sov1 = StackMember(Nationality.SOVIET, 1)
    assert stack_nationality_modifier([g2, us2]).value == 0
    assert stack_nationality_modifier([it2, g2]).value == 0
    assert stack_nationality_modifier([g3, sov1]).value == -1
    with pytest.raises(InputError, match="stack"):
        stack_nationality_modifier([])


def test_sur15_distance_penalty_cap_readings():
    # PENALTY_CAP: at most -level; RANGE_LIMIT: beyond 7 x level unaffected, else floor(d/7)
    assert marker_count("S", SOV, distance=20, level=2, year=1941).raw == 3 - 2
    assert marker_count("S", SOV, distance=14, level=2, year=1941, readings=RANGE).raw == 1
    assert marker_count("S", SOV, distance=15, level=2, year=1941, readings=RANGE).markers == 0
    with pytest.raises(InputError, match="distance"):
        marker_count("S", SOV, distance=-1, level=2, year=1941)
    with pytest.raises(InputError, match="result"):
        marker_count("X", SOV, distance=1, level=2, year=1941)


def test_sur15_effects_roll_uses_the_success_table_and_is_replaceable(tmp_path: Path):
    assert [effects_result(d).value for d in range(1, 7)] == ["F*", "F", "F", "F", "S", "S"]
    odds = effects_odds()
    assert odds == {Result.F_STAR: Fraction(1, 6), Result.F: Fraction(1, 2),
                    Result.S: Fraction(1, 3)}
    # a user's table with the same id replaces the reconstruction
    text = load_tables().get("europa_success_table").file
    assert "europa_success_table" in text
    rows = "\n".join(f'[[rows]]\nkey = {k}\nresults = ["S"]\n' for k in range(0, 11))
    (tmp_path / "mine.toml").write_text(
        'id = "europa_success_table"\ntitle = "mine"\nsource = "user"\ncolumns = ["result"]\n'
        + rows)
    mine = load_tables(tmp_path).get("europa_success_table")
    assert effects_result(1, mine) is Result.S
    with pytest.raises(InputError, match="die"):
        effects_result(7)


def test_sur15_monte_carlo_agrees_with_exact_odds():
    stream = DiceStream(7, "sur15")
    dice = stream.sample("1d6", 200_000)
    table = load_tables().get("europa_success_table")
    lookup = np.array([effects_result(d, table) is Result.S for d in range(1, 7)])
    share = lookup[dice - 1].mean()
    assert abs(share - 1 / 3) < 0.01


def test_sur15_one_roll_per_defending_command_near_the_front():
    """Seed 000 §47.A.4: "Each defending front/army group or command with units near the surprise
    front must make a roll"."""
    near = commands_near_front({"NW Front": 3, "W Front": 20, "Reserve": 21})
    assert near == ["NW Front", "W Front"]
    rolls = effects_rolls(near, DiceStream(1, "effects"))
    again = effects_rolls(near, DiceStream(1, "effects"))
    assert rolls == again and [r.command for r in rolls] == near
    assert all(r.result is effects_result(r.die) for r in rolls)
    with pytest.raises(InputError, match="commands"):
        effects_rolls(["a", "a"], DiceStream(1, "x"))


def test_sur16_marker_removal_and_soviet_free_removal_in_invasion():
    """Seed 000 §47.A.4 note 2: in an invasion surprise turn, Soviet units moving closer to the
    nearest enemy HQ or border freely remove one marker per hex moved."""
    assert marker_removal_mp(3) == 3
    assert marker_removal_mp(3, SurpriseReadings(surprise_marker_mp_each=2)) == 6
    assert marker_removal_mp(3, kind=SurpriseKind.INVASION, soviet=True,
                             hexes_moved_closer=2) == 1
    assert marker_removal_mp(3, kind=SurpriseKind.LOCAL, soviet=True, hexes_moved_closer=2) == 3
    assert marker_removal_mp(3, kind=SurpriseKind.INVASION, soviet=False,
                             hexes_moved_closer=2) == 3
    with pytest.raises(InputError, match="markers"):
        marker_removal_mp(-1)


def test_sur16_air_combat_and_isolation_hooks():
    """Seed 000 §47.A.5.l, m."""
    assert air_combat_marker_drm(3, surprise_phase=True) == 3
    assert air_combat_marker_drm(3, surprise_phase=False) == 0
    assert isolation_at_each_combat(True, True)
    assert not isolation_at_each_combat(False, True)


def test_sur17_bonus_phase_restrictions():
    """Seed 000 §47.A.5 a, b, c, h, k, n, o."""
    for a in (SurpriseAction.AIR_TRANSFER, SurpriseAction.AIR_STAGING,
              SurpriseAction.STRATEGIC_BOMBING, SurpriseAction.RAIL, SurpriseAction.ENGINEERING):
        assert not surprise_action_allowed(a)
    assert surprise_action_allowed(SurpriseAction.AIR_DROP, ActionContext(hexes_from_front=10))
    assert not surprise_action_allowed(SurpriseAction.AIR_DROP,
                                       ActionContext(hexes_from_front=11))
    assert not surprise_action_allowed(SurpriseAction.AMPHIBIOUS,
                                       ActionContext(hexes_from_front=12))
    pinned = ActionContext(own_zoc_class=2, enemy_zoc_class_at_start=2)
    assert not surprise_action_allowed(SurpriseAction.GROUND_MOVE, pinned)
    assert surprise_action_allowed(SurpriseAction.ATTACK, pinned)       # may still attack
    assert surprise_action_allowed(SurpriseAction.GROUND_MOVE, ActionContext(
        own_zoc_class=3, enemy_zoc_class_at_start=2))
    assert surprise_action_allowed(SurpriseAction.GROUND_MOVE, ActionContext(
        own_zoc_class=2, enemy_zoc_class_at_start=2, enemy_zoc_screened=True))
    assert not surprise_action_allowed(SurpriseAction.SEA_HEXSIDE_CROSSING)
    assert surprise_action_allowed(SurpriseAction.SEA_HEXSIDE_CROSSING,
                                   ActionContext(narrow_strait=True))
    with pytest.raises(IllegalOrder, match=r"SUR-17.*47\.A\.5\.n"):
        verify_surprise_action(SurpriseAction.RAIL)
    with pytest.raises(InputError, match="hexes_from_front"):
        verify_surprise_action(SurpriseAction.AIR_DROP)


def test_sur17_transport_capacity_increase_costs_double():
    """Seed 000 §47.A.5.d: SP and SRP expenditures for NT/LB capacity increases are doubled."""
    assert transport_increase_cost(2, Fraction(1, 2)) == (4, 1)
    with pytest.raises(InputError, match="sp"):
        transport_increase_cost(-1, 0)


def test_sur18_reactions():
    """Seed 000 §47.A.5.e, j."""
    assert reaction_allowed(SurpriseKind.LOCAL, Reaction.AIR)
    assert reaction_allowed(SurpriseKind.LOCAL, Reaction.NAVAL)
    assert reaction_allowed(SurpriseKind.LOCAL, Reaction.RESERVE_MOVE, hexes_from_front=5)
    assert not reaction_allowed(SurpriseKind.LOCAL, Reaction.RESERVE_MOVE, hexes_from_front=6)
    assert not reaction_allowed(SurpriseKind.INVASION, Reaction.RESERVE_MOVE, hexes_from_front=1)
    assert not reaction_allowed(SurpriseKind.LOCAL, Reaction.AIR, initial=True)


def test_sur19_enemy_ground_support_halved():
    """Seed 000 §47.A.5.g: all enemy ground support missions have their TBFs halved."""
    assert ground_support_tbf(7) == 3
    assert ground_support_tbf(8) == 4
    assert ground_support_tbf(7, turn_has_surprise=False) == 7
    exact = SurpriseReadings(surprise_gs_halving_rounding=HalvingRounding.EXACT)
    assert ground_support_tbf(7, readings=exact) == Fraction(7, 2)
    ceil = SurpriseReadings(surprise_gs_halving_rounding=HalvingRounding.CEIL)
    assert ground_support_tbf(7, readings=ceil) == 4


def test_sur20_surprise_attack_supply():
    """Seed 000 §47.A.5.i: no supply expenditure except the weather's additional cost and other
    extra SP costs."""
    assert surprise_attack_sp(1) == 0
    assert surprise_attack_sp(1, 2) == 1
    assert surprise_attack_sp(Fraction(1, 2), 3, 1) == 2
    with pytest.raises(InputError, match="weather_multiplier"):
        surprise_attack_sp(1, 4)


def test_sur21_bonus_air_recovery():
    """Seed 000 §47.A.5.p."""
    f = [RecoveryCandidate(f"f{i}", AirType.F, AirStatus.INOPERATIVE) for i in range(4)]
    got = bonus_air_recovery(f[:3], phasing=True, phasing_air_used=3)
    assert [a.value for _, _, a in got.restored] == ["operative"] * 3 and got.sp_cost == 0
    with pytest.raises(IllegalOrder, match="SUR-21.*at most 3"):
        bonus_air_recovery(f, phasing=True, phasing_air_used=3)
    assert bonus_air_recovery(f, phasing=False, phasing_air_used=4).sp_cost == 2
    bomber = RecoveryCandidate("b", AirType.OTHER, AirStatus.INOPERATIVE)
    with pytest.raises(IllegalOrder, match="type F, D or A"):
        bonus_air_recovery([bomber], phasing=True, phasing_air_used=5)
    away = RecoveryCandidate("d", AirType.D, AirStatus.X, in_range_of_front=False)
    with pytest.raises(IllegalOrder, match="range"):
        bonus_air_recovery([away], phasing=True, phasing_air_used=5)
    # invasion: the phasing player may restore any inoperative air units, any number
    got = bonus_air_recovery([bomber, away, *f], phasing=True, phasing_air_used=0,
                             kind=SurpriseKind.INVASION)
    assert len(got.restored) == 6
    assert got.restored[1] == ("d", AirStatus.X, AirStatus.INOPERATIVE)


def test_success_table_clamps_modified_rolls():
    assert success_result(-2) is Result.F_STAR
    assert success_result(11) is Result.S_STAR


def test_sur21_bonus_supply_judgement_lists_moved_hqs_and_front_units():
    """Seed 000 §47.A.5.p: "any HQ that moved recalculates its supply range. Both player's then
    judge supply normally for all units within the surprise front"."""
    j = bonus_supply_judgement(["hq_4pz"], ["pz1", "rifle7"])
    assert j.hqs_recompute_range == ("hq_4pz",)
    assert j.units_to_judge == ("pz1", "rifle7")
    assert j.to_json() == {"hqs_recompute_range": ["hq_4pz"], "units_to_judge": ["pz1", "rifle7"]}
