"""``bonus_supply_judgement`` (SUR-21): after the bonus phases, supply is judged again within the surprise front."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import NoArgs, Words
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.surprise.air_turn import (
    execute_bonus_supply,
    fold_bonus_supply,
    legal_bonus_supply,
    verify_bonus_supply,
)


class BonusSupplyJudgement(EuropaOrder[NoArgs]):
    kind = "bonus_supply_judgement"
    rule = "SUR-21"
    help = "Judge supply within the surprise front after the bonus phases (SUR-21)."
    example: ClassVar[Mapping[str, Any]] = {}
    Args = NoArgs
    folds: ClassVar[Mapping[str, Fold]] = {"bonus_supply_judged": fold_bonus_supply}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: NoArgs) -> None:
        verify_bonus_supply(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: NoArgs,
                dice: Dice) -> list[Event]:
        return execute_bonus_supply(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        return legal_bonus_supply(ctx, state, player, self.checked)

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return Words("Use the bonus supply judgement", "Bonus supply")


BONUS_SUPPLY_JUDGEMENT = BonusSupplyJudgement()
