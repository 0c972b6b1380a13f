"""Benchmark: bot games per hour (issue 15) - heuristic bots on the 3R campaign, 1 and 2 workers.

Run: ``uv run python bench/study.py --json`` (``--quick`` for a small run, used by the smoke
test). One run plays the same seeds of one scenario with heuristic bots on every side:

* ``workers_1``: in this process, one game after another (the baseline);
* ``workers_2``: on 2 local processes (``grognard study --workers 2``'s runner);

each with ``games``, ``wall_s``, ``games_per_hour`` and ``s_per_game`` (wall seconds per game),
and for one worker ``cpu_s_per_game`` (the CPU seconds of a game in this process: the cost of a
game whatever else the machine runs); then ``speedup`` (games per hour with 2 workers / with 1),
and ``same_results`` (both runs produced identical game records). ``max_turns`` bounds every
game (the default, 30, lets the 3R campaign run to its verdict after turn 29);
``commands_per_game`` and ``turns_per_game`` are means, ``ended`` how the games ended, and
``load_average_before`` / ``_after`` the machine's 1, 5 and 15-minute load averages (on a
shared machine the wall figures say more about the other work than about the bots).

The Europa planner row (issue 25 item 5: a planner campaign in at most 10 s of one core):
``uv run python bench/study.py --scenario europa-barbarossa --bots planner --games 4
--workers 1 --json`` - its ``cpu_s_per_game`` is the figure (docs/PERFORMANCE.md, session 14;
``bench/europa_game.py`` times and profiles one such game, ``bench/europa_bot_oracle.py``
checks that a refactor of the bots plays the same games).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Any

from grognard.analysis.study import Setting, run_games
from grognard.engine.scenario import load_scenario


def _run(setting: Setting, seeds: list[int], workers: int
         ) -> tuple[float, float, list[dict[str, Any]]]:
    t, c = time.perf_counter(), time.process_time()
    recs = sorted(run_games(setting, seeds, workers), key=lambda r: r["seed"])
    return time.perf_counter() - t, time.process_time() - c, recs


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scenario", default="tr-1939-campaign")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--max-turns", type=int, default=30)
    ap.add_argument("--bots", default="heuristic", help="the bot on every side (planner...)")
    ap.add_argument("--workers", default="1,2", help="worker counts to run (1: in process)")
    ap.add_argument("--search", type=int, default=0, metavar="BUDGET",
                    help="instead: the search bot's simulations per second (mcts@budget="
                         "BUDGET@decide=1 on the first side against the planner, --games games)")
    ap.add_argument("--cut", choices=("turn", "side"), default="turn",
                    help="with --search: where its rollouts stop (mcts@cut=...)")
    ap.add_argument("--timeline", metavar="SEEDS",
                    help="instead: the campaign timeline of games SEEDS (e.g. 10-29) with "
                         "--bots on every side (or AXIS,ALLIES) to --max-turns: 3R the turn "
                         "Warsaw and Paris fell and Germany and the USSR went to war; Europa "
                         "whether the Axis holds a Smolensk line hex (Game.objectives())")
    ap.add_argument("--fit-evaluation", action="store_true",
                    help="instead: fit the EuroFront search evaluation's weights (a logistic "
                         "fit per side and month of the verdict on the features of "
                         "EuroFrontPolicy.evaluation_features) on --games planner games from "
                         "--seed, and how well it and the generic evaluation predict it")
    ap.add_argument("--seed", type=int, default=0, help="with --fit-evaluation: first seed")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    if a.fit_evaluation:
        return _fit_evaluation(a.scenario, a.games, a.seed, a.json)
    if a.timeline:
        return _timeline(a.scenario, a.bots, a.timeline, a.max_turns, a.json)
    games, turns = (2, 1) if a.quick else (a.games, a.max_turns)
    # the smoke run plays a small 3R scenario: the campaign map makes it minutes long
    sc = load_scenario("tr-1939-two-fronts" if a.quick else a.scenario)
    if a.search:
        return _search(sc.id, a.search, games, turns, a.json, a.cut)
    setting = Setting(sc.id, {s: a.bots for s in sc.sides}, max_turns=turns)
    seeds = list(range(games))
    out: dict[str, Any] = {"scenario": sc.id, "bots": a.bots, "games": games,
                           "max_turns": turns, "cpus": os.cpu_count(),
                           "python": platform.python_version()}
    out["load_average_before"] = _load()
    counts = [int(w) for w in a.workers.split(",")]
    for w in counts:
        wall, cpu, recs = _run(setting, seeds, w)
        out[f"workers_{w}"] = {"games": games, "wall_s": round(wall, 2),
                               "games_per_hour": round(games * 3600 / wall, 1),
                               "s_per_game": round(wall / games, 2)}
        if w == 1:  # in this process: the CPU seconds of a game, whatever the machine's load
            out["workers_1"]["cpu_s_per_game"] = round(cpu / games, 2)
        out[f"_recs_{w}"] = recs
    out["load_average_after"] = _load()
    first = out[f"_recs_{counts[0]}"]
    out["turns_per_game"] = round(sum(r["turns"] for r in first) / games, 1)
    out["ended"] = sorted({r["end"] for r in first})
    out["winners"] = sorted(str(r["winner"]) for r in first)
    recs = [out.pop(f"_recs_{w}") for w in counts]
    out["same_results"] = all(r == recs[0] for r in recs)
    out["commands_per_game"] = round(sum(r["commands"] for r in first) / games, 1)
    if 1 in counts and 2 in counts:
        out["speedup"] = round(out["workers_2"]["games_per_hour"] /
                               out["workers_1"]["games_per_hour"], 2)
    if a.json:
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    return 0


def _search(scenario: str, budget: int, games: int, turns: int, as_json: bool,
            cut: str = "turn") -> int:
    """The search bot's simulations per CPU second (in this process): ``simulations_per_cpu_s``
    over the whole game (both sides' every decision), ``simulations_per_search_cpu_s`` over
    the search's own decisions (what a simulation costs)."""
    from grognard.bots.base import Seat
    from grognard.bots.catalog import make_bot
    from grognard.bots.play import play_game
    from grognard.engine.game import Game

    # every macro decision searched (``decide=1``; 3R's search by default weighs only
    # Barbarossa's date, once a game: a simulation's cost is measured on the decisions)
    name = f"mcts@budget={budget}@decide=1" + ("" if cut == "turn" else f"@cut={cut}")
    out: dict[str, Any] = {"scenario": scenario, "search": name,
                           "against": "planner", "games": games, "max_turns": turns,
                           "load_average_before": _load()}
    sims = 0
    cpu = 0.0
    search_cpu = 0.0
    searched = changed = 0
    for seed in range(games):
        g = Game.new(scenario, seed=seed)
        first, second = g.scenario.sides[:2]
        bot = make_bot(name, Seat.of(g, first, seed))
        c = time.process_time()
        play_game(g, {first: bot, second: "planner"}, seed=seed, max_turns=turns)
        cpu += time.process_time() - c
        sims += getattr(bot, "simulations", 0)
        search_cpu += getattr(bot, "search_cpu_s", 0.0)
        searched += getattr(bot, "searched", 0)
        changed += getattr(bot, "changed", 0)
    out["simulations"] = sims
    # decisions simulated, and those where another candidate beat the planner's choice
    out["decisions_searched"], out["planner_choice_changed"] = searched, changed
    out["cpu_s"] = round(cpu, 2)
    out["simulations_per_cpu_s"] = round(sims / cpu, 2) if cpu else None
    # the search's own time (its decisions' simulations, not the rest of the game)
    out["search_cpu_s"] = round(search_cpu, 2)
    out["simulations_per_search_cpu_s"] = round(sims / search_cpu, 2) if search_cpu else None
    # what one simulation costs from the opening (the planner's first choice for the first
    # side, then the rollout): measured even where the games reach no macro decision
    from grognard.bots.base import LazyView, LegalActions
    from grognard.bots.planner import PlannerBot

    g = Game.new(scenario, seed=0)
    first = g.active()[0]
    bot = make_bot(name, Seat.of(g, first, 0))
    cmd = PlannerBot.choose(bot, LazyView(g, first), LegalActions(g, first))
    c = time.process_time()
    for k in range(2):
        bot.simulate(g.view(first), g, cmd, k + 1)
    out["opening_simulation_cpu_s"] = round((time.process_time() - c) / 2, 3)
    out["load_average_after"] = _load()
    if as_json:
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    return 0


def _timeline(scenario: str, bots: str, seeds_text: str, turns: int, as_json: bool) -> int:
    """Issue 25's timeline figures, game by game and counted with 95% Wilson intervals."""
    from grognard.analysis.study_report import wilson
    from grognard.bots.play import _label, play_game
    from grognard.core.errors import GrognardError
    from grognard.engine.game import Game

    lo, _sep, hi = seeds_text.partition("-")
    seeds = list(range(int(lo), int(hi or lo) + 1))
    names = bots.split(",")
    rows: list[dict[str, Any]] = []
    cpu = 0.0
    load_before = _load()
    g0 = Game.new(scenario, seed=0)
    t_of: dict[str, int] = {}
    for t in range(1, 30):
        try:
            t_of.setdefault(_label(g0, t) or str(t), t)
        except GrognardError:
            break  # past the calendar's last turn
    for seed in seeds:
        g = Game.new(scenario, seed=seed)
        sides = list(g.scenario.sides)
        pick = {s: names[min(i, len(names) - 1)] for i, s in enumerate(sides)}
        c = time.process_time()
        rec = play_game(g, pick, seed=seed, max_turns=turns)
        cpu += time.process_time() - c
        row: dict[str, Any] = {"seed": seed, "end": rec.end, "winner": rec.winner,
                               "turns": rec.turns,
                               "fell": {k: v.get("turn") for k, v in rec.capitals.items()}}
        d = g.state.get("diplomacy")
        if isinstance(d, dict):  # 3R: the turn each war of Germany on a major began
            wars = list(d.get("wars", [])) + [p["war"] for p in d.get("ended", [])]
            row["ussr_war"] = next((w["since"] for w in wars
                                    if {w["a"], w["b"]} == {"germany", "ussr"}), None)
        held = [o.name for o in g.objectives() if o.holder == sides[0]]
        row["smolensk_line"] = any(n.startswith("Smolensk line") for n in held)
        rows.append(row)
    n = len(rows)

    def count(name: str, ok: Any) -> dict[str, Any]:
        k = sum(1 for r in rows if ok(r))
        w = wilson(k, n)
        return {"figure": name, "games": n, "yes": k, "ci95": [round(w[0], 2), round(w[1], 2)]}

    figures = []
    if scenario.startswith("tr-"):
        fall39, end40, summer41 = t_of["Fall 1939"], t_of["Winter 1940"], t_of["Summer I 1941"]
        figures = [
            count("Warsaw falls in Fall 1939", lambda r: r["fell"].get("Warsaw") == fall39),
            count("war on the USSR by Summer I 1941",
                  lambda r: r.get("ussr_war") is not None and r["ussr_war"] <= summer41),
            count("Paris falls by the end of 1940",
                  lambda r: r["fell"].get("Paris") is not None and r["fell"]["Paris"] <= end40)]
    else:
        figures = [count(f"the Axis holds a Smolensk line hex after turn {turns}",
                         lambda r: r["smolensk_line"])]
    out = {"scenario": scenario, "bots": bots, "seeds": [seeds[0], seeds[-1]],
           "max_turns": turns, "figures": figures, "cpu_s_per_game": round(cpu / n, 2),
           "load_average_before": load_before, "load_average_after": _load(), "games": rows}
    if as_json:
        sys.stdout.write(json.dumps(out, indent=1) + "\n")
    else:
        for f in figures:
            print(f"{f['figure']}: {f['yes']} of {f['games']} (95% CI {f['ci95'][0]}-"
                  f"{f['ci95'][1]})")
        print(f"CPU s a game: {out['cpu_s_per_game']}; load {load_before} -> {_load()}")
    return 0



def evaluation_rows(scenario: str, seed: int) -> tuple[list[dict[str, Any]], str | None]:
    """One planner-against-planner game of ``scenario``: at the start of each activation phase,
    each side's month index, evaluation features (from its own view) and generic evaluation;
    and the winner."""
    from grognard.bots.base import LazyView, LegalActions, NoLegalAction, Seat
    from grognard.bots.catalog import make_bot
    from grognard.bots.heuristic import EuroFrontPolicy, Policy
    from grognard.engine.game import Game

    g = Game.new(scenario, seed=seed)
    seats = {p: Seat.of(g, p, seed) for p in g.scenario.sides}
    bots = {p: make_bot("planner", seats[p]) for p in g.scenario.sides}
    pols = {p: EuroFrontPolicy(seats[p]) for p in g.scenario.sides}
    objectives = [str(h) for h in g.scenario.calendar.get("objectives") or []]
    rows: list[dict[str, Any]] = []
    last = None
    while not g.over:
        act = g.state.get("activation") or {}
        key = (act.get("month"), act.get("phase"))
        if key != last:
            last = key
            for p in g.scenario.sides:
                view = g.view(p)
                rows.append({"side": p, "month": pols[p].month_index(view),
                             "x": list(pols[p].evaluation_features(view, p, objectives)),
                             "generic": Policy.evaluate(pols[p], view, g)})
        moved = False
        for p in g.active():
            la = LegalActions(g, p)
            if not la.kinds():
                continue
            try:
                g.apply(bots[p].choose(LazyView(g, p), la))
            except NoLegalAction:
                continue
            moved = True
            break
        if not moved:
            break
    winner = (g.result or {}).get("winner")
    return rows, None if winner is None else str(winner)


#: the signs the evaluation's weights must have (intercept free; objectives held and own hits
#: help, enemy blocks hurt): a weight fitted with the other sign is fixed at 0 and the rest
#: refitted (a month with little spread - the first, before any battle - must not teach the
#: search that an objective is bad to hold)
SIGNS = (0, 1, 1, -1)


def _logistic(xs: list[list[float]], ys: list[float], l2: float = 0.1,
              signs: tuple[int, ...] = SIGNS) -> list[float]:
    """Newton's method for an L2-regularised logistic regression (the intercept too), each
    weight of the wrong sign (``signs``) fixed at zero and the rest refitted."""
    import numpy as np

    x, y = np.array(xs), np.array(ys)
    free = list(range(x.shape[1]))
    while True:
        w = np.zeros(x.shape[1])
        xf = x[:, free]
        wf = np.zeros(len(free))
        for _ in range(100):
            p = 1 / (1 + np.exp(-np.clip(xf @ wf, -60, 60)))
            grad = xf.T @ (y - p) - l2 * wf
            hess = -(xf.T * (p * (1 - p))) @ xf - l2 * np.eye(len(free))
            step = np.linalg.solve(hess, grad)
            wf = wf - step
            if float(np.max(np.abs(step))) < 1e-9:
                break
        w[free] = wf
        wrong = [i for i in free if signs[i] and w[i] * signs[i] < 0]
        if not wrong:
            return [round(float(v), 3) for v in w]
        free = [i for i in free if i not in wrong]


def _corr(a: list[float], b: list[float]) -> float | None:
    import numpy as np

    if len(a) < 3 or np.std(a) == 0 or np.std(b) == 0:
        return None
    return round(float(np.corrcoef(a, b)[0, 1]), 3)


def _fit_evaluation(scenario: str, games: int, seed: int, as_json: bool) -> int:
    """The EuroFront evaluation's weights per side and month (data for
    ``EuroFrontPolicy.evaluation_weights``), with the correlation with the verdict of the
    generic evaluation and of the fitted one on the same games (in-sample)."""
    import math

    data: list[tuple[dict[str, Any], float]] = []
    wins: dict[str, int] = {}
    for s in range(seed, seed + games):
        rows, winner = evaluation_rows(scenario, s)
        wins[str(winner)] = wins.get(str(winner), 0) + 1
        data += [(r, 1.0 if r["side"] == winner else 0.0) for r in rows]
    out: dict[str, Any] = {"scenario": scenario, "games": games, "seeds": [seed, seed + games - 1],
                           "winners": wins, "weights": {}, "fit": []}
    for side in sorted({r["side"] for r, _y in data}):
        months = sorted({r["month"] for r, _y in data if r["side"] == side})
        out["weights"][side] = []
        for m in months:
            got = [(r, y) for r, y in data if r["side"] == side and r["month"] == m]
            xs, ys = [r["x"] for r, _y in got], [y for _r, y in got]
            w = _logistic(xs, ys)
            fitted = [1 / (1 + math.exp(-sum(a * b for a, b in zip(w, x, strict=True))))
                      for x in xs]
            out["weights"][side].append(w)
            out["fit"].append({"side": side, "month": m, "rows": len(got),
                               "won": round(sum(ys) / len(ys), 3),
                               "corr_generic": _corr([r["generic"] for r, _y in got], ys),
                               "corr_fitted": _corr(fitted, ys)})
    if as_json:
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
