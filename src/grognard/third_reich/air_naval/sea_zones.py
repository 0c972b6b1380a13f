"""TR-56 (Interception geography) and the sea-zone data of C-NAVAL.

A fleet intercepts only into the zone of its own port; dual-zone ports (Gibraltar, Kiel)
into either zone; fleets at sea intercept in their own zone. A sea SR may be intercepted at
the destination port's hex (the only choice within one zone) or at the hex where it enters
each new zone; Atlantic transitions (to or from the US, around Africa for the UK and US) use
hex **M10**, 9 hexes west of Brest.

The seed defers the map to 3R4, so ports and zone junctions are data: the reconstructed
tables ``tr_sea_zones_ports`` and ``tr_sea_zones_junctions`` (replace them with
``--tables``). Only M10, Gibraltar, Kiel and Bergen come from the seed.

>>> sea = sea_zones()
>>> may_intercept(sea, "gibraltar", "atlantic"), may_intercept(sea, "brest", "mediterranean")
(True, False)
>>> interception_points(sea, ["us", "atlantic"], "brest")
('M10', 'brest')
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grognard.core.errors import IllegalOrder, InputError, TableError
from grognard.core.mapdata import CityClass, MapData
from grognard.core.paths import hex_index
from grognard.core.tables import Table, TableSet, load_tables
from grognard.engine.context import Context
from grognard.third_reich.air_naval.naval_ops import DEFAULT_NAVAL_READINGS, NavalReadings
from grognard.third_reich.scenario_schema import third_reich_rules

ATLANTIC_TRANSITION_HEX = "M10"
SEP = "|"
PORT_CLASSES = frozenset({CityClass.RED_PORT, CityClass.BLACK_PORT})


def port_at(m: MapData, label: str) -> str | None:
    """The name (lower case) of the port city in hex ``label``, or None."""
    for c in m.cities.get(hex_index(m, label), ()):
        if PORT_CLASSES & c.classes:
            return c.name.lower()
    return None


#: A map's sea zones by hex label, built once per parsed ``[third_reich]`` section.
_ZONE_OF: dict[int, tuple[object, dict[str, str]]] = {}


def offshore_zone(ctx: Context, label: str) -> str | None:
    """TR-56/TR-61: the sea zone the map puts the sea hex ``label`` in (the map file's
    ``[third_reich.sea_zones]``), or None when the map gives its sea hexes no zones."""
    section = third_reich_rules(ctx.scenario).section
    memo = _ZONE_OF.get(id(section))
    if memo is None or memo[0] is not section:
        memo = (section, {h: z for z, hexes in section.sea_zones.items() for h in hexes})
        _ZONE_OF[id(section)] = memo
    return memo[1].get(label)


@dataclass(frozen=True, slots=True)
class Port:
    name: str
    zones: frozenset[str]
    hex: str = ""

    @property
    def dual_zone(self) -> bool:
        return len(self.zones) > 1


@dataclass(frozen=True, slots=True)
class Junction:
    zones: frozenset[str]
    hex: str
    powers: frozenset[str] = frozenset()  # empty: any power


@dataclass(frozen=True, slots=True)
class SeaZones:
    """The sea-zone geography: ports with their zones, and the junction hex of zone pairs."""

    ports: Mapping[str, Port]
    junctions: Mapping[frozenset[str], Junction]

    @property
    def zones(self) -> frozenset[str]:
        out: set[str] = set()
        for p in self.ports.values():
            out |= p.zones
        for j in self.junctions:
            out |= j
        return frozenset(out)

    def port(self, name: str) -> Port:
        try:
            return self.ports[name.lower()]
        except KeyError:
            raise InputError("port", f"unknown port {name!r} (known: "
                             f"{', '.join(sorted(self.ports))})") from None

    def to_json(self) -> dict[str, Any]:
        return {
            "ports": {n: {"zones": sorted(p.zones), "hex": p.hex}
                      for n, p in sorted(self.ports.items())},
            "junctions": [{"zones": sorted(j.zones), "hex": j.hex, "powers": sorted(j.powers)}
                          for j in sorted(self.junctions.values(),
                                          key=lambda j: sorted(j.zones))],
        }


def _split(cell: Any, table: Table, row: Any, column: str) -> frozenset[str]:
    if not isinstance(cell, str):
        raise TableError("expected a string of names separated by '|'", table=table.id,
                         row=row, column=column)
    return frozenset(p.strip().lower() for p in cell.split(SEP) if p.strip())


def sea_zones_from_tables(ports: Table, junctions: Table) -> SeaZones:
    """C-NAVAL: build the geography from the two tables (validated)."""
    pmap: dict[str, Port] = {}
    for key in ports.row_keys:
        zones = _split(ports.lookup(key, "zones"), ports, key, "zones")
        if not zones:
            raise TableError("a port needs at least one zone", table=ports.id, row=key)
        hx = ports.lookup(key, "hex")
        pmap[str(key).lower()] = Port(str(key).lower(), zones, str(hx))
    jmap: dict[frozenset[str], Junction] = {}
    for key in junctions.row_keys:
        pair = _split(key, junctions, key, "key")
        if len(pair) != 2:
            raise TableError("a junction joins exactly two zones (a|b)", table=junctions.id,
                             row=key)
        powers = (_split(junctions.lookup(key, "powers"), junctions, key, "powers")
                  if "powers" in junctions.columns else frozenset())
        jmap[pair] = Junction(pair, str(junctions.lookup(key, "hex")), powers)
    return SeaZones(pmap, jmap)


#: geography already built, by the identity of its two tables (kept alive here, so an id is
#: never reused while its entry exists): every sea move and naval order asks for it.
_BUILT: dict[tuple[int, int], tuple[Table, Table, SeaZones]] = {}


def sea_zones(tables: TableSet | None = None,
              readings: NavalReadings = DEFAULT_NAVAL_READINGS) -> SeaZones:
    """C-NAVAL The shipped (or ``--tables`` replaced) sea-zone geography (TR-56)."""
    ts = tables if tables is not None else load_tables()
    ports = ts.get(readings.tr_sea_zone_ports_table)
    junctions = ts.get(readings.tr_sea_zone_junctions_table)
    key = (id(ports), id(junctions))
    if key not in _BUILT:
        if len(_BUILT) >= 16:
            _BUILT.clear()
        _BUILT[key] = (ports, junctions, sea_zones_from_tables(ports, junctions))
    return _BUILT[key][2]


def _zone(sea: SeaZones, zone: str) -> str:
    z = zone.lower()
    if z not in sea.zones:
        raise InputError("zone", f"unknown sea zone {zone!r} (known: "
                         f"{', '.join(sorted(sea.zones))})")
    return z


def may_intercept(sea: SeaZones, port: str, zone: str) -> bool:
    """TR-56 (Naval operations) May fleets in ``port`` intercept into ``zone``?

    Only into the zone of their own port; a dual-zone port into either adjacent zone.
    """
    return _zone(sea, zone) in sea.port(port).zones


def may_intercept_at_sea(sea: SeaZones, fleet_zone: str, zone: str) -> bool:
    """TR-56: a non-phasing fleet at sea intercepts only in the zone it is in."""
    return _zone(sea, fleet_zone) == _zone(sea, zone)


def same_zone(sea: SeaZones, port_a: str, port_b: str) -> frozenset[str]:
    """TR-57/TR-61: the zones two ports share (empty: different zones)."""
    return sea.port(port_a).zones & sea.port(port_b).zones


def junction(sea: SeaZones, zone_a: str, zone_b: str, power: str | None = None) -> str:
    """TR-56: the hex where a sea SR leaves ``zone_a`` and enters ``zone_b``."""
    pair = frozenset({_zone(sea, zone_a), _zone(sea, zone_b)})
    j = sea.junctions.get(pair)
    if j is None:
        raise IllegalOrder("TR-56", f"zones {zone_a} and {zone_b} do not join")
    if power is not None and j.powers and power.lower() not in j.powers:
        raise IllegalOrder("TR-56", f"only {', '.join(sorted(j.powers))} may pass between "
                           f"{zone_a} and {zone_b}")
    return j.hex


def verify_route(sea: SeaZones, route: Sequence[str], origin_port: str | None,
                 destination_port: str | None, power: str | None = None) -> tuple[str, ...]:
    """TR-56/TR-69: a sea SR route is a chain of joined zones from port to port.

    ``None`` for a port skips its check (e.g. a bridgehead, which is not in the port data).
    """
    if not route:
        raise InputError("route", "a sea route names at least one zone")
    zones = tuple(_zone(sea, z) for z in route)
    if origin_port is not None and zones[0] not in sea.port(origin_port).zones:
        raise IllegalOrder("TR-69", f"origin port {origin_port} is not in zone {zones[0]}")
    if destination_port is not None and zones[-1] not in sea.port(destination_port).zones:
        raise IllegalOrder("TR-69", f"destination port {destination_port} is not in zone "
                           f"{zones[-1]}")
    for a, b in itertools.pairwise(zones):
        junction(sea, a, b, power)
    return zones


def interception_points(sea: SeaZones, route: Sequence[str], destination_port: str,
                        power: str | None = None, origin_port: str | None = None
                        ) -> tuple[str, ...]:
    """TR-56 (Naval escort of SRs by sea) Where the intercepting player may intercept a sea SR.

    The destination port (by name, or its hex label when the data gives one) and, for each
    new zone entered, the junction hex (M10 for Atlantic transitions). The intercepting player
    chooses one.
    """
    zones = verify_route(sea, route, origin_port, destination_port, power)
    dest = sea.port(destination_port)
    return (*route_junctions(sea, zones, power), dest.hex or dest.name)


def route_junctions(sea: SeaZones, zones: Sequence[str], power: str | None = None
                    ) -> tuple[str, ...]:
    """TR-56: the entry hex of each new zone along ``zones`` (M10 for Atlantic transitions)."""
    points = [junction(sea, a, b, power) for a, b in itertools.pairwise(zones)]
    return tuple(dict.fromkeys(points))
