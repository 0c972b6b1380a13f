"""``air_transfer`` (EUR-23 reading): in its air phase, before the missions fly, the phasing
player moves a ready air unit to a new base within its range (a city or one of the side's
airbases that the side controls, out of enemy ZOCs, with room); the move is the unit's flight
of the game turn. The rule and the reading: :mod:`grognard.europa.air.transfer`."""

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
from grognard.europa.air import transfer
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.words import label_of, named_units


class AirTransferArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The air unit and the hex of its new base."""

    unit: str
    to: str


class AirTransfer(EuropaOrder[AirTransferArgs]):
    kind = "air_transfer"
    rule = "EUR-23"
    help = ("EUR-23 (reading) Move a ready air unit to a new base within its range before the "
            "missions fly: a city or an airbase of the side, controlled, out of enemy ZOCs, with "
            "room; the unit has flown this game turn.")
    example: ClassVar[Mapping[str, Any]] = {"unit": "de-lf1-kg-1", "to": "0926"}
    Args = AirTransferArgs
    facts: ClassVar[Mapping[str, str]] = {
        "from": "the unit's present base as the state holds it, EUR-23",
        "range": "the unit's range as the state holds it, EUR-23",
        "distance": "counted on the map from the unit's base, EUR-23",
        "capacity": "the airbase's room, the EUR-27 reading AIRBASE_CAPACITY",
        "turn": "the game turn, EUR-23"}
    folds: ClassVar[Mapping[str, Fold]] = {"air_transferred": transfer.fold_transfer}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: AirTransferArgs
               ) -> None:
        transfer.verify_transfer(ctx, state, cmd.player, args.unit, args.to)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: AirTransferArgs,
                dice: Dice) -> list[Event]:
        return transfer.execute_transfer(ctx, state, cmd.player, args.unit, args.to)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        """EUR-23 Each ready air unit of ``player`` to each hex it may transfer to."""
        return [Command(self.kind, player, {"unit": uid, "to": to})
                for uid, to in transfer.transfers(ctx, state, player)]

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        uid, to = str(cmd.args.get("unit")), cmd.args.get("to")
        u = (state.get("air_units") or {}).get(uid)
        name = f"{uid} ({u['wing']})" if isinstance(u, Mapping) and u.get("wing") else uid
        start = f" from {hex_name(ctx, u['base'])}" if isinstance(u, Mapping) else ""
        return Words(f"Transfer {name}{start} to {hex_name(ctx, to)}", f"transfer {uid} {to}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the new base, the air unit."""
        return Places(None, label_of(cmd, "to"), (), named_units(cmd, "unit"))


AIR_TRANSFER = AirTransfer()
