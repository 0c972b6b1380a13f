"""bench/server_load.py runs (quick mode) and prints its documented JSON keys; no timing asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_server_load_bench_quick_json() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "server_load.py"), "--quick",
                        "--games", "3", "--commands", "4", "--json"],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    data = json.loads(r.stdout)
    assert data["games"] == 3 and data["errors"] == 0 and data["commands"] == 12
    for key in ("p50_ms", "p99_ms", "mean_ms"):
        assert data["all"][key] > 0 and data["baseline_engine"][key] > 0
    assert sum(k["n"] for k in data["per_kind"].values()) == data["commands"]
