"""A study on Ray (issue 15): a local Ray instance started by the test gives the same records
as the local run for the same seeds."""

from __future__ import annotations

import os

import pytest

from grognard.analysis.study import Setting, run_games

ray = pytest.importorskip("ray")


def test_ray_run_matches_local_run():
    os.environ["RAY_ENABLE_UV_RUN_RUNTIME_ENV"] = "0"
    os.environ.setdefault("RAY_raylet_start_wait_time_s", "120")
    s = Setting("tr-1939-two-fronts", {"axis": "heuristic", "allies": "random"}, max_turns=2)
    seeds = [3, 4]
    local = sorted(run_games(s, seeds, workers=1), key=lambda r: r["seed"])
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 object_store_memory=80 * 1024 * 1024)
    except Exception as exc:  # a loaded machine: Ray's node may not come up in time
        ray.shutdown()
        pytest.skip(f"a local Ray instance did not start: {str(exc)[:120]}")
    try:
        remote = sorted(run_games(s, seeds, workers=2, address="local"),
                        key=lambda r: r["seed"])
    finally:
        ray.shutdown()
    assert remote == local and [r["seed"] for r in remote] == seeds
