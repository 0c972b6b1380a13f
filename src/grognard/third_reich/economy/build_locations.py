"""TR-64 ("Build locations"): where a power may place the units it builds.

* Naval: a controlled friendly port of the builder's home country, not in an uncontested
  enemy air zone.
* Air: a city of the home country (never an airbase marker); in an enemy ZOC only if a
  friendly ground unit occupied it before the build phase.
* Ground: any friendly-controlled home-country hex that is (a) not adjacent to enemy ground
  units unless it is a home-country city occupied by another friendly unit, and (b) not in an
  uncontested enemy air zone unless it is a home-country city.
* A friendly home-country city holding a friendly ground unit can always build ground or air.

The facts about a hex come as a :class:`BuildSite`; :func:`build_site` derives them from a map,
the ground units on it (:mod:`grognard.third_reich.movement.movement` ZOCs) and the air zones
(:mod:`grognard.third_reich.air_naval.air_zones`).

>>> city = BuildSite(home_country=True, controlled=True, city=True, friendly_ground=True,
...                  adjacent_enemy_ground=True, uncontested_enemy_air_zone=True)
>>> can_build("infantry", city), can_build("air", city), can_build("naval", city)
(True, True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.core.mapdata import CityClass, MapData
from grognard.core.paths import HexRef, hex_index
from grognard.third_reich.air_naval.air_zones import BasedAir, is_uncontested_enemy
from grognard.third_reich.movement.movement import Placed, enemy_zoc, zoc_entry_cost
from grognard.third_reich.turn.forces import Side
from grognard.third_reich.turn.options import UnitKind

RULE = "TR-64"
GROUND = frozenset({UnitKind.INFANTRY, UnitKind.ARMOR, UnitKind.REPLACEMENT, UnitKind.AIRBORNE})
PORT_CLASSES = frozenset({CityClass.RED_PORT, CityClass.BLACK_PORT})


@dataclass(frozen=True, slots=True)
class BuildSite:
    """TR-64: the facts about one hex that decide what may be built there."""

    home_country: bool
    controlled: bool
    city: bool = False
    port: bool = False
    airbase_marker: bool = False
    friendly_ground: bool = False  # a friendly ground unit there since before the build phase
    adjacent_enemy_ground: bool = False
    in_enemy_zoc: bool = False
    uncontested_enemy_air_zone: bool = False


def build_location_problem(kind: UnitKind | str, site: BuildSite) -> str:
    """TR-64 Why ``kind`` may not be built at ``site`` ("" if it may)."""
    k = parse_enum(UnitKind, kind, "kind")
    if k is UnitKind.SW:
        raise InputError("kind", "strategic warfare factors are not placed on the map")
    if not site.home_country:
        return "builds only in the building power's home country"
    if not site.controlled:
        return "the hex is not friendly controlled"
    fortress_city = site.city and site.friendly_ground
    if k is UnitKind.NAVAL:
        if not site.port:
            return "naval units are built in a port"
        if site.uncontested_enemy_air_zone:
            return "the port is in an uncontested enemy air zone"
        return ""
    if k is UnitKind.AIR:
        if not site.city:
            return ("air units are built in a city, never at an airbase marker"
                    if site.airbase_marker else "air units are built in a city")
        if site.in_enemy_zoc and not site.friendly_ground:
            return "a city in an enemy ZOC needs a friendly ground unit there before the build"
        return ""
    if fortress_city:
        return ""
    if site.adjacent_enemy_ground:
        return "adjacent to enemy ground units (allowed only in an occupied home city)"
    if site.uncontested_enemy_air_zone and not site.city:
        return "in an uncontested enemy air zone (allowed only in a home-country city)"
    return ""


def can_build(kind: UnitKind | str, site: BuildSite) -> bool:
    """TR-64 May a unit of ``kind`` be built at ``site``?"""
    return build_location_problem(kind, site) == ""


def verify_build_location(kind: UnitKind | str, site: BuildSite) -> None:
    """TR-64 Raise :class:`IllegalOrder` if ``kind`` may not be built at ``site``."""
    why = build_location_problem(kind, site)
    if why:
        raise IllegalOrder(RULE, why)


def build_site(m: MapData, at: HexRef, side: Side | str, home_countries: Iterable[str],
               placed: Sequence[Placed], air: Sequence[BasedAir], *,
               controlled: bool = True, airbase_marker: bool = False,
               closed_countries: Iterable[str] = ()) -> BuildSite:
    """TR-64 The :class:`BuildSite` of a map hex for ``side``: home country from the map's
    countries, city and port from its cities, friendly/enemy ground units from ``placed``
    (positions at the start of the build phase), enemy ZOC (TR-27) and air zones (TR-30)."""
    s = parse_enum(Side, side, "side")
    i = hex_index(m, at, "at")
    h = m.hex(i)
    cities = m.cities_at(h)
    homes = set(home_countries)
    nbrs = set(m.neighbor_indices(i).tolist())
    pos = [(hex_index(m, p, "placed.hex"), u) for p, u in placed]
    z = enemy_zoc(m, placed, s, closed_countries)
    return BuildSite(
        home_country=m.country_of(h) in homes,
        controlled=controlled,
        city=bool(cities),
        port=any(c.classes & PORT_CLASSES for c in cities),
        airbase_marker=airbase_marker,
        friendly_ground=any(j == i and u.side is s for j, u in pos),
        adjacent_enemy_ground=any(j in nbrs and u.side is not s for j, u in pos),
        in_enemy_zoc=zoc_entry_cost(z, i) == 1,
        uncontested_enemy_air_zone=is_uncontested_enemy(h, s, air),
    )


__all__ = [
    "BuildSite", "build_location_problem", "build_site", "can_build", "verify_build_location",
]
