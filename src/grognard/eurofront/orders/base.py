"""The EuroFront flavour of :class:`~grognard.engine.orders.Order`: its words and places.

Every EuroFront order adds to the engine's Order (typed ``Args``, ``verify``, ``execute``,
``folds``, ``legal``) what the layers above ask through the rule-system hooks: the order in the
rules' words (:meth:`EFOrder.words`, with a short form for buttons) and where it acts on the map
(:meth:`EFOrder.places`). Words name only what the ordering player may see: its own blocks
(their name, type and steps), hexes and its own choices, never an enemy's face-down block. So
they are for the ordering seat's eyes: another seat reads what happened through the events as
:func:`grognard.eurofront.system.event_view` shows them.
"""

from __future__ import annotations

from typing import Any, TypeVar

from grognard.core.errors import GrognardError
from grognard.engine.commands import Command, CommandSpec
from grognard.engine.context import Context
from grognard.engine.orders import Order, Words
from grognard.engine.system import Places
from grognard.eurofront.state_types import EFState

A = TypeVar("A")


def who(player: str) -> str:
    """``"Axis"`` / ``"Allies"``."""
    return player.title()


def block_words(state: EFState, uid: str) -> str:
    """One's own block in words: ``"1. Panzer (4-step armour)"``, ``"Panzer Group 3 HQ
    (3-step battle HQ)"``; a block no longer on the map by its id."""
    u = state["units"].get(uid)
    if u is None:
        for side in ("axis", "allies"):
            dead = state["destroyed"][side].get(uid)
            if dead is not None:
                return f"{dead.get('name', uid)} ({dead['kind']}, destroyed)"
        return uid
    what = f"{u['hq']} HQ" if u["kind"] == "hq" else str(u["kind"])
    return f"{u.get('name', uid)} ({int(u['steps'])}-step {what})"


def block_name(state: EFState, uid: str) -> str:
    """The block's name (its id if it has none)."""
    u = state["units"].get(uid)
    if u is None:
        for side in ("axis", "allies"):
            u = state["destroyed"][side].get(uid)
            if u is not None:
                break
    return str(u.get("name", uid)) if u is not None else uid


class EFOrder(Order[A]):
    """A EuroFront order: the engine's Order plus its words and its places on the map."""

    def words(self, ctx: Context, state: EFState, cmd: Command, args: A) -> Words:
        """The order in the rules' words (``args`` decoded); override per kind."""
        return self.plain(cmd)

    def plain(self, cmd: Command) -> Words:
        """The kind in words, for an order whose arguments do not decode."""
        words = self.kind.replace("_", " ")
        return Words(f"{who(cmd.player)}: {words}", words[:1].upper() + words[1:])

    def describe(self, ctx: Context, state: EFState, cmd: Command) -> Words:
        try:
            args = self.args(None, cmd)
        except GrognardError:
            return self.plain(cmd)
        return self.words(ctx, state, cmd, args)

    def places(self, cmd: Command) -> Places:
        """Where the order acts (target, destination, path, units); nothing by default."""
        return Places()

    def engine_spec(self) -> CommandSpec:
        """The engine's spec of this order, built once (for ``verified`` candidates)."""
        spec: CommandSpec | None = self.__dict__.get("_spec")
        if spec is None:
            spec = self.spec()
            self.__dict__["_spec"] = spec
        return spec


def arg(cmd: Command, key: str) -> Any:
    """A raw argument for words and places (None when absent)."""
    return cmd.args.get(key)
