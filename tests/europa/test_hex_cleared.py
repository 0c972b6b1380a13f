"""EUR-11/EUR-13/EUR-15 The chance an attack empties the defender's hex (``p_hex_cleared``,
session 30): a retreat (DR), or a loss the defenders cannot meet and keep a unit. In a major
city the defender's loss basis is increased (EUR-11, ``loss_basis_fort_multiplier`` x2) while
the credits are not (EUR-13), so a "1" result costs one-step units everything they have; a
"2" result leaves a division's cadre ("all divisions to cadre")."""

from __future__ import annotations

from fractions import Fraction

from grognard.europa.combat.attack import Attack, Combatant, Side
from grognard.europa.combat.crt import CrtResult
from grognard.europa.combat.losses import keep_limit, keeps_a_unit
from grognard.europa.combat.odds import attack_odds


def _rifles(n: int = 3) -> tuple[Combatant, ...]:
    return tuple(Combatant(f"su-r{i}", attack=3, defense=5) for i in range(n))


def _infantry(strength: int) -> tuple[Combatant, ...]:
    return tuple(Combatant(f"de-i{i}", attack=6, defense=6) for i in range(strength // 6))


def _p(odds, *results: CrtResult) -> Fraction:
    return sum((odds.probabilities.get(r, Fraction(0)) for r in results), Fraction(0))


def test_eur11_a_one_result_empties_a_major_city_of_one_step_units():
    # 3 rifle corps (15 defense) in a major city: L = 15 (the basis doubled), all they have
    attack = Attack(_infantry(60), _rifles(), major_city=True)
    odds = attack_odds(attack)
    assert not keeps_a_unit(attack, Side.DEFENDER, 15)
    assert odds.p_hex_cleared == _p(odds, CrtResult.DR, CrtResult.X1, CrtResult.D1,
                                    CrtResult.D2)
    # the old figure counts only the whole basis lost: a "2" result
    assert odds.p_defender_eliminated == _p(odds, CrtResult.D2)
    assert odds.p_hex_cleared > odds.p_defender_eliminated + odds.p_defender_retreat


def test_eur11_in_the_open_a_one_result_leaves_them_in_the_hex():
    attack = Attack(_infantry(30), _rifles())
    odds = attack_odds(attack)
    assert keep_limit(attack, Side.DEFENDER) == 10  # two corps' credit, one kept
    assert odds.p_hex_cleared == _p(odds, CrtResult.DR, CrtResult.D2)


def test_eur13_a_division_keeps_its_cadre_after_a_two_result():
    pz = Combatant("de-pz", attack=9, defense=10, division=True, cadre_attack=3,
                   cadre_defense=3)
    attack = Attack(tuple(Combatant(f"su-t{i}", attack=6, defense=4) for i in range(5)),
                    (pz,))
    odds = attack_odds(attack)
    # D2 = 2L = 10: reducing the division credits its full 10 and leaves the cadre
    assert keeps_a_unit(attack, Side.DEFENDER, 10)
    assert odds.p_hex_cleared == _p(odds, CrtResult.DR)
    assert odds.p_defender_eliminated >= _p(odds, CrtResult.D2) > 0


def test_eur15_a_lone_one_step_unit_is_emptied_by_any_loss():
    attack = Attack(_infantry(12), _rifles(1))
    odds = attack_odds(attack)
    assert keep_limit(attack, Side.DEFENDER) == 0
    assert odds.p_hex_cleared == _p(odds, CrtResult.DR, CrtResult.X1, CrtResult.D1,
                                    CrtResult.D2)


def test_eur09_the_odds_json_gives_the_chance_the_hex_is_cleared():
    attack = Attack(_infantry(60), _rifles(), major_city=True)
    got = attack_odds(attack).to_json()
    assert Fraction(got["p_hex_cleared"]) == attack_odds(attack).p_hex_cleared
    assert isinstance(got["p_hex_cleared"], str)
