"""Europa revised combat: armor DRM (EUR-02), defensive artillery (EUR-08), procedure and
odds (EUR-09), revised terrain (EUR-10), result codes (EUR-15).

Seed: 001_20f3acfdeb9925e5.txt ("New armor advantage procedure", "Defensive artillery",
"The new combat procedure...", "Terrain effects on combat", "AR means...").
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grognard.core.errors import InputError
from grognard.core.units import SupplyState
from grognard.europa.combat.attack import (
    ArmorOddsRounding,
    BelowLowest,
    Combatant,
    CombatReadings,
    attack_from_json,
)
from grognard.europa.combat.crt import (
    CrtResult,
    apply_result,
    armor_drm,
    column_ratio,
    combat_setup,
    crt_result,
    odds_column,
    resolve,
)
from grognard.europa.combat.crt_analysis import TWO_D6, attack_odds
from grognard.europa.combat.strength import (
    armor_strengths,
    attack_strength,
    defense_strength,
    defensive_artillery,
)


def unit(uid, attack=0, defense=0, **kw):
    return {"id": uid, "attack": attack, "defense": defense, **kw}


def pz(uid="pz", attack=9, defense=10, **kw):
    return unit(uid, attack, defense, type="armor", armor="full", division=True,
                cadre_attack=3, cadre_defense=3, **kw)


def inf(uid="inf", attack=6, defense=6, **kw):
    return unit(uid, attack, defense, division=True, **kw)


def make(attackers, defenders, **kw):
    return attack_from_json({"attackers": attackers, "defenders": defenders, **kw})


# --- EUR-02 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "d", "drm"), [
    (9, 3, 1), (5, 2, 1), (4, 2, 0), (5, 6, 0), (4, 6, -1), (4, 0, 1), (0, 3, -1), (0, 0, 0)])
def test_eur_tv07_armor_drm_vectors(a, d, drm):
    """RULES.md EUR-TV07: armor A:D = 9:3, 5:2, 4:2, 5:6, 4:6, 4:0, 0:3, 0:0 ->
    +1, +1, 0, 0, -1, +1, -1, 0 ("Calculate the armor only odds ... rounding normally")."""
    assert armor_drm(F(a), F(d)) == drm


def test_eur02_defender_favour_rounding_reading():
    """EUR-02 config armor_odds_rounding: DEFENDER_FAVOUR floors 5:2 to 2-1 (no +1)."""
    assert armor_drm(F(5), F(2), ArmorOddsRounding.DEFENDER_FAVOUR) == 0
    assert armor_drm(F(5), F(6), ArmorOddsRounding.DEFENDER_FAVOUR) == -1


def test_eur02_limited_armor_counts_half_and_at_only_against_armor():
    """EUR-02: 100% full armor, 50% limited; defenders add AT units only if the attacker has
    any armor at all."""
    lim = unit("lim", 6, 6, type="mechanized", armor="limited", division=True)
    at = unit("at", 2, 4, type="antitank", armor="at")
    a = make([pz(), lim], [inf("d"), at])
    s = armor_strengths(a)
    assert (s.attacker, s.defender) == (F(12), F(4))
    b = make([inf("a", 10, 10)], [inf("d"), at])
    assert armor_strengths(b).defender == 0


def test_eur02_armor_drm_ignored_in_aec_negating_terrain():
    """EUR-02/EUR-10: "All the terrain types that prevent AEC on the original ignore armor
    odds" - the same attack earns +1 in clear and 0 in rough (generic TEC stand-in)."""
    clear = combat_setup(make([pz()], [inf("d")], terrain="clear"))
    rough = combat_setup(make([pz()], [inf("d")], terrain="rough"))
    assert dict(clear.drm_breakdown)["armor"] == 1
    assert dict(rough.drm_breakdown)["armor"] == 0


def test_eur02_mud_does_not_cancel_armor_drm():
    """EUR-02: unlike 3R (TR-36) mud weather does not cancel the armor DRM here."""
    s = combat_setup(make([pz()], [inf("d")], weather="mud"))
    assert dict(s.drm_breakdown)["armor"] == 1


def test_eur02_defender_armor_advantage_gives_minus_one():
    """EUR-02: armor-only odds below 1-1 -> defender armor advantage, -1 DRM."""
    s = combat_setup(make([inf("a", 20, 20), unit("lim", 4, 4, armor="limited")],
                          [pz("dpz")]))
    assert (s.armor_attacker, s.armor_defender) == (F(2), F(10))
    assert dict(s.drm_breakdown)["armor"] == -1


# --- EUR-08 -------------------------------------------------------------------------------------


def test_eur08_highest_in_supply_artillery_full_others_one():
    """EUR-08 ("Defensive artillery"): the highest in-supply artillery adds its full defense,
    every other artillery unit 1; ignore the original non-artillery RE count."""
    arty = [Combatant("a1", defense=4, type="artillery"),
            Combatant("a2", defense=6, type="artillery"),
            Combatant("a3", defense=9, type="artillery", supply=SupplyState.OUT)]
    d = defensive_artillery(arty)
    assert d.best == "a2" and d.strength == F(6 + 1 + 1) and d.support


