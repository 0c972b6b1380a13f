"""TR-72..TR-74, TR-38, TR-40 on the map: 3R supply, isolation inputs, attrition contact.

The pure rule functions of :mod:`~grognard.third_reich.supply.isolation` and
:mod:`~grognard.third_reich.combat.attrition` take explicit inputs; this module reads them off a
:class:`~grognard.core.mapdata.MapData` and a :class:`~grognard.core.paths.Forces`:

* supply sources (TR-72): the capitals of the side's own home countries, the ports (red and
  black) and the bridgeheads the side controls; Soviet units trace to the USSR chain of
  :func:`~grognard.third_reich.supply.isolation.ussr_supply_sources` (Moscow, else the Soviet-held
  red victory cities of the pre-war USSR, else its ports and cities), read from the map;
* supply lines (TR-72, 3R4 tracing EXTERNAL): :func:`grognard.core.supply.trace_supply` with
  the ``third_reich_supply`` preset and 3R ZOCs (friendly units negate them for supply);
  ``max_length=None`` (default) is "a path of any length";
* each out-of-supply hex's isolation DRM inputs (TR-73): the hex's weather region (its
  ``weather_zone`` if it names a 3R region, else its ``region``, else ``europe``), the
  season's weather (TR-05), enemy units adjacent, home country (``Scenario.home_countries``),
  a path of any length to a friendly city (``core.supply.path_to_friendly_city``);
* attrition contact (TR-38, ``core.front.units_in_contact``) and the defender hexes an HN
  result may take (TR-40).

City control is a mapping city name -> side (:func:`city_control` builds the pre-war one from
country owners and captures).

>>> from grognard.core.hexgrid import Hex
>>> from grognard.core.mapdata import City
>>> m = MapData.build([Hex(0, 0), Hex(1, 0)], ["clear"] * 2,
...                   cities={Hex(1, 0): [City("Paris", frozenset({CityClass.CAPITAL}), "france")]})
>>> city_control(m, {"france": "allies"}, {"Paris": "axis"})
{'Paris': 'axis'}
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from grognard.core.errors import InputError
from grognard.core.front import units_in_contact
from grognard.core.mapdata import City, CityClass, Fortification, MapData
from grognard.core.memo import IdentityMemo
from grognard.core.paths import BoolArray, Forces, HexRef, IntArray, edge_tables, hex_indices
from grognard.core.supply import (
    SupplyTrace,
    path_to_friendly_city,
    third_reich_supply,
    trace_supply,
)
from grognard.core.tables import Table, TableSet, load_tables
from grognard.core.zoc import ZocField, third_reich_zoc, zoc_field
from grognard.third_reich.combat.attrition import FrontHex
from grognard.third_reich.supply.isolation import (
    IsolationRoll,
    UssrSupply,
    isolation_drms,
    isolation_roll,
    isolation_table,
    ussr_supply_sources,
)
from grognard.third_reich.turn.calendar import (
    WEATHER_TABLE_ID,
    Region,
    Season,
    Weather,
    date_of,
    weather,
    weather_region,
)
from grognard.third_reich.turn.combat_readings import TRCombatReadings

DEFAULT_READINGS = TRCombatReadings()
PORTS = frozenset({CityClass.RED_PORT, CityClass.BLACK_PORT})
USSR_CITIES = frozenset({CityClass.RED_PORT, CityClass.BLACK_PORT, CityClass.BLACK_CITY,
                         CityClass.CITY, CityClass.MAJOR_CITY, CityClass.RED_VICTORY,
                         CityClass.CAPITAL})


# --- control and sources ---------------------------------------------------------------------


def city_control(m: MapData, country_sides: Mapping[str, str],
                 captured: Mapping[str, str] | None = None) -> dict[str, str]:
    """C-POLITY: the side controlling each city: its country's owner, then any capture."""
    out: dict[str, str] = {}
    for cities in m.cities.values():
        for c in cities:
            owner = country_sides.get(c.country)
            if owner is not None:
                out[c.name] = owner
    for name, side in (captured or {}).items():
        out[name] = side
    return out


def friendly_cities(m: MapData, control: Mapping[str, str], side: str) -> BoolArray:
    """Per hex: holds a city ``side`` controls (the TR-73 "friendly city")."""
    out = np.zeros(m.n, dtype=bool)
    for h, cities in m.cities.items():
        if any(control.get(c.name) == side for c in cities):
            out[h] = True
    return out


def _hexes_where(m: MapData, want: Any) -> list[int]:
    return sorted(h for h, cities in m.cities.items() if any(want(c) for c in cities))


