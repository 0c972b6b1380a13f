"""Revised Third Reich as an engine rule system (``third_reich``): options drive the phases.

Importing this module registers the :class:`~grognard.engine.system.RuleSystem` named
``third_reich``. Its default sequence (:func:`default_sequence`) is, for each side in the
scenario's order (TR-01), the phases of :class:`~grognard.third_reich.turn.sequence.Phase` (the
Year Start phase only in the first side's turn). ``state["phase"]`` is a pointer the folds
advance: ``end_phase`` skips the phases the side's declared options do not use
(:func:`~grognard.third_reich.turn.sequence.player_turn`; the Year Start outside Spring), so the
engine's one-acting-player-per-phase check holds. ``state["turn"]`` is the campaign turn
(TR-04: turn 1 = Fall 1939); ``state["economy"]`` the BRP ledger
(:class:`~grognard.third_reich.economy.economy.Economy` JSON, exact values as strings).

Commands and events: docs/formats/tr_engine.md. Scenario extras (the ``[third_reich]`` table,
parsed once by the engine into ``Scenario.rules``, third_reich/scenario_schema.py): ``sides``
(power -> side), ``control`` (side -> countries it holds at the start), ``front_weather``
(front -> 3R weather region). Fronts are the map's ``region`` names
``western``/``eastern``/``southern`` (a hex of any other region is on the western front); weather
regions come from the map's ``weather_zone``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, cast

from grognard.engine import generic
from grognard.engine.commands import CommandSpec
from grognard.engine.events import Fold
from grognard.engine.orders import Order, commands_of, folds_of
from grognard.engine.phases import Phase as EnginePhase
from grognard.engine.phases import TurnSequence
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON
from grognard.engine.system import AfterEvent, RuleSystem, describe_of, places_of, register_system
from grognard.engine.views import hide_secrets
from grognard.third_reich import ledger as tr_ledger
from grognard.third_reich import scenario_schema
from grognard.third_reich.air_naval.orders.air_stage import AirStage
from grognard.third_reich.air_naval.orders.counter_air import CounterAir
from grognard.third_reich.air_naval.orders.intercept import Intercept
from grognard.third_reich.air_naval.orders.naval_transport import NavalTransport
from grognard.third_reich.board import (
    AXIS_POWERS,
    NAME,
    current_facts,
    unit_power,
)
from grognard.third_reich.board import forces_of_state as forces_of_state  # re-export
from grognard.third_reich.board import front_mask as front_mask  # re-export
from grognard.third_reich.board import ground_unit_of as ground_unit_of  # re-export
from grognard.third_reich.capture import OccupationRule
from grognard.third_reich.combat.odds import attack_odds
from grognard.third_reich.combat.orders.advance import Advance
from grognard.third_reich.combat.orders.airdrop import Airdrop
from grognard.third_reich.combat.orders.attack import Attack
from grognard.third_reich.combat.orders.attrition import Attrition
from grognard.third_reich.combat.orders.defensive_air import DefensiveAir
from grognard.third_reich.combat.orders.invade import Invade
from grognard.third_reich.combat.orders.land_losses import LandLosses
from grognard.third_reich.combat.orders.remove_losses import RemoveLosses
from grognard.third_reich.combat.orders.retreat import Retreat
from grognard.third_reich.combat.orders.save_attrition_losses import SaveAttritionLosses
from grognard.third_reich.combat.orders.take_hexes import TakeHexes
from grognard.third_reich.combat.orders.withdraw import Withdraw
from grognard.third_reich.conquest import diplomacy as dip
from grognard.third_reich.conquest.campaign_events import add_campaign_state, game_over, turn_label
from grognard.third_reich.conquest.orders.declare_war import DeclareWar
from grognard.third_reich.economy.economy import (
    at_turn,
    new_campaign,
)
from grognard.third_reich.economy.orders.build import Build
from grognard.third_reich.economy.orders.build_unit import BuildUnit
from grognard.third_reich.economy.orders.lend_lease import LendLease
from grognard.third_reich.economy.orders.open_iran_route import OpenIranRoute
from grognard.third_reich.economy.orders.year_start import YearStart
from grognard.third_reich.economy.readings import StrategicReadings
from grognard.third_reich.estimate import estimate
from grognard.third_reich.movement.orders.move import Move
from grognard.third_reich.movement.orders.sr import StrategicRedeployment
from grognard.third_reich.play import hooks
from grognard.third_reich.play.orders.end_phase import EndPhase, first_phase
from grognard.third_reich.play.referee import decisions, phase_prompt
from grognard.third_reich.reactions import ReactingOrder
from grognard.third_reich.scenario_schema import ThirdReichSection, third_reich_rules
from grognard.third_reich.state_types import EconomyJSON, TRState
from grognard.third_reich.strategic.murmansk_box import (
    murmansk_event_view,
)
from grognard.third_reich.strategic.orders.murmansk_commit import MurmanskCommit
from grognard.third_reich.strategic.orders.murmansk_escort import MurmanskEscort
from grognard.third_reich.strategic.orders.murmansk_ship import MurmanskShip
from grognard.third_reich.strategic.orders.sw_bombing import SwBombing
from grognard.third_reich.strategic.orders.sw_build import SwBuild
from grognard.third_reich.strategic.orders.sw_convert import SwConvert
from grognard.third_reich.strategic.orders.sw_uboats import SwUboats
from grognard.third_reich.strategic.sw_boxes import initial_sw_boxes, sw_year_start
from grognard.third_reich.strategic.sw_conversions import sw_conversions_owed
from grognard.third_reich.supply.orders.supply_check import SupplyCheck
from grognard.third_reich.supply.supply_map import (
    city_control,
)
from grognard.third_reich.turn.calendar import (
    date_of,
)
from grognard.third_reich.turn.orders.declare_options import DeclareOptions
from grognard.third_reich.turn.powers import Power
from grognard.third_reich.turn.sequence import Phase

#: Engine commands allowed in each 3R phase (``end_phase`` is always allowed).
PHASE_COMMANDS: Mapping[Phase, tuple[str, ...]] = {
    Phase.YEAR_START: ("year_start",),
    Phase.DECLARE_OPTIONS: ("declare_options", "declare_war", "lend_lease", "open_iran_route",
                            "murmansk_ship"),
    Phase.MOVEMENT: ("move", "air_stage", "airdrop", "naval_transport", "invade"),
    Phase.AIR_MISSIONS: ("counter_air",),
    Phase.INTERCEPTION: (),
    Phase.COMBAT: ("attack",),
    Phase.MECH_MOVEMENT: ("move",),
    Phase.MECH_COMBAT: ("attack",),
    Phase.ATTRITION: ("attrition", "remove_losses", "take_hexes", "withdraw",
                      "save_attrition_losses"),
    Phase.SUPPLY: ("supply_check",),
    Phase.BUILD: ("build", "build_unit", "sw_build"),
    Phase.STRATEGIC_DEPLOYMENT: ("sr",),
    # TR-20: murmansk_commit / murmansk_escort are owed as decisions (strategic/murmansk_box); the
    # strategic warfare rounds (strategic/sw_boxes) are commands of this phase
    Phase.STRATEGIC_WARFARE: ("sw_uboats", "sw_bombing"),
}


# --- scenario extras -----------------------------------------------------------------------


def _extras(scenario: Scenario) -> ThirdReichSection:
    """The scenario's typed ``[third_reich]`` (sides, control, front weather, SW boxes: checked
    against the scenario's sides when it was parsed)."""
    return third_reich_rules(scenario).section


