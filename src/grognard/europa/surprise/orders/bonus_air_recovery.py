"""``bonus_air_recovery`` (SUR-21): in the bonus supply-judgement/air phase each side restores air units one
status step (the defender at its own choice, 1 SP per 3 units)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, as_list
from grognard.engine.system import Places
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.surprise.air_turn import (
    execute_bonus_air_recovery,
    fold_bonus_air_recovery,
    legal_bonus_air_recovery,
    verify_bonus_air_recovery,
)
from grognard.europa.words import label_of, named_units, units_words


class BonusAirRecoveryArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The air units restored (none: no recovery)."""

    units: list[str] = []


class BonusAirRecovery(EuropaOrder[BonusAirRecoveryArgs]):
    kind = "bonus_air_recovery"
    rule = "SUR-21"
    help = "Restore air units one status step in the bonus air phase (SUR-21)."
    example: ClassVar[Mapping[str, Any]] = {"units": ["de-jg51"]}
    Args = BonusAirRecoveryArgs
    folds: ClassVar[Mapping[str, Fold]] = {"bonus_air_recovered": fold_bonus_air_recovery}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: BonusAirRecoveryArgs) -> None:
        verify_bonus_air_recovery(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: BonusAirRecoveryArgs,
                dice: Dice) -> list[Event]:
        return execute_bonus_air_recovery(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        return legal_bonus_air_recovery(ctx, state, player, self.checked)

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        us = as_list(cmd.args.get("units"))
        return Words(f"Bonus air recovery: {units_words(state, us)}", f"recover {len(us)}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(label_of(cmd, "hex"), None, (), named_units(cmd, "units"))


BONUS_AIR_RECOVERY = BonusAirRecovery()
