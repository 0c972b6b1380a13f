"""Benchmark: bot games per hour (issue 15) - heuristic bots on the 3R campaign, 1 and 2 workers.

Run: ``uv run python bench/study.py --json`` (``--quick`` for a small run, used by the smoke
test). One run plays the same seeds of one scenario with heuristic bots on every side:

* ``workers_1``: in this process, one game after another (the baseline);
* ``workers_2``: on 2 local processes (``grognard study --workers 2``'s runner);

each with ``games``, ``wall_s``, ``games_per_hour`` and ``s_per_game`` (wall seconds per game with
one worker: the CPU cost of a game), then ``speedup`` (games per hour with 2 workers / with 1),
and ``same_results`` (both runs produced identical game records). ``max_turns`` bounds every
game; ``commands_per_game`` is the mean number of commands played.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Any

from grognard.analysis.study import Setting, run_games
from grognard.engine.scenario import load_scenario


def _run(setting: Setting, seeds: list[int], workers: int) -> tuple[float, list[dict[str, Any]]]:
    t = time.perf_counter()
    recs = sorted(run_games(setting, seeds, workers), key=lambda r: r["seed"])
    return time.perf_counter() - t, recs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scenario", default="tr-1939-campaign")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--max-turns", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    games, turns = (2, 1) if a.quick else (a.games, a.max_turns)
    # the smoke run plays a small 3R scenario: the campaign map makes it minutes long
    sc = load_scenario("tr-1939-two-fronts" if a.quick else a.scenario)
    setting = Setting(sc.id, {s: "heuristic" for s in sc.sides}, max_turns=turns)
    seeds = list(range(games))
    out: dict[str, Any] = {"scenario": sc.id, "bots": "heuristic", "games": games,
                           "max_turns": turns, "cpus": os.cpu_count(),
                           "python": platform.python_version()}
    for w in (1, 2):
        wall, recs = _run(setting, seeds, w)
        out[f"workers_{w}"] = {"games": games, "wall_s": round(wall, 2),
                               "games_per_hour": round(games * 3600 / wall, 1),
                               "s_per_game": round(wall / games, 2)}
        out[f"_recs_{w}"] = recs
    r1, r2 = out.pop("_recs_1"), out.pop("_recs_2")
    out["same_results"] = r1 == r2
    out["commands_per_game"] = round(sum(r["commands"] for r in r1) / games, 1)
    out["speedup"] = round(out["workers_2"]["games_per_hour"] /
                           out["workers_1"]["games_per_hour"], 2)
    if a.json:
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
