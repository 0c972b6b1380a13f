"""TR-29/TR-30 air bases and air zones in the ``third_reich`` engine system: the controlled
cities each side's air units stage to and fly from (``air_stage``,
:func:`grognard.third_reich.air_naval.air_basing.stage`), and the air zone of a hex as a side or
power sees it (based air, neutralised factors not counted).

Readings: bases are the map's cities the side controls (``state["control"]``), all taken as in
supply (no airbase markers yet).
"""

from __future__ import annotations

from typing import Any

from grognard.core.hexgrid import Hex
from grognard.core.mapdata import MapData
from grognard.engine.context import Context
from grognard.third_reich.air_naval.air_basing import AirBaseHex, BaseKind
from grognard.third_reich.air_naval.air_zones import air_zone_status
from grognard.third_reich.air_naval.naval_ops import AirZone, air_zone_of
from grognard.third_reich.board import (
    axis_side_of,
    position_cached,
)
from grognard.third_reich.state import based_air, side_of
from grognard.third_reich.state_types import TRState
from grognard.third_reich.turn.forces import Side


def air_zone_at(ctx: Context, state: TRState, side: str, label: str) -> AirZone:
    """TR-30 The air zone of hex ``label`` seen from ``side`` (based air, neutralised factors
    not counted)."""
    s = Side.AXIS if side == axis_side_of(ctx) else Side.ALLIES
    return air_zone_of(air_zone_status(ctx.scenario.map.layout.from_label(label), s,
                                       based_air(ctx, state)))


def air_zone_for(ctx: Context, state: TRState, side: str, power: str, label: str) -> AirZone:
    """TR-30/TR-25 (issue 23): the air zone of hex ``label`` seen by ``power`` of ``side``:
    the other side's air counts only where its power is at war with ``power`` (the air of a
    power not at war contests and controls nothing against it). :func:`air_zone_at` with no
    diplomacy in the state."""
    from grognard.third_reich.war import at_war_with_any, has_diplomacy

    if not power or not has_diplomacy(state):
        return air_zone_at(ctx, state, side, label)
    s = side_of(ctx, side)
    units = state["units"]
    air = [a for a in based_air(ctx, state) if a.side is s or at_war_with_any(
        state, power, [str(units[a.unit.id].get("power") or "")])]
    return air_zone_of(air_zone_status(ctx.scenario.map.layout.from_label(label), s, air))


def bases(ctx: Context, state: TRState) -> dict[Hex, AirBaseHex]:
    """TR-29/TR-65: the controlled cities of each side (in supply, reading); once per
    position, kept across commands while the cities' control is the same (shared: callers
    must not change it)."""
    return position_cached(ctx, state, "tr.bases", lambda: ctx.keyed(
        "tr.bases", tuple(state["control"].items()), lambda: _bases(ctx, state)))


def _bases(ctx: Context, state: TRState) -> dict[Hex, AirBaseHex]:
    m: MapData = ctx.scenario.map
    control = state["control"]
    axis, allies = _city_bases(m)
    axis_side = axis_side_of(ctx)
    out: dict[Hex, AirBaseHex] = {}
    for h, names in _city_names(m):
        for name in names:  # the hex's last controlled city decides, as listed
            side = control.get(name)
            if side is not None:
                out[h] = axis[h] if side == axis_side else allies[h]
    return out


#: Per map (the last few, by identity): its city hexes with their cities' names in map order,
#: and each city hex's base for either side (immutable values, shared).
_MAP_BASES: list[tuple[MapData, Any]] = []


def _map_bases(m: MapData) -> Any:
    for known, got in _MAP_BASES:
        if known is m:
            return got
    names = [(m.hex(h), tuple(c.name for c in cities)) for h, cities in m.cities.items()]
    made = (names, ({h: AirBaseHex(h, BaseKind.CITY, Side.AXIS) for h, _ in names},
                    {h: AirBaseHex(h, BaseKind.CITY, Side.ALLIES) for h, _ in names}))
    _MAP_BASES.insert(0, (m, made))
    del _MAP_BASES[4:]
    return made


def _city_names(m: MapData) -> list[tuple[Hex, tuple[str, ...]]]:
    """The map's city hexes and their cities' names, in the map's city order."""
    got: list[tuple[Hex, tuple[str, ...]]] = _map_bases(m)[0]
    return got


def _city_bases(m: MapData) -> tuple[dict[Hex, AirBaseHex], dict[Hex, AirBaseHex]]:
    """Each city hex's base for the Axis side and for the Allied side."""
    got: tuple[dict[Hex, AirBaseHex], dict[Hex, AirBaseHex]] = _map_bases(m)[1]
    return got
