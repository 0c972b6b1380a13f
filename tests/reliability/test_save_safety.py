"""Saves that survive: a ``game apply`` killed while writing leaves the old save or the new one,
never a corrupt one; two ``game apply`` on one save at once lose neither command.

These run real ``grognard`` processes on a save padded to several MB (so its write takes a
while). CI runs ``GROGNARD_SAVE_RUNS`` iterations of each (default 10); docs/RELIABILITY.md
records a run of 100 in a row.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from grognard.engine.game import Game
from grognard.engine.save import backup_path, dumps, load_game, save_game
from grognard.engine.scenario import load_scenario, parse_scenario

RUNS = int(os.environ.get("GROGNARD_SAVE_RUNS", "10"))
CLI = [sys.executable, "-c", "import sys; from grognard.cli import main; sys.exit(main())"]


def _big_game() -> Game:
    """demo-europa with 4 MB of comment in its scenario text (the save embeds the text)."""
    text = load_scenario("demo-europa").text
    pad = "".join(f"# padding line {i:05d} {'x' * 2000}\n" for i in range(2_000))
    return Game(parse_scenario(text + pad, "big.toml"), 11)


def _two_moves(g: Game) -> tuple[dict, dict]:
    """Two axis moves of different units, each legal before and after the other."""
    moves = [c for c in g.legal("axis") if c.kind == "move"]
    for a in moves:
        for b in moves:
            if a.args["unit"] == b.args["unit"] or a.args["to"] == b.args["to"]:
                continue
            ga = Game(g.scenario, g.seed)
            gb = Game(g.scenario, g.seed)
            if ga.can(a) and (ga.apply(a) or True) and ga.can(b) and gb.can(b) \
                    and (gb.apply(b) or True) and gb.can(a):
                return a.to_json(), b.to_json()
    raise AssertionError("no two independent moves")


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes, Game]:
    folder = tmp_path_factory.mktemp("saves")
    g = _big_game()
    path = folder / "big.json"
    save_game(g, path)
    return path, path.read_bytes(), g


def _apply(save: Path, cmd: dict) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*CLI, "game", "apply", str(save), json.dumps(cmd), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_killed_apply_leaves_the_old_or_the_new_save(big) -> None:
    """kill -9 during the write (when its temporary file appears) or at a random moment: the
    save is byte-for-byte the old one or the new one and loads; never truncated or mixed."""
    path, old, g = big
    cmd = next(c for c in g.legal("axis") if c.kind == "move")
    done = Game(g.scenario, g.seed)
    done.apply(cmd)
    new = dumps(done).encode("utf-8")
    rng = random.Random(5)
    outcomes = {"old": 0, "new": 0}
    for i in range(RUNS):
        path.write_bytes(old)
        proc = _apply(path, cmd.to_json())
        if i % 2 == 0:  # kill the moment the temporary file exists: mid-write
            while proc.poll() is None and not any(
                    p.name.endswith(".tmp") for p in path.parent.iterdir()):
                # a short wait on the process, so the poll does not starve the writer
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=0.002)
        else:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=rng.uniform(0.2, 3.0))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.communicate()
        data = path.read_bytes()
        assert data in (old, new), f"run {i}: the save is neither the old nor the new one"
        outcomes["old" if data == old else "new"] += 1
        assert load_game(path, verify=False).state_hash() in (g.state_hash(),
                                                              done.state_hash())
        for p in path.parent.iterdir():  # a killed writer may leave its temporary file
            if p.name.endswith(".tmp"):
                p.unlink()
    assert sum(outcomes.values()) == RUNS


def test_two_applies_at_once_lose_no_command(big) -> None:
    """Two ``game apply`` started together on one save: both exit 0 and the save holds both
    commands (the lock serialises them; without it one update is lost)."""
    path, old, g = big
    a, b = _two_moves(g)
    for i in range(RUNS):
        path.write_bytes(old)
        procs = [_apply(path, a), _apply(path, b)]
        results = [p.communicate() for p in procs]
        for p, (_, err) in zip(procs, results, strict=True):
            assert p.returncode == 0, f"run {i}: {err.decode()}"
        after = load_game(path, verify=False)
        got = [c.to_json() for c in after.commands]
        assert len(got) == 2 and a in got and b in got, f"run {i}: a command was lost"
        assert backup_path(path).exists()
