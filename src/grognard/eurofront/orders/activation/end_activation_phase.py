"""``end_activation_phase``: EF-17, the end of an Activation Phase (EF-18 step 6).

Supply is tested at the end of each Activation Phase: every block out of supply loses
``efg_supply_attrition`` steps (block game; a block lost so goes face down under EF-02);
blocks that moved by rail in the previous phase stand up; paradrops that failed to link up are
reported. The order takes no choice: the referee finds who is out of supply.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command, verified
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import NoArgs, Words
from grognard.eurofront.activation import Step, end_phase
from grognard.eurofront.blocks import occupants, supplied, supply_sources
from grognard.eurofront.game_state import (
    act_of,
    destroy,
    ef_readings,
    game_readings,
    rules_of,
    store,
)
from grognard.eurofront.model import Block, BlockType, HQClass, Side
from grognard.eurofront.operations import G
from grognard.eurofront.orders.base import EFOrder, who
from grognard.eurofront.rebuild import is_delayed
from grognard.eurofront.state_types import ActivationPhaseEnded, EFState
from grognard.eurofront.state_types import Block as BlockRecord


def _model_block(uid: str, u: BlockRecord) -> Block:
    return Block(uid, Side(u["side"]), BlockType(u["kind"]), 0, int(u["max"]),
                 HQClass(u["hq"]) if u["hq"] else None)


def fold_activation_phase_ended(state: EFState, ev: Event) -> EFState:
    d = cast(ActivationPhaseEnded, ev.data)
    for uid, steps in d.get("out_of_supply", {}).items():
        if steps == 0:
            destroy(state, uid, uid in d.get("face_down", []))
        else:
            state["units"][uid]["steps"] = steps
    act, _ = end_phase(act_of(state))
    return store(state, act)


class EndActivationPhase(EFOrder[NoArgs]):
    kind = "end_activation_phase"
    rule = "EF-17"
    help = "EF-17 End the Activation Phase (supply, stand up)."
    folds: ClassVar[Mapping[str, Fold]] = {
        "activation_phase_ended": fold_activation_phase_ended}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs) -> None:
        if act_of(state).step is not Step.PHASE_END or state["operation"] is not None:
            raise IllegalOrder("EF-17", "the Activation Phase still has HQs to activate")

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs,
                dice: Dice) -> list[Event]:
        """EF-17 Supply is tested at the end of each Activation Phase: blocks out of supply
        lose ``efg_supply_attrition`` steps (block game)."""
        _, rec = end_phase(act_of(state))
        loss = game_readings(ctx).efg_supply_attrition
        attrition: dict[str, int] = {}
        face_down: list[str] = []
        o = occupants(state)
        for side in ("axis", "allies"):
            sup = supplied(G(ctx), o, state["control"], supply_sources(ctx.scenario, side),
                           side)
            for uid in sorted(state["units"]):
                u = state["units"][uid]
                if u["side"] == side and u["hex"] is not None and u["hex"] not in sup and loss:
                    attrition[uid] = max(0, int(u["steps"]) - loss)
                    if attrition[uid] == 0 and is_delayed(_model_block(uid, u), rules_of(
                            ctx.readings), ef_readings(ctx)):
                        face_down.append(uid)
        return [Event("activation_phase_ended", {"phase": rec.phase,
                                                 "stood_up": list(rec.stood_up),
                                                 "failed_link_ups": list(rec.failed_link_ups),
                                                 "out_of_supply": attrition,
                                                 "face_down": face_down})]

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        return verified(ctx, state, self.engine_spec(), [Command(self.kind, player)])

    def words(self, ctx: Context, state: EFState, cmd: Command, args: NoArgs) -> Words:
        phase = state["activation"]["phase"]
        return Words(f"{who(cmd.player)}: end Activation Phase {phase} (supply is tested; "
                     "rail-moved blocks stand up)", "End Activation Phase")
