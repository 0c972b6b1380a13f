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
import textwrap
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from grognard.analysis.study import Record
from grognard.analysis.study_paired import paired_text, stopped_standing, verdict_points

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


#: A winner key of the summary in a designer's words (``none``: the game stopped before the
#: rules gave a verdict; ``draw``: the verdict named no side, e.g. a 3R campaign's TR-04 draw).
OUTCOME_WORDS = {"none": "no verdict (stopped)", "draw": "draw (by the verdict)"}


def outcome_text(w: str) -> str:
    return OUTCOME_WORDS.get(w, w)


def no_decisive_text(s: Mapping[str, Any]) -> str | None:
    """Why a setting has no decisive game, in words (``None`` when some game was won): the
    games that reached the rules' verdict without a winner (draws) are told apart from the
    games that stopped before any verdict (a turn or command limit).

    >>> no_decisive_text({"games": 3, "decisive": 0, "ends": {"max_turns": 3}})[:39]
    'No decisive game: no game reached a ver'
    >>> no_decisive_text({"games": 3, "decisive": 0, "ends": {"over": 3}})[:44]
    'No decisive game: all 3 games reached the ru'
    """
    n = int(s.get("games", 0))
    if s.get("decisive") or n == 0:
        return None
    over = int(s.get("ends", {}).get("over", 0))
    if over == 0:
        return ("No decisive game: no game reached a verdict (every game stopped before the "
                "rules' end), so the winner figures say nothing about which side wins - only "
                "what happened before the games stopped.")
    stopped = n - over
    return (f"No decisive game: {'all ' if not stopped else ''}{over} "
            f"{'game' if over == 1 else 'games'} reached the rules' verdict and none was won "
            "by a side (draws)" + (f"; {stopped} stopped before a verdict" if stopped else "")
            + ". The studied setting does not decide the war; read the other figures.")


def standing_summary(records: Sequence[Record]) -> dict[str, Any] | None:
    """The games stopped at a limit with a standing (the verdict had they ended there): how
    many, the side each would have favoured, and where that verdict counts one side's points
    their mean; None when there are none.

    >>> standing_summary([{"standing": {"leader": "axis", "points": 16, "counted": "axis"}},
    ...                   {"standing": {"leader": None, "points": 13, "counted": "axis"}},
    ...                   {"result": {"winner": "axis"}, "winner": "axis"}])
    {'games': 2, 'leaders': {'axis': 1, 'none': 1}, 'points': {'counted': 'axis', 'mean': '14.50'}}
    """
    stops = [r for r in records if stopped_standing(r) is not None]
    if not stops:
        return None
    leaders = Counter("none" if (w := r["standing"].get("leader")) is None else str(w)
                      for r in stops)
    out: dict[str, Any] = {"games": len(stops), "leaders": dict(sorted(leaders.items()))}
    pts = [verdict_points(r) for r in stops]
    if all(pts) and len({p[0] for p in pts if p}) == 1:
        out["points"] = {"counted": next(p[0] for p in pts if p),
                         "mean": _dec(_mean([p[1] for p in pts if p]), 2)}
    return out


