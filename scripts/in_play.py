"""Which rules whole games under the engine exercise ("done means played").

Plays random legal games (engine/fuzz.py) and one game of the heuristic bots on every seat
(grognard.bots.play: players who plan their options, declare their wars and attack, as random
play rarely does under the referee's checks) of every shipped scenario, collects the event types
they produce, maps them to rule IDs with src/grognard/data/in_play.toml (an event may also
name its rules in data["rule"] / data["rules"]) and writes docs/features/in_play.json:
{rule ID: [scenarios whose games exercised it]}. scripts/features.py shows it as the
"In play" column of docs/FEATURES.md; tests/test_in_play.py fails if a recorded rule is no
longer exercised.

    uv run python scripts/in_play.py            # rewrite docs/features/in_play.json
"""

from __future__ import annotations

import json
import sys
import tomllib
from importlib import resources
from pathlib import Path

from grognard.bots.play import play_game
from grognard.engine.fuzz import play
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario, shipped_scenarios

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "features" / "in_play.json"
#: five random games a scenario: two left rules to the luck of one seed; with three the
#: air_transfer order's share of the air phase's draws left SUR-18 to no game at all, and with
#: four the air units displaced from a base the enemy enters (session 28) did again
GAMES = 5
MAX_COMMANDS = 400
SEED = 101


def rule_map() -> dict[str, dict[str, list[str]]]:
    text = resources.files("grognard.data").joinpath("in_play.toml").read_text("utf-8")
    return tomllib.loads(text)


def exercised(scenarios: list[str] | None = None) -> dict[str, list[str]]:
    """Rule ID -> the scenarios whose random games exercised it."""
    mapping = rule_map()
    found: dict[str, set[str]] = {}
    for name in scenarios or shipped_scenarios():
        sc = load_scenario(name)
        rules_of = mapping.get(sc.system, {})
        games = [play(sc, SEED + i, i, MAX_COMMANDS).game for i in range(GAMES)]
        bot_game = Game(sc, SEED)
        play_game(bot_game, dict.fromkeys(sc.sides, "heuristic"), seed=SEED,
                  max_commands=MAX_COMMANDS)
        for game in [*games, bot_game]:
            if game is None:
                continue
            for events in game.events:
                for ev in events:
                    named = ev.data.get("rules") or ([ev.data["rule"]]
                                                     if isinstance(ev.data.get("rule"), str)
                                                     else [])
                    for rid in [*rules_of.get(ev.type, []), *named]:
                        if isinstance(rid, str):
                            found.setdefault(rid, set()).add(name)
    return {rid: sorted(v) for rid, v in sorted(found.items())}


def main() -> int:
    data = exercised()
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(data)} rule IDs in play; wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
