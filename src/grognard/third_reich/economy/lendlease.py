"""TR-14..TR-19 ("Lend Lease procedures"): BRP transfers between powers, in fixed amounts only.

* Germany -> Italy: 0, 5 or 10 after each Year Start while Italy is belligerent (TR-14);
* UK -> USSR: exactly 20 by the northern route through the Murmansk box (TR-15);
* US -> UK: exactly 20, at once, no interception (TR-16);
* US -> USSR: exactly 20 north (TR-17), and/or 20 south through Iran once the route is open
  (15 BRPs once; arrives Summer I, no interception) (TR-18).

Each shipment to or from a western power counts as one SR of the sender in Spring. Decisions are
yearly, made in Spring after the Year Start (TR-19).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import exact_json
from grognard.third_reich.economy.economy import Economy, acct, arrive_iran, spend
from grognard.third_reich.economy.readings import MurmanskTiming
from grognard.third_reich.turn.calendar import Season
from grognard.third_reich.turn.options import price
from grognard.third_reich.turn.powers import Power, parse_power

ITALY_AMOUNTS = (0, 5, 10)
WESTERN_AMOUNT = 20


class Route(StrEnum):
    DIRECT = "direct"  # Germany -> Italy, US -> UK
    NORTH = "north"  # the Murmansk box
    SOUTH = "south"  # Iran


#: TR-19: the only transfers the rules allow.
ALLOWED: dict[tuple[Power, Power], tuple[Route, ...]] = {
    (Power.GERMANY, Power.ITALY): (Route.DIRECT,),
    (Power.UK, Power.USSR): (Route.NORTH,),
    (Power.US, Power.UK): (Route.DIRECT,),
    (Power.US, Power.USSR): (Route.NORTH, Route.SOUTH),
}
RULE_OF: dict[tuple[Power, Power, Route], str] = {
    (Power.GERMANY, Power.ITALY, Route.DIRECT): "TR-14",
    (Power.UK, Power.USSR, Route.NORTH): "TR-15",
    (Power.US, Power.UK, Route.DIRECT): "TR-16",
    (Power.US, Power.USSR, Route.NORTH): "TR-17",
    (Power.US, Power.USSR, Route.SOUTH): "TR-18",
}


@dataclass(frozen=True, slots=True)
class LendLease:
    """The record of one lend-lease decision."""

    sender: str
    receiver: str
    route: str
    amount: int
    rule: str
    sr_used: int
    arrives: str  # "now", "summer1" (Iran) or "murmansk" (after the box combat)

    def to_json(self) -> dict[str, Any]:
        return {"sender": self.sender, "receiver": self.receiver, "route": self.route,
                "amount": self.amount, "rule": self.rule, "sr_used": self.sr_used,
                "arrives": self.arrives}


def _key(sender: Power, receiver: Power, route: Route) -> str:
    return f"{sender.value}>{receiver.value}:{route.value}"


def verify_lend_lease(econ: Economy, sender: Power | str, receiver: Power | str,
                      route: Route | str, amount: int) -> tuple[Power, Power, Route, str]:
    """TR-14..TR-19: raise :class:`IllegalOrder` naming the rule unless the transfer is legal."""
    s = parse_power(str(sender), "sender")
    r = parse_power(str(receiver), "receiver")
    try:
        rt = Route(route)
    except ValueError:
        raise InputError("route", f"{route!r} is not direct, north or south") from None
    if rt not in ALLOWED.get((s, r), ()):
        raise IllegalOrder("TR-19", f"no lend lease from {s.value} to {r.value} by the "
                           f"{rt.value} route")
    rule = RULE_OF[(s, r, rt)]
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InputError("amount", f"a lend-lease amount is a whole number, not {amount!r}")
    allowed = ITALY_AMOUNTS if s is Power.GERMANY else (WESTERN_AMOUNT,)
    if amount not in allowed:
        raise IllegalOrder(rule, f"{s.value} -> {r.value} lend lease is "
                           f"{' or '.join(map(str, allowed))} BRPs"
                           f"{'' if s is Power.GERMANY else ' or nothing'}, not {amount}")
    d = econ.date
    if d.season is not Season.SPRING:
        raise IllegalOrder("TR-19", f"lend lease is decided in Spring, not {d.season.value}")
    if f"germany.year_start.{d.year}" not in econ.ledger.balances:
        raise IllegalOrder("TR-19", "lend lease is sent after the Year Start")
    if _key(s, r, rt) in econ.lend_lease_done:
        raise IllegalOrder("TR-19", f"{s.value} -> {r.value} ({rt.value}) was already decided "
                           f"for {d.year}")
    for p in (s, r):
        if p not in econ.powers:
            raise IllegalOrder(rule, f"{p.value} is not in the war")
    if s is Power.GERMANY:
        if Power.ITALY not in econ.belligerent:
            raise IllegalOrder(rule, "Germany may give BRPs to Italy only while it is "
                               "belligerent")
    else:
        for p in {s, r} - {Power.UK}:
            if p not in econ.at_war_with_germany:
                raise IllegalOrder(rule, f"{p.value} is not at war with Germany")
    if rt is Route.SOUTH and not econ.iran_route_open:
        raise IllegalOrder("TR-18", "the US has not paid 15 BRPs to open the Iran route")
    return s, r, rt, rule


def can_send_lend_lease(econ: Economy, sender: Power | str, receiver: Power | str,
                        route: Route | str, amount: int) -> bool:
    try:
        verify_lend_lease(econ, sender, receiver, route, amount)
        return True
    except (IllegalOrder, InputError):
        return False


def send_lend_lease(econ: Economy, sender: Power | str, receiver: Power | str,
                    route: Route | str, amount: int) -> tuple[Economy, LendLease]:
    """TR-14..TR-18: deduct a shipment at once; direct ones arrive now, northern ones wait in
    the Murmansk box (``ll.north.<sender>``), southern ones in transit to Summer I."""
    s, r, rt, rule = verify_lend_lease(econ, sender, receiver, route, amount)
    e = replace(econ, lend_lease_done=econ.lend_lease_done | {_key(s, r, rt)})
    sr = 0 if s is Power.GERMANY else 1
    if amount == 0:
        return e, LendLease(s.value, r.value, rt.value, 0, rule, 0, "now")
    e, _ = spend(e, s, amount, rule, f"lend lease to {r.value} ({rt.value})", build=False)
    if rt is Route.DIRECT:
        e = e.post(acct(r, "brp"), amount, rule, f"lend lease from {s.value}")
        arrives = "now"
    elif rt is Route.NORTH:
        e = e.post(f"ll.north.{s.value}", amount, rule, f"{s.value} lend lease in the "
                   "Murmansk box")
        arrives = "murmansk"
    else:
        e = e.post("ll.south", amount, rule, "US lend lease by the Iran route, arrives Summer I")
        arrives = "summer1"
    return e, LendLease(s.value, r.value, rt.value, amount, rule, sr, arrives)


def open_iran_route(econ: Economy) -> tuple[Economy, Fraction]:
    """TR-18: the US pays 15 BRPs once, any time both it and the USSR are at war with Germany."""
    if econ.iran_route_open:
        raise IllegalOrder("TR-18", "the Iran route is already open")
    for p in (Power.US, Power.USSR):
        if p not in econ.at_war_with_germany:
            raise IllegalOrder("TR-18", f"{p.value} is not at war with Germany")
    e, rec = spend(econ, Power.US, price("iran_route"), "TR-18", "open the Iran route",
                   build=False)
    return replace(e, iran_route_open=True), rec.amount


def deliver_iran(econ: Economy) -> Economy:
    """TR-18: Iran-route BRPs are added to the USSR total in Summer I."""
    if econ.date.season is not Season.SUMMER1:
        raise IllegalOrder("TR-18", "Iran lend lease arrives in Summer I")
    return arrive_iran(econ)


def northern_in_transit(econ: Economy) -> dict[str, int]:
    """TR-15/TR-17: the counters in the Murmansk box, by sender."""
    out: dict[str, int] = {}
    for p in (Power.UK, Power.US):
        v = econ.balance(f"ll.north.{p.value}")
        if v:
            out[p.value] = int(v)
    return out


#: TR-20/TR-21: the Murmansk BRPs that survived the box, held until the USSR receives them.
MURMANSK_DUE = "ll.murmansk.due"


def murmansk_arrival(timing: MurmanskTiming) -> Season:
    """TR-20: the season of the USSR turn at whose start the surviving BRPs are received.

    SPRING: "BRPs that survive are received by the USSR at the start of their Summer I turn";
    SUMMER1: combat in the Allied Summer I turn, first spendable in the USSR's Summer II turn.

    >>> murmansk_arrival(MurmanskTiming.SPRING).value, murmansk_arrival(MurmanskTiming.SUMMER1).value
    ('summer1', 'summer2')
    """
    return Season.SUMMER1 if timing is MurmanskTiming.SPRING else Season.SUMMER2


def hold_murmansk(econ: Economy, delivered: int, cause: str) -> Economy:
    """TR-21: put the BRPs that survived the box on the holding account ``ll.murmansk.due``."""
    if isinstance(delivered, bool) or not isinstance(delivered, int) or delivered < 0:
        raise InputError("delivered", "BRPs delivered are a whole number >= 0")
    return econ.post(MURMANSK_DUE, delivered, "TR-21", cause) if delivered else econ


def deliver_murmansk(econ: Economy, brp_hits: int) -> tuple[Economy, int]:
    """TR-20/TR-21: resolve the northern shipments: the survivors of the box hits are held.

    Timing by the ``murmansk_timing`` reading: SPRING — combat in the Allied Spring turn;
    SUMMER1 — combat in the Allied Summer I combat phase. The survivors wait on
    ``ll.murmansk.due`` until :func:`receive_murmansk` credits the USSR at the start of its
    Summer I (SPRING) or Summer II (SUMMER1) turn. Returns the BRPs that survived.
    """
    if isinstance(brp_hits, bool) or not isinstance(brp_hits, int) or brp_hits < 0:
        raise InputError("brp_hits", "hits on the shipment are a whole number >= 0")
    want = Season.SPRING if econ.readings.murmansk_timing is MurmanskTiming.SPRING \
        else Season.SUMMER1
    if econ.date.season is not want:
        raise IllegalOrder("TR-20", f"Murmansk box combat is in {want.value} under the "
                           f"murmansk_timing={econ.readings.murmansk_timing.value} reading")
    sent = northern_in_transit(econ)
    total = sum(sent.values())
    delivered = max(0, total - brp_hits)
    e = econ
    for sender, amt in sent.items():
        e = e.post(f"ll.north.{sender}", -amt, "TR-21", "Murmansk convoy resolved")
    e = hold_murmansk(e, delivered, f"Murmansk lend lease: {total} sent, "
                      f"{exact_json(total - delivered)} lost; held for the USSR")
    return e, delivered


def can_receive_murmansk(econ: Economy, timing: MurmanskTiming | None = None) -> bool:
    """TR-20: is this the USSR turn that receives held Murmansk BRPs (and are there any)?"""
    t = econ.readings.murmansk_timing if timing is None else timing
    return econ.date.season is murmansk_arrival(t) and econ.balance(MURMANSK_DUE) > 0


def receive_murmansk(econ: Economy, timing: MurmanskTiming | None = None) -> Economy:
    """TR-20 (The Murmansk box) At the start of the USSR's Summer I turn (SPRING timing; Summer
    II under SUMMER1) the held Murmansk BRPs are added to the USSR's BRPs.

    ``timing`` overrides the economy's ``murmansk_timing`` reading (the engine system runs the
    SUMMER1 box).
    """
    t = econ.readings.murmansk_timing if timing is None else timing
    want = murmansk_arrival(t)
    if econ.date.season is not want:
        raise IllegalOrder("TR-20", f"Murmansk BRPs reach the USSR at the start of its "
                           f"{want.value} turn (murmansk_timing={t.value}), not in "
                           f"{econ.date.season.value}")
    amt = econ.balance(MURMANSK_DUE)
    if not amt:
        return econ
    e = econ.post(MURMANSK_DUE, -amt, "TR-20", "Murmansk lend lease received")
    return e.post("ussr.brp", amt, "TR-20", "Murmansk lend lease received by the USSR")
