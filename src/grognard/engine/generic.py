"""The generic rule system: a small command set that proves the engine loop.

``move`` (a unit along a path of adjacent hexes within its movement allowance; generic terrain
costs — the rule systems' own movement rules live in ``core/paths``), ``roll_table`` (roll on any
loaded table, the die recorded), ``end_phase``. Europa, Third Reich and EuroFront scenarios run
on it until their packages register systems of their own.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping
from weakref import WeakKeyDictionary

from grognard.core.dice import Dice, DiceExpr, clamp_roll
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex, direction_to
from grognard.core.mapdata import WATER_TERRAIN, HexsideFeature, MapData, Terrain
from grognard.engine.commands import Command, CommandSpec
from grognard.engine.context import Context
from grognard.engine.events import Event
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


class _CostGraph:
    """The generic movement costs of one map as plain lists (built once per map): the entry
    cost of each hex (None for water) and per CSR edge the extra cost (None if blocked)."""

    def __init__(self, m: MapData) -> None:
        self.indptr = m.indptr.tolist()
        self.indices = m.indices.tolist()
        terrains = list(Terrain)
        self.entry: list[int | None] = []
        for code in m.terrain.tolist():
            terrain = terrains[code]
            self.entry.append(None if terrain in WATER_TERRAIN else TERRAIN_COST.get(terrain, 1))
        self.edge: list[int | None] = []
        for f in m.edge_features.tolist():
            feats = HexsideFeature(f)
            if feats & BLOCKING_SIDES:
                self.edge.append(None)
            else:
                self.edge.append(RIVER_COST if feats & (HexsideFeature.RIVER
                                                        | HexsideFeature.MAJOR_RIVER) else 0)


_GRAPHS: WeakKeyDictionary[MapData, _CostGraph] = WeakKeyDictionary()


def _graph(m: MapData) -> _CostGraph:
    g = _GRAPHS.get(m)
    if g is None:
        g = _GRAPHS[m] = _CostGraph(m)
    return g


def _enemy_hexes(state: JSON, side: str) -> frozenset[str]:
    return frozenset(v["hex"] for v in state["units"].values()
                     if v["side"] != side and v["hex"] and v["status"] == "active")


def reachable(ctx: Context, state: JSON, uid: str) -> dict[int, tuple[int, int]]:
    """Every hex ``uid`` can reach with its movement points left under the generic costs
    (not into enemy-occupied hexes): hex index -> (MP cost, previous hex index). Computed once
    per position (``ctx.cached``)."""
    def make() -> dict[int, tuple[int, int]]:
        m = ctx.scenario.map
        u = state["units"][uid]
        g = _graph(m)
        blocked = {m.index_of_label(h) for h in _enemy_hexes(state, u["side"])}
        start = m.index_of_label(u["hex"])
        budget = u["movement"] - u["mp_spent"]
        best: dict[int, tuple[int, int]] = {start: (0, -1)}
        heap = [(0, start)]
        while heap:
            cost, i = heapq.heappop(heap)
            if cost > best[i][0]:
                continue
            for e in range(g.indptr[i], g.indptr[i + 1]):
                j = g.indices[e]
                entry, extra = g.entry[j], g.edge[e]
                if entry is None or extra is None or j in blocked:
                    continue
                c = cost + entry + extra
                if c <= budget and (j not in best or c < best[j][0]):
                    best[j] = (c, i)
                    heapq.heappush(heap, (c, j))
        return best
    return ctx.cached(f"generic.reach.{uid}", make)


def cheapest_path(ctx: Context, state: JSON, uid: str, to: str) -> list[str]:
    """The cheapest legal path (hex labels entered) for ``uid`` to ``to``, or IllegalOrder."""
    m = ctx.scenario.map
    try:
        target = m.index_of_label(to)
    except (InputError, KeyError, ValueError):
        raise IllegalOrder("MOVE", f"{to} is not a hex of the map") from None
    best = reachable(ctx, state, uid)
    if target not in best or best[target][1] == -1:
        raise IllegalOrder("MOVE", f"{uid} cannot reach {to} with its movement points left")
    path = []
    i = target
    while best[i][1] != -1:
        path.append(m.label(i))
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


def verify_move(ctx: Context, state: JSON, cmd: Command) -> None:
    uid = cmd.args.get("unit")
    if not isinstance(uid, str) or uid not in state["units"]:
        raise IllegalOrder("MOVE", f"no unit {uid!r}")
    u = state["units"][uid]
    if u["side"] != cmd.player:
        raise IllegalOrder("MOVE", f"{uid} belongs to {u['side']}, not {cmd.player}")
    if u["status"] != "active" or u["hex"] is None:
        raise IllegalOrder("MOVE", f"{uid} is not on the map")
    path = move_path(ctx, state, cmd)
    enemy_hexes = _enemy_hexes(state, u["side"])
    for label in path:
        if label in enemy_hexes:
            raise IllegalOrder("MOVE", f"{label} is occupied by the enemy")
    cost = move_cost(ctx.scenario, u["hex"], path)
    left = u["movement"] - u["mp_spent"]
    if cost > left:
        raise IllegalOrder("MOVE", f"{uid} needs {cost} MPs for that path and has {left}")


def execute_move(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    u = state["units"][cmd.args["unit"]]
    path = move_path(ctx, state, cmd)
    cost = move_cost(ctx.scenario, u["hex"], path)
    return [Event("unit_moved", {"unit": cmd.args["unit"], "from": u["hex"],
                                 "path": path, "mp": cost})]


def legal_move(ctx: Context, state: JSON, player: str) -> Iterator[Command]:
    """Per unit of ``player`` on the map, each hex it can reach (``to``: the cheapest path)."""
    m = ctx.scenario.map
    for uid, u in sorted(state["units"].items()):
        if u["side"] != player or u["status"] != "active" or u["hex"] is None:
            continue
        if u["movement"] - u["mp_spent"] <= 0:
            continue
        for i, (_, prev) in sorted(reachable(ctx, state, uid).items()):
            if prev != -1:
                yield Command("move", player, {"unit": uid, "to": m.label(i)})


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
                            {"unit": "de-7pz", "path": ["0504"]}, legal=legal_move),
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
