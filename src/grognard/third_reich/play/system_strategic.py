"""TR-18 in the ``third_reich`` engine system: the Iran route's arrivals (the orders
``lend_lease`` and ``open_iran_route`` are in ``economy/orders/``). Iran-route BRPs wait on ``ll.south`` and
reach the USSR at the start of Summer I: the ``end_phase`` opening that turn is followed by
``iran_delivered {amount, rule}`` (:func:`~grognard.third_reich.economy.lendlease.deliver_iran`).
"""

from __future__ import annotations

from grognard.engine.events import Event
from grognard.engine.state import JSON
from grognard.third_reich.board import economy_of
from grognard.third_reich.economy.economy import Economy
from grognard.third_reich.economy.lendlease import (
    deliver_iran,
)
from grognard.third_reich.turn.calendar import Season


def iran_arrival(econ: Economy, new_turn_season: Season) -> list[Event]:
    """TR-18: at the start of Summer I the Iran-route BRPs in transit reach the USSR."""
    amt = econ.balance("ll.south")
    if new_turn_season is Season.SUMMER1 and amt:
        return [Event("iran_delivered", {"amount": int(amt), "rule": "TR-18"})]
    return []


def fold_iran_delivered(state: JSON, ev: Event) -> JSON:
    econ = deliver_iran(economy_of(state))
    state["economy"] = econ.to_json()
    return state


__all__ = ["fold_iran_delivered", "iran_arrival"]