def supply_sources(m: MapData, control: Mapping[str, str], side: str, *,
                   capital_countries: Collection[str],
                   bridgeheads: Sequence[HexRef] = ()) -> IntArray:
    """TR-72 (3R4 supply sources) Capitals of ``capital_countries`` (the side's own home
    countries), ports (red or black) and bridgeheads that ``side`` controls."""
    caps = set(capital_countries)
    hexes = {h for h, c in _capitals_and_ports(m) if control.get(c.name) == side and (
        c.country in caps or bool(c.classes & PORTS))}
    hexes |= set(hex_indices(m, list(bridgeheads), "bridgeheads").tolist())
    return np.array(sorted(hexes), dtype=np.int32)


def _capitals_and_ports(m: MapData) -> list[tuple[int, City]]:
    """The map's capitals and ports with their hexes (the only cities that may be TR-72
    sources), once per map (the last few maps are kept)."""
    return _SOURCE_CITIES.get(m, lambda m: [
        (h, c) for h, cities in m.cities.items() for c in cities
        if CityClass.CAPITAL in c.classes or c.classes & PORTS])


_SOURCE_CITIES: IdentityMemo[MapData, list[tuple[int, City]]] = IdentityMemo(4)


def ussr_supply(m: MapData, control: Mapping[str, str], ussr_side: str,
                ussr_country: str = "ussr") -> tuple[UssrSupply, IntArray]:
    """TR-74 (USSR supply sources) The fallback chain read from the map's pre-war USSR cities
    (country ``ussr_country``): Moscow is its capital; red victory cities; ports and cities."""
    mine = [c for cs in m.cities.values() for c in cs if c.country == ussr_country]
    capital = next((c for c in mine if CityClass.CAPITAL in c.classes), None)
    moscow_ok = capital is not None and control.get(capital.name) == ussr_side
    red = [(c.name, control.get(c.name) == ussr_side) for c in mine
           if CityClass.RED_VICTORY in c.classes and c is not capital]
    other = [(c.name, control.get(c.name) == ussr_side) for c in mine
             if c.classes & USSR_CITIES and c is not capital]
    got = ussr_supply_sources(moscow_ok, red, other,
                              moscow=capital.name if capital is not None else "Moscow")
    names = set(got.sources)
    hexes = _hexes_where(m, lambda c: c.country == ussr_country and c.name in names)
    return got, np.array(hexes, dtype=np.int32)


# --- tracing -------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SupplyWar:
    """TR-72/TR-27 (issue 23): what one power's supply lines meet in a game with war and
    peace: ``zoc_from`` (per unit of the Forces) the units whose ZOC counts against it (those
    of powers at war with it), ``closed`` (per hex) the hexes its lines may not enter
    (neutral countries)."""

    zoc_from: BoolArray
    closed: BoolArray


@dataclass(frozen=True, eq=False)
class SideSupply:
    """TR-72: supply of every unit of ``side`` (``in_supply`` is per unit of the Forces; other
    sides' units are True). ``traces`` are the underlying searches (paths for the user).
    ``zoc`` is the side-wide field; ``zocs``/``zoc_of`` the field each unit's lines met (one
    per group of powers with the same wars; ``zoc_of[i]`` indexes ``zocs``)."""

    side: str
    in_supply: BoolArray
    zoc: ZocField
    traces: tuple[SupplyTrace, ...]
    ussr: UssrSupply | None
    zocs: tuple[ZocField, ...] = ()
    zoc_of: IntArray | None = None

    def out_of_supply(self, forces: Forces) -> list[str]:
        return [forces.ids[i] for i in np.nonzero(~self.in_supply)[0].tolist()]

    def zoc_for(self, i: int) -> ZocField:
        """The ZOC field unit ``i``'s supply line met."""
        if self.zoc_of is None or not self.zocs:
            return self.zoc
        return self.zocs[int(self.zoc_of[i])]


def war_zoc_field(m: MapData, forces: Forces, side: str, war: SupplyWar) -> ZocField:
    """TR-27/TR-72: the ZOC field a power's supply line meets: ZOCs only of the units of
    ``war.zoc_from``, and ``war.closed`` hexes impassable as enemy-held ones (every unit still
    holds its hex; the side's own units' hexes stay open)."""
    zc = np.where(np.asarray(war.zoc_from, dtype=bool), forces.zoc_class, 0).astype(np.int8)
    z = zoc_field(m, replace(forces, zoc_class=zc), side, third_reich_zoc())
    closed = np.asarray(war.closed, dtype=bool)
    if closed.shape != (m.n,):
        raise InputError("war.closed", f"expected one flag per hex ({m.n}), not {closed.shape}")
    block = closed & ~z.friendly
    if not block.any():
        return z
    return replace(z, enemy=z.enemy | block, _cache={})


