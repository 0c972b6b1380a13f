"""The oracle of a pure refactor of the Europa bots (issue 25 item 5, session 14).

Plays seeded europa-barbarossa bot games with ``bots.play.play_game`` and records, per game, the
final state hash, the command count and the CPU seconds: planner v planner seeds 6000-6003,
planner Axis v heuristic Soviets and heuristic Axis v planner Soviets seeds 6000-6001.

- ``uv run python bench/europa_bot_oracle.py --record FILE``: record on the reference code (main);
- ``uv run python bench/europa_bot_oracle.py --check FILE``: play the same games on this code and
  say "same" or name each game whose hash or command count differs (exit status 1).

A bot refactor that keeps every hash and count plays the same games, command for command.
``--only N`` plays the first N games of the list (a quicker check).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from grognard.bots.play import play_game
from grognard.engine.game import Game

SCENARIO = "europa-barbarossa"
GAMES: list[tuple[str, str, int]] = (
    [("planner", "planner", s) for s in range(6000, 6004)]
    + [("planner", "heuristic", s) for s in (6000, 6001)]
    + [("heuristic", "planner", s) for s in (6000, 6001)]
)


def play(axis: str, soviet: str, seed: int) -> dict[str, Any]:
    c = time.process_time()
    g = Game.new(SCENARIO, seed=seed)
    rec = play_game(g, {"axis": axis, "soviet": soviet}, seed=seed)
    return {"axis": axis, "soviet": soviet, "seed": seed, "state_hash": rec.state_hash,
            "commands": len(g.commands), "end": rec.end,
            "cpu_s": round(time.process_time() - c, 2)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--record", metavar="FILE")
    mode.add_argument("--check", metavar="FILE")
    ap.add_argument("--only", type=int, default=len(GAMES), metavar="N")
    a = ap.parse_args()
    games = GAMES[:a.only]
    want: dict[str, Any] = {}
    if a.check:
        with open(a.check) as f:
            want = {f"{r['axis']}-{r['soviet']}-{r['seed']}": r for r in json.load(f)["games"]}
    rows, bad = [], 0
    for axis, soviet, seed in games:
        load = round(os.getloadavg()[0], 2)
        r = play(axis, soviet, seed)
        r["load"] = load
        rows.append(r)
        verdict = ""
        if a.check:
            w = want[f"{axis}-{soviet}-{seed}"]
            same = (w["state_hash"], w["commands"]) == (r["state_hash"], r["commands"])
            bad += not same
            verdict = ("same" if same else f"DIFFERENT (want {w['state_hash'][:12]} "
                       f"{w['commands']})") + f" ref {w['cpu_s']} s"
        print(f"{axis:9} v {soviet:9} seed {seed}: {r['commands']} commands "
              f"{r['state_hash'][:12]} {r['cpu_s']} s (load {load}) {verdict}", flush=True)
    if a.record:
        with open(a.record, "w") as f:
            json.dump({"scenario": SCENARIO, "games": rows}, f, indent=1)
            f.write("\n")
    if a.check:
        print("same" if not bad else f"{bad} of {len(rows)} games differ")
    print(f"total {sum(r['cpu_s'] for r in rows):.1f} s of CPU", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
