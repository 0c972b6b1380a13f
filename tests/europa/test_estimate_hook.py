"""EUR-09 The ``estimate`` rule-system hook (issue 22): a side's exact expectations of an attack
from its own view, so the bots weigh attacks without knowing the system."""

from __future__ import annotations

from fractions import Fraction

from tests.europa.positions import demo_attack

from grognard.bots.odds import europa_estimate, view_estimate
from grognard.bots.situation import Situation


def test_eur09_estimate_from_the_whole_position_is_the_odds_of_the_attack_fought():
    g, cmd = demo_attack()
    assert g.system.estimate is not None
    est = g.system.estimate(g.context, g.state, "axis", "0704", ["de-7pz", "de-20mot"])
    odds = g.odds(cmd)["odds"]
    assert est is not None and est["column"] == odds["column"] == "2-1"
    assert est["expected_attacker_loss"] == Fraction(odds["expected_attacker_loss"])
    assert est["expected_defender_loss"] == Fraction(odds["expected_defender_loss"])
    assert est["p_taken"] == max(Fraction(odds["p_defender_eliminated"]),
                                 Fraction(odds["p_defender_retreat"]))
    assert 0 < est["p_taken"] < 1
    assert g.system.estimate(g.context, g.state, "axis", "0704", ["nobody"]) is None


def test_eur09_the_bots_estimate_goes_through_the_hook():
    g, cmd = demo_attack()
    sit = Situation.of(g.context, g.view("axis"), "axis")
    by_order = europa_estimate(sit, cmd.args)
    by_hex = view_estimate(sit, "0704", ["de-7pz", "de-20mot"])
    assert by_order is not None and by_order == by_hex
    assert by_order.column == "2-1"
