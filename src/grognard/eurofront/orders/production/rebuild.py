"""``rebuild`` {block, at}: EF-02 production, a destroyed block comes back as a one-step cadre.

The cadre is placed on one of the side's supply sources that it controls and that holds no
enemy block; refused while the block is face down (destroyed since the last production phase,
the delayed types of EF-02) or in a hex carrying an enemy Airpower Disrupted marker (EF-13).
It costs one step's PP.
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
from grognard.engine.state_types import Obj
from grognard.engine.system import Places
from grognard.eurofront.blocks import enemy_in, step_cost, supply_sources
from grognard.eurofront.game_state import game_readings
from grognard.eurofront.operations import occ
from grognard.eurofront.orders.base import EFOrder, block_name, who
from grognard.eurofront.production import marked, pay, producing
from grognard.eurofront.state_types import Block, BlockRebuilt, EFState


class RebuildArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The destroyed block and the supply source it comes back at."""

    block: str
    at: str


def fold_block_rebuilt(state: EFState, ev: Event) -> EFState:
    d = cast(BlockRebuilt, ev.data)
    dead = state["destroyed"][d["side"]].pop(d["block"])
    cast(Obj, dead).pop("face_down", None)  # the same record, a block on the map again
    u = cast(Block, dead)
    u.update({"hex": d["at"], "steps": 1, "hidden": True, "moved": 0})
    state["units"][d["block"]] = u
    state["pp"][d["side"]] -= int(d["cost"])
    return state


class Rebuild(EFOrder[RebuildArgs]):
    kind = "rebuild"
    rule = "EF-02"
    help = "EF-02 Production: rebuild a destroyed block as a cadre."
    example: ClassVar[Mapping[str, str]] = {"block": "de-pz1", "at": "0101"}
    Args = RebuildArgs
    folds: ClassVar[Mapping[str, Fold]] = {"block_rebuilt": fold_block_rebuilt}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: RebuildArgs) -> None:
        """EF-02 A destroyed block comes back as a cadre unless it is face down; EF-13 never
        in an enemy-marked hex."""
        producing(state, cmd.player)
        uid, at = args.block, args.at
        dead = state["destroyed"][cmd.player].get(uid)
        if dead is None:
            raise InputError("args.block", f"{uid!r} is not among {cmd.player}'s destroyed "
                             "blocks")
        if dead["face_down"]:
            raise IllegalOrder("EF-02", f"block {uid} is face down: destroyed since the last "
                               "production phase, it cannot be rebuilt in this one")
        if at not in supply_sources(ctx.scenario, cmd.player):
            raise InputError("args.at", f"{at!r} is not one of {cmd.player}'s supply sources")
        if state["control"].get(at) != cmd.player or enemy_in(occ(ctx, state), at, cmd.player):
            raise IllegalOrder("PROD", f"{at} is not a friendly, enemy-free hex")
        if marked(ctx, state, at, cmd.player):
            raise IllegalOrder("EF-13", f"{at} is Airpower Disrupted: no cadre may be built "
                               "there")
        pay(state, cmd.player, step_cost(dead["kind"], game_readings(ctx)))

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: RebuildArgs,
                dice: Dice) -> list[Event]:
        dead = state["destroyed"][cmd.player][args.block]
        return [Event("block_rebuilt", {"block": args.block, "side": cmd.player,
                                        "at": args.at,
                                        "cost": step_cost(dead["kind"], game_readings(ctx))})]

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        p = state.get("production")
        if p is None or player in p["done"]:
            return []
        cands = [Command(self.kind, player, {"block": uid, "at": at})
                 for uid in sorted(state["destroyed"][player])
                 for at in supply_sources(ctx.scenario, player)]
        return verified(ctx, state, self.engine_spec(), cands)

    def words(self, ctx: Context, state: EFState, cmd: Command, args: RebuildArgs) -> Words:
        dead = state["destroyed"].get(cmd.player, {}).get(args.block)
        what = f" ({dead['kind']})" if dead is not None else ""
        cost = f" for {step_cost(dead['kind'], game_readings(ctx))} PP" if dead else ""
        name = block_name(state, args.block)
        return Words(f"{who(cmd.player)}: rebuild {name}{what} as a one-step cadre at "
                     f"{args.at}{cost}", f"Rebuild {name} at {args.at}")

    def places(self, cmd: Command) -> Places:
        uid, at = cmd.args.get("block"), cmd.args.get("at")
        return Places(to=at if isinstance(at, str) else None,
                      units=(uid,) if isinstance(uid, str) else ())
