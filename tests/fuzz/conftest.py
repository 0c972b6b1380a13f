"""Fuzzing settings: brief in CI (the whole directory in well under a minute), long on demand.

``uv run pytest tests/fuzz --fuzz-long`` runs 10,000 generated inputs per input kind (change it
with ``--fuzz-examples N``), not derandomized; ``--fuzz-report FILE`` writes how many inputs of
each kind were tried (docs/RELIABILITY.md records a long run).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_configure(config):
    if config.getoption("--fuzz-long", default=False):
        os.environ["GROGNARD_FUZZ_EXAMPLES"] = str(config.getoption("--fuzz-examples"))


def pytest_sessionfinish(session, exitstatus):
    path = session.config.getoption("--fuzz-report", default=None)
    if not path:
        return
    from fuzz_support import COUNTS

    with open(path, "w", encoding="utf-8") as f:
        json.dump({"tried": dict(sorted(COUNTS.items())), "exit_status": int(exitstatus)}, f,
                  indent=1)
        f.write("\n")
