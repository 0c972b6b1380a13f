"""``advance`` (EUR-15): after a combat empties the defender's hex, the attacker advances
any of its surviving attackers into it (none: they stay); EUR-21 stacking is checked in the
hex taken."""

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
from grognard.europa.choices import subsets
from grognard.europa.combat.commands import (
    execute_advance,
    fold_advanced,
    settled,
    side_player,
    verify_advance,
)
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.words import label_of, named_units, units_words


class AdvanceArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The surviving attackers that advance (none: stay)."""

    units: list[str] = []


class Advance(EuropaOrder[AdvanceArgs]):
    kind = "advance"
    rule = "EUR-15"
    help = "Advance surviving attackers into the emptied hex (EUR-15); none: stay."
    example: ClassVar[Mapping[str, Any]] = {"units": ["de-7pz"]}
    Args = AdvanceArgs
    folds: ClassVar[Mapping[str, Fold]] = {"advanced_after_combat": settled(fold_advanced)}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: AdvanceArgs) -> None:
        verify_advance(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: AdvanceArgs,
                dice: Dice) -> list[Event]:
        return execute_advance(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        """EUR-15 Advance with any subset of the surviving attackers, or stay (no units);
        subsets that would overstack the hex (EUR-21) are refused."""
        pending = state["combat"]["pending"]
        if pending is None or "advance" not in pending:
            return []
        if side_player(state, pending, "attacker") != player:
            return []
        subs = subsets(pending["advance"]["units"])
        return self.checked(ctx, state, [Command("advance", player, {"units": s})
                                         for s in [[], *subs]])

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        us = as_list(cmd.args.get("units"))
        return Words(f"Advance after combat: {units_words(state, us)}" if us
                     else "No advance after combat", f"advance {len(us)}" if us else "no advance")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(label_of(cmd, "hex"), None, (), named_units(cmd, "units"))


ADVANCE = Advance()