def trace_3r_supply(
    m: MapData,
    forces: Forces,
    side: str,
    control: Mapping[str, str],
    *,
    capital_countries: Collection[str],
    soviet: Sequence[bool] | None = None,
    bridgeheads: Sequence[HexRef] = (),
    ussr_country: str = "ussr",
    max_length: int | None = None,
    closed_countries: Collection[str] = (),
    war: Sequence[tuple[BoolArray, SupplyWar]] = (),
) -> SideSupply:
    """TR-72/TR-74 Trace supply for every unit of ``side``: Soviet units (``soviet`` flags,
    per unit) to the USSR chain, the others to :func:`supply_sources`. Lines are blocked by
    enemy units and by enemy 3R ZOCs that no friendly unit negates.

    ``war`` (issue 23, TR-27): groups of the side's units (a bool per unit) with the
    :class:`SupplyWar` their lines meet (only the ZOCs of units at war with their power, never
    through a country closed to it); units in no group meet the side-wide field."""
    n = len(forces)
    sov = np.zeros(n, dtype=bool) if soviet is None else np.asarray(soviet, dtype=bool)
    if sov.shape != (n,):
        raise InputError("soviet", f"{sov.size} flags for {n} units")
    zoc = zoc_field(m, forces, side, third_reich_zoc(), closed_countries=closed_countries)
    rules = third_reich_supply()
    mine = forces.of_side(side)
    in_supply = np.ones(n, dtype=bool)
    traces: list[SupplyTrace] = []
    ussr: UssrSupply | None = None
    zocs: list[ZocField] = [zoc]
    zoc_of = np.zeros(n, dtype=np.int32)
    fields: list[tuple[BoolArray, ZocField]] = []
    left = mine.copy()
    for sel_raw, w in war:
        sel = np.asarray(sel_raw, dtype=bool) & left
        if not sel.any():
            continue
        left &= ~sel
        z = war_zoc_field(m, forces, side, w)
        zoc_of[sel] = len(zocs)
        zocs.append(z)
        fields.append((sel, z))
    if left.any():
        fields.append((left, zoc))
    groups: list[tuple[BoolArray, IntArray, ZocField]] = []
    src_main: IntArray | None = None
    src_ussr: IntArray | None = None
    for sel, z in fields:
        if (sel & ~sov).any():
            if src_main is None:
                src_main = supply_sources(m, control, side, capital_countries=capital_countries,
                                          bridgeheads=bridgeheads)
            groups.append((sel & ~sov, src_main, z))
        if (sel & sov).any():
            if src_ussr is None:
                ussr, src_ussr = ussr_supply(m, control, side, ussr_country)
            groups.append((sel & sov, src_ussr, z))
    for sel, src, z in groups:
        idx = np.nonzero(sel)[0]
        t = trace_supply(m, forces.hex[idx], z, src, max_length=max_length, rules=rules,
                         ids=[forces.ids[i] for i in idx.tolist()], explain=True)
        traces.append(t)
        in_supply[idx] = t.in_supply
    return SideSupply(side, in_supply, zoc, tuple(traces), ussr, tuple(zocs), zoc_of)


# --- isolation inputs ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IsolatedHex:
    """TR-73: one out-of-supply hex of the phasing side and every input of its DRMs."""

    hex: str
    units: tuple[str, ...]
    weather: Weather
    season: Season
    region: Region
    adjacent_enemy: bool
    home_country: bool
    city_path: bool

    def drms(self, table: Table | None = None,
             readings: TRCombatReadings = DEFAULT_READINGS,
             weather_table: Table | None = None) -> dict[str, int]:
        return isolation_drms(self.weather, self.season, self.region, self.adjacent_enemy,
                              self.home_country, self.city_path, table, readings, weather_table)

    def roll(self, roll: int, table: Table | None = None,
             readings: TRCombatReadings = DEFAULT_READINGS,
             weather_table: Table | None = None) -> IsolationRoll:
        """TR-73: this hex's isolation roll (modified 7 or less eliminates every unit);
        ``weather_table``: the TR-05 table the hex's weather came from."""
        return isolation_roll(roll, self.weather, self.season, self.region, self.adjacent_enemy,
                              self.home_country, self.city_path, table, readings, weather_table)

    def to_json(self) -> dict[str, Any]:
        return {"hex": self.hex, "units": list(self.units), "weather": self.weather.value,
                "season": self.season.value, "region": self.region.value,
                "adjacent_enemy": self.adjacent_enemy, "home_country": self.home_country,
                "city_path": self.city_path}


