"""``land_losses`` (TR-32): the side taking a land-combat CRT loss names the units it loses
(spec TR-32 reading: "The loser chooses which units are lost (as 3R4)"); TR-71: a defender's
CRT loss is never met by a replacement while a unit that is not one stands in the hex.

Owed as a decision to that side after a ``battle_resolved`` whose result leaves it a choice
(more than one legal set of units); the engine removes the units itself only when there is
none (the event's ``forced`` says why). Once every loss of the battle is chosen, the battle
settles: retreats (the defender's ``retreat`` when several hexes are open), then the
attacker's ``advance``. The rule functions are in
:mod:`grognard.third_reich.combat.battle`; event ``land_losses_chosen``
``{side, hex, units, n, rule}`` plus, from the last answer, the settlement
(docs/formats/tr_engine.md).
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
from grognard.third_reich.board import eliminate_units
from grognard.third_reich.combat.battle import (
    apply_settlement,
    land_loss_answers,
    owed_losses,
    settle_battle,
    settled_units,
    verify_land_losses_order,
)
from grognard.third_reich.state_types import LandLossesChosen, TRState
from grognard.third_reich.words import named_units, units_words


class LandLossesArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``units``: the owing side's units lost to the CRT result of the battle."""

    units: list[str]


@writes_units(settled_units)
def fold_land_losses_chosen(state: TRState, ev: Event) -> TRState:
    """TR-32: the chosen units leave the map; the last answer settles the battle."""
    s = state
    d = cast(LandLossesChosen, ev.data)
    eliminate_units(s, list(d["units"]))
    p = s["pending_battle"]
    owed = {k: v for k, v in p["owed"].items() if k != d["side"]}
    if owed:
        s["pending_battle"] = {**p, "owed": owed, "lost": [*p["lost"], *d["units"]]}
    else:
        s.pop("pending_battle", None)
        apply_settlement(s, d)
    return s


class LandLosses(Order[LandLossesArgs]):
    """TR-32 The side taking a land-combat loss names the units it loses."""

    kind = "land_losses"
    rule = "TR-32"
    Args = LandLossesArgs
    help = "TR-32 The side taking a land-combat loss names the units it loses."
    example: ClassVar[Mapping[str, object]] = {"units": ["pl-inf1"]}
    folds: ClassVar[Mapping[str, Fold]] = {"land_losses_chosen": fold_land_losses_chosen}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: LandLossesArgs) -> None:
        verify_land_losses_order(ctx, state, cmd, list(args.units))

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: LandLossesArgs,
                dice: Dice) -> list[Event]:
        p = state["pending_battle"]
        o = owed_losses(state, cmd.player)
        units = sorted(args.units)
        data: dict[str, Any] = {"side": cmd.player, "hex": p["plan"]["hex"], "units": units,
                                "n": int(o["n"]), "role": o["role"], "rule": "TR-32"}
        if set(p["owed"]) == {cmd.player}:  # the last loss owed: the battle settles
            data |= settle_battle(p["plan"], [*p["lost"], *units])
        return [Event("land_losses_chosen", data)]

    def legal(self, ctx: Context, state: TRState, player: str) -> list[Command]:
        """TR-32: the legal sets of units, weakest first (at most 64)."""
        return [Command(self.kind, player, {"units": c})
                for c in land_loss_answers(ctx, state, player)]

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        lost = as_list(cmd.args.get("units"))
        return Words(f"Lose {units_words(state, lost)} (land-combat losses)", f"lose {units_words(state, lost)}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the units it names."""
        return Places(None, None, (), named_units(cmd, "units"))


__all__ = ["LandLosses", "LandLossesArgs", "fold_land_losses_chosen"]
