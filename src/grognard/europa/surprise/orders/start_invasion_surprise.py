"""``start_invasion_surprise`` (SUR-25/26): in its initial phase a side invading a country
the scenario allows (``[europa] invasion_countries``) takes the invasion surprise when the
rules fire it (first invasion, the trigger): the effects roll, "+ # MP" markers and the
bonus phases of a surprise turn along the country's border."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words
from grognard.europa.board import europa_rules
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.surprise.turn import execute_invasion, fold_invasion, verify_invasion


class StartInvasionSurpriseArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The country invaded and what triggers the surprise (border_attack, war_declared)."""

    country: str
    trigger: str = "border_attack"


class StartInvasionSurprise(EuropaOrder[StartInvasionSurpriseArgs]):
    kind = "start_invasion_surprise"
    rule = "SUR-25"
    help = "Invasion surprise against a country (SUR-25): effects roll, markers, bonus phases."
    example: ClassVar[Mapping[str, Any]] = {"country": "ussr"}
    Args = StartInvasionSurpriseArgs
    folds: ClassVar[Mapping[str, Fold]] = {"invasion_surprise_started": fold_invasion}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command,
               args: StartInvasionSurpriseArgs) -> None:
        verify_invasion(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command,
                args: StartInvasionSurpriseArgs, dice: Dice) -> list[Event]:
        return execute_invasion(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        """SUR-25 An invasion surprise against each country the scenario allows."""
        return self.checked(ctx, state, [
            Command("start_invasion_surprise", player, {"country": c})
            for c in europa_rules(ctx.scenario).section.invasion_countries])

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        c = str(cmd.args.get("country"))
        return Words(f"Surprise invasion of {c.upper() if len(c) <= 4 else c.title()}",
                     "Invasion surprise")


START_INVASION_SURPRISE = StartInvasionSurprise()
