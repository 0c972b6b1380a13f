"""Europa revised bombardment (EUR-03..EUR-07) and the barrage step (EUR-29).

Seed: 001_20f3acfdeb9925e5.txt ("The 2D6 bombardment table is used...", "Bombardment table
shifts -", "Results on the table are 1s or 2s", "For ground support and artillery vs units",
"You may never earn more than a single +1 DRM", "Revised Sequence of Play").
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.europa.combat.attack import Combatant, attack_from_json
from grognard.europa.combat.bombardment import (
    BombardmentLog,
    Category,
    apply_bombardment,
    apply_step_loss,
    barrage,
    barrage_strength,
    bombard,
    bombardment_column,
    bombardment_drm,
    bombardment_hits,
    bombardment_shift,
    can_bombard,
    combined_bombardment_drm,
    facility_hits,
    resolve_bombardment,
    step_loss_candidates,
)
from grognard.europa.combat.crt import combat_setup, resolve
from grognard.europa.combat.strength import attack_strength
from grognard.europa.combat.terrain import hex_effects


def make(attackers, defenders, **kw):
    return attack_from_json({"attackers": attackers, "defenders": defenders, **kw})


INF = {"id": "inf", "attack": 12, "defense": 12, "division": True}
ART = {"id": "art", "attack": 12, "defense": 4, "type": "artillery"}
DEF = [{"id": "d1", "attack": 4, "defense": 6, "division": True, "cadre_attack": 1,
        "cadre_defense": 2},
       {"id": "d2", "attack": 4, "defense": 6, "division": True}]


# --- EUR-03 / EUR-29 -----------------------------------------------------------------------------


def test_eur03_artillery_fires_its_attack_factor_not_in_the_attack():
    """EUR-03: "Artillery units use their attack factor rating for this; they do not
    contribute their attack factor to the combat strength of the attack"."""
    a = make([INF, ART, dict(ART, id="art2", attack=5)], DEF)
    assert barrage_strength(a) == 17
    assert attack_strength(a) == 12


def test_eur29_barrage_needs_a_roll_and_precedes_the_combat():
    """EUR-29: each attack with attacking artillery is preceded by a barrage step; the
    barrage's +1 then applies to that combat."""
    a = make([INF, ART], DEF)
    with pytest.raises(InputError, match="barrage_roll"):
        combat_setup(a)
    hit = combat_setup(a, barrage_roll=9)  # 12 strength, 6 RE: column 12-16, roll 9 -> "1"
    assert hit.barrage.outcome.column == "12-16" and hit.barrage.outcome.hits == 1
    assert dict(hit.drm_breakdown)["bombardment"] == 1
    miss = combat_setup(a, barrage_roll=4)
    assert dict(miss.drm_breakdown)["bombardment"] == 0


def test_eur29_barrage_two_reduces_a_defender_before_the_odds():
    """EUR-06/EUR-29: a "2" reduces one division before the combat is computed."""
    a = make([INF, ART], DEF, barrage_target="d1")
    s = combat_setup(a, barrage_roll=12)
    assert s.barrage.step_loss.unit == "d1" and s.barrage.step_loss.action == "reduce"
    assert s.defense_strength == 2 + 6


def test_eur29_no_barrage_by_defensive_supply_artillery_or_in_overruns():
    """EUR-36: artillery in defensive supply cannot bombard; EUR-18: overruns get none."""
    assert barrage_strength(make([INF, dict(ART, supply="defensive")], DEF)) == 0
    assert barrage_strength(make([INF, ART], DEF, overrun=True)) == 0


def test_eur18_overrun_takes_no_air_support_drm():
    """EUR-18, seed 001 (Overruns): "Overrun attacks calculate armor odds and advantage
    normally, but may not use air support or artillery bombardment - those only happen for the
    combat phase at their scheduled times." An air-phase result must not give an overrun +1."""
    raw = {"attackers": [{"id": "x", "attack": 10}], "defenders": [{"id": "d", "defense": 5}],
           "bombardment": 1, "overrun": True}
    with pytest.raises(IllegalOrder, match="EUR-18"):
        attack_from_json(raw)
    raw["overrun"] = False
    assert combat_setup(attack_from_json(raw)).drm == 1


# --- EUR-04 -------------------------------------------------------------------------------------


def test_eur04_re_shifts():
    """EUR-04: fewer than 3 REs -> one column left; more than 6 -> one right; 3..6 none."""
    assert bombardment_column(15, F(2)) == "8-11"
    assert bombardment_column(15, F(3)) == "12-16"
    assert bombardment_column(15, F(6)) == "12-16"
    assert bombardment_column(15, F(13, 2)) == "17-23"


def test_eur04_terrain_shift_not_cumulative_but_combines_with_re_shift():
    """EUR-04: fort, mountain, major city shift one left ("any of those, not cumulative");
    reading: it combines with the RE shift."""
    e = hex_effects("mountain", fortified=True, major_city=True)
    assert e.bombard_left == 1
    assert bombardment_shift(F(2), True) == -2
    assert bombardment_column(15, F(2), True) == "5-7"


def test_eur04_shift_past_the_end_stays_on_the_end_column():
    """TABLES.md section 2: end clamping."""
    assert bombardment_column(1, F(1), True) == "1-2"
    assert bombardment_column(80, F(9)) == "60+"


def test_eur04_night_and_anti_shipping_drms():
    """EUR-04: night attacks and AS vs ships get -1/+1 as on the original table (stand-in)."""
    assert bombardment_drm(night=True) == -1
    assert bombardment_drm(as_vs_ships=True) == 1
    assert bombardment_drm() == 0
    assert bombardment_hits("12-16", -1, 11) == 1 and bombardment_hits("12-16", 0, 11) == 2


