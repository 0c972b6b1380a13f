"""The server keeps each seat's log and what it built for a position between requests (a
command adds one log entry instead of retelling the game): what it answers from those caches
is what a fresh server, reading the game from the database, answers."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from grognard.server.service import HOTSEAT, Referee
from grognard.server.store import Store

from .conftest import whose_turn


@pytest.mark.parametrize("scenario", ["demo-europa", "europa-surprise"])
def test_the_kept_log_is_the_log_a_fresh_server_tells(tmp_path: Path, scenario: str) -> None:
    ref = Referee(Store(f"sqlite:///{tmp_path / 'g.sqlite'}"))
    gid, tokens = ref.create(scenario, "seats", seed=7)
    rng = random.Random(3)
    sides = list(ref.scenario(scenario).sides)
    undone = step = 0
    while step < 14 and (turn := whose_turn(ref, gid)) is not None:
        game, player, version = turn
        token = tokens[player]
        for p in sides:  # both seats read their log at every position (filling the caches)
            ref.history(tokens[p])
        if step in (5, 9) and game.can_undo(player):
            ref.undo(token, version)
            undone += 1
        else:
            legal = ref.state_for(token)["legal"]
            cmd = rng.choice(legal)
            ref.command(token, version, cmd["kind"], cmd["args"])
        step += 1
        fresh = Referee(ref.store)
        for p in sides:
            t = tokens[p]
            assert ref.history(t) == fresh.history(t), (step, p)
            assert ref.state_for(t) == fresh.state_for(t), (step, p)
    assert undone and HOTSEAT not in tokens


def test_sqlite_checkpoints_run_in_their_own_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                    ) -> None:
    """No command's commit copies the WAL back into the file (its disk flushes would stall
    that command): a thread of its own does, every CHECKPOINT_EVERY commits."""
    import threading

    from grognard.server import store as store_mod

    monkeypatch.setattr(store_mod, "CHECKPOINT_EVERY", 3)
    store = Store(f"sqlite:///{tmp_path / 'g.sqlite'}")
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    ran: list[str] = []
    done = threading.Event()
    inner = store.checkpoint

    def spy() -> None:
        ran.append(threading.current_thread().name)
        inner()
        done.set()

    monkeypatch.setattr(store, "checkpoint", spy)
    ref = Referee(store)
    _gid, tokens = ref.create("demo-europa", "hotseat", seed=1)
    for _ in range(3):
        st = ref.state_for(tokens[HOTSEAT])
        cmd = st["legal"][0]
        ref.command(tokens[HOTSEAT], st["version"], cmd["kind"], cmd["args"], st["player"])
    assert done.wait(10) and ran == ["grognard-checkpoint"]