def test_eur08_artillery_alone_defends_and_gives_support():
    """EUR-08: "No other units need be present"; in-supply artillery gives Support, so an
    unsupported unit in the hex is not halved."""
    a = make([inf("a", 12)], [unit("art", 2, 5, type="artillery")])
    assert defense_strength(a) == 5
    b = make([inf("a", 12)], [unit("u", 0, 4, unsupported=True),
                              unit("art", 2, 5, type="artillery")])
    assert defense_strength(b) == 9
    c = make([inf("a", 12)], [unit("u", 0, 4, unsupported=True)])
    assert defense_strength(c) == 2


def test_eur08_defensive_supply_artillery_gives_one_and_no_support():
    """EUR-08/EUR-36: artillery in defensive supply provides only 1 defense strength."""
    d = defensive_artillery([Combatant("a", defense=5, type="artillery",
                                       supply=SupplyState.DEFENSIVE)])
    assert (d.strength, d.support) == (F(1), False)


# --- EUR-09 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "d", "col"), [
    (F(17), F(6), "2-1"), (F(3), F(2), "3-2"), (F(29), F(20), "1-1"), (F(10), F(12), "1-2"),
    (F(1), F(3), "1-3"), (F(1), F(4), "1-4"), (F(70), F(10), "7-1"), (F(100), F(3), "7-1"),
    (F(5), F(0), "7-1")])
def test_eur09_odds_rounded_in_defender_favour_and_capped_at_7_1(a, d, col):
    """EUR-09: odds as in original Europa (rounded for the defender); above 7-1 uses 7-1."""
    assert odds_column(a, d).column == col


def test_eur09_below_1_4_attacker_eliminated_without_roll():
    """EUR-09: "below 1-4 is attacker eliminated" - no roll, the whole attacker lost."""
    a = make([inf("a", 1, 1)], [inf("d", 6, 6)])
    out = resolve(a, 12)
    assert out.result == CrtResult.AE and out.roll is None
    assert out.effect.attacker_eliminated and out.effect.attacker_loss == 1


def test_eur09_terrain_shift_applies_before_the_cap():
    """EUR-09 reading: left shifts come after the odds and before the 7-1 cap: 9-1 with one
    left shift is 8-1, which still uses 7-1; 7-1 shifted is 6-1."""
    assert odds_column(F(9), F(1), left_shifts=1).column == "7-1"
    assert odds_column(F(7), F(1), left_shifts=1).column == "6-1"


def test_eur09_shift_below_1_4_eliminates_or_clamps():
    """eu_shift_below_1_4: ELIMINATE (default) or CLAMP to 1-4."""
    assert odds_column(F(1), F(4), left_shifts=1).eliminated
    assert odds_column(F(1), F(4), 1, below=BelowLowest.CLAMP).column == "1-4"


def test_eur09_modified_roll_clamped_to_2_12():
    """EUR-09: "Adjusted rolls below 2 are 2 and above 12 are 12"."""
    assert crt_result("1-1", -1, 2) == crt_result("1-1", 0, 2)
    assert crt_result("1-1", 2, 12) == crt_result("1-1", 0, 12) == CrtResult.D2
    assert crt_result("7-1", -1, 3) == CrtResult.A1  # row 2 of 7-1


def test_eur09_drms_sum_bombardment_and_armor():
    """EUR-09 step 1-4: the air bombardment +1 and the armor +1 add up to +2."""
    a = make([pz()], [inf("d")], bombardment=1)
    out = resolve(a, 7)
    assert out.setup.drm == 2 and out.modified_roll == 9
    assert out.result == crt_result(out.setup.odds.column, 0, 9)


def test_eur09_resolve_is_pure_and_reads_the_table():
    """EUR-09: the same inputs and roll give the same outcome; the result is the CRT cell."""
    a = make([inf("a", 18)], [inf("d", 6, 6)])
    assert resolve(a, 7) == resolve(a, 7)
    assert resolve(a, 7).result == CrtResult.DR  # 3-1, roll 7


# --- EUR-10 -------------------------------------------------------------------------------------


def test_eur10_river_halves_only_armor_and_mechanized():
    """EUR-10: water barriers halve armor and mechanized AFs attacking across; infantry keeps
    its full attack."""
    a = make([pz(), inf("a", 6)], [inf("d")], hexsides=["river"])
    assert attack_strength(a) == F(9, 2) + 6


def test_eur10_major_river_halves_all():
    """EUR-10: "major rivers halve all AFs attacking across instead"."""
    a = make([pz(), inf("a", 6)], [inf("d")], hexsides=["major_river"])
    assert attack_strength(a) == F(9, 2) + 3


def test_eur10_per_unit_hexsides_override():
    """Attackers from different hexes cross different hexsides."""
    a = make([pz(hexsides=[]), inf("a", 6, hexsides=["major_river"])], [inf("d")],
             hexsides=["river"])
    assert attack_strength(a) == 9 + 3


