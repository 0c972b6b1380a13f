"""``open_iran_route`` (TR-18): the US pays 15 BRPs once to open the southern (Iran)
lend-lease route.

Event ``iran_route_opened`` ``{cost, rule}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import NoArgs, Order, Words
from grognard.third_reich.board import economy_of, powers_of_side
from grognard.third_reich.economy.economy import economy_json
from grognard.third_reich.economy.lendlease import open_iran_route
from grognard.third_reich.state_types import TRState


def fold_iran_route_opened(state: TRState, ev: Event) -> TRState:
    """TR-18: the US pays 15; the route is open."""
    econ, _ = open_iran_route(economy_of(state))
    state["economy"] = economy_json(econ)
    return state


class OpenIranRoute(Order[NoArgs]):
    """TR-18 The US pays 15 BRPs once to open the Iran route."""

    kind = "open_iran_route"
    rule = "TR-18"
    help = "TR-18 The US pays 15 BRPs once to open the Iran route."
    folds: ClassVar[Mapping[str, Fold]] = {"iran_route_opened": fold_iran_route_opened}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: NoArgs) -> None:
        if "us" not in powers_of_side(state, cmd.player):
            raise IllegalOrder("TR-18", "only the US opens the Iran route")
        open_iran_route(economy_of(state))

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: NoArgs,
                dice: Dice) -> list[Event]:
        return [Event("iran_route_opened", {"cost": 15, "rule": "TR-18"})]

    def legal(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        cmd = Command(self.kind, player, {})
        try:
            self.verify(ctx, state, cmd, NoArgs())
        except (IllegalOrder, InputError):
            return []
        return [cmd]

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return Words("Open the Persian lend-lease route", "Open the Iran route")


__all__ = ["OpenIranRoute", "fold_iran_route_opened"]
