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
from typing import Any, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.state import copy_state
from grognard.europa.air import missions as grounded
from grognard.europa.air.airbase_attack import (
    Airbase,
    repair_airbase,
    verify_repair_airbase,
)
from grognard.europa.air.missions import air_slot, has_air_units, key_of
from grognard.europa.air.phase import (
    AirPhaseState,
    AirStep,
    MissionKind,
    assign_mission,
    verify_air_step,
    verify_assign_mission,
)
from grognard.europa.state_types import Airbase as AirbaseRecord
from grognard.europa.state_types import (
    AirbaseAttacked,
    AirbaseRepaired,
    AirMissionAssigned,
    AirState,
    EuropaState,
    FighterSweepResolved,
    InterdictionResolved,
    StrategicBombingResolved,
)

SWEEP_STREAM = "europa.air.sweep"
INTERCEPT_STREAM = "europa.air.intercept"
INTERDICTION_STREAM = "europa.air.interdiction"
AIRBASE_STREAM = "europa.air.airbase"
PICK_STREAM = "europa.air.airbase_pick"


def _slot(state: EuropaState) -> AirState:
    return air_slot(state)


def _key(state: EuropaState) -> list[int]:
    return key_of(state)



def air_phase_state(state: EuropaState) -> AirPhaseState:
    """EUR-23 The air phase's progress in ``state`` (fresh at the start of each air phase)."""
    s = _slot(state)
    if s["key"] != _key(state):
        return AirPhaseState()
    return AirPhaseState(AirStep(s["step"]),
                         tuple((m, MissionKind(k)) for m, k in s["missions"]))





def _event(state: EuropaState, type_: str, step: AirStep, **data: Any) -> Event:
    return Event(type_, {"key": _key(state), "step": step.value, **data})


def _fold_step(state: EuropaState, ev: Event) -> tuple[EuropaState, AirState]:
    """The air slot after an air event (every air payload carries its ``key`` and ``step``)."""
    s = state
    air: AirState = copy_state(_slot(state))  # deep (a JSON round trip: faster than deepcopy)
    if air["key"] != ev.data["key"]:
        air.update({"key": ev.data["key"], "step": AirStep.MISSIONS.value, "missions": [],
                    "flights": [], "flying": False})
    air["step"] = ev.data["step"]
    air["log"].append({"type": ev.type, "key": ev.data["key"]})
    s["air"] = air
    return s, air


# --- air_mission (EUR-23) ------------------------------------------------------------------------

def verify_air_mission(ctx: Context, state: EuropaState, cmd: Command) -> None:
    if "units" in cmd.args or has_air_units(state):
        verify_assign_mission(air_phase_state(state), str(cmd.args.get("id")),
                              str(cmd.args.get("kind")))
        grounded.verify_mission(ctx, state, cmd)
        return
    mid = cmd.args.get("id")
    if not isinstance(mid, str) or not mid:
        raise InputError("args.id", "a mission needs an id")
    verify_assign_mission(air_phase_state(state), mid, str(cmd.args.get("kind")))


