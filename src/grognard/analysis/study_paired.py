"""Seed by seed: a study's two settings (``--compare``, ``--compare-bots``) played on the same
seeds, compared game by game.

Each setting's win rates carry their own dice: two settings a few games apart in 200 cannot be
told apart by their intervals. Played on the same seeds, most games of two close settings go
the same way, and the change shows in the games that differ: for each side, the seeds whose
verdict is better in the compared setting (a win over a draw, a draw over a loss), the same,
or worse, and the mean change of its score (a win 1, a draw 0, a loss -1) with the standard
error of the paired differences. ``same_game`` counts the games that ended in the very same
state (the same state hash): the settings did not differ there at all. Where the verdict
counts points (the result's ``points`` and ``counted``, the rule system's ``game_over``; every
game of both settings, one counted side) ``points`` compares them the same way - a change of a
point or two that no verdict shows. A game stopped at a limit (a position study's few turns)
is judged by its standing where it stopped (the record's ``standing``: the verdict had the game
ended there), where the rule system gives one; ``at_stop`` counts those games. A game that
stopped on an error (``end = "error"``) is left out with its pair.

>>> base = [{"seed": 0, "winner": "axis", "state_hash": "a"},
...         {"seed": 1, "winner": None, "state_hash": "b"},
...         {"seed": 2, "winner": "soviet", "state_hash": "c"}]
>>> other = [{"seed": 0, "winner": "axis", "state_hash": "a"},
...          {"seed": 1, "winner": "soviet", "state_hash": "d"},
...          {"seed": 2, "winner": "soviet", "state_hash": "e"}]
>>> p = paired(base, other, ["axis", "soviet"])
>>> p["games"], p["same_game"], p["sides"]["soviet"]["better"], p["sides"]["axis"]["mean"]
(3, 1, 1, '-1/3')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

Record = Mapping[str, Any]


def stopped_standing(record: Record) -> Mapping[str, Any] | None:
    """The standing a game stopped at a limit keeps (the verdict had it ended there), None
    for a game played to its end (its result judges it) or one that keeps no standing."""
    st = record.get("standing")
    return st if not record.get("result") and isinstance(st, Mapping) else None


def judged(record: Record) -> Mapping[str, Any]:
    """The verdict a game is judged by: its result, or where it stopped at a limit its
    standing there (both as the record keeps them; empty when it has neither)."""
    st = stopped_standing(record)
    if st is not None:
        return st
    res = record.get("result")
    return res if isinstance(res, Mapping) else {}


def verdict_score(record: Record, side: str) -> int:
    """A game's verdict for ``side`` (its standing where it stopped at a limit): 1 won, 0
    drawn (no winner), -1 lost."""
    st = stopped_standing(record)
    winner = record.get("winner") if st is None else st.get("leader", st.get("winner"))
    return 0 if winner is None else 1 if winner == side else -1


def verdict_points(record: Record) -> tuple[str, int] | None:
    """(the counted side, its points) of a game whose verdict (or standing where it stopped)
    counts points, else None."""
    res = judged(record)
    points, side = res.get("points"), res.get("counted")
    if isinstance(points, bool) or not isinstance(points, int) or side is None:
        return None
    return str(side), points


def _change(diffs: Sequence[int]) -> tuple[Fraction, str]:
    """The mean of paired changes (exact) and its standard error (3 places)."""
    n = len(diffs)
    mean = Fraction(sum(diffs), n) if n else Fraction(0)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else Fraction(0)
    return mean, f"{math.sqrt(var / n) if n else 0.0:.3f}"


def paired(base: Sequence[Record], compared: Sequence[Record],
           sides: Sequence[str]) -> dict[str, Any]:
    """The seed-by-seed comparison of ``compared`` against ``base`` (see the module): JSON-ready,
    the mean change an exact fraction and its standard error a decimal, both as strings."""
    by_seed = {int(r["seed"]): r for r in base if r.get("end") != "error"}
    pairs = [(by_seed[int(r["seed"])], r) for r in compared
             if r.get("end") != "error" and int(r["seed"]) in by_seed]
    n = len(pairs)
    out: dict[str, Any] = {
        "games": n,
        "same_game": sum(1 for a, b in pairs
                         if a.get("state_hash") and a.get("state_hash") == b.get("state_hash")),
        "at_stop": sum(1 for a, b in pairs for r in (a, b) if stopped_standing(r) is not None),
        "sides": {}}
    for side in sides:
        diffs = [verdict_score(b, side) - verdict_score(a, side) for a, b in pairs]
        mean, se = _change(diffs)
        out["sides"][side] = {
            "better": sum(d > 0 for d in diffs), "same": sum(d == 0 for d in diffs),
            "worse": sum(d < 0 for d in diffs), "mean": str(mean), "se": se}
    points = [(verdict_points(a), verdict_points(b)) for a, b in pairs]
    counted = {p[0] for pair in points for p in pair if p is not None}
    if n and len(counted) == 1 and all(a and b for a, b in points):
        got = [(a[1], b[1]) for a, b in points if a and b]
        mean, se = _change([b - a for a, b in got])
        out["points"] = {"counted": counted.pop(),
                         "base": str(Fraction(sum(a for a, _b in got), n)),
                         "compared": str(Fraction(sum(b for _a, b in got), n)),
                         "mean": str(mean), "se": se}
    return out


def _seeds(n: int) -> str:
    return f"{n} seed" if n == 1 else f"{n} seeds"


def paired_text(p: Mapping[str, Any], compared: str, base: str) -> list[str]:
    """The comparison in a designer's words: a heading, then a line per side.

    >>> paired_text({"games": 3, "same_game": 1, "sides": {"axis": {"better": 0, "same": 2,
    ...     "worse": 1, "mean": "-1/3", "se": "0.333"}}}, "hard", "base")[1]
    "axis's verdict: better on 0 seeds, worse on 1, the same on 2; mean change -0.333 (standard error 0.333)"
    """
    stop = p.get("at_stop") or 0
    head = (f"seed by seed, {compared} against {base}: {_seeds(p['games'])} played by both, "
            f"{p['same_game']} of them the very same game (a verdict scored 1 won, 0 drawn, "
            "-1 lost" + (f"; {stop} of the {2 * p['games']} games stopped at a limit, judged "
                         "by their standing there" if stop else "") + ")")
    lines = [head] + [
        f"{side}'s verdict: better on {_seeds(s['better'])}, worse on {s['worse']}, the same "
        f"on {s['same']}; mean change {float(Fraction(s['mean'])):+.3f} (standard error "
        f"{s['se']})"
        for side, s in p["sides"].items()]
    if pts := p.get("points"):
        lines.append(f"{pts['counted']}'s points: {float(Fraction(pts['compared'])):.2f} "
                     f"against {float(Fraction(pts['base'])):.2f}, mean change "
                     f"{float(Fraction(pts['mean'])):+.3f} (standard error {pts['se']})")
    return lines
