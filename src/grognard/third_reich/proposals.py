"""What the 3R Orders' proposers share (a position module below the Orders and ``play/``):
the :func:`distinct` wrapper of a lister, :func:`passes` (a candidate the Order's verify
accepts), a side's active units, hex distances, the map's city and port hexes (kept per
map) and the air units in range of a hex."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from grognard.core.errors import GrognardError
from grognard.core.mapdata import MapData
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.state import JSON
from grognard.third_reich.air_naval.sea_zones import port_at
from grognard.third_reich.board import on_map_ground
from grognard.third_reich.state import AIR_TYPES
from grognard.third_reich.state_types import TRState, TRUnit

Legal = Callable[[Context, JSON, str], Iterable[Command]]


def distinct(propose: Legal) -> Legal:
    """``propose`` without repeated candidates (the same arguments proposed twice)."""
    def unique(ctx: Context, state: TRState, player: str) -> Iterator[Command]:
        seen = set()
        for cmd in propose(ctx, state, player):
            key = repr(sorted(cmd.args.items()))
            if key not in seen:
                seen.add(key)
                yield cmd
    return unique


def units_of(state: TRState, side: str, types: Iterable[str] | None = None,
           ground: bool = False) -> list[tuple[str, TRUnit]]:
    t = None if types is None else frozenset(types)
    return sorted((uid, u) for uid, u in state["units"].items()  # chosen, then sorted by id
                  if u["side"] == side and u["status"] == "active" and u["hex"] is not None
                  and (t is None or u["type"] in t) and (not ground or on_map_ground(u)))


def distances(m: MapData, start: int, hexes: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """Hex distance from hex number ``start`` to each of ``hexes`` (vectorised distance)."""
    dq = m.q[hexes].astype(np.int64) - int(m.q[start])
    dr = m.r[hexes].astype(np.int64) - int(m.r[start])
    out: npt.NDArray[np.int64] = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    return out


#: Per map (by identity, the last few): its city and port hexes, labels sorted - facts of the
#: map alone, read by the listers on every call.
_MAP_HEXES: list[tuple[MapData, dict[str, Any]]] = []


def _of_map(m: MapData, name: str, make: Callable[[], Any]) -> Any:
    """``make()`` once per map (a map never changes; callers must not change the value)."""
    facts = next((f for known, f in _MAP_HEXES if known is m), None)
    if facts is None:
        facts = {}
        _MAP_HEXES.insert(0, (m, facts))
        del _MAP_HEXES[4:]
    if name not in facts:
        facts[name] = make()
    return facts[name]


def city_hexes(ctx: Context) -> list[str]:
    """The map's city hexes (labels, sorted; shared: not to be changed)."""
    m = ctx.scenario.map
    got: list[str] = _of_map(m, "cities", lambda: sorted(m.label(h) for h in m.cities))
    return got


def port_hexes(ctx: Context) -> list[str]:
    """The map's port hexes (labels, sorted; shared: not to be changed)."""
    m = ctx.scenario.map
    got: list[str] = _of_map(m, "ports", lambda: sorted(
        m.label(h) for h in m.cities if port_at(m, m.label(h)) is not None))
    return got


def port_set(ctx: Context) -> frozenset[str]:
    """:func:`_port_hexes` as a set."""
    m = ctx.scenario.map
    got: frozenset[str] = _of_map(m, "port_set", lambda: frozenset(port_hexes(ctx)))
    return got


def passes(verify: Any, ctx: Context, state: TRState, cmd: Command) -> bool:
    try:
        verify(ctx, state, cmd)
    except GrognardError:
        return False
    return True


def air_in_range(ctx: Context, state: TRState, side: str, target: str) -> list[str]:
    """The air units of ``side`` not yet used this phase within their range of hex
    ``target`` (ids, sorted): the air a counter air, an attack or an air drop may name."""
    m = ctx.scenario.map
    used = set(state["air_used"])
    air = [(uid, u) for uid, u in units_of(state, side, AIR_TYPES) if uid not in used]
    if not air:
        return []
    dist = distances(m, m.index_of_label(target),
                      np.array([m.index_of_label(cast(str, u["hex"])) for _, u in air], dtype=np.intp))
    return [uid for (uid, u), d in zip(air, dist.tolist(), strict=True)
            if d <= (int(u.get("movement") or 0) or 4)]
