"""The generic rule system: a small command set that proves the engine loop.

``move`` (a unit along a path of adjacent hexes within its movement allowance; generic terrain
costs — the rule systems' own movement rules live in ``core/paths``), ``roll_table`` (roll on any
loaded table, the die recorded), ``end_phase``. Europa, Third Reich and EuroFront scenarios run
on it until their packages register systems of their own.
"""

from __future__ import annotations

from collections.abc import Mapping

from grognard.core.dice import Dice, DiceExpr, clamp_roll
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex, direction_to
from grognard.core.mapdata import WATER_TERRAIN, HexsideFeature, Terrain
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


def verify_move(ctx: Context, state: JSON, cmd: Command) -> None:
    uid, path = cmd.args.get("unit"), cmd.args.get("path")
    if not isinstance(uid, str) or uid not in state["units"]:
        raise IllegalOrder("MOVE", f"no unit {uid!r}")
    u = state["units"][uid]
    if u["side"] != cmd.player:
        raise IllegalOrder("MOVE", f"{uid} belongs to {u['side']}, not {cmd.player}")
    if u["status"] != "active" or u["hex"] is None:
        raise IllegalOrder("MOVE", f"{uid} is not on the map")
    if not isinstance(path, list) or not path or not all(isinstance(p, str) for p in path):
        raise IllegalOrder("MOVE", "path must list one or more hex labels")
    enemy_hexes = {
        v["hex"] for v in state["units"].values()
        if v["side"] != u["side"] and v["hex"] and v["status"] == "active"
    }
    for label in path:
        if label in enemy_hexes:
            raise IllegalOrder("MOVE", f"{label} is occupied by the enemy")
    cost = move_cost(ctx.scenario, u["hex"], path)
    left = u["movement"] - u["mp_spent"]
    if cost > left:
        raise IllegalOrder("MOVE", f"{uid} needs {cost} MPs for that path and has {left}")


def execute_move(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    u = state["units"][cmd.args["unit"]]
    cost = move_cost(ctx.scenario, u["hex"], list(cmd.args["path"]))
    return [Event("unit_moved", {"unit": cmd.args["unit"], "from": u["hex"],
                                 "path": list(cmd.args["path"]), "mp": cost})]


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
                            "Move a unit along adjacent hexes.",
                            {"unit": "de-7pz", "path": ["0504"]}),
        "roll_table": CommandSpec("roll_table", verify_roll_table, execute_roll_table,
                                  "Roll on a table.",
                                  {"table": "europa_revised_crt", "column": "3-1", "drm": 1}),
        "end_phase": CommandSpec("end_phase", verify_end_phase, execute_end_phase,
                                 "End the current phase."),
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
