"""TR-14, TR-16, TR-18 in the ``third_reich`` engine system: lend lease by the direct routes
and the Iran route.

``lend_lease {sender, receiver, route, amount}`` in a Spring Declare Options phase after the
Year Start: Germany -> Italy 0/5/10 (TR-14), US -> UK 20 (TR-16), US -> USSR 20 by the Iran
route (TR-18; the northern route is the Murmansk box's ``murmansk_ship``).
``open_iran_route {}``: the US pays 15 once (TR-18). Iran-route BRPs wait on ``ll.south`` and
reach the USSR at the start of Summer I: the ``end_phase`` opening that turn is followed by
``iran_delivered {amount, rule}`` (:func:`~grognard.third_reich.economy.lendlease.deliver_iran`).
"""

from __future__ import annotations

from collections.abc import Iterable

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.state import JSON
from grognard.third_reich.economy.economy import Economy
from grognard.third_reich.economy.lendlease import (
    ALLOWED,
    ITALY_AMOUNTS,
    WESTERN_AMOUNT,
    Route,
    deliver_iran,
    open_iran_route,
    send_lend_lease,
)
from grognard.third_reich.play.system_common import _econ, _side_powers
from grognard.third_reich.turn.calendar import Season

#: the routes this command carries (the northern one is the Murmansk box's)
ROUTES = (Route.DIRECT, Route.SOUTH)


def _args(cmd: Command) -> tuple[str, str, str, int]:
    s, r, rt, a = (cmd.args.get(k) for k in ("sender", "receiver", "route", "amount"))
    for name, v in (("sender", s), ("receiver", r), ("route", rt)):
        if not isinstance(v, str):
            raise InputError(f"args.{name}", "a name")
    if isinstance(a, bool) or not isinstance(a, int):
        raise InputError("args.amount", "a whole number of BRPs")
    return str(s), str(r), str(rt), a


def verify_lend_lease_cmd(ctx: Context, state: JSON, cmd: Command) -> None:
    s, r, rt, a = _args(cmd)
    if s not in _side_powers(state, cmd.player):
        raise IllegalOrder("TR-19", f"{s} is not a power of {cmd.player}")
    if rt == Route.NORTH.value:
        raise IllegalOrder("TR-20", "northern lend lease goes through the Murmansk box "
                           "(murmansk_ship)")
    # the whole shipment on a copy of the economy: TR-14..TR-19, and the payment itself
    # (TR-75: at most half of the sender's BRPs a turn), which execute makes
    send_lend_lease(_econ(state), s, r, rt, a)


def execute_lend_lease(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    s, r, rt, a = _args(cmd)
    _, rec = send_lend_lease(_econ(state), s, r, rt, a)
    return [Event("lend_lease_sent", rec.to_json())]


def fold_lend_lease_sent(state: JSON, ev: Event) -> JSON:
    d = ev.data
    econ, _ = send_lend_lease(_econ(state), d["sender"], d["receiver"], d["route"], d["amount"])
    state["economy"] = econ.to_json()
    return state


def legal_lend_lease(ctx: Context, state: JSON, player: str) -> Iterable[Command]:
    econ = _econ(state)
    mine = set(_side_powers(state, player))
    out = []
    for (s, r), routes in ALLOWED.items():
        if s.value not in mine:
            continue
        for rt in routes:
            if rt not in ROUTES:
                continue
            for a in (ITALY_AMOUNTS if s.value == "germany" else (WESTERN_AMOUNT,)):
                try:
                    send_lend_lease(econ, s, r, rt, a)  # as verify: the payment too (TR-75)
                except (IllegalOrder, InputError):
                    continue
                out.append(Command("lend_lease", player, {"sender": s.value,
                                                          "receiver": r.value,
                                                          "route": rt.value, "amount": a}))
    return out


def verify_open_iran(ctx: Context, state: JSON, cmd: Command) -> None:
    if "us" not in _side_powers(state, cmd.player):
        raise IllegalOrder("TR-18", "only the US opens the Iran route")
    open_iran_route(_econ(state))


def execute_open_iran(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
    return [Event("iran_route_opened", {"cost": 15, "rule": "TR-18"})]


def fold_iran_route_opened(state: JSON, ev: Event) -> JSON:
    econ, _ = open_iran_route(_econ(state))
    state["economy"] = econ.to_json()
    return state


def legal_open_iran(ctx: Context, state: JSON, player: str) -> Iterable[Command]:
    cmd = Command("open_iran_route", player, {})
    try:
        verify_open_iran(ctx, state, cmd)
    except (IllegalOrder, InputError):
        return []
    return [cmd]


def iran_arrival(econ: Economy, new_turn_season: Season) -> list[Event]:
    """TR-18: at the start of Summer I the Iran-route BRPs in transit reach the USSR."""
    amt = econ.balance("ll.south")
    if new_turn_season is Season.SUMMER1 and amt:
        return [Event("iran_delivered", {"amount": int(amt), "rule": "TR-18"})]
    return []


def fold_iran_delivered(state: JSON, ev: Event) -> JSON:
    econ = deliver_iran(_econ(state))
    state["economy"] = econ.to_json()
    return state


__all__ = ["execute_lend_lease", "execute_open_iran", "fold_iran_delivered",
           "fold_iran_route_opened", "fold_lend_lease_sent", "iran_arrival",
           "legal_lend_lease", "legal_open_iran", "verify_lend_lease_cmd", "verify_open_iran"]
