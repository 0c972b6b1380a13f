"""EUR-09 The exact odds of a Europa attack before its roll:
the same :func:`~grognard.europa.combat.crt.resolve_setup` mapped over the 2D6 CRT roll (and
over every barrage roll when attacking artillery fires first, EUR-29), with the expected
losses in SPs, retreats and eliminations. The page's attack panel shows it through
``Game.odds`` (the ``attack`` Order's :func:`~grognard.europa.combat.orders.attack.odds`);
:mod:`grognard.europa.combat.crt_analysis` re-exports it for studies.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grognard.core.dice import Distribution
from grognard.core.exact import exact_json, ratio_str
from grognard.core.tables import TableSet, load_tables
from grognard.europa.combat.attack import Attack, Side
from grognard.europa.combat.bombardment import barrage_strength
from grognard.europa.combat.crt import (
    CombatSetup,
    CrtResult,
    ResultEffect,
    combat_setup,
    resolve_setup,
)
from grognard.europa.combat.losses import keep_limit, loss_basis

TWO_D6 = Distribution.of("2d6")
RESULT_ORDER = tuple(CrtResult)


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """Exact odds of one attack before rolling (every barrage case included).

    ``p_defender_eliminated``: the defender's loss requirement reaches its whole loss basis
    (normally D2 at 1-1 and above: "weaker side elimination"), or the barrage cleared the hex.
    ``p_hex_cleared``: the defender's hex is emptied - it retreats (DR), the barrage cleared
    it, or its loss is more than it can meet and keep a unit
    (:func:`~grognard.europa.combat.losses.keeps_a_unit`: a "1" result against one-step
    units in a major city, whose loss basis is increased, EUR-11; a D2 leaves a division's
    cadre, EUR-13).
    """

    setup: CombatSetup
    probabilities: dict[CrtResult, Fraction]
    expected_attacker_loss: Fraction
    expected_defender_loss: Fraction
    p_attacker_retreat: Fraction
    p_defender_retreat: Fraction
    p_attacker_eliminated: Fraction
    p_defender_eliminated: Fraction
    barrage: dict[int, Fraction] | None
    drm_cases: dict[int, tuple[Fraction, dict[CrtResult, Fraction]]]
    p_hex_cleared: Fraction = Fraction(0)

    def to_json(self) -> dict[str, Any]:
        s = self.setup
        return {
            "odds": s.odds.odds,
            "column": s.odds.column,
            "drm": s.drm,
            "loss_unit": exact_json(s.loss_unit),
            "probabilities": {str(r): ratio_str(self.probabilities.get(r, Fraction(0)))
                              for r in RESULT_ORDER},
            "expected_attacker_loss": exact_json(self.expected_attacker_loss),
            "expected_defender_loss": exact_json(self.expected_defender_loss),
            "attack_strength": exact_json(s.attack_strength),
            "defense_strength": exact_json(s.defense_strength),
            "drm_breakdown": dict(s.drm_breakdown),
            "p_attacker_retreat": ratio_str(self.p_attacker_retreat),
            "p_defender_retreat": ratio_str(self.p_defender_retreat),
            "p_attacker_eliminated": ratio_str(self.p_attacker_eliminated),
            "p_defender_eliminated": ratio_str(self.p_defender_eliminated),
            "p_hex_cleared": ratio_str(self.p_hex_cleared),
            "barrage": None if self.barrage is None else
            {str(h): ratio_str(p) for h, p in sorted(self.barrage.items())},
            "drm_cases": [
                {"drm": d, "probability": ratio_str(p),
                 "probabilities": {str(r): ratio_str(q) for r, q in
                                   sorted(dist.items(), key=lambda kv: RESULT_ORDER.index(kv[0]))}}
                for d, (p, dist) in sorted(self.drm_cases.items())],
        }


def attack_odds(attack: Attack, tables: TableSet | None = None) -> AttackOdds:
    """EUR-09 Exact distribution of an attack's result, losses in SPs and retreats: the same
    :func:`resolve_setup` mapped over the 2D6 CRT roll, for every barrage roll when attacking
    artillery fires first (EUR-29). ``setup`` is the no-barrage-step-loss view (barrage roll 7
    stands in for the DRM display only when artillery fires).

    Counted in integer weights over one common denominator (the CRT's 36 rolls, times the
    barrage's 36 when artillery fires), each result's effect taken once per setup (a result
    has one effect in one setup), and made Fractions at the end: the same exact values as
    summing each roll's Fraction (tests/bots/test_europa_speed_s15.py keeps that plain sum
    and compares), at a fraction of the cost (a bot scores hundreds of new attacks a game)."""
    ts = tables if tables is not None else load_tables()
    fires = barrage_strength(attack) > 0
    barrage_rolls: list[tuple[int | None, int]] = list(TWO_D6.items()) if fires else [(None, 1)]
    b_total = TWO_D6.total if fires else 1
    crt_rolls = list(TWO_D6.items())
    c_total = TWO_D6.total
    total = b_total * c_total
    probs: dict[CrtResult, int] = {}
    e_att = e_def = Fraction(0)  # weight x loss, over ``total``
    n_ar = n_dr = n_ae = n_de = n_hc = 0
    hits: dict[int, int] = {}
    cases: dict[int, tuple[int, dict[CrtResult, int]]] = {}
    shown: CombatSetup | None = None
    first: CombatSetup | None = None
    for b, wb in barrage_rolls:
        setup = combat_setup(attack, b, ts)
        if first is None:
            first = setup
        if setup.barrage is not None:
            h = setup.barrage.outcome.hits
            hits[h] = hits.get(h, 0) + wb
            if shown is None and h == 0:
                shown = setup
        # each result's effect and weight (of ``c_total``), in the order of first roll
        by_result: dict[CrtResult, tuple[ResultEffect, int]] = {}
        for r, w in crt_rolls:
            o = resolve_setup(setup, r, ts)
            got = by_result.get(o.result)
            by_result[o.result] = (o.effect, w + (got[1] if got is not None else 0))
        p_case, dist = cases.get(setup.drm, (0, {}))
        whole = loss_basis(setup.attack, Side.DEFENDER)
        keep = keep_limit(setup.attack, Side.DEFENDER, ts)  # EUR-13: the most it can lose
        for result, (effect, w) in by_result.items():
            ww = w * wb
            dist[result] = dist.get(result, 0) + ww
            probs[result] = probs.get(result, 0) + ww
            if effect.attacker_loss:
                e_att += ww * effect.attacker_loss
            if effect.defender_loss:
                e_def += ww * effect.defender_loss
            n_ar += ww if effect.attacker_retreat > 0 else 0
            n_dr += ww if effect.defender_retreat > 0 else 0
            n_ae += ww if effect.attacker_eliminated else 0
            n_de += ww if (setup.hex_cleared
                           or (whole > 0 and effect.defender_loss >= whole)) else 0
            lost = effect.defender_loss  # more than the defenders can lose and stay
            n_hc += ww if (setup.hex_cleared or effect.defender_retreat > 0
                           or (lost > 0 and lost > keep)) else 0
        cases[setup.drm] = (p_case + wb, dist)
    conditional = {d: (Fraction(p, b_total), {r: Fraction(q, p * c_total)
                                              for r, q in dist.items()})
                   for d, (p, dist) in cases.items()}
    assert first is not None
    return AttackOdds(shown if shown is not None else first,
                      {r: Fraction(w, total) for r, w in probs.items()},
                      e_att / total, e_def / total, Fraction(n_ar, total),
                      Fraction(n_dr, total), Fraction(n_ae, total), Fraction(n_de, total),
                      {h: Fraction(w, b_total) for h, w in hits.items()} if fires else None,
                      conditional, Fraction(n_hc, total))
