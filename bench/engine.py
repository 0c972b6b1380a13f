"""Benchmark: the engine as a referee (issue 11) - random legal play, loads, CLI apply, start-up.

Run: ``uv run python bench/engine.py --json`` (``--quick`` for small numbers, used by the smoke
test). One run measures:

* ``random_play``: uniformly random legal play (engine/fuzz.py ``choose``) on a generated
  3R-scale map (about 1,500 hexes, 300 units, three players) and on each named shipped
  scenario (by default ``tr-1939-campaign``, ``demo-europa`` and ``europa-barbarossa``: 4,161
  hexes, 266 divisions, played to its last turn): ``commands_per_s`` (choosing included), ``apply_per_s`` (``Game.apply`` alone:
  verify, execute, fold), ``legal_ms`` (one ``Game.legal`` call), and the per-command cost in
  the first and the last fifth of the game (``drift``: no slowdown over a game is 1.0).
  Baseline in the same run: ``deepcopy_ms``, what copying the whole state once per command
  (the engine before issue 11) costs on the same state, and the ratio ``apply_vs_deepcopy``.
* ``load``: saves of 1,000 and 4,000 commands loaded from their snapshot (``game apply``) and
  verified by a full replay (``game replay``): seconds and the per-command ratio 4,000/1,000.
* ``apply_cli``: one ``grognard game apply`` subprocess on the 4,000-command save against one
  on a 10-command save (ratio).
* ``whole_games``: one whole random legal game of each playable campaign scenario
  (``tr-1939-campaign``, ``europa-barbarossa``, ``eurofront-1941``): commands, seconds,
  seconds per game turn, how it ended.
* ``real_maps`` (issue 22): the commands of a whole heuristic-bot game of each real shipped
  campaign (``tr-1939-campaign``: 2,542 hexes; ``europa-barbarossa``: 4,161 hexes), recorded
  by bench/record_games.py into bench/data/, applied cold (a new game, ``Game.apply``
  with its full verify; CPU time of this process, so other load on the machine does not count): ``apply_per_s``, ``ms_by_year`` (the mean cost of a command in each
  game year) and ``last_vs_first_year``; then the save of that game replayed with full
  verification (``game replay``): ``replay_s`` and ``replay_s_per_5000``. Baseline in the same
  run: ``state_copy_ms``, one JSON round trip of the final state (what copying the state once
  per command would cost), and ``apply_vs_state_copy``.
* ``startup``: CPU seconds of ``grognard --version``.
* ``peak_rss_mb``: peak resident memory of this process.
"""

from __future__ import annotations

import argparse
import copy
import gzip
import json
import os
import platform
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import cli_env
from grognard.engine.commands import Command
from grognard.engine.fuzz import choose
from grognard.engine.game import Game
from grognard.engine.save import dumps, loads
from grognard.engine.scenario import Scenario, load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[1]
SIDES = ("axis", "allies", "ussr")
TERRAIN = (".", ".", ".", ".", ".", "w", "w", "r", "m", "s")


def generated_scenario(cols: int = 39, rows: int = 39, units: int = 300, seed: int = 3,
                       system: str = "generic") -> Scenario:
    """A 3R-scale test scenario: ``cols`` x ``rows`` hexes of mixed terrain with rivers,
    ``units`` units of three players in three bands (west, centre, east)."""
    rng = random.Random(seed)
    grid = ["".join(rng.choice(TERRAIN) for _ in range(cols)) for _ in range(rows)]
    lines = [
        "[scenario]", 'id = "bench-3r-scale"', 'title = "Generated 3R-scale bench map"',
        f'system = "{system}"', f"sides = {json.dumps(list(SIDES))}", f"seed = {seed}", "",
        "[map]", 'layout = { offset = "odd-q", style = "numeric", origin = 1 }',
        'legend = { "." = "clear", "w" = "woods", "r" = "rough", "m" = "mountain", '
        '"s" = "swamp" }',
        'grid = """', *grid, '"""', "",
    ]
    used: set[str] = set()
    band = cols // 3
    for i in range(units):
        side = SIDES[i % 3]
        lo = band * (i % 3)
        while True:
            c, r = rng.randrange(lo, lo + band), rng.randrange(rows)
            label = f"{c + 1:02d}{r + 1:02d}"
            if label not in used:
                used.add(label)
                break
        lines += ["[[units]]", f'id = "{side}-{i}"', f'side = "{side}"',
                  f'nationality = "{side}"', 'type = "infantry"', "attack = 4", "defense = 4",
                  f"movement = {rng.choice((3, 4, 4, 6))}", f'hex = "{label}"', ""]
    phases = ", ".join(
        f'{{ name = "movement", player = "{s}", commands = ["move"] }}' for s in SIDES)
    lines += ["[sequence]", f"phases = [{phases}]", ""]
    return parse_scenario("\n".join(lines), "<bench>")


