"""``place_reinforcement`` (EUR-22): in its owner's initial phase, an arriving unit of the
scenario's reinforcement schedule is placed on a hex it may enter (not enemy-occupied, not in
an enemy ZOC, within stacking EUR-21). An arrival not placed by the end of the initial phase
is delayed to the next turn's initial phase (:mod:`grognard.europa.reinforcements.schedule`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, hex_name
from grognard.engine.system import Places
from grognard.europa.order import EuropaOrder
from grognard.europa.reinforcements.schedule import (
    fold_reinforcement_placed,
    fold_reinforcements_delayed,
    placed_event,
    placements,
    verify_place,
)
from grognard.europa.state_types import EuropaState
from grognard.europa.words import label_of, named_units


class PlaceReinforcementArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The arriving unit and the hex its owner places it on."""

    unit: str
    hex: str


class PlaceReinforcement(EuropaOrder[PlaceReinforcementArgs]):
    kind = "place_reinforcement"
    rule = "EUR-22"
    help = ("Place an arriving reinforcement in your initial phase (EUR-22): on a hex it may "
            "enter, not enemy-occupied, not in an enemy ZOC, within stacking (EUR-21).")
    example: ClassVar[Mapping[str, Any]] = {"unit": "su-19a-rifle-1", "hex": "3928"}
    Args = PlaceReinforcementArgs
    facts: ClassVar[Mapping[str, str]] = {
        "turn": "the game turn", "side": "the schedule", "re_size": "the unit's record"}
    folds: ClassVar[Mapping[str, Fold]] = {
        "reinforcement_placed": fold_reinforcement_placed,
        "reinforcements_delayed": fold_reinforcements_delayed}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: PlaceReinforcementArgs
               ) -> None:
        verify_place(ctx, state, cmd.player, args.unit, args.hex)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: PlaceReinforcementArgs,
                dice: Dice) -> list[Event]:
        return [placed_event(ctx, state, cmd.player, args.unit, args.hex)]

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        """EUR-22 Each due reinforcement on each hex it may enter now."""
        return [Command(self.kind, player, {"unit": uid, "hex": label})
                for uid, label in placements(ctx, state, player)]

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        uid = str(cmd.args.get("unit"))
        due = (state.get("reinforcements") or {}).get(uid)
        name = (None if due is None else due["unit"].get("name")) or uid
        at = hex_name(ctx, cmd.args.get("hex"))
        return Words(f"{cmd.player.title()}: reinforcement {name} enters at {at}",
                     f"{name} enters at {at}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex the unit enters, the unit."""
        return Places(None, label_of(cmd, "hex"), (), named_units(cmd, "unit"))


PLACE_REINFORCEMENT = PlaceReinforcement()
