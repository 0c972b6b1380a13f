"""The rest of the Europa revised player turn for the ``europa`` engine system: overruns in the
movement phase (EUR-18..EUR-20), the supply phase (EUR-30), isolation attrition and Break Out
(EUR-31/EUR-32), the replacement phase (EUR-33) and the FitE surprise turn (EUR-44).

The supply, isolation and replacement commands are in :mod:`grognard.europa.supply.commands`.
The Orders that run them are in :mod:`grognard.europa.play.orders` and
:mod:`grognard.europa.combat.orders` (``overrun``).
Commands and events are documented in ``docs/formats/europa_engine.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import cast
from weakref import WeakKeyDictionary

import numpy as np

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.core.mapdata import MapData
from grognard.core.zoc import europa_revised_zoc, zoc_field
from grognard.engine import generic
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, named_unit, writes_units
from grognard.engine.phases import Phase, TurnSequence
from grognard.engine.scenario import Scenario
from grognard.europa.board import (
    SURPRISE_PREFIX,
    europa_rules,
    fite_surprise_turn,
    forces_of,
    on_map_hex,
)
from grognard.europa.fite import SURPRISE_TURN_PHASES, verify_surprise_turn_move
from grognard.europa.logistics import (
    fold_unfuelled,
    move_payment,
    paid_event,
    phase_change_events,
    zone_event,
)
from grognard.europa.movement import EuropaMove, check_move, joins_stack
from grognard.europa.play.sequence import AIR_COMMANDS, turn_sequence
from grognard.europa.reinforcements.schedule import arrivals, delay_events
from grognard.europa.state_types import EuropaState, UnitMoved
from grognard.europa.supply.commands import (
    ISOLATION_STREAM,
    initial_replacements,
    opening_supply_check,
)
from grognard.europa.surprise.turn import (
    BONUS_PHASES,
    bonus_phases_after_initial,
    marker_mp,
    phase_open,
    verify_surprise_move,
)

#: The rules a move in a rule-47 bonus phase applies (named in its ``unit_moved`` event).
SURPRISE_MOVE_RULES: Mapping[str, tuple[str, ...]] = {
    "bonus_movement": ("SUR-01", "SUR-17"), "reaction": ("SUR-18",)}

#: Commands the system adds to the revised phases (EUR-22 activities).
EXTRA_COMMANDS: Mapping[str, tuple[str, ...]] = {
    "movement": ("overrun", "allocate_losses", "retreat"),
    "exploitation": ("overrun", "allocate_losses", "retreat"),
    "supply": ("supply_check", "isolation_attrition", "allocate_isolation_losses"),
    "replacement": ("take_replacement",),
}


def engine_turn(sides: Sequence[str], reinforcements: bool = False) -> TurnSequence:
    """EUR-22 The phases the engine runs for ``sides`` and the command kinds it allows in each
    (the revised turn with the system's overruns, supply, isolation and replacement commands,
    ``place_reinforcement`` in the initial phase when the scenario has a reinforcement
    schedule, and the rule-47 bonus phases after each initial phase, SUR-01)."""
    extra = {k: list(v) for k, v in EXTRA_COMMANDS.items()}
    extra["initial"] = ["start_invasion_surprise",
                        *(["place_reinforcement"] if reinforcements else [])]
    # SUR-22: an airbase attacked in any non-initial phase of a surprise turn gets the roll
    extra["air"] = [*extra.get("air", []), "airbase_surprise"]
    return TurnSequence(bonus_phases_after_initial(turn_sequence(sides, extra).phases, sides))


def revised_sequence(scenario: Scenario) -> TurnSequence:
    """EUR-22 The revised turn (``europa.play.sequence.turn_sequence``) with the system's commands;
    for a FitE scenario (``[europa] fite_surprise_turn = true``) the EUR-44 surprise phases
    (movement, air, combat of the first side) come first; :func:`next_position` plays them on
    the first turn only."""
    seq = engine_turn(scenario.sides, reinforcements=bool(arrivals(scenario)))
    if not fite_surprise_turn(scenario):
        return seq
    normal = {p.name: p.commands for p in seq.phases if p.player == scenario.sides[0]}
    cmds = {"movement": frozenset({"move", "roll_table"}),
            "air": normal["air"] | {"airfield_strike"},  # EUR-45
            "combat": normal["combat"]}
    lead = tuple(Phase(SURPRISE_PREFIX + name, scenario.sides[0], cmds[name])
                 for name in SURPRISE_TURN_PHASES)
    return TurnSequence(lead + seq.phases)


def next_position(ctx: Context, phase: int, turn: int, state: EuropaState | None = None
                  ) -> tuple[int, int]:
    """EUR-44 After the surprise combat phase play goes on with the normal first player turn of
    the same game turn; later turns skip the surprise phases. SUR-01: the bonus phases are
    played only in the turn of a started surprise (``surprise_turn.phase_open``)."""
    seq = ctx.turn_sequence
    nxt, nturn = phase, turn
    for _ in range(len(seq.phases) + 1):
        before = nturn
        nxt, nturn = seq.next_position(nxt, nturn)
        if nturn != before and fite_surprise_turn(ctx.scenario):
            nxt = len(SURPRISE_TURN_PHASES)
        if state is None or phase_open(state, seq.phases[nxt], nturn):
            break
    return nxt, nturn


def execute_end_phase(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    """The next phase (EUR-22: ending an initial phase delays the arrivals not placed to the
    next turn); with FitE logistics the special SPs expire after the surprise phases
    (EUR-39) and a side receives its SPs as its initial phase opens (EUR-38/40/41); a supply
    phase opens with the engine's supply check (EUR-30)."""
    phase, turn = next_position(ctx, state["phase"], state["turn"], state)
    return [*delay_events(ctx, state),  # EUR-22: arrivals not placed wait a turn
            Event("phase_ended", {"from": {"turn": state["turn"], "phase": state["phase"]},
                                  "to": {"turn": turn, "phase": phase}}),
            *phase_change_events(ctx, state, phase, turn),
            *opening_supply_check(ctx, state, phase, turn)]


