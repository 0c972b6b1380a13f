"""``remove_apd_marker`` {hex}: EF-14, the owning player removes its Airpower Disrupted marker.

"The owning player chooses to remove it": offered in the production phase, one marker per
order. (The month-end removal of EF-14 is the referee's, as the next month starts.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words
from grognard.engine.system import Places
from grognard.eurofront.orders.base import EFOrder, who
from grognard.eurofront.production import producing
from grognard.eurofront.state_types import ApdMarkerRemoved, EFState


class MarkerArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The hex whose marker goes."""

    hex: str


def fold_apd_marker_removed(state: EFState, ev: Event) -> EFState:
    d = cast(ApdMarkerRemoved, ev.data)
    m = state["apd"]["markers"]
    here = list(m[d["hex"]])
    here.remove(d["side"])
    if here:
        m[d["hex"]] = here
    else:
        del m[d["hex"]]
    return state


class RemoveApdMarker(EFOrder[MarkerArgs]):
    kind = "remove_apd_marker"
    rule = "EF-14"
    help = "EF-14 Remove an own marker."
    example: ClassVar[Mapping[str, str]] = {"hex": "0905"}
    Args = MarkerArgs
    folds: ClassVar[Mapping[str, Fold]] = {"apd_marker_removed": fold_apd_marker_removed}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: MarkerArgs) -> None:
        """EF-14 The owning player may remove its Airpower Disrupted marker."""
        producing(state, cmd.player)
        if cmd.player not in state["apd"]["markers"].get(args.hex, []):
            raise IllegalOrder("EF-14", f"{cmd.player} has no Airpower Disrupted marker in "
                               f"{args.hex!r}")

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: MarkerArgs,
                dice: Dice) -> list[Event]:
        return [Event("apd_marker_removed", {"side": cmd.player, "hex": args.hex})]

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        p = state.get("production")
        if p is None or player in p["done"]:
            return []
        return [Command(self.kind, player, {"hex": h})
                for h, owners in sorted(state["apd"]["markers"].items()) if player in owners]

    def words(self, ctx: Context, state: EFState, cmd: Command, args: MarkerArgs) -> Words:
        return Words(f"{who(cmd.player)}: remove your Airpower Disrupted marker from "
                     f"{args.hex}", f"Remove marker {args.hex}")

    def places(self, cmd: Command) -> Places:
        h = cmd.args.get("hex")
        return Places(target=h) if isinstance(h, str) else Places()
