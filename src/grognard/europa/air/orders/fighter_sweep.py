"""``fighter_sweep`` (EUR-24): a sweep mission's round of air-to-air combat against the enemy fighters."""

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
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.words import mission_words


class FighterSweepArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The sweep mission and, optionally, which sweeper engages which defender."""

    mission: str
    pairs: list[list[str]] | None = None


class FighterSweep(EuropaOrder[FighterSweepArgs]):
    kind = "fighter_sweep"
    rule = "EUR-24"
    help = ("EUR-24 Fighter sweep: one round of air-to-air combat.")
    example: ClassVar[Mapping[str, Any]] = {"mission": "m1"}
    Args = FighterSweepArgs
    facts: ClassVar[Mapping[str, str]] = {
        "sweepers": "the air units of the sweep mission, EUR-24",
        "defenders": "the enemy fighters at the target, EUR-24"}
    folds: ClassVar[Mapping[str, Fold]] = {"fighter_sweep_resolved": commands.fold_sweep}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: FighterSweepArgs) -> None:
        commands.verify_fighter_sweep(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: FighterSweepArgs,
                dice: Dice) -> list[Event]:
        return commands.execute_fighter_sweep(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        return missions.propose_sweeps(ctx, state, player)

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return Words(f"Fly {mission_words(state, cmd.args.get('mission'))}", "fly fighter sweep")


FIGHTER_SWEEP = FighterSweep()
