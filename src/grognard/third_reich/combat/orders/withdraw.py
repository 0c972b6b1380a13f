"""``withdraw`` (TR-40): the defender withdraws its units from the hexes an attrition result took;
their cities pass to the attacker, the named attackers advance.

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
from grognard.engine.orders import Order, Words, hex_name
from grognard.engine.system import Places
from grognard.third_reich.attritions import (
    execute_withdraw,
    fold_withdrawn,
    verify_withdraw,
)
from grognard.third_reich.capture import with_hexes_taken
from grognard.third_reich.combat.proposers import legal_withdraw
from grognard.third_reich.proposals import distinct
from grognard.third_reich.state_types import TRState
from grognard.third_reich.words import map_arg, named_units, unit_name


class WithdrawArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``retreats``: each withdrawing unit's retreat hex (null: removed); ``cut_off``: units
    that would be cut off, withdrawn too."""

    retreats: dict[str, str | None] = msgspec.field(default_factory=dict)
    cut_off: dict[str, str | None] = msgspec.field(default_factory=dict)


class Withdraw(Order[WithdrawArgs]):
    """TR-40 The defender's retreat hex (or null: removal) per unit in the hexes taken; then
    the named attackers advance."""

    kind = "withdraw"
    rule = "TR-40"
    Args = WithdrawArgs
    help = ("TR-40 The defender's retreat hex (or null: removal) per unit in the hexes taken; "
            "then the named attackers advance.")
    example: ClassVar[Mapping[str, object]] = {"retreats": {"fr-inf1": "D3"}}
    folds: ClassVar[Mapping[str, Fold]] = {"withdrawn": with_hexes_taken(fold_withdrawn)}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: WithdrawArgs) -> None:
        verify_withdraw(ctx, state, cmd)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: WithdrawArgs,
                dice: Dice) -> list[Event]:
        return execute_withdraw(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        return distinct(legal_withdraw)(ctx, state, player)

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        moves = {**map_arg(cmd.args.get("retreats")), **map_arg(cmd.args.get("cut_off"))}
        parts = [f"{unit_name(state, x)} to {hex_name(ctx, to)}" if to
                 else f"{unit_name(state, x)} removed" for x, to in moves.items()]
        return Words("Withdraw: " + ("; ".join(parts) or "no unit"),
                     f"withdraw ({len(parts)})" if parts else "withdraw")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        ret = map_arg(cmd.args.get("retreats"))
        return Places(None, None, tuple(str(v) for v in ret.values() if v),
                      named_units(cmd, "retreats"))


__all__ = ["Withdraw", "WithdrawArgs"]
