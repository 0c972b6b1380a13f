"""Benchmark: scenario parsing is linear in the scenario's size (run: uv run python bench/parse.py --json).

Generates Europa-style scenarios of growing size (a grid map, hexsides, cities, countries and
units spread over it) and times :func:`grognard.engine.scenario.parse_scenario` on each. The
baseline, in the same run, is :func:`tomllib.loads` of the same text: the TOML parse alone, which
is linear. The figure to watch is ``ratio`` (parse / TOML) staying flat as the size grows, and
the largest size (40,000 hexes, 5,000 units) parsing in a few seconds.
"""

from __future__ import annotations

import sys
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit, machine, want_json
from grognard.engine.scenario import parse_scenario

TERRAIN = ".wsrf"


def big_scenario(cols: int, rows: int, units: int) -> str:
    """A valid scenario of ``cols`` x ``rows`` hexes and ``units`` units (deterministic)."""
    grid = "\n".join("".join(TERRAIN[(c * 7 + r * 3) % len(TERRAIN)] for c in range(cols))
                     for r in range(rows))

    def label(c: int, r: int) -> str:
        return f"{c + 1:03d}{r + 1:03d}"

    out = [
        "[scenario]", 'id = "bench-big"', 'title = "Parsing benchmark"', 'system = "generic"',
        'sides = ["axis", "allies"]', "seed = 1", "",
        "[map]", 'layout = { offset = "odd-q", style = "numeric", origin = 1, digits = 3 }',
        'legend = { "." = "clear", "w" = "woods", "s" = "swamp", "r" = "rough", "f" = "forest" }',
        f'grid = """\n{grid}\n"""', "",
    ]
    for i in range(min(units, cols * rows) // 5):
        c, r = (i * 13) % (cols - 1), (i * 7) % rows
        out += ["[[hexsides]]", f'between = ["{label(c, r)}", "{label(c, r + 1 if r + 1 < rows else r - 1)}"]',
                'features = ["river"]', ""]
    for i in range(units // 10):
        c, r = (i * 17) % cols, (i * 11) % rows
        out += ["[[cities]]", f'hex = "{label(c, r)}"', f'name = "City {i}"', 'classes = ["city"]', ""]
    west = [label(c, r) for c in range(cols // 2) for r in range(rows)]
    out += ["[countries]", "west = [" + ", ".join(f'"{h}"' for h in west) + "]", ""]
    for i in range(units):
        c, r = (i * 31) % cols, (i * 29) % rows
        side = "axis" if i % 2 == 0 else "allies"
        out += ["[[units]]", f'id = "u{i}"', f'side = "{side}"', 'type = "infantry"',
                "attack = 4", "defense = 4", "movement = 3", f'hex = "{label(c, r)}"', ""]
    return "\n".join(out) + "\n"


SIZES = [(50, 40, 250), (100, 100, 1000), (200, 100, 2500), (200, 200, 5000)]


def main() -> None:
    quick = "--quick" in sys.argv
    sizes = SIZES[:2] if quick else SIZES
    rows = []
    for cols, nrows, units in sizes:
        text = big_scenario(cols, nrows, units)
        t0 = time.perf_counter()
        tomllib.loads(text)
        toml_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        sc = parse_scenario(text, "bench")
        parse_s = time.perf_counter() - t0
        assert sc.map.n == cols * nrows and len(sc.placements) == units
        rows.append({"hexes": cols * nrows, "units": units, "bytes": len(text.encode()),
                     "parse_s": round(parse_s, 3), "toml_baseline_s": round(toml_s, 3),
                     "ratio": round(parse_s / toml_s, 2)})
    emit({"benchmark": "scenario parsing", "sizes": rows, "machine": machine()}, want_json())


if __name__ == "__main__":
    main()
