"""``lend_lease`` (TR-14/TR-16/TR-18): lend lease after the Spring Year Start (the northern route
is the Murmansk box's).

The rule functions it runs are in :mod:`grognard.third_reich.play.system_strategic`; events:
docs/formats/tr_engine.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order
from grognard.engine.state import JSON
from grognard.third_reich.play.system_strategic import (
    execute_lend_lease,
    fold_lend_lease_sent,
    legal_lend_lease,
    verify_lend_lease_cmd,
)


class LendLeaseArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``sender`` sends ``amount`` BRPs to ``receiver`` by ``route`` (direct or south)."""

    sender: str
    receiver: str
    route: str
    amount: int


class LendLease(Order[LendLeaseArgs]):
    """TR-14/TR-16/TR-18 Lend lease after the Spring Year Start: Germany -> Italy 0/5/10, US ->
    UK 20, US -> USSR 20 by the Iran route (arrives Summer I)."""

    kind = "lend_lease"
    rule = "TR-14"
    Args = LendLeaseArgs
    help = ("TR-14/TR-16/TR-18 Lend lease after the Spring Year Start: Germany -> Italy "
            "0/5/10, US -> UK 20, US -> USSR 20 by the Iran route (arrives Summer I).")
    example: ClassVar[Mapping[str, object]] = {"sender": "germany", "receiver": "italy", "route": "direct", "amount": 10}
    folds: ClassVar[Mapping[str, Fold]] = {"lend_lease_sent": fold_lend_lease_sent}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: LendLeaseArgs) -> None:
        verify_lend_lease_cmd(ctx, state, cmd)

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: LendLeaseArgs,
                dice: Dice) -> list[Event]:
        return execute_lend_lease(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: JSON, player: str) -> Iterable[Command]:
        return legal_lend_lease(ctx, state, player)


__all__ = ["LendLease", "LendLeaseArgs"]
