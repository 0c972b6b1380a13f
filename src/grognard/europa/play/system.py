"""The Europa rule system for the engine (``europa``): revised combat and rule-47 plans as commands.

Importing this module registers the :class:`~grognard.engine.system.RuleSystem` named
``europa`` (``engine.system.PLUGINS`` points here). Commands (documented with their events in
``docs/formats/europa_engine.md``):

* ``move``, ``roll_table``, ``end_phase`` - the generic specs of :mod:`grognard.engine.generic`;
* ``attack`` {attackers, defender_hex, bombardment, series, weather, barrage_target, readings} -
  the ATTACK model is built from the scenario (units in state, map terrain -> the terrain-effects
  table, hexsides crossed from the map), the barrage (stream ``europa.barrage``) and the CRT
  2D6 (stream ``europa.combat``) are rolled and :func:`grognard.europa.combat.crt.resolve_setup`
  gives the result; losses and retreats it demands stay pending in ``state["combat"]``;
* ``allocate_losses`` {side, units} - checked by :func:`grognard.europa.combat.losses.allocate_losses`;
* ``retreat`` {units, path, losses} - one of ``core/retreat``'s legal retreats, ZOC penalties by
  :func:`grognard.europa.combat.retreat.retreat_along`;
* ``designate_surprise``, ``reduce_surprise``, ``move_surprise_centre``, ``delay_surprise``,
  ``start_surprise`` - a rule-47 plan (:mod:`grognard.europa.surprise.plan`) kept in
  ``state["secrets"][player]`` until it starts; the centre hex is checked on the map
  (SUR-07) and the started surprise's front is marked along the front line (SUR-12).

The referee hooks (:mod:`grognard.europa.play.referee`): the side taking a loss allocates it with
its own ``allocate_losses`` and chooses its own ``retreat``; the attacker chooses its
``advance`` into an emptied hex; forced single choices are made by the engine and logged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import exact_json
from grognard.core.hexgrid import distance
from grognard.core.units import GROUND_TYPES, UnitType
from grognard.engine import generic
from grognard.engine.commands import Command, CommandSpec
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.phases import TurnSequence
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON, thaw
from grognard.engine.system import RuleSystem, register_system
from grognard.engine.views import hide_secrets
from grognard.europa import victory
from grognard.europa.air.commands import AIR_COMMAND_SPECS, AIR_FOLDS, air_decisions
from grognard.europa.play.board import (
    NAME,
    forces_of,
    hex_arg,
    on_map,
    readings_of,
    turn_label,
)
from grognard.europa.play.combat import (
    execute_advance,
    execute_allocate_losses,
    execute_attack,
    execute_retreat,
    fold_advanced,
    fold_combat_resolved,
    fold_losses_allocated,
    fold_units_retreated,
    verify_advance,
    verify_allocate_losses,
    verify_attack,
    verify_retreat,
)
from grognard.europa.play.logistics import FOLDS as LOGISTICS_FOLDS
from grognard.europa.play.logistics import air_payment, initial_logistics, paid_event
from grognard.europa.play.referee import (
    ENUMERATORS,
    decisions,
    game_over,
    no_legal,
    phase_prompt,
    propose_move,
    sample_move,
    with_engine_choices,
)
from grognard.europa.play.turn import (
    TURN_COMMAND_SPECS,
    TURN_FOLDS,
    initial_replacements,
    revised_sequence,
    settled,
)
from grognard.europa.surprise.air_turn import FOLDS as SURPRISE_AIR_FOLDS
from grognard.europa.surprise.air_turn import SPECS as SURPRISE_AIR_SPECS
from grognard.europa.surprise.air_turn import initial_air_units, recovery_decisions
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

#: The round-1 phase list (initial, movement, combat), kept for scenarios that name it; the
#: default sequence is now the revised turn (``default_sequence``).
SEQUENCE_PHASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("initial", ("designate_surprise", "reduce_surprise", "move_surprise_centre",
                 "delay_surprise", "start_surprise")),
    ("movement", ("move",)),
    ("combat", ("roll_table", "attack", "allocate_losses", "retreat")),
)



# --- state -------------------------------------------------------------------------------------
def initial_state(scenario: Scenario) -> JSON:
    """The generic state plus what Europa combat needs per unit, and the combat/surprise slots."""
    s = generic.initial_state(scenario)
    for p in scenario.placements:
        u = p.unit
        s["units"][u.id].update({
            "re_size": exact_json(u.re_size), "divisional": u.divisional, "cadre": u.cadre,
            "armor": str(u.armor), "zoc_class": u.zoc_class, "supply": "in"})
    s["combat"] = {"count": 0, "pending": None}
    s["surprise"] = {}
    s["overrun"] = {"key": None, "units": [], "hexes": [], "pending": None}
    s["supply"] = {"checked": None, "attrition": None, "isolated_hexes": {}, "losses": []}
    s["replacements"] = initial_replacements(scenario)
    s["air_units"] = initial_air_units(scenario)
    lg = initial_logistics(scenario, revised_sequence(scenario).phases[0])
    if lg is not None:  # EUR-37..EUR-41: FitE supply stockpiles
        s["logistics"] = lg
    return s


# --- the surprise plan (rule 47) ---------------------------------------------------------------
def _plans(state: JSON, player: str) -> JSON:
    return state["secrets"].get(player, {}).get("surprise", {})


def _command_name(cmd: Command) -> str:
    name = cmd.args.get("command")
    if not isinstance(name, str) or not name:
        raise InputError("command", "name the front or command of the plan")
    return name


def _front_fields(ctx: Context, state: JSON, player: str) -> FrontFields:
    """C-FRONT ``player``'s ZOC fields and enemy front line, once per position (every centre
    checked or offered in a position shares them)."""
    out: FrontFields = ctx.cached(f"europa.front_fields.{player}", lambda: front_fields(
        ctx.scenario.map, forces_of(ctx, state), player))
    return out


def _centre_flags(ctx: Context, state: JSON, player: str, centre: str) -> dict[str, bool]:
    ch = verify_centre_on_map(ctx.scenario.map, forces_of(ctx, state), player, centre,
                              fields=_front_fields(ctx, state, player))
    return {k: v for k, v in dataclasses.asdict(ch).items() if k != "label"}


def _surprise_orders(ctx: Context, state: JSON, cmd: Command) -> tuple[str, dict[str, Any]]:
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
        step = {"op": "move_centre", "to": to, "hexes": a.get("hexes", distance(old, new)),
                "centre_hex": _centre_flags(ctx, state, cmd.player, to)}
    elif cmd.kind == "delay_surprise":
        step = {"op": "delay", "turns": a.get("turns", 1),
                "weather_wait": a.get("weather_wait", False)}
    else:
        step = {"op": "start", "turn": turn}
        if "weather_met" in a:
            step["weather_met"] = a["weather_met"]
    orders["steps"].append(step)
    return name, orders


def _run(ctx: Context, state: JSON, cmd: Command) -> tuple[str, dict[str, Any], Any]:
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


def verify_surprise(ctx: Context, state: JSON, cmd: Command) -> None:
    _, _, run = _run(ctx, state, cmd)
    if run.events[-1][0] == "start":  # SUR-12: the start marks a front: there must be one
        marked_front(ctx.scenario.map, forces_of(ctx, state), cmd.player, run.plan.centre,
                     run.plan.level)


def execute_surprise(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
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


#: What the other side learns when a surprise starts (SUR-12: the front and level are public;
#: the plan's orders, sources, ledger and the candidates stay the planner's).
_STARTED_PUBLIC = ("player", "command", "op", "public", "effects", "turn_record")


def event_view(ev: Event, player: str, state: JSON) -> dict[str, Any] | None:
    """C-HIDDEN A rule-47 plan is secret until it starts: the other side never sees a
    ``surprise_planned`` event, and of ``surprise_started`` only what the started surprise
    makes public. Every other event is shown whole."""
    owner = ev.data.get("player")
    if ev.type == "surprise_planned" and owner != player:
        return None
    if ev.type == "surprise_started" and owner != player:
        return {"type": ev.type, "data": {k: ev.data[k] for k in _STARTED_PUBLIC
                                          if k in ev.data}}
    return ev.to_json()


def fold_surprise(state: JSON, ev: Event) -> JSON:
    s = state
    d = ev.data
    mine = s["secrets"].setdefault(d["player"], {}).setdefault("surprise", {})
    mine[d["command"]] = {"orders": d["orders"], "plan": d["plan"]}
    if "candidates" in d:
        mine[d["command"]]["candidates"] = d["candidates"]
    if "public" in d:
        s["surprise"].setdefault(d["player"], {})[d["command"]] = d["public"]
    if "effects" in d:
        fold_effects(s, d)
    return s


def view(state: JSON, player: str) -> JSON:
    """C-HIDDEN The engine's view: other players' plans (in ``secrets``) are removed; a started
    surprise is public in ``state["surprise"]`` (centre, level, kind and the marked front)."""
    return hide_secrets(state, player)


def default_sequence(scenario: Scenario) -> TurnSequence:
    """EUR-22 The revised player turn of ``europa.sequence`` for each side (with the air,
    overrun, supply, isolation and replacement commands); EUR-44 surprise phases first for a
    FitE scenario (``[europa] fite_surprise_turn = true``)."""
    return revised_sequence(scenario)


_SURPRISE_HELP: dict[str, tuple[str, dict[str, Any]]] = {
    "designate_surprise": ("Designate a rule-47 surprise plan (secret until it starts).",
                           {"command": "AGC", "centre": "0504", "level": 5,
                            "target_turn": 2}),
    "reduce_surprise": ("Reduce the plan's SRP level on the attack turn (80% back).",
                        {"command": "AGC", "level": 3}),
    "move_surprise_centre": ("Move the plan's centre hex (level falls one per hex).",
                             {"command": "AGC", "to": "0505"}),
    "delay_surprise": ("Delay the plan (a quarter of the designation cost per turn).",
                       {"command": "AGC", "turns": 1}),
    "start_surprise": ("Start the surprise: half refund, the front is marked and public.",
                       {"command": "AGC"}),
}

_COMMANDS: dict[str, CommandSpec] = {
        "roll_table": generic.GENERIC.commands["roll_table"],
        **TURN_COMMAND_SPECS,
        **AIR_COMMAND_SPECS,
        "attack": CommandSpec("attack", verify_attack, execute_attack,
                              "Europa revised combat on one hex (EUR-09).",
                              {"attackers": ["de-7pz", "de-20mot"], "defender_hex": "0504"}),
        "allocate_losses": CommandSpec("allocate_losses", verify_allocate_losses,
                                       execute_allocate_losses,
                                       "Allocate a side's loss requirement (EUR-12).",
                                       {"side": "defender", "units": ["su-112rifle"]}),
        "retreat": CommandSpec("retreat", verify_retreat, execute_retreat,
                               "Retreat units along a legal path (EUR-15/16).",
                               {"units": ["su-112rifle"], "path": ["0804", "0904"]}),
        "advance": CommandSpec("advance", verify_advance, execute_advance,
                               "Advance surviving attackers into the emptied hex (EUR-15); "
                               "none: stay.", {"units": ["de-7pz"]}),
        **{k: CommandSpec(k, verify_surprise, execute_surprise, h, ex)
           for k, (h, ex) in _SURPRISE_HELP.items()},
        **SURPRISE_AIR_SPECS,
}
#: Decisions the engine answers itself when the text leaves one choice (referee.engine_choices).
_DECIDING = ("attack", "overrun", "allocate_losses", "retreat")


#: EUR-37 the commands that use air units, and the argument naming them.
_AIR_USE = {"air_mission": "units", "intercept": "interceptors"}


def _air_ids(args: Any, key: str) -> list[str]:
    ids = args.get(key) if isinstance(args, Mapping) else None
    return [str(i) for i in ids] if isinstance(ids, list) else []


def _paying_air(spec: CommandSpec) -> CommandSpec:
    """EUR-37 ``spec`` whose air units pay their SPs (refused if they cannot; an ``sp_paid``
    event after the command's own)."""
    key = _AIR_USE[spec.kind]
    verify, execute = spec.verify, spec.execute

    def verify_paid(ctx: Context, state: JSON, cmd: Command) -> None:
        verify(ctx, state, cmd)
        air_payment(ctx, state, cmd.player, _air_ids(cmd.args, key))

    def execute_paid(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
        events = execute(ctx, state, cmd, dice)
        paid = air_payment(ctx, state, cmd.player, _air_ids(cmd.args, key))
        return events if paid is None else [*events, paid_event(paid)]

    paying = dataclasses.replace(spec, verify=verify_paid, execute=execute_paid)
    # its proposer's candidates are filtered by the paying verify (with_proposer binds it)
    return paying.with_proposer(spec.propose) if spec.propose is not None else paying


def _referee_spec(spec: CommandSpec) -> CommandSpec:
    if spec.kind not in ENUMERATORS and spec.propose is not None:
        return spec  # enumerated by its own proposer (the air commands)
    legal = ENUMERATORS.get(spec.kind, spec.legal or no_legal)
    out = spec.with_legal(legal)
    if spec.kind == "move":  # random play samples moves by rejection over the cheap proposal
        out = dataclasses.replace(out, propose=propose_move, sample=sample_move)
    return with_engine_choices(out) if spec.kind in _DECIDING else out


EUROPA = RuleSystem(
    name=NAME,
    commands={k: _referee_spec(_paying_air(v) if k in _AIR_USE else v)
              for k, v in _COMMANDS.items()},
    folds={
        **generic.GENERIC.folds,
        "combat_resolved": settled(fold_combat_resolved),
        "losses_allocated": settled(fold_losses_allocated),
        "units_retreated": settled(fold_units_retreated),
        "advanced_after_combat": settled(fold_advanced),
        **AIR_FOLDS,
        **TURN_FOLDS,
        "surprise_planned": fold_surprise,
        "surprise_started": fold_surprise,
        **SURPRISE_AIR_FOLDS,
        **LOGISTICS_FOLDS,
    },
    initial_state=victory.with_holders(initial_state),
    view=view,
    description="Europa revised player turn (EUR-22): air phase, movement and overruns, "
                "combat, supply, isolation attrition, replacements; rule-47 surprise plans.",
    default_sequence=default_sequence,
    decisions=lambda ctx, state: [*decisions(ctx, state), *recovery_decisions(ctx, state),
                                  *air_decisions(ctx, state)],
    game_over=lambda ctx, state: victory.final_verdict(ctx, state) or game_over(ctx, state),
    objectives=victory.objectives,
    standing=victory.standing,
    after_events=(victory.HOLDERS_RULE,),
    phase_prompt=phase_prompt,
    turn_label=turn_label,
    reveal_events=frozenset({"surprise_started"}),
    event_view=event_view,
)
register_system(EUROPA)
