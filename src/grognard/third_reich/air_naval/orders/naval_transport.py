"""``naval_transport`` (TR-57): fleets carry ground units from their port to another port of one
sea zone; the defender may intercept with fleets and air units (``intercept``, TR-55/TR-56).

The rule functions it runs are in :mod:`grognard.third_reich.air_naval.transports`; events:
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
from grognard.third_reich.air_naval.proposers import legal_naval_transport
from grognard.third_reich.air_naval.transports import (
    execute_naval_transport,
    fold_naval_transported,
    verify_naval_transport,
)
from grognard.third_reich.proposals import distinct
from grognard.third_reich.reactions import ReactingOrder, fold_reaction_owed
from grognard.third_reich.state_types import TRState
from grognard.third_reich.war import power_of, verify_enter
from grognard.third_reich.words import label_of, named_units, units_words


class NavalTransportArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``fleets`` carry ``units`` to the port ``to``; ``escorts``: own air units;
    ``interceptors`` / ``air_interceptors``: the defender's fleets and air units (its
    ``intercept`` answer fills them)."""

    to: str
    fleets: list[str] = msgspec.field(default_factory=list)
    units: list[str] = msgspec.field(default_factory=list)
    escorts: list[str] = msgspec.field(default_factory=list)
    interceptors: list[str] = msgspec.field(default_factory=list)
    air_interceptors: list[str] = msgspec.field(default_factory=list)


class NavalTransport(ReactingOrder[NavalTransportArgs]):
    """TR-57 Carry ground units port to port in one zone (interception TR-55/56; dice from
    third_reich.naval)."""

    kind = "naval_transport"
    rule = "TR-57"
    Args = NavalTransportArgs
    help = ("TR-57 Carry ground units port to port in one zone (interception TR-55/56; dice "
            "from third_reich.naval).")
    example: ClassVar[Mapping[str, object]] = {
        "fleets": [
            "ge-fleet2"
        ],
        "units": [
            "ge-inf5"
        ],
        "to": "F5"
    }
    folds: ClassVar[Mapping[str, Fold]] = {
        "naval_transported": fold_naval_transported,
        "reaction_owed": fold_reaction_owed,
    }

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: NavalTransportArgs) -> None:
        for x in [*args.fleets, *args.units]:  # TR-25: the port's country open to each
            if x in state["units"] and state["units"][x]["side"] == cmd.player:
                verify_enter(ctx, state, power_of(state, x), [args.to], "naval")
        verify_naval_transport(ctx, state, cmd)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: NavalTransportArgs,
                dice: Dice) -> list[Event]:
        return execute_naval_transport(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        return distinct(legal_naval_transport)(ctx, state, player)

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        t = (f"Naval transport: {units_words(state, as_list(a.get('units')))} by "
             f"{units_words(state, as_list(a.get('fleets')))} to {hex_name(ctx, a.get('to'))}")
        return Words(t, f"transport to {a.get('to')}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        to = label_of(cmd, "to")
        return Places(None, to, (to,) if to else (), named_units(cmd, "units", "fleets", "escorts"))


__all__ = ["NavalTransport", "NavalTransportArgs"]
