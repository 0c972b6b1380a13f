"""Helpers of the Europa legal-action enumerators: a side's units on the map, the enemy hexes
next to them, every order of loss steps (EUR-12/13), unit subsets and ZOC-penalty picks
(EUR-16). Shared by the Orders' ``legal`` listers."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from grognard.engine.context import Context
from grognard.engine.state import JSON
from grognard.europa.board import on_map, on_map_of
from grognard.europa.combat.losses import Action, credit, step_action
from grognard.europa.state_types import EuropaState

#: The most commands one enumerator lists for one position.
MAX_ENUM = 400

#: The most partial step orders :func:`step_orders` looks at for one requirement: a backstop so
#: a large battle's listing stays bounded even where ``check`` refuses most orders.
MAX_STEP_NODES = 20_000


def own_units(state: EuropaState, player: str) -> list[tuple[str, JSON]]:
    return [(uid, u) for uid, u in on_map(state) if u["side"] == player]


def adjacent_enemy_hexes(ctx: Context, state: EuropaState, player: str
                          ) -> dict[str, list[tuple[str, JSON]]]:
    """Each enemy-held hex next to ``player``'s units, with those units (the units on the
    map read once per position: :func:`on_map_of`)."""
    m = ctx.scenario.map
    placed = on_map_of(ctx, state)
    enemy = {u["hex"] for _, u in placed if u["side"] != player}
    out: dict[str, list[tuple[str, JSON]]] = {}
    for uid, u in placed:
        if u["side"] != player:
            continue
        for j in m.neighbor_indices(m.index_of_label(u["hex"])):
            label = m.label(int(j))
            if label in enemy:
                out.setdefault(label, []).append((uid, u))
    return out


def step_orders(units: Sequence[Any], side: Any, requirement: Fraction,
                 check: Callable[[list[str]], bool],
                 first: Callable[[Any], bool] | None = None) -> list[list[str]]:
    """EUR-12/13 Every order of steps (unit ids, a division twice = reduce then eliminate)
    that ``check`` accepts: each step still needed before it, stopping once the requirement
    is met (or every unit is gone).

    ``first`` restricts the first step (EUR-12: an armor unit first when the rules require it):
    an order the rules refuse at its first step is never walked, so the listing is the same and
    a large battle does not walk every order of its non-armor units (a permutation tree) only
    to refuse them all. At most :data:`MAX_ENUM` orders are listed and :data:`MAX_STEP_NODES`
    partial orders looked at.
    """
    out: list[list[str]] = []
    nodes = 0

    def walk(chosen: list[str], left: dict[str, Any], credited: int) -> None:
        nonlocal nodes
        nodes += 1
        if len(out) >= MAX_ENUM or nodes > MAX_STEP_NODES:
            return
        if chosen and (credited >= requirement or not left):
            if check(chosen):
                out.append(list(chosen))
            return
        for uid in [u.id for u in units if u.id in left]:
            u = left[uid]
            if not chosen and first is not None and not first(u):
                continue
            action = step_action(u)
            nxt = dict(left)
            if action == Action.REDUCE:
                nxt[uid] = u.reduced()
            else:
                del nxt[uid]
            walk([*chosen, uid], nxt, credited + credit(u, side, action))

    walk([], {u.id: u for u in units}, 0)
    return out


def subsets(ids: Sequence[str], limit: int = 5) -> list[list[str]]:
    """Every non-empty subset of ``ids`` (in their order); with more than ``limit`` ids, the
    whole group and each single id."""
    if len(ids) > limit:
        return [list(ids), *[[i] for i in ids]]
    return [list(c) for n in range(len(ids), 0, -1) for c in itertools.combinations(ids, n)]


def penalty_picks(stack: list[Any], penalties: int, candidates: Callable[[Any], Any]
                   ) -> list[list[str]]:
    """EUR-16 Every sequence of units paying ``penalties`` ZOC penalties (none: [[]])."""
    if penalties == 0 or not stack:
        return [[]]
    out: list[list[str]] = []
    for u in candidates(stack):
        rest = [x for x in stack if x.id != u.id]
        if u.full_division and u.has_cadre_side:
            rest = [*rest, u.reduced()]
        for more in penalty_picks(rest, penalties - 1, candidates):
            out.append([u.id, *more])
    return out
