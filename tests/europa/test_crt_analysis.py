"""Europa revised CRT analysis: exact odds from the one resolve function, and a seeded,
vectorised 1,000,000-combat Monte Carlo over the same table (EUR-09, EUR-11, EUR-15).

The exact figures are those of /work/shared/spec/TABLES.md section 1.2 (reconstructed CRT).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction as F
from importlib import resources
from pathlib import Path

from grognard.core.dice import DiceStream
from grognard.europa.combat.attack import attack_from_json
from grognard.europa.combat.crt import RESULT_EFFECTS, CrtResult, combat_setup, resolve
from grognard.europa.combat.crt_analysis import (
    RESULT_ORDER,
    TWO_D6,
    attack_odds,
    column_stats,
    crt_chart,
    monte_carlo_attack,
    monte_carlo_results,
    result_distribution,
)


def example(name: str):
    text = resources.files("grognard.data").joinpath("examples", name).read_text("utf-8")
    return attack_from_json(json.loads(text))


def stat(column: str, drm: int):
    return next(s for s in column_stats(drms=(drm,)) if s.column == column)


def test_eur09_exact_column_stats_match_tables_md():
    """TABLES.md 1.2: 7-1 DRM 0: P(att loss) 0.167, E[att] 0.167, E[def] 1.806, P(DR or D2)
    0.833; 1-1 DRM 0: 0.528 / 0.611 / 0.222 / 0.111; 2-1 DRM +1: 0.278 / 0.278 / 0.611."""
    s = stat("7-1", 0)
    assert (s.p_attacker_loss, s.e_attacker_loss, s.e_defender_loss,
            s.p_defender_dislodged) == (F(1, 6), F(1, 6), F(65, 36), F(5, 6))
    s = stat("1-1", 0)
    assert (s.p_attacker_loss, s.e_attacker_loss, s.e_defender_loss,
            s.p_defender_dislodged) == (F(19, 36), F(22, 36), F(8, 36), F(4, 36))
    s = stat("2-1", 1)
    assert (s.p_attacker_loss, s.e_attacker_loss, s.e_defender_loss) == (
        F(10, 36), F(10, 36), F(22, 36))
    assert round(float(stat("1-4", -1).e_attacker_loss), 3) == 1.5
    assert round(float(stat("7-1", 2).p_attacker_loss), 3) == 0.028


def test_eur15_attacker_loss_possible_in_every_column_at_every_drm():
    """EUR-15/section 3d: "you will always have some chance of losses" - also at +2."""
    assert all(s.p_attacker_loss > 0 for s in column_stats())


def test_eur09_exact_distribution_is_the_resolve_function_mapped():
    """STYLE: exact odds = the same resolve function mapped over the 2D6 distribution."""
    a = attack_from_json({"attackers": [{"id": "a", "attack": 20}],
                          "defenders": [{"id": "d", "defense": 6}]})
    odds = attack_odds(a)
    direct: dict[CrtResult, F] = {}
    for roll, p in TWO_D6.probabilities().items():
        r = resolve(a, roll).result
        direct[r] = direct.get(r, F(0)) + p
    assert odds.probabilities == direct
    assert sum(odds.probabilities.values()) == 1
    assert odds.probabilities == result_distribution("3-1", 0)
    # expected losses in SPs: L = 3 (half of 6)
    s = stat("3-1", 0)
    assert odds.expected_attacker_loss == 3 * s.e_attacker_loss
    assert odds.expected_defender_loss == 3 * s.e_defender_loss
    assert odds.p_defender_eliminated == odds.probabilities[CrtResult.D2]


def test_eur09_attack_odds_below_1_4_is_certain_elimination():
    a = attack_from_json({"attackers": [{"id": "a", "attack": 1}],
                          "defenders": [{"id": "d", "defense": 5}]})
    o = attack_odds(a)
    assert o.probabilities == {CrtResult.AE: 1} and o.p_attacker_eliminated == 1
    assert o.expected_attacker_loss == 1


def test_eur29_attack_odds_include_every_barrage_roll():
    """EUR-29: with attacking artillery the exact odds sum over the barrage roll too."""
    a = example("europa_attack.json")
    o = attack_odds(a)
    assert sum(o.probabilities.values()) == 1
    assert sum(o.barrage.values()) == 1 and set(o.barrage) <= {0, 1, 2}
    total = F(0)
    for b, pb in TWO_D6.probabilities().items():
        setup = combat_setup(a, b)
        total += pb * sum(p * (resolve(a, r, b).effect.defender_loss)
                          for r, p in TWO_D6.probabilities().items())
        assert setup.drm >= 1  # the air phase already earned the +1
    assert total == o.expected_defender_loss


def _within(count: int, n: int, p: F, sigmas: float = 5.0) -> bool:
    pf = float(p)
    sd = math.sqrt(max(pf * (1 - pf), 1e-12) / n)
    return abs(count / n - pf) <= sigmas * sd + 1e-12


def test_eur09_monte_carlo_one_million_combats_agree_with_exact():
    """A seeded 1,000,000-combat Monte Carlo (barrage and CRT rolls sampled with numpy over the
    same tables) agrees with the exact distribution within 5 standard errors per result, and
    on the expected losses."""
    a = example("europa_attack.json")
    n = 1_000_000
    counts = monte_carlo_attack(a, n, DiceStream(20260422, "test.europa.mc"))
    exact = attack_odds(a).probabilities
    assert sum(counts.values()) == n
    for r in RESULT_ORDER:
        assert _within(counts.get(r, 0), n, exact.get(r, F(0))), r
    # deterministic: the same seed gives the same counts
    again = monte_carlo_attack(a, 1000, DiceStream(7, "x"))
    assert again == monte_carlo_attack(a, 1000, DiceStream(7, "x"))


def test_eur09_monte_carlo_every_column_and_drm_agrees_with_exact():
    stream = DiceStream(11, "test.europa.crt")
    for s in column_stats():
        n = 40_000
        counts = monte_carlo_results(s.column, s.drm, n, stream)
        for r in RESULT_ORDER:
            assert _within(counts.get(r, 0), n, s.probabilities.get(r, F(0))), (s.column, r)
        mc_att = sum(c * RESULT_EFFECTS[r][0] for r, c in counts.items()) / n
        assert abs(mc_att - float(s.e_attacker_loss)) < 0.03


def test_eur09_crt_chart_writes_png(tmp_path: Path):
    out = crt_chart(column_stats(), tmp_path / "crt.png", "test")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_eur29_attack_odds_split_by_drm_case():
    """Every DRM case of an attack: without the air +1 the barrage decides between DRM 0 and
    +1 (12 artillery factors, 6 RE: column 12-16, P("1" or better) = 26/36)."""
    a = attack_from_json({
        "attackers": [{"id": "inf", "attack": 18, "division": True},
                      {"id": "art", "attack": 12, "type": "artillery"}],
        "defenders": [{"id": "d1", "defense": 6, "division": True},
                      {"id": "d2", "defense": 6, "division": True}]})
    o = attack_odds(a)
    cases = {d: p for d, (p, _) in o.drm_cases.items()}
    assert cases == {0: F(10, 36), 1: F(26, 36)}
    assert all(sum(dist.values()) == 1 for _, dist in o.drm_cases.values())
    assert o.drm_cases[0][1] == result_distribution("3-2", 0)
    assert o.to_json()["drm_cases"][0]["drm"] == 0
