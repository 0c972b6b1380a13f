"""``intercept`` (EUR-25): the non-phasing player intercepts a mission with fighters in reach (escorts
first, then strike units), or lets it pass (no interceptors); interceptors pay their SPs
(EUR-37)."""

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
from grognard.europa.air import commands, missions
from grognard.europa.air.orders.payment import verify_paid, with_payment
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.words import mission_words, named_units, units_words


class InterceptArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The mission intercepted, the interceptors (none: let it pass) and their targets."""

    mission: str
    interceptors: list[str] = []
    escort_targets: dict[str, str] | None = None
    strike_targets: dict[str, str] | None = None


class Intercept(EuropaOrder[InterceptArgs]):
    kind = "intercept"
    rule = "EUR-25"
    help = ("EUR-25 Intercept a mission (non-phasing player): escorts "
            "first, then strike units; no interceptors: let it pass.")
    example: ClassVar[Mapping[str, Any]] = {"mission": "m1", "interceptors": ["su-6iap"]}
    Args = InterceptArgs
    facts: ClassVar[Mapping[str, str]] = {
        "distances": "the map distance from each interceptor's base, EUR-25"}
    folds: ClassVar[Mapping[str, Fold]] = {"interception_resolved": commands.fold_interception,
                                           "interception_declined": commands.fold_interception}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: InterceptArgs) -> None:
        commands.verify_intercept(ctx, state, cmd)
        verify_paid(ctx, state, cmd, "interceptors")

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: InterceptArgs,
                dice: Dice) -> list[Event]:
        return with_payment(ctx, state, cmd, "interceptors",
                            commands.execute_intercept(ctx, state, cmd, dice))

    def propose(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        return missions.propose_intercepts(ctx, state, player)

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        ints = as_list(cmd.args.get("interceptors"))
        mission = mission_words(state, cmd.args.get("mission"))
        t = (f"Intercept the {mission} with {units_words(state, ints)}" if ints
             else f"Do not intercept the {mission}")
        return Words(t, f"intercept ({len(ints)})" if ints else "no interception")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(None, None, (), named_units(cmd, "interceptors"))


INTERCEPT = Intercept()
