"""``murmansk_ship`` (TR-19/TR-20): the UK or the US places 20 lend-lease BRPs in the
Murmansk box (one counter each; before the escorts are placed). The BRPs are deducted at once
(``ll.north.<sender>``; a payment within the TR-75 spending cap).

Event ``murmansk_shipped`` ``{side, sender, brps}``.
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
from grognard.engine.orders import Order, Words
from grognard.third_reich.board import economy_of, powers_of_side
from grognard.third_reich.economy.lendlease import Route, send_lend_lease
from grognard.third_reich.state_types import EconomyJSON, MurmanskShipped, TRState
from grognard.third_reich.strategic import murmansk
from grognard.third_reich.strategic.murmansk_box import (
    NORTHERN_BRPS,
    box_of,
    box_year,
    public_box,
)
from grognard.third_reich.war import verify_lend_lease_open
from grognard.third_reich.words import power_name


class MurmanskShipArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``sender``: the UK or the US; ``brps``: exactly 20 (TR-19)."""

    sender: str
    brps: int = NORTHERN_BRPS


def fold_murmansk_shipped(state: TRState, ev: Event) -> TRState:
    """TR-19: the 20 BRPs are deducted at once (``ll.north.<sender>``); a counter goes to the
    box."""
    d = cast(MurmanskShipped, ev.data)
    box = murmansk.place_shipment(box_of(state), d["sender"], d["brps"])
    econ, _ = send_lend_lease(economy_of(state), d["sender"], "ussr", Route.NORTH,
                              d["brps"])
    state["economy"] = cast(EconomyJSON, econ.to_json())
    state["murmansk"] = public_box(box, box_year(state))
    return state


class MurmanskShip(Order[MurmanskShipArgs]):
    """TR-19/TR-20 The UK or US places 20 lend-lease BRPs in the Murmansk box (before Germany
    commits)."""

    kind = "murmansk_ship"
    rule = "TR-19"
    Args = MurmanskShipArgs
    help = ("TR-19/TR-20 The UK or US places 20 lend-lease BRPs in the Murmansk box (before "
            "Germany commits).")
    example: ClassVar[Mapping[str, object]] = {"sender": "uk"}
    folds: ClassVar[Mapping[str, Fold]] = {"murmansk_shipped": fold_murmansk_shipped}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: MurmanskShipArgs) -> None:
        if args.sender not in powers_of_side(state, cmd.player):
            raise IllegalOrder("TR-19", f"{args.sender} is not a power of {cmd.player}")
        box = box_of(state)
        murmansk.place_shipment(box, args.sender, args.brps)
        if box.allied is not None:
            raise IllegalOrder("TR-20", "the escorts are already placed with this year's "
                               "counters")
        # the shipment with its payment, as the fold makes it (TR-75: the sender's cap)
        send_lend_lease(economy_of(state), args.sender, "ussr", Route.NORTH, args.brps)
        # TR-15/TR-17 (issue 23): only once the USSR (and for the US, the US) is at war with
        # Germany, judged against the war state
        verify_lend_lease_open(state, args.sender, "ussr")

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: MurmanskShipArgs,
                dice: Dice) -> list[Event]:
        return [Event("murmansk_shipped", {"side": cmd.player, "sender": args.sender,
                                           "brps": args.brps})]

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        """TR-19: each power of the side may send the 20 BRPs."""
        for sender in powers_of_side(state, player):
            yield Command(self.kind, player, {"sender": sender})

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        brps = cmd.args.get("brps", 20)
        sender = power_name(cmd.args.get("sender"))
        return Words(f"{sender} ships {brps} BRPs to Murmansk",
                     f"{sender}: ship {brps} BRPs to Murmansk")


__all__ = ["MurmanskShip", "MurmanskShipArgs", "fold_murmansk_shipped"]