@dataclass(frozen=True, eq=False)
class SupplyCheck:
    """TR-72/TR-73: the phasing side's supply check: units out of supply and, per hex, the
    isolation inputs."""

    supply: SideSupply
    out_of_supply: tuple[str, ...]
    hexes: tuple[IsolatedHex, ...]

    def to_json(self) -> dict[str, Any]:
        ussr = self.supply.ussr
        return {"side": self.supply.side, "out_of_supply": list(self.out_of_supply),
                "hexes": [h.to_json() for h in self.hexes],
                "ussr_sources": None if ussr is None else {"tier": ussr.tier.value,
                                                           "sources": list(ussr.sources)}}


def supply_check(
    m: MapData,
    forces: Forces,
    side: str,
    control: Mapping[str, str],
    turn: int,
    *,
    unit_powers: Mapping[str, str],
    home_countries: Mapping[str, Sequence[str]],
    capital_countries: Collection[str] | None = None,
    bridgeheads: Sequence[HexRef] = (),
    ussr_power: str = "ussr",
    ussr_country: str = "ussr",
    max_length: int | None = None,
    weather_table: Table | None = None,
    war: Mapping[str, SupplyWar] | None = None,
) -> SupplyCheck:
    """TR-72..TR-74 (Supply and isolation attrition) The supply check of ``side`` on campaign
    ``turn``: who is out of supply and each such hex's TR-73 DRM inputs read off the map.

    ``unit_powers`` gives each unit's power (units of ``ussr_power`` use the TR-74 chain);
    ``home_countries`` maps a power to its home countries (``Scenario.home_countries``); the
    capitals of the side's powers' home countries are sources unless ``capital_countries`` is
    given. Home-country DRM reading: the hex is home to the power of every unit in it.
    ``war`` (issue 23): each power's :class:`SupplyWar` (TR-27: only the ZOCs of units at war
    with it count; its lines never cross a country closed to it); powers with the same wars
    trace together.
    """
    for uid in forces.ids:
        if uid not in unit_powers:
            raise InputError("unit_powers", f"no power for unit {uid!r}")
    mine = forces.of_side(side)
    powers = {unit_powers[forces.ids[i]] for i in np.nonzero(mine)[0].tolist()}
    caps = (set(capital_countries) if capital_countries is not None
            else {c for p in powers if p != ussr_power for c in home_countries.get(p, ())})
    soviet = [unit_powers[u] == ussr_power for u in forces.ids]
    groups: list[tuple[BoolArray, SupplyWar]] = []
    if war:
        by_key: dict[tuple[bytes, bytes], tuple[BoolArray, SupplyWar]] = {}
        power_of = np.array([unit_powers[u] for u in forces.ids], dtype=object)
        for p, w in sorted(war.items()):
            sel = mine & (power_of == p)
            if not sel.any():
                continue
            key = (np.asarray(w.zoc_from, dtype=bool).tobytes(),
                   np.asarray(w.closed, dtype=bool).tobytes())
            have = by_key.get(key)
            by_key[key] = (sel if have is None else have[0] | sel, w)
        groups = list(by_key.values())
    sup = trace_3r_supply(m, forces, side, control, capital_countries=caps, soviet=soviet,
                          bridgeheads=bridgeheads, ussr_country=ussr_country,
                          max_length=max_length, war=groups)
    out = np.nonzero(mine & ~sup.in_supply)[0]
    if len(out) == 0:
        return SupplyCheck(sup, (), ())
    contact = units_in_contact(m, forces, side)
    by_hex: dict[int, list[int]] = {}
    for i in out.tolist():
        by_hex.setdefault(int(forces.hex[i]), []).append(i)
    hex_list = sorted(by_hex)
    cities = friendly_cities(m, control, side)
    city_ok: dict[int, bool] = {}
    for gi in sorted({int(sup.zoc_of[by_hex[h][0]]) if sup.zoc_of is not None else 0
                      for h in hex_list}):
        hs = [h for h in hex_list if (int(sup.zoc_of[by_hex[h][0]])
                                      if sup.zoc_of is not None else 0) == gi]
        z = sup.zocs[gi] if sup.zocs else sup.zoc
        got = path_to_friendly_city(m, hs, z, cities, third_reich_supply())
        city_ok.update({h: bool(got.in_supply[k]) for k, h in enumerate(hs)})
    season = date_of(turn).season
    hexes = []
    for h in hex_list:
        units = by_hex[h]
        country = m.country_names[int(m.country[h])]
        region = weather_region(m, h)
        home = bool(country) and all(country in home_countries.get(unit_powers[forces.ids[i]],
                                                                   ()) for i in units)
        hexes.append(IsolatedHex(
            hex=m.label(h), units=tuple(sorted(forces.ids[i] for i in units)),
            weather=weather(region, turn, weather_table), season=season, region=region,
            adjacent_enemy=bool(contact[units].any()), home_country=home,
            city_path=city_ok[h]))
    ids = tuple(sorted(forces.ids[i] for i in out.tolist()))
    return SupplyCheck(sup, ids, tuple(sorted(hexes, key=lambda x: x.hex)))


