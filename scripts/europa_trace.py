"""Trace Europa bot games turn by turn: the objectives each side holds, the Soviet units
isolated and out of supply (EUR-30 markers, at the start of each turn), the pockets the
Axis hands over at the end of its player turn (Soviet units that trace to no source), the
units on the map, per objective the Axis does not hold the forces at and next to it, then
the verdict and the turn each objective was first held (issue 25, sessions 10-11).

The games are the fuzzer's (``grognard fuzz SCENARIO --bots BOT --seed S``: the same seated
bots, the same fallback stream) without its undo and leak checks, so a seed gives the
fuzzer's game.

    uv run python scripts/europa_trace.py --seeds 1-4 --bots heuristic [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from grognard.bots.fuzz import seated
from grognard.engine.game import Game


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def snapshot(game: Game) -> dict[str, Any]:
    held: dict[str, list[str]] = {}
    for o in game.objectives():
        if o.holder is not None:
            names = held.setdefault(o.holder, [])
            short = o.name.split(" (")[0]
            if short not in names:
                names.append(short)
    units = game.state["units"]
    on = [u for u in units.values() if u.get("hex") and u.get("status", "active") == "active"
          and u.get("type") not in ("air", "fleet", "naval", "supply")]
    return {
        "turn": game.turn,
        "date": game.system.turn_label(game.context, game.state) if game.system.turn_label
        else None,
        "axis_holds": held.get("axis", []),
        "points": (game.standing() or {}).get("points"),
        "soviet_isolated": sum(1 for u in on if u["side"] == "soviet" and u.get("isolated")),
        "soviet_out": sum(1 for u in on if u["side"] == "soviet" and u.get("supply") == "out"),
        "axis_out": sum(1 for u in on if u["side"] == "axis" and u.get("supply") == "out"),
        "units": {s: sum(1 for u in on if u["side"] == s) for s in ("axis", "soviet")},
        # hex columns (west to east) of each side's ground units: median and 90th percentile
        "columns": {s: _cols([u for u in on if u["side"] == s]) for s in ("axis", "soviet")},
        "fronts": fronts(game, on),
    }


def fronts(game: Game, on: list[dict[str, Any]]) -> dict[str, list[int]]:
    """Per objective hex the Axis does not hold: [hexes to the nearest Axis ground unit,
    Soviet units in it, their defense factors, Axis attack factors next to it]."""
    from grognard.core.hexgrid import distance

    m = game.context.scenario.map
    out: dict[str, list[int]] = {}
    axis = [u for u in on if u["side"] == "axis"]
    for o in game.objectives():
        if o.holder == "axis":
            continue
        h = m.layout.from_label(o.hex)
        dist = [distance(h, m.layout.from_label(str(u["hex"]))) for u in axis]
        them = [u for u in on if u["side"] == "soviet" and u["hex"] == o.hex]
        near = sum(int(u.get("attack") or 0) for u, d in zip(axis, dist, strict=True) if d == 1)
        out[o.name.split(" (")[0] + ("" if "Smolensk" not in o.name else " " + o.hex)] = [
            min(dist, default=99), len(them), sum(int(u.get("defense") or 0) for u in them),
            near]
    return out


def _cols(units: list[dict[str, Any]]) -> list[int]:
    cols = sorted(int(str(u["hex"])[:2]) for u in units)
    return [cols[len(cols) // 2], cols[(9 * len(cols)) // 10]] if cols else []


def pockets(game: Game, player: str = "axis") -> int:
    """The enemy ground units that trace to none of their supply sources (EUR-30 as
    ``player``'s view shows it: not through ``player``'s units or ZOCs) - the pockets
    ``player`` hands over at the end of its player turn."""
    from grognard.bots.europa_offence import Picture
    from grognard.bots.heuristic import _graph
    from grognard.bots.situation import Situation

    sit = Situation.of(game.context, game.view(player), player)
    table = game.scenario.rules.table
    sources = table.get("supply_sources", {})
    enemy = next(s for s in game.scenario.sides if s != player)
    pic = Picture.of(sit, _graph(sit.map, game.context.tables), sources.get(player, []),
                     sources.get(enemy, []))
    supplied = pic.their_supplied()
    return sum(len(us) for i, us in pic.theirs.items() if i not in supplied)


def trace(scenario: str, seed: int, bot: str, max_commands: int,
          max_turns: int | None = None) -> dict[str, Any]:
    t0 = time.process_time()
    rng = random.Random(seed)
    game = Game.new(scenario, seed=seed)
    pick = seated(bot, seed)(game)
    turns: list[dict[str, Any]] = []
    last = None
    phases = game.context.turn_sequence.phases
    handed: dict[int, int] = {}
    while len(game.commands) < max_commands and not game.over and \
            (max_turns is None or game.turn <= max_turns):
        if game.turn != last:
            last = game.turn
            turns.append(snapshot(game))
        p = phases[int(game.state["phase"])]
        if p.name == "initial" and p.player == "soviet" and game.turn not in handed:
            handed[game.turn] = pockets(game)
            turns[-1]["pockets_handed_over"] = handed[game.turn]
        cmd = pick(game, rng)
        if cmd is None:
            break
        game.apply(cmd)
        rng.random()  # the fuzzer's undo check draws here
    turns.append(snapshot(game))
    smolensk = next((t["date"] for t in turns if "Smolensk line" in t["axis_holds"]), None)
    first: dict[str, str] = {}
    for t in turns:
        for name in t["axis_holds"]:
            first.setdefault(name, t["date"])
    res = game.result or {}
    return {"seed": seed, "winner": res.get("winner"), "level": res.get("level"),
            "points": res.get("points"), "commands": len(game.commands),
            "smolensk_first": smolensk, "first_held": first,
            "cpu": round(time.process_time() - t0, 1),
            "pockets": [handed.get(t["turn"], 0) for t in turns[:-1]], "turns": turns}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", default="europa-barbarossa")
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--bots", default="heuristic")
    ap.add_argument("--max-commands", type=int, default=8000)
    ap.add_argument("--max-turns", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    for s in _seeds(a.seeds):
        r = trace(a.scenario, s, a.bots, a.max_commands, a.max_turns)
        if a.json:
            print(json.dumps(r), flush=True)
            continue
        print(f"seed {s}: {r['winner']} {r['level']} {r['points']} pts, Smolensk line first "
              f"held at {r['smolensk_first']}, {r['commands']} commands, {r['cpu']} s, "
              f"pockets handed over per turn {r['pockets']}", flush=True)
        print("  first held (at a turn's start): " + ", ".join(
            f"{k} {v}" for k, v in r["first_held"].items()), flush=True)
        for t in r["turns"]:
            print(f"  {t['date']}: pts {t['points']} iso {t['soviet_isolated']} "
                  f"oos {t['soviet_out']} axis-oos {t['axis_out']} units {t['units']} "
                  f"cols {t['columns']} "
                  f"holds {', '.join(t['axis_holds'])}", flush=True)
            print("     " + "; ".join(f"{k} {v}" for k, v in t["fronts"].items()
                                      if v[0] <= 6), flush=True)


if __name__ == "__main__":
    main()
