"""``lend_lease`` (TR-14, TR-16, TR-18): lend lease by the direct routes and the Iran route,
in a Spring Declare Options phase after the Year Start: Germany -> Italy 0/5/10 (TR-14),
US -> UK 20 (TR-16), US -> USSR 20 by the Iran route (TR-18; the northern route is the
Murmansk box's ``murmansk_ship``). The shipment is a payment (TR-75: at most half of the
sender's BRPs a turn).

Event ``lend_lease_sent`` (the :func:`~grognard.third_reich.economy.lendlease.send_lend_lease`
record).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order, Words
from grognard.third_reich.board import economy_of, powers_of_side
from grognard.third_reich.economy.economy import economy_json
from grognard.third_reich.economy.lendlease import (
    ALLOWED,
    ITALY_AMOUNTS,
    WESTERN_AMOUNT,
    Route,
    send_lend_lease,
)
from grognard.third_reich.state_types import LendLeaseSent, TRState
from grognard.third_reich.words import power_name

#: the routes this order carries (the northern one is the Murmansk box's)
ROUTES = (Route.DIRECT, Route.SOUTH)


class LendLeaseArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``sender`` sends ``amount`` BRPs to ``receiver`` by ``route`` (direct or south)."""

    sender: str
    receiver: str
    route: str
    amount: int


def fold_lend_lease_sent(state: TRState, ev: Event) -> TRState:
    """TR-14..TR-18: the BRPs leave the sender (and reach the receiver or wait on a route)."""
    d = cast(LendLeaseSent, ev.data)
    econ, _ = send_lend_lease(economy_of(state), d["sender"], d["receiver"], d["route"], d["amount"])
    state["economy"] = economy_json(econ)
    return state


class LendLease(Order[LendLeaseArgs]):
    """TR-14/TR-16/TR-18 Lend lease after the Spring Year Start."""

    kind = "lend_lease"
    rule = "TR-14"
    Args = LendLeaseArgs
    help = ("TR-14/TR-16/TR-18 Lend lease after the Spring Year Start: Germany -> Italy 0/5/10, "
            "US -> UK 20, US -> USSR 20 by the Iran route (arrives Summer I).")
    example: ClassVar[Mapping[str, object]] = {"sender": "germany", "receiver": "italy",
                                               "route": "direct", "amount": 10}
    folds: ClassVar[Mapping[str, Fold]] = {"lend_lease_sent": fold_lend_lease_sent}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: LendLeaseArgs) -> None:
        if args.sender not in powers_of_side(state, cmd.player):
            raise IllegalOrder("TR-19", f"{args.sender} is not a power of {cmd.player}")
        if args.route == Route.NORTH.value:
            raise IllegalOrder("TR-20", "northern lend lease goes through the Murmansk box "
                               "(murmansk_ship)")
        # the whole shipment on a copy of the economy: TR-14..TR-19, and the payment itself
        # (TR-75: at most half of the sender's BRPs a turn), which execute makes
        send_lend_lease(economy_of(state), args.sender, args.receiver, args.route, args.amount)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: LendLeaseArgs,
                dice: Dice) -> list[Event]:
        _, rec = send_lend_lease(economy_of(state), args.sender, args.receiver, args.route,
                                 args.amount)
        return [Event("lend_lease_sent", rec.to_json())]

    def legal(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        """Every shipment the player's powers may make now (the payment checked too)."""
        econ = economy_of(state)
        mine = set(powers_of_side(state, player))
        out = []
        for (s, r), routes in ALLOWED.items():
            if s.value not in mine:
                continue
            for rt in routes:
                if rt not in ROUTES:
                    continue
                for a in (ITALY_AMOUNTS if s.value == "germany" else (WESTERN_AMOUNT,)):
                    try:
                        send_lend_lease(econ, s, r, rt, a)  # as verify: the payment (TR-75)
                    except (IllegalOrder, InputError):
                        continue
                    out.append(Command(self.kind, player, {"sender": s.value,
                                                           "receiver": r.value,
                                                           "route": rt.value, "amount": a}))
        return out

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        route = a.get("route")
        t = (f"Lend-lease: {power_name(a.get('sender'))} sends {a.get('amount')} BRPs to "
             f"{power_name(a.get('receiver'))}"
             + (f" ({str(route).replace('_', ' ')} route)" if route else ""))
        return Words(t, f"{a.get('amount')} BRPs to {power_name(a.get('receiver'))}")


__all__ = ["LendLease", "LendLeaseArgs", "fold_lend_lease_sent"]
