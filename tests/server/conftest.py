"""Fixtures of the server tests: an in-process client, a live server process, Debian's chromium
(installed by apt when missing and we are root) and a real PostgreSQL on a loopback port."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
PG_BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _apt_install(*packages: str) -> None:
    if os.geteuid() != 0:
        pytest.fail(f"{' '.join(packages)} missing and not root: install it with apt-get")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    # pytest-xdist workers may need a package at the same time: apt runs one at a time
    with open("/tmp/grognard-tests-apt.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", *packages], check=True, env=env,
                       capture_output=True)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Debian's chromium, installed when missing (the browser tests never skip)."""
    if not CHROMIUM.exists():
        _apt_install("chromium")
    assert CHROMIUM.exists()
    return str(CHROMIUM)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[object]:
    from fastapi.testclient import TestClient

    from grognard.server.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite'}")
    with TestClient(app) as c:
        yield c
    app.state.referee.store.dispose()


class LiveServer:
    """``grognard serve`` in its own process (so a test can kill -9 it)."""

    def __init__(self, db_url: str, port: int | None = None) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> LiveServer:
        """Start the server and wait until it answers. The port is free when chosen but
        another test's server (pytest-xdist runs them side by side) may take it first: then
        this server cannot bind and exits, while the other answers the readiness check. So
        readiness counts only while our own process lives, and a lost port is chosen again."""
        for _attempt in range(5):
            if self._start_once():
                return self
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}"
        raise RuntimeError("server did not start: no free port held")

    def _start_once(self) -> bool:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from grognard.cli import entry; entry()", "serve", "--db", self.db_url,
             "--port", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode()[-2000:] if self.proc.stderr else ""
                if "address already in use" in err.lower():
                    return False
                raise RuntimeError(f"server exited: {err}")
            try:
                urllib.request.urlopen(self.url + "/api/scenarios", timeout=2).read()
            except OSError:
                time.sleep(0.1)
                continue
            time.sleep(0.3)  # the answer may have come from another test's server
            if self.proc.poll() is None:
                return True
        raise RuntimeError("server did not start")

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    srv = LiveServer(f"sqlite:///{tmp_path / 'live.sqlite'}").start()
    try:
        yield srv
    finally:
        srv.stop()


# --- PostgreSQL ------------------------------------------------------------------------------
def _pg_bin() -> Path:
    dirs = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    if not dirs or not (dirs[0] / "postgres").exists():
        _apt_install("postgresql")
        dirs = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    return dirs[0]


def _as_user(user: str | None) -> list[str]:
    return ["runuser", "-u", user, "--"] if user else []


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throw-away PostgreSQL cluster on a loopback port, run as a non-root user."""
    bin_dir = _pg_bin()
    user = None
    if os.geteuid() == 0:
        user = "postgres"
        try:
            import pwd

            pwd.getpwnam(user)
        except KeyError:
            subprocess.run(["useradd", "--system", "--no-create-home", user], check=True)
    data = Path(tempfile.mkdtemp(prefix="grognard-pg-"))
    if user:
        shutil.chown(data, user)
    port = free_port()
    subprocess.run([*_as_user(user), str(bin_dir / "initdb"), "-D", str(data), "-U", "grognard",
                    "--auth=trust", "-E", "UTF8"], check=True, capture_output=True)
    log = data / "log.txt"
    subprocess.run([*_as_user(user), str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log),
                    "-o", f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=on",
                    "-w", "start"], check=True, capture_output=True)
    try:
        url = f"postgresql+psycopg://grognard@127.0.0.1:{port}/postgres"
        yield url
    finally:
        subprocess.run([*_as_user(user), str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast",
                        "-w", "stop"], capture_output=True)
        with contextlib.suppress(OSError):
            shutil.rmtree(data)


class ThreadServer:
    """The app served by uvicorn in a thread of the test process (its referee at hand)."""

    def __init__(self, db_url: str) -> None:
        import uvicorn

        from grognard.server.app import create_app

        self.app = create_app(db_url)
        self.referee = self.app.state.referee
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.referee.store.dispose()


@pytest.fixture
def thread_server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(f"sqlite:///{tmp_path / 'web.sqlite'}") as srv:
        yield srv


@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path,
                              args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def secret_strings(game: object, viewer: str) -> set[str]:
    """Distinctive strings of what ``viewer`` may not see in ``game``: other sides' hidden unit
    ids and the string values in their secrets (hex labels and side names excepted, as every
    seat sees those on the map), and each secret value's JSON."""
    import json

    g: Any = game
    m = g.scenario.map
    public = {m.label(i) for i in range(m.n)} | set(g.scenario.sides)
    out: set[str] = set()
    for uid, u in g.state["units"].items():
        if u.get("hidden") and u.get("side") != viewer:
            out.add(uid)

    def leaves(v: Any) -> None:
        if isinstance(v, str):
            if len(v) >= 3 and v not in public:
                out.add(v)
        elif isinstance(v, dict):
            for x in v.values():
                leaves(x)
        elif isinstance(v, list):
            for x in v:
                leaves(x)

    for side, sec in (g.state.get("secrets") or {}).items():
        if side == viewer or not sec:
            continue
        leaves(sec)
        for v in sec.values():
            if v:
                out.add(json.dumps(v, sort_keys=True, separators=(",", ":")))
    return out


def dest(args: Any) -> str:
    """Where a move command goes (``to``, or the end of its ``path``)."""
    return str(args.get("to") or args["path"][-1])


def whose_turn(ref: Any, gid: str) -> tuple[Any, str, int] | None:
    """(the live game, the first player who must act, the game's version), or None when
    nobody acts (the game is over)."""
    with ref.hold(gid) as loaded:
        active = loaded.game.active()
        return None if not active else (loaded.game, active[0], loaded.version)
