"""The Europa revised air phase's commands (EUR-23..EUR-28): their verify, execute and folds,
run by the Orders of :mod:`grognard.europa.air.orders` (the phase that allows them is
:data:`grognard.europa.play.sequence.AIR_COMMANDS`).

State: ``state["air"]`` = ``{"key": [turn, phase], "step", "missions", "zones", "airbases",
"strategic_hits", "log"}``. ``key`` names the air phase the step and missions belong to; a new
air phase starts again at the ``missions`` step. Zones and airbases persist. Every die is drawn
from a named stream (``europa.air.sweep``, ``europa.air.intercept``, ``europa.air.interdiction``,
``europa.air.airbase``, ``europa.air.airbase_pick``) and recorded in the event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.state import JSON, thaw
from grognard.europa.air import missions as grounded
from grognard.europa.air.airbase_attack import (
    NO_RE_SHIFT,
    Airbase,
    airbase_attack,
    airbase_hits,
    random_picks,
    repair_airbase,
    verify_repair_airbase,
)
from grognard.europa.air.interdiction import interdiction_mission
from grognard.europa.air.missions import air_slot, has_air_units, key_of
from grognard.europa.air.phase import (
    AirPhaseState,
    AirStep,
    AirUnit,
    Mission,
    MissionKind,
    assign_mission,
    fighter_sweep,
    intercept,
    sweep_pairings,
    verify_air_step,
    verify_assign_mission,
    verify_interception,
    verify_sweep_pairings,
)
from grognard.europa.air.strategic_bombing import strategic_bombing

SWEEP_STREAM = "europa.air.sweep"
INTERCEPT_STREAM = "europa.air.intercept"
INTERDICTION_STREAM = "europa.air.interdiction"
AIRBASE_STREAM = "europa.air.airbase"
PICK_STREAM = "europa.air.airbase_pick"


def _slot(state: JSON) -> dict[str, Any]:
    return air_slot(state)


def _key(state: JSON) -> list[int]:
    return key_of(state)


def _legacy(state: JSON, rule: str) -> None:
    """Air units given in the order (a calculator) only where the scenario has none: with the
    scenario's ``[europa.air_units]`` a mission names them (``air_mission`` units, target)."""
    if has_air_units(state):
        raise IllegalOrder(rule, "this scenario's air units fly the missions: assign them with "
                           "air_mission {id, kind, target, units} and name the mission")


def air_phase_state(state: JSON) -> AirPhaseState:
    """EUR-23 The air phase's progress in ``state`` (fresh at the start of each air phase)."""
    s = _slot(state)
    if s["key"] != _key(state):
        return AirPhaseState()
    return AirPhaseState(AirStep(s["step"]),
                         tuple((m, MissionKind(k)) for m, k in s["missions"]))


