"""``rail_move`` {block, to}: EF-17/EF-03 strategic rail move of an activated block.

Strategic rail through friendly, enemy-free hexes up to ``efg_rail_hexes`` (5 hexes while the
side is under surprise disruption, EF-03); the block stands out the next Activation Phase and
stands up at its end (EF-17).
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
from grognard.eurofront.game_state import game_readings
from grognard.eurofront.operations import activated_block, movers, rail_limit, rail_range
from grognard.eurofront.orders.base import EFOrder, block_name, block_words, who
from grognard.eurofront.orders.operation.move import BlockMoveArgs, block_places
from grognard.eurofront.state_types import EFState, RailMoved


def fold_rail_moved(state: EFState, ev: Event) -> EFState:
    d = cast(RailMoved, ev.data)
    u = state["units"][d["block"]]
    u["hex"], u["moved"] = d["to"], d["phase"]
    state["activation"]["rail_moved"][str(d["block"])] = int(d["phase"])
    return state


class RailMove(EFOrder[BlockMoveArgs]):
    kind = "rail_move"
    rule = "EF-17"
    help = "EF-17/EF-03 Strategic rail move of an activated block."
    example: ClassVar[Mapping[str, str]] = {"block": "de-inf9", "to": "0405"}
    Args = BlockMoveArgs
    folds: ClassVar[Mapping[str, Fold]] = {"rail_moved": fold_rail_moved}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: BlockMoveArgs) -> None:
        """EF-17/EF-03 Strategic rail move of an activated block."""
        u = activated_block(ctx, state, cmd.player, args.block, args.to)
        if args.to not in rail_range(ctx, state, args.block):
            lim = rail_limit(ctx, state, cmd.player)
            rule = "EF-03" if lim < game_readings(ctx).efg_rail_hexes else "EF-17"
            raise IllegalOrder(rule, f"{args.to} is not within {lim} rail hexes of friendly, "
                               f"enemy-free territory from {u['hex']}")

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: BlockMoveArgs,
                dice: Dice) -> list[Event]:
        u = state["units"][args.block]
        lim = rail_limit(ctx, state, cmd.player)
        return [Event("rail_moved", {"phase": int(state["activation"]["phase"]),
                                     "block": args.block, "side": cmd.player,
                                     "from": u["hex"], "to": args.to,
                                     "limit": lim, "rules": ["EF-17"] + (
                                         ["EF-03"] if lim < game_readings(ctx).efg_rail_hexes
                                         else [])})]

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        for uid in movers(ctx, state, player):
            for to in sorted(rail_range(ctx, state, uid)):
                yield Command(self.kind, player, {"block": uid, "to": to})

    def words(self, ctx: Context, state: EFState, cmd: Command, args: BlockMoveArgs) -> Words:
        u = state["units"].get(args.block)
        frm = f" from {u['hex']}" if u is not None and u["hex"] and u["hex"] != args.to else ""
        return Words(f"{who(cmd.player)}: rail {block_words(state, args.block)}{frm} to "
                     f"{args.to} (it stands out next Activation Phase)",
                     f"Rail {block_name(state, args.block)} to {args.to}")

    def places(self, cmd: Command) -> Places:
        return block_places(cmd)
