"""Record the refactor oracle: seeded games of every shipped scenario, their commands and the
state and event digests along the way (tests/data/oracle/games.json.gz).

A refactor with no behaviour change (issue 22: an Order per command kind) must replay every
recorded game to the same digests; tests/engine/test_oracle.py checks it. A commit that changes
behaviour on purpose re-records the oracle and says so in its message:

    uv run python scripts/record_oracle.py            # every shipped scenario
    uv run python scripts/record_oracle.py --check    # replay and compare, no writing

Random games draw with ``engine.fuzz.choose`` (seeded); bot games are the heuristic bot on
every seat of the three main scenarios.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import sys
from pathlib import Path

from grognard.bots.play import play_game
from grognard.engine.commands import Command
from grognard.engine.fuzz import choose
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario, shipped_scenarios

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "oracle" / "games.json.gz"
RANDOM_SEEDS = (11, 12)
RANDOM_COMMANDS = 160
BOT_SCENARIOS = ("tr-1939-campaign", "europa-barbarossa", "eurofront-1941")
BOT_COMMANDS = 500
CHECK_EVERY = 20


def events_digest(game: Game) -> str:
    text = json.dumps([[e.to_json() for e in evs] for evs in game.events], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def digests(game: Game, n: int) -> dict[str, str]:
    return {"n": n, "state": game.state_hash()[:16], "events": events_digest(game)}


def random_game(scenario: str, seed: int) -> dict:
    sc = load_scenario(scenario)
    game = Game(sc, seed)
    rng = random.Random(seed)
    checks = []
    while len(game.commands) < RANDOM_COMMANDS and not game.over:
        cmd = choose(game, rng)
        if cmd is None:
            break
        game.apply(cmd)
        if len(game.commands) % CHECK_EVERY == 0:
            checks.append(digests(game, len(game.commands)))
    checks.append(digests(game, len(game.commands)))
    return {"scenario": scenario, "seed": seed, "how": "random",
            "commands": [c.to_json() for c in game.commands], "checks": checks}


def bot_game(scenario: str, seed: int) -> dict:
    game = Game(load_scenario(scenario), seed)
    play_game(game, dict.fromkeys(game.scenario.sides, "heuristic"), seed=seed,
              max_commands=BOT_COMMANDS)
    # replay to take the checkpoints (the bots' own game is the same commands)
    again = Game(load_scenario(scenario), seed)
    checks = []
    for c in game.commands:
        again.apply(c)
        if len(again.commands) % CHECK_EVERY == 0:
            checks.append(digests(again, len(again.commands)))
    checks.append(digests(again, len(again.commands)))
    return {"scenario": scenario, "seed": seed, "how": "heuristic",
            "commands": [c.to_json() for c in game.commands], "checks": checks}


def replay(rec: dict) -> str | None:
    """Why the recorded game no longer replays to its digests (None: it does)."""
    game = Game(load_scenario(rec["scenario"]), rec["seed"])
    want = {c["n"]: c for c in rec["checks"]}
    if 0 in want and digests(game, 0) != want[0]:
        return "differs at the start"
    for i, raw in enumerate(rec["commands"], 1):
        try:
            game.apply(Command.from_json(raw))
        except Exception as exc:
            return f"command {i} ({raw['kind']}) refused: {exc}"
        if i in want and digests(game, i) != want[i]:
            got = digests(game, i)
            what = "state" if got["state"] != want[i]["state"] else "events"
            return f"{what} differ after command {i} ({raw['kind']})"
    return None


def load() -> list[dict]:
    return json.loads(gzip.decompress(OUT.read_bytes()))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="replay the oracle, write nothing")
    ap.add_argument("--scenario", action="append", help="only these scenarios (repeatable)")
    args = ap.parse_args(argv)
    if args.check:
        bad = 0
        for rec in load():
            if args.scenario and rec["scenario"] not in args.scenario:
                continue
            why = replay(rec)
            print(f"{rec['scenario']} {rec['how']} seed {rec['seed']}: {why or 'same'}")
            bad += why is not None
        return 1 if bad else 0
    games = []
    names = args.scenario or sorted(shipped_scenarios())
    for name in names:
        for seed in RANDOM_SEEDS:
            games.append(random_game(name, seed))
            print(name, "random", seed, len(games[-1]["commands"]), file=sys.stderr)
        if name in BOT_SCENARIOS:
            games.append(bot_game(name, RANDOM_SEEDS[0]))
            print(name, "heuristic", len(games[-1]["commands"]), file=sys.stderr)
    if args.scenario and OUT.exists():
        keep = [g for g in load() if g["scenario"] not in set(names)]
        games = keep + games
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(gzip.compress(json.dumps(games, separators=(",", ":")).encode(), mtime=0))
    print(f"wrote {OUT} ({len(games)} games)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
