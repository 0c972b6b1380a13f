"""Trace a tr-1939-campaign bot game: each side's victory locations (TR-04) turn by turn.

At the end of each turn it prints the Axis count, the locations gained and lost since the last
turn, the wars begun, and the ground units on the map per power; at the end every victory
location by its holder. A study's helper (issue 25), not a test:

    uv run python scripts/trace_tr_victory.py --seeds 10-13 --axis planner --allies planner
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from grognard.bots.base import LazyView, LegalActions, NoLegalAction, Seat
from grognard.bots.catalog import make_bot
from grognard.core.errors import GrognardError
from grognard.engine.game import Game
from grognard.third_reich.conquest.campaign import date_label
from grognard.third_reich.conquest.control import VICTORY_CLASSES

VICTORY = {c.value for c in VICTORY_CLASSES}


def held(game: Game) -> dict[str, str]:
    st = game.state
    return {n: str(st["control"].get(n)) for n, f in st.get("cities", {}).items()
            if set(f["classes"]) & VICTORY}


def wars(game: Game) -> set[tuple[str, str]]:
    d = game.state.get("diplomacy") or {}
    return {(str(w.get("a")), str(w.get("b"))) for w in d.get("wars", []) or []}


def ground(game: Game) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in game.state.get("units", {}).values():
        if u.get("hex") is not None and u.get("status", "active") == "active" and \
                u.get("type") in ("infantry", "armor", "airborne"):
            p = str(u.get("power"))
            out[p] = out.get(p, 0) + 1
    return dict(sorted(out.items()))


def trace(seed: int, axis: str, allies: str, max_turns: int, quiet: bool) -> dict[str, Any]:
    game = Game.new("tr-1939-campaign", seed=seed)
    seats = {"axis": make_bot(axis, Seat.of(game, "axis", seed)),
             "allies": make_bot(allies, Seat.of(game, "allies", seed))}
    last = held(game)
    last_wars = wars(game)
    turn = game.turn
    t0 = time.process_time()
    rows = []
    while not game.over and game.turn <= max_turns:
        if game.turn != turn:
            now = held(game)
            w = wars(game)
            axis_n = sum(1 for v in now.values() if v == "axis")
            gained = sorted(n for n, s in now.items() if s == "axis" and last.get(n) != "axis")
            lost = sorted(n for n, s in now.items() if s != "axis" and last.get(n) == "axis")
            row = {"turn": turn, "date": date_label(turn), "axis": axis_n, "gained": gained,
                   "lost": lost, "wars": sorted(f"{a}-{b}" for a, b in w - last_wars),
                   "ground": ground(game)}
            rows.append(row)
            if not quiet:
                print(f"  {row['date']:>16} axis {axis_n:2d} +{','.join(gained)} "
                      f"-{','.join(lost)} {' '.join(row['wars'])}", flush=True)
            last, last_wars, turn = now, w, game.turn
        moved = False
        for player in game.active():
            actions = LegalActions(game, player)
            if not actions.kinds():
                continue
            try:
                cmd = seats[player].choose(LazyView(game, player), actions)
            except NoLegalAction:
                continue
            try:
                game.apply(cmd)
            except GrognardError:
                ends = actions.of("end_phase")
                game.apply(ends[0] if ends else actions[0])
            moved = True
            break
        if not moved:
            break
    end = held(game)
    res = game.result or {}
    out = {"seed": seed, "winner": res.get("winner"), "axis": sum(
        1 for v in end.values() if v == "axis"), "cpu": round(time.process_time() - t0, 1),
        "by_side": {s: sorted(n for n, v in end.items() if v == s)
                    for s in sorted(set(end.values()))}, "ground": ground(game), "rows": rows}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="10-13")
    ap.add_argument("--axis", default="planner")
    ap.add_argument("--allies", default="planner")
    ap.add_argument("--max-turns", type=int, default=99)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--json", default=None, help="write every trace to this file")
    a = ap.parse_args()
    lo, _, hi = a.seeds.partition("-")
    got = []
    for seed in range(int(lo), int(hi or lo) + 1):
        print(f"seed {seed}", flush=True)
        t = trace(seed, a.axis, a.allies, a.max_turns, a.quiet)
        got.append(t)
        print(f"seed {seed}: {t['winner']} axis {t['axis']} cpu {t['cpu']} s "
              f"ground {t['ground']}", flush=True)
        for side, names in t["by_side"].items():
            print(f"  {side}: {' '.join(names)}", flush=True)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(got, f, indent=1)
    print(json.dumps({"axis": [t["axis"] for t in got], "winner": [t["winner"] for t in got]}),
          file=sys.stderr)


if __name__ == "__main__":
    main()
