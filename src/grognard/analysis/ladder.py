"""A strength ladder: every pair of bots on paired seeds, Elo ratings with intervals, and the
skill-depth curve of the search bot.

Each pair ``A, B`` plays every seed twice, ``A`` on the first side and ``B`` on the second, then
the sides swapped (the same seed: the same dice streams), so a side's advantage cancels out.
A game scores 1 to the bot whose side won, 0.5 each for a game without a winner (a draw, or
stopped at a limit); a game stopped by an error (``end = "error"``: an engine error, or a worker
process that died) scores for neither and is counted as ``failed``. The ratings are a Bradley-Terry fit on the Elo scale (400 points: 10 to
1 odds) by maximum likelihood with a weak normal prior (sd :data:`PRIOR_SD` Elo, so a bot that
won every game gets a finite rating), the first bot anchored at 0; the 95% intervals come from
the curvature of the log-likelihood at the fit (Wald). The skill-depth curve plays the search
bot at each budget against a fixed opponent on the same paired seeds and reports its score
with a Wilson interval.

>>> fit = fit_elo(["a", "b"], [("a", "b", 1.0)] * 30 + [("a", "b", 0.0)] * 10)
>>> round(fit["b"]["elo"])
-190
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

from grognard.analysis.study import Record, Setting, run_jobs
from grognard.analysis.study_report import Z95, wilson
from grognard.analysis.study_store import StudyStore
from grognard.engine.scenario import load_scenario

ELO = 400 / math.log(10)
PRIOR_SD = 800.0

Game3 = tuple[str, str, float]  # (bot a, bot b, a's score)


def fit_elo(bots: Sequence[str], games: Iterable[Game3]) -> dict[str, dict[str, Any]]:
    """Elo ratings (the first bot at 0) with 95% intervals from ``games``."""
    idx = {b: i for i, b in enumerate(bots)}
    rows = [(idx[a], idx[b], float(s)) for a, b, s in games]
    n = len(bots)
    tau = PRIOR_SD / ELO

    def full(x: np.ndarray) -> np.ndarray:
        return np.concatenate([[0.0], x])

    def nll(x: np.ndarray) -> tuple[float, np.ndarray]:
        th = full(x)
        val = float(np.sum(th ** 2) / (2 * tau * tau))
        grad = th / (tau * tau)
        for i, j, s in rows:
            p = 1 / (1 + math.exp(-(th[i] - th[j])))
            p = min(max(p, 1e-12), 1 - 1e-12)
            val -= s * math.log(p) + (1 - s) * math.log(1 - p)
            grad[i] -= s - p
            grad[j] += s - p
        return val, grad[1:]

    res = minimize(nll, np.zeros(n - 1), jac=True, method="L-BFGS-B")
    th = full(res.x)
    hess = np.eye(n) / (tau * tau)
    for i, j, _s in rows:
        p = 1 / (1 + math.exp(-(th[i] - th[j])))
        w = p * (1 - p)
        hess[i, i] += w
        hess[j, j] += w
        hess[i, j] -= w
        hess[j, i] -= w
    cov = np.linalg.inv(hess[1:, 1:]) if n > 1 else np.zeros((0, 0))
    se = np.concatenate([[0.0], np.sqrt(np.clip(np.diag(cov), 0, None))])
    played = {b: 0 for b in bots}
    score = {b: 0.0 for b in bots}
    for i, j, s in rows:
        played[bots[i]] += 1
        played[bots[j]] += 1
        score[bots[i]] += s
        score[bots[j]] += 1 - s
    return {b: {"elo": round(float(th[k] * ELO), 1),
                "ci95": [round(float((th[k] - Z95 * se[k]) * ELO), 1),
                         round(float((th[k] + Z95 * se[k]) * ELO), 1)],
                "games": played[b], "score": round(score[b], 1)}
            for k, b in enumerate(bots)}


def _setting(scenario: str, sides: Sequence[str], a: str, b: str, limits: Mapping[str, Any],
             label: str) -> Setting:
    return Setting(scenario, {sides[0]: a, sides[1]: b}, label=label, **limits)


def pair_settings(scenario: str, bots: Sequence[str], limits: Mapping[str, Any]
                  ) -> list[tuple[str, str, Setting]]:
    """Every ordered pair of different bots: (bot on the first side, on the second, setting)."""
    sides = list(load_scenario(scenario).sides)
    return [(a, b, _setting(scenario, sides, a, b, limits, f"{a} v {b}"))
            for a in bots for b in bots if a != b]


def score_of(rec: Record, first_side: str, sides: Sequence[str] = ()) -> float:
    """The first side's bot's score in one game: 1 if its side won, 0 if another side of the
    game (``sides``) won, 0.5 without a winner - a 3R campaign's ``"draw"`` verdict, or any
    winner that is not a side, is no win for either bot."""
    w = rec.get("winner")
    if w is None:
        return 0.5
    if w == first_side:
        return 1.0
    return 0.0 if not sides or w in sides else 0.5


def failed(rec: Record) -> bool:
    """A game stopped by an error (an engine error, a worker that died): no result, so it
    scores for neither bot and is counted apart (``failed``)."""
    return rec.get("end") == "error"


def _play(store: StudyStore, settings: list[Setting], seeds: list[int], workers: int,
          address: str | None, advance: Callable[[str, Record], None] | None) -> int:
    # a pair that is also a point of the skill-depth curve (``mcts@budget=8`` among the bots
    # and 8 among the budgets) is the same setting: played once
    settings = list({s.label: s for s in settings}.values())
    todo = {s.label: set(store.missing(s, seeds)) for s in settings}
    jobs = [(s, seed) for seed in seeds for s in settings if seed in todo[s.label]]
    for s, rec in run_jobs(jobs, workers, address):
        store.add(s, rec)
        if advance is not None:
            advance(s.label, rec)
    return len(jobs)


def run_ladder(scenario: str, bots: Sequence[str], seeds: list[int], out: Path,
               workers: int = 1, address: str | None = None,
               limits: Mapping[str, Any] | None = None,
               depth: Sequence[int] = (), depth_bot: str = "mcts",
               depth_against: str = "planner",
               advance: Callable[[str, Record], None] | None = None) -> dict[str, Any]:
    """Play what the store at ``out`` lacks, fit the ratings, draw the charts."""
    out.mkdir(parents=True, exist_ok=True)
    limits = dict(limits or {})
    sides = list(load_scenario(scenario).sides)
    pairs = pair_settings(scenario, bots, limits)
    curve_settings: list[tuple[int, Setting, Setting]] = []
    for budget in depth:
        me = f"{depth_bot}@budget={budget}"
        curve_settings.append((budget,
                               _setting(scenario, sides, me, depth_against, limits,
                                        f"{me} v {depth_against}"),
                               _setting(scenario, sides, depth_against, me, limits,
                                        f"{depth_against} v {me}")))
    store = StudyStore(out / "ladder.sqlite")
    try:
        every = [s for _a, _b, s in pairs] + [s for _b, x, y in curve_settings for s in (x, y)]
        played = _play(store, every, seeds, workers, address, advance)
        games: list[Game3] = []
        table: dict[str, dict[str, Any]] = {}
        for a, b, s in pairs:
            recs = store.records(s, seeds)
            played_out = [r for r in recs if not failed(r)]
            scores = [score_of(r, sides[0], sides) for r in played_out]
            games += [(a, b, x) for x in scores]
            row = table.setdefault(f"{a} v {b}", {"first": a, "second": b})
            row.update({"games": len(recs), "first_wins": sum(1 for x in scores if x == 1),
                        "second_wins": sum(1 for x in scores if x == 0),
                        "no_winner": sum(1 for x in scores if x == 0.5),
                        "failed": len(recs) - len(played_out)})
        curve = []
        for budget, x, y in curve_settings:
            rx = [r for r in store.records(x, seeds) if not failed(r)]
            ry = [r for r in store.records(y, seeds) if not failed(r)]
            sc = [score_of(r, sides[0], sides) for r in rx] + \
                [1 - score_of(r, sides[0], sides) for r in ry]
            wins = sum(1 for v in sc if v == 1)
            decisive = sum(1 for v in sc if v != 0.5)
            lo, hi = wilson(wins, decisive)
            curve.append({"budget": budget, "games": len(sc), "wins": wins,
                          "decisive": decisive,
                          "win_rate": round(wins / decisive, 3) if decisive else None,
                          "ci95": [round(lo, 3), round(hi, 3)],
                          "score": round(sum(sc) / len(sc), 3) if sc else None})
    finally:
        store.close()
    ratings = fit_elo(list(bots), games) if len(bots) > 1 else {}
    result = {"scenario": scenario, "bots": list(bots), "seeds": [seeds[0], seeds[-1]]
              if seeds else [], "sides": sides, "limits": limits, "played": played,
              "ratings": ratings, "pairs": table, "depth": {"bot": depth_bot,
                                                            "against": depth_against,
                                                            "curve": curve}}
    (out / "ladder.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    chart_ratings(ratings, out / "ratings.png")
    if curve:
        chart_depth(curve, depth_bot, depth_against, out / "depth.png")
    return result


def chart_ratings(ratings: Mapping[str, Mapping[str, Any]], path: Path) -> None:
    from grognard.analysis.study_report import _plt, _save

    plt = _plt()
    names = sorted(ratings, key=lambda b: ratings[b]["elo"])
    fig, ax = plt.subplots(figsize=(6, 0.8 + 0.45 * max(1, len(names))))
    elo = [ratings[b]["elo"] for b in names]
    lo = [e - ratings[b]["ci95"][0] for e, b in zip(elo, names, strict=True)]
    hi = [ratings[b]["ci95"][1] - e for e, b in zip(elo, names, strict=True)]
    ax.errorbar(elo, range(len(names)), xerr=[lo, hi], fmt="o", capsize=4)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names)
    ax.set_xlabel(f"Elo ({names[0] if names else ''} anchored; 95% intervals)")
    ax.set_title("Bot strength ladder")
    ax.grid(True, axis="x", alpha=0.3)
    _save(fig, path)


def chart_depth(curve: Sequence[Mapping[str, Any]], bot: str, against: str, path: Path) -> None:
    from grognard.analysis.study_report import _plt, _save

    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    pts = [c for c in curve if c["win_rate"] is not None]
    xs = [c["budget"] for c in pts]
    ys = [c["win_rate"] for c in pts]
    ax.errorbar(xs, ys, yerr=[[y - c["ci95"][0] for y, c in zip(ys, pts, strict=True)],
                              [c["ci95"][1] - y for y, c in zip(ys, pts, strict=True)]],
                fmt="o-", capsize=4)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_ylim(0, 1)
    ax.set_xlabel(f"{bot} budget (simulations a macro decision)")
    ax.set_ylabel(f"wins against {against}\n(decisive games, 95% Wilson)")
    ax.set_title("Skill-depth curve")
    _save(fig, path)
