"""``sw_bombing`` (TR-79/TR-81): the Western Allies' bomber round against Germany, in their
strategic warfare phase, once per game turn: all UK and US bombers attack; Germany's
interceptors fire back at full factors; survivors fire at the economy at 1x (1D10s from
``third_reich.strategic_warfare``). The bombers' owner names whose bombers are lost first
(``uk`` or ``us``). TR-81: each new multiple of 15 hits in a year forces a conversion.

Event ``sw_round_fought`` (docs/formats/tr_engine.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError, IllegalOrder, InputError
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order, Words
from grognard.third_reich.board import economy_of, powers_of_side
from grognard.third_reich.state_types import TRState
from grognard.third_reich.strategic.strategic_warfare import (
    SwKind,
    record_sw_hits,
    verify_sw_target,
)
from grognard.third_reich.strategic.sw_boxes import (
    WESTERN,
    bomber_factors,
    box_factors,
    economy_powers,
    fight_round,
    fold_sw_round_fought,
    round_fought,
    split_losses,
)
from grognard.third_reich.words import power_name


class SwBombingArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``losses_first``: whose bombers take the losses first (uk or us)."""

    losses_first: str = "uk"


def losses_first(state: TRState, cmd: Command, args: SwBombingArgs) -> str:
    """TR-79: whose bombers are lost first, or the rule the order breaks."""
    if not any(p in powers_of_side(state, cmd.player) for p in WESTERN):
        raise IllegalOrder("TR-79", "the Western Allies conduct the bombing")
    first = args.losses_first
    if first not in WESTERN:
        raise InputError("args.losses_first", f"uk or us, not {first!r}")
    econ = economy_of(state)
    if round_fought(state, SwKind.BOMBERS):
        raise IllegalOrder("TR-79", "one bombing round per game turn; it has been fought")
    verify_sw_target(econ, SwKind.BOMBERS, "germany")
    if "germany" not in economy_powers(econ):
        raise IllegalOrder("TR-79", "Germany has no economy in this game")
    if not sum(bomber_factors(state, cmd.player).values()):
        raise IllegalOrder("TR-79", "no bomber factors in the Western Allies' SW boxes")
    return first


class SwBombing(Order[SwBombingArgs]):
    """TR-79/TR-81 The Western Allies' bomber round against Germany (interceptors fire
    back)."""

    kind = "sw_bombing"
    rule = "TR-79"
    Args = SwBombingArgs
    help = ("TR-79/TR-81 The Western Allies' bomber round against Germany (interceptors fire "
            "back; 1D10s from third_reich.strategic_warfare).")
    example: ClassVar[Mapping[str, object]] = {"losses_first": "uk"}
    folds: ClassVar[Mapping[str, Fold]] = {"sw_round_fought": fold_sw_round_fought}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: SwBombingArgs) -> None:
        losses_first(state, cmd, args)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: SwBombingArgs,
                dice: Dice) -> list[Event]:
        first = losses_first(state, cmd, args)
        have = bomber_factors(state, cmd.player)
        rnd = fight_round(dice, SwKind.BOMBERS, sum(have.values()),
                          box_factors(state, "germany", "interceptors"), 0)
        _, hits = record_sw_hits(economy_of(state), SwKind.BOMBERS, "germany", rnd["hits"])
        split = split_losses(rnd["bomber_losses"], have, first)
        losses: dict[str, dict[str, int]] = {p: {"bombers": n} for p, n in split.items()}
        losses["germany"] = {"interceptors": rnd["interceptor_losses"]}
        return [Event("sw_round_fought", {
            "kind": "bombers", "attacker": "western_allies", "target": "germany", "round": rnd,
            "bombers": have, "losses_first": first, "losses": losses,
            "record": hits.to_json(), "rule": "TR-79"})]

    def legal(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        try:
            have = bomber_factors(state, player)
        except GrognardError:
            return []
        firsts = [p for p, n in have.items() if n] \
            if len([n for n in have.values() if n]) > 1 else ["uk"]
        out = []
        for first in firsts:
            cmd = Command(self.kind, player, {"losses_first": first})
            try:
                losses_first(state, cmd, SwBombingArgs(first))
            except GrognardError:
                continue
            out.append(cmd)
        return out

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        lf = cmd.args.get("losses_first")
        return Words("Strategic bombing" + (f" ({power_name(lf)} takes losses first)" if lf else ""),
                     "bombing")


__all__ = ["SwBombing", "SwBombingArgs", "losses_first"]
