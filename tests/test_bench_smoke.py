"""The benchmarks run (quick mode) and print the documented JSON keys; no timing is asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_dice_quick_json():
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "dice.py"), "--json", "--quick"],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["exact_table"]["columns"] == 11 and data["exact_table"]["drms"] == 9
    for key in ("grognard_ms", "python_ms", "speedup"):
        assert data["exact_table"][key] > 0
    for key in ("grognard_per_s", "python_per_s", "speedup"):
        assert data["monte_carlo"][key] > 0
