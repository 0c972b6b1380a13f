"""``air_mission`` (EUR-23): send ready air units within range on a mission (sweep, ground_support,
interdiction, airbase_attack, strategic_bombing + objective) before sweeps resolve; the
units pay their SPs (EUR-37)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, as_list, hex_name
from grognard.engine.system import Places
from grognard.europa.air import commands, missions
from grognard.europa.air.orders.payment import verify_paid, with_payment
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.words import MISSIONS, label_of, named_units, units_words


class AirMissionArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The mission's id and kind, its target hex and (strategic bombing) objective, and the
    air units flying it (where the scenario has air units)."""

    id: str
    kind: str
    target: str | None = None
    units: list[str] | None = None
    objective: str | None = None


class AirMission(EuropaOrder[AirMissionArgs]):
    kind = "air_mission"
    rule = "EUR-23"
    help = ("EUR-23 Send ready air units within range on a mission "
            "(sweep, ground_support, interdiction, airbase_attack, "
            "strategic_bombing + objective) before sweeps resolve.")
    example: ClassVar[Mapping[str, Any]] = {"id": "m1", "kind": "ground_support", "target": "0704",
                                            "units": ["de-stg2"]}
    Args = AirMissionArgs
    folds: ClassVar[Mapping[str, Fold]] = {"air_mission_assigned": commands.fold_air_mission}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: AirMissionArgs) -> None:
        commands.verify_air_mission(ctx, state, cmd)
        verify_paid(ctx, state, cmd, "units")

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: AirMissionArgs,
                dice: Dice) -> list[Event]:
        return with_payment(ctx, state, cmd, "units",
                            commands.execute_air_mission(ctx, state, cmd, dice))

    def propose(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        return missions.propose_missions(ctx, state, player)

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        us = as_list(a.get("units"))
        what = MISSIONS.get(str(a.get("kind")), str(a.get("kind")).replace("_", " "))
        return Words(f"{what} over {hex_name(ctx, a.get('target'))}: {units_words(state, us)}",
                     f"{what.lower()} {a.get('target')}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(label_of(cmd, "target"), None, (), named_units(cmd, "units"))


AIR_MISSION = AirMission()
