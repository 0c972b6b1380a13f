"""The generic rule system: a small command set that proves the engine loop.

``move`` (a unit along a path of adjacent hexes within its movement allowance; generic terrain
costs — the rule systems' own movement rules live in ``core/paths``), ``roll_table`` (roll on any
loaded table, the die recorded), ``end_phase``. Europa, Third Reich and EuroFront scenarios run
on it until their packages register systems of their own.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from weakref import WeakKeyDictionary

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from grognard.core.dice import Dice, DiceExpr, clamp_roll
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex, direction_to
from grognard.core.mapdata import WATER_TERRAIN, HexsideFeature, MapData, Terrain
from grognard.engine.commands import Command, CommandSpec
from grognard.engine.context import Context
from grognard.engine.events import Event, named_unit, writes_units
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON
from grognard.engine.system import RuleSystem, register_system
from grognard.engine.views import hide_secrets

#: Generic entry costs in MPs (a stand-in: each rule system configures its own in core/paths).
TERRAIN_COST: Mapping[Terrain, int] = {
    Terrain.CLEAR: 1, Terrain.STEPPE: 1, Terrain.DESERT: 1, Terrain.URBAN: 1,
    Terrain.WOODS: 2, Terrain.ROUGH: 2, Terrain.FOREST: 2, Terrain.WOODED_ROUGH: 3,
    Terrain.MOUNTAIN: 3, Terrain.SWAMP: 3, Terrain.MARSH: 3, Terrain.GLACIER: 3,
}
RIVER_COST = 1
BLOCKING_SIDES = HexsideFeature.SEA | HexsideFeature.IMPASSABLE | HexsideFeature.LAKE

def initial_state(scenario: Scenario) -> JSON:
    units: dict[str, JSON] = {}
    for p in scenario.placements:
        u = p.unit
        units[u.id] = {
            "name": u.name, "side": u.side, "nationality": u.nationality, "type": str(u.type),
            "attack": u.attack, "defense": u.defense, "movement": u.movement,
            "hex": p.hex, "box": p.box, "mp_spent": 0, "hidden": p.hidden, "status": "active",
        }
    return {
        "scenario": scenario.id,
        "system": scenario.system,
        "sides": list(scenario.sides),
        "turn": 1,
        "phase": 0,
        "units": units,
        "secrets": {s: {} for s in scenario.sides},
        "rolls": [],
    }


# --- move ----------------------------------------------------------------------------------
def move_cost(scenario: Scenario, start: str, path: list[str]) -> int:
    """Generic cost of moving along ``path`` from ``start``; raises IllegalOrder if impassable."""
    m = scenario.map
    cost = 0
    here: Hex = m.layout.from_label(start)
    for label in path:
        try:
            nxt = m.layout.from_label(label)
        except InputError as exc:
            raise IllegalOrder("MOVE", exc.reason) from None
        if not m.has(nxt):
            raise IllegalOrder("MOVE", f"{label} is off the map")
        try:
            direction_to(here, nxt)
        except InputError:
            raise IllegalOrder(
                "MOVE", f"{label} is not adjacent to {m.layout.to_label(here)}"
            ) from None
        terrain = m.terrain_of(nxt)
        if terrain in WATER_TERRAIN:
            raise IllegalOrder("MOVE", f"{label} is {terrain.value}: ground units cannot enter")
        feats = m.features_between(here, nxt)
        if feats & BLOCKING_SIDES:
            raise IllegalOrder("MOVE", f"the hexside into {label} cannot be crossed")
        cost += TERRAIN_COST.get(terrain, 1)
        if feats & (HexsideFeature.RIVER | HexsideFeature.MAJOR_RIVER):
            cost += RIVER_COST
        here = nxt
    return cost


#: The weight of an edge into an enemy-occupied hex: beyond any movement allowance.
UNREACHABLE = 1e9


class _CostGraph:
    """The generic movement costs of one map (built once per map): per CSR edge the MP cost
    of crossing it into its target hex (terrain entry cost plus any river), -1 where the
    edge cannot be crossed (water, a blocking hexside)."""

    def __init__(self, m: MapData) -> None:
        self.labels = [m.label(i) for i in range(m.n)]
        self.index = {label: i for i, label in enumerate(self.labels)}
        self.n = m.n
        self.indptr = m.indptr
        self.indices = m.indices
        terrains = list(Terrain)
        entry = np.array([-1 if terrains[c] in WATER_TERRAIN else TERRAIN_COST.get(terrains[c], 1)
                          for c in m.terrain.tolist()], dtype=np.int64)
        feats = m.edge_features.astype(np.int64)
        cost = entry[m.indices] + np.where(
            feats & int(HexsideFeature.RIVER | HexsideFeature.MAJOR_RIVER), RIVER_COST, 0)
        cost[(entry[m.indices] < 0) | ((feats & int(BLOCKING_SIDES)) != 0)] = -1
        self.cost = cost
        # the crossable edges once, as CSR arrays; per position only their weights change
        keep = cost > 0
        rows = np.repeat(np.arange(self.n), np.diff(m.indptr))[keep]
        self.g_indices = m.indices[keep].astype(np.int32)
        self.g_indptr = np.zeros(self.n + 1, dtype=np.int32)
        np.cumsum(np.bincount(rows, minlength=self.n), out=self.g_indptr[1:])
        self.g_weight = cost[keep].astype(np.float64)
        self.recent: OrderedDict[frozenset[int], csr_matrix] = OrderedDict()

    def graph(self, blocked: frozenset[int]) -> csr_matrix:
        """The crossable edges as a sparse matrix; edges into ``blocked`` hexes cost more
        than any movement allowance (so no search with a limit enters them). The last few
        are kept: a side's graph changes only when enemy units move, not with its own moves."""
        hit = self.recent.get(blocked)
        if hit is not None:
            self.recent.move_to_end(blocked)
            return hit
        made = self._graph(blocked)
        self.recent[blocked] = made
        if len(self.recent) > RECENT_GRAPHS:
            self.recent.popitem(last=False)
        return made

    def _graph(self, blocked: frozenset[int]) -> csr_matrix:
        weight = self.g_weight
        if blocked:
            mask = np.zeros(self.n, dtype=bool)
            mask[np.fromiter(blocked, dtype=np.int64, count=len(blocked))] = True
            weight = np.where(mask[self.g_indices], UNREACHABLE, weight)
        return csr_matrix((weight, self.g_indices, self.g_indptr), shape=(self.n, self.n),
                          copy=False)


