"""Benchmark: map mechanics at full-map scale (issue 3), against a networkx baseline.

Run: ``uv run python bench/paths.py --json`` (``--quick`` for a small map, used by the smoke
test). One run measures, on a generated 200 x 200 map with 5,000 units along a front:

* ``zoc``: the whole-map enemy ZOC field for both sides;
* ``supply``: supply tracing for every unit of one side from 10 sources (ZOC field given);
* ``movement``: movement ranges (and cheapest paths) for 200 stacks, graphs built included;
  ``movement_one_stack_ms`` is one stack's range on the phase's prebuilt graph (what a user
  clicking a stack waits for), ``movement_graph_build_ms`` the once-per-phase graph build and
  ``movement_one_stack_cold_ms`` both together;
* ``retreat``: every legal 2-hex retreat of every stack of one side;

each done by grognard (``core.zoc``/``supply``/``movement``/``retreat``) and by a
straightforward networkx implementation of the same rules, plus the practical floor: one raw
``scipy.sparse.csgraph.dijkstra(min_only=True)`` from the same sources on the same (already
built) supply graph. Times are medians of repeated runs after a warm-up, in milliseconds.
Peak RSS (``resource.getrusage``) is read after the grognard work, before networkx is loaded.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.sparse.csgraph import dijkstra

from grognard.core.front import front_line
from grognard.core.mapdata import TERRAIN_CODES, HexsideFeature, Terrain
from grognard.core.mapgen import generate_front, generate_map
from grognard.core.movement import (
    MoveClass,
    movement_graph,
    movement_ranges,
    third_reich_movement,
)
from grognard.core.paths import Purpose, edge_tables
from grognard.core.retreat import europa_revised_retreat, retreat_table
from grognard.core.stacking import stacking_violations, third_reich_stacking
from grognard.core.supply import _search_graph, third_reich_supply, trace_supply
from grognard.core.zoc import third_reich_zoc, zoc_field


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    result = fn()  # warm-up (and the value we check)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), result


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def machine() -> dict[str, Any]:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import networkx
    import scipy

    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "numpy": np.__version__, "scipy": scipy.__version__,
            "networkx": networkx.__version__, "platform": platform.platform()}


def run(quick: bool) -> dict[str, Any]:
    size, n_units, n_moves = (60, 500, 40) if quick else (200, 5000, 200)
    repeat = 2 if quick else 5
    m = generate_map(size, size, seed=7)
    sc = generate_front(m, n_units, seed=7)
    f = sc.forces
    zr, sr, mr, rr = third_reich_zoc(), third_reich_supply(), third_reich_movement(), \
        europa_revised_retreat()
    side, other = "axis", "allies"
    mine = f.of_side(side)
    max_len = size // 2 + 20
    out: dict[str, Any] = {"hexes": m.n, "units": len(f), "quick": quick}

    # --- grognard -------------------------------------------------------------------------
    edge_tables(m)  # per-map derived arrays, built once with the map
    zoc_ms, (z, _z_other) = timed(
        lambda: (zoc_field(m, f, side, zr), zoc_field(m, f, other, zr)), repeat)
    supply_ms, trace = timed(
        lambda: trace_supply(m, f.hex[mine], z, sc.sources[side], max_length=max_len, rules=sr),
        repeat)
    rng = np.random.default_rng(7)
    movers = np.sort(rng.choice(np.nonzero(mine)[0], size=n_moves, replace=False))
    classes = [sc.move_class[i] for i in movers]
    move_ms, ranges = timed(
        lambda: movement_ranges(m, f.hex[movers], sc.mp[movers], classes, z, mr), repeat)
    build_ms, graph = timed(lambda: movement_graph(m, classes[0], z, mr), repeat)
    one_ms, _ = timed(lambda: graph.range(int(f.hex[movers[0]]), int(sc.mp[movers[0]])),
                      repeat * 4)
    cold_ms, _ = timed(lambda: movement_ranges(m, f.hex[movers[:1]], sc.mp[movers[:1]],
                                               classes[:1], z, mr), repeat)
    front_ms, front = timed(lambda: front_line(m, z), repeat)
    stack_ms, _ = timed(lambda: stacking_violations(m, f.hex, None, third_reich_stacking()),
                        repeat)
    stacks = np.unique(f.hex[mine])
    retreat_ms, table = timed(lambda: retreat_table(m, stacks, 2, z, rr), repeat)
    # the practical floor: one raw multi-source csgraph search on the same, prebuilt graph
    et = edge_tables(m)
    blocked = z.enemy | et.water | z.mask(Purpose.SUPPLY)
    term = np.zeros(m.n, dtype=bool)
    term[f.hex[mine]] = True
    g = _search_graph(m, ~blocked, term & ~(z.enemy | et.water), np.ones(len(m.indices)), sr)
    srcs = sc.sources[side][~blocked[sc.sources[side]]]
    floor_ms, _ = timed(lambda: dijkstra(g, indices=srcs, min_only=True, limit=float(max_len),
                                         return_predecessors=True), repeat)
    out["csgraph_floor_ms"] = round(floor_ms, 3)
    out["movement_one_stack_ms"] = round(one_ms, 3)
    out["movement_graph_build_ms"] = round(build_ms, 3)
    out["movement_one_stack_cold_ms"] = round(cold_ms, 3)
    out["front_line_ms"] = round(front_ms, 3)
    out["front_line_hexes"] = len(front.hexes)
    out["stacking_check_ms"] = round(stack_ms, 3)
    out["peak_rss_mb"] = round(rss_mb(), 1)

    # --- networkx baseline ----------------------------------------------------------------
    import networkx as nx

    nx_ms: dict[str, float] = {}
    G = nx.DiGraph()
    G.add_nodes_from(range(m.n))
    feats = m.edge_features.tolist()
    G.add_edges_from((int(a), int(b), {"f": feats[e]})
                     for e, (a, b) in enumerate(zip(et.src.tolist(), m.indices.tolist(),
                                                    strict=True)))
    terr = [TERRAIN_CODES[t] for t in m.terrain.tolist()]
    hex_list, side_list, cls_list = f.hex.tolist(), f.side.tolist(), f.zoc_class.tolist()
    side_code = f.side_code(side)
    sea_block = int(HexsideFeature.SEA | HexsideFeature.LAKE | HexsideFeature.IMPASSABLE)
    no_zoc_into = {Terrain.SWAMP, Terrain.MOUNTAIN, Terrain.SEA, Terrain.LAKE}

    def nx_zoc(for_side: int) -> tuple[set[int], set[int], set[int]]:
        zset: set[int] = set()
        enemy: set[int] = set()
        friend: set[int] = set()
        for h, s, c in zip(hex_list, side_list, cls_list, strict=True):
            if s == for_side:
                friend.add(h)
                continue
            enemy.add(h)
            if c <= 0:
                continue
            for nb in G.successors(h):
                if G[h][nb]["f"] & sea_block or terr[nb] in no_zoc_into:
                    continue
                zset.add(nb)
        return zset, enemy, friend

    other_code = f.side_code(other)
    nx_ms["zoc"], (zs, enemy, friend) = timed(
        lambda: (nx_zoc(side_code), nx_zoc(other_code))[0], max(1, repeat // 2))
    assert zs == set(np.nonzero(z.strength > 0)[0].tolist()), "ZOC fields disagree"

    water = {i for i, t in enumerate(terr) if t in (Terrain.SEA, Terrain.LAKE)}
    blocked_set = enemy | water | (zs - friend)
    unit_hexes = set(f.hex[mine].tolist())

    def supply_weight(u: int, v: int, d: dict[str, Any]) -> float | None:
        # searched from the sources outward: the line steps v -> u
        if d["f"] & sea_block or u in blocked_set:
            return None
        if (v in blocked_set and v not in unit_hexes) or v in enemy or v in water:
            return None
        return 1.0

    def nx_supply() -> list[bool]:
        src = [s for s in sc.sources[side].tolist() if s not in blocked_set]
        dist = nx.multi_source_dijkstra_path_length(G, src, cutoff=max_len, weight=supply_weight)
        return [h in dist for h in f.hex[mine].tolist()]

    nx_ms["supply"], nx_in = timed(nx_supply, max(1, repeat // 2))
    assert nx_in == trace.in_supply.tolist(), "supply results disagree"

    zmove = set(zs)  # movement: ZOC never negated in 3R

    def nx_move(start: int, mp: int, cls: MoveClass) -> dict[int, float]:
        def w(u: int, v: int, d: dict[str, Any]) -> float | None:
            if d["f"] & sea_block or v in enemy or v in water:
                return None
            if u != start and cls == MoveClass.FOOT and u in zmove:
                return None  # infantry stopped on entering the ZOC
            t = terr[v]
            if t in (Terrain.SWAMP, Terrain.MOUNTAIN):
                c = 2.0 if cls == MoveClass.FOOT else 1e9
            else:
                c = 1.0
            if d["f"] & int(HexsideFeature.RIVER):
                c += 1
            if v in zmove:
                c += 1
            if u == start:
                c = min(c, float(mp))  # the one-hex move
            elif c >= 1e9:
                return None
            return c

        return nx.single_source_dijkstra_path_length(G, start, cutoff=mp, weight=w)

    def nx_moves() -> list[dict[int, float]]:
        return [nx_move(int(f.hex[i]), int(sc.mp[i]), sc.move_class[i]) for i in movers]

    nx_ms["movement"], nx_ranges = timed(nx_moves, 1)
    for a, b in zip(ranges, nx_ranges, strict=True):
        assert {int(h): int(c) for h, c in zip(a.hexes, a.cost, strict=True)} == \
            {h: int(c) for h, c in b.items()}, "movement ranges disagree"

    zr_set = zs - friend  # retreat: friendly units negate
    qs, rs = m.q.tolist(), m.r.tolist()

    def nx_retreat() -> int:
        count = 0
        for s in stacks.tolist():
            for a in G.successors(s):
                if G[s][a]["f"] & sea_block or a in enemy or a in water:
                    continue
                for b in G.successors(a):
                    if b == s or G[a][b]["f"] & sea_block or b in enemy or b in water:
                        continue
                    dq, dr = qs[b] - qs[s], rs[b] - rs[s]
                    if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 != 2:
                        continue
                    _ = int(a in zr_set) + int(b in zr_set)
                    count += 1
        return count

    nx_ms["retreat"], nx_count = timed(nx_retreat, 1)
    assert nx_count == len(table.stack), "retreat option counts disagree"

    for key, ms in (("zoc", zoc_ms), ("supply", supply_ms), ("movement", move_ms),
                    ("retreat", retreat_ms)):
        out[key] = {"grognard_ms": round(ms, 3), "networkx_ms": round(nx_ms[key], 3),
                    "speedup": round(nx_ms[key] / ms, 1)}
    out["supply"]["floor_ratio"] = round(supply_ms / floor_ms, 2)
    out["supply"]["units_traced"] = int(mine.sum())
    out["supply"]["in_supply"] = int(trace.in_supply.sum())
    out["movement"]["stacks"] = int(n_moves)
    out["retreat"]["stacks"] = len(stacks)
    out["retreat"]["options"] = len(table.stack)
    out["peak_rss_mb_with_networkx"] = round(rss_mb(), 1)
    out["machine"] = machine()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--quick", action="store_true", help="a 60 x 60 map with 500 units")
    args = ap.parse_args(argv)
    res = run(args.quick)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print(f"{res['hexes']} hexes, {res['units']} units; csgraph floor "
              f"{res['csgraph_floor_ms']} ms; one stack's movement range "
              f"{res['movement_one_stack_ms']} ms; peak RSS {res['peak_rss_mb']} MB")
        for key in ("zoc", "supply", "movement", "retreat"):
            r = res[key]
            print(f"{key:9s} grognard {r['grognard_ms']:9.3f} ms   networkx "
                  f"{r['networkx_ms']:10.3f} ms   x{r['speedup']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
