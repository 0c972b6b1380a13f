"""Europa revised losses: calibration (EUR-11), allocation (EUR-12), credit (EUR-13),
replacements for the excess (EUR-14).

Seed: 001_20f3acfdeb9925e5.txt ("All loses are calibrated...", "Armor loss requirement",
"Full strength division reductions", "Replacements for excess removals", and the two
examples after it).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.europa.combat.attack import (
    CombatReadings,
    ExcessMixedArmor,
    Series,
    Side,
    attack_from_json,
)
from grognard.europa.combat.crt import combat_setup
from grognard.europa.combat.losses import (
    Action,
    allocate_losses,
    can_allocate,
    credit,
    excess_replacements,
    loss_basis,
    loss_requirement,
    loss_unit,
    weaker_side,
)


def make(attackers, defenders, **kw):
    return attack_from_json({"attackers": attackers, "defenders": defenders, **kw})


PZ = {"id": "pz", "attack": 9, "defense": 10, "type": "armor", "armor": "full",
      "division": True, "cadre_attack": 3, "cadre_defense": 3, "nationality": "german"}
RIFLE = {"id": "rifle", "attack": 4, "defense": 6, "division": True, "nationality": "soviet"}


# --- the seed's examples and RULES.md test vectors ---------------------------------------------


def test_eur_tv01_western_desert_panzer_division():
    """001_20f3acfdeb9925e5.txt, "Replacements for excess removals", first example: "in Western
    Desert, the Germans fulfill a loss requirement of 2 strength points by reducing a full
    strength 9-10 panzer division to a cadre. They have exceeded their loss requirement by 7.
    They receive 2 replacement RE points as compensation, added to the German armor
    replacement pool." (EUR-TV01)"""
    a = make([PZ], [{"id": "d", "attack": 2, "defense": 3}], series="re")
    alloc = allocate_losses(a, Side.ATTACKER, 2, ["pz"])
    assert alloc.credited == 9
    assert alloc.excess == 7
    assert (alloc.replacements.series, alloc.replacements.armor,
            alloc.replacements.infantry) == (Series.RE, 2, 0)
    assert alloc.units_after[0].cadre and alloc.units_after[0].attack == 3


def test_eur_tv02_fire_in_the_east_rifle_division():
    """001_20f3acfdeb9925e5.txt, second example: "in Fire in the East, the Russians must
    fulfill at 2 SP loss requirement and remove a 4-6 rifle division to do so. They add 1
    factor to their next infantry replacements (4-2 is the overfulfillment, 2, minus 1 per
    occasion, yielding 1 back here)." (EUR-TV02)"""
    a = make([RIFLE], [{"id": "d", "attack": 2, "defense": 3}], series="factor")
    alloc = allocate_losses(a, Side.ATTACKER, 2, ["rifle"])
    assert alloc.credited == 4 and alloc.excess == 2
    assert (alloc.replacements.series, alloc.replacements.infantry,
            alloc.replacements.armor) == (Series.FACTOR, 1, 0)
    assert alloc.units_after == ()  # one-step division removed


def test_eur_tv01b_loss_requirements_half_and_whole():
    """RULES.md EUR-TV01b: weaker side 9 SP; "1" and "2" results -> 4 1/2 and 9 SP."""
    assert loss_requirement(F(9), 1) == F(9, 2)
    assert loss_requirement(F(9), 2) == 9


def test_eur_tv01b_allocation_must_reach_four_and_a_half():
    """EUR-TV01b: an allocation must reach >= 4 1/2: 4 is short, 6 is enough."""
    a = make([{"id": "x", "attack": 30}],
             [{"id": "s4", "defense": 4}, {"id": "s6", "defense": 6}])
    with pytest.raises(IllegalOrder, match="EUR-12.*short"):
        allocate_losses(a, Side.DEFENDER, F(9, 2), ["s4"])
    assert allocate_losses(a, Side.DEFENDER, F(9, 2), ["s6"]).excess == F(3, 2)


def test_eur_tv10_river_1_2_calibrated_on_attacker_printed_strength():
    """RULES.md EUR-TV10: attacker printed 12 AF, halved to 6 across a major river, vs
    defender 12 -> 1-2 column, L = 6 (50% of the attacker's printed 12). Seed: "if an attack
    across a river goes in at 1-2, the attacker's printed SP strength would be used"."""
    a = make([{"id": "a", "attack": 12, "defense": 12}], [{"id": "d", "defense": 12}],
             hexsides=["major_river"])
    s = combat_setup(a)
    assert s.attack_strength == 6 and s.odds.column == "1-2"
    assert s.weaker == Side.ATTACKER and s.loss_unit == 6


# --- EUR-11 ------------------------------------------------------------------------------------


def test_eur11_weaker_side_fixed_by_column():
    """EUR-11: defender at 1-1 and upward, attacker at 1-2 and below."""
    assert [weaker_side(c) for c in ("1-4", "1-2", "1-1", "3-2", "7-1")] == [
        Side.ATTACKER, Side.ATTACKER, Side.DEFENDER, Side.DEFENDER, Side.DEFENDER]


