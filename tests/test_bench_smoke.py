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


def test_bench_engine_quick_json():
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "engine.py"), "--json", "--quick"],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    play = data["random_play"][0]
    assert play["commands"] > 0 and play["commands_per_s"] > 0 and play["apply_per_s"] > 0
    assert data["load"]["replay_per_command_ratio"] > 0
    assert data["apply_cli"]["ratio"] > 0 and data["startup_cpu_s"] >= 0


def test_bench_study_quick_json():
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "study.py"), "--json", "--quick"],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["same_results"] is True and data["speedup"] > 0
    for w in ("workers_1", "workers_2"):
        assert data[w]["games"] == 2 and data[w]["games_per_hour"] > 0
    assert data["workers_1"]["cpu_s_per_game"] > 0 and len(data["load_average_before"]) == 3


def test_bench_parse_quick_json():
    """bench/parse.py: scenario parsing against the TOML parse of the same text (issue 16)."""
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "parse.py"), "--json", "--quick"],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert [s["units"] for s in data["sizes"]] == [250, 1000]
    for s in data["sizes"]:
        assert s["parse_s"] > 0 and s["toml_baseline_s"] > 0 and s["ratio"] > 0
