"""EuroFront as an engine rule system (``eurofront``): a block game under sequential activation.

Importing this module registers the :class:`~grognard.engine.system.RuleSystem` named
``eurofront``. A month is a series of EF-17/EF-18 Activation Phases
(:mod:`grognard.eurofront.activation`), played on the block game of
:mod:`grognard.eurofront.blocks` (fog of war, movement, supply), :mod:`.operations` (what an
activated HQ does, battles) and :mod:`.production` (month end). Each command kind is one
Order in :mod:`grognard.eurofront.orders` (its arguments, checks, events, folds, enumerator
and words beside each other); :data:`COMMANDS` and :data:`FOLDS` are built from that one list.
The default sequence:

====  ==========  =======  ====================================================
idx   phase       player   commands
====  ==========  =======  ====================================================
0     weather     axis     ``roll_weather`` (1D6 from stream ``eurofront.weather``)
1     chit        axis     ``place_chit`` {strength, count}: both players at once (decisions)
2     chit        allies   (the same; kept so older scenario files still load)
3     initiative  axis     ``roll_initiative`` (both 1D6 from ``eurofront.initiative``)
4     activate    axis     ``activate_hq`` {hq}, then the operation's commands
5     activate    allies   the same for the Allies
6     phase_end   axis     ``end_activation_phase`` (supply attrition, EF-17 stand-up)
7     production  axis     production commands: both players at once (decisions)
====  ==========  =======  ====================================================

The folds point ``state["phase"]`` at whoever acts next. Secret chits: each player's chit waits
in ``state["secrets"][player]`` (invisible in the other's view) until the second is placed; that
placement's event, ``chits_revealed``, reveals both (a reveal event: it clears undo). Battle
losses and retreats and production are decisions of the players they belong to.

Scenario: sides ``axis`` and ``allies``; blocks are units of type ``block``/``hq``
(:func:`grognard.eurofront.blocks.block_from_unit`). ``[calendar]``: ``month`` (first month,
"YYYY-MM"), ``last_month``, ``surprised`` (a side under surprise disruption, EF-03/EF-17),
``objectives`` (hex labels) and ``axis_objectives`` (how many the Axis must hold at the end),
``front`` (east/west/med, EF-08) and the EF-08/EF-05 flags. ``[readings]``: ``ef_rules``
(EF-01: the optional rules in play, default all), ``ef_*`` (:class:`EuroFrontReadings`),
``efg_*`` (:class:`~grognard.eurofront.blocks.BlockGameReadings`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from grognard.engine.commands import CommandSpec
from grognard.engine.context import Context
from grognard.engine.decisions import Decision
from grognard.engine.events import Event
from grognard.engine.orders import commands_of, folds_of
from grognard.engine.phases import Phase, TurnSequence
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON, copy_state
from grognard.engine.system import RuleSystem, register_system
from grognard.eurofront import determinize as ef_determinize
from grognard.eurofront import ledger as ef_ledger
from grognard.eurofront import orders, victory
from grognard.eurofront.activation import ACTIVATION_STEPS, Step, start_month
from grognard.eurofront.blocks import (
    BlockGameReadings,
    block_from_unit,
    fog,
    initial_control,
    is_block,
)
from grognard.eurofront.game_state import act_of, other, refresh, rules_of, side_of, store
from grognard.eurofront.model import Side, Turn
from grognard.eurofront.operations import distance, occ
from grognard.eurofront.orders import ORDERS
from grognard.eurofront.production import PRODUCTION_KINDS
from grognard.eurofront.readings import EuroFrontReadings, OptionalRule
from grognard.eurofront.state_types import Activation, Block, EFState
from grognard.eurofront.victory import game_over, label

NAME = "eurofront"
OPERATION_KINDS = ("activate_hq", "move", "rail_move", "para_move", "airpower_disruption",
                   "end_operation")

SEQUENCE_PHASES: tuple[dict[str, Any], ...] = (
    {"name": "weather", "player": "axis", "commands": ["roll_weather"]},
    {"name": "chit", "player": "axis", "commands": ["place_chit"]},
    {"name": "chit", "player": "allies", "commands": ["place_chit"]},
    {"name": "initiative", "player": "axis", "commands": ["roll_initiative"]},
    {"name": "activate", "player": "axis", "commands": list(OPERATION_KINDS)},
    {"name": "activate", "player": "allies", "commands": list(OPERATION_KINDS)},
    {"name": "phase_end", "player": "axis", "commands": ["end_activation_phase"]},
    {"name": "production", "player": "axis", "commands": sorted(PRODUCTION_KINDS)},
)


def default_sequence(scenario: Scenario) -> TurnSequence:
    return TurnSequence.from_json(SEQUENCE_PHASES)


def initial_state(scenario: Scenario) -> EFState:
    """The start state (declared in eurofront/state_types.py; described in game_state.py)."""
    cal = scenario.calendar
    month = Turn.parse(str(cal.get("month", "1941-06")), "calendar.month")
    surprised = cal.get("surprised")
    rules_of(scenario.readings)  # EF-01/EF-10: a bad or reserved rule name fails at the start
    EuroFrontReadings.from_mapping({k: v for k, v in scenario.readings.items()
                                    if k.startswith("ef_") and k != "ef_rules"})
    r = BlockGameReadings.from_mapping({k: v for k, v in scenario.readings.items()
                                        if k.startswith("efg_")})
    units: dict[str, Block] = {}
    for i, p in enumerate(scenario.placements):
        if not is_block(scenario, p.unit.id):
            continue
        u = block_from_unit(scenario, p.unit.id, f"units[{i}]")
        u["hex"] = p.hex
        units[p.unit.id] = u
    act = start_month(month, {}, None if surprised is None else side_of(str(surprised)))
    state: EFState = {
        "scenario": scenario.id, "system": NAME, "sides": list(scenario.sides), "turn": 1,
        "phase": 0, "secrets": {s.value: {} for s in Side},
        "activation": cast(Activation, {}),  # store (below) writes it
        "units": units, "destroyed": {"axis": {}, "allies": {}},
        "control": initial_control(scenario, units),
        "pp": {"axis": int(cal.get("axis_pp", 0)), "allies": int(cal.get("allies_pp", 0))},
        "operation": None, "battle": None, "battle_queue": [], "production": None,
        "hq_uses": {}, "apd": {"markers": {}, "hq_disrupted": []}, "uboats": [],
        "strategic_moves": {"axis": r.efg_strategic_moves, "allies": r.efg_strategic_moves},
        "air_superiority_lost": False,
        "config": {"hq_activations": r.efg_hq_activations},
    }
    out: EFState = store(state, act)
    return out


# --- weather, chits, initiative ----------------------------------------------------------------


# --- HQ activation ---------------------------------------------------------------------------


# --- the referee's hooks ------------------------------------------------------------------


def decisions(ctx: Context, state: EFState) -> Sequence[Decision]:
    """Who owes what now: both chits at once (EF-18), battle losses and retreats, production."""
    act = act_of(state)
    if act.step is Step.CHOOSE:
        return [Decision(s, frozenset({"place_chit"}),
                         f"{s.title()}: place your HQ Activation chit face down "
                         f"(Activation Phase {act.phase} of {label(act.month)})", "EF-18")
                for s in ("axis", "allies") if Side(s) not in act.chits]
    b = state["battle"]
    if b is not None and b["owed"] is not None:
        s, n = b["owed"]["side"], b["owed"]["hits"]
        return [Decision(s, frozenset({"take_loss"}),
                         f"{s.title()}: take {n} step loss{'es' if n != 1 else ''} in the "
                         f"battle in {b['hex']}", "EF-18")]
    if b is not None and b["retreat"] is not None:
        s = b["retreat"]
        return [Decision(s, frozenset({"retreat"}),
                         f"{s.title()}: retreat your blocks out of {b['hex']}", "EF-18")]
    p = state["production"]
    if p is not None:
        return [Decision(s, PRODUCTION_KINDS,
                         f"{s.title()}: production, {state['pp'][s]} PP to spend "
                         f"(build, rebuild, allocate) or end production", "PROD")
                for s in ("axis", "allies") if s not in p["done"]]
    return []


def turn_label(ctx: Context, state: EFState) -> str:
    """``"September 1941"``."""
    return label(Turn.parse(state["activation"]["month"]))


def phase_prompt(ctx: Context, state: EFState, phase: Phase) -> str:
    act = act_of(state)
    who = phase.player.title()
    where = f"Activation Phase {act.phase} of {label(act.month)}"
    op = state["operation"]
    if op is not None:
        return (f"{who}: HQ {op['hq']} is activated ({where}) - move blocks within "
                f"{op['range']} hexes of {op['hex']}, rail, paradrop or roll for Airpower "
                "Disruption, then end_operation (battles follow)")
    if act.step is Step.WEATHER:
        return f"{who}: roll the weather for {where}"
    if act.step is Step.REVEAL:
        return f"{who}: roll initiative for {where} (both chits are revealed)"
    if act.step is Step.PHASE_END:
        return f"{who}: end {where} (supply is tested)"
    if act.step in ACTIVATION_STEPS:
        chit = act.chits[Side(phase.player)]
        return (f"{who}: activate a {chit.strength}-strength HQ "
                f"({act.remaining.get(Side(phase.player), 0)} to go, {where})")
    return f"{who}: {phase.name} phase ({where})"


def face_up(u: JSON) -> JSON:
    """A block its viewer sees face up (its own, or an enemy's revealed in battle or while its
    HQ runs), with the counter values in the scenario's unit fields: ``attack`` its firepower,
    ``defense`` its steps now (its strength), ``movement`` its allowance, ``type`` its block
    type (``hq`` for an HQ)."""
    return {**u, "attack": u["fp"], "defense": u["steps"], "movement": u["mp"],
            "type": u["kind"]}


def view(state: EFState, player: str) -> JSON:
    """What ``player`` may see: its own blocks face up (:func:`face_up`: strength and steps),
    the opponent's face-down blocks only as "a block of side X in hex H" (no identity, type or
    steps), its chit until the reveal (EF-18), its destroyed blocks, HQ uses and rail-moved
    blocks only as counts."""
    v = copy_state({k: val for k, val in state.items() if k != "units"})
    v["units"] = {uid: face_up(u) if "fp" in u else u
                  for uid, u in copy_state(fog(state, player)).items()}
    v["secrets"] = {p: s for p, s in v["secrets"].items() if p == player}
    enemy = other(player) if player in ("axis", "allies") else None
    if enemy is not None:
        v["destroyed"][enemy] = {"count": len(state["destroyed"][enemy])}
        v["hq_uses"] = {h: n for h, n in v["hq_uses"].items()
                        if h in state["units"] and state["units"][h]["side"] == player}
        v["activation"]["rail_moved"] = {
            b: p for b, p in v["activation"]["rail_moved"].items()
            if b in state["units"] and state["units"][b]["side"] == player}

        def name(uid: str) -> str:
            u = state["units"].get(uid) or state["destroyed"][enemy].get(uid)
            if u is not None and u["side"] == enemy and u["hidden"]:
                return f"an HQ of {enemy}"
            return uid

        act = v["activation"]
        act["order"] = [[p, s, name(h)] for p, s, h in act["order"]]
        act["activated_this_phase"] = [name(h) for h in act["activated_this_phase"]]
        v["apd"]["hq_disrupted"] = [name(h) for h in v["apd"]["hq_disrupted"]]
        if isinstance(v.get("operation"), dict) and v["operation"].get("hq"):
            v["operation"]["hq"] = name(v["operation"]["hq"])
    v["viewer"] = player
    return v


def event_view(event: Event, player: str, state: EFState) -> dict[str, Any]:
    """An event as ``player`` may read it in the log (``state``: the position now): the other
    player's chit before the reveal is withheld; every other-side block that stands face down
    now is named only "<side> block N" (numbered within the event), and the other side's
    supply losses are left out (they would tell a face-down block's steps)."""
    d: Any = dict(event.data)
    t = event.type
    if t == "chit_placed" and d.get("side") != player:
        d = {"side": d["side"], "placed": True}
    if t == "activation_phase_ended":
        own = {b for b, u in state["units"].items() if u["side"] == player} | \
            set(state["destroyed"].get(player, {}))
        d["out_of_supply"] = {b: n for b, n in d["out_of_supply"].items() if b in own}
        d["face_down"] = [b for b in d["face_down"] if b in own]
    hidden = {uid: u["side"] for uid, u in state["units"].items()
              if u["hidden"] and u["side"] != player}
    names: dict[str, str] = {}

    def anon(x: Any) -> Any:
        if isinstance(x, str) and x in hidden:
            if x not in names:
                names[x] = f"{hidden[x]} block {len(names) + 1}"
            return names[x]
        if isinstance(x, dict):
            return {anon(k): anon(v) for k, v in sorted(x.items())}
        if isinstance(x, list):
            return [anon(v) for v in x]
        return x

    return {"type": t, "data": anon(d)}


COMMANDS: dict[str, CommandSpec] = commands_of(ORDERS)

FOLDS = folds_of(ORDERS)

EUROFRONT = RuleSystem(
    name=NAME,
    commands=COMMANDS,
    folds=FOLDS,
    initial_state=initial_state,
    view=view,
    description="EuroFront block game under sequential activation (EF-17/EF-18) with the "
                "optional rules EF-01..EF-18.",
    default_sequence=default_sequence,
    decisions=decisions,
    game_over=game_over,
    phase_prompt=phase_prompt,
    turn_label=turn_label,
    reveal_events=frozenset({"chits_revealed", "battle_started", "hq_activated"}),
    event_view=event_view,
    describe=orders.describe,
    places=orders.places,
    objectives=victory.objectives,
    standing=victory.standing,
    ledger=ef_ledger.ledger,
    determinize=ef_determinize.determinize,
)
register_system(EUROFRONT)

__all__ = ["COMMANDS", "EUROFRONT", "FOLDS", "OptionalRule", "distance", "event_view", "occ",
           "refresh"]
