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
from typing import Any

from grognard.core.dice import Dice
from grognard.core.exact import exact_json
from grognard.engine import generic
from grognard.engine.commands import Command, CommandSpec
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.orders import commands_of, folds_of
from grognard.engine.phases import TurnSequence
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON
from grognard.engine.system import RuleSystem, register_system
from grognard.engine.views import hide_secrets
from grognard.europa.air.commands import AIR_COMMAND_SPECS, AIR_FOLDS, air_decisions
from grognard.europa.air.orders.air_mission import AIR_MISSION
from grognard.europa.air.orders.airbase_attack import AIRBASE_ATTACK
from grognard.europa.air.orders.airbase_repair import AIRBASE_REPAIR
from grognard.europa.air.orders.fighter_sweep import FIGHTER_SWEEP
from grognard.europa.air.orders.fly_missions import FLY_MISSIONS
from grognard.europa.air.orders.ground_support import GROUND_SUPPORT
from grognard.europa.air.orders.intercept import INTERCEPT
from grognard.europa.air.orders.interdiction import INTERDICTION
from grognard.europa.air.orders.strategic_bombing import STRATEGIC_BOMBING
from grognard.europa.combat.orders.advance import ADVANCE
from grognard.europa.combat.orders.allocate_losses import ALLOCATE_LOSSES
from grognard.europa.combat.orders.attack import ATTACK
from grognard.europa.combat.orders.overrun import OVERRUN
from grognard.europa.combat.orders.retreat import RETREAT
from grognard.europa.play.board import (
    NAME,
    turn_label,
)
from grognard.europa.play.logistics import FOLDS as LOGISTICS_FOLDS
from grognard.europa.play.logistics import air_payment, initial_logistics, paid_event
from grognard.europa.play.orders.end_phase import END_PHASE
from grognard.europa.play.orders.move import MOVE
from grognard.europa.play.referee import (
    ENUMERATORS,
    decisions,
    game_over,
    no_legal,
    phase_prompt,
    with_engine_choices,
)
from grognard.europa.play.turn import (
    TURN_COMMAND_SPECS,
    TURN_FOLDS,
    initial_replacements,
    revised_sequence,
)
from grognard.europa.supply.orders.allocate_isolation_losses import ALLOCATE_ISOLATION_LOSSES
from grognard.europa.supply.orders.isolation_attrition import ISOLATION_ATTRITION
from grognard.europa.supply.orders.supply_check import SUPPLY_CHECK
from grognard.europa.supply.orders.take_replacement import TAKE_REPLACEMENT
from grognard.europa.surprise.air_turn import initial_air_units, recovery_decisions
from grognard.europa.surprise.orders.airbase_surprise import AIRBASE_SURPRISE
from grognard.europa.surprise.orders.bonus_air_recovery import BONUS_AIR_RECOVERY
from grognard.europa.surprise.orders.bonus_supply_judgement import BONUS_SUPPLY_JUDGEMENT
from grognard.europa.surprise.orders.delay_surprise import DELAY_SURPRISE
from grognard.europa.surprise.orders.designate_surprise import DESIGNATE_SURPRISE
from grognard.europa.surprise.orders.move_surprise_centre import MOVE_SURPRISE_CENTRE
from grognard.europa.surprise.orders.plan import execute_surprise, fold_surprise, verify_surprise
from grognard.europa.surprise.orders.reduce_surprise import REDUCE_SURPRISE
from grognard.europa.surprise.orders.start_invasion_surprise import START_INVASION_SURPRISE
from grognard.europa.surprise.orders.start_surprise import START_SURPRISE

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
}

#: The command kinds in the order the system lists them (game legal, random play).
_KINDS = ("roll_table", "move", "end_phase", "overrun", "supply_check", "isolation_attrition",
          "allocate_isolation_losses", "start_invasion_surprise", "take_replacement",
          "air_mission", "fly_missions", "fighter_sweep", "intercept", "ground_support",
          "interdiction", "airbase_attack", "airbase_repair", "strategic_bombing", "attack",
          "allocate_losses", "retreat", "advance", "designate_surprise", "reduce_surprise",
          "move_surprise_centre", "delay_surprise", "start_surprise", "airbase_surprise",
          "bonus_air_recovery", "bonus_supply_judgement")

_LEGACY: dict[str, CommandSpec] = {
        "roll_table": generic.GENERIC.commands["roll_table"],
        **TURN_COMMAND_SPECS,
        **AIR_COMMAND_SPECS,
        **{k: CommandSpec(k, verify_surprise, execute_surprise, h, ex)
           for k, (h, ex) in _SURPRISE_HELP.items()},
}
#: The system's Orders (issue 22): one per command kind, each beside the rule it drives.
ORDERS = (RETREAT, ALLOCATE_LOSSES, ADVANCE, ATTACK, OVERRUN, SUPPLY_CHECK, ISOLATION_ATTRITION, ALLOCATE_ISOLATION_LOSSES, TAKE_REPLACEMENT, AIRBASE_SURPRISE, BONUS_AIR_RECOVERY, BONUS_SUPPLY_JUDGEMENT, START_INVASION_SURPRISE, DESIGNATE_SURPRISE, REDUCE_SURPRISE, MOVE_SURPRISE_CENTRE, DELAY_SURPRISE, START_SURPRISE, MOVE, END_PHASE, AIR_MISSION, FLY_MISSIONS, FIGHTER_SWEEP, INTERCEPT, GROUND_SUPPORT, INTERDICTION, AIRBASE_ATTACK, AIRBASE_REPAIR, STRATEGIC_BOMBING)
_ORDER_SPECS = commands_of(ORDERS)

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
    return with_engine_choices(out) if spec.kind in _DECIDING else out


EUROPA = RuleSystem(
    name=NAME,
    commands={k: _ORDER_SPECS[k] if k in _ORDER_SPECS else
              _referee_spec(_paying_air(_LEGACY[k]) if k in _AIR_USE else _LEGACY[k])
              for k in _KINDS},
    folds={
        **generic.GENERIC.folds,
        **AIR_FOLDS,
        **TURN_FOLDS,
        "surprise_planned": fold_surprise,
        "surprise_started": fold_surprise,
        **LOGISTICS_FOLDS,
        **folds_of(ORDERS),
    },
    initial_state=initial_state,
    view=view,
    description="Europa revised player turn (EUR-22): air phase, movement and overruns, "
                "combat, supply, isolation attrition, replacements; rule-47 surprise plans.",
    default_sequence=default_sequence,
    decisions=lambda ctx, state: [*decisions(ctx, state), *recovery_decisions(ctx, state),
                                  *air_decisions(ctx, state)],
    game_over=game_over,
    phase_prompt=phase_prompt,
    turn_label=turn_label,
    reveal_events=frozenset({"surprise_started"}),
    event_view=event_view,
)
register_system(EUROPA)