def isolation_rolls(check: SupplyCheck, rolls: Sequence[int], tables: TableSet | None = None,
                    readings: TRCombatReadings = DEFAULT_READINGS) -> list[IsolationRoll]:
    """TR-73: one roll per isolated hex, in the order of ``check.hexes``."""
    if len(rolls) != len(check.hexes):
        raise InputError("rolls", f"{len(rolls)} rolls for {len(check.hexes)} hexes")
    table = isolation_table(tables, readings)
    wt = (tables or load_tables()).get(WEATHER_TABLE_ID)
    return [h.roll(r, table, readings, wt) for h, r in zip(check.hexes, rolls, strict=True)]


# --- attrition ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttritionContact:
    """TR-38: the attacker's units in contact and their land combat factors."""

    units: tuple[str, ...]
    factors: int


def attrition_contact(m: MapData, forces: Forces, side: str, factors: Sequence[int],
                      on_front: BoolArray | None = None) -> AttritionContact:
    """TR-38 (Attrition) Units of ``side`` adjacent to enemy units (not across sea or
    impassable hexsides) and the sum of their ``factors`` (give 0 for replacements); with
    ``on_front`` (per hex) only units in those hexes count."""
    f = np.asarray(factors, dtype=np.int64)
    if f.shape != (len(forces),):
        raise InputError("factors", f"{f.size} factor counts for {len(forces)} units")
    if (f < 0).any():
        raise InputError("factors", "cannot be negative")
    touch = units_in_contact(m, forces, side)
    if on_front is not None:
        touch &= np.asarray(on_front, dtype=bool)[forces.hex]
    idx = np.nonzero(touch)[0].tolist()
    return AttritionContact(tuple(forces.ids[i] for i in idx), int(f[idx].sum()))


def hexes_won_candidates(m: MapData, forces: Forces, side: str,
                         bridgeheads: Sequence[HexRef] = (),
                         on_front: BoolArray | None = None) -> tuple[FrontHex, ...]:
    """TR-40 (Attrition, HN) The defender's hexes next to the attacker's ground units, each
    marked fortified (any fortification on the map), capital or bridgehead (ineligible)."""
    et = edge_tables(m)
    mine = forces.of_side(side)
    own = forces.occupied(m.n, mine)
    enemy = forces.occupied(m.n, ~mine)
    block = 4 | 8 | 32  # sea, lake, impassable hexsides
    heads = set(hex_indices(m, list(bridgeheads), "bridgeheads").tolist())
    out = []
    for h in np.nonzero(enemy)[0].tolist():
        if on_front is not None and not on_front[h]:
            continue
        adj = False
        for d in range(6):
            nb, ps = int(et.nbr[h, d]), int(et.pos[h, d])
            if nb >= 0 and own[nb] and not (int(m.edge_features[ps]) & block):
                adj = True
                break
        if not adj:
            continue
        fort = int(m.fortification[h]) != _NO_FORTIFICATION
        capital = any(CityClass.CAPITAL in c.classes for c in m.cities.get(h, ()))
        out.append(FrontHex(m.label(h), True, fort, capital, h in heads))
    return tuple(sorted(out, key=lambda x: x.id))


#: the map's code of "no fortification" (the member's place in the enum)
_NO_FORTIFICATION = tuple(Fortification).index(Fortification.NONE)


__all__ = [
    "AttritionContact",
    "IsolatedHex",
    "SideSupply",
    "SupplyCheck",
    "SupplyWar",
    "attrition_contact",
    "city_control",
    "friendly_cities",
    "hexes_won_candidates",
    "isolation_rolls",
    "supply_check",
    "supply_sources",
    "trace_3r_supply",
    "ussr_supply",
    "war_zoc_field",
    "weather_region",
]
