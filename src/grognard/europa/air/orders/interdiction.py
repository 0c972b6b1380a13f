"""``interdiction`` (EUR-26): an interdiction mission places a zone where the D6 is at most its tactical
rating."""

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


class InterdictionArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The interdiction mission."""

    mission: str


class Interdiction(EuropaOrder[InterdictionArgs]):
    kind = "interdiction"
    rule = "EUR-26"
    help = ("EUR-26 Interdiction: D6 <= tactical rating places a zone.")
    example: ClassVar[Mapping[str, Any]] = {"mission": "m1"}
    Args = InterdictionArgs
    facts: ClassVar[Mapping[str, str]] = {
        "centre": "the mission's target hex, EUR-26",
        "tactical": "the flying units' tactical ratings, EUR-26",
        "rail": "the map's rail lines, EUR-26"}
    folds: ClassVar[Mapping[str, Fold]] = {"interdiction_resolved": commands.fold_interdiction}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: InterdictionArgs) -> None:
        commands.verify_interdiction(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: InterdictionArgs,
                dice: Dice) -> list[Event]:
        return commands.execute_interdiction(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        out: list[Command] = _PROPOSE(ctx, state, player)
        return out

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return Words(f"Fly {mission_words(state, cmd.args.get('mission'))}", "fly interdiction")


_PROPOSE = missions.proposer_for(MissionKind.INTERDICTION)
INTERDICTION = Interdiction()
