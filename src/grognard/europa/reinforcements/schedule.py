"""EUR-22 (Revised Sequence of Play: "Reinforcements, withdrawals, and unit upgrades happen in the
initial phase as in the initial sequence of play") - the reinforcement schedule and where an
arriving unit may be placed.

The Europa core rules ("as in the original") are not among our texts, so this is a generic,
documented mechanism (docs/formats/europa_engine.md "Reinforcements"):

* A scenario lists its arrivals in ``[[europa.reinforcements]]`` (turn, side, unit records
  without a hex, and the hexes they may enter at; none given: the named rule "cities").
* The schedule is public: the state keeps every unit not yet placed under
  ``state["reinforcements"]`` (``{unit: {"due": turn, "side": side, "unit": record}}``), which
  both sides see.
* In its INITIAL phase of a turn on or after a unit's due turn, its owner places it
  (``place_reinforcement {unit, hex}``) on an allowed hex: not occupied by the enemy, not in
  an enemy ZOC, within stacking (EUR-21).
* An arrival not placed when its owner ends the initial phase (no allowed hex free, or the
  player chose not to) is delayed, not lost: it is due again in the next turn's initial phase
  (event ``reinforcements_delayed``).
* The rule "cities": any city hex or supply-source hex of the side's own countries (the
  ``[europa.victory] countries`` of the side, else the scenario's ``home_countries``; none
  named: any city) that the side controls - an objective hex the side holds
  (``state["held"]``), any other hex with no enemy unit in it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final, cast

import numpy as np

from grognard.core.errors import IllegalOrder
from grognard.core.exact import exact_json
from grognard.core.units import GROUND_TYPES, Unit
from grognard.core.zoc import europa_revised_zoc, zoc_field
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.scenario import Scenario
from grognard.europa.board import (
    europa_rules,
    forces_of,
    scenario_turn_label,
)
from grognard.europa.movement import added_stacking_refusal
from grognard.europa.scenario_schema import Arrival
from grognard.europa.state_types import (
    EuropaState,
    EuropaUnit,
    Reinforcement,
    ReinforcementPlaced,
    ReinforcementsDelayed,
)

RULE = "EUR-22"
#: The state key of the units not yet placed.
KEY: Final = "reinforcements"
#: The phase in which reinforcements arrive (EUR-22).
PHASE = "initial"
_GROUND = frozenset(str(t) for t in GROUND_TYPES)


def unit_record(unit: Unit, hex_: str | None = None) -> EuropaUnit:
    """A unit of the state as the Europa system keeps it (the generic fields and the combat
    fields of ``europa.play.system.initial_state``)."""
    return {"name": unit.name, "side": unit.side, "nationality": unit.nationality,
            "type": str(unit.type), "attack": unit.attack, "defense": unit.defense,
            "movement": unit.movement, "hex": hex_, "box": None, "mp_spent": 0,
            "hidden": False, "status": "active", "re_size": exact_json(unit.re_size),
            "divisional": unit.divisional, "cadre": unit.cadre, "armor": str(unit.armor),
            "zoc_class": unit.zoc_class, "supply": "in"}


def arrivals(scenario: Scenario) -> tuple[Arrival, ...]:
    """EUR-22 The scenario's reinforcement schedule (empty: none)."""
    return europa_rules(scenario).arrivals


def initial_reinforcements(scenario: Scenario) -> dict[str, Reinforcement] | None:
    """EUR-22 The schedule as the state keeps it (None for a scenario without one, so its
    states are unchanged)."""
    got = arrivals(scenario)
    if not got:
        return None
    return {a.unit.id: {"due": a.turn, "side": a.side, "unit": unit_record(a.unit)}
            for a in got}


def arrival(scenario: Scenario, uid: str) -> Arrival | None:
    """EUR-22 The schedule's entry of unit ``uid`` (None: not a reinforcement)."""
    return europa_rules(scenario).arrival_of.get(uid)


def _own_countries(scenario: Scenario, side: str) -> set[str] | None:
    v = europa_rules(scenario).section.victory
    named = (v.countries.get(side) if v is not None else None) or \
        scenario.home_countries.get(side)
    return set(named) if named else None


