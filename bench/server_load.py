"""Load on the game server over loopback: N concurrent games, each playing random legal commands.

    uv run python bench/server_load.py --json                 # 100 games x 20 commands
    uv run python bench/server_load.py --games 10 --commands 5 --quick --json

The server runs as ``grognard serve`` in its own process (SQLite file, one uvicorn worker, every
command a committed transaction); each game is driven by one client thread with a keep-alive
connection that fetches the seat's state, picks a random legal command (seeded) and submits it
against its version. Latency is the client's wall time per HTTP command, by command kind.
``--moves per_unit`` (the default, what the play page does) asks for answers without the moves
and for one unit's moves when it wants to move (timed too, as ``moves of a unit``); ``--moves
all`` takes every legal command, moves included, in each answer. The server's CPU time per
command (``server_cpu_ms_per_command``, all its requests' CPU over the commands) does not
depend on what else the machine runs, unlike the latencies.
Baseline (same run): the engine alone applying the same kind of commands in-process
(``Game.apply`` + ``Game.legal``), so the ratio is the cost of HTTP, JSON, views and the
transaction. ``--think-ms`` paces each player (a mean pause before each command);
without it every client submits as soon as it is answered (saturation). ``--quick`` serves from a thread of this process (for the smoke test).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from _common import cli_env

SCENARIO = "demo-europa"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pct(xs: list[float], p: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, round(p / 100 * (len(xs) - 1))))
    return round(xs[k], 3)


def _stats(xs: list[float]) -> dict[str, Any]:
    return {"n": len(xs), "p50_ms": _pct(xs, 50), "p99_ms": _pct(xs, 99),
            "mean_ms": round(statistics.fmean(xs), 3) if xs else 0.0}


class Client:
    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method: str, path: str, body: dict[str, Any] | None = None
             ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body)
        for attempt in (0, 1):
            try:
                self.conn.request(method, path, body=data,
                                  headers={"Content-Type": "application/json"})
                r = self.conn.getresponse()
                return r.status, json.loads(r.read() or b"null")
            except (BrokenPipeError, ConnectionResetError,
                    http.client.RemoteDisconnected):
                # the server closed an idle keep-alive connection: the request was not
                # taken (a retried command would be refused as stale, not applied twice)
                self.conn.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")


UNIT_MOVES = "moves of a unit"


def _pick(c: Client, api: str, st: dict[str, Any], rng: random.Random,
          timed: dict[str, list[float]]) -> dict[str, Any] | None:
    """A random legal command: 85% a move (with ``moves_per_unit``, one of a random unit's,
    asked for as the page does when a unit is clicked), else any listed command."""
    legal = st["legal"]
    if st.get("moves_per_unit") and (rng.random() < 0.85 or not legal):
        # the units a player would click: its own on the map with movement points left
        own = sorted(uid for uid, u in st["view"]["units"].items()
                     if u.get("side") == st["player"] and u.get("hex")
                     and u.get("status", "active") == "active"
                     and u.get("movement", 1) - u.get("mp_spent", 0) > 0)
        rng.shuffle(own)
        for uid in own[:4]:
            t = time.perf_counter()
            code, got = c.call("GET", f"{api}/moves/{uid}?as={st['player']}")
            timed.setdefault(UNIT_MOVES, []).append((time.perf_counter() - t) * 1000)
            if code == 200 and got["moves"]:
                return dict(rng.choice(got["moves"]))
    if not legal:
        return None
    moves = [x for x in legal if x["kind"] != "end_phase"]
    return dict(rng.choice(moves) if moves and rng.random() < 0.85 else rng.choice(legal))


def play(port: int, token: str, commands: int, seed: int, out: dict[str, list[float]],
         errors: list[str], lock: threading.Lock, think_ms: float = 0.0,
         per_unit: bool = True) -> None:
    rng = random.Random(seed)
    c = Client(port)
    api = f"/api/play/{token}"
    mode = "per_unit" if per_unit else "all"
    code, st = c.call("GET", f"{api}/state?moves={mode}")
    done = 0
    timed: dict[str, list[float]] = {}
    while done < commands and code == 200:
        if not st["status"]["active"]:
            break
        if st["player"] not in st["status"]["active"]:
            code, st = c.call("GET", f"{api}/state?moves={mode}&as={st['status']['active'][0]}")
            continue
        cmd = _pick(c, api, st, rng, timed)
        if cmd is None:
            break
        if think_ms:
            time.sleep(rng.uniform(0.5, 1.5) * think_ms / 1000)
        t = time.perf_counter()
        code, body = c.call("POST", f"{api}/command", {"version": st["version"],
                                                       "as": st["player"], "moves": mode,
                                                       **cmd})
        ms = (time.perf_counter() - t) * 1000
        if code != 200:
            with lock:
                errors.append(f"{code}: {body}")
            break
        timed.setdefault(cmd["kind"], []).append(ms)
        st = body
        done += 1
    with lock:
        for k, v in timed.items():
            out.setdefault(k, []).extend(v)


def _cpu_s(proc: subprocess.Popen[bytes] | None) -> float | None:
    """CPU seconds (user + system) the server process has used, from /proc (Linux)."""
    if proc is None:
        return None
    try:
        fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _settle(proc: subprocess.Popen[bytes] | None, timeout_s: float = 60) -> None:
    """Wait until the server process stops using CPU (its start-up warm-up is over)."""
    deadline = time.monotonic() + timeout_s
    before = _cpu_s(proc)
    while before is not None and time.monotonic() < deadline:
        time.sleep(0.5)
        now = _cpu_s(proc)
        if now is None or now - before < 0.02:
            return
        before = now


def baseline(games: int, commands: int, scenario: str = SCENARIO) -> dict[str, Any]:
    """The engine alone: the same random play in-process (apply + enumerate the next legal)."""
    from grognard.engine.game import Game
    from grognard.engine.scenario import load_scenario

    sc = load_scenario(scenario)
    rng = random.Random(1)
    times: list[float] = []
    for g_i in range(games):
        g = Game(sc, g_i)
        for _ in range(commands):
            if not g.active():
                break
            p = g.active()[0]
            legal = g.legal(p)
            moves = [x for x in legal if x.kind != "end_phase"]
            cmd = rng.choice(moves) if moves and rng.random() < 0.85 else rng.choice(legal)
            t = time.perf_counter()
            g.apply(cmd)
            g.legal(g.active()[0]) if g.active() else None
            times.append((time.perf_counter() - t) * 1000)
    return _stats(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default=SCENARIO, help=f"shipped scenario (default {SCENARIO})")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--commands", type=int, default=20, help="commands per game")
    ap.add_argument("--think-ms", type=float, default=0.0,
                    help="mean pause of each player before a command (0: as fast as answered)")
    ap.add_argument("--db", default=None, help="SQLAlchemy URL (default: a temp SQLite file)")
    ap.add_argument("--fsync", action="store_true",
                    help="serve with --fsync (SQLite flushes every command to the disk)")
    ap.add_argument("--quick", action="store_true", help="serve from a thread (smoke test)")
    ap.add_argument("--moves", choices=("per_unit", "all"), default="per_unit",
                    help="per_unit (what the page does): answers without the moves, one "
                    "unit's moves asked for before moving it; all: every move in each answer")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="grognard-load-")
    db = a.db or f"sqlite:///{Path(tmp) / 'load.sqlite'}"
    port = _port()
    proc = None
    thread_server = None
    if a.quick:
        import uvicorn

        from grognard.server.app import create_app

        thread_server = uvicorn.Server(uvicorn.Config(create_app(db, fsync=a.fsync),
                                                      host="127.0.0.1",
                                                      port=port, log_level="warning"))
        threading.Thread(target=thread_server.run, daemon=True).start()
    else:
        proc = subprocess.Popen([sys.executable, "-c", "from grognard.cli import entry; entry()",
                                 "serve", "--db", db, "--port", str(port),
                                 *(["--fsync"] if a.fsync else [])], env=cli_env(),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                Client(port).call("GET", "/api/scenarios")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        setup = Client(port)
        # the lobby waits for the server's warm-up (every scenario's summary); then wait until
        # the server is idle (the warm-up's imports done) so its CPU is not counted
        setup.conn.request("GET", "/")
        setup.conn.getresponse().read()
        _settle(proc)
        tokens = []
        for _ in range(a.games):
            _c, g = setup.call("POST", "/api/games", {"scenario": a.scenario, "mode": "hotseat"})
            tokens.append(g["seats"]["*"])
        out: dict[str, list[float]] = {}
        errors: list[str] = []
        lock = threading.Lock()
        threads = [threading.Thread(target=play, args=(port, t, a.commands, i, out, errors, lock,
                                                        a.think_ms, a.moves == "per_unit"))
                   for i, t in enumerate(tokens)]
        load0 = os.getloadavg()[0]
        cpu0 = _cpu_s(proc)
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        cpu1 = _cpu_s(proc)
        cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait()
        if thread_server is not None:
            thread_server.should_exit = True
    every = [x for k, xs in out.items() if k != UNIT_MOVES for x in xs]
    base = baseline(min(a.games, 20), a.commands, a.scenario)
    result = {
        "scenario": a.scenario, "games": a.games, "commands_per_game": a.commands,
        "think_ms": a.think_ms, "moves": a.moves,
        "server": "thread" if a.quick else "process", "database": db.split(":")[0],
        "fsync": a.fsync,
        "commands": len(every), "errors": len(errors), "first_error": errors[0] if errors else None,
        "wall_s": round(wall, 3), "commands_per_s": round(len(every) / wall, 1) if wall else 0,
        "all": _stats(every),
        "per_kind": {k: _stats(v) for k, v in sorted(out.items()) if k != UNIT_MOVES},
        "moves_of_a_unit": _stats(out.get(UNIT_MOVES, [])),
        "baseline_engine": base,
        "ratio_p50": round(_stats(every)["p50_ms"] / base["p50_ms"], 1) if base["p50_ms"] else None,
        "server_cpu_ms_per_command": None if cpu is None or not every
        else round(cpu * 1000 / len(every), 3),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_average_at_start": round(load0, 1),
                    "load_average": [round(x, 1) for x in os.getloadavg()]},
    }
    if a.json:
        print(json.dumps(result, indent=1))
    else:
        print(f"{result['commands']} commands in {result['wall_s']} s over {a.games} games: "
              f"p50 {result['all']['p50_ms']} ms, p99 {result['all']['p99_ms']} ms "
              f"(engine alone p50 {base['p50_ms']} ms)")
    return 0 if not errors else 1


if __name__ == "__main__":
    sys.exit(main())