#: movement graphs kept per map (one per side and arrangement of enemy units)
RECENT_GRAPHS = 8

_GRAPHS: WeakKeyDictionary[MapData, _CostGraph] = WeakKeyDictionary()


def _graph(m: MapData) -> _CostGraph:
    g = _GRAPHS.get(m)
    if g is None:
        g = _GRAPHS[m] = _CostGraph(m)
    return g


def occupied(ctx: Context, state: JSON) -> dict[str, frozenset[str]]:
    """Per side, the hexes its active units occupy: one pass over the units per position."""
    def make() -> dict[str, frozenset[str]]:
        out: dict[str, set[str]] = {}
        for v in state["units"].values():
            if v["hex"] and v["status"] == "active":
                out.setdefault(v["side"], set()).add(v["hex"])
        return {s: frozenset(h) for s, h in out.items()}
    return ctx.cached("generic.occupied", make)


def _enemy_hexes(ctx: Context, state: JSON, side: str) -> frozenset[str]:
    """The hexes units of other sides occupy (from :func:`occupied`)."""
    return frozenset(h for s, hexes in occupied(ctx, state).items() if s != side
                     for h in hexes)


def _side_graph(ctx: Context, state: JSON, side: str) -> csr_matrix:
    """``side``'s movement graph now (no entry into enemy-occupied hexes), once per position."""
    def make() -> csr_matrix:
        g = _graph(ctx.scenario.map)
        blocked = frozenset(g.index[h] for h in _enemy_hexes(ctx, state, side))
        return g.graph(blocked)
    return ctx.cached(f"generic.graph.{side}", make)


@dataclass(frozen=True)
class _Reach:
    """Where ``units`` (of one side, able to move) can go: one Dijkstra row per unit."""

    units: list[str]
    starts: npt.NDArray[np.intp]
    budgets: npt.NDArray[np.float64]
    dist: npt.NDArray[np.float64]
    pred: npt.NDArray[np.int32]

    @cached_property
    def within(self) -> npt.NDArray[np.bool_]:
        """Per unit, the hexes it may move to (its start excluded)."""
        ok = self.dist <= self.budgets[:, None] + 1e-9
        ok[np.arange(len(self.units)), self.starts] = False
        return ok

    def row(self, k: int) -> dict[int, tuple[int, int]]:
        """Unit ``k``'s reachable hexes: index -> (MP cost, previous hex, -1 at the start)."""
        start, d = int(self.starts[k]), self.dist[k]
        hexes = np.flatnonzero(d <= self.budgets[k] + 1e-9)
        return {i: (c, -1 if i == start else p) for i, c, p in zip(
            hexes.tolist(), d[hexes].astype(np.int64).tolist(), self.pred[k][hexes].tolist(),
            strict=True)}