def test_eur04_no_support_against_swamp():
    """EUR-04/EUR-10: bombardment support (the +1) cannot be earned against swamp hexes."""
    a = make([INF, ART], DEF, terrain="swamp", bombardment=1)
    s = combat_setup(a, barrage_roll=12)
    assert s.barrage.outcome.hits == 2
    assert dict(s.drm_breakdown)["bombardment"] == 0


def test_bombardment_strength_must_be_positive():
    with pytest.raises(InputError, match="strength"):
        bombardment_column(0, F(4))


# --- EUR-05 / EUR-06 -----------------------------------------------------------------------------


def test_eur05_two_hits_possible():
    """EUR-05: "2 are now sometimes possible in the same attack"."""
    assert facility_hits(bombardment_hits("60+", 0, 8)) == 2
    assert bombardment_hits("1-2", 0, 9) == 0


def test_eur06_one_earns_drm_two_also_step_loss():
    """EUR-06: any "1" earns +1 DRM; a "2" does that and also reduces a unit."""
    e = hex_effects("clear")
    one = resolve_bombardment(Category.AIR, 15, F(4), e, roll=7)
    two = resolve_bombardment(Category.AIR, 15, F(4), e, roll=11)
    assert (one.hits, one.combat_drm) == (1, 1)
    assert (two.hits, two.combat_drm) == (2, 1)


def test_eur06_soft_division_first():
    """EUR-06: the firing player must choose a soft unit if possible; a division before a
    non-divisional unit."""
    units = [Combatant("pz", division=True, armor="full", type="armor", cadre_defense=2),
             Combatant("inf", division=True, cadre_defense=1), Combatant("bde")]
    assert [u.id for u in step_loss_candidates(units)] == ["inf"]
    with pytest.raises(IllegalOrder, match="EUR-06"):
        apply_step_loss(units, "pz")
    with pytest.raises(IllegalOrder, match="EUR-06"):
        apply_step_loss(units, "bde")
    after, rec = apply_step_loss(units, "inf")
    assert rec.action == "reduce" and [u.cadre for u in after] == [False, True, False]


def test_eur06_armor_division_when_it_is_the_only_full_division():
    """EUR-06: he may choose armor "to have a full division to reduce"."""
    units = [Combatant("pz", division=True, armor="full", type="armor", cadre_defense=2),
             Combatant("bde")]
    assert [u.id for u in step_loss_candidates(units)] == ["pz"]
    only_nondiv = [Combatant("tank", armor="full", type="armor"), Combatant("bde")]
    assert [u.id for u in step_loss_candidates(only_nondiv)] == ["bde"]
    armor_only = [Combatant("tank", armor="full", type="armor")]
    assert [u.id for u in step_loss_candidates(armor_only)] == ["tank"]


def test_eur06_barrage_target_checked():
    a = make([INF, ART], [dict(DEF[0], type="armor", armor="full", id="dpz"), DEF[1]],
             barrage_target="dpz")
    with pytest.raises(IllegalOrder, match="EUR-06"):
        barrage(a, 12)


# --- EUR-07 -------------------------------------------------------------------------------------


def test_eur07_at_most_one_drm_air_and_artillery_combined():
    """EUR-07: "You may never earn more than a single +1 DRM for bombardment support"."""
    assert combined_bombardment_drm([1, 1]) == 1
    assert combined_bombardment_drm([2, 2]) == 1
    assert combined_bombardment_drm([0, 0]) == 0
    a = make([INF, ART], DEF, bombardment=1)
    assert dict(combat_setup(a, barrage_roll=9).drm_breakdown)["bombardment"] == 1


def test_eur07_later_fire_may_still_seek_a_two():
    """EUR-07: "You could fire afterward trying for a '2' result" - the step loss applies even
    when the air phase already earned the +1."""
    a = make([INF, ART], DEF, bombardment=1, barrage_target="d1")
    s = combat_setup(a, barrage_roll=12)
    assert s.barrage.step_loss is not None and dict(s.drm_breakdown)["bombardment"] == 1


def test_eur07_once_by_air_once_by_artillery_per_player_turn():
    """EUR-07: "the maximum number of times a given hex could be bombarded in a game turn is
    2, once by air in the air phase, and once by adjacent attacking artillery"."""
    log = bombard(BombardmentLog(), "0412", Category.AIR)
    assert not can_bombard(log, "0412", Category.AIR)
    assert can_bombard(log, "0412", Category.ARTILLERY)
    log = bombard(log, "0412", Category.ARTILLERY)
    with pytest.raises(IllegalOrder, match="EUR-07"):
        bombard(log, "0412", Category.ARTILLERY)
    assert can_bombard(log, "0413", Category.AIR)


def test_eur06_air_phase_result_applied_to_the_hex():
    """EUR-06: an air-phase "2" against a hex reduces a soft division and earns the +1; a "1"
    earns the +1 only; against swamp no DRM (EUR-10)."""
    units = [Combatant("inf", defense=6, division=True, cadre_defense=2), Combatant("bde")]
    drm, after, loss = apply_bombardment(2, units)
    assert drm == 1 and loss.unit == "inf" and after[0].cadre
    assert apply_bombardment(1, units) == (1, tuple(units), None)
    assert apply_bombardment(1, units, drm_allowed=False)[0] == 0


def test_eur03_artillery_alone_cannot_attack():
    """EUR-03/EUR-10: artillery factors only attack as bombardment support."""
    a = make([ART], DEF)
    with pytest.raises(IllegalOrder, match="EUR-03"):
        combat_setup(a, barrage_roll=7)


def test_eur29_resolve_with_barrage_is_deterministic():
    a = make([INF, ART], DEF)
    assert resolve(a, 7, 9) == resolve(a, 7, 9)
