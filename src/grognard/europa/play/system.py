"""The Europa rule system for the engine (``europa``): the revised player turn (EUR-22) and
rule-47 surprises as Orders.

Importing this module registers the :class:`~grognard.engine.system.RuleSystem` named
``europa`` (pyproject.toml's ``grognard.systems`` entry point points here). :data:`ORDERS`
lists the system's Orders once, one per command kind, each in the rule package beside the rule
it drives (its typed arguments, verify, execute, folds, legal-action lister, help and example):

* ``europa/play/orders``: ``move`` (EUR-17, EUR-44), ``end_phase`` (EUR-22);
* ``europa/combat/orders``: ``attack`` (EUR-09), ``overrun`` (EUR-18..20),
  ``allocate_losses`` (EUR-12/13), ``retreat`` (EUR-15/16), ``advance`` (EUR-15);
* ``europa/supply/orders``: ``supply_check`` (EUR-30), ``isolation_attrition`` (EUR-31/32),
  ``allocate_isolation_losses`` (EUR-32), ``take_replacement`` (EUR-33);
* ``europa/air/orders``: ``air_mission``, ``air_transfer`` (the EUR-23 reading),
  ``fly_missions``, ``fighter_sweep``, ``intercept``, ``ground_support``, ``interdiction``,
  ``airbase_attack``, ``airbase_repair``, ``strategic_bombing`` (EUR-23..28, EUR-37 payment);
* ``europa/reinforcements/orders``: ``place_reinforcement`` (EUR-22);
* ``europa/surprise/orders``: the rule-47 plan (``designate_surprise``, ``reduce_surprise``,
  ``move_surprise_centre``, ``delay_surprise``, ``start_surprise``), ``start_invasion_surprise``
  (SUR-25), ``airbase_surprise`` (SUR-22..24), ``bonus_air_recovery`` and
  ``bonus_supply_judgement`` (SUR-21).

After every command the system's ``after_command`` rule
(:func:`grognard.europa.air.displacement.after_command`, the EUR-23 reading) displaces the air
units of an airbase an enemy ground unit now stands in (event ``air_units_displaced``).

Commands and events are documented in ``docs/formats/europa_engine.md``, each command's
arguments and who supplies them in ``docs/formats/europa_orders.md``. The referee hooks
(:mod:`grognard.europa.play.referee`): who owes which decision, the prompts, the end of the
game; the ``odds`` hook is the attack Order's.
"""

from __future__ import annotations

from typing import Any

from grognard.core.exact import exact_json
from grognard.engine import generic
from grognard.engine.events import Event
from grognard.engine.orders import commands_of, folds_of
from grognard.engine.phases import TurnSequence
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON
from grognard.engine.system import (
    RuleSystem,
    describe_of,
    event_words_of,
    places_of,
    register_system,
)
from grognard.engine.views import hide_secrets
from grognard.europa import ledger as europa_ledger
from grognard.europa import scenario_schema, victory
from grognard.europa import words as _words  # issue 26: orders in words
from grognard.europa.air import displacement
from grognard.europa.air.commands import air_decisions
from grognard.europa.air.orders.air_mission import AIR_MISSION
from grognard.europa.air.orders.air_transfer import AIR_TRANSFER
from grognard.europa.air.orders.airbase_attack import AIRBASE_ATTACK
from grognard.europa.air.orders.airbase_repair import AIRBASE_REPAIR
from grognard.europa.air.orders.airfield_strike import AIRFIELD_STRIKE
from grognard.europa.air.orders.fighter_sweep import FIGHTER_SWEEP
from grognard.europa.air.orders.fly_missions import FLY_MISSIONS
from grognard.europa.air.orders.ground_support import GROUND_SUPPORT
from grognard.europa.air.orders.intercept import INTERCEPT
from grognard.europa.air.orders.interdiction import INTERDICTION
from grognard.europa.air.orders.strategic_bombing import STRATEGIC_BOMBING
from grognard.europa.board import (
    NAME,
    turn_label,
)
from grognard.europa.combat.orders.advance import ADVANCE
from grognard.europa.combat.orders.allocate_losses import ALLOCATE_LOSSES
from grognard.europa.combat.orders.attack import ATTACK, estimate, odds
from grognard.europa.combat.orders.overrun import OVERRUN
from grognard.europa.combat.orders.retreat import RETREAT
from grognard.europa.logistics import FOLDS as LOGISTICS_FOLDS
from grognard.europa.logistics import initial_logistics
from grognard.europa.order import EuropaOrder, no_legal
from grognard.europa.play.orders.end_phase import END_PHASE
from grognard.europa.play.orders.move import MOVE
from grognard.europa.play.referee import decisions, game_over, phase_prompt
from grognard.europa.play.turn import initial_replacements, revised_sequence
from grognard.europa.reinforcements.orders.place_reinforcement import PLACE_REINFORCEMENT
from grognard.europa.reinforcements.schedule import initial_reinforcements
from grognard.europa.state_types import EuropaState
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
def initial_state(scenario: Scenario) -> EuropaState:
    """The generic state plus what Europa combat needs per unit, and the combat/surprise slots
    (declared in europa/state_types.py)."""
    s: EuropaState = generic.initial_state(scenario)
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
    arriving = initial_reinforcements(scenario)
    if arriving is not None:  # EUR-22: the public reinforcement schedule, units not yet placed
        s["reinforcements"] = arriving
    return s