def _phase_name(ctx: Context, state: EuropaState) -> str:
    return ctx.turn_sequence.phases[int(state["phase"])].name


# --- move (with the EUR-44 surprise-turn restriction) ------------------------------------------
def surprise_geometry(ctx: Context, state: EuropaState, player: str
                      ) -> tuple[set[str], set[str], set[str]]:
    """EUR-44 Soviet territory, the hexes bordering it and ``player``'s enemies' ZOC, once
    per position."""
    out: tuple[set[str], set[str], set[str]] = ctx.cached(
        f"europa.fite_geometry.{player}", lambda: _geometry(ctx, state, player))
    return out


_TERRITORY: WeakKeyDictionary[MapData, dict[tuple[str, ...], tuple[set[str], set[str]]]] = \
    WeakKeyDictionary()


def _territory(m: MapData, names: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """Soviet territory (hexes of the named countries) and the hexes bordering it, per map."""
    per_map = _TERRITORY.setdefault(m, {})
    if names not in per_map:
        codes = [m.country_names.index(n) for n in names if n in m.country_names]
        ids = np.flatnonzero(np.isin(m.country, codes)).tolist()
        soviet = {m.label(i) for i in ids}
        border = {m.label(int(j)) for i in ids for j in m.neighbor_indices(i)
                  if m.label(int(j)) not in soviet}
        per_map[names] = (soviet, border)
    return per_map[names]


def _geometry(ctx: Context, state: EuropaState, player: str) -> tuple[set[str], set[str], set[str]]:
    m = ctx.scenario.map
    names = tuple(europa_rules(ctx.scenario).section.soviet_countries)
    soviet, border = _territory(m, names)
    zoc = zoc_field(m, forces_of(ctx, state), player, europa_revised_zoc())
    enemy_zoc = {m.label(int(i)) for i in np.flatnonzero(zoc.mask())}
    return soviet, border, enemy_zoc


def verify_move(ctx: Context, state: EuropaState, cmd: Command) -> None:
    """The generic move under EUR-17's ZOC costs; refused while an overrun waits for its losses and retreats; on the
    FitE surprise turn only EUR-44's one hex across the border."""
    if state.get("overrun", {}).get("pending") is not None:
        raise IllegalOrder("EUR-18", "finish the overrun (losses, retreats) before moving")
    mv = _europa_move(ctx, state, cmd)
    path = mv.path
    move_payment(ctx, state, str(cmd.args["unit"]), mv.mp)  # EUR-37: paid, or unfuelled
    phase = ctx.turn_sequence.phases[int(state["phase"])]
    if phase.name in BONUS_PHASES or state["units"][cmd.args["unit"]].get("mp_markers"):
        verify_surprise_move(ctx, state, cmd, phase, path)
    if _phase_name(ctx, state).startswith(SURPRISE_PREFIX):
        soviet, border, zoc = surprise_geometry(ctx, state, cmd.player)
        start = on_map_hex(state["units"][cmd.args["unit"]])
        verify_surprise_turn_move([start, *path], soviet, border, zoc)


def _europa_move(ctx: Context, state: EuropaState, cmd: Command) -> EuropaMove:
    """:func:`_checked_move` once per position and command (verify and execute share it)."""
    key = f"europa.move.{id(cmd)}"
    hit = ctx.cache.get(key)
    if hit is not None and hit[0] is cmd and hit[1] is state:
        kept: EuropaMove = hit[2]
        return kept
    mv = _checked_move(ctx, state, cmd)
    ctx.cache[key] = (cmd, state, mv)  # holds ``cmd``: its id is not reused while kept
    return mv


def _checked_move(ctx: Context, state: EuropaState, cmd: Command) -> EuropaMove:
    """The move under EUR-17's ZOC costs (:mod:`grognard.europa.movement`). An explicit
    ``path`` first passes the generic checks (its hexes, the terrain, its cost); a move ``to``
    a hex needs only the unit's (EUR-17's own search finds the path; the generic search runs
    only on a refusal, so one out of reach at terrain costs alone is refused as before)."""
    path = cmd.args.get("path")
    if path is None and isinstance(cmd.args.get("to"), str):
        generic.mover(state, cmd)
        try:
            return check_move(ctx, state, cmd, None)
        except IllegalOrder:
            generic.verify_move(ctx, state, cmd)  # out of reach even at terrain costs: MOVE
            raise
    generic.verify_move(ctx, state, cmd)
    return check_move(ctx, state, cmd, [str(h) for h in generic.move_path(ctx, state, cmd)])


def execute_move(ctx: Context, state: EuropaState, cmd: Command, dice: Dice) -> list[Event]:
    """The move under EUR-17 (its event names EUR-17 when an enemy ZOC took part); in the
    exploitation phase the event says so (EUR-33: a unit that moved in the exploitation
    phase takes no replacements this turn)."""
    uid = str(cmd.args["unit"])
    mv = _europa_move(ctx, state, cmd)
    events = [Event("unit_moved", mv.event_data(uid, on_map_hex(state["units"][uid])))]
    extra = marker_mp(state, uid, len(mv.path))
    side = str(state["units"][uid]["side"])
    rules = [*(["EUR-17"] if mv.zoc else []),
             *(["EUR-21"] if joins_stack(ctx, state, side, mv.path[-1], [uid]) else []),
             *SURPRISE_MOVE_RULES.get(_phase_name(ctx, state), ())]
    if state["units"][cmd.args["unit"]].get("mp_markers"):
        # SUR-16: the markers' MPs are paid on this move and the markers removed
        events = [Event(e.type, {**e.data, "mp": e.data["mp"] + extra, "marker_mp": extra})
                  for e in events]
        rules.append("SUR-16")
    pay = move_payment(ctx, state, uid, mv.mp)
    if pay.unfuelled:  # EUR-37: moved on no SPs - half its MA, no attack this turn
        events = [Event(e.type, {**e.data, "unfuelled": True}) for e in events]
        rules.append("EUR-37")
    if rules:
        events = [Event(e.type, {**e.data, "rules": rules}) for e in events]
    if _phase_name(ctx, state) == "exploitation":
        events = [Event(e.type, {**e.data, "exploitation": True}) for e in events]
    if pay.paid is not None:
        events.append(paid_event(pay.paid))
    zone = zone_event(ctx, state, side, [mv.path[-1]],
                      Fraction(pay.paid["sp"]) if pay.paid is not None else 0)
    return events if zone is None else [*events, zone]


@writes_units(named_unit)
def fold_unit_moved(state: EuropaState, ev: Event) -> EuropaState:
    s: EuropaState = generic.fold_unit_moved(state, ev)
    d = cast(UnitMoved, ev.data)
    if "marker_mp" in d:
        s["units"][d["unit"]]["mp_markers"] = 0
    st = s.get("surprise_turn")
    if d.get("rules") and isinstance(st, dict) and st.get("turn") == int(s["turn"]):
        # SUR-21: the units (HQs) that moved in the bonus phases recompute their supply range
        st["moved"] = sorted({*st.get("moved", []), d["unit"]})
    if d.get("exploitation"):
        s["units"][d["unit"]]["exploited_turn"] = int(s["turn"])
    if d.get("unfuelled"):
        fold_unfuelled(s, d["unit"])
    return s


__all__ = ["AIR_COMMANDS", "EXTRA_COMMANDS", "ISOLATION_STREAM",
           "fite_surprise_turn", "initial_replacements", "revised_sequence"]
