"""Issue 22 (session 13): the faster forms of 3R position facts equal the plain computations
they replace, on the shipped campaign map and on recorded and random games."""

from __future__ import annotations

from grognard.core.mapdata import WATER_TERRAIN
from grognard.engine.scenario import load_scenario
from grognard.third_reich.conquest.campaign_events import _COUNTRY_HEXES, _country_hexes


def _country_hexes_walked(sc, countries):  # type: ignore[no-untyped-def]
    """The land hexes of ``countries`` by walking the map hex by hex, in map order."""
    m = sc.map
    out = []
    for i in range(m.n):
        h = m.hex(i)
        if m.country_of(h) in countries and m.terrain_of(h) not in WATER_TERRAIN:
            out.append(m.layout.to_label(h))
    return out


def test_tr24_minor_country_hexes_equal_the_walk() -> None:
    """TR-24: where a minor's units may appear - every country of the map alone, a minor with
    its colonies, a set with a country not on the map, and none - the same labels in the same
    order as the hex-by-hex walk."""
    sc = load_scenario("tr-1939-campaign")
    names = sorted({n for n in sc.map.country_names if n})
    assert len(names) > 20
    sets = [(n,) for n in names] + [tuple(names[:3]), ("nowhere",), (), tuple(names)]
    _COUNTRY_HEXES.clear()
    seen_land = 0
    for countries in sets:
        got = _country_hexes(sc, countries)
        assert got == _country_hexes_walked(sc, frozenset(countries)), countries
        seen_land += bool(got)
    assert seen_land > 20  # the sets name real land