def rule_hexes(scenario: Scenario, side: str) -> tuple[str, ...]:
    """EUR-22 The rule "cities": the city and supply-source hexes of ``side``'s own countries
    (before control, ZOC and stacking are looked at)."""
    m = scenario.map
    own = _own_countries(scenario, side)
    out = [m.label(i) for i in sorted(m.cities)
           if own is None or m.country_names[int(m.country[i])] in own]
    out += [str(h) for h in europa_rules(scenario).section.supply_sources.get(side, [])]
    return tuple(dict.fromkeys(out))


def entry_hexes(scenario: Scenario, a: Arrival) -> tuple[str, ...]:
    """EUR-22 Where ``a`` may enter: its listed hexes, else the named rule's."""
    return a.hexes or rule_hexes(scenario, a.side)


def enemy_zoc(ctx: Context, state: EuropaState, side: str) -> set[str]:
    """The hexes in ``side``'s enemies' ZOC (EUR-17 revised ZOCs), once per position."""
    def make() -> set[str]:
        m = ctx.scenario.map
        z = zoc_field(m, forces_of(ctx, state), side, europa_revised_zoc())
        return {m.label(int(i)) for i in np.flatnonzero(z.mask())}
    got: set[str] = ctx.cached_for(state, f"europa.reinforcements.zoc.{side}", make)
    return got


def _occupants(state: EuropaState) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for u in state["units"].values():
        if u["status"] == "active" and u["hex"] is not None:
            out.setdefault(u["hex"], set()).add(u["side"])
    return out


def due(state: EuropaState, side: str) -> list[str]:
    """EUR-22 ``side``'s reinforcements due now (their turn reached, not yet placed)."""
    pending = state.get(KEY) or {}
    turn = int(state["turn"])
    return [uid for uid, r in sorted(pending.items())
            if r["side"] == side and int(r["due"]) <= turn]


def hex_refusal(ctx: Context, state: EuropaState, side: str, label: str, record: EuropaUnit
                ) -> IllegalOrder | None:
    """EUR-22 Why ``side`` may not place ``record`` on ``label`` now (None: it may): the hex
    is held by the enemy, the side does not control it, it is in an enemy ZOC, or the unit
    would put the hex over the stacking limit (EUR-21)."""
    return _closed(ctx, state, side, label) or _overstacked(ctx, state, side, label, record)


def _occupants_now(ctx: Context, state: EuropaState) -> dict[str, set[str]]:
    """:func:`_occupants` once per position (the lister asks it of every entry hex; read
    only)."""
    got: dict[str, set[str]] = ctx.cached_for(state, "europa.reinforcements.occupants",
                                              lambda: _occupants(state))
    return got


def _closed(ctx: Context, state: EuropaState, side: str, label: str) -> IllegalOrder | None:
    """Why no reinforcement of ``side`` may enter ``label`` now, whatever its size."""
    occ = _occupants_now(ctx, state).get(label, set())
    if occ - {side}:
        return IllegalOrder(RULE, f"{label} is occupied by the enemy")
    held = state.get("held") or {}
    if label in held and held[label] not in (None, side):
        return IllegalOrder(RULE, f"{label} is held by {held[label]}: a reinforcement "
                            "enters only where its side controls")
    if label in enemy_zoc(ctx, state, side):
        return IllegalOrder(RULE, f"{label} is in an enemy ZOC: a reinforcement may not "
                            "enter there")
    return None


def _overstacked(ctx: Context, state: EuropaState, side: str, label: str, record: EuropaUnit
                 ) -> IllegalOrder | None:
    """EUR-21 ``record`` would put ``label`` over the stacking limit (reading
    ``stacking_at_move_end``, as a move ending there)."""
    if record["type"] not in _GROUND:
        return None
    return added_stacking_refusal(ctx, state, side, label, Fraction(record["re_size"]))


