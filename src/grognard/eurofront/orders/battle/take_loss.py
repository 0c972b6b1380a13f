"""``take_loss`` {block}: the side hit in a battle takes one step of loss on a block of its choice.

A decision of the side that took the hits (block game, EF-18), one step per order; a block
reduced to nothing is destroyed (face down under EF-02 for the delayed types). When the hits
owed reach the side's steps in the hex, the referee takes them all (``losses_forced``). The last
loss owed runs the battle on (its dice are the referee's).
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
from grognard.eurofront.game_state import battle_now, destroy, refresh
from grognard.eurofront.operations import (
    BATTLE_FOLDS,
    blocks_in,
    goes_face_down,
    own_block,
    run_on,
)
from grognard.eurofront.orders.base import EFOrder, block_name, block_words, who
from grognard.eurofront.state_types import EFState, StepLost


class LossArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The block that takes the step."""

    block: str


def fold_step_lost(state: EFState, ev: Event) -> EFState:
    d = cast(StepLost, ev.data)
    uid = str(d["block"])
    state["units"][uid]["steps"] = int(d["steps"])
    if int(d["steps"]) == 0:
        destroy(state, uid, bool(d["face_down"]))
    b = battle_now(state)
    owed = b["owed"]
    assert owed is not None, "a step loss is owed"
    owed["hits"] = int(owed["hits"]) - 1
    if owed["hits"] <= 0:
        b["owed"] = None
    return refresh(state)


class TakeLoss(EFOrder[LossArgs]):
    kind = "take_loss"
    rule = "EF-18"
    help = "Take one step of battle loss on a block."
    example: ClassVar[Mapping[str, str]] = {"block": "de-pz1"}
    Args = LossArgs
    folds: ClassVar[Mapping[str, Fold]] = {"step_lost": fold_step_lost, **BATTLE_FOLDS}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: LossArgs) -> None:
        """Block game: the side hit takes one step of loss on a block of its choice in the
        battle."""
        b = state["battle"]
        if b is None or b["owed"] is None or b["owed"]["side"] != cmd.player:
            raise IllegalOrder("EF-18", f"{cmd.player} owes no battle losses now")
        u = own_block(state, cmd.player, args.block)
        if u["hex"] != b["hex"]:
            raise IllegalOrder("EF-18", f"block {args.block} is not in the battle in {b['hex']}")

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: LossArgs,
                dice: Dice) -> list[Event]:
        uid = args.block
        u = state["units"][uid]
        ev = Event("step_lost", {"block": uid, "side": cmd.player, "hex": u["hex"],
                                 "steps": int(u["steps"]) - 1,
                                 "face_down": int(u["steps"]) == 1 and goes_face_down(ctx, u)})
        return run_on(ctx, state, ev, fold_step_lost, dice)

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        b = state["battle"]
        if b is None or b["owed"] is None or b["owed"]["side"] != player:
            return []
        return [Command(self.kind, player, {"block": uid})
                for uid in blocks_in(state, b["hex"], player)]

    def words(self, ctx: Context, state: EFState, cmd: Command, args: LossArgs) -> Words:
        b = state.get("battle")
        where = f" in the battle in {b['hex']}" if b is not None else ""
        return Words(f"{who(cmd.player)}: take one step loss on "
                     f"{block_words(state, args.block)}{where}",
                     f"Step loss: {block_name(state, args.block)}")

    def places(self, cmd: Command) -> Places:
        uid = cmd.args.get("block")
        return Places(units=(uid,)) if isinstance(uid, str) else Places()