def _power_sides(scenario: Scenario) -> dict[str, str]:
    sides = scenario.sides
    default = "allies" if "allies" in sides else sides[-1]
    out = {p.value: default for p in Power}
    for p in AXIS_POWERS:
        out[p] = "axis" if "axis" in sides else sides[0]
    if "ussr" in sides:
        out["ussr"] = "ussr"
    for pl in scenario.placements:
        out.setdefault(unit_power(pl.unit.nationality), pl.unit.side)
    out.update(_extras(scenario).sides)
    return out


def _country_sides(scenario: Scenario, power_sides: Mapping[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for power, countries in scenario.home_countries.items():
        for c in countries:
            out[c] = power_sides.get(power, scenario.sides[0])
    for side, held in _extras(scenario).control.items():
        for c in held:
            out[c] = side
    return out


def default_sequence(scenario: Scenario) -> TurnSequence:
    """TR-01/TR-02: every 3R phase for each side in turn order (Year Start: first side only)."""
    phases = []
    for k, side in enumerate(scenario.sides):
        for ph in Phase:
            if ph is Phase.YEAR_START and k > 0:
                continue
            phases.append(EnginePhase(ph.value, side, frozenset(PHASE_COMMANDS[ph])))
    return TurnSequence(tuple(phases))


# --- state ---------------------------------------------------------------------------------------


def strategic_readings(scenario: Scenario) -> StrategicReadings:
    """The scenario's ``[readings]`` that are strategic readings (``murmansk_timing`` ...): the
    economy keeps them, so folds and rules read the same values."""
    names = {f.name for f in dataclasses.fields(StrategicReadings)}
    return StrategicReadings.from_mapping({k: v for k, v in scenario.readings.items()
                                           if k in names})


def initial_state(scenario: Scenario) -> TRState:
    """The generic start state plus the 3R economy, calendar, sides, control and options
    (declared in third_reich/state_types.py)."""
    s: TRState = generic.initial_state(scenario)
    cal = scenario.calendar
    turn = int(cal.get("turn", 1))
    date_of(turn)
    ps = _power_sides(scenario)
    for u in s["units"].values():
        u["power"] = unit_power(u["nationality"])
    econ = at_turn(new_campaign(readings=strategic_readings(scenario)), turn)
    extras = _extras(scenario)
    s.update({
        "system": NAME,
        "turn": turn,
        "economy": cast(EconomyJSON, econ.to_json()),
        "power_sides": ps,
        "control": city_control(scenario.map, _country_sides(scenario, ps)),
        "front_weather": dict(extras.front_weather),
        "options": {},
        "options_powers": {},
        "built": {},
        "wars": [],
        "dow_minor_paid": {},
        "attacked": [],
        "attacked_hexes": [],
        "attrition_done": [],
        "pending_hexes": None,
        "pending_withdrawal": None,
        "pending_losses": None,
        "air_used": [],
        "moved": [],
        "air_landed": [],
        "fleet_ops": {},
        "sr": {},
        "fleets_used": [],
        "attrition_losses": [],
        "saved": {},
        "supply_checked": False,
        "battles": [],
        "bridgeheads": [],
        "murmansk": None,
        "sw_boxes": initial_sw_boxes(extras.sw_boxes.given()),
        "sw_fought": {},
    })
    seq = default_sequence(scenario) if not scenario.sequence_given else scenario.sequence
    s["phase"] = first_phase(seq, turn)
    s = add_campaign_state(scenario, s)
    s["diplomacy"] = dip.to_json(dip.from_scenario(scenario, ps))  # TR-25
    return s


def view(state: TRState, player: str) -> JSON:
    """C-HIDDEN: other players' secrets (the Murmansk U-boat count) and face-down units go."""
    return hide_secrets(state, player)


view.secrets_only = True  # type: ignore[attr-defined]  # exactly hide_secrets: bots share it


#: The rules run after every event's own fold, in order: city control and capture on
#: occupation (TR-22/TR-77/TR-12), the strategic-warfare side of the Year Start and of a
#: bomber round (TR-81: ASW in the box, units owed), then the ledger postings leave the state
#: (current facts).
AFTER_EVENTS: tuple[AfterEvent, ...] = (
    ("capture_on_occupation", OccupationRule(lambda: FOLDS, lambda: AFTER_EVENTS)),
                ("sw_year_start", sw_year_start),
                ("sw_conversions_owed", sw_conversions_owed),
                ("current_facts", current_facts))
#: The system's orders, one per command kind (each module: its args, verify, execute, folds,
#: enumerators and the reaction it owes).
ORDERS: tuple[Order[Any], ...] = (
    EndPhase(lambda: COMMANDS),
    YearStart(),
    DeclareOptions(),
    DeclareWar(),
    Build(),
    SupplyCheck(),
    Attack(),
    Retreat(),
    LandLosses(),
    Advance(),
    DefensiveAir(lambda: RAW),
    Intercept(lambda: RAW),
    Move(),
    AirStage(),
    CounterAir(),
    Attrition(),
    RemoveLosses(),
    TakeHexes(),
    Withdraw(),
    SaveAttritionLosses(),
    Airdrop(),
    NavalTransport(),
    Invade(),
    StrategicRedeployment(),
    MurmanskCommit(),
    MurmanskShip(),
    MurmanskEscort(),
    SwBuild(),
    SwUboats(),
    SwBombing(),
    SwConvert(),
    BuildUnit(),
    LendLease(),
    OpenIranRoute(),
)
#: The orders the defender answers, as its answer runs them (its units named).
RAW: Mapping[str, CommandSpec] = {
    o.kind: o.raw_spec() for o in ORDERS if isinstance(o, ReactingOrder)}
COMMANDS: Mapping[str, CommandSpec] = commands_of(ORDERS)
FOLDS: Mapping[str, Fold] = folds_of(ORDERS)


THIRD_REICH = RuleSystem(
    name=NAME,
    describe=describe_of(ORDERS),
    places=places_of(ORDERS),
    commands=COMMANDS,
    folds=FOLDS,
    initial_state=initial_state,
    view=view,
    description="Revised Third Reich: options per front drive the phases; BRP ledger; combat, "
                "attrition, supply and isolation on the map.",
    default_sequence=default_sequence,
    game_over=game_over,
    decisions=decisions,
    event_view=murmansk_event_view,
    phase_prompt=phase_prompt,
    turn_label=turn_label,
    after_events=AFTER_EVENTS,
    odds=attack_odds,
    estimate=estimate,
    scenario_section=scenario_schema.SECTION,
    ledger=tr_ledger.ledger,
    build_cost=hooks.build_cost,
    move_ranges=hooks.move_ranges,
    front_of=hooks.front_of,
    attacks_across=hooks.attacks_across,
)
register_system(THIRD_REICH)

__all__ = ["COMMANDS", "NAME", "THIRD_REICH", "default_sequence", "initial_state", "view"]
