"""Record whole heuristic-bot games of the real shipped scenarios for bench/engine.py's
``real_maps`` section (bench/data/<scenario>-heuristic-<seed>.json.gz: the commands).

    uv run python bench/record_games.py tr-1939-campaign europa-barbarossa

The bench applies the recorded commands cold; a recording the current rules refuse is
re-recorded (bench/engine.py says so in its output)."""

from __future__ import annotations

import gzip
import json
import sys
import time
from pathlib import Path

from grognard.bots.play import play_game
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario

DATA = Path(__file__).resolve().parent / "data"
SEED = 1
MAX_COMMANDS = 6000


def path_of(name: str, seed: int = SEED) -> Path:
    return DATA / f"{name}-heuristic-{seed}.json.gz"


def record(name: str, seed: int = SEED) -> Path:
    t = time.process_time()
    game = Game(load_scenario(name), seed)
    rec = play_game(game, dict.fromkeys(game.scenario.sides, "heuristic"), seed=seed,
                    max_commands=MAX_COMMANDS)
    out = {"scenario": name, "seed": seed, "end": rec.end, "turns": game.turn,
           "commands": [c.to_json() for c in game.commands]}
    DATA.mkdir(exist_ok=True)
    p = path_of(name, seed)
    p.write_bytes(gzip.compress(json.dumps(out, separators=(",", ":")).encode(), mtime=0))
    print(f"{name}: {len(game.commands)} commands, end {rec.end}, turn {game.turn}, "
          f"{time.process_time() - t:.1f} s CPU -> {p}", file=sys.stderr)
    return p


if __name__ == "__main__":
    names = sys.argv[1:] or ["tr-1939-campaign", "europa-barbarossa"]
    if any(n.startswith("-") for n in names):
        sys.exit(__doc__)
    from grognard.core.errors import GrognardError

    for n in names:
        try:
            record(n)
        except GrognardError as exc:
            sys.exit(f"bench/record_games.py: {n}: {exc}")