def random_play(sc: Scenario, commands: int, seed: int = 1) -> dict[str, Any]:
    g = Game(sc, seed)
    rng = random.Random(seed)
    apply_s = choose_s = 0.0
    per: list[float] = []
    t0 = time.perf_counter()
    for _ in range(commands):
        if g.over:
            break
        t = time.perf_counter()
        cmd = choose(g, rng)
        t1 = time.perf_counter()
        if cmd is None:
            break
        g.apply(cmd)
        t2 = time.perf_counter()
        choose_s += t1 - t
        apply_s += t2 - t1
        per.append(t2 - t)
    total = time.perf_counter() - t0
    n = len(per)
    fifth = max(1, n // 5)
    drift = (sum(per[-fifth:]) / fifth) / (sum(per[:fifth]) / fifth) if n >= 10 else 1.0
    t = time.perf_counter()
    reps = 5
    for _ in range(reps):
        g.legal(g.active()[0]) if g.active() else None
    legal_ms = (time.perf_counter() - t) / reps * 1000
    t = time.perf_counter()
    copy.deepcopy(g.state)
    deepcopy_ms = (time.perf_counter() - t) * 1000
    apply_ms = apply_s / max(n, 1) * 1000
    return {
        "scenario": sc.id, "hexes": sc.map.n, "units": len(sc.placements),
        "players": len(sc.sides), "commands": n, "seconds": round(total, 3),
        "commands_per_s": round(n / total, 1) if total else 0.0,
        "apply_per_s": round(n / apply_s, 1) if apply_s else 0.0,
        "choose_ms": round(choose_s / max(n, 1) * 1000, 4),
        "apply_ms": round(apply_ms, 4), "legal_ms": round(legal_ms, 3),
        "deepcopy_ms": round(deepcopy_ms, 4),
        "apply_vs_deepcopy": round(deepcopy_ms / apply_ms, 2) if apply_ms else 0.0,
        "drift": round(drift, 2), "ended": "over" if g.over else "limit",
        "_game": g,
    }


def whole_game(name: str, cap: int, seed: int = 5) -> dict[str, Any]:
    """One whole random legal game of shipped scenario ``name`` (to its end or ``cap``)."""
    try:
        sc = load_scenario(name)
    except Exception as exc:  # not shipped on this checkout
        return {"scenario": name, "error": f"{type(exc).__name__}: {exc}"}
    g = Game(sc, seed)
    rng = random.Random(seed)
    t = time.perf_counter()
    while len(g.commands) < cap and not g.over:
        cmd = choose(g, rng)
        if cmd is None:
            break
        g.apply(cmd)
    took = time.perf_counter() - t
    turns = max(1, g.turn)
    return {"scenario": name, "hexes": sc.map.n, "units": len(sc.placements),
            "commands": len(g.commands), "seconds": round(took, 2),
            "commands_per_s": round(len(g.commands) / took, 1) if took else 0.0,
            "turns": g.turn, "seconds_per_turn": round(took / turns, 3),
            "ended": "over" if g.over else ("stalled" if len(g.commands) < cap else "limit"),
            "result": None if g.result is None else dict(g.result)}


def _year(g: Game) -> str:
    label = g.system.turn_label(g.context, g.state) if g.system.turn_label else ""
    found = re.search(r"(19\d\d)", label)
    return found.group(1) if found else f"turn {g.turn}"


def real_map(name: str) -> dict[str, Any]:
    """The recorded heuristic game of ``name`` applied cold, by game year; its save replayed."""
    path = ROOT / "bench" / "data" / f"{name}-heuristic-1.json.gz"
    if not path.exists():
        return {"scenario": name, "error": f"no recording: uv run python bench/record_games.py "
                f"{name}"}
    rec = json.loads(gzip.decompress(path.read_bytes()))
    cmds = [Command.from_json(c) for c in rec["commands"]]
    sc = load_scenario(name)
    g = Game(sc, rec["seed"])
    by_year: dict[str, list[float]] = {}
    t0 = time.process_time()
    for i, cmd in enumerate(cmds):
        year = _year(g)
        t = time.process_time()
        try:
            g.apply(cmd)
        except Exception as exc:
            return {"scenario": name, "error": f"command {i + 1} ({cmd.kind}) refused: {exc}: "
                    f"re-record with bench/record_games.py"}
        by_year.setdefault(year, []).append(time.process_time() - t)
    total = time.process_time() - t0
    years = {y: round(sum(v) / len(v) * 1000, 3) for y, v in by_year.items()}
    first, last = next(iter(years.values())), list(years.values())[-1]
    text = dumps(g)
    t = time.process_time()
    loads(text, "<bench>", verify=True)
    replay_s = time.process_time() - t
    t = time.process_time()
    json.loads(json.dumps(g.state))
    copy_ms = (time.process_time() - t) * 1000
    apply_ms = total / len(cmds) * 1000
    return {"scenario": name, "hexes": sc.map.n, "units": len(sc.placements),
            "commands": len(cmds), "turns": g.turn, "apply_s": round(total, 3),
            "apply_per_s": round(len(cmds) / total, 1), "apply_ms": round(apply_ms, 4),
            "ms_by_year": years, "last_vs_first_year": round(last / first, 2),
            "replay_s": round(replay_s, 3),
            "replay_s_per_5000": round(replay_s / len(cmds) * 5000, 3),
            "state_copy_ms": round(copy_ms, 4),
            "apply_vs_state_copy": round(apply_ms / copy_ms, 2) if copy_ms else 0.0}


def save_of(sc: Scenario, commands: int, seed: int = 2) -> tuple[str, Game]:
    g = Game(sc, seed)
    rng = random.Random(seed)
    while len(g.commands) < commands:
        cmd = choose(g, rng)
        if cmd is None:
            break
        g.apply(cmd)
    return dumps(g), g


def load_times(sc: Scenario, sizes: tuple[int, int]) -> tuple[dict[str, Any], dict[int, str]]:
    out: dict[str, Any] = {}
    texts = {}
    for n in sizes:
        text, g = save_of(sc, n)
        texts[n] = text
        t = time.perf_counter()
        loads(text, verify=False)
        snap = time.perf_counter() - t
        t = time.perf_counter()
        loads(text, verify=True)
        full = time.perf_counter() - t
        out[str(n)] = {"commands": len(g.commands), "snapshot_s": round(snap, 4),
                       "replay_s": round(full, 3), "bytes": len(text.encode()),
                       # every command verified and applied cold (no facts from choosing)
                       "replay_commands_per_s": round(len(g.commands) / full, 1)}
    a, b = (out[str(n)] for n in sizes)
    per_a = a["replay_s"] / a["commands"]
    per_b = b["replay_s"] / b["commands"]
    out["replay_per_command_ratio"] = round(per_b / per_a, 2)
    return out, texts


def cli_apply(text: str, g: Game) -> float:
    """Seconds of one ``grognard game apply`` subprocess on a copy of the save ``text``."""
    rng = random.Random(9)
    cmd = choose(g, rng)
    assert cmd is not None
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "save.json"
        path.write_text(text, encoding="utf-8")
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "grognard", "game", "apply", str(path),
                            json.dumps(cmd.to_json())], capture_output=True, text=True,
                           cwd=ROOT, env=cli_env())
        took = time.perf_counter() - t
        if r.returncode != 0:
            raise SystemExit(f"game apply failed: {r.stderr.strip()}")
    return took


