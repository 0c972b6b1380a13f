"""Shared bits of the benchmarks: timing, machine description, JSON output."""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any


def cli_env() -> dict[str, str]:
    """The environment of a user's shell for a grognard subprocess: Python may write its
    bytecode cache. With PYTHONDONTWRITEBYTECODE set (some sandboxes set it) every run
    recompiles grognard, numpy and scipy from source, about 1.5 s of CPU no installed copy pays."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def best_of(fn: Callable[[], object], repeat: int = 7, number: int = 1) -> float:
    """Median seconds per call over ``repeat`` rounds of ``number`` calls (after a warm-up)."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)


def machine() -> dict[str, Any]:
    import numpy as np

    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def emit(data: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(data, indent=2))
    else:
        for k, v in data.items():
            print(f"{k}: {v}")


def want_json() -> bool:
    return "--json" in sys.argv
