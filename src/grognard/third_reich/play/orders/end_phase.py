"""``end_phase`` (TR-02): end the phase; the next one is the next phase the side's declared
options use in which its player has something to do (TR-02, issue 11), never past the game
turn. Ending a player turn closes it for the campaign (TR-22 conquests, TR-63 bridgeheads,
TR-44 neutralised air, TR-20 Murmansk receipts); ending a game turn runs its end (TR-26 Vichy,
surrenders, TR-24/TR-86 entries); after Summer I 1945 the campaign ends (TR-04).

Events: ``phase_ended`` (docs/formats/tr_engine.md), and the campaign's ``player_turn_closed``
(inside ``phase_ended``), ``minor_conquered``, ``ribbentrop_molotov``, ``vichy_formed``,
``major_surrendered``, ``minor_activated``, ``us_entered``, ``iran_delivered`` (TR-18),
``campaign_ended``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine import generic
from grognard.engine.commands import Command, CommandSpec
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold, writes_units
from grognard.engine.orders import NoArgs, Order, Words
from grognard.engine.phases import TurnSequence
from grognard.third_reich.arrivals import (
    fold_iran_delivered,
    fold_murmansk_receipt,
    murmansk_receipt,
)
from grognard.third_reich.board import (
    axis_side_of,
    bridgehead_removals,
    economy_of,
    phase_name,
    position_cached,
    sequence_of,
)
from grognard.third_reich.conquest.campaign import verdict
from grognard.third_reich.conquest.campaign_events import (
    CAMPAIGN_FOLDS,
    conquests,
    game_turn_end,
    new_turn,
    sudden_end,
)
from grognard.third_reich.economy.economy import at_turn
from grognard.third_reich.economy.year_start import verify_year_start
from grognard.third_reich.play.legal import idle_phase
from grognard.third_reich.state_types import EconomyJSON, PhaseEnded, TRState
from grognard.third_reich.turn.calendar import LAST_TURN, Region, Season, date_of, weather
from grognard.third_reich.turn.options import Front
from grognard.third_reich.turn.sequence import Phase, player_turn

Commands = Callable[[], Mapping[str, CommandSpec]]


def used_phases(state: TRState, side: str) -> frozenset[str]:
    """TR-02: the phases ``side`` plays this turn, from its declared options."""
    opts = tuple((f, v["option"]) for f, v in state["options"].get(side, {}).items())
    fronts = opts or tuple((f.value, "pass") for f in Front)
    regions = tuple(state["front_weather"].get(f, "europe") for f, _ in fronts)
    return _used_phases(fronts, regions, int(state["turn"]))


@functools.lru_cache(maxsize=256)
def _used_phases(fronts: tuple[tuple[str, str], ...], regions: tuple[str, ...], turn: int
                 ) -> frozenset[str]:
    """:func:`used_phases` of the (front, option) pairs, each front's weather region and the
    turn (a pure function of them: computed once per value)."""
    wx = {f: weather(Region(r), turn).value for (f, _), r in zip(fronts, regions, strict=True)}
    played = player_turn(dict(fronts), wx, date_of(turn).season).unified()
    return frozenset(p.value for p in played)


def first_phase(seq: TurnSequence, turn: int) -> int:
    """TR-01/TR-09: a game turn opens at the Year Start in Spring, else at the phase after."""
    spring = date_of(turn).season is Season.SPRING
    for i, p in enumerate(seq.phases):
        if p.name == Phase.YEAR_START.value and not spring:
            continue
        return i
    return 0  # pragma: no cover


def _next_used(ctx: Context, state: TRState, idx: int, turn: int) -> tuple[int, int]:
    seq = sequence_of(ctx)
    names = {p.value for p in Phase}
    while True:
        idx, turn = seq.next_position(idx, turn)
        phase = seq.phases[idx]
        if turn != state["turn"]:
            return first_phase(seq, turn), turn
        if phase.name == Phase.YEAR_START.value:
            continue
        if phase.name in used_phases(state, phase.player) or phase.name not in names:
            return idx, turn


def next_position(ctx: Context, state: TRState, commands: Mapping[str, CommandSpec]
                  ) -> tuple[int, int]:
    """TR-02: where ``end_phase`` leads - the next phase the side's options use in which its
    player has something to do besides ending it (issue 11: idle phases are passed over; never
    past the end of the game turn). Once per position."""
    def busy() -> tuple[int, int]:
        idx, turn = _next_used(ctx, state, int(state["phase"]), int(state["turn"]))
        while turn == state["turn"] and idle_phase(ctx, state, idx, commands):
            nxt = _next_used(ctx, state, idx, turn)
            if nxt[1] != turn:
                return nxt
            idx = nxt[0]
        return idx, turn

    return position_cached(ctx, state, "tr.next_position", busy)


@writes_units(fields=("mp_spent",))
def fold_phase_ended(state: TRState, ev: Event) -> TRState:
    """TR-02: the phase pointer moves; a new player turn clears the neutralised air (TR-44)
    and the unthreatened bridgeheads (TR-63); a new game turn clears the turn's marks and
    opens the economy's turn; the campaign's player-turn record (TR-22) is kept."""
    d = cast(PhaseEnded, ev.data)
    new_turn_ = d["to"]["turn"] != d["from"]["turn"]
    s: TRState = generic.fold_phase_ended(state, ev)
    s["attacked"], s["attacked_hexes"], s["moved"] = [], [], []
    if d.get("player_turn_ended"):
        s.pop("neutralized", None)
        s.pop("counter_air", None)
    gone = d.get("bridgeheads_removed", {})
    if gone:
        owners = {p: [h for h in hs if h not in gone.get(p, [])]
                  for p, hs in state["bridgehead_owners"].items()}
        s["bridgehead_owners"] = {p: hs for p, hs in owners.items() if hs}
        s["bridgeheads"] = sorted(h for hs in s["bridgehead_owners"].values() for h in hs)
    if new_turn_:
        econ = at_turn(economy_of(s), s["turn"])
        s["economy"] = cast(EconomyJSON, econ.to_json())
        s["options"], s["built"], s["attrition_done"] = {}, {}, []
        s["options_powers"] = {}
        s["pending_hexes"], s["supply_checked"] = None, False
        s["attrition_losses"], s["saved"] = [], {}
        s["air_used"], s["fleets_used"], s["sr"], s["air_landed"] = [], [], {}, []
        s["fleet_ops"] = {}
        s.pop("invaded", None)
        s.pop("invaded_hexes", None)
    elif d["from"]["phase"] != d["to"]["phase"]:
        s["supply_checked"] = False
    if d.get("murmansk_received"):
        fold_murmansk_receipt(s)
    closed = d.get("campaign")
    if closed is not None:
        s["campaign"]["held"] = closed["held"]
        s["campaign"]["player_turns"] = closed["player_turns"]
    return s


class EndPhase(Order[NoArgs]):
    """TR-02 End the phase (skips phases the options do not use)."""

    kind = "end_phase"
    rule = "TR-02"
    help = "TR-02 End the phase (skips phases the options do not use)."
    folds: ClassVar[Mapping[str, Fold]] = {"phase_ended": fold_phase_ended, **CAMPAIGN_FOLDS,
                                           "iran_delivered": fold_iran_delivered}

    def __init__(self, commands: Commands) -> None:
        #: The system's command table (the idle-phase scan asks each kind for a legal order).
        self.commands = commands

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: NoArgs) -> None:
        if phase_name(ctx, state) == Phase.YEAR_START.value:
            try:
                verify_year_start(economy_of(state))
            except IllegalOrder:
                pass  # done already
            else:
                raise IllegalOrder("TR-09", "run the Year Start before ending its phase")
        if state.get("pending_withdrawal"):
            raise IllegalOrder("TR-40", "the defender must withdraw from the hexes taken first")
        if state.get("pending_hexes"):
            raise IllegalOrder("TR-40", "name the hexes won by attrition first (take_hexes)")

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: NoArgs,
                dice: Dice) -> list[Event]:
        phase, turn = next_position(ctx, state, self.commands())
        seq = sequence_of(ctx)
        ending = seq.phases[int(state["phase"])].player
        if turn > LAST_TURN:  # TR-04: after Summer I 1945 the campaign ends
            extra = conquests(ctx, state, ending) if "campaign" in state else []
            # the last game turn's end is a game turn's end: Berlin held by the enemy still
            # makes Germany surrender (and London with Moscow wins for the Axis) before the
            # victory locations are counted
            sudden = sudden_end(state) if "campaign" in state else None
            return [*extra, sudden or Event("campaign_ended", verdict(state, axis_side_of(ctx)))]
        data: dict[str, Any] = {"from": {"turn": state["turn"], "phase": state["phase"]},
                                "to": {"turn": turn, "phase": phase}}
        to_player = seq.phases[phase].player
        new_player = turn != state["turn"] or to_player != ending
        if new_player and (state.get("neutralized") or state.get("counter_air")):
            data["player_turn_ended"] = True  # TR-44: neutralised air flips back
        removed = bridgehead_removals(ctx, state, to_player) if new_player else {}
        if removed:
            data["bridgeheads_removed"] = removed  # TR-63: unthreatened bridgeheads go
        received = murmansk_receipt(state, to_player, turn) if new_player else 0
        if received:
            data["murmansk_received"] = received  # TR-20: held Murmansk BRPs reach the USSR
        if "campaign" not in state:
            return [Event("phase_ended", data)]
        events: list[Event] = []
        if new_player:
            closed, *conquered = conquests(ctx, state, ending)
            data["campaign"] = closed.data  # folded with phase_ended (one event per end_phase)
            events += conquered
        events.insert(0, Event("phase_ended", data))
        if turn != state["turn"]:
            ended = game_turn_end(ctx, state, dice)
            events += ended
            if not any(e.type == "campaign_ended" for e in ended):  # TR-04: nothing after
                events += new_turn(ctx, state, turn)  # the end (no us_entered, TR-86)
        return events

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        return [Command(self.kind, player, {})]

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return Words(f"{cmd.player.title()}: end the phase", "End the phase")


__all__ = ["EndPhase", "first_phase", "fold_phase_ended", "next_position", "used_phases"]
