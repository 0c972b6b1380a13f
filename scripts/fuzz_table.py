"""Summarise long ``grognard fuzz`` runs as the table of docs/PERFORMANCE.md.

A long run is split into chunks (``--games 250 --seed 1000``, ``1250``, ...) whose outputs are
kept as ``SCENARIO-SEED-GAMES.json`` (the ``--json`` answer) and, where measured,
``SCENARIO-SEED-GAMES.time`` (``/usr/bin/time -f '%U %S %e'``: user, system, wall seconds). This
script reads every such pair in the folders given and prints one Markdown row per scenario:
games, commands, games ended at the verdict / at the command limit, failures, commands a game
(min / median / max) and CPU seconds a game.

    for s in 1000 1250 1500 1750; do
        /usr/bin/time -f '%U %S %e' -o runs/demo-europa-$s-250.time \\
            uv run grognard fuzz demo-europa --games 250 --seed $s --max-commands 200 --json \\
            > runs/demo-europa-$s-250.json
    done
    uv run python scripts/fuzz_table.py runs/
"""

from __future__ import annotations

import json
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

NAME = re.compile(r"^(?P<scenario>.+)-(?P<seed>\d+)-(?P<games>\d+)\.json$")


def load(folders: list[Path]) -> dict[str, list[tuple[dict[str, Any], float | None]]]:
    """Scenario -> its chunks: (fuzz JSON, CPU seconds or None), in seed order."""
    runs: dict[str, list[tuple[int, dict[str, Any], float | None]]] = defaultdict(list)
    for folder in folders:
        for path in sorted(folder.glob("*.json")):
            m = NAME.match(path.name)
            if m is None:
                continue
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                print(f"fuzz_table: {path}: not a finished fuzz run (skipped)", file=sys.stderr)
                continue
            if not isinstance(data, dict) or "per_game" not in data:
                continue
            cpu = None
            timing = path.with_suffix(".time")
            if timing.exists():
                fields = timing.read_text(encoding="utf-8").split()
                try:
                    cpu = float(fields[0]) + float(fields[1])
                except (IndexError, ValueError):
                    cpu = None
            runs[str(data.get("scenario", m["scenario"]))].append((int(m["seed"]), data, cpu))
    return {k: [(d, c) for _, d, c in sorted(v, key=lambda x: x[0])] for k, v in runs.items()}


def row(scenario: str, chunks: list[tuple[dict[str, Any], float | None]]) -> str:
    games = [g for data, _ in chunks for g in data["per_game"]]
    commands = [int(g["commands"]) for g in games]
    over = sum(1 for g in games if g["end"] == "over")
    limit = sum(1 for g in games if g["end"] == "limit")
    failures = sum(len(data["failures"]) for data, _ in chunks)
    cpus = [c for _, c in chunks]
    cpu = (f"{sum(c for c in cpus if c is not None) / len(games):.2f}"
           if games and all(c is not None for c in cpus) else "-")
    spread = (f"{min(commands)} / {statistics.median(commands):g} / {max(commands)}"
              if commands else "-")
    return (f"| `{scenario}` | {len(games):,} | {sum(commands):,} | {over:,} / {limit:,} | "
            f"**{failures}** | {spread} | {cpu} |")


def main(argv: list[str]) -> int:
    folders = [Path(a) for a in argv] or [Path(".")]
    missing = [str(f) for f in folders if not f.is_dir()]
    if missing:
        print(f"fuzz_table: not a folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    runs = load(folders)
    print("| scenario | games | commands | to the verdict / at the limit | failures | "
          "commands a game (min / median / max) | CPU s a game |")
    print("|---|---|---|---|---|---|---|")
    for scenario in sorted(runs):
        print(row(scenario, runs[scenario]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
