"""Benchmark: exact table odds and Monte Carlo combats (run: uv run python bench/dice.py --json).

Measures, in one run, grognard's vectorised code against a straightforward pure-Python
baseline doing the same work:

* ``exact_table``: the exact probability of every result in every column of the 11-column
  Europa revised 2D6 CRT under every DRM from -4 to +4 (target: under 1 ms);
* ``monte_carlo``: sampled combats per second, each a 2D6 roll, DRM, clamp and table lookup
  (target: at least 20 million per second on one core, at least 20x the Python loop).
"""

from __future__ import annotations

import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import best_of, emit, machine, want_json
from grognard.analysis.montecarlo import simulate_codes
from grognard.core.dice import (
    DiceStream,
    Distribution,
    column_outcome_weights,
    modified_roll_weights,
)
from grognard.core.tables import load_tables

DRMS = range(-4, 5)


def exact_numpy(table, codes, n_codes):
    w = modified_roll_weights(Distribution.of("2d6"), DRMS, 2, 12)
    return column_outcome_weights(w, codes, n_codes)


def exact_python(table):
    out = {}
    for drm in DRMS:
        for col in table.columns:
            acc: dict[object, Fraction] = {}
            for a in range(1, 7):
                for b in range(1, 7):
                    r = min(max(a + b + drm, 2), 12)
                    res = table.rows[r][table.columns.index(col)]
                    acc[res] = acc.get(res, Fraction(0)) + Fraction(1, 36)
            out[drm, col] = acc
    return out


def mc_python(table, n, seed=1):
    rng = random.Random(seed)
    col = table.columns.index("3-1")
    counts: dict[object, int] = {}
    for _ in range(n):
        r = min(max(rng.randint(1, 6) + rng.randint(1, 6) + 1, 2), 12)
        res = table.rows[r][col]
        counts[res] = counts.get(res, 0) + 1
    return counts


def main() -> None:
    quick = "--quick" in sys.argv
    table = load_tables().table("europa_revised_crt")
    codes, alphabet = table.codes()
    # both must agree before we time them
    p = exact_numpy(table, codes, len(alphabet))
    slow = exact_python(table)
    for di, drm in enumerate(DRMS):
        for ci, col in enumerate(table.columns):
            for k, code in enumerate(alphabet):
                assert Fraction(int(p[di, ci, k]), 36) == slow[drm, col].get(code, 0)
    t_np = best_of(lambda: exact_numpy(table, codes, len(alphabet)), repeat=9, number=20)
    t_py = best_of(lambda: exact_python(table), repeat=5, number=1)

    n = 2_000_000 if quick else 20_000_000
    n_py = 50_000 if quick else 300_000
    stream = DiceStream(1, "bench")
    t0 = time.perf_counter()
    simulate_codes(table, "3-1", 1, n, stream)
    t_mc = time.perf_counter() - t0
    t0 = time.perf_counter()
    mc_python(table, n_py)
    t_mc_py = time.perf_counter() - t0
    per_s, per_s_py = n / t_mc, n_py / t_mc_py
    data = {
        "benchmark": "dice",
        "machine": machine(),
        "exact_table": {
            "table": table.id,
            "columns": len(table.columns),
            "drms": len(DRMS),
            "grognard_ms": round(t_np * 1e3, 4),
            "python_ms": round(t_py * 1e3, 3),
            "speedup": round(t_py / t_np, 1),
            "target_ms": 1.0,
        },
        "monte_carlo": {
            "combats": n,
            "grognard_per_s": round(per_s),
            "python_combats": n_py,
            "python_per_s": round(per_s_py),
            "speedup": round(per_s / per_s_py, 1),
            "target_per_s": 20_000_000,
        },
    }
    emit(data, want_json())


if __name__ == "__main__":
    main()
