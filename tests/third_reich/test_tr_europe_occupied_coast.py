"""TR-26 on grognard's map of Europe: the Vichy zone is the unoccupied zone of the 1940
armistice. The Atlantic coast with Bordeaux stayed occupied, and the occupied zone met Spain at
Hendaye, so Germany borders Spain once Vichy forms (the land route a veteran expects)."""

from __future__ import annotations

import tomllib
from importlib.resources import files

from grognard.engine.scenario import load_scenario


def _zone_and_map():
    m = load_scenario("tr-1939-campaign").map
    text = (files("grognard.data") / "maps" / "tr-europe.toml").read_text(encoding="utf-8")
    return set(tomllib.loads(text)["third_reich"]["areas"]["vichy"]), m


def test_tr26_bordeaux_is_in_occupied_france_not_the_vichy_zone():
    zone, m = _zone_and_map()
    (bordeaux,) = [m.label(i) for i in range(m.n)
                   if any(c.name == "Bordeaux" for c in m.cities_at(m.hex(i)))]
    assert bordeaux not in zone
    assert any(any(c.name == "Vichy" for c in m.cities_at(m.hex(m.index_of_label(h))))
               for h in zone)


def test_tr26_occupied_france_borders_spain():
    zone, m = _zone_and_map()
    names = m.country_names
    occupied_on_spain = [
        m.label(i) for i in range(m.n)
        if names[m.country[i]] == "france" and m.label(i) not in zone
        and any(names[m.country[j]] == "spain" for j in m.neighbor_indices(i))]
    vichy_on_spain = [
        m.label(i) for i in range(m.n)
        if m.label(i) in zone
        and any(names[m.country[j]] == "spain" for j in m.neighbor_indices(i))]
    assert occupied_on_spain        # the Hendaye hex
    assert vichy_on_spain           # most of the Pyrenees stay Vichy's