def test_eur11_basis_ignores_terrain_but_counts_supply_and_fort():
    """EUR-11: terrain adds, rivers, armor and DRMs do not count; supply does; fortified and
    major-city defenders are increased (loss_basis_fort_multiplier, default x2)."""
    base = [{"id": "d", "defense": 6}, {"id": "o", "defense": 4, "supply": "out"}]
    half = {"oos_defense": "half"}
    a = make([{"id": "a", "attack": 40}], base, terrain="mountain", readings=half)
    assert loss_basis(a, Side.DEFENDER) == 8
    f = make([{"id": "a", "attack": 40}], base, fortified=True, readings=half)
    assert loss_basis(f, Side.DEFENDER) == 16
    r = make([{"id": "a", "attack": 40}], base, fortified=True,
             readings={"loss_basis_fort_multiplier": 3, **half})
    assert loss_basis(r, Side.DEFENDER) == 24
    assert loss_unit(a, "3-1") == 4


def test_eur11_eur30_marked_out_of_supply_defends_at_full_strength_by_default():
    """EUR-30/EUR-36 with EUR-11: a unit marked out of supply in its own supply phase defends in
    the enemy's turn as in its first turn out of supply in the original rules. 001 "Defensive
    supply is the same as being out of supply the first turn in the original rules, meaning
    halved attack and motorized unit movement allowance, but full defense strength." So the
    default reading (``oos_defense = full``) keeps its defense; ``half`` is the switch."""
    base = [{"id": "d", "defense": 6}, {"id": "o", "defense": 4, "supply": "out"}]
    assert loss_basis(make([{"id": "a", "attack": 40}], base), Side.DEFENDER) == 10
    halved = make([{"id": "a", "attack": 40}], base, readings={"oos_defense": "half"})
    assert loss_basis(halved, Side.DEFENDER) == 8


def test_eur11_attacker_out_of_supply_halved_and_artillery_excluded():
    """EUR-11: attacker basis = printed attack reduced for supply; attacking artillery adds no
    attack factors and is left out by default."""
    a = make([{"id": "a", "attack": 10, "supply": "out"}, {"id": "b", "attack": 4},
              {"id": "art", "attack": 8, "type": "artillery"}], [{"id": "d", "defense": 30}])
    assert loss_basis(a, Side.ATTACKER) == 9
    assert loss_unit(a, "1-2") == F(9, 2)


# --- EUR-12 ------------------------------------------------------------------------------------


def test_eur12_attacker_armor_first_when_defender_had_at():
    """EUR-12: attacker has armor and the defender had armor or AT -> the first attacking unit
    reduced must be armor-capable."""
    a = make([PZ, {"id": "inf", "attack": 6, "division": True}],
             [{"id": "d", "defense": 6}, {"id": "at", "defense": 2, "armor": "at"}])
    with pytest.raises(IllegalOrder, match="EUR-12.*inf"):
        allocate_losses(a, Side.ATTACKER, 3, ["inf"])
    assert allocate_losses(a, Side.ATTACKER, 3, ["pz"]).credited == 9


@pytest.mark.parametrize("where", [{"fortified": True}, {"major_city": True}])
def test_eur12_attacker_armor_first_in_fort_or_major_city(where):
    a = make([PZ, {"id": "inf", "attack": 6, "division": True}], [{"id": "d", "defense": 6}],
             **where)
    assert not can_allocate(a, Side.ATTACKER, 3, ["inf"])


def test_eur12_attacker_free_choice_otherwise():
    """EUR-12: without those conditions the losing player chooses freely."""
    a = make([PZ, {"id": "inf", "attack": 6, "division": True}], [{"id": "d", "defense": 6}])
    assert can_allocate(a, Side.ATTACKER, 3, ["inf"])


def test_eur12_limited_unit_satisfies_armor_first():
    """EUR-12: "armor capable unit (including 50% contribution types)"."""
    lim = {"id": "lim", "attack": 5, "armor": "limited", "division": True}
    a = make([PZ, lim, {"id": "inf", "attack": 6}], [{"id": "at", "defense": 2, "armor": "at"}])
    assert can_allocate(a, Side.ATTACKER, 3, ["lim"])


def test_eur12_defender_armor_first_only_where_terrain_allows_shift():
    """EUR-12: defender armor first if the defender has armor, the terrain allowed a possible
    armor shift, and the attacker has armor; not in AEC-negating terrain."""
    d = [{"id": "dpz", "defense": 8, "armor": "full", "type": "armor", "division": True,
          "cadre_defense": 2}, {"id": "dinf", "defense": 6}]
    clear = make([PZ], d)
    with pytest.raises(IllegalOrder, match="EUR-12.*dinf"):
        allocate_losses(clear, Side.DEFENDER, 4, ["dinf"])
    assert can_allocate(clear, Side.DEFENDER, 4, ["dpz"])
    rough = make([PZ], d, terrain="rough")
    assert can_allocate(rough, Side.DEFENDER, 4, ["dinf"])
    no_att_armor = make([{"id": "a", "attack": 20}], d)
    assert can_allocate(no_att_armor, Side.DEFENDER, 4, ["dinf"])


