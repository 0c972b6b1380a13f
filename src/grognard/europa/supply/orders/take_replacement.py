"""``take_replacement`` (EUR-33): spend REs of the side's pools to rebuild a cadre to full
strength, or return a destroyed unit (cadre or single step) at a supply source."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError
from grognard.core.units import GROUND_TYPES, UnitType
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, hex_name
from grognard.engine.system import Places
from grognard.europa.board import europa_rules
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.supply.commands import (
    execute_take_replacement,
    fold_replacement_taken,
    placement_check,
    returning,
    verify_replacement_unit,
    verify_take_replacement_cmd,
)
from grognard.europa.supply.replacements import ReplacementAction
from grognard.europa.words import label_of, named_units, unit_name

#: EUR-33 the replacement actions as the rules name them (for the order in words).
REPLACEMENT_WORDS = {"rebuild": "rebuild", "return_cadre": "return as a cadre",
                     "return_single_step": "return (single step)"}

class TakeReplacementArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The unit, the action (rebuild, return_cadre, return_single_step) and, for a returning
    unit, the supply source it is placed at."""

    unit: str
    action: str
    hex: str | None = None


class TakeReplacement(EuropaOrder[TakeReplacementArgs]):
    kind = "take_replacement"
    rule = "EUR-33"
    help = "Spend REs: rebuild a cadre or return a unit (EUR-33)."
    example: ClassVar[Mapping[str, Any]] = {"unit": "de-7pz", "action": "rebuild"}
    Args = TakeReplacementArgs
    folds: ClassVar[Mapping[str, Fold]] = {"replacement_taken": fold_replacement_taken}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: TakeReplacementArgs
               ) -> None:
        verify_take_replacement_cmd(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: TakeReplacementArgs,
                dice: Dice) -> list[Event]:
        return execute_take_replacement(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        """EUR-33 Each unit and action the pools allow (returning units at each supply
        source)."""
        sources = europa_rules(ctx.scenario).section.supply_sources.get(player, [])
        out: list[Command] = []
        # a returning unit's verify is its unit and action's part (the pool, its status),
        # the same at every source, and the source's (held by the enemy?), the same for
        # every returning unit: each asked once, not once per unit, action and source
        # (hundreds of orders a listing; tests/bots/test_europa_speed_s17.py)
        placed: dict[str, bool] = {}
        for uid, u in sorted(state["units"].items()):
            if u["side"] != player or UnitType(u["type"]) not in GROUND_TYPES:
                continue
            if u["status"] == "eliminated":
                for action in (ReplacementAction.RETURN_CADRE,
                               ReplacementAction.RETURN_SINGLE_STEP):
                    cmds = [Command("take_replacement", player,
                                    {"unit": uid, "action": action.value, "hex": h})
                            for h in sources]
                    if cmds and self._unit_may(ctx, state, cmds[0]):
                        out += [c for c in cmds if self._placed(ctx, state, c, placed)]
            elif u["status"] == "active" and u["cadre"]:
                out += self.checked(ctx, state, [Command(
                    "take_replacement", player,
                    {"unit": uid, "action": ReplacementAction.REBUILD.value})])
        return out

    def _unit_may(self, ctx: Context, state: EuropaState, cmd: Command) -> bool:
        """Whether ``cmd`` passes the unit and action's part of its verify (its arguments
        decoded first, as :meth:`check` does); the unit is a returning one."""
        try:
            self.args(ctx, cmd)
            cand = verify_replacement_unit(ctx, state, cmd)
        except GrognardError:
            return False
        assert returning(cand)  # an eliminated unit's status is a destroyed one
        return True

    def _placed(self, ctx: Context, state: EuropaState, cmd: Command,
                placed: dict[str, bool]) -> bool:
        """Whether a returning unit may be placed at ``cmd``'s hex (asked once per hex)."""
        h = str(cmd.args["hex"])
        got = placed.get(h)
        if got is None:
            try:
                placement_check(ctx, state, cmd)
                got = True
            except GrognardError:
                got = False
            placed[h] = got
        return got

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        act = REPLACEMENT_WORDS.get(str(a.get("action")), str(a.get("action")).replace("_", " "))
        at = f" at {hex_name(ctx, a['hex'])}" if a.get("hex") else ""
        return Words(f"Replacement: {act} {unit_name(state, a.get('unit'))}{at}", f"{act}{at}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(None, label_of(cmd, "hex"), (), named_units(cmd, "unit"))


TAKE_REPLACEMENT = TakeReplacement()