#: What the other side learns when a surprise starts (SUR-12: the front and level are public;
#: the plan's orders, sources, ledger and the candidates stay the planner's).
_STARTED_PUBLIC = ("player", "command", "op", "public", "effects", "turn_record")


def event_view(ev: Event, player: str, state: EuropaState) -> dict[str, Any] | None:
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


def view(state: EuropaState, player: str) -> JSON:
    """C-HIDDEN The engine's view: other players' plans (in ``secrets``) are removed; a started
    surprise is public in ``state["surprise"]`` (centre, level, kind and the marked front)."""
    return hide_secrets(state, player)


view.secrets_only = True  # type: ignore[attr-defined]  # exactly hide_secrets: bots share it


def default_sequence(scenario: Scenario) -> TurnSequence:
    """EUR-22 The revised player turn of ``europa.sequence`` for each side (with the air,
    overrun, supply, isolation and replacement commands); EUR-44 surprise phases first for a
    FitE scenario (``[europa] fite_surprise_turn = true``)."""
    return revised_sequence(scenario)


#: The system's Orders (issue 22): one per command kind, each in the rule package beside the
#: rule it drives, listed once and in this order (game legal, random play).
ORDERS: tuple[EuropaOrder[Any], ...] = (
    MOVE, END_PHASE, OVERRUN, SUPPLY_CHECK, ISOLATION_ATTRITION, ALLOCATE_ISOLATION_LOSSES,
    START_INVASION_SURPRISE, TAKE_REPLACEMENT,
    AIR_MISSION, AIR_TRANSFER, FLY_MISSIONS, FIGHTER_SWEEP, INTERCEPT, GROUND_SUPPORT,
    INTERDICTION, AIRBASE_ATTACK, AIRBASE_REPAIR, STRATEGIC_BOMBING, AIRFIELD_STRIKE,
    ATTACK, ALLOCATE_LOSSES, RETREAT, ADVANCE,
    DESIGNATE_SURPRISE, REDUCE_SURPRISE, MOVE_SURPRISE_CENTRE, DELAY_SURPRISE, START_SURPRISE,
    AIRBASE_SURPRISE, BONUS_AIR_RECOVERY, BONUS_SUPPLY_JUDGEMENT, PLACE_REINFORCEMENT,
)

#: The engine's table roll (a designer's tool; not enumerated for random play).
_ROLL_TABLE = generic.GENERIC.commands["roll_table"].with_legal(no_legal)
#: Events no Order emits alone: the generic table roll and phase change, and the FitE
#: logistics postings (sp_paid, zone_entered, supply_received, special_expired) that moves,
#: attacks, advances, air missions and phase changes carry; and the air units displaced from
#: an airbase the enemy enters (EUR-23 reading), which the system adds after any command.
_SHARED_FOLDS = {"table_rolled": generic.GENERIC.folds["table_rolled"],
                 "phase_ended": generic.GENERIC.folds["phase_ended"], **LOGISTICS_FOLDS,
                 displacement.EVENT: displacement.fold_displaced}
#: Every event's fold (the Orders' and the shared ones).
FOLDS = folds_of(ORDERS, _SHARED_FOLDS)




EUROPA = RuleSystem(
    name=NAME,
    commands={"roll_table": _ROLL_TABLE, **commands_of(ORDERS)},
    folds=FOLDS,
    describe=describe_of(ORDERS, {"roll_table": _words.roll_table}),
    places=places_of(ORDERS),
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
    after_command=displacement.after_command(FOLDS),  # EUR-23 reading: air units displaced
    phase_prompt=phase_prompt,
    turn_label=turn_label,
    reveal_events=frozenset({"surprise_started"}),
    event_view=event_view,
    odds=odds,
    estimate=estimate,
    scenario_section=scenario_schema.SECTION,
    ledger=europa_ledger.ledger,
    event_words=event_words_of({**europa_ledger.WORDS, displacement.EVENT: displacement.words}),
)
register_system(EUROPA)
