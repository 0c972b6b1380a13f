"""``build_unit`` (TR-31/TR-64/TR-75): a power buys a force-pool unit and places it at a legal
build location (TR-64).

The rule functions it runs are in :mod:`grognard.third_reich.play.system_builds`; events:
docs/formats/tr_engine.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order, Words, hex_name
from grognard.engine.state import JSON
from grognard.engine.system import Places
from grognard.third_reich.play.system_builds import (
    execute_build_unit,
    fold_unit_built,
    legal_build_unit,
    verify_build_unit,
)
from grognard.third_reich.words import label_of, named_units, unit_name


class BuildUnitArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``unit``: the force-pool unit bought; ``hex``: where it is placed."""

    unit: str
    hex: str


class BuildUnit(Order[BuildUnitArgs]):
    """TR-31/TR-64/TR-75 Buy a force-pool unit and place it at a legal build location."""

    kind = "build_unit"
    rule = "TR-75"
    Args = BuildUnitArgs
    help = "TR-31/TR-64/TR-75 Buy a force-pool unit and place it at a legal build location."
    example: ClassVar[Mapping[str, object]] = {"unit": "ger-inf20", "hex": "D11"}
    folds: ClassVar[Mapping[str, Fold]] = {"unit_built": fold_unit_built}

    def verify(self, ctx: Context, state: JSON, cmd: Command, args: BuildUnitArgs) -> None:
        verify_build_unit(ctx, state, cmd)

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: BuildUnitArgs,
                dice: Dice) -> list[Event]:
        return execute_build_unit(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: JSON, player: str) -> Iterable[Command]:
        return legal_build_unit(ctx, state, player)

    def describe(self, ctx: Context, state: JSON, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        return Words(f"Place {unit_name(state, a.get('unit'))} in {hex_name(ctx, a.get('hex'))}",
                     f"place in {a.get('hex')}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(None, label_of(cmd, "hex"), (), named_units(cmd, "unit"))


__all__ = ["BuildUnit", "BuildUnitArgs"]
