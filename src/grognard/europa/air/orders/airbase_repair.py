"""``airbase_repair`` (EUR-27): after the air phase the owner repairs one hit on a damaged airbase."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, hex_name
from grognard.engine.system import Places
from grognard.europa.air import commands
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.words import label_of


class AirbaseRepairArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The airbase repaired (one the state knows)."""

    base: str


class AirbaseRepair(EuropaOrder[AirbaseRepairArgs]):
    kind = "airbase_repair"
    rule = "EUR-27"
    help = ("EUR-27 Repair one airbase hit after the air phase.")
    example: ClassVar[Mapping[str, Any]] = {"base": "1004"}
    Args = AirbaseRepairArgs
    facts: ClassVar[Mapping[str, str]] = {
        "active": "the airbase as the state holds it, EUR-27",
        "capacity": "the airbase as the state holds it, EUR-27"}
    folds: ClassVar[Mapping[str, Fold]] = {"airbase_repaired": commands.fold_airbase}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: AirbaseRepairArgs) -> None:
        commands.verify_airbase_repair(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: AirbaseRepairArgs,
                dice: Dice) -> list[Event]:
        return commands.execute_airbase_repair(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        """EUR-27 Repair one hit on each damaged airbase the state knows."""
        bases = (state.get("air") or {}).get("airbases", {})
        return self.checked(ctx, state, [
            Command("airbase_repair", player, {"base": b}) for b, v in sorted(bases.items())
            if v.get("hits", 0) > 0])

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        base = cmd.args.get("base")
        return Words(f"Repair the airbase at {hex_name(ctx, base)}", f"repair {base}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(label_of(cmd, "base"), None, (), ())


AIRBASE_REPAIR = AirbaseRepair()
