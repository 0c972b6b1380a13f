"""What the Europa system's ``after_command`` rule (air units displaced from an airbase the
enemy enters, the EUR-23 reading; session 28) costs on the real map.

Applies the recorded heuristic europa-barbarossa game (bench/data, 4,743 commands) cold, the
rule timed inside each command (CPU time of this process): ``apply_s`` (the whole replay, the
baseline of the same run), ``after_command_ms`` and ``share`` (the rule's part of it), per run.

    uv run python bench/europa_after_command.py --runs 3 --json
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import time
from pathlib import Path
from typing import Any

from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario
from grognard.europa.play import system

DATA = Path(__file__).resolve().parent / "data" / "europa-barbarossa-heuristic-1.json.gz"


def run_once(commands: list[Command], seed: int) -> dict[str, Any]:
    hook = system.EUROPA.after_command
    assert hook is not None
    spent = [0.0]

    def timed(ctx: Any, state: Any, events: Any) -> Any:
        t = time.process_time()
        out = hook(ctx, state, events)
        spent[0] += time.process_time() - t
        return out

    object.__setattr__(system.EUROPA, "after_command", timed)
    try:
        g = Game(load_scenario("europa-barbarossa"), seed)
        t = time.process_time()
        for c in commands:
            g.apply(c)
        total = time.process_time() - t
    finally:
        object.__setattr__(system.EUROPA, "after_command", hook)
    return {"commands": len(commands), "apply_s": round(total, 3),
            "after_command_ms": round(1000 * spent[0], 1),
            "share": round(spent[0] / total, 4), "load": round(os.getloadavg()[0], 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rec = json.loads(gzip.decompress(DATA.read_bytes()))
    commands = [Command.from_json(r) for r in rec["commands"]]
    runs = [run_once(commands, int(rec["seed"])) for _ in range(max(1, a.runs))]
    if a.json:
        print(json.dumps({"bench": "europa_after_command", "runs": runs}))
    else:
        for r in runs:
            print(f"{r['commands']} commands: apply {r['apply_s']} s CPU, after_command "
                  f"{r['after_command_ms']} ms ({100 * r['share']:.1f}%), load {r['load']}")


if __name__ == "__main__":
    main()
