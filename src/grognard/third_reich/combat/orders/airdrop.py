"""``airdrop`` (TR-51): an airborne unit air-lands in a hex; the defender may intercept it with
air units (``intercept``), escorts fight them.

The rule functions it runs are in :mod:`grognard.third_reich.combat.airdrops`; events:
docs/formats/tr_engine.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, as_list, hex_name
from grognard.engine.system import Places
from grognard.third_reich.combat.airdrops import execute_airdrop, fold_airdropped, verify_airdrop
from grognard.third_reich.combat.proposers import legal_airdrop
from grognard.third_reich.proposals import distinct
from grognard.third_reich.reactions import ReactingOrder, fold_reaction_owed
from grognard.third_reich.state_types import TRState
from grognard.third_reich.war import power_of, verify_enter
from grognard.third_reich.words import label_of, named_units, unit_name, units_words


class AirdropArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``unit``: the airborne unit; ``to``: the landing hex; ``escorts``: own air units
    escorting; ``interceptors``: the defender's air units (its ``intercept`` answer fills
    them)."""

    unit: str
    to: str
    escorts: list[str] = msgspec.field(default_factory=list)
    interceptors: list[str] = msgspec.field(default_factory=list)


class Airdrop(ReactingOrder[AirdropArgs]):
    """TR-51 Air-land an airborne unit (escorts/interceptors fight; 1D10s from
    third_reich.airborne)."""

    kind = "airdrop"
    rule = "TR-51"
    Args = AirdropArgs
    help = ("TR-51 Air-land an airborne unit (escorts/interceptors fight; 1D10s from "
            "third_reich.airborne).")
    example: ClassVar[Mapping[str, object]] = {
        "unit": "ge-para1",
        "to": "B9",
        "escorts": [
            "ge-air2"
        ]
    }
    folds: ClassVar[Mapping[str, Fold]] = {
        "airdropped": fold_airdropped,
        "reaction_owed": fold_reaction_owed,
    }

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: AirdropArgs) -> None:
        if args.unit in state["units"] and state["units"][args.unit]["side"] == cmd.player:
            verify_enter(ctx, state, power_of(state, args.unit), [args.to], "air")  # TR-25
        verify_airdrop(ctx, state, cmd)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: AirdropArgs,
                dice: Dice) -> list[Event]:
        return execute_airdrop(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        return distinct(legal_airdrop)(ctx, state, player)

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        esc = as_list(a.get("escorts"))
        t = f"Air drop: {unit_name(state, a.get('unit'))} on {hex_name(ctx, a.get('to'))}"
        if esc:
            t += f", escorted by {units_words(state, esc)}"
        return Words(t, f"drop on {a.get('to')}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        to = label_of(cmd, "to")
        return Places(to, to, (to,) if to else (), named_units(cmd, "unit", "escorts"))


__all__ = ["Airdrop", "AirdropArgs"]