def _search(ctx: Context, state: JSON, uids: list[str]) -> _Reach:
    units = [state["units"][u] for u in uids]
    g = _graph(ctx.scenario.map)
    starts = np.array([g.index[u["hex"]] for u in units], dtype=np.intp)
    budgets = np.array([u["movement"] - u["mp_spent"] for u in units], dtype=np.float64)
    if not uids:
        empty = np.zeros((0, g.n))
        return _Reach(uids, starts, budgets, empty, empty.astype(np.int32))
    dist, pred = dijkstra(_side_graph(ctx, state, units[0]["side"]), indices=starts,
                          return_predecessors=True, limit=max(float(budgets.max()), 0) + 0.5)
    return _Reach(uids, starts, budgets, dist, pred)


def reachable_many(ctx: Context, state: JSON, uids: list[str]
                   ) -> dict[str, dict[int, tuple[int, int]]]:
    """For units of one side: every hex each can reach with its movement points left under
    the generic costs (never into enemy-occupied hexes): hex index -> (MP cost, previous hex
    index, -1 at the start). One vectorised Dijkstra for all of them."""
    reach = _search(ctx, state, uids)
    return {uid: reach.row(k) for k, uid in enumerate(uids)}


def reachable(ctx: Context, state: JSON, uid: str) -> dict[int, tuple[int, int]]:
    """:func:`reachable_many` for one unit, once per position."""
    return ctx.cached(f"generic.reach.{uid}",
                      lambda: reachable_many(ctx, state, [uid])[uid])


def _mover_ids(ctx: Context, state: JSON, player: str) -> list[str]:
    """``player``'s units that can still move, once per position."""
    return ctx.cached(f"generic.mover_ids.{player}", lambda: [
        uid for uid, u in sorted(state["units"].items())
        if u["side"] == player and u["status"] == "active" and u["hex"] is not None
        and u["movement"] - u["mp_spent"] > 0])


def _movers(ctx: Context, state: JSON, player: str) -> _Reach:
    """:func:`_search` for every unit of ``player`` that can still move, once per position."""
    return ctx.cached(f"generic.movers.{player}",
                      lambda: _search(ctx, state, _mover_ids(ctx, state, player)))


def _share(ctx: Context, reach: _Reach, k: int) -> None:
    """Hand unit ``k``'s row to :func:`reachable` (the move's verify then searches nothing)."""
    ctx.cache.setdefault(f"generic.reach.{reach.units[k]}", reach.row(k))


def cheapest_path(ctx: Context, state: JSON, uid: str, to: str) -> list[str]:
    """The cheapest legal path (hex labels entered) for ``uid`` to ``to``, or IllegalOrder."""
    m = ctx.scenario.map
    target = _graph(m).index.get(to)
    if target is None:
        raise IllegalOrder("MOVE", f"{to} is not a hex of the map")
    best = reachable(ctx, state, uid)
    if target not in best or best[target][1] == -1:
        raise IllegalOrder("MOVE", f"{uid} cannot reach {to} with its movement points left")
    labels = _graph(m).labels
    path = []
    i = target
    while best[i][1] != -1:
        path.append(labels[i])
        i = best[i][1]
    return path[::-1]


def move_path(ctx: Context, state: JSON, cmd: Command) -> list[str]:
    """The path of a move order: its explicit ``path``, or the cheapest path ``to`` a hex."""
    path, to = cmd.args.get("path"), cmd.args.get("to")
    if path is None and isinstance(to, str):
        return cheapest_path(ctx, state, str(cmd.args["unit"]), to)
    if not isinstance(path, list) or not path or not all(isinstance(p, str) for p in path):
        raise IllegalOrder("MOVE", "path must list one or more hex labels (or give to = HEX)")
    return list(path)


