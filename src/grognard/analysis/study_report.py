"""A study's report: summary figures (JSON-ready), PNG charts and one HTML page.

:func:`summarize` turns the game records of one setting into the figures a designer reads:
win rates with 95% Wilson intervals, victory levels, how games ended, game length, the BRPs
of each power at the end of each turn (mean), the date each capital fell (distribution) and the units lost
by side and arm (mean per game). Figures that a scenario does not produce (no BRPs in Europa,
no result before a game_over hook) are empty, and the report says so.

>>> wilson(8, 10)[0] < Fraction(8, 10) < wilson(8, 10)[1]
True
"""

from __future__ import annotations

import html
import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from grognard.analysis.study import Record

Z95 = 1.959964


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k/n`` (``(0, 1)`` when ``n`` is 0)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def _dec(x: float | Fraction, places: int = 3) -> str:
    return f"{float(x):.{places}f}"


def _mean(xs: Sequence[int]) -> Fraction:
    return Fraction(sum(xs), len(xs)) if xs else Fraction(0)


def summarize(records: Sequence[Record], sides: Sequence[str] = ()) -> dict[str, Any]:
    """The figures of one setting's games (see the module docstring); JSON-ready."""
    n = len(records)
    winners = Counter(str(r.get("winner")) if r.get("winner") is not None else "none"
                      for r in records)
    outcomes = list(dict.fromkeys([*sides, *sorted(winners)]))
    wins = {}
    for w in outcomes:
        k = winners.get(w, 0)
        lo, hi = wilson(k, n)
        wins[w] = {"games": k, "rate": _dec(k / n if n else 0), "ci95": [_dec(lo), _dec(hi)]}
    levels = Counter(f"{r.get('winner')}:{r.get('level')}" for r in records
                     if r.get("level") is not None)
    turns = [int(r.get("turns", 0)) for r in records]
    commands = [int(r.get("commands", 0)) for r in records]
    brp: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    dates: dict[int, str] = {}
    for r in records:
        for row in r.get("brp", []):
            t = int(row["turn"])
            if row.get("date"):
                dates[t] = str(row["date"])
            for power, v in row["brp"].items():
                brp[power][t].append(int(v))
    capitals: dict[str, dict[str, Any]] = {}
    for r in records:
        for name, fall in r.get("capitals", {}).items():
            c = capitals.setdefault(name, {"country": fall.get("country"), "fell": 0,
                                           "by_turn": Counter()})
            c["fell"] += 1
            c["by_turn"][int(fall["turn"])] += 1
    losses: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        for side, arms in r.get("losses", {}).items():
            losses[side].update({a: int(k) for a, k in arms.items()})
    return {
        "games": n,
        "ends": dict(sorted(Counter(str(r.get("end")) for r in records).items())),
        "wins": wins,
        "levels": dict(sorted(levels.items())),
        "turns": {"mean": _dec(_mean(turns), 2), "min": min(turns, default=0),
                  "max": max(turns, default=0)},
        "commands": {"mean": _dec(_mean(commands), 1), "min": min(commands, default=0),
                     "max": max(commands, default=0)},
        "refused": sum(int(r.get("refused", 0)) for r in records),
        "brp": {p: {str(t): _dec(_mean(v), 1) for t, v in sorted(per.items())}
                for p, per in sorted(brp.items())},
        "turn_dates": {str(t): d for t, d in sorted(dates.items())},
        "capitals": {name: {"country": c["country"], "fell": c["fell"],
                            "rate": _dec(c["fell"] / n if n else 0),
                            "ci95": [_dec(x) for x in wilson(c["fell"], n)],
                            "by_turn": {str(t): k for t, k in sorted(c["by_turn"].items())}}
                     for name, c in sorted(capitals.items())},
        "losses": {s: {a: _dec(Fraction(k, n) if n else 0, 2) for a, k in sorted(c.items())}
                   for s, c in sorted(losses.items())},
    }


# --- charts --------------------------------------------------------------------------------
def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def chart_wins(summaries: Mapping[str, Mapping[str, Any]], path: Path) -> Any:
    """Win rates with 95% intervals, one group of bars per setting."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    outcomes = sorted({w for s in summaries.values() for w in s["wins"]})
    width = 0.8 / max(1, len(summaries))
    for i, (label, s) in enumerate(summaries.items()):
        xs = [j + i * width for j in range(len(outcomes))]
        rates = [float(s["wins"].get(w, {"rate": 0})["rate"]) for w in outcomes]
        lo = [r - float(s["wins"].get(w, {"ci95": [0, 0]})["ci95"][0])
              for r, w in zip(rates, outcomes, strict=True)]
        hi = [float(s["wins"].get(w, {"ci95": [0, 0]})["ci95"][1]) - r
              for r, w in zip(rates, outcomes, strict=True)]
        ax.bar(xs, rates, width, yerr=[lo, hi], capsize=3, label=label)
    ax.set_xticks([j + width * (len(summaries) - 1) / 2 for j in range(len(outcomes))])
    ax.set_xticklabels(outcomes)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games")
    ax.set_title("Winner (95% Wilson intervals)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return fig


def chart_brp(summaries: Mapping[str, Mapping[str, Any]], path: Path) -> Any:
    """Mean BRPs of each power per turn (solid: first setting, dashed: the compared one)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    styles = ["-", "--", ":", "-."]
    for i, (label, s) in enumerate(summaries.items()):
        for power, per in s["brp"].items():
            ts = [int(t) for t in per]
            ax.plot(ts, [float(v) for v in per.values()], styles[i % 4],
                    label=f"{power} ({label})")
    ax.set_xlabel("turn")
    ax.set_ylabel("BRPs (mean)")
    ax.set_title("BRPs per power")
    if ax.lines:
        ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return fig


