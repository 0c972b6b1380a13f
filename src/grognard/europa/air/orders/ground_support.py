"""``ground_support`` (EUR-23): a ground-support mission bombards its hex (EUR-03/04/06); a hit is +1 DRM
for this player turn's attack on it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words
from grognard.europa.air import commands, missions
from grognard.europa.air.phase import MissionKind
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.words import mission_words


class GroundSupportArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The mission and, where a bombardment step is lost, the unit that loses it."""

    mission: str
    step_loss_unit: str | None = None


class GroundSupport(EuropaOrder[GroundSupportArgs]):
    kind = "ground_support"
    rule = "EUR-23"
    help = ("EUR-23/EUR-06 Ground support: bombard the mission hex; a "
            "hit is +1 DRM for this turn's attack on it.")
    example: ClassVar[Mapping[str, Any]] = {"mission": "m1"}
    Args = GroundSupportArgs
    folds: ClassVar[Mapping[str, Fold]] = {"ground_support_resolved": commands.fold_ground_support}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: GroundSupportArgs) -> None:
        commands.verify_ground_support(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: GroundSupportArgs,
                dice: Dice) -> list[Event]:
        return missions.execute_ground_support(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        out: list[Command] = _PROPOSE(ctx, state, player)
        return out

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return Words(f"Fly {mission_words(state, cmd.args.get('mission'))}", "fly ground support")


_PROPOSE = missions.proposer_for(MissionKind.GROUND_SUPPORT)
GROUND_SUPPORT = GroundSupport()
