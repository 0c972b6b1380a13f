"""``allocate_losses`` (EUR-12/13): the side taking a loss picks the units, one step at a
time (a division twice: reduced, then eliminated), checked by
:func:`grognard.europa.combat.losses.allocate_losses`. Where a single allocation is legal the
engine makes it (:func:`grognard.europa.order.engine_choices`)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar, Literal

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words
from grognard.engine.system import Places
from grognard.europa.choices import step_orders
from grognard.europa.combat.attack import Side
from grognard.europa.combat.commands import (
    attack_model,
    execute_allocate_losses,
    fold_losses_allocated,
    settled,
    side_player,
    verify_allocate_losses,
)
from grognard.europa.combat.commands import combat_decisions as decisions
from grognard.europa.combat.losses import armor_first
from grognard.europa.combat.orders.retreat import RETREAT
from grognard.europa.order import EuropaOrder, engine_choices
from grognard.europa.state_types import EuropaState
from grognard.europa.words import label_of, losses_words, named_units


class AllocateLossesArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """Which side's requirement (default: the player's own) and the units, one per step."""

    units: list[str]
    side: Literal["attacker", "defender"] | None = None


class AllocateLosses(EuropaOrder[AllocateLossesArgs]):
    kind = "allocate_losses"
    rule = "EUR-12"
    help = "Allocate a side's loss requirement (EUR-12)."
    example: ClassVar[Mapping[str, Any]] = {"side": "defender", "units": ["su-112rifle"]}
    Args = AllocateLossesArgs
    folds: ClassVar[Mapping[str, Fold]] = {"losses_allocated": settled(fold_losses_allocated)}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: AllocateLossesArgs
               ) -> None:
        verify_allocate_losses(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: AllocateLossesArgs,
                dice: Dice) -> list[Event]:
        return engine_choices(ctx, state, execute_allocate_losses(ctx, state, cmd, dice), dice,
                              [self, RETREAT], {**self.folds, **RETREAT.folds}, decisions)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        """EUR-12 Every legal allocation of ``player``'s loss requirement in the pending
        combat."""
        pending = state["combat"]["pending"]
        if pending is None:
            return []
        attack = attack_model(ctx, pending["model"])
        out: list[Command] = []
        for req in pending["requirements"]:
            if side_player(state, pending, req["side"]) != player:
                continue
            side = Side(req["side"])
            units = [u for u in attack.side_units(side) if u.id in req["units"]]

            def ok(choice: list[str], side_name: str = req["side"]) -> bool:
                return bool(self.checked(ctx, state, [Command(
                    "allocate_losses", player, {"side": side_name, "units": choice})]))

            need = Fraction(req["requirement"])
            armor = need > 0 and armor_first(attack, side, ctx.tables)
            for choice in step_orders(units, side, need, ok,
                                      first=is_armor_capable if armor else None):
                out.append(Command("allocate_losses", player,
                                   {"side": req["side"], "units": choice}))
        return out

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return losses_words(ctx, state, cmd)

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(label_of(cmd, "hex"), None, (), named_units(cmd, "units"))


def is_armor_capable(unit: Any) -> bool:
    """EUR-12 A unit that may take the first step of an armor-first loss."""
    return bool(unit.is_armor_capable)


ALLOCATE_LOSSES = AllocateLosses()
