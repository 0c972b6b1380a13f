"""``end_phase`` (EUR-22): the next phase of the revised turn; the FitE surprise phases play
once (EUR-44), rule-47 bonus phases only in a surprise's turn (SUR-01); with FitE logistics
the special SPs expire after the surprise phases (EUR-39) and a side receives its SPs as its
initial phase opens (EUR-38/40/41); a supply phase opens with the engine's supply check
(EUR-30); ending an initial phase delays the side's reinforcements not placed to its next
initial phase (EUR-22). The engine offers it only when no decision is owed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from grognard.core.dice import Dice
from grognard.engine import generic
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import NoArgs, Words
from grognard.europa.order import EuropaOrder
from grognard.europa.play.turn import execute_end_phase
from grognard.europa.state_types import EuropaState


class EndPhase(EuropaOrder[NoArgs]):
    kind = "end_phase"
    rule = "EUR-22"
    help = "End the phase (EUR-44: the surprise phases play once)."
    folds: ClassVar[Mapping[str, Fold]] = {"phase_ended": generic.GENERIC.folds["phase_ended"]}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: NoArgs) -> None:
        return None

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: NoArgs,
                dice: Dice) -> list[Event]:
        return execute_end_phase(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        return [Command("end_phase", player, {})]

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return Words(f"{cmd.player.title()}: end the phase", "End the phase")


END_PHASE = EndPhase()
