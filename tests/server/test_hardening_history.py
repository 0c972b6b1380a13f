"""Issue 27, item 4: a history (the log a seat reads, asked for on every page load) and the VCR's
positions cost time linear in the game, run off the event loop, and are kept in the database,
so a restarted server answers the first history without walking the game again."""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete

from grognard.engine.fuzz import choose
from grognard.engine.game import Game
from grognard.server.service import HOTSEAT, KEEP_EVERY, Referee
from grognard.server.store import Store, logs, positions

#: Commands of the game the CI test plays (GROGNARD_HISTORY_COMMANDS=1000 for the figure).
COMMANDS = int(os.environ.get("GROGNARD_HISTORY_COMMANDS", "160"))


def _play(ref: Referee, scenario: str, n: int, seed: int = 5) -> tuple[str, str]:
    """A hotseat game of up to ``n`` random legal commands, each made through
    ``Referee.command`` (the server's own path: the log is told command by command)."""
    gid, tokens = ref.create(scenario, "hotseat", seed=seed)
    token = tokens[HOTSEAT]
    rng = random.Random(seed)
    payload = ref._payload
    ref._payload = lambda *a, **k: {}  # type: ignore[method-assign]  # no legal lists needed
    try:
        for _ in range(n):
            with ref.hold(gid) as loaded:
                g, version = loaded.game, loaded.version
                cmd = None if g.over else choose(g, rng)
            if cmd is None:
                break
            ref.command(token, version, cmd.kind, dict(cmd.args), cmd.player)
    finally:
        ref._payload = payload  # type: ignore[method-assign]
    return gid, token


def _folds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count every event fold (Game.fold) from now on."""
    count = [0]
    inner = Game.fold

    def fold(self: Game, state: Any, events: Any) -> Any:
        count[0] += 1
        return inner(self, state, events)

    monkeypatch.setattr(Game, "fold", fold)
    return count


@pytest.mark.parametrize("scenario", ["europa-surprise", "tr-1939-two-fronts", "eurofront-1941"])
def test_a_restarted_server_reads_the_history_instead_of_walking_the_game(
        tmp_path: Path, scenario: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.sqlite'}")
    gid, token = _play(Referee(store), scenario, COMMANDS)
    n = len(store.commands(gid))
    assert n >= 40
    sides = list(Referee(store).scenario(scenario).sides)
    folds = _folds(monkeypatch)
    restarted = Referee(store)
    told = {}
    for p in sides:
        cpu = time.process_time()
        told[p] = restarted.history(token, p)
        assert time.process_time() - cpu < 2.0
        assert len(told[p]["entries"]) == n
    # read from the store; an entry whose events the seat now sees differently (a reveal
    # since) is told again from what it saw change then: no state is rebuilt
    assert folds[0] == 0
    # what the server told command by command is what a walk of the whole game tells
    with store.begin() as conn:
        conn.execute(delete(logs))
        conn.execute(delete(positions))
    walked = Referee(store)
    for p in sides:
        assert walked.history(token, p) == told[p], p


def test_a_first_history_walks_the_game_once(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """With nothing kept (a game whose log was never told), the first history folds each
    command's events once, not once per earlier position (issue 27: 21-26 s for 400 commands
    on main, where every position was refolded from the start)."""
    store = Store(f"sqlite:///{tmp_path / 'g.sqlite'}")
    gid, token = _play(Referee(store), "europa-surprise", COMMANDS)
    n = len(store.commands(gid))
    with store.begin() as conn:
        conn.execute(delete(logs))
        conn.execute(delete(positions))
    folds = _folds(monkeypatch)
    restarted = Referee(store)
    h = restarted.history(token, "axis")
    assert len(h["entries"]) == n
    assert folds[0] <= n  # linear: main folded about n * n / 2 times
    # the walk kept a state every KEEP_EVERY commands: a VCR step folds at most that many
    kept = store.kept_positions(gid)
    assert set(kept) == set(range(KEEP_EVERY, n, KEEP_EVERY))
    before = folds[0]
    for k in (n - 1, 1, n // 2):
        view = restarted.position(token, k, "axis")["view"]
        assert view["viewer"] == "axis"
    assert folds[0] - before <= 3 * KEEP_EVERY


def test_undo_drops_what_was_kept_after_it(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.sqlite'}")
    ref = Referee(store)
    gid, token = _play(ref, "demo-europa", 6)
    with ref.hold(gid) as loaded:
        g = loaded.game
        player = g.commands[-1].player
        can = g.can_undo(player)
        version = loaded.version
    if not can:
        pytest.skip("the last random command cannot be undone")
    ref.undo(token, version, player)
    n = len(store.commands(gid))
    for p in ("axis", "soviet"):
        rows = store.log_rows(gid, p)
        assert [r[0] for r in rows] == list(range(-1, n))
        assert Referee(store).history(token, p) == ref.history(token, p)


def test_history_and_positions_run_in_the_thread_pool() -> None:
    """Not on the event loop: a long history never makes another game's request wait."""
    from grognard.server.app import create_app

    app = create_app("sqlite://")
    for route in app.routes:
        path = getattr(route, "path", "")
        if path.endswith(("/history", "/position/{n}", "/save")):
            assert not asyncio.iscoroutinefunction(route.endpoint), path  # type: ignore[attr-defined]
