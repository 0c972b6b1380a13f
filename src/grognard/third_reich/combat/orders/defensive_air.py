"""``defensive_air`` (TR-35/TR-48): the defender's answer to a pending ``attack`` - the air
units flying defensive support into the attacked hex (or none); the attack then runs with
them (:class:`~grognard.third_reich.reactions.ReactionOrder`).

Events ``reaction_made`` ``{side, reaction, kind, args}`` then the attack's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import msgspec

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.orders import Words, as_list
from grognard.engine.system import Places
from grognard.third_reich.reactions import ReactionOrder
from grognard.third_reich.state_types import TRState
from grognard.third_reich.words import named_units, units_words


class DefensiveAirArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``defensive_air``: the defender's air units (none: no defensive support)."""

    defensive_air: list[str] | None = None


class DefensiveAir(ReactionOrder[DefensiveAirArgs]):
    """TR-35/TR-48 The defender's defensive air support of the attacked hex."""

    kind = "defensive_air"
    rule = "TR-35"
    Args = DefensiveAirArgs
    help = ("TR-35/TR-48 The defender's air units flying defensive support into the attacked "
            "hex (or none).")
    example: ClassVar[Mapping[str, object]] = {"defensive_air": ["fr-air1"]}

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        air = as_list(cmd.args.get("defensive_air"))
        return Words(f"Defensive air support: {units_words(state, air) or 'none'}",
                     f"defensive air: {len(air)}" if air else "no defensive air")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(None, None, (), named_units(cmd, "defensive_air"))


__all__ = ["DefensiveAir", "DefensiveAirArgs"]
