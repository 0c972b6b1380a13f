"""``grognard play SCENARIO``: the README's main command starts the server on the embedded
database, creates a hotseat game and prints its URL (opening a browser when one can be)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

from .conftest import free_port


def _page_when_served(proc: subprocess.Popen[str], url: str) -> str:
    """The page at ``url`` once the server ``proc`` answers (at most 90 s)."""
    deadline = time.monotonic() + 90
    while True:
        try:
            return str(urllib.request.urlopen(url, timeout=10).read().decode())
        except OSError:
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.2)


def test_play_prints_the_url_of_a_hotseat_game_and_serves_it(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(XDG_DATA_HOME=str(tmp_path), BROWSER="true")
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from grognard.cli import entry; entry()", "play",
         "tr-1939-campaign", "--no-browser", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.search(r"(http://127\.0\.0\.1:\d+/play/\S+)", line)
        assert m, line + (proc.stderr.read() if proc.stderr and proc.poll() is not None else "")
        page = _page_when_served(proc, m.group(1))
        assert 'class="hex' in page and "Third Reich" in page
        assert (tmp_path / "grognard" / "games.sqlite").exists()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_serve_with_no_setup_serves_the_lobby_on_the_embedded_database(tmp_path: Path) -> None:
    """``grognard serve`` with no option and no database set up: the lobby lists every shipped
    scenario, and a game started from its form is stored in the default SQLite file."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(XDG_DATA_HOME=str(tmp_path))
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from grognard.cli import entry; entry()", "serve", "--port",
         str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                lobby = urllib.request.urlopen(url + "/", timeout=10).read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, \
                    proc.stderr.read() if proc.stderr and proc.poll() is not None else ""
                time.sleep(0.2)
        from grognard.engine.scenario import shipped_scenarios

        assert all(name in lobby for name in shipped_scenarios())
        form = urllib.parse.urlencode({"scenario": "demo-europa", "mode": "hotseat"}).encode()
        with urllib.request.urlopen(url + "/games", data=form, timeout=30) as r:
            page = r.read().decode()
            assert "/play/" in r.url and 'class="hex' in page
        assert (tmp_path / "grognard" / "games.sqlite").exists()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_play_with_bots_gives_the_person_a_seat_against_the_bot(tmp_path: Path) -> None:
    """issue 25 ("a person can play against the planner ... from the CLI"): ``grognard play
    SCENARIO --bots allies=planner`` creates a game whose Allies the planner plays and prints the
    Axis player's own seat link, which serves that seat's page."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(XDG_DATA_HOME=str(tmp_path), BROWSER="true")
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from grognard.cli import entry; entry()", "play",
         "tr-1939-campaign", "--bots", "allies=planner", "--no-browser", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "axis against planner as allies" in line, line
        m = re.search(r"(http://127\.0\.0\.1:\d+/play/\S+)", line)
        assert m, line
        page = _page_when_served(proc, m.group(1))
        assert 'class="hex' in page and "axis" in page.lower()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_play_with_bots_refuses_a_game_with_no_person(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(XDG_DATA_HOME=str(tmp_path), BROWSER="true")
    out = subprocess.run(
        [sys.executable, "-c", "from grognard.cli import entry; entry()", "play",
         "tr-1939-campaign", "--bots", "axis=planner,allies=planner", "--no-browser",
         "--port", str(free_port())], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode != 0
    assert "leave at least one side to a person" in out.stderr + out.stdout
    assert "Traceback" not in out.stderr
