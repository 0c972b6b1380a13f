"""Benchmark: the CPU seconds of one whole seeded bot game (issue 25 item 5, issue 22 item 5).

Run: ``uv run python bench/europa_game.py --bots planner --seed 0 --json`` (or
``--bots axis=heuristic,soviet=planner``; ``--scenario`` another map). It plays the game in this
process the way a study does (``analysis.study.play_one``, with its collector setting,
``analysis.study.game_collector``) and prints the CPU seconds of the
process clock (``time.process_time``: the game's cost whatever else the machine runs), the
command count, the final state hash (two codes that play the same game give the same hash and
count: how a pure refactor of the bots or the rules is checked), the end and the load
averages before and after. ``--profile N`` adds the N costliest functions of a cProfile run on
the process clock (cumulative and own time).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import time
from typing import Any

from grognard.analysis.study import Setting, play_one
from grognard.engine.scenario import load_scenario


def _bots(text: str, sides: list[str]) -> dict[str, str]:
    if "=" not in text:
        return {s: text for s in sides}
    out = dict(part.split("=", 1) for part in text.split(","))
    return {s: out[s] for s in sides}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scenario", default="europa-barbarossa")
    ap.add_argument("--bots", default="planner",
                    help="one bot for every side, or SIDE=BOT,SIDE=BOT")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-turns", type=int, default=None)
    ap.add_argument("--profile", type=int, default=0, metavar="N")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    sc = load_scenario(a.scenario)
    setting = Setting(sc.id, _bots(a.bots, list(sc.sides)), max_turns=a.max_turns)
    load0 = [round(x, 2) for x in os.getloadavg()]
    prof = cProfile.Profile(time.process_time) if a.profile else None
    c = time.process_time()
    if prof is not None:
        prof.enable()
    rec = play_one(setting.to_json(), a.seed)
    if prof is not None:
        prof.disable()
    cpu = time.process_time() - c
    out: dict[str, Any] = {"scenario": sc.id, "bots": setting.bots, "seed": a.seed,
                           "cpu_s": round(cpu, 2), "commands": rec["commands"],
                           "state_hash": rec["state_hash"], "end": rec["end"],
                           "winner": rec.get("winner"), "load_before": load0,
                           "load_after": [round(x, 2) for x in os.getloadavg()]}
    if a.json:
        print(json.dumps(out, sort_keys=True))
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    if prof is not None:
        for key in ("cumulative", "tottime"):
            buf = io.StringIO()
            pstats.Stats(prof, stream=buf).sort_stats(key).print_stats(a.profile)
            print(buf.getvalue(), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
