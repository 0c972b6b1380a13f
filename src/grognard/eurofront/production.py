"""The EuroFront block game's month-end production phase: the checks its orders share.

EuroFront's production rules are EXTERNAL; the generic mechanism (readings in
:class:`~grognard.eurofront.blocks.BlockGameReadings`): when both players place zero chits the
month ends; each side receives the PP of the cities it controls and, in any order and as often
as its PP allow, (both players are asked at once; neither waits for the other) gives the
orders of :mod:`grognard.eurofront.orders.production`:

* ``build`` {block}: adds one step to a block on the map in supply (``efg_step_cost`` PP;
  ``efg_heavy_step_cost`` for armour, mechanised and shock); never in a hex carrying an enemy
  Airpower Disrupted marker (EF-13);
* ``rebuild`` {block, at}: puts a destroyed block back as a one-step cadre on a friendly supply
  source; refused while the block is face down (EF-02) or in an enemy-marked hex (EF-13);
* ``allocate_uboats`` {pp} (Axis) / ``allocate_escorts`` {pp} (Allies): EF-04..EF-06 programmes,
  in lots of 5 PP;
* ``remove_apd_marker`` {hex}: EF-14, the owner removes one of its markers;
* ``end_production``.

When both have ended production the next month starts: face-down blocks turn up (EF-02),
Airpower Disrupted markers decay and disrupted HQs recover (EF-14/EF-15), the U-boat rolls of
the new month are made (EF-04..EF-07) and Strategic Moves are renewed (EF-09).
"""

from __future__ import annotations

from typing import cast

from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.eurofront.blocks import income
from grognard.eurofront.game_state import game_readings, other, production_now, rule_on, side_of
from grognard.eurofront.model import Side, Turn
from grognard.eurofront.operations import G
from grognard.eurofront.readings import OptionalRule
from grognard.eurofront.state_types import EFState, Production, Programme, ProgrammeAllocated
from grognard.eurofront.uboats import (
    PROGRAM_PP,
    SpainStatus,
    UboatHistory,
    UboatTurn,
    verify_uboat_history,
)


def month_income(ctx: Context, state: EFState) -> dict[str, int]:
    r = game_readings(ctx)
    return {s: income(G(ctx), state["control"], s, r) for s in ("axis", "allies")}


def producing(state: EFState, player: str) -> Production:
    """The production phase, if ``player`` has not ended its own; else IllegalOrder."""
    p = state.get("production")
    if p is None or player in p["done"]:
        raise IllegalOrder("PROD", f"{player} has no production to make now")
    return p


def marked(ctx: Context, state: EFState, label: str, side: str) -> bool:
    """EF-13 Does hex ``label`` carry an enemy Airpower Disrupted marker (rule in play)?"""
    return rule_on(ctx, OptionalRule.AIRPOWER_DISRUPTION) and \
        other(side) in state["apd"]["markers"].get(label, [])


def pay(state: EFState, player: str, cost: int) -> None:
    """Refuse a purchase ``player`` cannot afford."""
    if int(state["pp"][player]) < cost:
        raise IllegalOrder("PROD", f"{player} has {state['pp'][player]} PP; this costs {cost}")


# --- U-boats and escorts (EF-04..EF-06) ---------------------------------------------------


def history(ctx: Context, state: EFState, month: Turn, uboat_pp: int, escort_pp: int,
            allied_pp: int) -> UboatHistory:
    """The U-boat history up to ``month`` (its allocations just made)."""
    cal = ctx.scenario.calendar
    norway, france = bool(cal.get("norway_axis", False)), bool(cal.get("france_axis", False))
    spain = SpainStatus(str(cal.get("spain", "neutral")))
    gibraltar = bool(cal.get("gibraltar_axis", False))

    def turn(m: Turn, u: int, e: int, allied: int) -> UboatTurn:
        return UboatTurn(m, u, e, norway, france, spain, gibraltar, allied_pp_outside_uk=allied)

    turns = [turn(Turn.parse(t["turn"]), int(t["uboat_pp"]), int(t["escort_pp"]),
                  int(t["allied_pp"])) for t in state["uboats"]]
    turns.append(turn(month, uboat_pp, escort_pp, allied_pp))
    return UboatHistory(tuple(turns))


def next_month(state: EFState) -> Turn:
    """The month the production phase leads into."""
    return Turn.parse(state["activation"]["month"]).next()


def verify_allocation(ctx: Context, state: EFState, player: str, side: str, key: Programme,
                      pp: int) -> int:
    """EF-04..EF-06 ``player`` allocates ``pp`` to its programme (``key``: ``uboat_pp`` for
    the Axis, ``escort_pp`` for the Allies): lots of 5 PP, once a month, what it can pay, and
    the U-boat history must stay legal (EF-05: the allocation rises by 5 PP a season)."""
    if not rule_on(ctx, OptionalRule.ENHANCED_UBOATS):
        raise IllegalOrder("EF-04", "Enhanced U-boat Production is not in play")
    if side_of(player).value != side:
        raise IllegalOrder("EF-04", f"only the {side} allocate {key.replace('_', ' ')}")
    p = producing(state, player)
    if p[key] is not None:
        raise IllegalOrder("EF-04", f"{key.replace('_', ' ')} are already allocated this month")
    if pp < PROGRAM_PP or pp % PROGRAM_PP:
        raise InputError("args.pp", f"PP in lots of {PROGRAM_PP} (5, 10, ...), not {pp!r}")
    pay(state, player, pp)
    u = pp if key == "uboat_pp" else int(state["uboats"][-1]["uboat_pp"]
                                          if state["uboats"] else 0)
    e = pp if key == "escort_pp" else 0
    verify_uboat_history(history(ctx, state, next_month(state), u, e, 0))
    return pp


def allocation_event(player: str, key: Programme, pp: int) -> Event:
    """The event of an allocation to the ``key`` programme."""
    return Event("programme_allocated", {
        "side": player, "programme": key, "pp": pp,
        "rules": ["EF-04", "EF-05"] if key == "uboat_pp" else ["EF-06"]})


def fold_programme_allocated(state: EFState, ev: Event) -> EFState:
    d = cast(ProgrammeAllocated, ev.data)
    production_now(state)[d["programme"]] = int(d["pp"])
    state["pp"][d["side"]] -= int(d["pp"])
    return state


#: The orders of the production phase (their Orders are in :mod:`grognard.eurofront.orders`).
PRODUCTION_KINDS = frozenset({"build", "rebuild", "allocate_uboats", "allocate_escorts",
                              "remove_apd_marker", "end_production"})

__all__ = ["PRODUCTION_KINDS", "Side", "month_income"]
