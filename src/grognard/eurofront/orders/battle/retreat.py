"""``retreat`` {block, to}: a block of the side that lost a battle retreats out of its hex.

A decision of the retreating side (block game, EF-18): each of its blocks in the hex leaves to
an adjacent land hex free of enemy blocks and not enemy-controlled, of the player's choice, and
stands face down again; a block with nowhere to go is eliminated by the referee. The last
retreat runs the battle machine on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words
from grognard.engine.system import Places
from grognard.eurofront.blocks import retreat_hexes
from grognard.eurofront.game_state import battle_now
from grognard.eurofront.operations import (
    BATTLE_FOLDS,
    G,
    blocks_in,
    hex_arg,
    occ,
    own_block,
    run_on,
)
from grognard.eurofront.orders.base import EFOrder, block_name, block_words, who
from grognard.eurofront.orders.operation.move import BlockMoveArgs, block_places
from grognard.eurofront.state_types import BlockRetreated, EFState


def fold_block_retreated(state: EFState, ev: Event) -> EFState:
    """The block stands face down again - except the operation's own HQ, which stays face up
    until its operation closes (it was revealed when activated, EF-18)."""
    d = cast(BlockRetreated, ev.data)
    u = state["units"][d["block"]]
    op = state.get("operation")
    u["hex"] = d["to"]
    u["hidden"] = not (op is not None and op.get("hq") == d["block"])
    state["control"].setdefault(d["to"], d["side"])
    return state


class Retreat(EFOrder[BlockMoveArgs]):
    kind = "retreat"
    rule = "EF-18"
    help = "Retreat a block out of a lost battle."
    example: ClassVar[Mapping[str, str]] = {"block": "de-pz1", "to": "0604"}
    Args = BlockMoveArgs
    folds: ClassVar[Mapping[str, Fold]] = {"block_retreated": fold_block_retreated,
                                           **BATTLE_FOLDS}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: BlockMoveArgs) -> None:
        """Block game: each block of the retreating side leaves to an adjacent hex of its
        choice."""
        b = state["battle"]
        if b is None or b["retreat"] != cmd.player or b["owed"] is not None:
            raise IllegalOrder("EF-18", f"{cmd.player} owes no retreat now")
        uid = args.block
        u = own_block(state, cmd.player, uid)
        to = hex_arg(ctx, args.to)
        if u["hex"] != b["hex"]:
            raise IllegalOrder("EF-18", f"block {uid} is not in the battle in {b['hex']}")
        if to not in retreat_hexes(G(ctx), occ(ctx, state), state["control"], b["hex"],
                                   cmd.player):
            raise IllegalOrder("EF-18", f"{to} is not adjacent, or holds enemy blocks, or is "
                               "enemy-controlled")

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: BlockMoveArgs,
                dice: Dice) -> list[Event]:
        ev = Event("block_retreated", {"block": args.block, "side": cmd.player,
                                       "from": battle_now(state)["hex"], "to": args.to})
        return run_on(ctx, state, ev, fold_block_retreated, dice)

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        b = state["battle"]
        if b is None or b["retreat"] != player or b["owed"] is not None:
            return []
        to = retreat_hexes(G(ctx), occ(ctx, state), state["control"], b["hex"], player)
        return [Command(self.kind, player, {"block": uid, "to": t})
                for uid in blocks_in(state, b["hex"], player) for t in to]

    def words(self, ctx: Context, state: EFState, cmd: Command, args: BlockMoveArgs) -> Words:
        b = state.get("battle")
        frm = f" from {b['hex']}" if b is not None else ""
        return Words(f"{who(cmd.player)}: retreat {block_words(state, args.block)}{frm} to "
                     f"{args.to}", f"Retreat {block_name(state, args.block)} to {args.to}")

    def places(self, cmd: Command) -> Places:
        return block_places(cmd)
