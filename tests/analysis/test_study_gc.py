"""Issue 25: the garbage collector's setting around one study game (``study.game_collector``,
docs/PERFORMANCE.md session 19) holds only for that game: the threshold and the frozen
objects are back as they were after it, also after a game that raises, and the game played
is the same with or without it."""

from __future__ import annotations

import contextlib
import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from grognard.analysis import study
from grognard.analysis.study import GAME_GC_THRESHOLD, Setting, game_collector, play_one

SETTING = Setting("demo-europa", {"axis": "random", "soviet": "random"}, max_turns=1)
CALLER = (650, 9, 8)  # a caller's own setting, unlike Python's default (700, 10, 10)


@pytest.fixture
def callers_setting() -> Iterator[None]:
    """The caller's threshold set to CALLER for the test, and Python's put back after it."""
    if gc.get_freeze_count():
        pytest.skip("this process has frozen objects already")
    before = gc.get_threshold()
    gc.set_threshold(*CALLER)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _watching_play_game(seen: list[tuple[tuple[int, int, int], int]], raises: bool = False
                        ) -> Any:
    """``play_game`` that notes the collector's threshold and frozen count while it runs."""
    real = study.play_game

    def play_game(*args: Any, **kwargs: Any) -> Any:
        seen.append((gc.get_threshold(), gc.get_freeze_count()))
        if raises:
            raise RuntimeError("a bot's error")
        return real(*args, **kwargs)
    return play_game


def test_the_setting_holds_during_a_game_and_is_restored_after(
        callers_setting: None, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[tuple[int, int, int], int]] = []
    monkeypatch.setattr(study, "play_game", _watching_play_game(seen))
    rec = play_one(SETTING.to_json(), 3)
    assert rec["seed"] == 3 and rec["end"] != "error"
    (threshold, frozen), = seen
    assert threshold == (GAME_GC_THRESHOLD, *CALLER[1:])  # only the young threshold raised
    assert frozen > 0  # the loaded scenario and the new game were frozen
    assert gc.get_threshold() == CALLER
    assert gc.get_freeze_count() == 0  # nothing stays frozen into the next game


def test_the_setting_is_restored_after_a_game_that_raises(
        callers_setting: None, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[tuple[int, int, int], int]] = []
    monkeypatch.setattr(study, "play_game", _watching_play_game(seen, raises=True))
    with pytest.raises(RuntimeError, match="a bot's error"):
        play_one(SETTING.to_json(), 3)
    assert seen and seen[0][0][0] == GAME_GC_THRESHOLD and seen[0][1] > 0
    assert gc.get_threshold() == CALLER
    assert gc.get_freeze_count() == 0


def test_a_callers_frozen_objects_stay_frozen(callers_setting: None) -> None:
    gc.freeze()
    try:
        count = gc.get_freeze_count()
        assert count > 0
        with game_collector(5000):
            assert gc.get_threshold() == (5000, *CALLER[1:])
            # nothing more frozen (a frozen object freed by its count leaves the count)...
            assert 0 < gc.get_freeze_count() <= count
        assert 0 < gc.get_freeze_count() <= count  # ...and the caller's not unfrozen
        assert gc.get_threshold() == CALLER
    finally:
        gc.unfreeze()


def test_the_same_game_with_or_without_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    """The collector runs at other moments; the game must not depend on when (a pure
    refactor: bench/europa_game.py's seeds 7 and 3 keep their hashes, PERFORMANCE.md)."""
    with_it = play_one(SETTING.to_json(), 5)
    monkeypatch.setattr(study, "game_collector", contextlib.nullcontext)
    without = play_one(SETTING.to_json(), 5)
    assert with_it["state_hash"] == without["state_hash"]
    assert with_it == without


class _Cycle:
    me: _Cycle


def test_a_games_old_cyclic_garbage_is_not_frozen_into_the_next_game(
        callers_setting: None) -> None:
    """A cycle that reached the oldest generation and died in a game is collected when the game
    ends: without it the next game's freeze kept it, and a study worker grew by about 14 MB a
    game (2.9 GB over 100 europa-barbarossa games, session 19)."""
    with game_collector():
        c = _Cycle()
        c.me = c
        dead = weakref.ref(c)
        gc.collect(1)  # c survives into the oldest generation
        del c
    with game_collector():  # the next game
        assert dead() is None
