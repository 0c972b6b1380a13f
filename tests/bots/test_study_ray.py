"""A study on Ray (issue 15): a local Ray instance started by the test gives the same records
as the local run for the same seeds.

Cheap on purpose (two short games of the small Europa demo) and never skipped: Ray is a dev
dependency, and on a loaded machine the start is retried (``start_local_ray``) instead of
giving up, since a skip in CI counts as a failure.
"""

from __future__ import annotations

import ray

from grognard.analysis.study import Setting, run_games, start_local_ray


def test_ray_run_matches_local_run():
    s = Setting("demo-europa", {"axis": "heuristic", "soviet": "random"}, max_commands=30)
    seeds = [3, 4]
    local = sorted(run_games(s, seeds, workers=1), key=lambda r: r["seed"])
    start_local_ray(workers=1)
    try:
        assert ray.is_initialized()
        remote = sorted(run_games(s, seeds, workers=1, address="local"),
                        key=lambda r: r["seed"])
    finally:
        ray.shutdown()
    assert [r["seed"] for r in remote] == seeds and local[0]["commands"] > 0
    assert remote == local
