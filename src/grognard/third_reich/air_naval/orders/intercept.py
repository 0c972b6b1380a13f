"""``intercept`` (TR-51, TR-55..TR-57, TR-61, TR-69): the defender's answer to a pending air
drop, naval transport, invasion or sea SR - its fleets (``interceptors``) and air units
(``air_interceptors``; an air drop's air units are its ``interceptors``), as a list or by
offshore hex / sea zone, or none; the order then runs with them
(:class:`~grognard.third_reich.reactions.ReactionOrder`).

Events ``reaction_made`` ``{side, reaction, kind, args}`` then the order's own.
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

Units = list[str] | dict[str, list[str]]


class InterceptArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The defender's intercepting fleets and air units (a list, or ``{offshore hex or sea
    zone: [ids]}`` for an invasion or a sea SR); none: no interception."""

    interceptors: Units | None = None
    air_interceptors: Units | None = None


class Intercept(ReactionOrder[InterceptArgs]):
    """TR-51/TR-55..TR-57/TR-61/TR-69 The defender's interception of the pending order."""

    kind = "intercept"
    rule = "TR-55"
    Args = InterceptArgs
    help = ("TR-51/TR-55..TR-57/TR-61/TR-69 The defender's interception of the pending order: "
            "its fleets/air units (or none).")
    example: ClassVar[Mapping[str, object]] = {"interceptors": ["uk-fleet1"]}

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        ints = [x for key in ("interceptors", "air_interceptors") for x in as_list(cmd.args.get(key))]
        return Words(f"Intercept with {units_words(state, ints)}" if ints else "Do not intercept",
                     f"intercept ({len(ints)})" if ints else "no interception")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(None, None, (), named_units(cmd, "interceptors", "air_interceptors"))


__all__ = ["Intercept", "InterceptArgs"]
