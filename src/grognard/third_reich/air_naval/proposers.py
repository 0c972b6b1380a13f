"""The air and naval Orders' proposers (``propose`` of ``air_stage``, ``naval_transport`` and
``counter_air``): a representative set of each unit's destinations (TR-29: each air unit to
each city in twice its range; TR-57: one fleet with one or all of the ground units of its port
to each port; TR-44: each own air unit in range of an enemy air hex alone, and all of them);
the Orders' verify accepts more. The shared facts (a side's units, distances, the map's cities
and ports, the air in range of a hex) come from :mod:`~grognard.third_reich.proposals`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

import numpy as np

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.third_reich.board import phase_name
from grognard.third_reich.proposals import (
    air_in_range,
    city_hexes,
    distances,
    port_hexes,
    units_of,
)
from grognard.third_reich.state import AIR_TYPES, FLEET_TYPES
from grognard.third_reich.state_types import TRState
from grognard.third_reich.turn.sequence import Phase


def legal_air_stage(ctx: Context, state: TRState, player: str) -> Iterator[Command]:
    """TR-29: each air unit to each city (verify applies the 2x range and the bases)."""
    if phase_name(ctx, state) != Phase.MOVEMENT.value:
        return
    m = ctx.scenario.map
    cities = city_hexes(ctx)
    city_ix = np.array([m.index_of_label(c) for c in cities], dtype=np.intp)
    for uid, u in units_of(state, player, AIR_TYPES):
        rng = 2 * (int(u.get("movement") or 0) or 4)
        dist = distances(m, m.index_of_label(cast(str, u["hex"])), city_ix).tolist()
        for c, d in zip(cities, dist, strict=True):
            if c != u["hex"] and d <= rng:
                yield Command("air_stage", player, {"unit": uid, "to": c})


def legal_naval_transport(ctx: Context, state: TRState, player: str) -> Iterator[Command]:
    """TR-57: one fleet carrying one or all of the ground units in its port to each port."""
    if phase_name(ctx, state) != Phase.MOVEMENT.value:
        return
    ports = port_hexes(ctx)
    ground = units_of(state, player, ground=True)
    for fid, f in units_of(state, player, FLEET_TYPES):
        here = [uid for uid, u in ground if u["hex"] == f["hex"]]
        loads = [[x] for x in here] + ([here] if len(here) > 1 else [])
        for load in loads:
            for p in ports:
                if p != f["hex"]:
                    yield Command("naval_transport", player,
                                  {"fleets": [fid], "units": load, "to": p})


def legal_counter_air(ctx: Context, state: TRState, player: str) -> Iterator[Command]:
    """TR-44: at each enemy air hex, each own air unit in range alone, and all of them."""
    if phase_name(ctx, state) != Phase.AIR_MISSIONS.value:
        return
    targets = sorted({u["hex"] for _, u in state["units"].items()
                      if u["type"] in AIR_TYPES and u["status"] == "active"
                      and u["hex"] is not None and u["side"] != player})
    for t in targets:
        mine = air_in_range(ctx, state, player, t)
        for a in mine:
            yield Command("counter_air", player, {"air": [a], "target": t})
        if len(mine) > 1:
            yield Command("counter_air", player, {"air": mine, "target": t})