def mover(state: JSON, cmd: Command) -> JSON:
    """The unit a move order names: one of the player's, on the map (IllegalOrder otherwise)."""
    uid = cmd.args.get("unit")
    if not isinstance(uid, str) or uid not in state["units"]:
        raise IllegalOrder("MOVE", f"no unit {uid!r}")
    u: JSON = state["units"][uid]
    if u["side"] != cmd.player:
        raise IllegalOrder("MOVE", f"{uid} belongs to {u['side']}, not {cmd.player}")
    if u["status"] != "active" or u["hex"] is None:
        raise IllegalOrder("MOVE", f"{uid} is not on the map")
    return u


def _priced_move(ctx: Context, state: JSON, cmd: Command) -> tuple[list[str], int]:
    """The checked path of a move and its MP cost (once per position)."""
    uid = str(cmd.args.get("unit"))
    u = mover(state, cmd)
    path = move_path(ctx, state, cmd)
    if "path" not in cmd.args:  # the cheapest path is legal by construction
        return path, reachable(ctx, state, uid)[_graph(ctx.scenario.map).index[path[-1]]][0]
    enemy_hexes = _enemy_hexes(ctx, state, u["side"])
    for label in path:
        if label in enemy_hexes:
            raise IllegalOrder("MOVE", f"{label} is occupied by the enemy")
    cost = move_cost(ctx.scenario, u["hex"], path)
    left = u["movement"] - u["mp_spent"]
    if cost > left:
        raise IllegalOrder("MOVE", f"{uid} needs {cost} MPs for that path and has {left}")
    return path, cost


def verify_move(ctx: Context, state: JSON, cmd: Command) -> None:
    _priced_move(ctx, state, cmd)


