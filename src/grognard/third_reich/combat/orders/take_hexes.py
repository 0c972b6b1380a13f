"""``take_hexes`` (TR-40): the attacker names the hexes an attrition HN result wins (and who
advances into them); the defender then withdraws (``withdraw``).

The rule functions it runs are in :mod:`grognard.third_reich.attritions`; events:
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
from grognard.engine.orders import Order, Words, and_list, as_list, hex_name
from grognard.engine.system import Places
from grognard.third_reich.attritions import (
    execute_take_hexes,
    fold_hexes_taken,
    verify_take_hexes,
)
from grognard.third_reich.combat.proposers import legal_take_hexes
from grognard.third_reich.proposals import distinct
from grognard.third_reich.state_types import TRState
from grognard.third_reich.words import map_arg, units_words


class TakeHexesArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``hexes``: the hexes won; ``advance``: the attackers advancing into each."""

    hexes: list[str]
    advance: dict[str, list[str]] = msgspec.field(default_factory=dict)


class TakeHexes(Order[TakeHexesArgs]):
    """TR-40 Name the hexes an HN result wins."""

    kind = "take_hexes"
    rule = "TR-40"
    Args = TakeHexesArgs
    help = "TR-40 Name the hexes an HN result wins."
    example: ClassVar[Mapping[str, object]] = {"hexes": ["D4"]}
    folds: ClassVar[Mapping[str, Fold]] = {"hexes_taken": fold_hexes_taken}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: TakeHexesArgs) -> None:
        verify_take_hexes(ctx, state, cmd)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: TakeHexesArgs,
                dice: Dice) -> list[Event]:
        return execute_take_hexes(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        return distinct(legal_take_hexes)(ctx, state, player)

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        hexes = as_list(cmd.args.get("hexes"))
        adv = map_arg(cmd.args.get("advance"))
        t = f"Take {and_list(hex_name(ctx, x) for x in hexes)}" if hexes else "Take no hex"
        if adv:
            t += "; advance " + "; ".join(f"{units_words(state, as_list(v))} into {hx}"
                                          for hx, v in adv.items())
        return Words(t, t if len(t) < 40 else f"take {len(hexes)} hexes")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        hexes = tuple(as_list(cmd.args.get("hexes")))
        return Places(hexes[0] if hexes else None, None, hexes, ())


__all__ = ["TakeHexes", "TakeHexesArgs"]
