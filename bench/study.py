"""Benchmark: bot games per hour (issue 15) - heuristic bots on the 3R campaign, 1 and 2 workers.

Run: ``uv run python bench/study.py --json`` (``--quick`` for a small run, used by the smoke
test). One run plays the same seeds of one scenario with heuristic bots on every side:

* ``workers_1``: in this process, one game after another (the baseline);
* ``workers_2``: on 2 local processes (``grognard study --workers 2``'s runner);

each with ``games``, ``wall_s``, ``games_per_hour`` and ``s_per_game`` (wall seconds per game),
and for one worker ``cpu_s_per_game`` (the CPU seconds of a game in this process: the cost of a
game whatever else the machine runs); then ``speedup`` (games per hour with 2 workers / with 1),
and ``same_results`` (both runs produced identical game records). ``max_turns`` bounds every
game (the default, 30, lets the 3R campaign run to its verdict after turn 29);
``commands_per_game`` and ``turns_per_game`` are means, ``ended`` how the games ended, and
``load_average_before`` / ``_after`` the machine's 1, 5 and 15-minute load averages (on a
shared machine the wall figures say more about the other work than about the bots).
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


def _run(setting: Setting, seeds: list[int], workers: int
         ) -> tuple[float, float, list[dict[str, Any]]]:
    t, c = time.perf_counter(), time.process_time()
    recs = sorted(run_games(setting, seeds, workers), key=lambda r: r["seed"])
    return time.perf_counter() - t, time.process_time() - c, recs


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scenario", default="tr-1939-campaign")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--max-turns", type=int, default=30)
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
    out["load_average_before"] = _load()
    for w in (1, 2):
        wall, cpu, recs = _run(setting, seeds, w)
        out[f"workers_{w}"] = {"games": games, "wall_s": round(wall, 2),
                               "games_per_hour": round(games * 3600 / wall, 1),
                               "s_per_game": round(wall / games, 2)}
        if w == 1:  # in this process: the CPU seconds of a game, whatever the machine's load
            out["workers_1"]["cpu_s_per_game"] = round(cpu / games, 2)
        out[f"_recs_{w}"] = recs
    out["load_average_after"] = _load()
    out["turns_per_game"] = round(sum(r["turns"] for r in out["_recs_1"]) / games, 1)
    out["ended"] = sorted({r["end"] for r in out["_recs_1"]})
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
