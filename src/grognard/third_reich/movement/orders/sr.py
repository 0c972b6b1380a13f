"""``sr`` (TR-66..TR-70): strategic redeployment of one unit: by land (TR-67/TR-68), by sea with
escorts and interception (TR-69, ``intercept``), a fleet's own (TR-70) or an airborne unit's
air-landing SR (TR-53).

The rule functions it runs are in :mod:`grognard.third_reich.movement.air_srs`; events:
docs/formats/tr_engine.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command, Verify
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, hex_name
from grognard.engine.system import Places
from grognard.third_reich.movement.air_srs import execute_sr_any, verify_sr_any
from grognard.third_reich.movement.moves import fold_sr_made
from grognard.third_reich.movement.proposers import any_sr, legal_sr
from grognard.third_reich.movement.sea_srs import fold_sea_sr_made
from grognard.third_reich.proposals import distinct
from grognard.third_reich.reactions import ReactingOrder, fold_reaction_owed
from grognard.third_reich.state_types import TRState
from grognard.third_reich.words import unit_name, via_places


class StrategicRedeploymentArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``unit`` to ``to``; ``kind``: land (default), sea, fleet or air_landing; ``via``: an
    air-landing SR's stop; ``route``: a sea SR's zones; ``escorts``: its escorting fleets by
    zone; ``interceptors``: the defender's fleets by zone (its ``intercept`` answer fills
    them)."""

    unit: str
    to: str
    kind: str = "land"
    via: str | None = None
    route: list[str] | None = None
    escorts: dict[str, list[str]] | None = None
    interceptors: dict[str, list[str]] | None = None


class StrategicRedeployment(ReactingOrder[StrategicRedeploymentArgs]):
    """TR-66..TR-70 Strategic redeployment by land, sea (kind=sea: escorts, interception from
    third_reich.sea_sr), a fleet's own (kind=fleet) or TR-53 an airborne unit's air-landing SR
    (kind=air_landing)."""

    kind = "sr"
    rule = "TR-66"
    Args = StrategicRedeploymentArgs
    help = ("TR-66..TR-70 Strategic redeployment by land, sea (kind=sea: escorts, "
            "interception from third_reich.sea_sr), a fleet's own (kind=fleet) or TR-53 an "
            "airborne unit's air-landing SR (kind=air_landing).")
    example: ClassVar[Mapping[str, object]] = {"unit": "ge-inf2", "to": "C7"}
    folds: ClassVar[Mapping[str, Fold]] = {
        "sr_made": fold_sr_made,
        "sea_sr_made": fold_sea_sr_made,
        "reaction_owed": fold_reaction_owed,
    }

    def verify(self, ctx: Context, state: TRState, cmd: Command,
               args: StrategicRedeploymentArgs) -> None:
        verify_sr_any(ctx, state, cmd)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: StrategicRedeploymentArgs,
                dice: Dice) -> list[Event]:
        return execute_sr_any(ctx, state, cmd, dice)

    def propose(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        return distinct(legal_sr)(ctx, state, player)

    def any_legal(self, ctx: Context, state: TRState, player: str, verify: Verify) -> bool:
        """Whether :meth:`propose` has a legal SR (the fleet SRs asked first)."""
        return any_sr(ctx, state, player, verify)

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        kind = {"land": "SR", "sea": "sea SR", "fleet": "fleet SR",
                "air_landing": "air-landing SR"}.get(str(a.get("kind") or "land"), "SR")
        via = f" via {hex_name(ctx, a['via'])}" if a.get("via") else ""
        t = f"{kind}: {unit_name(state, a.get('unit'))} to {hex_name(ctx, a.get('to'))}{via}"
        return Words(t[0].upper() + t[1:], f"{kind} to {a.get('to')}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return via_places(cmd)


__all__ = ["StrategicRedeployment", "StrategicRedeploymentArgs"]
