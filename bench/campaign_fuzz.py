"""Benchmark and acceptance run: whole fuzzed games of a campaign scenario (issue 12).

Run: ``uv run python bench/campaign_fuzz.py tr-1939-campaign --games 20 --json`` (long: minutes
per game on the 2,542-hex map; never part of the test suite). Each game is
:func:`grognard.engine.fuzz.play` (uniformly random legal actions of every player, with the
fuzzer's undo, leak and replay checks) from dice seed ``seed + i`` until the game is over or
``--max-commands``; one JSON line per game is printed as it ends (commands, seconds, seconds
per command, the turn reached, how it ended, the verdict, failures), then the summary: ends by
kind, verdict reasons, failures, seconds per game (min / median / max) and commands per game.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from grognard.engine.fuzz import play
from grognard.engine.scenario import load_scenario


def run(name: str, games: int, seed: int, max_commands: int, out: Any = None) -> dict[str, Any]:
    sc = load_scenario(name)
    rows: list[dict[str, Any]] = []
    for i in range(games):
        t = time.perf_counter()
        r = play(sc, seed + i, i, max_commands)
        took = time.perf_counter() - t
        row = {**r.to_json(), "seconds": round(took, 1),
               "ms_per_command": round(1000 * took / max(1, r.commands), 1),
               "turn": r.game.turn if r.game is not None else None,
               "failures": [f.to_json() for f in r.failures]}
        rows.append(row)
        if out is not None:
            print(json.dumps(row), file=out, flush=True)
    ends: dict[str, int] = {}
    reasons: dict[str, int] = {}
    for row in rows:
        ends[row["end"]] = ends.get(row["end"], 0) + 1
        res = row["result"] or {}
        key = f"{res.get('winner', '-')}: {res.get('reason', '-')}"
        reasons[key] = reasons.get(key, 0) + 1
    secs = [row["seconds"] for row in rows]
    cmds = [row["commands"] for row in rows]
    return {"scenario": name, "games": games, "seed": seed, "max_commands": max_commands,
            "ends": dict(sorted(ends.items())), "verdicts": dict(sorted(reasons.items())),
            "failures": sum(len(row["failures"]) for row in rows),
            "seconds_per_game": {"min": min(secs), "median": statistics.median(secs),
                                 "max": max(secs)},
            "commands_per_game": {"min": min(cmds), "median": statistics.median(cmds),
                                  "max": max(cmds)},
            "seconds_total": round(sum(secs), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-commands", type=int, default=100000)
    ap.add_argument("--json", action="store_true", help="(output is always JSON lines)")
    args = ap.parse_args()
    summary = run(args.scenario, args.games, args.seed, args.max_commands, sys.stdout)
    print(json.dumps({"summary": summary}), flush=True)


if __name__ == "__main__":
    main()
