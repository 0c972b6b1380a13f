"""``overrun`` (EUR-18..EUR-20): one stack attacks an adjacent hex in the movement or
exploitation phase, paying 3 MPs plus the entry cost (EUR-19), where the terrain and weather
allow (EUR-20); the combat is an ``attack`` with ``overrun`` set (no air support, no
advance), its losses and retreats owed as after any combat."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.core.units import GROUND_TYPES, UnitType
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, as_list, hex_name
from grognard.engine.system import Places
from grognard.europa.board import on_map_of
from grognard.europa.combat.commands import (
    execute_overrun,
    fold_overrun_declared,
    overrun_openings,
    verify_overrun,
)
from grognard.europa.combat.orders.attack import ATTACK, ATTACK_FACTS, decided
from grognard.europa.order import EuropaOrder
from grognard.europa.state_types import EuropaState
from grognard.europa.words import label_of, named_units, units_words


class OverrunArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The overrunning stack's units and the hex overrun: the player's only choices."""

    units: list[str]
    target: str


class Overrun(EuropaOrder[OverrunArgs]):
    kind = "overrun"
    rule = "EUR-18"
    help = "Overrun one adjacent hex with one stack (EUR-18..20)."
    example: ClassVar[Mapping[str, Any]] = {"units": ["de-7pz"], "target": "0605"}
    Args = OverrunArgs
    facts: ClassVar[Mapping[str, str]] = {**ATTACK_FACTS, "bombardment": "none: no air support in an overrun, EUR-18"}
    folds: ClassVar[Mapping[str, Fold]] = {"overrun_declared": fold_overrun_declared}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: OverrunArgs) -> None:
        verify_overrun(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: OverrunArgs,
                dice: Dice) -> list[Event]:
        return decided(ctx, state, execute_overrun(ctx, state, cmd, dice), dice,
                       {**self.folds, **ATTACK.folds})

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        """EUR-18 One overrun per stack and adjacent enemy hex, with every unit of the stack
        that can pay the MPs (EUR-19)."""
        if state["combat"]["pending"] is not None:
            return []
        stacks: dict[str, list[str]] = {}
        placed = on_map_of(ctx, state)  # the units on the map, once per position
        for uid, u in placed:
            if u["side"] == player and UnitType(u["type"]) in GROUND_TYPES:
                stacks.setdefault(u["hex"], []).append(uid)
        m = ctx.scenario.map
        enemy = {u["hex"] for _, u in placed if u["side"] != player}
        out: list[Command] = []

        def check(ids: list[str], target: str) -> list[Command]:
            return self.checked(ctx, state, [
                Command("overrun", player, {"units": ids, "target": target})])

        for here, ids in sorted(stacks.items()):
            for j in m.neighbor_indices(m.index_of_label(here)):
                target = m.label(int(j))
                if target not in enemy:
                    continue
                # the stack's refusals found before the orders are checked (the same
                # orders pass: a unit left out of ``opening`` fails every order naming it)
                opening = overrun_openings(ctx, state, player, here, target, ids)
                if opening is None:
                    continue
                found = check(ids, target) if len(opening) == len(ids) else []
                if not found:
                    able = [uid for uid in opening if check([uid], target)]
                    if able:
                        found = check(able, target)
                out.extend(found)
        return out

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        target = cmd.args.get("target")
        us = as_list(cmd.args.get("units"))
        return Words(f"Overrun {hex_name(ctx, target)} with {units_words(state, us)}",
                     f"overrun {target}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        t = label_of(cmd, "target")
        return Places(t, t, (t,) if t else (), named_units(cmd, "units"))


OVERRUN = Overrun()
