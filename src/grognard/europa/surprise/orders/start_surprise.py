"""``start_surprise`` (SUR-01, SUR-04, SUR-12, SUR-13, SUR-15): start the surprise: half the SRPs back, the front is marked along the
front line and made public, the effects roll and the bonus phases open."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Fold
from grognard.engine.orders import Words
from grognard.europa.state_types import EuropaState
from grognard.europa.surprise.orders.plan import PlanOrder, fold_surprise, planned


class StartSurpriseArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The plan started."""

    command: str


class StartSurprise(PlanOrder[StartSurpriseArgs]):
    kind = "start_surprise"
    rule = "SUR-12"
    help = "Start the surprise: half refund, the front is marked and public."
    example: ClassVar[Mapping[str, Any]] = {"command": "AGC"}
    Args = StartSurpriseArgs
    facts: ClassVar[Mapping[str, str]] = {"weather_met": "the turn's weather against the plan's trigger, SUR-05"}
    folds: ClassVar[Mapping[str, Fold]] = {"surprise_started": fold_surprise}

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        return self.checked(ctx, state, [
            Command("start_surprise", player, {"command": n})
            for n, _ in planned(state, player)])

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        command = cmd.args.get("command")
        return Words(f"Launch the surprise attack of {command}", f"Surprise: {command}")


START_SURPRISE = StartSurprise()
