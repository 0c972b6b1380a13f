"""Issue 25, session 19: the attacker's move tables made faster give the same answers (a pure
refactor: the oracle's bot games keep their final state hashes, ``bench/europa_bot_oracle.py``).
Each shortcut is compared here with the plain computation it replaced, on the refactor
oracle's recorded heuristic europa-barbarossa game where a game is needed, and each comparison
can fail: what the plain computation found is counted, and a planted error is seen to be
caught."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from tests.bots.test_europa_speed_s12 import _oracle_game

from grognard.bots import europa_offence as off
from grognard.bots.heuristic import destination
from grognard.bots.situation import Situation
from grognard.engine.commands import Command


def _moves_by_unit_plain(sit: Situation, cands: Sequence[Command],
                         dest: Callable[[Command], Any]) -> dict[str, dict[int, Command]]:
    """``moves_by_unit`` as it was (session 18): each candidate's unit and hex looked up in
    turn."""
    idx = sit.map.index_of_label
    out: dict[str, dict[int, Command]] = {}
    for c in cands:
        to = dest(c)
        if to is None:
            continue
        uid = str(c.args.get("unit"))
        opts = out.get(uid)
        if opts is None:
            if uid not in sit.mine:
                continue
            opts = out[uid] = {}
        i = idx(str(to))
        if i not in opts:
            opts[i] = c
    return out


def _mixed(cands: list[Command], player: str, rnd: random.Random) -> list[Command]:
    """The lister's candidates as they come, then shuffled (a unit's moves no longer one
    run), with what a bot may also pass: a move by ``path``, a repeated hex (the first kept),
    a candidate with no destination and one of a unit that is not ours."""
    if not cands:
        return cands
    c0 = cands[0]
    to = str(c0.args["to"])
    extra = [Command("move", player, {"unit": c0.args["unit"], "path": [to]}),
             Command("move", player, {"unit": c0.args["unit"], "to": to}),
             Command("move", player, {"unit": c0.args["unit"]}),
             Command("move", player, {"unit": "not-a-unit", "to": to})]
    shuffled = cands + extra
    rnd.shuffle(shuffled)
    return extra + cands + shuffled


def _compare_moves_by_unit(fast: Callable[..., dict[str, dict[int, Command]]]
                           ) -> dict[str, int]:
    """``fast`` against the plain table at every 50th command of the recorded game in a
    movement or exploitation phase, both sides (the candidates each side's bot reads); the
    units and options the plain table found, counted. Identity of the commands kept is
    compared, not only equality (the first command to a hex is the one kept)."""
    rnd = random.Random(19)
    seen = {"positions": 0, "units": 0, "options": 0}
    for game in _oracle_game(50):
        if game.phase.name not in ("movement", "exploitation"):
            continue
        for player in ("axis", "soviet"):
            view = copy.deepcopy(game.view(player))
            sit = Situation.of(game.context, view, player)
            cands = _mixed(list(game.system.commands["move"].propose(
                game.context, game.state, player)), player, rnd)
            plain = _moves_by_unit_plain(sit, cands, destination)
            got = fast(sit, cands, destination)
            assert list(got) == list(plain)
            for uid, opts in plain.items():
                assert list(got[uid]) == list(opts)
                assert all(got[uid][i] is c for i, c in opts.items())
            seen["positions"] += 1
            seen["units"] += len(plain)
            seen["options"] += sum(len(o) for o in plain.values())
    return seen


def test_moves_by_unit_read_a_run_at_a_time_equals_the_plain_table() -> None:
    """EUR-17 The attacker's (and defender's) table of candidate moves by unit and hex, the
    unit looked up once per run of its moves, equals the table built candidate by
    candidate."""
    seen = _compare_moves_by_unit(off.moves_by_unit)
    assert seen["positions"] >= 10 and seen["units"] >= 500 and seen["options"] >= 20_000


def test_moves_by_unit_comparison_catches_a_planted_error() -> None:
    """The comparison fails on a table that keeps the last move to a hex, not the first."""
    def last_kept(sit: Situation, cands: Sequence[Command], dest: Callable[[Command], Any]
                  ) -> dict[str, dict[int, Command]]:
        return _moves_by_unit_plain(sit, list(reversed(cands)), dest)
    with pytest.raises(AssertionError):
        _compare_moves_by_unit(last_kept)


def _check_kept(kept: Callable[[Callable[[int], int]], Callable[[int], int]]) -> int:
    """``kept`` (a function of a hex made once per hex) against the plain function, asked in
    a random order with repeats, one kept function asking another and itself (as the
    exploitation plan's ``pre`` asks ``value_of``): each answer the function's, each hex
    computed once. The hexes asked, counted."""
    ran: list[int] = []

    def f(i: int) -> int:
        ran.append(i)
        return (i * 7919) % 101 - 50

    once = kept(f)

    def g(i: int) -> int:  # asks itself and ``once``, as the plan's ``pre`` does
        return once(i) + (kept_g(i - 1) if i % 3 else 0)

    kept_g = kept(g)
    rnd = random.Random(19)
    asked = [rnd.randrange(0, 400) for _ in range(3_000)]
    for i in asked:
        assert once(i) == (i * 7919) % 101 - 50
        assert kept_g(i) == g(i)
    assert len(ran) == len(set(ran))  # each hex computed once
    assert set(ran) >= set(asked)
    return len(set(asked))


def test_kept_per_hex_computes_each_hex_once_and_answers_as_the_function() -> None:
    """A function kept per hex (the plans' hex values and distances) answers as the
    function itself and runs it once per hex however often and in whatever order a hex is
    asked, also when one kept function asks another or itself."""
    assert _check_kept(off.kept_per_hex) > 300


def test_kept_per_hex_check_catches_a_planted_error() -> None:
    """The check fails on a function not kept (run on every ask)."""
    with pytest.raises(AssertionError):
        _check_kept(lambda f: f)


def _hex_path_plain(r: Any, h: int) -> list[int]:
    """``MoveRange.hex_path`` as it was (session 18): each step's predecessor found by
    ``np.searchsorted`` and read twice."""
    import numpy as np

    def pos(x: int) -> int:
        i = int(np.searchsorted(r.hexes, x))
        return i if i < len(r.hexes) and int(r.hexes[i]) == x else -1
    i = pos(h)
    if i < 0:
        return []
    out = [int(r.hexes[i])]
    while int(r.pred[i]) >= 0:
        out.append(int(r.pred[i]))
        i = pos(int(r.pred[i]))
    return out[::-1]


def _compare_paths(path: Callable[[Any, int], list[int]]) -> dict[str, int]:
    """``path`` against the plain walk for every hex of every range the move lister kept at
    every 100th command of the recorded game in a movement or exploitation phase, both
    sides, and for a hex out of each range; the paths and their steps counted."""
    from grognard.europa import movement as mv

    seen = {"ranges": 0, "paths": 0, "steps": 0}
    for game in _oracle_game(100):
        if game.phase.name not in ("movement", "exploitation"):
            continue
        ctx, state = game.context, game.state
        for player in ("axis", "soviet"):
            mv.legal_moves(ctx, state, player)
            for r in mv._side(ctx, state, player).ranges.values():
                seen["ranges"] += 1
                for h in [*r.hexes.tolist(), ctx.scenario.map.n - 1]:
                    plain = _hex_path_plain(r, h)
                    assert path(r, h) == plain
                    assert r.cost_to(h) == (None if not plain else
                                            int(r.cost[int(r.hexes.searchsorted(h))]))
                    seen["paths"] += 1
                    seen["steps"] += len(plain)
    return seen


def test_eur17_cheapest_paths_walked_equal_the_plain_walk() -> None:
    """EUR-17 A move's cheapest path read from its range (a ``to`` move's verify), each
    predecessor looked up once by the array's own search, equals the plain walk."""
    seen = _compare_paths(lambda r, h: r.hex_path(h))
    assert seen["ranges"] >= 50 and seen["paths"] >= 5_000 and seen["steps"] > seen["paths"]


def test_eur17_path_comparison_catches_a_planted_error() -> None:
    """The comparison fails on a walk that drops the start."""
    with pytest.raises(AssertionError):
        _compare_paths(lambda r, h: r.hex_path(h)[1:])