def execute_air_mission(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    kind = parse_enum(MissionKind, cmd.args.get("kind"), "args.kind")
    assign_mission(air_phase_state(state), str(cmd.args["id"]), kind)
    if "units" in cmd.args:
        return [_event(state, "air_mission_assigned", AirStep.MISSIONS,
                       **grounded.execute_mission(ctx, state, cmd))]
    return [_event(state, "air_mission_assigned", AirStep.MISSIONS, id=cmd.args["id"],
                   kind=kind.value)]


def fold_air_mission(state: EuropaState, ev: Event) -> EuropaState:
    s, air = _fold_step(state, ev)
    d = cast(AirMissionAssigned, ev.data)
    air["missions"].append([d["id"], d["kind"]])
    if "target" in d:
        grounded.fold_flight(air, d)
    return s


# --- fly_missions (EUR-23) -----------------------------------------------------------------------

def fold_fly(state: EuropaState, ev: Event) -> EuropaState:
    s, air = _fold_step(state, ev)
    grounded.fold_fly(s, air, ev)
    return s


# --- fighter_sweep (EUR-24) ----------------------------------------------------------------------


def verify_fighter_sweep(ctx: Context, state: EuropaState, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.SWEEP)
    grounded.verify_sweep(ctx, state, cmd)


def execute_fighter_sweep(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    return [_event(state, "fighter_sweep_resolved", AirStep.SWEEP,
                   **grounded.execute_sweep(ctx, state, cmd, dice, SWEEP_STREAM))]


# --- intercept (EUR-25) --------------------------------------------------------------------------


def verify_intercept(ctx: Context, state: EuropaState, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.INTERCEPTION)
    grounded.verify_intercept(ctx, state, cmd)


def execute_intercept(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    return [grounded.execute_intercept(ctx, state, cmd, dice, INTERCEPT_STREAM)]


# --- interdiction (EUR-26) -----------------------------------------------------------------------

def verify_interdiction(ctx: Context, state: EuropaState, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.INTERDICTION)
    grounded.interdiction_args(ctx, state, cmd)


def execute_interdiction(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    return [_event(state, "interdiction_resolved", AirStep.INTERDICTION,
                   **grounded.execute_interdiction(ctx, state, cmd, dice, INTERDICTION_STREAM))]


def fold_interdiction(state: EuropaState, ev: Event) -> EuropaState:
    s, air = _fold_step(state, ev)
    d = cast(InterdictionResolved, ev.data)
    zone = d["result"]["zone"]
    if zone is not None:
        air["zones"].append(zone)
    if "mission" in d:
        grounded.mark(air, d["mission"], resolved=True)
    return s


# --- airbase_attack / airbase_repair (EUR-27) ----------------------------------------------------

def _base(state: EuropaState, args: Mapping[str, Any]) -> Airbase:
    """The airbase an order names, as the state knows it (its capacity, hits and units are
    the referee's facts, never the order's)."""
    name = args.get("base")
    if not isinstance(name, str) or not name:
        raise InputError("args.base", "name the airbase")
    known = _slot(state)["airbases"].get(name)
    if known is None:
        raise IllegalOrder("EUR-27", f"no airbase {name!r} has been attacked")
    return Airbase(name, known["capacity"], known["hits"], tuple(known["active"]),
                   tuple(known["inactive"]), known.get("last_repair_turn"))


def _base_json(b: Airbase) -> dict[str, Any]:
    return {**b.to_json(), "last_repair_turn": b.last_repair_turn}


def verify_airbase_attack_cmd(ctx: Context, state: EuropaState, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.AIRBASE_ATTACK)
    grounded.strike_flight(ctx, state, cmd, MissionKind.AIRBASE_ATTACK)


def execute_airbase_attack(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    return [_event(state, "airbase_attacked", AirStep.AIRBASE_ATTACK,
                   **grounded.execute_airbase_attack(ctx, state, cmd, dice, AIRBASE_STREAM,
                                                     PICK_STREAM))]


def fold_airbase(state: EuropaState, ev: Event) -> EuropaState:
    s, air = _fold_step(state, ev)
    d = cast(AirbaseAttacked | AirbaseRepaired, ev.data)
    air["airbases"][d["airbase"]["name"]] = cast(AirbaseRecord, d["airbase"])
    grounded.fold_statuses(s, ev)
    if "mission" in d:
        grounded.mark(air, d["mission"], resolved=True)
    return s


def verify_airbase_repair(ctx: Context, state: EuropaState, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.REPAIR)
    grounded.verify_repair_owner(state, cmd)
    verify_repair_airbase(_base(state, cmd.args), int(state["turn"]))


def execute_airbase_repair(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    new, rec = repair_airbase(_base(state, cmd.args), int(state["turn"]))
    known = _slot(state)["airbases"].get(new.name)
    owner = None if known is None else known.get("owner")
    return [_event(state, "airbase_repaired", AirStep.REPAIR,
                   airbase={**_base_json(new), **({"owner": owner} if owner else {})},
                   hits_after=rec.hits_after)]


# --- strategic_bombing (EUR-28) ------------------------------------------------------------------


def verify_strategic_bombing(ctx: Context, state: EuropaState, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.STRATEGIC_BOMBING)
    grounded.strike_flight(ctx, state, cmd, MissionKind.STRATEGIC_BOMBING)


def execute_strategic_bombing(ctx: Context, state: EuropaState, cmd: Command, dice: Dice
                              ) -> list[Event]:
    return [_event(state, "strategic_bombing_resolved", AirStep.STRATEGIC_BOMBING,
                   **grounded.execute_strategic(ctx, state, cmd, dice))]


def fold_strategic(state: EuropaState, ev: Event) -> EuropaState:
    s, air = _fold_step(state, ev)
    d = cast(StrategicBombingResolved, ev.data)
    r = d["result"]
    k = f"{d['turn']}:{r['target']}"
    air["strategic_hits"][k] = air["strategic_hits"].get(k, 0) + r["hits"]
    if "mission" in d:
        grounded.mark(air, d["mission"], resolved=True)
        grounded.fold_strategic_pool(s, ev)
    return s



def fold_sweep(state: EuropaState, ev: Event) -> EuropaState:
    d = cast(FighterSweepResolved, ev.data)
    s, air = _fold_step(state, ev)
    grounded.fold_statuses(s, ev)
    if "mission" in d:
        grounded.mark(air, d["mission"], resolved=True)
    return s


def fold_interception(state: EuropaState, ev: Event) -> EuropaState:
    s, air = _fold_step(state, ev)
    grounded.fold_statuses(s, ev)
    if "mission" in ev.data:
        grounded.fold_interception(s, air, ev)
    return s


# --- ground_support (EUR-23, EUR-03/04/06) -------------------------------------------------------

def verify_ground_support(ctx: Context, state: EuropaState, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.GROUND_SUPPORT)
    grounded.verify_ground_support(ctx, state, cmd)


def fold_ground_support(state: EuropaState, ev: Event) -> EuropaState:
    s, air = _fold_step(state, ev)
    grounded.fold_ground_support(s, air, ev)
    return s


def verify_fly_missions(ctx: Context, state: EuropaState, cmd: Command) -> None:
    verify_air_step(air_phase_state(state), AirStep.MISSIONS)
    grounded.verify_fly(ctx, state, cmd)


air_decisions = grounded.air_decisions

__all__ = ["air_decisions", "air_phase_state"]
