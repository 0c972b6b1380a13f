"""Fuzzing settings: brief in CI (the whole directory in well under a minute), long on demand.

``uv run pytest tests/fuzz --fuzz-long`` runs 10,000 generated inputs per input kind (change it
with ``--fuzz-examples N``), not derandomized; a crash or a hang does not stop a long run: each
is recorded and the test fails at its end listing them. ``--fuzz-report FILE`` writes, per kind,
the inputs tried, the crashes and hangs found, the slowest input's CPU seconds and the CPU and
wall-clock time, every 100 inputs and at the end (docs/RELIABILITY.md records a long run).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_configure(config):
    if config.getoption("--fuzz-long", default=False):
        os.environ["GROGNARD_FUZZ_EXAMPLES"] = str(config.getoption("--fuzz-examples"))
    if config.getoption("--fuzz-report", default=None):
        os.environ["GROGNARD_FUZZ_REPORT"] = str(config.getoption("--fuzz-report"))


@pytest.fixture(autouse=True)
def _no_crash_recorded():
    """A long run records crashes instead of stopping; the test fails at its end if any."""
    from fuzz_support import FOUND

    before = {k: len(v) for k, v in FOUND.items()}
    yield
    new = {k: v[before.get(k, 0):] for k, v in FOUND.items() if len(v) > before.get(k, 0)}
    assert not new, json.dumps(new, indent=1, ensure_ascii=True)


def pytest_sessionfinish(session, exitstatus):
    path = session.config.getoption("--fuzz-report", default=None)
    if path:
        from fuzz_support import write_report

        write_report(path, int(exitstatus))