def chart_capitals(summaries: Mapping[str, Mapping[str, Any]], path: Path) -> Any:
    """When each capital fell: games per turn, per capital and setting."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for label, s in summaries.items():
        for name, c in s["capitals"].items():
            ts = [int(t) for t in c["by_turn"]]
            ax.plot(ts, list(c["by_turn"].values()), "o-", label=f"{name} ({label})")
    ax.set_xlabel("turn")
    ax.set_ylabel("games")
    ax.set_title("Turn each capital fell")
    if ax.lines:
        ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return fig


def chart_losses(summaries: Mapping[str, Mapping[str, Any]], path: Path) -> Any:
    """Units lost per game by side and arm."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    keys = sorted({f"{side}/{arm}" for s in summaries.values()
                   for side, arms in s["losses"].items() for arm in arms})
    width = 0.8 / max(1, len(summaries))
    for i, (label, s) in enumerate(summaries.items()):
        vals = [float(s["losses"].get(k.split("/")[0], {}).get(k.split("/")[1], 0))
                for k in keys]
        ax.bar([j + i * width for j in range(len(keys))], vals, width, label=label)
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(keys, rotation=30, fontsize=7)
    ax.set_ylabel("units lost per game")
    ax.set_title("Losses by arm")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return fig


def chart_length(records: Mapping[str, Sequence[Record]], path: Path) -> Any:
    """Game length in turns: a histogram per setting."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for label, recs in records.items():
        ax.hist([int(r.get("turns", 0)) for r in recs], bins=20, alpha=0.6, label=label)
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return fig


CHARTS = ("wins", "brp", "capitals", "losses", "length")


def write_report(out: Path, title: str, settings: Mapping[str, Mapping[str, Any]],
                 records: Mapping[str, Sequence[Record]],
                 summaries: Mapping[str, Mapping[str, Any]]) -> Path:
    """Charts (PNG) and ``report.html`` in ``out``; returns the HTML path."""
    out.mkdir(parents=True, exist_ok=True)
    chart_wins(summaries, out / "wins.png")
    chart_brp(summaries, out / "brp.png")
    chart_capitals(summaries, out / "capitals.png")
    chart_losses(summaries, out / "losses.png")
    chart_length(records, out / "length.png")
    e = html.escape
    rows = []
    for label, s in summaries.items():
        spec = settings[label]
        rows.append(f"<h2>{e(label)}</h2><p>bots: {e(str(spec['bots']))}; readings: "
                    f"{e(str(spec['readings']) or 'the scenario')}; {s['games']} games; "
                    f"ended: {e(str(s['ends']))}</p>")
        rows.append("<table><tr><th>winner</th><th>games</th><th>rate</th><th>95% CI</th></tr>"
                    + "".join(f"<tr><td>{e(w)}</td><td>{v['games']}</td><td>{v['rate']}</td>"
                              f"<td>{v['ci95'][0]}-{v['ci95'][1]}</td></tr>"
                              for w, v in s["wins"].items()) + "</table>")
        if s["levels"]:
            rows.append(f"<p>victory levels: {e(str(s['levels']))}</p>")
        rows.append(f"<p>turns: mean {s['turns']['mean']} (min {s['turns']['min']}, max "
                    f"{s['turns']['max']}); commands: mean {s['commands']['mean']}</p>")
        if s["capitals"]:
            rows.append("<table><tr><th>capital</th><th>fell</th><th>rate</th><th>95% CI</th>"
                        "<th>games by turn</th></tr>" + "".join(
                            f"<tr><td>{e(n)}</td><td>{c['fell']}</td><td>{c['rate']}</td>"
                            f"<td>{c['ci95'][0]}-{c['ci95'][1]}</td>"
                            f"<td>{e(str(c['by_turn']))}</td></tr>"
                            for n, c in s["capitals"].items()) + "</table>")
        else:
            rows.append("<p>No capital changed hands (or the scenario keeps no control).</p>")
        if not s["brp"]:
            rows.append("<p>The scenario keeps no BRP economy.</p>")
    imgs = "".join(f'<figure><img src="{c}.png" alt="{c}"></figure>' for c in CHARTS)
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{e(title)}</title>"
            "<style>body{font-family:sans-serif;max-width:60em;margin:auto}"
            "table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px}"
            "figure{display:inline-block;margin:4px}</style></head><body>"
            f"<h1>{e(title)}</h1>{''.join(rows)}{imgs}</body></html>")
    path = out / "report.html"
    path.write_text(page, encoding="utf-8")
    return path
