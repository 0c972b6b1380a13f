"""``airbase_attack`` (EUR-27): an airbase attack mission scores hits on the base and makes its air units
inactive."""

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


class AirbaseAttackArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The airbase attack mission."""

    mission: str


class AirbaseAttack(EuropaOrder[AirbaseAttackArgs]):
    kind = "airbase_attack"
    rule = "EUR-27"
    help = ("EUR-27 Attack an airbase: hits, units made inactive.")
    example: ClassVar[Mapping[str, Any]] = {"mission": "m1"}
    Args = AirbaseAttackArgs
    facts: ClassVar[Mapping[str, str]] = {
        "base": "the airbase and the mission as the state holds them, EUR-27",
        "active": "the airbase and the mission as the state holds them, EUR-27",
        "capacity": "the airbase and the mission as the state holds them, EUR-27",
        "hits": "the airbase and the mission as the state holds them, EUR-27",
        "strength": "the airbase and the mission as the state holds them, EUR-27",
        "drm": "the airbase and the mission as the state holds them, EUR-27"}
    folds: ClassVar[Mapping[str, Fold]] = {"airbase_attacked": commands.fold_airbase}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: AirbaseAttackArgs) -> None:
        commands.verify_airbase_attack_cmd(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: AirbaseAttackArgs,
                dice: Dice) -> list[Event]:
        return commands.execute_airbase_attack(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        out: list[Command] = _PROPOSE(ctx, state, player)
        return out

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return Words(f"Fly {mission_words(state, cmd.args.get('mission'))}", "fly airbase attack")


_PROPOSE = missions.proposer_for(MissionKind.AIRBASE_ATTACK)
AIRBASE_ATTACK = AirbaseAttack()
