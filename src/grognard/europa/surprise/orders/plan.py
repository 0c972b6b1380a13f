"""The rule-47 surprise plan as engine commands (SUR-03..SUR-15): the plan's order list
(designation + steps) is kept in ``state["secrets"][player]`` until it starts and re-run
through :func:`grognard.europa.surprise.orders.run_orders` on every command; the centre hex is
checked on the map (SUR-07) and the started surprise's front is marked along the front line
(SUR-12). The Orders ``designate_surprise``, ``reduce_surprise``, ``move_surprise_centre``,
``delay_surprise`` and ``start_surprise`` (one module each beside this one) share it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar, TypeVar, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import exact_json
from grognard.core.hexgrid import distance
from grognard.core.units import GROUND_TYPES, UnitType
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.state import JSON, thaw
from grognard.europa.board import forces_of, hex_arg, on_map, readings_of, turn_weather
from grognard.europa.choices import adjacent_enemy_hexes
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState, SurprisePlanned, SurpriseStarted
from grognard.europa.surprise.front import participant_role
from grognard.europa.surprise.general import PlanKey, SurpriseKind, SurpriseReadings
from grognard.europa.surprise.map import (
    FrontFields,
    front_fields,
    marked_front,
    participation_candidates,
    verify_centre_on_map,
)
from grognard.europa.surprise.orders import run_orders
from grognard.europa.surprise.plan import view as plan_view
from grognard.europa.surprise.turn import fold_effects, surprise_effects, turn_record

#: Rule-47 plan levels offered to random play and bots (SRP levels; verify checks the budget).
SURPRISE_LEVELS = (1, 3, 5)


def _plans(state: EuropaState, player: str) -> JSON:
    return state["secrets"].get(player, {}).get("surprise", {})


def _command_name(cmd: Command) -> str:
    name = cmd.args.get("command")
    if not isinstance(name, str) or not name:
        raise InputError("command", "name the front or command of the plan")
    return name


def _front_fields(ctx: Context, state: EuropaState, player: str) -> FrontFields:
    """C-FRONT ``player``'s ZOC fields and enemy front line, once per position (every centre
    checked or offered in a position shares them)."""
    out: FrontFields = ctx.cached(f"europa.front_fields.{player}", lambda: front_fields(
        ctx.scenario.map, forces_of(ctx, state), player))
    return out


def _centre_flags(ctx: Context, state: EuropaState, player: str, centre: str) -> dict[str, bool]:
    ch = verify_centre_on_map(ctx.scenario.map, forces_of(ctx, state), player, centre,
                              fields=_front_fields(ctx, state, player))
    return {k: v for k, v in dataclasses.asdict(ch).items() if k != "label"}


def _surprise_orders(ctx: Context, state: EuropaState, cmd: Command) -> tuple[str, dict[str, Any]]:
    """The plan's order list after ``cmd`` (designation + steps), ready for ``run_orders``."""
    name = _command_name(cmd)
    plans = _plans(state, cmd.player)
    a = cmd.args
    turn = int(state["turn"])
    if cmd.kind == "designate_surprise":
        if name in plans and plans[name]["plan"]["status"] == "planned":
            raise IllegalOrder("SUR-14", f"{cmd.player} already plans a surprise for {name}")
        centre = a.get("centre")
        if not isinstance(centre, str):
            raise InputError("centre", "a hex label")
        hex_arg(ctx, centre, "centre")
        orders: dict[str, Any] = {
            "side": cmd.player, "command": name, "continent": a.get("continent", "europe"),
            "centre": centre, "level": a.get("level"), "turn": turn,
            "centre_hex": _centre_flags(ctx, state, cmd.player, centre), "steps": []}
        for key in ("target_turn", "weather_trigger", "reduced_planning", "sources"):
            if key in a:
                orders[key] = a[key]
        return name, orders
    if name not in plans:
        raise IllegalOrder("SUR-05", f"{cmd.player} has no surprise plan for {name}")
    orders = thaw(plans[name]["orders"])
    if cmd.kind == "reduce_surprise":
        step: dict[str, Any] = {"op": "reduce_level", "level": a.get("level"), "turn": turn}
    elif cmd.kind == "move_surprise_centre":
        to = a.get("to")
        if not isinstance(to, str):
            raise InputError("to", "a hex label")
        new = hex_arg(ctx, to, "to")
        old = hex_arg(ctx, plans[name]["plan"]["centre"], "centre")
        step = {"op": "move_centre", "to": to, "hexes": distance(old, new),
                "centre_hex": _centre_flags(ctx, state, cmd.player, to)}
    elif cmd.kind == "delay_surprise":
        step = {"op": "delay", "turns": a.get("turns", 1),
                "weather_wait": a.get("weather_wait", False)}
    else:
        step = {"op": "start", "turn": turn}
        trigger = plans[name]["plan"].get("weather_trigger")
        if trigger is not None:  # SUR-05: the designated weather, from the turn's weather
            step["weather_met"] = turn_weather(ctx, state) == trigger
    orders["steps"].append(step)
    return name, orders


