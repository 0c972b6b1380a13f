"""``counter_air`` (TR-44): the phasing side's air units fly counter air against the enemy air
units in one hex under an offensive option: one air-to-air round, then as many enemy air
factors neutralised for the player turn as were sent.

The rule functions it runs are in :mod:`grognard.third_reich.play.system_counter_air`; events:
docs/formats/tr_engine.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order
from grognard.engine.state import JSON
from grognard.third_reich.play.legal import distinct, legal_counter_air
from grognard.third_reich.play.system_counter_air import (
    execute_counter_air,
    fold_counter_air_flown,
    verify_counter_air,
)
from grognard.third_reich.play.system_war import power_of, verify_enter


class CounterAirArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``air``: the air units flying; ``target``: the hex of the enemy air units."""

    target: str
    air: list[str] = msgspec.field(default_factory=list)


class CounterAir(Order[CounterAirArgs]):
    """TR-44 Counter air: one air-to-air round (1D10s from third_reich.counter_air), then as
    many enemy air factors neutralised as were sent."""

    kind = "counter_air"
    rule = "TR-44"
    Args = CounterAirArgs
    help = ("TR-44 Counter air: one air-to-air round (1D10s from third_reich.counter_air), "
            "then as many enemy air factors neutralised as were sent.")
    example: ClassVar[Mapping[str, object]] = {"air": ["ge-air2"], "target": "C11"}
    folds: ClassVar[Mapping[str, Fold]] = {"counter_air_flown": fold_counter_air_flown}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: CounterAirArgs) -> None:
        for a in args.air:  # TR-25: each power flying at war with the target's country
            if a in state["units"] and state["units"][a]["side"] == cmd.player:
                verify_enter(ctx, state, power_of(state, a), [args.target], "air")
        verify_counter_air(ctx, state, cmd)

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: CounterAirArgs,
                dice: Dice) -> list[Event]:
        return execute_counter_air(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: JSON, player: str) -> Iterable[Command]:
        return distinct(legal_counter_air)(ctx, state, player)


__all__ = ["CounterAir", "CounterAirArgs"]
