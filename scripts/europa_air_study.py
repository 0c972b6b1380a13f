"""A heuristic-vs-heuristic study of europa-barbarossa (issue 25): the standing verdict
(``Game.standing``: winner, level, Axis objective points) after N game turns, and what the bots
flew (air missions, airfield strikes, interceptions). One JSON line a game; the rows are also
written to OUT (default /tmp/europa-air-study-LABEL.json).

    uv run python scripts/europa_air_study.py after 10 3

Run it on two commits (before/after a bot change) and compare: docs/PERFORMANCE.md "Bot
studies" has the figures of issue 25's air and objectives change."""
import collections
import json
import sys
import time

from grognard.bots.play import play_game
from grognard.engine.game import Game

label, games, turns = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = []
for seed in range(1, games + 1):
    g = Game.new("europa-barbarossa", seed=seed)
    t = time.process_time()
    rec = play_game(g, {s: "heuristic" for s in g.scenario.sides}, seed=seed, max_turns=turns)
    st = g.standing() or {}
    kinds = collections.Counter(c.kind for c in g.commands)
    ev = collections.Counter(e.type for es in g.events for e in es)
    rows.append({"seed": seed, "end": rec.end, "turn": g.turn, "commands": len(g.commands),
                 "cpu": round(time.process_time() - t, 1), "winner": st.get("winner"),
                 "level": st.get("level"), "axis_points": st.get("points"), "met": st.get("met"),
                 "air_missions": kinds["air_mission"], "airfield_strikes": kinds["airfield_strike"],
                 "intercepts": kinds["intercept"], "attacks": kinds["attack"],
                 "strikes_resolved": ev["airfield_struck"]})
    print(json.dumps(rows[-1]), flush=True)
out = sys.argv[4] if len(sys.argv) > 4 else f"/tmp/europa-air-study-{label}.json"
with open(out, "w", encoding="utf-8") as fh:
    json.dump(rows, fh, indent=1)
