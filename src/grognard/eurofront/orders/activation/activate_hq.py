"""``activate_hq`` {hq}: EF-18 step 5, activate one HQ of the strength on one's chit.

The First Player activates as many of its chosen HQs as the score difference (all if fewer),
then the Second Player all of its own, then the First Player the rest (the activation state
machine says who acts). The HQ is revealed while its operation runs; its command range is the
block game's (``efg_command_range``, default the HQ's steps).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command, verified
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words
from grognard.engine.system import Places
from grognard.eurofront.activation import (
    ACTIVATION_STEPS,
    activate_hq,
    player_to_act,
    verify_activate_hq,
)
from grognard.eurofront.game_state import act_of, game_readings, side_of, store
from grognard.eurofront.model import Side
from grognard.eurofront.orders.base import EFOrder, block_name, block_words, who
from grognard.eurofront.state_types import EFState, HqActivated


class ActivateArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The HQ to activate."""

    hq: str


def command_range(ctx: Context, steps: int) -> int:
    """The activated HQ's command range: ``efg_command_range``, or its steps when 0."""
    r = game_readings(ctx).efg_command_range
    return r if r else steps


def fold_hq_activated(state: EFState, ev: Event) -> EFState:
    d = cast(HqActivated, ev.data)
    act, _ = activate_hq(act_of(state), Side(d["side"]), str(d["hq"]))
    state["hq_uses"][d["hq"]] = state["hq_uses"].get(d["hq"], 0) + 1
    state["units"][d["hq"]]["hidden"] = False
    state["operation"] = {"side": d["side"], "hq": d["hq"], "hex": d["hex"],
                          "range": d["range"], "air": "support"}
    return store(state, act)


class ActivateHQ(EFOrder[ActivateArgs]):
    kind = "activate_hq"
    rule = "EF-18"
    help = "EF-18 Activate one HQ of the chosen strength."
    example: ClassVar[Mapping[str, str]] = {"hq": "A1"}
    Args = ActivateArgs
    folds: ClassVar[Mapping[str, Fold]] = {"hq_activated": fold_hq_activated}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: ActivateArgs) -> None:
        """EF-18 step 5: activate one HQ of the chosen strength (it opens an operation)."""
        if state["operation"] is not None:
            raise IllegalOrder("EF-18", f"HQ {state['operation']['hq']}'s activation is under "
                               "way; end it first (end_operation)")
        verify_activate_hq(act_of(state), side_of(cmd.player), args.hq)

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: ActivateArgs,
                dice: Dice) -> list[Event]:
        act = act_of(state)
        u = state["units"][args.hq]
        return [Event("hq_activated", {"phase": act.phase, "side": cmd.player,
                                       "hq": args.hq, "step": act.step.value,
                                       "hex": u["hex"], "strength": int(u["steps"]),
                                       "range": command_range(ctx, int(u["steps"]))})]

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        act = act_of(state)
        if state["operation"] is not None or act.step not in ACTIVATION_STEPS:
            return []
        if player_to_act(act) is not side_of(player):
            return []
        return verified(ctx, state, self.engine_spec(),
                        [Command(self.kind, player, {"hq": h})
                         for h in sorted(act.hqs[side_of(player)])])

    def words(self, ctx: Context, state: EFState, cmd: Command, args: ActivateArgs) -> Words:
        u = state["units"].get(args.hq)
        where = f" in {u['hex']}" if u is not None and u["hex"] else ""
        return Words(f"{who(cmd.player)}: activate {block_words(state, args.hq)}{where}",
                     f"Activate {block_name(state, args.hq)}")

    def places(self, cmd: Command) -> Places:
        hq = cmd.args.get("hq")
        return Places(units=(hq,)) if isinstance(hq, str) else Places()
