"""C-POLITY / TR-22 control of cities in play: who holds each city, changed by ground units.

A city is controlled by the side whose ground unit last entered its hex (by movement, advance
after combat, attrition hexes won, invasion or air landing, 3R4 control); it keeps that control
when the unit leaves. The folds of the ``third_reich`` engine system call :func:`occupy` after
every event that puts a ground unit into a hex, and :func:`take` for hexes an attrition HN
result wins (TR-40). The map's cities per hex are kept in the state (``city_hexes``) so the
folds need no map.

>>> s = {"city_hexes": {"C11": ["Warsaw"]}, "control": {"Warsaw": "allies"},
...      "units": {"ge1": {"hex": "C11", "status": "active", "type": "infantry", "side": "axis"}}}
>>> occupy(s)
['Warsaw']
>>> s["control"]["Warsaw"]
'axis'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from grognard.core.mapdata import CityClass, MapData
from grognard.core.units import GROUND_TYPES
from grognard.third_reich.state_types import TRState

#: 3R city classes that are victory locations (capitals, red victory cities, red ports).
VICTORY_CLASSES = frozenset({CityClass.CAPITAL, CityClass.RED_VICTORY, CityClass.RED_PORT})


def city_hexes(m: MapData) -> dict[str, list[str]]:
    """Hex label -> the names of the cities in it."""
    return {m.layout.to_label(m.hex(h)): [c.name for c in cities]
            for h, cities in sorted(m.cities.items()) if cities}


def city_facts(m: MapData) -> dict[str, dict[str, Any]]:
    """City name -> its hex, country and classes (for conquest and the victory count)."""
    out: dict[str, dict[str, Any]] = {}
    for h, cities in sorted(m.cities.items()):
        for c in cities:
            out[c.name] = {"hex": m.layout.to_label(m.hex(h)), "country": c.country,
                           "classes": sorted(str(k) for k in c.classes)}
    return out


def occupy(state: TRState) -> list[str]:
    """Give every city holding a ground unit to that unit's side; the cities that changed."""
    return [name for name, _, _ in occupy_changes(state)]


def occupy_changes(state: TRState) -> list[tuple[str, str | None, str]]:
    """:func:`occupy`, each changed city as (name, holder before, holder after) - a city
    changed twice (units of both sides in its hex) is listed twice, each time with its holder
    before the call and after it."""
    hexes = state.get("city_hexes") or {}
    if not hexes:
        return []
    control = state["control"]
    changed: list[str] = []
    before: dict[str, str | None] = {}
    # one pass, the city-hex lookup first (most units stand outside cities; a hex of None is
    # in no city table), then whether it is an active ground unit
    for u in state["units"].values():
        if u.get("hex") in hexes and u["status"] == "active" and u["type"] in GROUND_TYPES:
            side = u["side"]
            for name in hexes[cast(str, u["hex"])]:
                old = control.get(name)
                if old != side:
                    before.setdefault(name, old)
                    control[name] = side
                    changed.append(name)
    return [(name, before[name], control[name]) for name in changed]


def take(state: TRState, hexes: Iterable[str], side: str) -> list[str]:
    """TR-40: the cities in hexes won by attrition pass to ``side``."""
    table = state.get("city_hexes") or {}
    changed = []
    for h in hexes:
        for name in table.get(h, []):
            if state["control"].get(name) != side:
                state["control"][name] = side
                changed.append(name)
    return changed


#: Event types after which ground units may stand in a new hex.
OCCUPYING_EVENTS = ("unit_moved", "battle_resolved", "land_losses_chosen", "retreated",
                    "units_advanced", "hexes_taken", "withdrawn", "invaded",
                    "airdropped", "naval_transported", "sr_made", "sea_sr_made")


__all__ = ["OCCUPYING_EVENTS", "VICTORY_CLASSES", "city_facts", "city_hexes", "occupy", "occupy_changes",
           "take"]
