"""The 3R facts a bot plans a phase from, as the rule-system hooks give them (engine/system.py
``build_cost``, ``move_ranges``, ``front_of``, ``attacks_across``), so that nothing above the
rule packages imports a 3R module or names a 3R constant (issue 22). Each reads the seat's own
view or the map, never the whole state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from grognard.core.hexgrid import distance
from grognard.core.movement import MoveRange
from grognard.core.paths import hex_index
from grognard.engine.context import Context
from grognard.engine.state import JSON
from grognard.third_reich.board import BLOCK, hex_front
from grognard.third_reich.economy.orders.build_unit import KINDS, unit_price
from grognard.third_reich.movement.moves import unit_move_ranges


def build_cost(ctx: Context, view: JSON, unit: str) -> int | None:
    """TR-31: the build cost of force-pool ``unit`` as the seat's view shows it (its factors
    at the price list's rate); None for a unit the rules build no counter of."""
    u = view.get("units", {}).get(unit)
    if not isinstance(u, Mapping) or u.get("type") not in KINDS:
        return None
    return unit_price(dict(u))


def move_ranges(ctx: Context, view: JSON, units: Sequence[str]) -> Mapping[str, MoveRange]:
    """TR-27/TR-28: every hex each of ``units`` may reach by moving in this phase, read from
    the seat's view (:func:`~grognard.third_reich.movement.moves.unit_move_ranges`). The
    view shows another side's face-down unit (C-HIDDEN: in 3R the U-boats of the strategic
    warfare boxes, off the map) by its side and place only: it holds no hex a move meets, and
    is left out."""
    shown = view.get("units", {})
    if any(u.get("hidden") and "status" not in u for u in shown.values()):
        view = {**view, "units": {uid: u for uid, u in shown.items()
                                  if not (u.get("hidden") and "status" not in u)}}
    return unit_move_ranges(ctx, view, list(units))


def front_of(ctx: Context, label: str) -> str | None:
    """TR-02/TR-03: the front of hex ``label`` (its map region when that names a front, else
    western)."""
    m = ctx.scenario.map
    return hex_front(m, hex_index(m, label))


def attacks_across(ctx: Context, frm: str, to: str) -> bool:
    """TR-32: a unit attacks an adjacent hex, never across a sea, lake or impassable hexside."""
    m = ctx.scenario.map
    a, b = m.hex(hex_index(m, frm)), m.hex(hex_index(m, to))
    return distance(a, b) == 1 and not (m.features_between(a, b) & BLOCK)


__all__ = ["attacks_across", "build_cost", "front_of", "move_ranges"]
