"""``murmansk_escort`` (TR-20/TR-21): the Allies' decision - the fleet and ASW factors
escorting the convoy (fleets from England or the US, no air fleets; engine bound: no more
fleet factors than the UK and US have on the map, no more ASW than their SW boxes hold).
SPRING timing: face down, before Germany commits; SUMMER1: after seeing the German
assignments, and the box combat (TR-21) follows at once.

Events ``murmansk_escorted`` ``{side, year, allied}`` and, in the Summer I timing,
``murmansk_resolved`` (docs/formats/tr_engine.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order, Words, and_list, plural
from grognard.third_reich.economy.readings import MurmanskTiming
from grognard.third_reich.state_types import MurmanskEscorted, TRState
from grognard.third_reich.strategic import murmansk
from grognard.third_reich.strategic.murmansk_box import (
    available_asw,
    available_escort,
    box_of,
    box_year,
    fold_murmansk_resolved,
    german_side,
    public_box,
    resolve_box,
    verify_owed,
)


class MurmanskEscortArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The escort: ``naval`` fleet factors (at most the UK's and US's on the map), ``asw``
    (from their SW boxes)."""

    naval: int = 0
    asw: int = 0


def fold_murmansk_escorted(state: TRState, ev: Event) -> TRState:
    """TR-20: SPRING: the escorts go in face down (the counts are the Allies' secret);
    SUMMER1: openly, after seeing the German assignments."""
    d = cast(MurmanskEscorted, ev.data)
    a = murmansk.AlliedAssets(**d["allied"])
    box = murmansk.commit_allied(box_of(state), a)
    state["murmansk"] = public_box(box, box_year(state))
    if box.timing is MurmanskTiming.SPRING:
        state["secrets"].setdefault(d["side"], {})["murmansk"] = a.to_json()
    return state


class MurmanskEscort(Order[MurmanskEscortArgs]):
    """TR-20/TR-21 The Allies commit escorts; the box combat follows (1D10s from
    third_reich.murmansk)."""

    kind = "murmansk_escort"
    rule = "TR-20"
    Args = MurmanskEscortArgs
    help = ("TR-20/TR-21 The Allies commit escorts; the box combat follows (1D10s from "
            "third_reich.murmansk).")
    example: ClassVar[Mapping[str, object]] = {"naval": 9, "asw": 2}
    folds: ClassVar[Mapping[str, Fold]] = {"murmansk_escorted": fold_murmansk_escorted,
                                           "murmansk_resolved": fold_murmansk_resolved}

    def verify(self, ctx: Context, state: TRState, cmd: Command,
               args: MurmanskEscortArgs) -> None:
        if german_side(state) == cmd.player:
            raise IllegalOrder("TR-20", "the Allies commit the convoy escorts")
        a = murmansk.AlliedAssets(naval=args.naval, asw=args.asw)
        box = box_of(state)
        if box.result is not None:
            raise IllegalOrder("TR-21", "the box has already been resolved this year")
        if not box.shipments:
            raise IllegalOrder("TR-20", "no lend-lease counters in the box to escort")
        murmansk.commit_allied(box, a)
        verify_owed(ctx, state, cmd)
        if a.asw > (have := available_asw(state)):
            raise IllegalOrder("TR-20", f"{a.asw} ASW factors sent but the UK and US SW boxes "
                               f"hold {have}")
        if a.naval > (have := available_escort(state)):
            raise IllegalOrder("TR-20", f"{a.naval} fleet factors sent but the UK and US have "
                               f"{have} on the map")

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: MurmanskEscortArgs,
                dice: Dice) -> list[Event]:
        a = murmansk.AlliedAssets(naval=args.naval, asw=args.asw)
        evs = [Event("murmansk_escorted", {"side": cmd.player, "year": box_year(state),
                                           "allied": a.to_json()})]
        box = box_of(state)
        if box.german is not None:  # SUMMER1: Germany is in, the combat follows at once
            evs.append(resolve_box(ctx, state, murmansk.commit_allied(box, a), dice,
                                   cmd.player))
        return evs

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        """TR-20: no escort, one or two fleets' worth (never more than the UK and US have),
        with none, half or all the ASW."""
        n = available_asw(state)
        have = available_escort(state)
        for naval, asw in itertools.product(sorted({0, min(9, have), min(18, have)}),
                                            sorted({0, n // 2, n})):
            yield Command(self.kind, player, {"naval": naval, "asw": asw})

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        parts = [plural(int(cmd.args.get(x) or 0), w) for x, w in
                 (("naval", "naval factor"), ("asw", "ASW factor"))]
        return Words(f"Escort the Murmansk convoy: {and_list(parts)}", f"escort {', '.join(parts)}")


__all__ = ["MurmanskEscort", "MurmanskEscortArgs", "fold_murmansk_escorted"]
