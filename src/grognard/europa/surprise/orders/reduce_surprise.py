"""``reduce_surprise`` (SUR-09): reduce the plan's SRP level on the attack turn (80% of the difference back)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.orders import Words
from grognard.europa.state_types import EuropaState
from grognard.europa.surprise.orders.plan import PlanOrder, planned


class ReduceSurpriseArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The plan and its new, lower level."""

    command: str
    level: int


class ReduceSurprise(PlanOrder[ReduceSurpriseArgs]):
    kind = "reduce_surprise"
    rule = "SUR-09"
    help = "Reduce the plan's SRP level on the attack turn (80% back)."
    example: ClassVar[Mapping[str, Any]] = {"command": "AGC", "level": 3}
    Args = ReduceSurpriseArgs

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        return self.checked(ctx, state, [
            Command("reduce_surprise", player, {"command": n, "level": lv})
            for n, p in planned(state, player) for lv in range(1, 10)])

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        return Words(f"Reduce the surprise of {a.get('command')} to level {a.get('level')}",
                     f"{a.get('command')} to level {a.get('level')}")


REDUCE_SURPRISE = ReduceSurprise()
