"""Issue 25: a study or ladder whose worker process dies (the out-of-memory killer) records
that game as failed and plays on; a failed game scores for neither bot."""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest

from grognard.analysis import study
from grognard.analysis.ladder import failed, score_of
from grognard.analysis.study import WORKER_DIED, Setting, run_jobs

KILLED_SEED = 13


def _fake_play_one(setting: Any, seed: int) -> dict[str, Any]:
    """A game that kills its own process on one seed (as the kernel's OOM killer would)."""
    if seed == KILLED_SEED:
        os.kill(os.getpid(), signal.SIGKILL)
    return {"scenario": setting["scenario"], "seed": seed, "bots": setting["bots"],
            "end": "over", "winner": "axis"}


def test_a_dead_worker_fails_its_game_and_the_study_goes_on(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    if os.name != "posix":
        pytest.skip("fork start method")
    monkeypatch.setattr(study, "play_one", _fake_play_one)
    s = Setting("demo-third-reich", {"axis": "random", "allies": "random"})
    seeds = [10, 11, 12, KILLED_SEED, 14, 15, 16]
    out = {rec["seed"]: rec for _s, rec in run_jobs([(s, x) for x in seeds], workers=2)}
    assert sorted(out) == seeds  # every game has a record
    assert out[KILLED_SEED]["end"] == "error" and out[KILLED_SEED]["error"] == WORKER_DIED
    assert failed(out[KILLED_SEED])
    assert all(out[x]["end"] == "over" for x in seeds if x != KILLED_SEED)


def test_a_failed_game_is_not_a_draw() -> None:
    assert failed({"end": "error", "winner": None})
    assert not failed({"end": "over", "winner": None})
    assert score_of({"end": "over", "winner": None}, "axis") == 0.5
