"""``para_move`` {block, to}: EF-09 paratroop strategic move during an activation of its side.

A 1-2 point Paratroop block, not engaged, moves up to 10 hexes to a friendly-controlled,
in-supply hex free of enemy blocks, paying Strategic Moves (one per strength point under the
default reading ``ef_para_cost``; the desert surcharge into the Med Front). Its side's
Strategic Moves are renewed each month.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command, verified
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words
from grognard.engine.system import Places
from grognard.eurofront.blocks import enemy_in
from grognard.eurofront.game_state import ef_readings, rule_on, rules
from grognard.eurofront.operations import (
    as_block,
    board,
    distance,
    free_to_move,
    hex_arg,
    hex_of,
    occ,
    operation_of,
    own_block,
    supply_of,
)
from grognard.eurofront.orders.base import EFOrder, block_name, block_words, who
from grognard.eurofront.orders.operation.move import BlockMoveArgs, block_places
from grognard.eurofront.paratroops import paratroop_move_cost, verify_paratroop_move
from grognard.eurofront.readings import OptionalRule
from grognard.eurofront.state_types import EFState, ParaMoved


def para_cost(ctx: Context, state: EFState, uid: str, to: str) -> int:
    """EF-09 The Strategic Moves the move costs (the desert surcharge included)."""
    u = state["units"][uid]
    cost, desert = paratroop_move_cost(as_block(uid, u, ctx), board(ctx, state), hex_of(ctx, to),
                                       readings=ef_readings(ctx))
    return cost + desert


def fold_para_moved(state: EFState, ev: Event) -> EFState:
    d = cast(ParaMoved, ev.data)
    u = state["units"][d["block"]]
    u["hex"], u["moved"] = d["to"], d["phase"]
    state["strategic_moves"][d["side"]] -= int(d["cost"])
    return state


class ParaMove(EFOrder[BlockMoveArgs]):
    kind = "para_move"
    rule = "EF-09"
    help = "EF-09 Paratroop strategic move."
    example: ClassVar[Mapping[str, str]] = {"block": "de-para7", "to": "0805"}
    Args = BlockMoveArgs
    folds: ClassVar[Mapping[str, Fold]] = {"para_moved": fold_para_moved}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: BlockMoveArgs) -> None:
        """EF-09 Paratroop strategic move during an activation of its side."""
        operation_of(state, cmd.player)
        uid = args.block
        u = own_block(state, cmd.player, uid)
        to = hex_arg(ctx, args.to)
        free_to_move(state, uid, u)
        if enemy_in(occ(ctx, state), u["hex"], u["side"]):
            raise IllegalOrder("EF-09", f"block {uid} is engaged in {u['hex']}")
        verify_paratroop_move(board(ctx, state), as_block(uid, u, ctx), hex_of(ctx, to),
                              int(state["strategic_moves"][cmd.player]), rules=rules(ctx),
                              readings=ef_readings(ctx))
        if enemy_in(occ(ctx, state), to, u["side"]):
            raise IllegalOrder("EF-09", f"{to} holds enemy blocks")

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: BlockMoveArgs,
                dice: Dice) -> list[Event]:
        u = state["units"][args.block]
        return [Event("para_moved", {"block": args.block, "side": cmd.player, "from": u["hex"],
                                     "to": args.to, "phase": int(state["activation"]["phase"]),
                                     "cost": para_cost(ctx, state, args.block, args.to)})]

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        op = state.get("operation")
        if not rule_on(ctx, OptionalRule.PARATROOP_MOVE) or op is None:
            return []
        if op["side"] != player or state["strategic_moves"][player] <= 0:
            return []
        phase = int(state["activation"]["phase"])
        cands = []
        sup = supply_of(ctx, state, player)
        for uid in sorted(state["units"]):
            u = state["units"][uid]
            if (u["side"] == player and u["kind"] == "paratroop" and u["hex"] is not None
                    and int(u["moved"]) != phase and 1 <= int(u["steps"]) <= 2):
                for to in sorted(sup):
                    if to != u["hex"] and distance(ctx, u["hex"], to) <= 10:
                        cands.append(Command(self.kind, player, {"block": uid, "to": to}))
        return verified(ctx, state, self.engine_spec(), cands)

    def words(self, ctx: Context, state: EFState, cmd: Command, args: BlockMoveArgs) -> Words:
        u = state["units"].get(args.block)
        frm = f" from {u['hex']}" if u is not None and u["hex"] and u["hex"] != args.to else ""
        return Words(f"{who(cmd.player)}: paratroop strategic move of "
                     f"{block_words(state, args.block)}{frm} to {args.to} (Strategic Moves "
                     f"left: {state['strategic_moves'].get(cmd.player, 0)})",
                     f"Para {block_name(state, args.block)} to {args.to}")

    def places(self, cmd: Command) -> Places:
        return block_places(cmd)
