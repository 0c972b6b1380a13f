"""Issue 25, session 21: the Europa bots' move tables and scores read faster give the same
answers (a pure refactor: the oracle's bot games keep their final state hashes,
``bench/europa_bot_oracle.py``). Each shortcut is compared here with the plain computation it
replaced, on the refactor oracle's recorded heuristic europa-barbarossa game, and each
comparison can fail: what the plain computation found is counted, and a planted error is seen
to be caught."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from tests.bots.test_europa_speed_s12 import _oracle_game
from tests.bots.test_europa_speed_s19_moves import _mixed, _moves_by_unit_plain

from grognard.bots import europa_offence as off
from grognard.bots.heuristic import destination
from grognard.bots.situation import Situation
from grognard.engine.commands import Command


def _compare_moves_by_unit(fast: Callable[..., dict[str, dict[int, Command]]],
                           dest: Callable[[Command], Any] = destination) -> dict[str, int]:
    """``fast`` against the plain table (session 18's loop) at every 50th command of the
    recorded game in a movement or exploitation phase, both sides, the lister's candidates
    mixed (:func:`_mixed`); the units and options the plain table found, counted. The
    commands kept are compared by identity (the first command to a hex is the one kept)."""
    rnd = random.Random(21)
    seen = {"positions": 0, "units": 0, "options": 0}
    for game in _oracle_game(50):
        if game.phase.name not in ("movement", "exploitation"):
            continue
        for player in ("axis", "soviet"):
            sit = Situation.of(game.context, copy.deepcopy(game.view(player)), player)
            cands = _mixed(list(game.system.commands["move"].propose(
                game.context, game.state, player)), player, rnd)
            plain = _moves_by_unit_plain(sit, cands, dest)
            got = fast(sit, cands, dest)
            assert list(got) == list(plain)
            for uid, opts in plain.items():
                assert list(got[uid]) == list(opts)
                assert all(got[uid][i] is c for i, c in opts.items())
            seen["positions"] += 1
            seen["units"] += len(plain)
            seen["options"] += sum(len(o) for o in plain.values())
    return seen


def test_moves_by_unit_reading_to_in_place_equals_the_plain_table() -> None:
    """EUR-17 The table of candidate moves by unit and hex, a move's ``to`` read without
    :func:`destination`'s call and each hex's index looked up once a listing, equals the
    table built candidate by candidate (the lister's candidates, shuffled, with a ``path``
    move, a repeated hex, no destination and a foreign unit: the commands kept compared by
    identity)."""
    seen = _compare_moves_by_unit(off.moves_by_unit)
    assert seen["positions"] >= 10 and seen["units"] >= 500 and seen["options"] >= 20_000


def test_moves_by_unit_with_another_destination_asks_it() -> None:
    """A destination other than :func:`destination` is asked of every candidate (the ``to``
    shortcut is :func:`destination`'s alone): here one that reads only a ``path``, so every
    ``to`` move is left out, as the plain table leaves it."""
    def path_only(c: Command) -> Any:
        path = c.args.get("path")
        return path[-1] if isinstance(path, list) and path else None

    seen = _compare_moves_by_unit(off.moves_by_unit, dest=path_only)
    assert seen["positions"] >= 10 and 0 < seen["options"] <= seen["positions"]


def test_moves_by_unit_comparison_catches_a_planted_error(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The comparison fails on a table with one of a unit's hex indices off by one (as a
    label's index kept under the wrong label would give)."""
    def shifted(sit: Situation, cands: Sequence[Command], dest: Callable[[Command], Any]
                ) -> dict[str, dict[int, Command]]:
        got = off.moves_by_unit(sit, cands, dest)
        return {u: {(i + 1 if n == 7 else i): c for n, (i, c) in enumerate(o.items())}
                for u, o in got.items()}
    with pytest.raises(AssertionError):
        _compare_moves_by_unit(shifted)


def _compare_march_scores(check: Callable[[list[float], list[float]], None]) -> dict[str, int]:
    """The planner Axis's :meth:`score_moves` against :meth:`score_move` one by one, on every
    move candidate of the first position (every 10th command) of each Axis movement and
    exploitation phase of the recorded game, shuffled, with ``path`` moves, moves with no
    destination and a foreign unit's added; what the plain scores found, counted."""
    from grognard.bots.base import LazyView, LegalActions, Seat
    from grognard.bots.planner import PlannerBot

    rnd = random.Random(21)
    seen = {"phases": 0, "moves": 0, "marched": 0, "back": 0, "paths": 0}
    done: set[tuple[Any, ...]] = set()
    for game in _oracle_game(10):
        at = (game.state["turn"], game.state["phase"])
        if game.phase.player != "axis" or game.phase.name not in ("movement", "exploitation") \
                or at in done:
            continue
        done.add(at)
        bot = PlannerBot(Seat.of(game, "axis"))
        sit = bot.policy.situation(LazyView(game, "axis"), game)
        assert bot.policy.defending is False  # the attacker
        cands = list(LegalActions(game, "axis").candidates("move"))
        extra = [Command("move", "axis", {"unit": c.args["unit"], "path": [c.args["to"]]})
                 for c in rnd.sample(cands, min(200, len(cands)))]
        extra += [Command("move", "axis", {"unit": cands[0].args["unit"]}),
                  Command("move", "axis", {"unit": "not-a-unit", "to": cands[0].args["to"]})]
        cands += extra
        rnd.shuffle(cands)
        plain = [bot.policy.score_move(sit, c) for c in cands]
        check(bot.policy.score_moves(sit, cands), plain)
        seen["phases"] += 1
        seen["moves"] += len(cands)
        seen["marched"] += sum(1 for s in plain if s >= 1)
        seen["back"] += sum(1 for s in plain if s == -0.1)
        seen["paths"] += sum(1 for c, s in zip(cands, plain, strict=True)
                             if "path" in c.args and s >= 1)
    return seen


def _equal(got: list[float], plain: list[float]) -> None:
    assert got == plain


def test_planner_march_scores_reading_to_in_place_equal_the_scores_one_by_one() -> None:
    """The planner attacker's move scores, a move's ``to`` read in place and each hex's index
    looked up once, equal :meth:`score_move` of each move (``path`` moves among them)."""
    seen = _compare_march_scores(_equal)
    assert seen["phases"] >= 2 and seen["marched"] > 0 and seen["back"] > 0, seen
    assert seen["paths"] > 0, seen


def test_planner_march_scores_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when a ``path`` move is scored as staying put."""
    from grognard.bots.planner_plans import EuropaPlannerPolicy

    real = EuropaPlannerPolicy.score_moves

    def planted(self: Any, sit: Any, cmds: Sequence[Command]) -> list[float]:
        got = real(self, sit, cmds)
        return [0.0 if "path" in c.args else s for c, s in zip(cmds, got, strict=True)]
    monkeypatch.setattr(EuropaPlannerPolicy, "score_moves", planted)
    with pytest.raises(AssertionError):
        _compare_march_scores(_equal)


def test_destination_reads_to_then_the_path() -> None:
    """:func:`destination` (now in ``bots.situation``, still the heuristic's name): ``to``
    first, else the path's last hex, else None."""
    assert destination(Command("move", "axis", {"unit": "u", "to": "0101"})) == "0101"
    assert destination(Command("move", "axis", {"unit": "u", "path": ["0101", "0102"]})) \
        == "0102"
    assert destination(Command("move", "axis", {"unit": "u", "to": 5, "path": ["0102"]})) \
        == "0102"
    assert destination(Command("move", "axis", {"unit": "u"})) is None


class _Counted:
    """A game whose ``objectives()`` (the rule system's hook) is counted."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.asked = 0

    def objectives(self) -> list[Any]:
        self.asked += 1
        got: list[Any] = self.game.objectives()
        return got


def _situation_plain(policy: Any, view: Any, game: Any) -> tuple[Any, ...]:
    """What the Europa policy's picture read of ``Game.objectives()`` as it was (session 20):
    the victory places added from one call (:func:`add_victory_objectives`), the list kept
    for the plans from a second."""
    sit = Situation.of(policy.seat.context, view, policy.seat.player)
    goals: dict[str, int] = {}
    for o in game.objectives():
        if sit.player not in o.wanted_by:
            continue
        worth = 3 + 2 * int(o.value)
        if o.holder != sit.player:
            sit.objectives[o.hex] = max(sit.objectives.get(o.hex, 0), worth)
            goals[o.hex] = worth
        elif sit.enemy_hexes and sit.nearest(o.hex, sit.enemy_hexes) <= 3:
            goals[o.hex] = worth
    return sit.objectives, goals, list(game.objectives())


def _compare_situations(check: Callable[[tuple[Any, ...], tuple[Any, ...]], None]
                        ) -> dict[str, int]:
    """Each side's Europa policy picture at every 20th command of the recorded game (the
    view copied) against :func:`_situation_plain`; ``Game.objectives()`` asked once a
    picture. What the plain one found (goals to take, places to keep), counted."""
    from grognard.bots.base import Seat
    from grognard.bots.heuristic import EuropaPolicy

    seen = {"positions": 0, "take": 0, "keep": 0}
    for game in _oracle_game(20):
        for player in ("axis", "soviet"):
            policy = EuropaPolicy(Seat.of(game, player))
            counted = _Counted(game)
            sit = policy.situation(copy.deepcopy(game.view(player)), counted)
            assert counted.asked == 1
            got = (sit.objectives, sit.memo("victory.goals", dict),
                   sit.memo("victory.objectives", list))
            plain = _situation_plain(policy, copy.deepcopy(game.view(player)), game)
            check(got, plain)
            seen["positions"] += 1
            seen["take"] += sum(1 for o in plain[2] if o.holder != player)
            held = {o.hex for o in plain[2] if o.holder == player}
            seen["keep"] += sum(1 for h in plain[1] if h in held)
    return seen


def _same(got: tuple[Any, ...], plain: tuple[Any, ...]) -> None:
    assert got == plain


def test_europa_picture_asks_the_objectives_once() -> None:
    """The Europa policy's picture (its victory places, the goals it drives on or keeps,
    the objectives its plans read) asks ``Game.objectives()`` once a decision and equals the
    picture that asked it twice."""
    seen = _compare_situations(_same)
    # the recorded game's first 1,000 commands have no held place with the enemy near
    assert seen["positions"] >= 40 and seen["take"] > 0, seen


def test_europa_picture_comparison_catches_a_planted_error(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The comparison fails when one place to take is left out of the goals."""
    from grognard.bots import heuristic

    real = heuristic.add_victory_objectives

    def planted(sit: Situation, game: Any) -> None:
        real(sit, game)
        goals = sit.memo("victory.goals", dict)
        if goals:
            del goals[next(iter(goals))]
    monkeypatch.setattr(heuristic, "add_victory_objectives", planted)
    with pytest.raises(AssertionError):
        _compare_situations(_same)
