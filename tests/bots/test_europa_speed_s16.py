"""Issue 25 item 5, session 16: the Europa bots' game made faster gives the same answers (a
pure refactor: the oracle's bot games keep their final state hashes,
``bench/europa_bot_oracle.py``). Each shortcut is compared here with the plain computation it
replaced, on the refactor oracle's recorded heuristic europa-barbarossa game replayed command
by command, and each comparison can fail: the game gives the plain computation something to
find (counted), and a planted error is seen to be caught."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest
from tests.bots.test_europa_speed_s12 import _oracle_game

from grognard.core.dice import Dice
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.state import copy_state, state_hash
from grognard.europa import order as eo

_DECIDING = ("attack", "allocate_losses", "retreat")


def _engine_choices_plain(ctx: Context, state: Any, events: list[Event], dice: Dice,
                          deciders: Sequence[Any], folds: Mapping[str, Fold],
                          decisions: Any) -> list[Event]:
    """``europa.order.engine_choices`` as it was (session 15): the whole state copied."""
    by_kind = {o.kind: o for o in deciders}
    s = copy_state(state)
    for e in events:
        s = folds[e.type](s, Event(e.type, copy_state(e.data)))
    out = list(events)
    for _ in range(16):
        local = dataclasses.replace(ctx, cache={})
        forced = None
        for d in decisions(local, s):
            kinds = [k for k in eo.FORCED_KINDS if k in d.kinds]
            if not kinds or kinds[0] not in by_kind:
                continue
            order = by_kind[kinds[0]]
            if order.legal is None:
                continue
            options = list(itertools.islice(order.legal(local, s, d.player), 2))
            if len(options) == 1:
                forced = (order, options[0])
                break
        if forced is None:
            break
        order, cmd = forced
        for e in order.spec().execute(local, s, cmd, dice):
            marked = Event(e.type, {**e.data, "decided_by": "engine",
                                    "command": cmd.to_json()})
            out.append(marked)
            s = folds[e.type](s, Event(e.type, copy_state(marked.data)))
    return out


@pytest.fixture
def wrapped_engine_choices(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every call of ``engine_choices`` by the combat orders, through ``check(call, real)``
    appended to the list the test fills (none: the real function alone). A call made inside
    another (a forced answer's own execute) is checked as part of the outer call only."""
    checks: list[Any] = []
    real = eo.engine_choices
    depth = [0]

    def wrapper(*args: Any) -> list[Event]:
        depth[0] += 1
        try:
            if depth[0] == 1:
                for check in checks:
                    check(args, real)
            return real(*args)
        finally:
            depth[0] -= 1

    for name in _DECIDING:
        monkeypatch.setattr(importlib.import_module(f"grognard.europa.combat.orders.{name}"),
                            "engine_choices", wrapper)
    yield checks


def test_eur12_eur16_forced_choices_fold_a_copy_of_the_written_parts_only(
        wrapped_engine_choices: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """EUR-12..EUR-16 ``engine_choices`` folds a private state that copies only the parts
    the combat's folds write (``COMBAT_PARTS``), not the whole state: at every combat and
    answer of the oracle's heuristic game it gives the same events (and draws the same dice)
    as the whole-state copy it replaced, and leaves the game's state as it was. A copy
    without the unit table is seen to change the game's state."""
    seen = {"calls": 0, "forced": 0, "caught": 0}

    def compare(args: Any, real: Any) -> None:
        ctx, state, events, dice, deciders, folds, decisions = args
        before = state_hash(state)
        snap = dice.snapshot()
        want = _engine_choices_plain(ctx, state, events, dice, deciders, folds, decisions)
        drawn = dice.snapshot()
        dice.restore(snap)
        got = real(*args)
        assert [e.to_json() for e in got] == [e.to_json() for e in want]
        assert dice.snapshot() == drawn
        assert state_hash(state) == before
        dice.restore(snap)
        seen["calls"] += 1
        seen["forced"] += len(want) > len(events)
        # the planted error: the unit table left shared - the folds write the game's state
        mine = copy.deepcopy(state)
        with monkeypatch.context() as m:
            m.setattr(eo, "COMBAT_PARTS", tuple(p for p in eo.COMBAT_PARTS if p != "units"))
            real(ctx, mine, events, dice, deciders, folds, decisions)
        dice.restore(snap)
        seen["caught"] += state_hash(mine) != before

    wrapped_engine_choices.append(compare)
    for _game in _oracle_game(10**6):
        pass
    assert seen["calls"] >= 50 and seen["forced"] >= 20 and seen["caught"] >= 20, seen

