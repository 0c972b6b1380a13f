"""``airbase_surprise`` (SUR-22..SUR-24): in a non-initial phase of a surprise turn the surprise player bombs an enemy
airbase with its operative air units in range; the airbase surprise roll decides what the
enemy air units there suffer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, as_list, hex_name
from grognard.engine.system import Places
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.surprise.air_turn import (
    execute_airbase_surprise,
    fold_airbase_surprise,
    legal_airbase_surprise,
    verify_airbase_surprise,
)
from grognard.europa.words import label_of, named_units, units_words


class AirbaseSurpriseArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The enemy airbase (hex) and the bombing air units."""

    base: str
    attackers: list[str]


class AirbaseSurprise(EuropaOrder[AirbaseSurpriseArgs]):
    kind = "airbase_surprise"
    rule = "SUR-22"
    help = "Bomb an enemy airbase in a surprise turn: airbase surprise roll (SUR-22/SUR-24)."
    example: ClassVar[Mapping[str, Any]] = {"base": "0906", "attackers": ["de-kg51"]}
    Args = AirbaseSurpriseArgs
    folds: ClassVar[Mapping[str, Fold]] = {"airbase_surprise_resolved": fold_airbase_surprise}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: AirbaseSurpriseArgs) -> None:
        verify_airbase_surprise(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: AirbaseSurpriseArgs,
                dice: Dice) -> list[Event]:
        return execute_airbase_surprise(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        return legal_airbase_surprise(ctx, state, player, self.checked)

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        base = cmd.args.get("base")
        return Words(f"Surprise airbase attack on {hex_name(ctx, base)} with "
                     f"{units_words(state, as_list(cmd.args.get('attackers')))}", f"hit {base}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(label_of(cmd, "base"), None, (), named_units(cmd, "attackers"))


AIRBASE_SURPRISE = AirbaseSurprise()
