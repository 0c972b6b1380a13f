"""``fly_missions`` (EUR-23): the missions are assigned: fly them (sweeps first)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import NoArgs, Words
from grognard.europa.air import commands, missions
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState


class FlyMissions(EuropaOrder[NoArgs]):
    kind = "fly_missions"
    rule = "EUR-23"
    help = ("EUR-23 The missions are assigned: fly them (sweeps first).")
    example: ClassVar[Mapping[str, Any]] = {}
    Args = NoArgs
    folds: ClassVar[Mapping[str, Fold]] = {"air_missions_flown": commands.fold_fly}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: NoArgs) -> None:
        commands.verify_fly_missions(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: NoArgs,
                dice: Dice) -> list[Event]:
        return missions.execute_fly(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        return missions.propose_fly(ctx, state, player)

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return Words("Fly the assigned air missions", "Fly the missions")


FLY_MISSIONS = FlyMissions()
