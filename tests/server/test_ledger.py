"""The ledger panel and the log's account lines come from the rule system's ``ledger`` hook
read on the seat's own views (``Game.ledger``): the server names no system's state key, and a
seat never sees an account its view hides (C-HIDDEN)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from grognard.engine import Game
from grognard.engine.state import JSON
from grognard.engine.system import system_named
from grognard.server import service
from grognard.server.service import Referee
from grognard.server.store import Store

from .conftest import whose_turn


def _hiding_europa() -> type[Game]:
    """Games of Europa whose view shows a seat only its own SP stockpile."""
    rules = system_named("europa")

    def view(state: JSON, player: str) -> JSON:
        v = rules.view(state, player)
        v["logistics"]["sp"] = {player: state["logistics"]["sp"][player]}
        return v

    hiding = dataclasses.replace(rules, view=view)

    class Hiding(Game):
        def __init__(self, scenario: Any, seed: int | None = None, **kw: Any) -> None:
            super().__init__(scenario, seed, system=hiding, **kw)

    return Hiding


def test_c_hidden_a_seats_ledger_never_shows_what_its_view_hides(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Europa with a view that hides the other side's stockpile: each seat's state and history
    (every position's ledger, every log line) show its own SPs and never the other side's,
    though the other stockpile changes in play; a restarted server tells the same."""
    monkeypatch.setattr(service, "Game", _hiding_europa())
    ref = Referee(Store(f"sqlite:///{tmp_path / 'g.sqlite'}"))
    gid, tokens = ref.create("europa-barbarossa", "seats", seed=3)
    with ref.hold(gid) as loaded:
        start = dict(loaded.game.state["logistics"]["sp"])
    for _ in range(40):
        turn = whose_turn(ref, gid)
        assert turn is not None
        _game, player, version = turn
        legal = ref.state_for(tokens[player], per_unit=True)["legal"]
        cmd = next((c for c in legal if c["kind"] == "end_phase"), legal[0])
        ref.command(tokens[player], version, cmd["kind"], cmd["args"])
    with ref.hold(gid) as loaded:
        now = dict(loaded.game.state["logistics"]["sp"])
    assert all(now[p] != start[p] for p in start)  # both stockpiles moved
    fresh = Referee(ref.store)
    for p, token in tokens.items():
        other = next(s for s in tokens if s != p)
        st = ref.state_for(token)
        assert st["ledger"][f"{p} SPs"] == str(now[p])
        assert f"{other} SPs" not in st["ledger"]
        h = ref.history(token)
        assert h == fresh.history(token)
        assert len(h["ledger"]) == len(h["entries"]) + 1
        assert all(f"{p} SPs" in led and f"{other} SPs" not in led for led in h["ledger"])
        lines = [c for e in h["entries"] for c in e["changes"]]
        assert any(c.startswith(f"{p} SPs: ") for c in lines)
        assert not any(c.startswith(f"{other} SPs") for c in lines)
