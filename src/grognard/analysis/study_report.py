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


#: How a game ended (``GameRecord.end``), in a designer's words: (singular, plural).
END_WORDS = {
    "over": ("ended by the rules' verdict", "ended by the rules' verdict"),
    "max_turns": ("stopped at the turn limit", "stopped at the turn limit"),
    "max_commands": ("stopped at the command limit", "stopped at the command limit"),
    "stuck": ("stopped with no legal action for a bot", "stopped with no legal action for a bot"),
    "error": ("stopped by an engine error", "stopped by an engine error"),
}


def ends_text(ends: Mapping[str, int]) -> str:
    """How the games ended, as a sentence: ``{"max_turns": 4, "over": 2}`` ->
    "4 games stopped at the turn limit, 2 ended by the rules' verdict".

    >>> ends_text({"max_turns": 4, "over": 2})
    "4 games stopped at the turn limit, 2 ended by the rules' verdict"
    >>> ends_text({"over": 1})
    "1 game ended by the rules' verdict"
    """
    parts = []
    for i, (end, k) in enumerate(sorted(ends.items(), key=lambda kv: (-kv[1], kv[0]))):
        one, many = END_WORDS.get(end, (f"ended '{end}'", f"ended '{end}'"))
        noun = ("game " if k == 1 else "games ") if i == 0 else ""
        parts.append(f"{k} {noun}{one if k == 1 else many}")
    return ", ".join(parts) if parts else "no games"


def turns_played(r: Record) -> int:
    """The last turn a game played (``GameRecord.turns``)."""
    return int(r.get("turns", 0))


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
    turns = [turns_played(r) for r in records]
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
    ends = dict(sorted(Counter(str(r.get("end")) for r in records).items()))
    # a game is decisive when a side won: a 3R campaign's "draw" verdict is not one
    decisive = sum(1 for r in records if r.get("winner") is not None
                   and r.get("winner") in (sides or r.get("bots") or [r.get("winner")]))
    return {
        "games": n,
        "ends": ends,
        "ends_text": ends_text(ends),
        "decisive": decisive,
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


def _legend_outside(ax: Any, fontsize: int = 7) -> None:
    """The legend to the right of the plot (never over the data); the figure is saved with
    ``bbox_inches="tight"`` so nothing is clipped."""
    handles, _labels = ax.get_legend_handles_labels()
    if handles:
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
                  fontsize=fontsize, frameon=False)


def _save(fig: Any, path: Path) -> None:
    plt = _plt()
    fig.savefig(path, dpi=90, bbox_inches="tight")
    plt.close(fig)


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
    ax.set_xticklabels(["no winner" if w == "none" else w for w in outcomes])
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games")
    decisive = sum(int(s.get("decisive", 0)) for s in summaries.values())
    ax.set_title("Winner (95% Wilson intervals)" if decisive else
                 "Winner: no decisive game (no game reached a verdict)", fontsize=10)
    _legend_outside(ax)
    _save(fig, path)
    return fig


def chart_brp(summaries: Mapping[str, Mapping[str, Any]], path: Path) -> Any:
    """Mean BRPs of each power per turn (solid: first setting, dashed: the compared one)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    styles = ["-", "--", ":", "-."]
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    powers = sorted({p for s in summaries.values() for p in s["brp"]})
    for i, (label, s) in enumerate(summaries.items()):
        for power, per in s["brp"].items():  # one colour per power, one line style a setting
            ts = [int(t) for t in per]
            ax.plot(ts, [float(v) for v in per.values()], styles[i % 4],
                    color=colours[powers.index(power) % len(colours)],
                    label=f"{power} ({label})" if len(summaries) > 1 else power)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("turn")
    ax.set_ylabel("BRPs on hand (mean)")
    ax.set_title("BRPs per power at the end of each turn" if ax.lines else
                 "BRPs: the scenario keeps no BRP economy", fontsize=10)
    _legend_outside(ax, 6)
    _save(fig, path)
    return fig


def chart_capitals(summaries: Mapping[str, Mapping[str, Any]], path: Path) -> Any:
    """When each capital fell: a strip per capital (one row each), a dot per turn in which it
    fell in some games, its area and label the number of games (the compared setting's dots
    just below the first's)."""
    plt = _plt()
    names = sorted({n for s in summaries.values() for n in s["capitals"]})
    fig, ax = plt.subplots(figsize=(6, max(2.0, 0.9 + 0.35 * len(names) * len(summaries))))
    step = 0.8 / max(1, len(summaries))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    biggest = max([k for s in summaries.values() for c in s["capitals"].values()
                   for k in c["by_turn"].values()] or [1])
    for i, (label, s) in enumerate(summaries.items()):
        xs, ys, ks = [], [], []
        for row, name in enumerate(names):
            c = s["capitals"].get(name)
            for t, k in (c["by_turn"].items() if c else ()):
                xs.append(int(t))
                ys.append(row + i * step)
                ks.append(int(k))
        if xs:
            ax.scatter(xs, ys, s=[30 + 270 * k / biggest for k in ks], alpha=0.7,
                       color=colours[i % len(colours)], label=label)
            for x, y, k in zip(xs, ys, ks, strict=True):
                ax.annotate(str(k), (x, y), textcoords="offset points", xytext=(7, 3),
                            fontsize=7)
    ax.set_yticks([row + (len(summaries) - 1) * step / 2 for row in range(len(names))])
    ax.set_yticklabels(names, fontsize=8)
    if names:
        ax.set_ylim(len(names) - 1 + (len(summaries) - 1) * step + 0.5, -0.5)
    ax.set_xlabel("turn it fell (the number: games)")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.grid(True, axis="x", alpha=0.3)
    ax.set_title("Turn each capital fell" if names else
                 "Turn each capital fell: no capital changed hands", fontsize=10)
    if len(summaries) > 1:
        _legend_outside(ax)
    _save(fig, path)
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
    ax.set_xticks([j + width * (len(summaries) - 1) / 2 for j in range(len(keys))])
    ax.set_xticklabels(keys, rotation=30, ha="right", fontsize=7)
    ax.set_ylabel("units lost per game (mean)")
    ax.set_title("Losses by side and arm" if keys else "Losses: no unit was lost",
                 fontsize=10)
    _legend_outside(ax)
    _save(fig, path)
    return fig


def chart_length(records: Mapping[str, Sequence[Record]], path: Path) -> Any:
    """Game length in turns: a bar per turn (games that ended in it), per setting."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    width = 0.8 / max(1, len(records))
    for i, (label, recs) in enumerate(records.items()):
        per = Counter(turns_played(r) for r in recs)
        ts = sorted(per)
        ax.bar([t + (i - (len(records) - 1) / 2) * width for t in ts], [per[t] for t in ts],
               width, label=label)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("last turn played")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    _legend_outside(ax)
    _save(fig, path)
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
                    f"{e(s.get('ends_text') or ends_text(s['ends']))}.</p>")
        if not s.get("decisive", sum(v["games"] for w, v in s["wins"].items() if w != "none")):
            rows.append("<p><b>No decisive game</b>: no game reached a verdict, so the "
                        "winner figures below say nothing about which side wins (only "
                        "what happened before the games stopped).</p>")
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