def startup_cpu() -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "grognard", "--version"], capture_output=True,
                   env=cli_env(),
                   check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--quick", action="store_true", help="small sizes (smoke test)")
    ap.add_argument("--real", action="store_true",
                    help="with --quick: still measure the real maps (real_maps)")
    ap.add_argument("--only-real", action="store_true", help="measure only real_maps")
    ap.add_argument("--scenario", action="append", default=None,
                    help="shipped scenario to play at random (repeatable); with "
                         "--only-real: the real maps to measure")
    args = ap.parse_args()
    quick = args.quick
    if args.only_real:
        out = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                           "load": os.getloadavg()[0]},
               "real_maps": [real_map(n) for n in args.scenario or ("tr-1939-campaign",
                                                                      "europa-barbarossa")]}
        print(json.dumps(out, indent=1))
        return
    n = 300 if quick else 3000
    sizes = (100, 400) if quick else (1000, 4000)
    gen = generated_scenario(cols=12 if quick else 39, rows=12 if quick else 39,
                             units=30 if quick else 300)
    plays = [random_play(gen, n)]
    for name in args.scenario or ([] if quick else ["tr-1939-campaign", "demo-europa",
                                                    "europa-barbarossa"]):
        try:
            plays.append(random_play(load_scenario(name), n))
        except Exception as exc:  # a scenario not shipped on this checkout: say so
            plays.append({"scenario": name, "error": f"{type(exc).__name__}: {exc}"})
    real = [real_map(n) for n in ("tr-1939-campaign", "europa-barbarossa")] \
        if args.real or not quick else []
    campaigns = [] if quick else [whole_game(n, 30000) for n in
                                  ("tr-1939-campaign", "europa-barbarossa", "eurofront-1941")]
    load, texts = load_times(gen, sizes)
    big = texts[sizes[1]]
    ten, g10 = save_of(gen, 10)
    _, gbig = save_of(gen, sizes[1])
    cli_apply(ten, g10)  # warm-up: fills the bytecode cache a user's installed copy has
    apply_small = cli_apply(ten, g10)
    apply_big = cli_apply(big, gbig)
    data = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "platform": platform.platform()},
        "random_play": [{k: v for k, v in p.items() if k != "_game"} for p in plays],
        "real_maps": real,
        "whole_games": campaigns,
        "load": load,
        "apply_cli": {"save_10_s": round(apply_small, 3),
                      f"save_{sizes[1]}_s": round(apply_big, 3),
                      "ratio": round(apply_big / apply_small, 2)},
        "startup_cpu_s": round(startup_cpu(), 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    if args.json:
        print(json.dumps(data, indent=1))
    else:
        for p in data["random_play"]:
            print(p)
        print(json.dumps({k: v for k, v in data.items() if k != "random_play"}, indent=1))


if __name__ == "__main__":
    main()