def test_eur12_units_after_requirement_met_are_rejected():
    """Reading allow_surplus_units=False: every step must still be needed."""
    a = make([{"id": "a", "attack": 30}], [{"id": "x", "defense": 6}, {"id": "y", "defense": 6}])
    with pytest.raises(IllegalOrder, match="y is not needed"):
        allocate_losses(a, Side.DEFENDER, 3, ["x", "y"])
    ok = make([{"id": "a", "attack": 30}], [{"id": "x", "defense": 6}, {"id": "y", "defense": 6}],
              readings={"allow_surplus_units": True})
    assert allocate_losses(ok, Side.DEFENDER, 3, ["x", "y"]).credited == 12


def test_eur12_unit_not_in_attack_is_bad_input():
    a = make([PZ], [{"id": "d", "defense": 6}])
    with pytest.raises(InputError, match="units"):
        allocate_losses(a, Side.ATTACKER, 2, ["ghost"])


# --- EUR-13 ------------------------------------------------------------------------------------


def test_eur13_reduction_credits_full_value_by_role():
    """EUR-13: a full-strength division reduced to cadre credits its full value (attack factor
    attacking, defense factor defending), not the change in strength."""
    a = make([PZ], [{"id": "d", "defense": 6}])
    u = a.attackers[0]
    assert credit(u, Side.ATTACKER, Action.REDUCE) == 9
    assert credit(u, Side.DEFENDER, Action.REDUCE) == 10


def test_eur13_cadre_then_elimination_credits_cadre_strength():
    """EUR-13 reading: naming a division twice reduces it, then eliminates the cadre (which
    credits the cadre's listed strength)."""
    a = make([{"id": "a", "attack": 40}], [dict(PZ, id="dpz")])
    alloc = allocate_losses(a, Side.DEFENDER, 13, ["dpz", "dpz"])
    assert [s.action for s in alloc.steps] == [Action.REDUCE, Action.ELIMINATE]
    assert alloc.credited == 13 and alloc.units_after == ()


def test_eur13_one_step_unit_eliminated_for_listed_strength():
    a = make([{"id": "a", "attack": 40}], [{"id": "bde", "attack": 2, "defense": 3}])
    assert allocate_losses(a, Side.DEFENDER, F(3, 2), ["bde"]).credited == 3


# --- EUR-14 ------------------------------------------------------------------------------------


def test_eur14_no_replacements_out_of_supply():
    """EUR-14: "No replacement REs are earned ... if the units reduced are marked out of
    supply at the moment of the combat"."""
    a = make([dict(PZ, supply="out")], [{"id": "d", "defense": 3}])
    alloc = allocate_losses(a, Side.ATTACKER, 2, ["pz"])
    assert alloc.excess == 7 and (alloc.replacements.armor, alloc.replacements.infantry) == (0, 0)
    assert excess_replacements(Series.RE, 9, 2, 7, in_supply=False).armor == 0


def test_eur14_re_series_floor_of_excess_over_three():
    """EUR-14: divide the excess by 3 and round fractions down; infantry when not armor."""
    assert excess_replacements(Series.RE, 10, 2).infantry == 2
    assert excess_replacements(Series.RE, 7, 2).infantry == 1
    assert excess_replacements(Series.RE, 4, 2).infantry == 0


def test_eur14_mixed_excess_reading():
    """EUR-14 excess_mixed_armor_rule: ARMOR_PART splits by the part from armor units;
    ALL_ARMOR makes every RE armor when armor contributed."""
    r = excess_replacements(Series.RE, 11, 2, armor_excess=4)
    assert (r.armor, r.infantry) == (1, 2)
    r2 = excess_replacements(Series.RE, 11, 2, armor_excess=4,
                             readings=CombatReadings(
                                 excess_mixed_armor_rule=ExcessMixedArmor.ALL_ARMOR))
    assert (r2.armor, r2.infantry) == (3, 0)


def test_eur14_allocation_attributes_excess_to_units_in_order():
    """EUR-14: the requirement is met by the first steps; the rest is excess of its kind."""
    a = make([{"id": "i", "attack": 4, "division": True}, PZ], [{"id": "d", "defense": 3}],
             readings={"allow_surplus_units": True})
    alloc = allocate_losses(a, Side.ATTACKER, 2, ["i", "pz"])
    # excess: 2 from infantry, 9 from armor -> floor(11/3) = 3 REs, floor(9/3) = 3 armor
    assert (alloc.replacements.armor, alloc.replacements.infantry) == (3, 0)


def test_eur14_factor_series_minus_one_per_occasion():
    assert excess_replacements(Series.FACTOR, 2, 2).infantry == 0
    assert excess_replacements(Series.FACTOR, 9, 2, armor_excess=7).armor == 6