def test_eur10_plus_one_and_plus_two_terrain_and_left_shift():
    """EUR-10: -1 terrain -> +1 defense; -2 terrain -> +2 defense and one left shift."""
    woods = combat_setup(make([inf("a", 14)], [inf("d", 6, 6)], terrain="woods"))
    assert woods.defense_strength == 7 and woods.odds.column == "2-1"
    two = combat_setup(make([inf("a", 14)], [inf("d", 6, 6), inf("e", 6, 6)], terrain="woods"))
    assert two.defense_strength == 13  # reading: +1 per hex, not per unit
    mtn = combat_setup(make([inf("a", 24)], [inf("d", 6, 6)], terrain="mountain"))
    assert mtn.defense_strength == 8 and mtn.odds.odds == "3-1"
    assert mtn.odds.column == "2-1" and mtn.shifts[0][1] == -1


def test_eur10_artillery_does_not_add_to_attack():
    """EUR-03/EUR-10: "Artillery factors only attack as bombardment support"."""
    a = make([inf("a", 6), unit("art", 8, 4, type="artillery")], [inf("d")])
    assert attack_strength(a) == 6


# --- EUR-15 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("code", "att", "dfn", "ar", "dr", "adv"), [
    ("0", 0, 0, 0, 0, False), ("AR", 0, 0, 1, 0, False), ("DR", 0, 0, 0, 2, True),
    ("X1", 4, 4, 0, 0, False), ("A1", 4, 0, 0, 0, False), ("A2", 8, 0, 0, 0, False),
    ("D1", 0, 4, 0, 0, False), ("D2", 0, 8, 0, 0, False)])
def test_eur15_result_codes(code, att, dfn, ar, dr, adv):
    """EUR-15 ("AR means the attacker must retreat 1 hex, DR ... 2 hexes and the attacker may
    advance ... X1 both sides lose 50%"); "1" = L, "2" = 2L (here L = 4)."""
    e = apply_result(CrtResult(code), F(4))
    assert (e.attacker_loss, e.defender_loss, e.attacker_retreat, e.defender_retreat,
            e.attacker_may_advance) == (att, dfn, ar, dr, adv)


def test_eur15_top_column_keeps_attacker_loss():
    """EUR-15/section 3d: losses remain possible at 7-1 on natural rolls."""
    assert any(crt_result("7-1", 0, r) in (CrtResult.A1, CrtResult.X1) for r in range(2, 13))


# --- input ---------------------------------------------------------------------------------------


def test_bad_input_names_the_field():
    with pytest.raises(InputError, match="terrain"):
        make([inf("a")], [inf("d")], terrain="lava")
    with pytest.raises(InputError, match="attack"):
        make([inf("a", -3)], [inf("d")])
    with pytest.raises(InputError, match="hexsides"):
        make([inf("a")], [inf("d")], hexsides=["moat"])
    with pytest.raises(InputError, match="armor"):
        make([unit("a", 1, 1, armor="heavy")], [inf("d")])
    with pytest.raises(InputError, match="readings.nope"):
        make([inf("a")], [inf("d")], readings={"nope": 1})


def test_readings_are_passed_with_the_attack():
    a = make([inf("a")], [inf("d")], readings={"below_lowest_column": "clamp"})
    assert a.readings == CombatReadings(below_lowest_column=BelowLowest.CLAMP)


# --- properties ---------------------------------------------------------------------------------

TERRAINS = ["clear", "woods", "rough", "mountain", "swamp", "wooded_rough"]


@settings(max_examples=60, deadline=None)
@given(att=st.lists(st.integers(0, 15), min_size=1, max_size=4),
       dfn=st.lists(st.integers(0, 12), min_size=1, max_size=3),
       terrain=st.sampled_from(TERRAINS), river=st.booleans(), bomb=st.integers(0, 2),
       armored=st.booleans())
def test_eur09_property_exact_odds_are_resolve_mapped(att, dfn, terrain, river, bomb, armored):
    """For any attack: the exact odds sum to 1 and equal resolve mapped over the 2D6 roll;
    losses are never negative; more attack strength never gives a lower column."""
    attackers = [unit(f"a{i}", x, x, **({"type": "armor", "armor": "full"} if armored and i == 0
                                         else {})) for i, x in enumerate(att)]
    defenders = [unit(f"d{i}", 0, x) for i, x in enumerate(dfn)]
    a = make(attackers, defenders, terrain=terrain, bombardment=bomb,
             hexsides=["river"] if river else [])
    o = attack_odds(a)
    assert sum(o.probabilities.values()) == 1
    assert o.expected_attacker_loss >= 0 and o.expected_defender_loss >= 0
    direct: dict[CrtResult, F] = {}
    for roll, p in TWO_D6.probabilities().items():
        r = resolve(a, roll).result
        direct[r] = direct.get(r, F(0)) + p
    assert direct == o.probabilities
    stronger = make([*attackers, unit("extra", 5, 5)], defenders, terrain=terrain,
                    bombardment=bomb, hexsides=["river"] if river else [])
    s1, s2 = combat_setup(a), combat_setup(stronger)
    if s1.odds.column is not None:
        assert s2.odds.column is not None
        assert column_ratio(s2.odds.column) >= column_ratio(s1.odds.column)
