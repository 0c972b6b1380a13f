"""``retreat`` (TR-32): the defender's retreat hex after a combat result that lets it choose
(more than one open hex); the attackers' advance follows (``advance``, the attacker's choice).

Event ``retreated`` ``{side, hex, units, to, advanced, advance_owed?}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order, Words, hex_name
from grognard.engine.state import JSON
from grognard.engine.system import Places
from grognard.third_reich.words import label_of


class RetreatArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``to``: the hex the defender's units retreat into (one of the open hexes offered)."""

    to: str


def pending_retreat(state: JSON, cmd: Command, to: str) -> dict[str, Any]:
    """TR-32: the retreat waiting for ``cmd``'s player, into one of its open hexes."""
    p: dict[str, Any] | None = state.get("pending_retreat")
    if not p:
        raise IllegalOrder("TR-32", "no defender waits to retreat")
    if cmd.player != p["side"]:
        raise IllegalOrder("TR-32", f"{p['side']} chooses its retreat hex, not {cmd.player}")
    if to not in p["options"]:
        raise IllegalOrder("TR-32", f"the units in {p['hex']} cannot retreat to {to} "
                           f"(open: {', '.join(p['options'])})")
    return p


def fold_retreated(state: JSON, ev: Event) -> JSON:
    """TR-32: the defenders move to the hex chosen, the attackers advance."""
    d = ev.data
    for uid in d["units"]:
        state["units"][uid]["hex"] = d["to"]
    for uid in d["advanced"]:
        state["units"][uid]["hex"] = d["hex"]
    state.pop("pending_retreat", None)
    if d.get("advance_owed"):  # TR-32: the attacker's advance is its own choice (``advance``)
        state["pending_advance"] = dict(d["advance_owed"])
    return state


class Retreat(Order[RetreatArgs]):
    """TR-32 The defender's retreat hex after a combat result."""

    kind = "retreat"
    rule = "TR-32"
    Args = RetreatArgs
    help = "TR-32 The defender's retreat hex after a combat result."
    example: ClassVar[Mapping[str, object]] = {"to": "D3"}
    folds: ClassVar[Mapping[str, Fold]] = {"retreated": fold_retreated}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: RetreatArgs) -> None:
        pending_retreat(state, cmd, args.to)

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: RetreatArgs,
                dice: Dice) -> list[Event]:
        p = pending_retreat(state, cmd, args.to)
        return [Event("retreated", {"side": cmd.player, "hex": p["hex"],
                                    "units": list(p["units"]), "to": args.to,
                                    "advanced": list(p["advance"]),
                                    **({"advance_owed": p["advance_owed"]}
                                       if p.get("advance_owed") else {})})]

    def legal(self, ctx: Context, state: JSON, player: str) -> list[Command]:
        """Each open hex of the retreat waiting for ``player``."""
        p = state.get("pending_retreat")
        if not p or p["side"] != player:
            return []
        return [Command(self.kind, player, {"to": h}) for h in p["options"]]

    def describe(self, ctx: Context, state: JSON, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        to = cmd.args.get("to")
        return Words(f"Retreat to {hex_name(ctx, to)}", f"retreat to {to}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        to = label_of(cmd, "to")
        return Places(None, to, (to,) if to else (), ())


__all__ = ["Retreat", "RetreatArgs", "fold_retreated"]
