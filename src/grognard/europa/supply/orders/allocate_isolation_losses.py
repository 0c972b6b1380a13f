"""``allocate_isolation_losses`` (EUR-32): the owner of an isolated stack fulfils its
attrition loss (50% of the stack's strength) step by step, as EUR-12 allocates losses."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words
from grognard.engine.system import Places
from grognard.europa.board import unit_json
from grognard.europa.choices import step_orders
from grognard.europa.combat.attack import Side
from grognard.europa.combat.commands import attack_model
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.supply.commands import (
    execute_isolation_losses,
    fold_isolation_losses,
    verify_isolation_losses,
)
from grognard.europa.words import label_of, losses_words, named_units


class IsolationLossesArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The isolated hex and the units, one per step."""

    hex: str
    units: list[str]


class AllocateIsolationLosses(EuropaOrder[IsolationLossesArgs]):
    kind = "allocate_isolation_losses"
    rule = "EUR-32"
    help = "Allocate an isolated stack's 50% attrition loss (EUR-32, EUR-12 steps)."
    example: ClassVar[Mapping[str, Any]] = {"hex": "0101", "units": ["su-p"]}
    Args = IsolationLossesArgs
    folds: ClassVar[Mapping[str, Fold]] = {
        "isolation_losses_allocated": fold_isolation_losses}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: IsolationLossesArgs
               ) -> None:
        verify_isolation_losses(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: IsolationLossesArgs,
                dice: Dice) -> list[Event]:
        return execute_isolation_losses(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        """EUR-32 Every order of steps fulfilling an isolated stack's attrition loss."""
        out: list[Command] = []
        for loss in (state.get("supply") or {}).get("losses", []):
            if loss["player"] != player:
                continue
            live = [uid for uid in loss["units"] if state["units"][uid]["status"] == "active"]
            model = {"attackers": [{"id": "isolation-attrition", "attack": 1, "defense": 1,
                                    "type": "infantry", "nationality": "none"}],
                     "defenders": [dict(unit_json(uid, state["units"][uid]), supply="in")
                                   for uid in live], "terrain": "clear"}
            units = attack_model(ctx, model).defenders

            def ok(choice: list[str], where: str = loss["hex"]) -> bool:
                return bool(self.checked(ctx, state, [Command(
                    "allocate_isolation_losses", player, {"hex": where, "units": choice})]))

            for choice in step_orders(units, Side.DEFENDER, Fraction(loss["requirement"]), ok):
                out.append(Command("allocate_isolation_losses", player,
                                   {"hex": loss["hex"], "units": choice}))
        return out

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        return losses_words(ctx, state, cmd)

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(label_of(cmd, "hex"), None, (), named_units(cmd, "units"))


ALLOCATE_ISOLATION_LOSSES = AllocateIsolationLosses()
