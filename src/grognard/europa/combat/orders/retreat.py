"""``retreat`` (EUR-15/16): the retreating side moves its units along one of the legal
retreats of ``core/retreat`` (ZOC penalties by :func:`grognard.europa.combat.retreat.retreat_along`);
a stack that cannot retreat is eliminated (empty path). Where a single retreat is legal the
engine makes it (:func:`grognard.europa.order.engine_choices`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Words, as_list, hex_name, plural
from grognard.engine.system import Places
from grognard.europa.board import on_map_hex
from grognard.europa.choices import MAX_ENUM, penalty_picks, subsets
from grognard.europa.combat.commands import (
    attack_model,
    execute_retreat,
    fold_units_retreated,
    retreat_options_from,
    settled,
    side_player,
    verify_retreat,
)
from grognard.europa.combat.commands import combat_decisions as decisions
from grognard.europa.combat.retreat import retreat_loss_candidates
from grognard.europa.order import EuropaOrder, engine_choices
from grognard.europa.state_types import EuropaState
from grognard.europa.words import path_places, units_words


class RetreatArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The retreating units (in one hex), the hexes entered, and which units pay the enemy
    ZOC penalties (EUR-16; default: the rule's own order)."""

    units: list[str]
    path: list[str]
    losses: list[str] | None = None


class Retreat(EuropaOrder[RetreatArgs]):
    kind = "retreat"
    rule = "EUR-15"
    help = "Retreat units along a legal path (EUR-15/16)."
    example: ClassVar[Mapping[str, Any]] = {"units": ["su-112rifle"], "path": ["0804", "0904"]}
    Args = RetreatArgs
    folds: ClassVar[Mapping[str, Fold]] = {"units_retreated": settled(fold_units_retreated)}

    def verify(self, ctx: Context, state: EuropaState, cmd: Command, args: RetreatArgs) -> None:
        twice = sorted({u for u in args.units if args.units.count(u) > 1})
        if twice:
            raise IllegalOrder("EUR-15", f"{', '.join(twice)} named twice: a unit retreats once")
        verify_retreat(ctx, state, cmd)

    def execute(self, ctx: Context, state: EuropaState, cmd: Command, args: RetreatArgs,
                dice: Dice) -> list[Event]:
        return engine_choices(ctx, state, execute_retreat(ctx, state, cmd, dice), dice,
                              [self], self.folds, decisions)

    def legal(self, ctx: Context, state: EuropaState, player: str) -> list[Command]:
        """EUR-15/16 Every legal retreat: per group of retreating units in one hex, each
        subset, each legal path, each choice of the units paying the enemy-ZOC penalties; a
        stack that cannot retreat has one command (empty path: eliminated)."""
        pending = state["combat"]["pending"]
        if pending is None or pending["requirements"] or not pending["retreats"]:
            return []
        order = pending["retreats"][0]
        if side_player(state, pending, order["side"]) != player:
            return []
        attack = attack_model(ctx, pending["model"])
        groups: dict[str, list[str]] = {}
        for uid in order["units"]:
            groups.setdefault(on_map_hex(state["units"][uid]), []).append(uid)
        out: list[Command] = []
        for start, ids in sorted(groups.items()):
            options = retreat_options_from(ctx, state, start, player, order["side"])
            if not options:
                out.append(Command("retreat", player, {"units": ids, "path": []}))
                continue
            for sub in subsets(ids):
                stack = [attack.unit(u)[1] for u in sub]
                for opt in options:
                    path = list(opt.path[1:])
                    for picks in penalty_picks(stack, opt.zoc_entered, retreat_loss_candidates):
                        a: dict[str, Any] = {"units": sub, "path": path}
                        if picks:
                            a["losses"] = picks
                        out.append(Command("retreat", player, a))
                        if len(out) >= MAX_ENUM:
                            return out
        return out

    def describe(self, ctx: Context, state: EuropaState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        path = as_list(cmd.args.get("path"))
        us = as_list(cmd.args.get("units"))
        who = f"{units_words(state, us)}: " if us else ""
        if not path:
            return Words(f"{who}no retreat (EUR-15: the units stay and take the loss)",
                         "no retreat")
        return Words(f"{who}retreat {plural(len(path), 'hex')} to {hex_name(ctx, path[-1])}",
                     f"retreat {len(path)} to {path[-1]}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return path_places(cmd, "unit", "units")


RETREAT = Retreat()
