"""Benchmark (issue 27): the first history of a long game after a server restart, read from
the store, against a walk of the whole game (the figure docs/RELIABILITY.md reports).

    uv run python bench/server_history.py --commands 1000 --scenario tr-1939-campaign

Prints JSON: CPU seconds of the first history read from the store (``read_cpu_s``) and of a
walk of the game with nothing stored (``walk_cpu_s``, the same-run baseline) and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from pathlib import Path

from sqlalchemy import delete

from grognard.engine.fuzz import choose
from grognard.server.service import HOTSEAT, Referee
from grognard.server.store import Store, logs, positions


def play(ref: Referee, scenario: str, n: int, seed: int = 5) -> str:
    """A hotseat game of up to ``n`` random legal commands through ``Referee.command``."""
    _gid, tokens = ref.create(scenario, "hotseat", seed=seed)
    token = tokens[HOTSEAT]
    rng = random.Random(seed)
    gid = ref.seat(token)[0]
    for _ in range(n):
        with ref.hold(gid) as loaded:
            g, version = loaded.game, loaded.version
            cmd = None if g.over else choose(g, rng)
        if cmd is None:
            break
        ref.command(token, version, cmd.kind, dict(cmd.args), cmd.player)
    return token


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commands", type=int, default=1000)
    ap.add_argument("--scenario", default="tr-1939-campaign")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        store = Store(f"sqlite:///{Path(d) / 'g.sqlite'}")
        token = play(Referee(store), args.scenario, args.commands)
        side = Referee(store).scenario(args.scenario).sides[0]
        cpu = time.process_time()
        Referee(store).history(token, side)
        read = time.process_time() - cpu
        with store.begin() as conn:
            conn.execute(delete(logs))
            conn.execute(delete(positions))
        cpu = time.process_time()
        out = Referee(store).history(token, side)
        walk = time.process_time() - cpu
    print(json.dumps({"scenario": args.scenario, "commands": len(out["entries"]),
                      "read_cpu_s": round(read, 3), "walk_cpu_s": round(walk, 3),
                      "read_vs_walk": round(read / walk, 3) if walk else None,
                      "load": os.getloadavg()[0]}, indent=1))


if __name__ == "__main__":
    main()
