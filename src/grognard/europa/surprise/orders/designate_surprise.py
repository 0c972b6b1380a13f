"""``designate_surprise`` (SUR-03, SUR-05..SUR-07, SUR-14): designate a rule-47 surprise plan: its command, centre hex (checked on the
map, SUR-07), SRP level and target turn; secret until it starts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.orders import Words, hex_name
from grognard.engine.system import Places
from grognard.europa.state_types import EuropaState
from grognard.europa.surprise.orders.plan import SURPRISE_LEVELS, PlanOrder, front_hexes, plan_names
from grognard.europa.words import label_of


class DesignateSurpriseArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The plan's name (its command), centre hex, SRP level, and the designation's options."""

    command: str
    centre: str
    level: int
    continent: str = "europe"
    target_turn: Any = None
    weather_trigger: Any = None
    reduced_planning: Any = None
    sources: Any = None


class DesignateSurprise(PlanOrder[DesignateSurpriseArgs]):
    kind = "designate_surprise"
    rule = "SUR-05"
    help = "Designate a rule-47 surprise plan (secret until it starts)."
    example: ClassVar[Mapping[str, Any]] = {"command": "AGC", "centre": "0504", "level": 5, "target_turn": 2}
    Args = DesignateSurpriseArgs

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        """SUR-05/07 A new plan ("plan1", "plan2", ...) centred on a front hex, at levels
        1, 3 and 5, for the earliest target turn the lead time allows (verify checks it);
        and with reduced planning (SUR-06) for this very turn where the halved lead allows
        it."""
        plans = plan_names(state, player)
        if any(p["plan"]["status"] == "planned" for p in plans.values()):
            return []
        name = f"plan{len(plans) + 1}"
        turn = int(state["turn"])
        cands = [Command("designate_surprise", player, {"command": name, "centre": c,
                                                          "level": lv, "target_turn": turn + t})
                 for c in front_hexes(ctx, state, player) for lv in SURPRISE_LEVELS
                 for t in (1, 2)]
        cands += [Command("designate_surprise", player, {
            "command": name, "centre": str(c.args["centre"]), "level": c.args["level"],
            "target_turn": turn, "reduced_planning": True}) for c in cands[::2]]
        out: list[Command] = []
        seen: set[tuple[str, int, bool]] = set()
        for cmd in self.checked(ctx, state, cands):
            key = (str(cmd.args["centre"]), int(cmd.args["level"]),
                   bool(cmd.args.get("reduced_planning")))
            if key not in seen:
                seen.add(key)
                out.append(cmd)
        return out

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        return Words(f"Plan the surprise: {a.get('command')} on {hex_name(ctx, a.get('centre'))}, "
                     f"level {a.get('level')}, turn {a.get('target_turn')}",
                     f"{a.get('command')}: {a.get('centre')} level {a.get('level')}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(label_of(cmd, "centre"), None, (), ())


DESIGNATE_SURPRISE = DesignateSurprise()
