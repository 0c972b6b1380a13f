"""``open_iran_route`` (TR-18): the US pays 15 BRPs once to open the southern (Iran) lend-lease
route.

The rule functions it runs are in :mod:`grognard.third_reich.play.system_strategic`; events:
docs/formats/tr_engine.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import NoArgs, Order
from grognard.engine.state import JSON
from grognard.third_reich.play.system_strategic import (
    execute_open_iran,
    fold_iran_route_opened,
    legal_open_iran,
    verify_open_iran,
)


class OpenIranRoute(Order[NoArgs]):
    """TR-18 The US pays 15 BRPs once to open the Iran route."""

    kind = "open_iran_route"
    rule = "TR-18"
    Args = NoArgs
    help = "TR-18 The US pays 15 BRPs once to open the Iran route."
    example: ClassVar[Mapping[str, object]] = {}
    folds: ClassVar[Mapping[str, Fold]] = {"iran_route_opened": fold_iran_route_opened}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: NoArgs) -> None:
        verify_open_iran(ctx, state, cmd)

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: NoArgs,
                dice: Dice) -> list[Event]:
        return execute_open_iran(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: JSON, player: str) -> Iterable[Command]:
        return legal_open_iran(ctx, state, player)


__all__ = ["OpenIranRoute"]
