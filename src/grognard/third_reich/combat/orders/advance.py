"""``advance`` (TR-32): the attacker's advance after combat. "If all defenders are removed from
the attacked hex, whether by elimination or retreat, then surviving attacking units *may*
advance into that hex up to the 2 unit stacking limit" (002 "Changes to land combat"): the
attacker names which survivors advance, any of them or none, at most the limit.

Owed as a decision to the attacker once the battle has settled (losses chosen, the defender's
retreat made); an ``attack`` with ``advance`` false owes none. After an ``invade`` (TR-61..TR-63)
the invader names the survivors that land on the beach (up to 4 with the bridgehead they
place; none: they stay where they embarked and no bridgehead is placed). Event ``units_advanced``
``{side, hex, units, rule}`` (docs/formats/tr_engine.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold, writes_units
from grognard.engine.orders import Order, Words, as_list
from grognard.engine.system import Places
from grognard.third_reich.combat.battle import advance_answers, verify_advance
from grognard.third_reich.combat.invasion import fold_invasion_advance
from grognard.third_reich.state_types import TRState, UnitsAdvanced
from grognard.third_reich.words import named_units, units_words


class AdvanceArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``units``: the surviving attackers that advance into the emptied hex (none: stay)."""

    units: list[str] = msgspec.field(default_factory=list)


@writes_units(lambda ev: ev.data["units"])
def fold_units_advanced(state: TRState, ev: Event) -> TRState:
    """TR-32: the named attackers enter the hex; after an invasion (TR-62/TR-63) they are
    marked as invaders and the bridgehead is placed when any land."""
    d = cast(UnitsAdvanced, ev.data)
    for uid in d["units"]:
        state["units"][uid]["hex"] = d["hex"]
    state.pop("pending_advance", None)
    if d.get("invasion") is not None:
        fold_invasion_advance(state, d)
    return state


class Advance(Order[AdvanceArgs]):
    """TR-32 The attacker's advance after combat into the emptied hex."""

    kind = "advance"
    rule = "TR-32"
    Args = AdvanceArgs
    help = "TR-32 The attacker names the surviving attackers that advance into the emptied hex."
    example: ClassVar[Mapping[str, object]] = {"units": ["ge-arm1"]}
    folds: ClassVar[Mapping[str, Fold]] = {"units_advanced": fold_units_advanced}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: AdvanceArgs) -> None:
        verify_advance(state, cmd, list(args.units))

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: AdvanceArgs,
                dice: Dice) -> list[Event]:
        p = verify_advance(state, cmd, list(args.units))
        data: dict[str, Any] = {"side": cmd.player, "hex": p["hex"], "units": sorted(args.units),
                "rule": "TR-32"}
        if p.get("invasion") is not None:  # TR-62/TR-63: the invaders land
            bh = p["invasion"].get("bridgehead") if args.units else None
            data |= {"invasion": {"bridgehead": bh},
                     "rules": ["TR-62", *(["TR-63"] if bh else [])] if args.units else []}
        return [Event("units_advanced", data)]

    def legal(self, ctx: Context, state: TRState, player: str) -> list[Command]:
        """TR-32: the legal advances, largest and strongest first, then none."""
        return [Command(self.kind, player, {"units": c}) for c in advance_answers(state, player)]

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        going = as_list(cmd.args.get("units"))
        return Words(f"Advance {units_words(state, going)} after combat" if going else
                     "No advance after combat", f"advance {units_words(state, going)}" if going else "no advance")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the units it names."""
        return Places(None, None, (), named_units(cmd, "units"))


__all__ = ["Advance", "AdvanceArgs", "fold_units_advanced"]
