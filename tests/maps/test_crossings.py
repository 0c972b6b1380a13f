"""Where two land masses meet across water, the map says so on purpose (issue 23 item 5; C-HEX,
C-HEXSIDE; TR-27, TR-28: "ZOCs never extend across sea hexsides", "not across impassable
terrain e.g. a sea hexside").

The slow tests rebuild each map's geography (scripts/make_maps.py, the ``maps`` group of
``dev``), list every land-to-land adjacency between different land masses and fail on any
that the data file does not declare (as a sea hexside or a strait). The fast tests check what
that means for play on the shipped maps: no land path joins England to the continent; Sicily,
Anatolia and Zealand are reached by land only through their straits.
"""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from collections import deque
from functools import cache
from pathlib import Path

import pytest

from grognard.core.hexgrid import distance
from grognard.core.mapdata import WATER_TERRAIN, HexsideFeature, MapData
from grognard.engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
BLOCK = HexsideFeature.SEA | HexsideFeature.LAKE | HexsideFeature.IMPASSABLE
MAPS = {"tr-europe": "tr-europe-map", "europa-barbarossa": "europa-barbarossa"}


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("make_maps", ROOT / "scripts" / "make_maps.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["make_maps"] = mod
    spec.loader.exec_module(mod)
    return mod


def declared(map_id: str) -> dict[frozenset[str], tuple[str, str]]:
    cfg = tomllib.loads((ROOT / "scripts" / "geo" / f"{map_id.replace('-', '_')}.toml")
                        .read_text("utf-8"))
    return {frozenset(p): (c["name"], c["kind"]) for c in cfg.get("crossings", [])
            for p in c["pairs"]}


@cache
def shipped(map_id: str) -> MapData:
    return load_scenario(MAPS[map_id]).map


def land_reach(m: MapData, start: str, through: HexsideFeature = HexsideFeature.NONE,
               within: int = 1000) -> set[int]:
    """Every land hex a land unit could walk to from ``start`` across no blocking hexside, no
    hexside carrying ``through`` and no hex more than ``within`` hexes from ``start``."""
    water = {int(i) for i in range(m.n) if m.terrain_of(m.hex(i)) in WATER_TERRAIN}
    s = m.index_of_label(start)
    seen, todo = {s}, deque([s])
    while todo:
        i = todo.popleft()
        for j in (int(x) for x in m.neighbor_indices(i)):
            if j < 0 or j in seen or j in water or distance(m.hex(s), m.hex(j)) > within:
                continue
            f = m.features_between(m.hex(i), m.hex(j))
            if f & BLOCK or (through and f & through):
                continue
            seen.add(j)
            todo.append(j)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("map_id", sorted(MAPS))
def test_every_land_adjacency_across_water_is_declared(map_id: str) -> None:
    """The geography's cross-water land adjacencies are exactly the declared ones, and each is
    drawn in the committed map as declared (sea hexside or strait)."""
    mm = _script()
    b = mm.build(map_id)
    found = {frozenset((b.layout.to_label(b.hexes[i]), b.layout.to_label(b.hexes[j]))): km
             for (i, j), km in b.crossings.items()}
    decl = declared(map_id)
    listing = "\n".join(f"{'-'.join(sorted(p))}: {km:.0f} km of water, "
                        f"{decl.get(p, ('UNDECLARED', ''))}" for p, km in sorted(
                            found.items(), key=lambda kv: sorted(kv[0])))
    print(listing)
    assert set(found) - set(decl) == set(), listing
    assert set(decl) - set(found) == set(), "declared but not across water"
    m = shipped(map_id)
    for pair, (name, kind) in decl.items():
        a, c = (m.hex(m.index_of_label(x)) for x in sorted(pair))
        want = HexsideFeature.SEA if kind == "sea" else HexsideFeature.STRAIT
        assert m.features_between(a, c) & want, f"{name}: {sorted(pair)} is not a {kind}"


def test_tr28_no_land_path_joins_england_to_the_continent() -> None:
    """L21 (Cherbourg) and K22 (England) were land neighbours; German armour walked
    M22-L21-K22-J22 to London. Now the Channel is a sea hexside: a land unit cannot move,
    attack, project a ZOC or trace supply across it (TR-27, TR-28)."""
    m = shipped("tr-europe")
    m_ = m.index_of_label
    assert m.features_between(m.hex(m_("L21")), m.hex(m_("K22"))) & HexsideFeature.SEA
    england = land_reach(m, "J22")
    assert m_("L21") not in england and m_("M22") not in england
    assert m_("L24") not in england  # Belgium
    assert m_("J22") not in land_reach(m, "M22")


def test_straits_are_the_only_land_links_of_sicily_anatolia_and_zealand() -> None:
    """Messina, the Bosporus and Dardanelles and the Danish straits are strait hexsides: land
    units cross them (3R4's crossing arrows, docs/MAPS.md); without them the shores part
    (Thrace and Anatolia stay joined only the long way, round the Black Sea)."""
    m = shipped("tr-europe")
    i = m.index_of_label
    for near, far in (("AD30", "AB31"),   # Sicily - Calabria (Messina)
                      ("Z40", "AB43"),    # Thrace - Anatolia (Bosporus, Dardanelles)
                      ("H31", "I29")):    # Zealand - Schleswig (the Belts)
        assert i(far) in land_reach(m, near, within=6), (near, far)
        assert i(far) not in land_reach(m, near, through=HexsideFeature.STRAIT, within=6), \
            (near, far)


def test_the_text_s_islands_stay_islands() -> None:
    """Corsica, Sardinia, Rhodes and Malta: reached by sea only (Bonifacio, the Anatolian
    coast; sea hexsides where the grid made both shores land); Finland is not reached across
    the Gulf of Finland, nor Albania from Apulia across Otranto, nor Morocco from Gibraltar."""
    m = shipped("tr-europe")
    i = m.index_of_label
    assert i("Y26") not in land_reach(m, "X26")          # Sardinia from Corsica
    assert i("AE41") not in land_reach(m, "AF41")        # Anatolia from Rhodes
    for a, c in (("Z13", "AA13"), ("Z33", "Z34")):  # Gibraltar, Otranto: no land step across
        assert m.features_between(m.hex(i(a)), m.hex(i(c))) == HexsideFeature.SEA
    # Estonia and Finland are joined by land only round the Gulf, through Leningrad
    assert i("C38") in land_reach(m, "D38")
    assert m.features_between(m.hex(i("D38")), m.hex(i("C38"))) & HexsideFeature.SEA


def test_every_declared_crossing_is_drawn_on_the_shipped_maps() -> None:
    for map_id in MAPS:
        m = shipped(map_id)
        for pair, (name, kind) in declared(map_id).items():
            a, c = (m.hex(m.index_of_label(x)) for x in sorted(pair))
            f = m.features_between(a, c)
            if kind == "sea":
                assert f == HexsideFeature.SEA, (map_id, name)
            else:
                assert f & HexsideFeature.STRAIT and not f & BLOCK, (map_id, name)


def test_the_irish_sea_and_kerch_are_water_at_this_scale() -> None:
    """The Irish Sea and the North Channel are sea hexes (no pair to declare): Ireland (Dublin
    G20, Belfast F20) reaches neither Glasgow nor London by land. Kerch: the strait is the sea
    hex T46, so the Crimea (Sevastopol U45, U46, T45) and the Kerch city hex T47 on the Taman
    shore are not neighbours; their land link is round the Sea of Azov by Perekop."""
    m = shipped("tr-europe")
    i = m.index_of_label
    ireland = land_reach(m, "G20")
    assert i("F20") in ireland and i("E22") not in ireland and i("K23") not in ireland
    assert m.terrain_of(m.hex(i("T46"))).value == "sea"
    land_nbrs = {m.label(int(j)) for j in m.neighbor_indices(i("T47"))
                 if j >= 0 and m.terrain_of(m.hex(int(j))).value != "sea"}
    assert land_nbrs == {"T48", "U48"}  # the Kuban side only
    assert i("T47") in land_reach(m, "U45")
