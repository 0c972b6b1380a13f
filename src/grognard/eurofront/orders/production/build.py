"""``build`` {block}: production, one more step on a block of one's own in supply.

The block game's production (EXTERNAL base rules, :mod:`grognard.eurofront.production`): a
step costs ``efg_step_cost`` PP (``efg_heavy_step_cost`` for armour, mechanised and shock);
never above the block's maximum, never out of supply, never in a hex carrying an enemy
Airpower Disrupted marker (EF-13).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.commands import Command, verified
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words
from grognard.engine.system import Places
from grognard.eurofront.blocks import step_cost
from grognard.eurofront.game_state import game_readings
from grognard.eurofront.operations import supply_of
from grognard.eurofront.orders.base import EFOrder, block_name, block_words, who
from grognard.eurofront.production import marked, pay, producing
from grognard.eurofront.state_types import EFState, StepBuilt


class BuildArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The block that gains a step."""

    block: str


def fold_step_built(state: EFState, ev: Event) -> EFState:
    d = cast(StepBuilt, ev.data)
    state["units"][d["block"]]["steps"] += 1
    state["pp"][d["side"]] -= int(d["cost"])
    return state


class Build(EFOrder[BuildArgs]):
    kind = "build"
    rule = "PROD"
    help = "Production: add one step to a block in supply."
    example: ClassVar[Mapping[str, str]] = {"block": "de-inf9"}
    Args = BuildArgs
    folds: ClassVar[Mapping[str, Fold]] = {"step_built": fold_step_built}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: BuildArgs) -> None:
        """Production: one more step on a block in supply (never in an enemy-marked hex,
        EF-13)."""
        producing(state, cmd.player)
        uid = args.block
        u = state["units"].get(uid)
        if u is None or u["side"] != cmd.player:
            raise InputError("args.block", f"{cmd.player} has no block {uid!r} on the map")
        if int(u["steps"]) >= int(u["max"]):
            raise IllegalOrder("PROD", f"block {uid} is at full strength")
        if u["hex"] not in supply_of(ctx, state, cmd.player):
            raise IllegalOrder("PROD", f"block {uid} in {u['hex']} is out of supply")
        if marked(ctx, state, u["hex"], cmd.player):
            raise IllegalOrder("EF-13", f"{u['hex']} is Airpower Disrupted: no block strength "
                               "may be rebuilt there")
        pay(state, cmd.player, step_cost(u["kind"], game_readings(ctx)))

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: BuildArgs,
                dice: Dice) -> list[Event]:
        u = state["units"][args.block]
        return [Event("step_built", {"block": args.block, "side": cmd.player,
                                     "cost": step_cost(u["kind"], game_readings(ctx))})]

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        p = state.get("production")
        if p is None or player in p["done"]:
            return []
        cands = [Command(self.kind, player, {"block": uid}) for uid in sorted(state["units"])
                 if state["units"][uid]["side"] == player]
        return verified(ctx, state, self.engine_spec(), cands)

    def words(self, ctx: Context, state: EFState, cmd: Command, args: BuildArgs) -> Words:
        u = state["units"].get(args.block)
        cost = f" for {step_cost(u['kind'], game_readings(ctx))} PP" if u is not None else ""
        where = f" in {u['hex']}" if u is not None and u["hex"] else ""
        return Words(f"{who(cmd.player)}: build one step on "
                     f"{block_words(state, args.block)}{where}{cost}",
                     f"Build {block_name(state, args.block)}")

    def places(self, cmd: Command) -> Places:
        uid = cmd.args.get("block")
        return Places(units=(uid,)) if isinstance(uid, str) else Places()