def at_stop_text(s: Mapping[str, Any]) -> str | None:
    """The games stopped at a limit, as their standing there reads, in words (None: none).

    >>> at_stop_text({"at_stop": {"games": 2, "leaders": {"axis": 1, "none": 1},
    ...                           "points": {"counted": "axis", "mean": "14.50"}}})
    'Had the 2 games stopped at a limit ended there: axis ahead in 1, neither in 1; axis points 14.50 on average.'
    """
    st = s.get("at_stop")
    if not st:
        return None
    n = int(st["games"])
    who = ", ".join(f"{'neither' if w == 'none' else w + ' ahead'} in {k}"
                    for w, k in st["leaders"].items())
    pts = st.get("points")
    return (f"Had the {n} {'game' if n == 1 else 'games'} stopped at a limit ended there: {who}"
            + (f"; {pts['counted']} points {pts['mean']} on average" if pts else "") + ".")


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
        last = turns_played(r)
        for row in r.get("brp", []):
            t = int(row["turn"])
            if last and t > last:
                continue  # the state where a limit stopped the game: a turn not played
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
    stopped = standing_summary(records)
    ends = dict(sorted(Counter(str(r.get("end")) for r in records).items()))
    # a game is decisive when a side won: a 3R campaign's "draw" verdict is not one
    decisive = sum(1 for r in records if r.get("winner") is not None
                   and r.get("winner") in (sides or r.get("bots") or [r.get("winner")]))
    return {
        "games": n,
        "ends": ends,
        "ends_text": ends_text(ends),
        "decisive": decisive,
        "verdicts": sum(1 for r in records if r.get("end") == "over"),
        "wins": wins,
        "levels": dict(sorted(levels.items())),
        **({"at_stop": stopped} if stopped else {}),
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
    handles, labels = ax.get_legend_handles_labels()
    if handles:  # a compared setting's label (its dotted scenario keys) wrapped, not a banner
        ax.legend(handles, [textwrap.fill(lb.replace(",", ", "), 36) for lb in labels],
                  loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
                  fontsize=fontsize, frameon=False)


def _dates(summaries: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """The date of each turn the settings' games played (3R: "Fall 1939"), if the scenario
    gives one."""
    out: dict[str, str] = {}
    for s in summaries.values():
        out.update(s.get("turn_dates", {}))
    return out


def turn_name(t: int | str, dates: Mapping[str, str]) -> str:
    """A turn for a designer: "3 Spring 1940" where the scenario dates it, else "3"."""
    d = dates.get(str(t))
    return f"{t} {d}" if d else str(t)


def _turn_axis(ax: Any, dates: Mapping[str, str], label: str) -> None:
    """Whole turns on the x axis, each named by its date where the scenario gives one."""
    ax.xaxis.get_major_locator().set_params(integer=True)
    lo, hi = ax.get_xlim()
    ts = [t for t in sorted(int(k) for k in dates) if lo <= t <= hi]
    if ts:
        ax.set_xticks(ts)
        ax.set_xticklabels([turn_name(t, dates) for t in ts], rotation=90, fontsize=6)
    ax.set_xlabel(label)


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
    ax.set_xticklabels([outcome_text(w) for w in outcomes], fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games")
    decisive = sum(int(s.get("decisive", 0)) for s in summaries.values())
    verdicts = sum(int(s.get("verdicts", s.get("ends", {}).get("over", 0)))
                   for s in summaries.values())
    ax.set_title("Winner (95% Wilson intervals)" if decisive else
                 "Winner: no decisive game (every verdict a draw)" if verdicts else
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
    _turn_axis(ax, _dates(summaries), "turn")
    ax.set_ylabel("BRPs on hand (mean)")
    ax.set_title("BRPs per power at the end of each turn\n(mean of the games in which the "
                 "power is in play)" if ax.lines else
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
    if names:
        ax.set_xlim(min(int(t) for s in summaries.values() for c in s["capitals"].values()
                        for t in c["by_turn"]) - 0.7,
                    max(int(t) for s in summaries.values() for c in s["capitals"].values()
                        for t in c["by_turn"]) + 0.9)
    _turn_axis(ax, _dates(summaries), "turn it fell (the number by a dot: games)")
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


def chart_length(records: Mapping[str, Sequence[Record]], path: Path,
                 dates: Mapping[str, str] | None = None) -> Any:
    """Game length: a bar per last turn played, per setting, split by how the games ended
    (solid: the rules' verdict; hatched: stopped at a limit before any verdict)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    width = 0.8 / max(1, len(records))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (label, recs) in enumerate(records.items()):
        over = Counter(turns_played(r) for r in recs if r.get("end") == "over")
        stopped = Counter(turns_played(r) for r in recs if r.get("end") != "over")
        ts = sorted(set(over) | set(stopped))
        xs = [t + (i - (len(records) - 1) / 2) * width for t in ts]
        name = f"{label}: " if len(records) > 1 else ""
        colour = colours[i % len(colours)]
        if over:
            ax.bar([x for x, t in zip(xs, ts, strict=True) if over[t]],
                   [over[t] for t in ts if over[t]], width, color=colour,
                   label=f"{name}ended by the verdict")
        if stopped:
            ax.bar([x for x, t in zip(xs, ts, strict=True) if stopped[t]],
                   [stopped[t] for t in ts if stopped[t]], width,
                   bottom=[over[t] for t in ts if stopped[t]],
                   color="white", edgecolor=colour, hatch="///",
                   label=f"{name}stopped at a limit")
    ax.yaxis.get_major_locator().set_params(integer=True)
    _turn_axis(ax, dates or {}, "last turn played")
    ax.set_ylabel("games")
    ax.set_title("Game length and how the games ended", fontsize=10)
    _legend_outside(ax)
    _save(fig, path)
    return fig


def _pairs(d: Mapping[str, Any]) -> str:
    """``{"axis": "planner", "allies": "heuristic"}`` as "axis planner, allies heuristic"."""
    return ", ".join(f"{k} {v}" for k, v in d.items())


def by_turn_text(by_turn: Mapping[str, int], dates: Mapping[str, str]) -> str:
    """The games in which a capital fell, per turn: "1 Fall 1939: 5 games, 2 Winter 1939: 1
    game"."""
    return ", ".join(f"{turn_name(t, dates)}: {k} {'game' if k == 1 else 'games'}"
                     for t, k in sorted(by_turn.items(), key=lambda kv: int(kv[0])))


def claim_html(claim: Mapping[str, Any]) -> str:
    """The claim a study file measures, its source and the measured figures, as HTML."""
    e = html.escape
    out = f"<p><b>Claim</b>: &ldquo;{e(str(claim.get('text', '')))}&rdquo;"
    if claim.get("source"):
        out += f" ({e(str(claim['source']))})"
    return out + f"</p><p><b>Measured</b>: {e(str(claim.get('measured', '')))}</p>"


def add_claim(report: Path, claim: Mapping[str, Any]) -> None:
    """Put a study file's claim at the top of a written report (the CLI measures the claim
    after the games are stored and the report written)."""
    page = report.read_text(encoding="utf-8")
    head, sep, rest = page.partition("</h1>")
    if sep and "<b>Claim</b>" not in rest:
        report.write_text(head + sep + claim_html(claim) + rest, encoding="utf-8")


CHARTS = ("wins", "brp", "capitals", "losses", "length")


def levels_text(levels: Mapping[str, int]) -> str:
    """The summary's victory levels (``WINNER:LEVEL`` -> games) in words.

    >>> levels_text({"axis:decisive": 2, "None:draw": 5})
    'axis decisive 2, draw 5'
    """
    out = []
    for key, n in levels.items():
        winner, _sep, level = key.partition(":")
        out.append(f"{level} {n}" if winner == "None" else f"{winner} {level} {n}")
    return ", ".join(out)


def write_report(out: Path, title: str, settings: Mapping[str, Mapping[str, Any]],
                 records: Mapping[str, Sequence[Record]],
                 summaries: Mapping[str, Mapping[str, Any]],
                 claim: Mapping[str, Any] | None = None,
                 paired: Mapping[str, Any] | None = None) -> Path:
    """Charts (PNG) and ``report.html`` in ``out``; returns the HTML path. With a study file's
    ``claim`` (:func:`grognard.analysis.study_claims.measure_claim`) the page opens with the
    designer's words, their source and what the games measured; with two settings' ``paired``
    comparison (:func:`grognard.analysis.study_paired.paired`) it closes with it."""
    out.mkdir(parents=True, exist_ok=True)
    chart_wins(summaries, out / "wins.png")
    chart_brp(summaries, out / "brp.png")
    chart_capitals(summaries, out / "capitals.png")
    chart_losses(summaries, out / "losses.png")
    chart_length(records, out / "length.png", _dates(summaries))
    e = html.escape
    dates = _dates(summaries)
    rows = [claim_html(claim)] if claim else []
    for label, s in summaries.items():
        spec = settings[label]
        start = spec.get("start")
        where = ""
        if isinstance(start, Mapping):
            n = len(start.get("positions") or [])
            where = f"played on from the position in {start['from']}; " if n == 1 else \
                f"played on from the {n} positions in {start['from']}, seed by seed in turn; "
        rows.append(f"<h2>{e(label)}</h2><p>{e(where)}bots: {e(_pairs(spec['bots']))}; "
                    f"readings: {e(_pairs(spec['readings']) or 'the scenario')}; "
                    f"{s['games']} games; "
                    f"{e(s.get('ends_text') or ends_text(s['ends']))}.</p>")
        why = no_decisive_text({**s, "decisive": s.get("decisive", sum(
            v["games"] for w, v in s["wins"].items() if w not in ("none", "draw")))})
        if why:
            head, _sep, rest = why.partition(":")
            rows.append(f"<p><b>{e(head)}</b>:{e(rest)}</p>")
        if stop := at_stop_text(s):
            rows.append(f"<p>{e(stop)}</p>")
        rows.append("<table><tr><th>winner</th><th>games</th><th>rate</th><th>95% CI</th></tr>"
                    + "".join(f"<tr><td>{e(outcome_text(w))}</td><td>{v['games']}</td>"
                              f"<td>{v['rate']}</td><td>{v['ci95'][0]}-{v['ci95'][1]}</td></tr>"
                              for w, v in s["wins"].items()) + "</table>")
        if s["levels"]:
            rows.append("<p>victory levels: " + e(levels_text(s["levels"])) + "</p>")
        rows.append(f"<p>last turn played: mean {s['turns']['mean']} (min "
                    f"{e(turn_name(s['turns']['min'], dates))}, max "
                    f"{e(turn_name(s['turns']['max'], dates))}); commands: mean "
                    f"{s['commands']['mean']}</p>")
        if s["capitals"]:
            rows.append("<table><tr><th>capital</th><th>fell</th><th>rate</th><th>95% CI</th>"
                        "<th>games by turn</th></tr>" + "".join(
                            f"<tr><td>{e(n)}</td><td>{c['fell']}</td><td>{c['rate']}</td>"
                            f"<td>{c['ci95'][0]}-{c['ci95'][1]}</td>"
                            f"<td>{e(by_turn_text(c['by_turn'], dates))}</td></tr>"
                            for n, c in s["capitals"].items()) + "</table>")
        else:
            rows.append("<p>No capital changed hands (or the scenario keeps no control).</p>")
        if not s["brp"]:
            rows.append("<p>The scenario keeps no BRP economy.</p>")
    if paired is not None:
        head, *lines = paired_text(paired, str(paired["compared"]), str(paired["base"]))
        rows.append(f"<h2>Seed by seed</h2><p>{e(head)}.</p><ul>"
                    + "".join(f"<li>{e(x)}</li>" for x in lines) + "</ul>")
    imgs = "".join(f'<figure><img src="{c}.png" alt="{c}"></figure>' for c in CHARTS)
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{e(title)}</title>"
            "<style>body{font-family:sans-serif;max-width:60em;margin:auto}"
            "table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px}"
            "figure{display:inline-block;margin:4px}</style></head><body>"
            f"<h1>{e(title)}</h1>{''.join(rows)}{imgs}</body></html>")
    path = out / "report.html"
    path.write_text(page, encoding="utf-8")
    return path