def execute_move(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    u = state["units"][cmd.args["unit"]]
    path, cost = _priced_move(ctx, state, cmd)
    return [Event("unit_moved", {"unit": cmd.args["unit"], "from": u["hex"],
                                 "path": path, "mp": cost})]


def legal_move(ctx: Context, state: JSON, player: str) -> Iterator[Command]:
    """Per unit of ``player`` on the map, each hex it can reach (``to``: the cheapest path)."""
    labels = _graph(ctx.scenario.map).labels
    reach = _movers(ctx, state, player)
    for k, uid in enumerate(reach.units):
        _share(ctx, reach, k)
        for i in np.flatnonzero(reach.within[k]).tolist():
            yield Command("move", player, {"unit": uid, "to": labels[i]})


def _destinations(ctx: Context, state: JSON, uid: str) -> list[int]:
    """The hexes ``uid`` may move to (its start excluded), in map order, once per position."""
    def make() -> list[int]:
        return sorted(i for i, (_, prev) in reachable(ctx, state, uid).items() if prev != -1)
    return ctx.cached(f"generic.dests.{uid}", make)


#: rejection rounds of :func:`sample_move` before it searches for every unit at once
SAMPLE_TRIES = 32


def sample_move(ctx: Context, state: JSON, player: str, rng: random.Random) -> Command | None:
    """One of :func:`legal_move`'s commands drawn uniformly, without listing them all.

    Rejection sampling: a unit drawn uniformly, then a slot among as many as any unit could
    have destinations (every hex within its MPs: each hex entered costs at least 1); a slot
    holding one of the unit's destinations is the draw. Every (unit, hex) pair is equally
    likely and only the drawn units are searched. After :data:`SAMPLE_TRIES` misses (few
    destinations left) one search of all the units draws exactly."""
    ids = _mover_ids(ctx, state, player)
    if not ids:
        return None
    labels = _graph(ctx.scenario.map).labels
    units = state["units"]
    most = max(units[u]["movement"] - units[u]["mp_spent"] for u in ids)
    slots = min(3 * most * (most + 1), ctx.scenario.map.n - 1)
    for _ in range(SAMPLE_TRIES):
        uid = ids[rng.randrange(len(ids))]
        slot = rng.randrange(slots)
        dests = _destinations(ctx, state, uid)
        if slot < len(dests):
            return Command("move", player, {"unit": uid, "to": labels[dests[slot]]})
    reach = _movers(ctx, state, player)
    counts = reach.within.sum(axis=1)
    total = int(counts.sum())
    if not total:
        return None
    pick = rng.randrange(total)
    upto = np.cumsum(counts)
    k = int(np.searchsorted(upto, pick, side="right"))
    i = int(np.flatnonzero(reach.within[k])[pick - int(upto[k] - counts[k])])
    _share(ctx, reach, k)
    return Command("move", player, {"unit": reach.units[k], "to": labels[i]})


@writes_units(named_unit)
def fold_unit_moved(state: JSON, ev: Event) -> JSON:
    s = state
    u = s["units"][ev.data["unit"]]
    u["hex"] = ev.data["path"][-1]
    u["mp_spent"] += ev.data["mp"]
    return s


# --- roll_table ----------------------------------------------------------------------------
def verify_roll_table(ctx: Context, state: JSON, cmd: Command) -> None:
    tid, column, drm = cmd.args.get("table"), cmd.args.get("column"), cmd.args.get("drm", 0)
    if not isinstance(tid, str):
        raise IllegalOrder("TABLE", "name a table")
    try:
        table = ctx.tables.get(tid)
        if column is not None:
            table.column_index(str(column))
    except InputError as exc:
        raise IllegalOrder("TABLE", str(exc)) from None
    except ValueError as exc:
        raise IllegalOrder("TABLE", str(exc)) from None
    if isinstance(drm, bool) or not isinstance(drm, int):
        raise IllegalOrder("TABLE", "drm must be an integer")
    if not table.dice:
        raise IllegalOrder("TABLE", f"table {tid} has no dice")
    try:
        DiceExpr.parse(table.dice.lower())
    except ValueError:
        raise IllegalOrder("TABLE", f"table {tid} is not rolled with plain dice ({table.dice})"
                           ) from None
    if not all(isinstance(k, int) for k in table.rows):
        raise IllegalOrder("TABLE", f"table {tid} is not keyed by rolls")


def execute_roll_table(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    table = ctx.tables.get(cmd.args["table"])
    drm = int(cmd.args.get("drm", 0))
    roll = dice.roll(DiceExpr.parse(str(table.dice).lower()), stream="tables")
    keys = [int(k) for k in table.rows]
    modified = clamp_roll(roll.total, drm, min(keys), max(keys))
    column = cmd.args.get("column")
    result = table.lookup(modified, None if column is None else str(column))
    return [Event("table_rolled", {
        "table": table.id, "column": column, "drm": drm, "dice": list(roll.dice),
        "natural": roll.total, "modified": modified, "result": result, "player": cmd.player,
    })]


def fold_table_rolled(state: JSON, ev: Event) -> JSON:
    s = state
    s["rolls"].append(dict(ev.data))
    return s


# --- end_phase -----------------------------------------------------------------------------
def verify_end_phase(ctx: Context, state: JSON, cmd: Command) -> None:
    return None


def legal_end_phase(ctx: Context, state: JSON, player: str) -> Iterator[Command]:
    """Ending the phase (the engine offers it only when no decision is owed)."""
    yield Command("end_phase", player)


def execute_end_phase(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    seq = ctx.turn_sequence
    phase, turn = seq.next_position(state["phase"], state["turn"])
    return [Event("phase_ended", {"from": {"turn": state["turn"], "phase": state["phase"]},
                                  "to": {"turn": turn, "phase": phase}})]


@writes_units(fields=("mp_spent",))
def fold_phase_ended(state: JSON, ev: Event) -> JSON:
    s = state
    s["turn"], s["phase"] = ev.data["to"]["turn"], ev.data["to"]["phase"]
    for u in s["units"].values():
        u["mp_spent"] = 0
    return s


GENERIC = RuleSystem(
    name="generic",
    commands={
        "move": CommandSpec("move", verify_move, execute_move,
                            "Move a unit along adjacent hexes (path), or to a hex by the "
                            "cheapest legal path (to).",
                            {"unit": "de-7pz", "path": ["0504"]}, legal=legal_move,
                            sample=sample_move),
        "roll_table": CommandSpec("roll_table", verify_roll_table, execute_roll_table,
                                  "Roll on a table.",
                                  {"table": "europa_revised_crt", "column": "3-1", "drm": 1}),
        "end_phase": CommandSpec("end_phase", verify_end_phase, execute_end_phase,
                                 "End the current phase.", legal=legal_end_phase),
    },
    folds={
        "unit_moved": fold_unit_moved,
        "table_rolled": fold_table_rolled,
        "phase_ended": fold_phase_ended,
    },
    initial_state=initial_state,
    view=hide_secrets,
    description="Generic move / roll_table / end_phase loop.",
)
register_system(GENERIC)
