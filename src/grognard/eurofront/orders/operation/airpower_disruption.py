"""``airpower_disruption`` {target}: EF-11..EF-16, an activated HQ rolls for Airpower Disruption.

An activated Battle, Theatre or Supreme HQ (not Tactical, not disrupted) rolls one D6 per
strength point against a land hex within its air range, instead of giving combat air support
in its operation's battles (EF-12). The row is the Air Power difference on the front (EF-08);
a negative difference may not roll (EF-11). Target Hex Disrupted places the side's marker
(EF-13; an effective result removes an opposing marker there, EF-14); Own HQ Disrupted
disrupts the HQ for the month (EF-15); a Supreme HQ out of every activated Battle HQ's range
needs two (EF-16). The dice are the referee's (stream ``eurofront.apd``).
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
from grognard.eurofront.disruption import (
    airpower_disruption,
    apd_row,
    battle_hq_in_range,
    verify_apd_target,
)
from grognard.eurofront.game_state import (
    act_of,
    ef_readings,
    operation_now,
    other,
    refresh,
    rule_on,
    rules,
)
from grognard.eurofront.model import DEFAULT_BASE, Block, HQClass
from grognard.eurofront.operations import (
    G,
    air_level,
    apd_state,
    as_block,
    board,
    distance,
    hex_arg,
    hex_of,
    operation_of,
)
from grognard.eurofront.orders.base import EFOrder, block_name, who
from grognard.eurofront.readings import OptionalRule
from grognard.eurofront.state_types import ApdResolved, EFState, Operation


class ApdArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The hex the HQ's Airpower Disruption roll targets."""

    target: str


def apd_hq(ctx: Context, state: EFState, player: str) -> tuple[Operation, Block]:
    """The operation and its activated HQ, if it may still roll (EF-11, EF-12)."""
    op = operation_of(state, player)
    if op.get("hq_lost") or op["hq"] not in state["units"]:
        raise IllegalOrder("EF-11", "the activated HQ is gone")
    if op["air"] != "support":
        raise IllegalOrder("EF-12", "the HQ has already rolled for Airpower Disruption")
    return op, as_block(op["hq"], state["units"][op["hq"]], ctx)


def difference(ctx: Context, state: EFState, player: str) -> int:
    """EF-11 The table row: the Air Power difference (a negative one may not roll)."""
    diff = apd_row(air_level(ctx, state, player), air_level(ctx, state, other(player)))
    if diff is None:
        raise IllegalOrder("EF-11", "the Air Power difference is negative: the HQ may not roll")
    return diff


def fold_apd_resolved(state: EFState, ev: Event) -> EFState:
    d = cast(ApdResolved, ev.data)
    operation_now(state)["air"] = "apd"
    markers = state["apd"]["markers"]
    if d["effective"]:
        here = list(markers.get(d["target"], []))
        if d["enemy_markers_removed"]:
            here.remove(other(d["side"]))
        here.append(d["side"])
        markers[d["target"]] = here
    if d["own_hq_disrupted"] and d["hq"] not in state["apd"]["hq_disrupted"]:
        state["apd"]["hq_disrupted"] = sorted([*state["apd"]["hq_disrupted"], d["hq"]])
    return refresh(state)


class AirpowerDisruption(EFOrder[ApdArgs]):
    kind = "airpower_disruption"
    rule = "EF-11"
    help = "EF-11 Airpower Disruption roll."
    example: ClassVar[Mapping[str, str]] = {"target": "0905"}
    Args = ApdArgs
    folds: ClassVar[Mapping[str, Fold]] = {"apd_resolved": fold_apd_resolved}

    def verify(self, ctx: Context, state: EFState, cmd: Command, args: ApdArgs) -> None:
        """EF-11 An activated Battle, Theatre or Supreme HQ rolls instead of combat air
        support."""
        _, hq = apd_hq(ctx, state, cmd.player)
        target = hex_arg(ctx, args.target, "target")
        verify_apd_target(board(ctx, state), apd_state(ctx, state), hq, hex_of(ctx, target),
                          activated=True, rules=rules(ctx))
        difference(ctx, state, cmd.player)

    def execute(self, ctx: Context, state: EFState, cmd: Command, args: ApdArgs,
                dice: Dice) -> list[Event]:
        _, hq = apd_hq(ctx, state, cmd.player)
        target = args.target
        stream = dice.stream("eurofront.apd")
        rolls = [stream.die(6) for _ in range(hq.strength)]
        battle_hqs = [as_block(h, state["units"][h], ctx)
                      for h in act_of(state).activated_this_phase
                      if h in state["units"] and state["units"][h]["side"] == cmd.player]
        in_range = battle_hq_in_range(hex_of(ctx, target), battle_hqs)
        table = ctx.tables.get("eurofront_airpower_disruption")
        _, rec = airpower_disruption(
            board(ctx, state), apd_state(ctx, state), hq, hex_of(ctx, target),
            air_level(ctx, state, cmd.player), air_level(ctx, state, other(cmd.player)), rolls,
            in_battle_range=in_range, rules=rules(ctx), readings=ef_readings(ctx), table=table)
        return [Event("apd_resolved", {
            "hq": hq.id, "side": cmd.player, "target": target, "difference": rec.difference,
            "rolls": list(rec.rolls), "results": [r.value for r in rec.results],
            "effective": rec.effective, "own_hq_disrupted": rec.own_hq_disrupted,
            "enemy_markers_removed": rec.enemy_markers_removed, "battle_hq_in_range": in_range,
            "rules": ["EF-11", "EF-12"] + (["EF-13"] if rec.effective else [])
            + (["EF-14"] if rec.enemy_markers_removed else [])
            + (["EF-15"] if rec.own_hq_disrupted else [])
            + (["EF-16"] if hq.hq_class is HQClass.SUPREME and not in_range else [])})]

    def legal(self, ctx: Context, state: EFState, player: str) -> Iterable[Command]:
        if not rule_on(ctx, OptionalRule.AIRPOWER_DISRUPTION):
            return []
        try:
            op, hq = apd_hq(ctx, state, player)
            difference(ctx, state, player)
        except (IllegalOrder, InputError):
            return []
        rng = DEFAULT_BASE.air_range(hq.hq_class) if hq.hq_class else 0
        cands = [Command(self.kind, player, {"target": lab})
                 for lab in G(ctx).labels if G(ctx).land[G(ctx).index[lab]]
                 and distance(ctx, op["hex"], lab) <= rng]
        return verified(ctx, state, self.engine_spec(), cands)

    def words(self, ctx: Context, state: EFState, cmd: Command, args: ApdArgs) -> Words:
        op = state.get("operation")
        hq = block_name(state, op['hq']) if op is not None else "the activated HQ"
        return Words(f"{who(cmd.player)}: {hq} rolls for Airpower Disruption on "
                     f"{args.target} (instead of combat air support)",
                     f"Airpower Disruption on {args.target}")

    def places(self, cmd: Command) -> Places:
        t = cmd.args.get("target")
        return Places(target=t) if isinstance(t, str) else Places()
