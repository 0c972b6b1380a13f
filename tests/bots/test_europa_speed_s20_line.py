"""Issue 25, session 20: the defender's line values made faster give the same answers (a pure
refactor: the oracle's bot games keep their final state hashes,
``bench/europa_bot_oracle.py``). Each shortcut is compared here with the plain computation it
replaced, at every call the bots make in the first turns of a heuristic and a planner
europa-barbarossa game, and each comparison can fail: the games give the plain computation
something to find (counted), and a planted error is seen to be caught."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from tests.bots.test_europa_speed_s17 import _value_plain

from grognard.analysis.study import Setting, play_one
from grognard.bots import heuristic as h

#: the games the comparisons watch: (bots, seed, turns)
_GAMES = (("heuristic", 3, 2), ("planner", 7, 3))


@contextmanager
def _watched(method: str, check: Callable[..., Any]) -> Iterator[None]:
    """``DefencePlan.<method>`` replaced by ``check(real, plan, *args)`` while the block runs."""
    real = getattr(h.DefencePlan, method)

    def watched(plan: Any, *args: Any) -> Any:
        return check(real, plan, *args)
    setattr(h.DefencePlan, method, watched)
    try:
        yield
    finally:
        setattr(h.DefencePlan, method, real)


def _play(bots: str, seed: int, turns: int) -> None:
    play_one(Setting("europa-barbarossa", {"axis": bots, "soviet": bots},
                     max_turns=turns).to_json(), seed)


def _compare_values() -> dict[str, int]:
    """Every value the defenders ask (``DefencePlan.value``: the heuristic's line and second
    look, the planner's garrisons, counter-attacks and marches) against the plain value read
    afresh; counted: the values, those read from a kept one, those kept by another unit of
    the same kind, those found changed after their hex's stack or line changed (a kept one
    forgotten), the full stacks, and the values with a garrison wanted."""
    seen = {"values": 0, "kept": 0, "shared": 0, "changed": 0, "full": 0, "wanted": 0}
    first: dict[tuple[int, int, Any], str] = {}
    last: dict[tuple[int, int, Any], float] = {}

    def check(real: Callable[..., float], plan: Any, uid: str, i: int) -> float:
        kind = plan._units.get(uid) or plan._unit(uid)
        key = (id(plan), i, kind)
        kept = kind in plan._values.get(i, {})
        got = real(plan, uid, i)
        want = _value_plain(plan, uid, i)
        assert got == want, (uid, i, got, want)
        seen["values"] += 1
        seen["full"] += want == -99.0
        seen["wanted"] += plan.want.get(i, 0) > 0
        if kept:
            seen["kept"] += 1
            seen["shared"] += first[key] != uid
        else:
            seen["changed"] += key in last and last[key] != got
            first[key] = uid
        last[key] = got
        return got

    with _watched("value", check):
        for bots, seed, turns in _GAMES:
            _play(bots, seed, turns)
    return seen


def test_the_defenders_values_kept_per_unit_kind_and_hex_equal_the_plain_values() -> None:
    """``DefencePlan.value`` (a unit kind's part on a hex kept until the hex's stack or the
    cover of its line changes; the garrison wanted and the depth read afresh) equals the
    value read afresh at every call of the defenders' placements, and the kept values are
    used (by other units of the same kind too) and forgotten when they change."""
    seen = _compare_values()
    assert all(seen.values()), seen
    assert seen["kept"] > seen["values"] // 3, seen


def test_the_defenders_values_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when the kept values are not forgotten as a hex of the line is
    covered or uncovered, and when they are not forgotten as the hex's stack changes."""
    monkeypatch.setattr(h.DefencePlan, "_forget_line", lambda self, j: None)
    with pytest.raises(AssertionError):
        _compare_values()
    monkeypatch.undo()
    real = h.DefencePlan._stack

    def stale(plan: Any, i: int) -> None:
        kept = plan._values.get(i)
        real(plan, i)
        if kept is not None:
            plan._values[i] = kept
    monkeypatch.setattr(h.DefencePlan, "_stack", stale)
    with pytest.raises(AssertionError):
        _compare_values()


def test_the_map_graphs_neighbours_are_mutual() -> None:
    """``DefencePlan._forget_line`` finds the hexes whose line holds a hex among that hex's
    neighbours: it needs every neighbour's neighbours to hold the hex back (the shipped
    Barbarossa map's graph)."""
    from grognard.engine.game import Game
    from grognard.engine.scenario import load_scenario

    ctx = Game(load_scenario("europa-barbarossa"), 1).context
    g = h._graph(ctx.scenario.map, ctx.tables)
    assert sum(len(row) for row in g.nbrs) > 20_000
    assert all(i in g.nbrs[j] for i, row in enumerate(g.nbrs) for j in row)
