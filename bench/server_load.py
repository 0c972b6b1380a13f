"""Load on the game server over loopback: N concurrent games, each playing random legal commands.

    uv run python bench/server_load.py --json                 # 100 games x 20 commands
    uv run python bench/server_load.py --games 10 --commands 5 --quick --json

The server runs as ``grognard serve`` in its own process (SQLite file, one uvicorn worker, every
command a committed transaction); each game is driven by one client thread with a keep-alive
connection that fetches the seat's state, picks a random legal command (seeded) and submits it
against its version. Latency is the client's wall time per HTTP command, by command kind.
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


def play(port: int, token: str, commands: int, seed: int, out: dict[str, list[float]],
         errors: list[str], lock: threading.Lock, think_ms: float = 0.0) -> None:
    rng = random.Random(seed)
    c = Client(port)
    api = f"/api/play/{token}"
    code, st = c.call("GET", f"{api}/state")
    done = 0
    while done < commands and code == 200:
        if not st["status"]["active"]:
            break
        if st["player"] not in st["status"]["active"]:
            code, st = c.call("GET", f"{api}/state?as={st['status']['active'][0]}")
            continue
        legal = st["legal"]
        if not legal:
            break
        moves = [x for x in legal if x["kind"] != "end_phase"]
        cmd = rng.choice(moves) if moves and rng.random() < 0.85 else rng.choice(legal)
        if think_ms:
            time.sleep(rng.uniform(0.5, 1.5) * think_ms / 1000)
        t = time.perf_counter()
        code, body = c.call("POST", f"{api}/command", {"version": st["version"],
                                                       "as": st["player"], **cmd})
        ms = (time.perf_counter() - t) * 1000
        if code != 200:
            with lock:
                errors.append(f"{code}: {body}")
            break
        with lock:
            out.setdefault(cmd["kind"], []).append(ms)
        st = body
        done += 1


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
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        proc = subprocess.Popen([sys.executable, "-c", "from grognard.cli import entry; entry()",
                                 "serve", "--db", db, "--port", str(port),
                                 *(["--fsync"] if a.fsync else [])], env=env,
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
        tokens = []
        for _ in range(a.games):
            _c, g = setup.call("POST", "/api/games", {"scenario": a.scenario, "mode": "hotseat"})
            tokens.append(g["seats"]["*"])
        out: dict[str, list[float]] = {}
        errors: list[str] = []
        lock = threading.Lock()
        threads = [threading.Thread(target=play, args=(port, t, a.commands, i, out, errors, lock,
                                                        a.think_ms))
                   for i, t in enumerate(tokens)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait()
        if thread_server is not None:
            thread_server.should_exit = True
    every = [x for xs in out.values() for x in xs]
    base = baseline(min(a.games, 20), a.commands, a.scenario)
    result = {
        "scenario": a.scenario, "games": a.games, "commands_per_game": a.commands,
        "think_ms": a.think_ms,
        "server": "thread" if a.quick else "process", "database": db.split(":")[0],
        "fsync": a.fsync,
        "commands": len(every), "errors": len(errors), "first_error": errors[0] if errors else None,
        "wall_s": round(wall, 3), "commands_per_s": round(len(every) / wall, 1) if wall else 0,
        "all": _stats(every),
        "per_kind": {k: _stats(v) for k, v in sorted(out.items())},
        "baseline_engine": base,
        "ratio_p50": round(_stats(every)["p50_ms"] / base["p50_ms"], 1) if base["p50_ms"] else None,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
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
