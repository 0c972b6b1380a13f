"""``move_surprise_centre`` (SUR-07, SUR-10): move the plan's centre hex (the level falls one per hex moved)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.orders import Words, hex_name
from grognard.engine.system import Places
from grognard.europa.state_types import EuropaState
from grognard.europa.surprise.orders.plan import PlanOrder, planned
from grognard.europa.words import label_of


class MoveSurpriseCentreArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The plan and the new centre hex."""

    command: str
    to: str


class MoveSurpriseCentre(PlanOrder[MoveSurpriseCentreArgs]):
    kind = "move_surprise_centre"
    rule = "SUR-10"
    help = "Move the plan's centre hex (level falls one per hex)."
    example: ClassVar[Mapping[str, Any]] = {"command": "AGC", "to": "0505"}
    Args = MoveSurpriseCentreArgs
    facts: ClassVar[Mapping[str, str]] = {"hexes": "the distance moved, from the map, SUR-10"}

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        m = ctx.scenario.map
        cands = []
        for n, p in planned(state, player):
            centre = m.index_of_label(p["plan"]["centre"])
            cands += [Command("move_surprise_centre", player,
                              {"command": n, "to": m.label(int(j))})
                      for j in m.neighbor_indices(centre)]
        return self.checked(ctx, state, cands)

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        return Words(f"Move the surprise centre of {a.get('command')} to "
                     f"{hex_name(ctx, a.get('to'))}", f"centre to {a.get('to')}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(None, label_of(cmd, "to"), (), ())


MOVE_SURPRISE_CENTRE = MoveSurpriseCentre()
