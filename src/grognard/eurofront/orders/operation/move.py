"""``move`` {block, to}: a block of the activated HQ's operation moves (EF-18 step 5, block game).

A block within the activated HQ's command range, not yet moved this Activation Phase nor
rail-moved in the last (EF-17), moves up to its allowance (weather-adjusted: mud 1 hex, snow
half) through land hexes; it stops on entering enemy blocks and may not pass through them; a
block engaged in its hex leaves only by retreat. Entering a hex free of enemy blocks takes its
control.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words
from grognard.engine.system import Places
from grognard.eurofront.blocks import enemy_in, weather_mp
from grognard.eurofront.operations import activated_block, move_range, movers, occ
from grognard.eurofront.orders.base import EFOrder, block_name, block_words, who
from grognard.eurofront.state_types import BlockMoved, EFState


class BlockMoveArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The block to move and the hex it ends in (move, rail_move, para_move)."""

    block: str
    to: str


def block_places(cmd: Command) -> Places:
    """A block order's places: the block, and the hex it goes to."""
    uid, to = cmd.args.get("block"), cmd.args.get("to")
    return Places(target=to if isinstance(to, str) else None,
                  to=to if isinstance(to, str) else None,
                  units=(uid,) if isinstance(uid, str) else ())


def fold_block_moved(state: EFState, ev: Event) -> EFState:
    d = cast(BlockMoved, ev.data)
    u = state["units"][d["block"]]
    u["hex"], u["moved"] = d["to"], d["phase"]
    if not any(o["hex"] == d["to"] and o["side"] != u["side"]
               for o in state["units"].values()):
        state["control"][d["to"]] = u["side"]
    return state


class Move(EFOrder[BlockMoveArgs]):
    kind = "move"
    rule = "EF-18"
    help = "Move an activated block (stops on entering enemy blocks)."
    example: ClassVar[Mapping[str, str]] = {"block": "de-pz1", "to": "0705"}
    Args = BlockMoveArgs
    folds: ClassVar[Mapping[str, Fold]] = {"block_moved": fold_block_moved}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: BlockMoveArgs) -> None:
        """Block game: move an activated block (see the module docstring)."""
        uid, to = args.block, args.to
        u = activated_block(ctx, state, cmd.player, uid, to)
        if enemy_in(occ(ctx, state), u["hex"], u["side"]):
            raise IllegalOrder("EF-18", f"block {uid} is engaged in {u['hex']}; it leaves only "
                               "by retreat")
        if to not in move_range(ctx, state, uid):
            raise IllegalOrder("EF-18", f"block {uid} cannot reach {to} this phase (allowance "
                               f"{weather_mp(int(u['mp']), state['activation']['weather'])} "
                               "hexes, no passing through enemy blocks)")

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: BlockMoveArgs,
                dice: Dice) -> list[Event]:
        u = state["units"][args.block]
        return [Event("block_moved", {"block": args.block, "side": cmd.player,
                                      "from": u["hex"], "to": args.to,
                                      "phase": int(state["activation"]["phase"])})]

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        o = occ(ctx, state)
        for uid in movers(ctx, state, player):
            if enemy_in(o, state["units"][uid]["hex"], player):
                continue
            for to in sorted(move_range(ctx, state, uid)):
                yield Command(self.kind, player, {"block": uid, "to": to})

    def words(self, ctx: Context, state: EFState, cmd: Command, args: BlockMoveArgs) -> Words:
        u = state["units"].get(args.block)
        # told after the move (the log), the block already stands in ``to``: no "from"
        frm = f" from {u['hex']}" if u is not None and u["hex"] and u["hex"] != args.to else ""
        return Words(f"{who(cmd.player)}: move {block_words(state, args.block)}{frm} "
                     f"to {args.to}", f"{block_name(state, args.block)} to {args.to}")

    def places(self, cmd: Command) -> Places:
        return block_places(cmd)
