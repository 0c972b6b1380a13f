"""``remove_apd_marker`` {hex}: EF-14, the owning player removes its Airpower Disrupted marker.

"The owning player chooses to remove it": offered in the production phase, one marker per
order. (The month-end removal of EF-14 is the referee's, as the next month starts.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words
from grognard.engine.state import JSON
from grognard.engine.system import Places
from grognard.eurofront.orders.base import EFOrder, who
from grognard.eurofront.production import producing


class MarkerArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The hex whose marker goes."""

    hex: str


def fold_apd_marker_removed(state: JSON, ev: Event) -> JSON:
    m = state["apd"]["markers"]
    here = list(m[ev.data["hex"]])
    here.remove(ev.data["side"])
    if here:
        m[ev.data["hex"]] = here
    else:
        del m[ev.data["hex"]]
    return state


class RemoveApdMarker(EFOrder[MarkerArgs]):
    kind = "remove_apd_marker"
    rule = "EF-14"
    help = "EF-14 Remove an own marker."
    example: ClassVar[Mapping[str, str]] = {"hex": "0905"}
    Args = MarkerArgs
    folds: ClassVar[Mapping[str, Fold]] = {"apd_marker_removed": fold_apd_marker_removed}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: MarkerArgs) -> None:
        """EF-14 The owning player may remove its Airpower Disrupted marker."""
        producing(state, cmd.player)
        if cmd.player not in state["apd"]["markers"].get(args.hex, []):
            raise IllegalOrder("EF-14", f"{cmd.player} has no Airpower Disrupted marker in "
                               f"{args.hex!r}")

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: MarkerArgs,
                dice: Dice) -> list[Event]:
        return [Event("apd_marker_removed", {"side": cmd.player, "hex": args.hex})]

    def legal(self, ctx: Context, state: JSON, player: str) -> Iterable[Command]:
        if state.get("production") is None or player in state["production"]["done"]:
            return []
        return [Command(self.kind, player, {"hex": h})
                for h, owners in sorted(state["apd"]["markers"].items()) if player in owners]

    def words(self, ctx: Context, state: JSON, cmd: Command, args: MarkerArgs) -> Words:
        return Words(f"{who(cmd.player)}: remove your Airpower Disrupted marker from "
                     f"{args.hex}", f"Remove marker {args.hex}")

    def places(self, cmd: Command) -> Places:
        h = cmd.args.get("hex")
        return Places(target=h) if isinstance(h, str) else Places()
