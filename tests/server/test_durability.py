"""Each command is one transaction: a server killed with SIGKILL during a burst of commands
keeps every command it acknowledged and nothing half-written; after a restart the game replays
from its seed and log to the stored hash. The same store runs on a real PostgreSQL."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from grognard.engine.commands import Command
from grognard.engine.events import Event
from grognard.engine.game import Game
from grognard.engine.scenario import parse_scenario
from grognard.server.service import Referee
from grognard.server.store import StaleVersion, Store

from .conftest import LiveServer


def _call(url: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def _check_replays(store: Store, gid: str) -> list[dict[str, Any]]:
    """The stored log replays from the seed to the stored events and hash; returns it."""
    row = store.game(gid)
    assert row is not None
    rows = store.commands(gid)
    assert [r.n for r in rows] == list(range(len(rows)))
    g = Game.replay(parse_scenario(row.scenario_text), row.seed,
                    [Command.from_json(r.command) for r in rows],
                    [[Event.from_json(e) for e in r.events] for r in rows])
    assert row.version >= len(rows)
    if rows:
        assert g.state_hash() == rows[-1].state_hash
    assert json.loads(row.state) == g.state
    return [r.command for r in rows]


def test_kill_9_during_a_burst_keeps_exactly_the_acknowledged_commands(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'burst.sqlite'}"
    srv = LiveServer(db).start()
    acked: list[dict[str, Any]] = []
    sent: list[dict[str, Any]] = []
    try:
        code, g = _call(f"{srv.url}/api/games", {"scenario": "demo-europa", "mode": "hotseat"})
        assert code == 200
        gid, token = g["game"], g["seats"]["*"]
        api = f"{srv.url}/api/play/{token}"
        stop = threading.Event()

        def burst() -> None:
            code, st = _call(f"{api}/state")
            while not stop.is_set():
                legal = [c for c in st["legal"] if c["kind"] != "end_phase"] or st["legal"]
                cmd = {"kind": legal[0]["kind"], "args": legal[0]["args"]}
                sent.append(dict(cmd, player=st["player"]))
                try:
                    code, out = _call(f"{api}/command", {"version": st["version"],
                                                          "as": st["player"], **cmd})
                except OSError:
                    return  # the server died under us: this one was not acknowledged
                assert code == 200, out
                acked.append(dict(cmd, player=st["player"]))
                st = out
                if not st["status"]["active"]:
                    return
                if st["player"] not in st["status"]["active"]:
                    code, st = _call(f"{api}/state?as={st['status']['active'][0]}")

        t = threading.Thread(target=burst)
        t.start()
        while len(acked) < 25 and t.is_alive():
            threading.Event().wait(0.01)
        srv.kill9()
        stop.set()
        t.join(timeout=20)
    finally:
        srv.stop()
    assert len(acked) >= 25
    store = Store(db)
    stored = _check_replays(store, gid)
    want = [{"kind": c["kind"], "player": c["player"], "args": c["args"]} for c in acked]
    # every acknowledged command is there, in order; at most the one in flight when the
    # server died may also have committed (its answer never arrived), nothing else
    assert stored[:len(want)] == want
    assert len(stored) - len(want) in (0, 1)
    if len(stored) > len(want):
        assert {k: sent[len(want)][k] for k in ("kind", "player", "args")} == stored[-1]
    store.dispose()
    # the restarted server serves the game at the stored version and takes new commands
    srv2 = LiveServer(db).start()
    try:
        code, st = _call(f"{srv2.url}/api/play/{token}/state")
        assert code == 200 and st["status"]["commands"] == len(stored)
        code, _ = _call(f"{srv2.url}/api/play/{token}/command",
                        {"version": st["version"], "as": st["player"], **st["legal"][0]})
        assert code == 200
    finally:
        srv2.stop()


def test_the_store_on_postgresql(postgres_url: str) -> None:
    """Games, seats, commands, undo, stale refusal and reload on a real PostgreSQL server."""
    store = Store(postgres_url)
    ref = Referee(store)
    gid, seats = ref.create("demo-europa")
    axis = seats["axis"]
    st = ref.state_for(axis)
    for _ in range(3):
        mv = next(c for c in st["legal"] if c["kind"] == "move")
        st = ref.command(axis, st["version"], "move", mv["args"])
    # two referees (two server processes) on one database: the second submission is stale
    other = Referee(Store(postgres_url))
    mv = next(c for c in st["legal"] if c["kind"] == "move")
    other.command(axis, st["version"], "move", mv["args"])
    try:
        ref.command(axis, st["version"], "move", mv["args"])
        raise AssertionError("a stale command was accepted")
    except StaleVersion:
        pass
    st = ref.undo(axis, st["version"] + 1)
    assert st["status"]["commands"] == 3
    assert _check_replays(store, gid)
    again = Referee(Store(postgres_url)).state_for(axis)
    assert again["view"] == st["view"] and again["version"] == st["version"]
    assert any(g["id"] == gid for g in store.list_games())
    store.dispose()
    other.store.dispose()
