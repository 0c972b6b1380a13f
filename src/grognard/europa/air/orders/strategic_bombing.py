"""``strategic_bombing`` (EUR-28): a strategic bombing mission bombs its objective."""

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


class StrategicBombingArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The strategic bombing mission."""

    mission: str


class StrategicBombing(EuropaOrder[StrategicBombingArgs]):
    kind = "strategic_bombing"
    rule = "EUR-28"
    help = ("EUR-28 Strategic bombing of the mission's objective.")
    example: ClassVar[Mapping[str, Any]] = {"mission": "m1"}
    Args = StrategicBombingArgs
    facts: ClassVar[Mapping[str, str]] = {
        "target": "the mission's objective and bombardment results, EUR-28",
        "results": "the mission's objective and bombardment results, EUR-28",
        "hit_limit": "the mission's objective and bombardment results, EUR-28",
        "explicit_supply_units": "the mission's objective and bombardment results, EUR-28"}
    folds: ClassVar[Mapping[str, Fold]] = {"strategic_bombing_resolved": commands.fold_strategic}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: StrategicBombingArgs) -> None:
        commands.verify_strategic_bombing(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: StrategicBombingArgs,
                dice: Dice) -> list[Event]:
        return commands.execute_strategic_bombing(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        out: list[Command] = _PROPOSE(ctx, state, player)
        return out

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return Words(f"Fly {mission_words(state, cmd.args.get('mission'))}",
                     "fly strategic bombing")


_PROPOSE = missions.proposer_for(MissionKind.STRATEGIC_BOMBING)
STRATEGIC_BOMBING = StrategicBombing()
