"""``reduce_surprise`` (SUR-09): reduce the plan's SRP level on the attack turn (80% of the difference back)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words
from grognard.engine.state import JSON
from grognard.europa.order import EuropaOrder
from grognard.europa.surprise.orders.plan import (
    execute_surprise,
    fold_surprise,
    planned,
    verify_surprise,
)


class ReduceSurpriseArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The plan and its new, lower level."""

    command: str
    level: int


class ReduceSurprise(EuropaOrder[ReduceSurpriseArgs]):
    kind = "reduce_surprise"
    rule = "SUR-09"
    help = "Reduce the plan's SRP level on the attack turn (80% back)."
    example: ClassVar[Mapping[str, Any]] = {"command": "AGC", "level": 3}
    Args = ReduceSurpriseArgs
    folds: ClassVar[Mapping[str, Fold]] = {"surprise_planned": fold_surprise}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: ReduceSurpriseArgs) -> None:
        verify_surprise(ctx, state, cmd)

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: ReduceSurpriseArgs,
                dice: Dice) -> list[Event]:
        return execute_surprise(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: JSON, player: str) -> list[Command]:
        return self.checked(ctx, state, [
            Command("reduce_surprise", player, {"command": n, "level": lv})
            for n, p in planned(state, player) for lv in range(1, 10)])

    def describe(self, ctx: Context, state: JSON, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        return Words(f"Reduce the surprise of {a.get('command')} to level {a.get('level')}",
                     f"{a.get('command')} to level {a.get('level')}")


REDUCE_SURPRISE = ReduceSurprise()