def verify_place(ctx: Context, state: EuropaState, player: str, uid: str, label: str) -> None:
    """EUR-22 Raise :class:`IllegalOrder` unless ``player`` may place reinforcement ``uid`` on
    hex ``label`` now."""
    phase = ctx.turn_sequence.phases[int(state["phase"])]
    if phase.name != PHASE or phase.player != player:
        raise IllegalOrder(RULE, f"reinforcements are placed in their owner's initial phase, "
                           f"not the {phase.name.replace('_', ' ')} phase of {phase.player}")
    pending = state.get(KEY) or {}
    rec = pending.get(uid)
    if rec is None:
        placed = uid in state["units"] and arrival(ctx.scenario, uid) is not None
        raise IllegalOrder(RULE, f"{uid} has already been placed" if placed else
                           f"{uid} is not a reinforcement of this scenario")
    if rec["side"] != player:
        raise IllegalOrder(RULE, f"{uid} is a reinforcement of {rec['side']}, not {player}")
    turn = int(state["turn"])
    if int(rec["due"]) > turn:
        raise IllegalOrder(RULE, f"{uid} arrives on turn {rec['due']} "
                           f"({scenario_turn_label(ctx.scenario, int(rec['due']))}), not turn "
                           f"{turn} ({scenario_turn_label(ctx.scenario, turn)})")
    a = arrival(ctx.scenario, uid)
    allowed = entry_hexes(ctx.scenario, a) if a is not None else ()
    if label not in allowed:
        shown = ", ".join(allowed[:8]) + (" ..." if len(allowed) > 8 else "")
        raise IllegalOrder(RULE, f"{label} is not a hex {uid} may enter at (it enters at "
                           f"{shown or 'no hex'})")
    why = hex_refusal(ctx, state, player, label, rec["unit"])
    if why is not None:
        raise why


def placements(ctx: Context, state: EuropaState, player: str) -> list[tuple[str, str]]:
    """EUR-22 Every (unit, hex) ``player`` may place now (each passes :func:`verify_place`)."""
    phase = ctx.turn_sequence.phases[int(state["phase"])]
    if phase.name != PHASE or phase.player != player:
        return []
    pending = state.get(KEY) or {}
    closed: dict[str, bool] = {}
    out = []
    for uid in due(state, player):
        a = arrival(ctx.scenario, uid)
        if a is None:
            continue
        for label in entry_hexes(ctx.scenario, a):
            if label not in closed:
                closed[label] = _closed(ctx, state, player, label) is not None
            if not closed[label] and \
                    _overstacked(ctx, state, player, label, pending[uid]["unit"]) is None:
                out.append((uid, label))
    return out


def placed_event(ctx: Context, state: EuropaState, player: str, uid: str, label: str) -> Event:
    """EUR-22 The event of a placed reinforcement (EUR-21 named when it joins a stack)."""
    rec = state[KEY][uid]
    joins = any(u["hex"] == label and u["side"] == player and u["status"] == "active"
                for u in state["units"].values())
    return Event("reinforcement_placed", {
        "player": player, "unit": uid, "hex": label, "turn": int(state["turn"]),
        "due": int(rec["due"]), "rules": [RULE, *(["EUR-21"] if joins else [])]})


def fold_reinforcement_placed(state: EuropaState, ev: Event) -> EuropaState:
    d = cast(ReinforcementPlaced, ev.data)
    rec = state[KEY].pop(d["unit"])
    unit = rec["unit"].copy()
    unit["hex"] = d["hex"]
    state["units"][d["unit"]] = unit
    return state


def delay_events(ctx: Context, state: EuropaState) -> list[Event]:
    """EUR-22 Ending an initial phase: the phasing side's arrivals due and not placed are
    delayed to its next turn's initial phase (not lost)."""
    phase = ctx.turn_sequence.phases[int(state["phase"])]
    if phase.name != PHASE or not state.get(KEY):
        return []
    late = due(state, phase.player)
    if not late:
        return []
    turn = int(state["turn"])
    return [Event("reinforcements_delayed", {"player": phase.player, "units": late,
                                             "turn": turn, "to": turn + 1, "rules": [RULE]})]


def fold_reinforcements_delayed(state: EuropaState, ev: Event) -> EuropaState:
    d = cast(ReinforcementsDelayed, ev.data)
    for uid in d["units"]:
        state[KEY][uid]["due"] = int(d["to"])
    return state