def _run(ctx: Context, state: EuropaState, cmd: Command) -> tuple[str, dict[str, Any], Any]:
    name, orders = _surprise_orders(ctx, state, cmd)
    active = tuple(PlanKey(p["plan"]["side"], p["plan"]["command"], p["plan"]["continent"])
                   for n, p in _plans(state, cmd.player).items()
                   if n != name and p["plan"]["status"] == "planned")
    orders.setdefault("readings", readings_of(ctx, SurpriseReadings).to_mapping())
    orders["readings"] = {k: (v.value if hasattr(v, "value") else v)
                          for k, v in orders["readings"].items()}
    return name, orders, run_orders(orders, active)


#: The rules each plan step applies (the event names them for docs/features/in_play.json).
_OP_RULES: dict[str, tuple[str, ...]] = {
    "designate": ("SUR-03", "SUR-05", "SUR-07", "SUR-14"), "reduce_level": ("SUR-09",),
    "move_centre": ("SUR-07", "SUR-10"), "delay": ("SUR-11",),
    "start": ("SUR-01", "SUR-04", "SUR-12", "SUR-13", "SUR-15")}


def _plan_rules(op: str, orders: dict[str, Any]) -> list[str]:
    rules = list(_OP_RULES.get(op, ()))
    if orders.get("reduced_planning") and op in ("designate", "start"):
        rules.append("SUR-06")  # the halved lead time; at the start, the refund forfeited
    return rules


def verify_surprise(ctx: Context, state: EuropaState, cmd: Command) -> None:
    _, _, run = _run(ctx, state, cmd)
    if run.events[-1][0] == "start":  # SUR-12: the start marks a front: there must be one
        marked_front(ctx.scenario.map, forces_of(ctx, state), cmd.player, run.plan.centre,
                     run.plan.level)


def execute_surprise(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    name, orders, run = _run(ctx, state, cmd)
    turn_now = int(state["turn"])
    op, rec = run.events[-1]
    data: dict[str, Any] = {"player": cmd.player, "command": name, "op": op,
                            "record": rec.to_json(), "orders": orders,
                            "plan": run.plan.to_json(), "rules": _plan_rules(op, orders)}
    if op == "start":
        front = marked_front(ctx.scenario.map, forces_of(ctx, state), cmd.player,
                             run.plan.centre, run.plan.level,
                             fields=_front_fields(ctx, state, cmd.player))
        enemy = next(s for s in state["sides"] if s != cmd.player)
        data["public"] = dict(plan_view(run.plan, enemy) or {}, front=front.to_json())
        own = {uid: Fraction(u["re_size"]) for uid, u in on_map(state)
               if u["side"] == cmd.player and UnitType(u["type"]) in GROUND_TYPES}
        # SUR-15: the effects roll and the "+ # MP" markers; the bonus phases open (SUR-01)
        first = not any(p.get("status") == "started"
                        for p in state["surprise"].get(cmd.player, {}).values())
        data["effects"] = surprise_effects(ctx, state, cmd.player, SurpriseKind.LOCAL,
                                           [run.plan.centre], run.plan.level, dice, first=first)
        data["turn_record"] = turn_record(cmd.player, turn_now, SurpriseKind.LOCAL,
                                          [str(h) for h in front.hexes], name)
        data["candidates"] = [
            {"id": c.id, "re": exact_json(Fraction(c.re)), "hexes_from_front": c.hexes_from_front,
             "role": str(participant_role(c))}
            for c in participation_candidates(ctx.scenario.map, forces_of(ctx, state),
                                              cmd.player, front, own)]
    return [Event("surprise_planned" if op != "start" else "surprise_started", data)]


def fold_surprise(state: EuropaState, ev: Event) -> EuropaState:
    s = state
    d = cast(SurprisePlanned | SurpriseStarted, ev.data)
    mine = s["secrets"].setdefault(d["player"], {}).setdefault("surprise", {})
    mine[d["command"]] = {"orders": d["orders"], "plan": d["plan"]}
    if "candidates" in d:
        mine[d["command"]]["candidates"] = d["candidates"]
    if "public" in d:
        s["surprise"].setdefault(d["player"], {})[d["command"]] = d["public"]
    if "effects" in d:
        fold_effects(s, d)
    return s


# --- candidates for the enumerators ----------------------------------------------------------
A = TypeVar("A")


class PlanOrder(EuropaOrder[A]):
    """SUR-05..SUR-12 An order on a rule-47 surprise plan (designate, reduce, move the centre,
    delay, start): the plan's rule functions verify and run it (:func:`verify_surprise`,
    :func:`execute_surprise`) and :func:`fold_surprise` folds its event. Each subclass gives
    its kind, rule, arguments, lister and words."""

    folds: ClassVar[Mapping[str, Fold]] = {"surprise_planned": fold_surprise}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: A) -> None:
        verify_surprise(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: A,
                dice: Dice) -> list[Event]:
        return execute_surprise(ctx, state, cmd, dice)


def plan_names(state: EuropaState, player: str) -> dict[str, JSON]:
    out: dict[str, JSON] = state["secrets"].get(player, {}).get("surprise", {})
    return out


def front_hexes(ctx: Context, state: EuropaState, player: str) -> list[str]:
    """Hexes of ``player``'s units next to an enemy unit (candidate surprise centres)."""
    return sorted({u["hex"] for units in adjacent_enemy_hexes(ctx, state, player).values()
                   for _, u in units})


def planned(state: EuropaState, player: str) -> list[tuple[str, JSON]]:
    """``player``'s plans still planned (not started), by name."""
    return [(n, p) for n, p in sorted(plan_names(state, player).items())
            if p["plan"]["status"] == "planned"]
