"""``delay_surprise`` (SUR-11): delay the plan (a quarter of the designation cost per turn)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.orders import Words
from grognard.europa.state_types import EuropaState
from grognard.europa.surprise.orders.plan import PlanOrder, planned


class DelaySurpriseArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The plan, the turns of delay and whether it waits for the weather."""

    command: str
    turns: Any = None
    weather_wait: Any = None


class DelaySurprise(PlanOrder[DelaySurpriseArgs]):
    kind = "delay_surprise"
    rule = "SUR-11"
    help = "Delay the plan (a quarter of the designation cost per turn)."
    example: ClassVar[Mapping[str, Any]] = {"command": "AGC", "turns": 1}
    Args = DelaySurpriseArgs

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        return self.checked(ctx, state, [
            Command("delay_surprise", player, {"command": n, "turns": 1})
            for n, _ in planned(state, player)])

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        return Words(f"Delay the surprise of {a.get('command')} by {a.get('turns')} turn(s)",
                     f"delay {a.get('command')}")


DELAY_SURPRISE = DelaySurprise()
