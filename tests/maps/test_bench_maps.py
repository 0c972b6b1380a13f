"""bench/maps.py runs and prints its documented keys (no timing is asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_maps_json() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "maps.py"), "--json"],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert [m["map"] for m in data["maps"]] == ["tr-europe", "europa-barbarossa"]
    for m in data["maps"]:
        assert m["hexes"] > 2000
        for key in ("cold_load_s", "warm_load_s", "toml_baseline_s", "ratio"):
            assert m[key] > 0
