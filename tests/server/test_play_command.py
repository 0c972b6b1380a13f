"""``grognard play SCENARIO``: the README's main command starts the server on the embedded
database, creates a hotseat game and prints its URL (opening a browser when one can be)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from .conftest import free_port


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
        deadline = time.monotonic() + 90
        while True:
            try:
                page = urllib.request.urlopen(m.group(1), timeout=10).read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.2)
        assert 'class="hex' in page and "Third Reich" in page
        assert (tmp_path / "grognard" / "games.sqlite").exists()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
