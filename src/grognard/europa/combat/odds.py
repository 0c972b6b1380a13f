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
from grognard.europa.combat.crt import CombatSetup, CrtResult, combat_setup, resolve_setup
from grognard.europa.combat.losses import loss_basis

TWO_D6 = Distribution.of("2d6")
RESULT_ORDER = tuple(CrtResult)


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """Exact odds of one attack before rolling (every barrage case included).

    ``p_defender_eliminated``: the defender's loss requirement reaches its whole loss basis
    (normally D2 at 1-1 and above: "weaker side elimination"), or the barrage cleared the hex.
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
    stands in for the DRM display only when artillery fires)."""
    ts = tables if tables is not None else load_tables()
    fires = barrage_strength(attack) > 0
    barrage_rolls: dict[int | None, Fraction] = (
        {k: v for k, v in TWO_D6.probabilities().items()} if fires else {None: Fraction(1)})
    probs: dict[CrtResult, Fraction] = {}
    e_att = e_def = p_ar = p_dr = p_ae = p_de = Fraction(0)
    hits: dict[int, Fraction] = {}
    cases: dict[int, tuple[Fraction, dict[CrtResult, Fraction]]] = {}
    shown: CombatSetup | None = None
    for b, pb in barrage_rolls.items():
        setup = combat_setup(attack, b, ts)
        if setup.barrage is not None:
            h = setup.barrage.outcome.hits
            hits[h] = hits.get(h, Fraction(0)) + pb
            if shown is None and h == 0:
                shown = setup
        outcomes = TWO_D6.map(lambda r, s=setup: resolve_setup(s, r, ts))  # type: ignore[misc]
        p_case, dist = cases.get(setup.drm, (Fraction(0), {}))
        whole = loss_basis(setup.attack, Side.DEFENDER)
        for o, p in outcomes.items():
            dist[o.result] = dist.get(o.result, Fraction(0)) + p * pb
            w = p * pb
            probs[o.result] = probs.get(o.result, Fraction(0)) + w
            e_att += w * o.effect.attacker_loss
            e_def += w * o.effect.defender_loss
            p_ar += w * (o.effect.attacker_retreat > 0)
            p_dr += w * (o.effect.defender_retreat > 0)
            p_ae += w * o.effect.attacker_eliminated
            p_de += w * (setup.hex_cleared or (whole > 0 and o.effect.defender_loss >= whole))
        cases[setup.drm] = (p_case + pb, dist)
    conditional = {d: (p, {r: q / p for r, q in dist.items()}) for d, (p, dist) in cases.items()}
    if shown is None:
        shown = combat_setup(attack, next(iter(barrage_rolls)), ts)
    return AttackOdds(shown, probs, e_att, e_def, p_ar, p_dr, p_ae, p_de,
                      hits if fires else None,
                      conditional)

