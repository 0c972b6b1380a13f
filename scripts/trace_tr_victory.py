"""Trace a tr-1939-campaign bot game: each side's victory locations (TR-04) turn by turn.

At the end of each turn it prints the Axis count, the locations gained and lost since the last
turn, the wars begun, and the ground units on the map per power; at the end every victory
location by its holder. With ``--unused`` it also prints, at the end of each turn whose date
is listed (and at the end), what each power leaves unused: its ground units per front (TR-03:
those on a front where no enemy at war stands are idle), its fleets and the ports they sit in,
and its BRPs on hand (session 11). A study's helper (issue 25), not a test:

    uv run python scripts/trace_tr_victory.py --seeds 10-13 --axis planner --allies planner
    uv run python scripts/trace_tr_victory.py --seeds 62 --unused "Spring 1942,Spring 1944"
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


def unused(game: Game) -> dict[str, Any]:
    """Per power: ground units per front (``idle`` counts those on a front with no enemy at
    war standing on it), fleets by hex, BRPs on hand (the economy's summary)."""
    st = game.state
    m = game.context.scenario.map
    front_of = game.system.front_of
    d = st.get("diplomacy") or {}
    foes: dict[str, set[str]] = {}
    for w in d.get("wars", []) or []:
        a, b = str(w.get("a")), str(w.get("b"))
        foes.setdefault(a, set()).add(b)
        foes.setdefault(b, set()).add(a)
    on_map = [u for u in st["units"].values() if u.get("hex") is not None
              and u.get("status", "active") == "active"]

    def front(h: str) -> str:
        return str(front_of(game.context, h) or "") if front_of is not None else ""

    enemy_fronts: dict[str, set[str]] = {}
    for u in on_map:
        p = str(u.get("power"))
        for v in on_map:
            if str(v.get("power")) in foes.get(p, set()):
                enemy_fronts.setdefault(p, set()).add(front(str(v["hex"])))
    summary = (st.get("economy") or {}).get("summary") or {}
    out: dict[str, Any] = {}
    for u in on_map:
        p = str(u.get("power"))
        row = out.setdefault(p, {"fronts": {}, "idle": 0, "fleets": {}, "brp": None})
        if u.get("type") in ("infantry", "armor", "airborne"):
            f = front(str(u["hex"]))
            row["fronts"][f] = row["fronts"].get(f, 0) + 1
            if f not in enemy_fronts.get(p, set()):
                row["idle"] += 1
        elif u.get("type") in ("naval", "fleet"):
            city = next((c.name for c in m.cities.get(m.index_of_label(str(u["hex"])), ())),
                        str(u["hex"]))
            row["fleets"][city] = row["fleets"].get(city, 0) + 1
    for p, row in out.items():
        econ = summary.get(p)
        if isinstance(econ, dict):
            row["brp"] = econ.get("brp")
    return dict(sorted(out.items()))


def print_unused(label: str, got: dict[str, Any]) -> None:
    print(f"  unused at the end of {label}:", flush=True)
    for p, row in got.items():
        fronts = " ".join(f"{f or '-'}:{n}" for f, n in sorted(row["fronts"].items()))
        fleets = " ".join(f"{c}:{n}" for c, n in sorted(row["fleets"].items()))
        print(f"    {p:>10} brp {row['brp']} ground {fronts} idle {row['idle']}"
              f"{' fleets ' + fleets if fleets else ''}", flush=True)


def trace(seed: int, axis: str, allies: str, max_turns: int, quiet: bool,
          at: frozenset[str] = frozenset()) -> dict[str, Any]:
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
            if row["date"] in at:
                row["unused"] = unused(game)
            rows.append(row)
            if not quiet:
                print(f"  {row['date']:>16} axis {axis_n:2d} +{','.join(gained)} "
                      f"-{','.join(lost)} {' '.join(row['wars'])}", flush=True)
                if "unused" in row:
                    print_unused(str(row["date"]), row["unused"])
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
    if at:
        out["unused"] = unused(game)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="10-13")
    ap.add_argument("--axis", default="planner")
    ap.add_argument("--allies", default="planner")
    ap.add_argument("--max-turns", type=int, default=99)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--json", default=None, help="write every trace to this file")
    ap.add_argument("--unused", default="", help="dates (comma-separated turn labels) at "
                    "whose end each power's idle units, fleets and BRPs are printed")
    a = ap.parse_args()
    lo, _, hi = a.seeds.partition("-")
    got = []
    for seed in range(int(lo), int(hi or lo) + 1):
        print(f"seed {seed}", flush=True)
        at = frozenset(x.strip() for x in a.unused.split(",") if x.strip())
        t = trace(seed, a.axis, a.allies, a.max_turns, a.quiet, at)
        got.append(t)
        print(f"seed {seed}: {t['winner']} axis {t['axis']} cpu {t['cpu']} s "
              f"ground {t['ground']}", flush=True)
        for side, names in t["by_side"].items():
            print(f"  {side}: {' '.join(names)}", flush=True)
        if "unused" in t:
            print_unused("the game", t["unused"])
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(got, f, indent=1)
    print(json.dumps({"axis": [t["axis"] for t in got], "winner": [t["winner"] for t in got]}),
          file=sys.stderr)


if __name__ == "__main__":
    main()
