"""``end_operation``: the activated HQ's operation ends and its battles are fought (EF-18).

Every hex holding both sides' blocks is fought out in turn (block game, :mod:`grognard.
eurofront.battle`): the blocks are revealed, each round the defender fires first, then the
attacker with its combat air support dice in the first round (EF-08 Air Power; none in a hex
the defender has Airpower Disrupted, EF-13, nor after an Airpower Disruption roll, EF-12); each
side takes its hits as step losses, and when both still stand the side that scored fewer hits
retreats (the attacker on a tie). The dice are the referee's (stream
``eurofront.battle``); the battle runs on until a side owes a decision (``take_loss``,
``retreat``) or the operation closes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import NoArgs, Words
from grognard.eurofront.blocks import contested
from grognard.eurofront.game_state import operation_now
from grognard.eurofront.operations import BATTLE_FOLDS, occ, operation_of, run_on
from grognard.eurofront.orders.base import EFOrder, block_name, who
from grognard.eurofront.state_types import EFState, OperationEnding


def fold_operation_ending(state: EFState, ev: Event) -> EFState:
    d = cast(OperationEnding, ev.data)
    operation_now(state)["closing"] = True
    state["battle_queue"] = list(d["battles"])
    return state


class EndOperation(EFOrder[NoArgs]):
    kind = "end_operation"
    rule = "EF-18"
    help = "End the HQ's activation: battles are fought."
    folds: ClassVar[Mapping[str, Fold]] = {"operation_ending": fold_operation_ending,
                                           **BATTLE_FOLDS}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs) -> None:
        operation_of(state, cmd.player)

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs,
                dice: Dice) -> list[Event]:
        op = operation_now(state)
        first = Event("operation_ending", {"side": cmd.player, "hq": op["hq"],
                                           "battles": contested(occ(ctx, state))})
        return run_on(ctx, state, first, fold_operation_ending, dice)

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        op = state.get("operation")
        if op is not None and op["side"] == player and not op.get("closing"):
            yield Command(self.kind, player)

    def words(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs) -> Words:
        op = state.get("operation")
        hq = f"{block_name(state, op['hq'])}'s" if op is not None else "the HQ's"
        return Words(f"{who(cmd.player)}: end {hq} activation (its battles are fought)",
                     "End activation")
