"""``murmansk_commit`` (TR-20): Germany's decision - the air, fleet and U-boat factors it
sends to the Murmansk box (TR-20: air fleets and fleets based in Norway, U-boats from its SW
box; engine bound: no more air or fleet factors than Germany has on the map). SUMMER1
timing: the U-boats go in face down before the Allies escort; SPRING: face up, after the
Allied escorts, and the box combat (TR-21) follows at once.

Events ``murmansk_committed`` ``{side, year, german}`` and, in the Spring timing,
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
from grognard.third_reich.board import powers_of_side
from grognard.third_reich.economy.readings import MurmanskTiming
from grognard.third_reich.state_types import MurmanskCommitted, TRState
from grognard.third_reich.strategic import murmansk
from grognard.third_reich.strategic.murmansk_box import (
    available_german,
    available_subs,
    box_of,
    box_year,
    fold_murmansk_resolved,
    public_box,
    resolve_box,
    verify_owed,
)


class MurmanskCommitArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The factors Germany sends: ``air`` and ``naval`` (at most what it has on the map),
    ``subs`` (from its SW box)."""

    air: int = 0
    naval: int = 0
    subs: int = 0


def german_assets(args: MurmanskCommitArgs) -> murmansk.GermanAssets:
    """The order's factors as the box's :class:`GermanAssets` (each a count >= 0)."""
    return murmansk.GermanAssets(air=args.air, naval=args.naval, subs=args.subs)


def fold_murmansk_committed(state: TRState, ev: Event) -> TRState:
    """TR-20: SUMMER1: the U-boats go in inverted (the count is Germany's secret, the public box
    shows only that some are there); SPRING: face up."""
    d = cast(MurmanskCommitted, ev.data)
    g = murmansk.GermanAssets(**d["german"])
    box = murmansk.commit_german(box_of(state), g)
    state["murmansk"] = public_box(box, box_year(state))
    if box.timing is MurmanskTiming.SUMMER1:
        state["secrets"].setdefault(d["side"], {})["murmansk"] = g.to_json()
    return state


class MurmanskCommit(Order[MurmanskCommitArgs]):
    """TR-20 Germany commits to the Murmansk box (U-boats hidden)."""

    kind = "murmansk_commit"
    rule = "TR-20"
    Args = MurmanskCommitArgs
    help = "TR-20 Germany commits to the Murmansk box (U-boats hidden)."
    example: ClassVar[Mapping[str, object]] = {"subs": 6}
    folds: ClassVar[Mapping[str, Fold]] = {"murmansk_committed": fold_murmansk_committed,
                                           "murmansk_resolved": fold_murmansk_resolved}

    def verify(self, ctx: Context, state: TRState, cmd: Command,
               args: MurmanskCommitArgs) -> None:
        if "germany" not in powers_of_side(state, cmd.player):
            raise IllegalOrder("TR-20", "only Germany commits to the Murmansk box")
        g = german_assets(args)
        box = box_of(state)
        if box.german is not None:
            raise IllegalOrder("TR-20", "Germany has already committed to the box")
        verify_owed(ctx, state, cmd)
        murmansk.commit_german(box, g)
        if g.subs > (have := available_subs(state)):
            raise IllegalOrder("TR-20", f"{g.subs} U-boat factors sent but only {have} may go "
                               "(Germany's SW box; in the Spring timing none that fought a "
                               "round this turn)")
        for kind, what in (("air", "air"), ("naval", "fleet")):
            sent = getattr(g, kind)
            if sent > (have := available_german(state, kind)):
                raise IllegalOrder("TR-20", f"{sent} {what} factors sent but Germany has "
                                   f"{have} on the map")

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: MurmanskCommitArgs,
                dice: Dice) -> list[Event]:
        g = german_assets(args)
        evs = [Event("murmansk_committed", {"side": cmd.player, "year": box_year(state),
                                            "german": g.to_json()})]
        box = box_of(state)
        if box.allied is not None:  # SPRING: the Allies are in, the combat follows at once
            evs.append(resolve_box(ctx, state, murmansk.commit_german(box, g), dice,
                                   cmd.player))
        return evs

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        """TR-20: none, half or all the U-boats; no air or up to 5 air factors; no fleet or up
        to 9 fleet factors (never more than Germany has)."""
        n = available_subs(state)
        air = sorted({0, min(5, available_german(state, "air"))})
        naval = sorted({0, min(9, available_german(state, "naval"))})
        for subs, a, f in itertools.product(sorted({0, n // 2, n}), air, naval):
            yield Command(self.kind, player, {"subs": subs, "air": a, "naval": f})

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        parts = [plural(int(cmd.args.get(x) or 0), w) for x, w in
                 (("air", "air factor"), ("naval", "naval factor"), ("subs", "U-boat factor"))]
        return Words(f"Commit to the Murmansk box: {and_list(parts)}", f"commit {', '.join(parts)}")


__all__ = ["MurmanskCommit", "MurmanskCommitArgs", "fold_murmansk_committed"]
