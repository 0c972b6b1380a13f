"""Benchmark: loading the shipped maps (run: uv run python bench/maps.py --json).

For each map-check scenario (``tr-europe-map``, ``europa-barbarossa-map``: a shipped map and
two units) times :func:`grognard.engine.scenario.load_scenario` cold (the map file parsed) and
warm (the parsed map file cached, the scenario text parsed again: the cache of parsed
scenario texts is cleared before each), against a baseline in the same run: ``tomllib.loads`` of the
map file alone. ``ratio`` = warm load / TOML parse of the map.
"""

from __future__ import annotations

import sys
import time
import tomllib
from importlib import resources
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import best_of, emit, machine, want_json
from grognard.engine.scenario import _map_file, _parse_scenario, load_scenario

CASES = (("tr-europe-map", "tr-europe"), ("europa-barbarossa-map", "europa-barbarossa"))


def main() -> None:
    rows = []
    for scenario, map_id in CASES:
        text = resources.files("grognard.data").joinpath("maps", f"{map_id}.toml").read_text(
            "utf-8")
        toml_s = best_of(lambda text=text: tomllib.loads(text), repeat=5)
        _map_file.cache_clear()
        _parse_scenario.cache_clear()
        t0 = time.perf_counter()
        sc = load_scenario(scenario)
        cold_s = time.perf_counter() - t0
        def warm(scenario: str = scenario) -> None:
            _parse_scenario.cache_clear()
            load_scenario(scenario)
        warm_s = best_of(warm, repeat=5)
        rows.append({"scenario": scenario, "map": map_id, "hexes": sc.map.n,
                     "cities": sum(len(c) for c in sc.map.cities.values()),
                     "map_bytes": len(text.encode()), "cold_load_s": round(cold_s, 3),
                     "warm_load_s": round(warm_s, 3), "toml_baseline_s": round(toml_s, 3),
                     "ratio": round(warm_s / toml_s, 2)})
    emit({"benchmark": "map loading", "maps": rows, "machine": machine()}, want_json())


if __name__ == "__main__":
    main()