def _int(args: Mapping[str, Any], name: str, default: int | None = None) -> int:
    v = args.get(name, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise InputError(f"args.{name}", f"must be an integer, not {v!r}")
    return v


def _units(args: Mapping[str, Any], name: str, fighter: bool = True) -> list[AirUnit]:
    raw = args.get(name, [])
    if not isinstance(raw, list):
        raise InputError(f"args.{name}", "must be a list of air units")
    out = []
    for i, u in enumerate(raw):
        if not isinstance(u, dict) or not isinstance(u.get("id"), str):
            raise InputError(f"args.{name}[{i}]", "an air unit needs an id")
        out.append(AirUnit(u["id"], _int(u, "air_combat", 0), _int(u, "range", 0), fighter,
                           _int(u, "tactical", 0), _int(u, "strategic", 0)))
    return out


def _targets(args: Mapping[str, Any], name: str) -> dict[str, str]:
    raw = args.get(name, {})
    if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
        raise InputError(f"args.{name}", "must map interceptor ids to target ids")
    return {str(k): v for k, v in raw.items()}


def _event(state: JSON, type_: str, step: AirStep, **data: Any) -> Event:
    return Event(type_, {"key": _key(state), "step": step.value, **data})


def _fold_step(state: JSON, ev: Event) -> tuple[JSON, dict[str, Any]]:
    s = state
    air = thaw(_slot(state))
    if air["key"] != ev.data["key"]:
        air.update(key=ev.data["key"], step=AirStep.MISSIONS.value, missions=[], flights=[],
                   flying=False)
    air["step"] = ev.data["step"]
    air["log"].append({"type": ev.type, "key": ev.data["key"]})
    s["air"] = air
    return s, air


# --- air_mission (EUR-23) ------------------------------------------------------------------------

def verify_air_mission(ctx: Context, state: JSON, cmd: Command) -> None:
    if "units" in cmd.args or has_air_units(state):
        verify_assign_mission(air_phase_state(state), str(cmd.args.get("id")),
                              str(cmd.args.get("kind")))
        grounded.verify_mission(ctx, state, cmd)
        return
    mid = cmd.args.get("id")
    if not isinstance(mid, str) or not mid:
        raise InputError("args.id", "a mission needs an id")
    verify_assign_mission(air_phase_state(state), mid, str(cmd.args.get("kind")))


def execute_air_mission(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    kind = parse_enum(MissionKind, cmd.args.get("kind"), "args.kind")
    assign_mission(air_phase_state(state), str(cmd.args["id"]), kind)
    if "units" in cmd.args:
        return [_event(state, "air_mission_assigned", AirStep.MISSIONS,
                       **grounded.execute_mission(ctx, state, cmd))]
    return [_event(state, "air_mission_assigned", AirStep.MISSIONS, id=cmd.args["id"],
                   kind=kind.value)]


def fold_air_mission(state: JSON, ev: Event) -> JSON:
    s, air = _fold_step(state, ev)
    air["missions"].append([ev.data["id"], ev.data["kind"]])
    if "target" in ev.data:
        grounded.fold_flight(air, ev.data)
    return s


# --- fly_missions (EUR-23) -----------------------------------------------------------------------

def fold_fly(state: JSON, ev: Event) -> JSON:
    s, air = _fold_step(state, ev)
    grounded.fold_fly(s, air, ev)
    return s


# --- fighter_sweep (EUR-24) ----------------------------------------------------------------------

def _sweep_parts(cmd: Command) -> tuple[list[AirUnit], list[AirUnit], list[tuple[str, str]]]:
    sw, df = _units(cmd.args, "sweepers"), _units(cmd.args, "defenders")
    raw = cmd.args.get("pairs")
    if raw is None:
        pairs = list(sweep_pairings([u.id for u in sw], [u.id for u in df]))
    elif isinstance(raw, list) and all(isinstance(p, list) and len(p) == 2 for p in raw):
        pairs = [(str(a), str(b)) for a, b in raw]
    else:
        raise InputError("args.pairs", "must be a list of [sweeper, defender] pairs")
    return sw, df, pairs


def verify_fighter_sweep(ctx: Context, state: JSON, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.SWEEP)
    if "mission" in cmd.args:
        grounded.verify_sweep(ctx, state, cmd)
        return
    _legacy(state, "EUR-24")
    sw, df, pairs = _sweep_parts(cmd)
    verify_sweep_pairings([u.id for u in sw], [u.id for u in df], pairs)


def execute_fighter_sweep(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    if "mission" in cmd.args:
        return [_event(state, "fighter_sweep_resolved", AirStep.SWEEP,
                       **grounded.execute_sweep(ctx, state, cmd, dice, SWEEP_STREAM))]
    sw, df, pairs = _sweep_parts(cmd)
    stream = dice.stream(SWEEP_STREAM)
    rolls = [stream.roll("2d6").total for _ in range(2 * len(pairs))]
    result = fighter_sweep(sw, df, pairs, rolls, ctx.tables.table("europa_air_combat"))
    return [_event(state, "fighter_sweep_resolved", AirStep.SWEEP, rolls=rolls,
                   result=result.to_json())]


# --- intercept (EUR-25) --------------------------------------------------------------------------

def _mission(cmd: Command) -> Mission:
    raw = cmd.args.get("mission")
    if not isinstance(raw, dict):
        raise InputError("args.mission", "must be an object {id, kind, escorts, strikers}")
    return Mission(str(raw.get("id", "mission")),
                   parse_enum(MissionKind, raw.get("kind", "ground_support"), "mission.kind"),
                   tuple(_units(raw, "escorts")), tuple(_units(raw, "strikers", fighter=False)))


def verify_intercept(ctx: Context, state: JSON, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.INTERCEPTION)
    if isinstance(cmd.args.get("mission"), str):
        grounded.verify_intercept(ctx, state, cmd)
        return
    _legacy(state, "EUR-25")
    _mission(cmd)
    dist = cmd.args.get("distances", {})
    if not isinstance(dist, dict):
        raise InputError("args.distances", "must map interceptor ids to hexes from the mission")
    for u in _units(cmd.args, "interceptors"):
        verify_interception(_int(dist, u.id, 0), u.range_hexes)


def execute_intercept(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    if isinstance(cmd.args.get("mission"), str):
        return [grounded.execute_intercept(ctx, state, cmd, dice, INTERCEPT_STREAM)]
    ic = _units(cmd.args, "interceptors")
    stream = dice.stream(INTERCEPT_STREAM)
    rolls = [stream.roll("2d6").total for _ in range(4 * len(ic))]
    result = intercept(ic, _mission(cmd), _targets(cmd.args, "escort_targets"),
                       _targets(cmd.args, "strike_targets"), rolls,
                       table=ctx.tables.table("europa_air_combat"))
    return [_event(state, "interception_resolved", AirStep.INTERCEPTION,
                   rolls=rolls[:result.rolls_used], result=result.to_json())]


# --- interdiction (EUR-26) -----------------------------------------------------------------------

def verify_interdiction(ctx: Context, state: JSON, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.INTERDICTION)
    if "mission" in cmd.args:
        grounded.interdiction_args(ctx, state, cmd)
        return
    _legacy(state, "EUR-26")
    if _int(cmd.args, "tactical") < 0:
        raise InputError("args.tactical", "must not be negative")
    if not isinstance(cmd.args.get("centre"), str):
        raise InputError("args.centre", "give the centre hex label")


def execute_interdiction(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    if "mission" in cmd.args:
        return [_event(state, "interdiction_resolved", AirStep.INTERDICTION,
                       **grounded.execute_interdiction(ctx, state, cmd, dice,
                                                       INTERDICTION_STREAM))]
    m = ctx.scenario.map
    roll = dice.stream(INTERDICTION_STREAM).die(6)
    rail = None
    if cmd.args.get("rail"):
        from grognard.core.paths import hex_index

        rail = np.zeros(m.n, dtype=bool)
        rail[hex_index(m, str(cmd.args["centre"]), "args.centre")] = True
    res = interdiction_mission(m, str(cmd.args["centre"]), _int(cmd.args, "tactical"), roll,
                               int(state["turn"]), cmd.player, list(state["sides"]), rail)
    return [_event(state, "interdiction_resolved", AirStep.INTERDICTION, roll=roll,
                   result=res.to_json())]


def fold_interdiction(state: JSON, ev: Event) -> JSON:
    s, air = _fold_step(state, ev)
    zone = ev.data["result"]["zone"]
    if zone is not None:
        air["zones"].append(zone)
    if "mission" in ev.data:
        grounded.mark(air, ev.data["mission"], resolved=True)
    return s


# --- airbase_attack / airbase_repair (EUR-27) ----------------------------------------------------

def _base(state: JSON, args: Mapping[str, Any]) -> Airbase:
    name = args.get("base")
    if not isinstance(name, str) or not name:
        raise InputError("args.base", "name the airbase")
    known = _slot(state)["airbases"].get(name)
    if known is not None:
        return Airbase(name, known["capacity"], known["hits"], tuple(known["active"]),
                       tuple(known["inactive"]), known.get("last_repair_turn"))
    active = args.get("active", [])
    if not isinstance(active, list):
        raise InputError("args.active", "must be a list of air unit ids")
    return Airbase(name, _int(args, "capacity", 0), 0, tuple(str(a) for a in active))


def _base_json(b: Airbase) -> dict[str, Any]:
    return {**b.to_json(), "last_repair_turn": b.last_repair_turn}


def verify_airbase_attack_cmd(ctx: Context, state: JSON, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.AIRBASE_ATTACK)
    if "mission" in cmd.args:
        grounded.strike_flight(ctx, state, cmd, MissionKind.AIRBASE_ATTACK)
        return
    _legacy(state, "EUR-27")
    _base(state, cmd.args)
    if "hits" not in cmd.args and _int(cmd.args, "strength", 0) < 1:
        raise InputError("args.strength", "give hits or a positive strength")


def execute_airbase_attack(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    if "mission" in cmd.args:
        return [_event(state, "airbase_attacked", AirStep.AIRBASE_ATTACK,
                       **grounded.execute_airbase_attack(ctx, state, cmd, dice, AIRBASE_STREAM,
                                                         PICK_STREAM))]
    base = _base(state, cmd.args)
    roll = None
    if "hits" in cmd.args:
        hits = _int(cmd.args, "hits")
    else:
        roll = dice.stream(AIRBASE_STREAM).roll("2d6").total
        hits = airbase_hits(_int(cmd.args, "strength"), roll, _int(cmd.args, "drm", 0),
                            NO_RE_SHIFT, table=ctx.tables.table("europa_revised_bombardment"))
    picks = random_picks(base, hits, dice.stream(PICK_STREAM))
    new, rec = airbase_attack(base, hits, picks)
    return [_event(state, "airbase_attacked", AirStep.AIRBASE_ATTACK, roll=roll,
                   result=rec.to_json(), airbase=_base_json(new))]


def fold_airbase(state: JSON, ev: Event) -> JSON:
    s, air = _fold_step(state, ev)
    air["airbases"][ev.data["airbase"]["name"]] = ev.data["airbase"]
    grounded.fold_statuses(s, ev)
    if "mission" in ev.data:
        grounded.mark(air, ev.data["mission"], resolved=True)
    return s


def verify_airbase_repair(ctx: Context, state: JSON, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.REPAIR)
    grounded.verify_repair_owner(state, cmd)
    verify_repair_airbase(_base(state, cmd.args), int(state["turn"]))


def execute_airbase_repair(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    new, rec = repair_airbase(_base(state, cmd.args), int(state["turn"]))
    owner = _slot(state)["airbases"].get(new.name, {}).get("owner")
    return [_event(state, "airbase_repaired", AirStep.REPAIR,
                   airbase={**_base_json(new), **({"owner": owner} if owner else {})},
                   hits_after=rec.hits_after)]


# --- strategic_bombing (EUR-28) ------------------------------------------------------------------

def _results(cmd: Command) -> list[int]:
    raw = cmd.args.get("results")
    if not isinstance(raw, list):
        raise InputError("args.results", "must be a list of bombardment results (0, 1, 2)")
    return [int(r) if isinstance(r, int) and not isinstance(r, bool) else -1 for r in raw]


def verify_strategic_bombing(ctx: Context, state: JSON, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.STRATEGIC_BOMBING)
    if "mission" in cmd.args:
        grounded.strike_flight(ctx, state, cmd, MissionKind.STRATEGIC_BOMBING)
        return
    _legacy(state, "EUR-28")
    strategic_bombing(str(cmd.args.get("target")), _results(cmd))


def execute_strategic_bombing(ctx: Context, state: JSON, cmd: Command, dice: Dice
                              ) -> list[Event]:
    if "mission" in cmd.args:
        return [_event(state, "strategic_bombing_resolved", AirStep.STRATEGIC_BOMBING,
                       **grounded.execute_strategic(ctx, state, cmd, dice))]
    target = str(cmd.args.get("target"))
    prior = _slot(state)["strategic_hits"].get(f"{state['turn']}:{target}", 0)
    limit = cmd.args.get("hit_limit")
    eff = strategic_bombing(target, _results(cmd), bool(cmd.args.get("explicit_supply_units")),
                            limit if isinstance(limit, int) else None, prior)
    return [_event(state, "strategic_bombing_resolved", AirStep.STRATEGIC_BOMBING,
                   turn=int(state["turn"]), result=eff.to_json())]


def fold_strategic(state: JSON, ev: Event) -> JSON:
    s, air = _fold_step(state, ev)
    r = ev.data["result"]
    k = f"{ev.data['turn']}:{r['target']}"
    air["strategic_hits"][k] = air["strategic_hits"].get(k, 0) + r["hits"]
    if "mission" in ev.data:
        grounded.mark(air, ev.data["mission"], resolved=True)
        grounded.fold_strategic_pool(s, ev)
    return s



def fold_sweep(state: JSON, ev: Event) -> JSON:
    s, air = _fold_step(state, ev)
    grounded.fold_statuses(s, ev)
    if "mission" in ev.data:
        grounded.mark(air, ev.data["mission"], resolved=True)
    return s


def fold_interception(state: JSON, ev: Event) -> JSON:
    s, air = _fold_step(state, ev)
    grounded.fold_statuses(s, ev)
    if "mission" in ev.data:
        grounded.fold_interception(s, air, ev)
    return s


# --- ground_support (EUR-23, EUR-03/04/06) -------------------------------------------------------

def verify_ground_support(ctx: Context, state: JSON, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.GROUND_SUPPORT)
    grounded.verify_ground_support(ctx, state, cmd)


def fold_ground_support(state: JSON, ev: Event) -> JSON:
    s, air = _fold_step(state, ev)
    grounded.fold_ground_support(s, air, ev)
    return s


def verify_fly_missions(ctx: Context, state: JSON, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.MISSIONS)
    grounded.verify_fly(ctx, state, cmd)


air_decisions = grounded.air_decisions

__all__ = ["air_decisions", "air_phase_state"]
