"""TR-18/TR-20: the lend-lease BRPs that reach the USSR when a turn opens, read from and folded
into the position (a position module like :mod:`~grognard.third_reich.board`, used by the
``end_phase`` order and the campaign's new turn).

* The Iran route (TR-18, the orders ``lend_lease`` and ``open_iran_route`` are in
  ``economy/orders/``): BRPs wait on ``ll.south`` and reach the USSR at the start of Summer I:
  the ``end_phase`` opening that turn is followed by ``iran_delivered {amount, rule}``
  (:func:`~grognard.third_reich.economy.lendlease.deliver_iran`).
* The Murmansk box (TR-20, ``strategic/murmansk_box.py``): the survivors held on
  ``ll.murmansk.due`` are credited to the USSR by the ``end_phase`` that opens its Summer I
  (SPRING timing) or Summer II (SUMMER1) player turn (``murmansk_received``,
  :func:`~grognard.third_reich.economy.lendlease.receive_murmansk`).
"""

from __future__ import annotations

from typing import cast

from grognard.engine.events import Event
from grognard.third_reich.board import economy_of, powers_of_side
from grognard.third_reich.economy.economy import Economy, at_turn
from grognard.third_reich.economy.lendlease import (
    MURMANSK_DUE,
    can_receive_murmansk,
    deliver_iran,
    receive_murmansk,
)
from grognard.third_reich.state_types import EconomyJSON, TRState
from grognard.third_reich.turn.calendar import Season


def iran_arrival(econ: Economy, new_turn_season: Season) -> list[Event]:
    """TR-18: at the start of Summer I the Iran-route BRPs in transit reach the USSR."""
    amt = econ.balance("ll.south")
    if new_turn_season is Season.SUMMER1 and amt:
        return [Event("iran_delivered", {"amount": int(amt), "rule": "TR-18"})]
    return []


def fold_iran_delivered(state: TRState, ev: Event) -> TRState:
    econ = deliver_iran(economy_of(state))
    state["economy"] = cast(EconomyJSON, econ.to_json())
    return state


def murmansk_receipt(state: TRState, side: str, turn: int) -> int:
    """TR-20: the held Murmansk BRPs the USSR receives when ``side`` opens its player turn in
    ``turn`` (0 unless ``side`` plays the USSR and it is the arrival season)."""
    if "ussr" not in powers_of_side(state, side):
        return 0
    econ = economy_of(state)
    if turn != state["turn"]:
        econ = at_turn(econ, turn)
    if not can_receive_murmansk(econ):
        return 0
    return int(econ.balance(MURMANSK_DUE))


def fold_murmansk_receipt(s: TRState) -> None:
    """TR-20: credit the held Murmansk BRPs to the USSR (``s`` is already thawed)."""
    s["economy"] = cast(EconomyJSON, receive_murmansk(economy_of(s)).to_json())


__all__ = ["fold_iran_delivered", "fold_murmansk_receipt", "iran_arrival", "murmansk_receipt"]
