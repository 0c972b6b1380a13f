"""How well a Europa position predicts the verdict (issue 25, session 23).

Plays planner v planner games of a Europa scenario (seeds ``--seed`` .. ``--seed + --games -
1``) and, at the first decision of every player turn, records the counted side's points if the
game ended now (``Game.standing()``) and each side's strength on the map (attack + defense of
its active units); then fits, per player turn, the final points as a line of the points now
and ln(the counted side's strength / the other's), and prints each line's residual spread
beside the spread of the final points alone. A spread that does not shrink says the position
at that turn tells a search's evaluation nothing about the verdict.

    uv run python scripts/europa_turn_predictability.py --games 120 --workers 2
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from multiprocessing import Pool
from typing import Any


def play(job: tuple[str, int]) -> dict[str, Any]:
    """One planner v planner game: its rows (player turn, points now, strengths) and end."""
    from grognard.bots.base import LazyView, LegalActions, Seat
    from grognard.bots.catalog import make_bot
    from grognard.engine.game import Game

    scenario, seed = job
    g = Game.new(scenario, seed=seed)
    bots: dict[str, Any] = {p: make_bot("planner", Seat.of(g, p, seed))
                            for p in g.scenario.sides}
    pol = bots[g.scenario.sides[0]].policy  # its player-turn key (turn:owner)
    rows: list[list[Any]] = []
    last = None
    while not g.over and g.active():
        key = pol.posture_key(g.state)
        if key != last:
            last = key
            standing = g.standing() or {}
            strength: dict[str, int] = {}
            for u in g.state["units"].values():
                if u.get("hex") is not None and u.get("status", "active") == "active":
                    side = str(u.get("side"))
                    strength[side] = strength.get(side, 0) + int(u.get("attack") or 0) + \
                        int(u.get("defense") or 0)
            rows.append([key, standing.get("points") or 0, standing.get("counted"), strength])
        p = g.active()[0]
        g.apply(bots[p].choose(LazyView(g, p), LegalActions(g, p)))
    end = g.standing() or {}
    return {"seed": seed, "final": end.get("points"), "winner": end.get("winner"), "rows": rows}


def fit(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per player turn: the least-squares line, its residual spread and the final points'."""
    import numpy as np

    finals = np.array([float(g["final"] or 0) for g in games])
    by: dict[str, list[tuple[float, float, float]]] = {}
    for g in games:
        for key, points, counted, strength in g["rows"]:
            ours = strength.get(counted, 0)
            theirs = sum(v for k, v in strength.items() if k != counted)
            by.setdefault(key, []).append((float(points), math.log(max(ours, 1) / max(theirs, 1)),
                                           float(g["final"] or 0)))
    out = []
    for key in sorted(by, key=lambda k: (int(k.split(":")[0]), k.split(":")[1])):
        rows = by[key]
        x = np.array([[1.0, p, r] for p, r, _f in rows])
        y = np.array([f for _p, _r, f in rows])
        coef, *_ = np.linalg.lstsq(x, y, rcond=None)
        residual = y - x @ coef
        spread = float(np.sqrt((residual ** 2).sum() / max(1, len(y) - 3)))
        out.append({"turn": key, "games": len(rows),
                    "line": [str(round(float(c), 3)) for c in coef],
                    "spread": str(round(spread, 2)), "alone": str(round(float(finals.std()), 2))})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="europa-barbarossa")
    ap.add_argument("--games", type=int, default=120)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args(argv)
    jobs = [(a.scenario, s) for s in range(a.seed, a.seed + a.games)]
    with Pool(max(1, a.workers)) as pool:
        games = list(pool.imap_unordered(play, jobs))
    for row in fit(games):
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
