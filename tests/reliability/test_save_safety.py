"""Saves that survive: a ``game apply`` killed while writing leaves the old save or the new one,
never a corrupt one; two ``game apply`` on one save at once lose neither command.

These run real ``grognard game apply`` processes on a save padded to 4 MB (so its write takes a
while). Each is forked from this test process with grognard already imported and runs
``grognard.cli.main`` (the console script's entry point) with its own file descriptors, lock
and fate: it can be killed with SIGKILL like any process, without paying a fresh interpreter's
start-up (imports) on every iteration. CI runs ``GROGNARD_SAVE_RUNS`` iterations of each
(default 10); ``scripts/save_safety_loop.sh`` runs 100 in a row (docs/RELIABILITY.md records it).
"""

from __future__ import annotations

import contextlib
import io
import json
import multiprocessing
import os
import random
import select
import time
from pathlib import Path

import pytest

from grognard.cli import main
from grognard.engine.game import Game
from grognard.engine.save import backup_path, dumps, load_game, save_game
from grognard.engine.scenario import load_scenario, parse_scenario

RUNS = int(os.environ.get("GROGNARD_SAVE_RUNS", "10"))
PAD_MB = int(os.environ.get("GROGNARD_SAVE_MB", "1"))
FORK = multiprocessing.get_context("fork")


def _big_game() -> Game:
    """demo-europa with ``PAD_MB`` MB of comment in its scenario text (the save embeds it)."""
    text = load_scenario("demo-europa").text
    pad = "".join(f"# padding line {i:05d} {'x' * 1000}\n" for i in range(1_000 * PAD_MB))
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
    with contextlib.redirect_stdout(io.StringIO()):  # import what the children run, once
        assert main(["game", "status", str(path), "--json"]) == 0
    return path, path.read_bytes(), g


def _run_apply(save: str, cmd: str, err: str, pause: tuple[str, int, int] | None) -> None:
    """The child: ``grognard game apply SAVE CMD --json``, stderr to ``err``, exit status as
    the console script's. With ``pause = (name, n, fd)`` it stops just before its ``n``-th call
    of ``os.<name>`` (``fsync``: the new save is in its temporary file, not yet renamed;
    ``replace``: the backup's or the save's rename) and tells the parent on ``fd``, which then
    kills it there: the kill lands mid-write however loaded the machine is."""
    null = os.open(os.devnull, os.O_WRONLY)
    log = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(null, 1)
    os.dup2(log, 2)
    if pause is not None:
        name, n, fd = pause
        real, calls = getattr(os, name), [0]

        def paused(*args: object) -> object:
            calls[0] += 1
            if calls[0] == n:
                os.write(fd, b"!")
                time.sleep(600)
            return real(*args)

        setattr(os, name, paused)
    os._exit(main(["game", "apply", save, cmd, "--json"]))


def _apply(save: Path, cmd: dict, n: int = 0,
           pause: tuple[str, int, int] | None = None) -> multiprocessing.process.BaseProcess:
    err = save.parent / f"apply{n}.err"
    proc = FORK.Process(target=_run_apply, args=(str(save), json.dumps(cmd), str(err), pause))
    proc.start()
    return proc


def _temporary(save: Path) -> list[Path]:
    """The temporary files of a write of ``save`` (``.big.json.XXXX.json``) or of its backup
    (``.big.json.bak.XXXX.tmp``)."""
    return [p for p in save.parent.iterdir() if p.name.startswith(f".{save.name}.")]


def _writing(save: Path) -> bool:
    """A temporary file of the save exists: a writer is between its open and its rename."""
    return bool(_temporary(save))


def _err(save: Path, n: int) -> str:
    return (save.parent / f"apply{n}.err").read_text(encoding="utf-8", errors="replace")


#: Where even runs stop the writer before killing it: its data written to the temporary file
#: (before the fsync), before the backup's rename, before the save's rename.
PAUSES = [("fsync", 1), ("replace", 1), ("replace", 2)]


def test_a_killed_apply_leaves_the_old_or_the_new_save(big) -> None:
    """kill -9 mid-write (even runs: stopped at a point of the write, then killed) or at a
    random moment of its run (odd runs): the save is byte-for-byte the old one or the new one
    and loads; never truncated or mixed."""
    path, old, g = big
    cmd = next(c for c in g.legal("axis") if c.kind == "move")
    done = Game(g.scenario, g.seed)
    done.apply(cmd)
    new = dumps(done).encode("utf-8")
    rng = random.Random(5)
    path.write_bytes(old)  # one whole run: how long an apply takes here
    start = time.perf_counter()
    proc = _apply(path, cmd.to_json())
    proc.join()
    whole = time.perf_counter() - start
    assert proc.exitcode == 0 and path.read_bytes() == new, _err(path, 0)
    outcomes = {"old": 0, "new": 0, "killed mid-write": 0}
    for i in range(RUNS):
        path.write_bytes(old)
        if i % 2 == 0:  # stopped mid-write, then killed
            r, w = os.pipe()
            proc = _apply(path, cmd.to_json(), pause=(*PAUSES[i // 2 % len(PAUSES)], w))
            os.close(w)
            ready, _, _ = select.select([r], [], [], 300)
            os.close(r)
            paused = bool(ready) and proc.is_alive() and _writing(path)
            if not paused:
                proc.kill()
            assert paused, f"run {i}: the writer did not stop mid-write at {PAUSES[i // 2 % 3]}"
        else:  # at a random moment of its run
            proc = _apply(path, cmd.to_json())
            proc.join(rng.uniform(0.0, 1.2 * whole))
        if proc.is_alive():
            outcomes["killed mid-write"] += _writing(path)
            proc.kill()
        proc.join()
        data = path.read_bytes()
        assert data in (old, new), f"run {i}: the save is neither the old nor the new one"
        outcomes["old" if data == old else "new"] += 1
        assert load_game(path, verify=False).state_hash() in (g.state_hash(),
                                                              done.state_hash())
        for p in _temporary(path):  # a killed writer may leave its temporary file
            p.unlink()
    assert outcomes["old"] + outcomes["new"] == RUNS
    assert outcomes["killed mid-write"] >= (RUNS + 1) // 2, outcomes
    print(f"kill -9 x{RUNS}: {outcomes}")


def test_two_applies_at_once_lose_no_command(big) -> None:
    """Two ``game apply`` started together on one save: both exit 0 and the save holds both
    commands (the lock serialises them; without it one update is lost)."""
    path, old, g = big
    a, b = _two_moves(g)
    for i in range(RUNS):
        path.write_bytes(old)
        procs = [_apply(path, a, 1), _apply(path, b, 2)]
        for n, p in enumerate(procs, start=1):
            p.join()
            assert p.exitcode == 0, f"run {i}: {_err(path, n)}"
        after = load_game(path, verify=False)
        got = [c.to_json() for c in after.commands]
        assert len(got) == 2 and a in got and b in got, f"run {i}: a command was lost"
        assert backup_path(path).exists()
