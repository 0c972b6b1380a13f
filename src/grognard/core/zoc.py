"""Zones of control (C-ZOC): the whole-map field of enemy ZOC for a side, vectorised.

One mechanism, configured per rule system by a frozen :class:`ZocRules`:

* which terrain a ZOC does not extend *into* (3R: swamp, mountain, fortress — TR-27);
* which hexside features it does not cross (sea, impassable; political borders before a DoW
  are given per call as ``closed_countries``);
* which purposes friendly units negate it for (3R: supply and retreat — TR-27; Europa revised:
  retreats — EUR-16, and supply as in the original rules);
* ZOC classes: each unit carries a class (0 exerts none); the field keeps the strongest class
  reaching each hex, so Europa's "ZOC equal to or greater than their own class" (SUR-17h) is
  ``field.mask(min_class=unit_class)``.

>>> from grognard.core.hexgrid import Hex
>>> from grognard.core.mapdata import MapData
>>> from grognard.core.paths import Forces
>>> m = MapData.build([Hex(q, 0) for q in range(4)], ["clear", "clear", "swamp", "clear"])
>>> f = Forces.build(m, [Hex(1, 0), Hex(3, 0)], ["axis", "allies"])
>>> z = zoc_field(m, f, "axis", third_reich_zoc())   # allied ZOC, as seen by the Axis
>>> z.hexes()    # the swamp at (2, 0) is not entered by ZOC (TR-27)
[]
>>> zoc_field(m, f, "allies", third_reich_zoc()).hexes()   # Axis ZOC: not into the swamp
['0101']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from grognard.core.errors import InputError, parse_enum
from grognard.core.mapdata import Fortification, HexsideFeature, MapData, Terrain
from grognard.core.paths import BoolArray, Forces, IntArray, Purpose, edge_tables, labels

_FORT_CODES = {f: i for i, f in enumerate(Fortification)}


@dataclass(frozen=True)
class ZocRules:
    """How ZOCs project and what negates them. Presets: :func:`europa_revised_zoc`,
    :func:`third_reich_zoc`."""

    not_into_terrain: frozenset[Terrain] = frozenset()
    not_into_fortification: frozenset[Fortification] = frozenset()
    blocking_features: HexsideFeature = (
        HexsideFeature.SEA | HexsideFeature.LAKE | HexsideFeature.IMPASSABLE
    )
    negated_for: frozenset[Purpose] = frozenset({Purpose.SUPPLY, Purpose.RETREAT})
    not_into_water: bool = True


def europa_revised_zoc() -> ZocRules:
    """EUR-16/EUR-17 ZOCs: friendly units negate enemy ZOC for retreats (EUR-16) and, as in the
    original rules (EXTERNAL), for supply lines; never for movement. Terrain that stops ZOCs is
    given by the original TEC (EXTERNAL): none by default."""
    return ZocRules(negated_for=frozenset({Purpose.RETREAT, Purpose.SUPPLY}))


def third_reich_zoc() -> ZocRules:
    """TR-27 ZOCs: out of but not into swamp, mountain and fortress hexes; never across sea
    hexsides or impassable terrain (they do cross rivers); negated by friendly units only for
    supply and retreats."""
    return ZocRules(
        not_into_terrain=frozenset({Terrain.SWAMP, Terrain.MOUNTAIN}),
        not_into_fortification=frozenset({Fortification.FORTRESS}),
        negated_for=frozenset({Purpose.SUPPLY, Purpose.RETREAT}),
    )


@dataclass(frozen=True, eq=False)
class ZocField:
    """Enemy ZOC over the whole map, as seen by ``side``.

    ``strength[h]`` is the highest enemy ZOC class reaching hex ``h`` (0: none).
    ``friendly``/``enemy`` say which hexes hold units of the side / of its enemies.
    """

    map: MapData
    side: str
    rules: ZocRules
    strength: npt.NDArray[np.int8]
    friendly: BoolArray
    enemy: BoolArray
    _cache: dict[tuple[str, int], BoolArray] = field(default_factory=dict, repr=False)

    def mask(self, purpose: Purpose | str = Purpose.MOVEMENT, min_class: int = 1) -> BoolArray:
        """C-ZOC: hexes in enemy ZOC (of class >= ``min_class``) for ``purpose``, after
        negation by friendly units where the rules allow it for that purpose."""
        p = parse_enum(Purpose, purpose, "purpose")
        key = (p.value, int(min_class))
        got = self._cache.get(key)
        if got is None:
            got = self.strength >= max(int(min_class), 1)
            if p in self.rules.negated_for:
                got = got & ~self.friendly
            self._cache[key] = got
        return got

    def contains(self, h: int, purpose: Purpose | str = Purpose.MOVEMENT,
                 min_class: int = 1) -> bool:
        return bool(self.mask(purpose, min_class)[h])

    def hexes(self, purpose: Purpose | str = Purpose.MOVEMENT, min_class: int = 1) -> list[str]:
        """Labels of the hexes in enemy ZOC, in map order."""
        return labels(self.map, np.nonzero(self.mask(purpose, min_class))[0])


def _blocked_into(m: MapData, rules: ZocRules) -> npt.NDArray[np.bool_]:
    """The hexes no ZOC of ``rules`` enters (their terrain, fortification, water): fixed
    per map and rules, so made once (the last few kept; read-only, shared)."""
    for made_m, made_rules, mask in _BLOCKED:
        if made_m is m and made_rules == rules:
            return mask
    blocked = np.zeros(m.n, dtype=bool)
    if rules.not_into_terrain:
        blocked |= m.terrain_mask(*rules.not_into_terrain)
    if rules.not_into_fortification:
        blocked |= np.isin(m.fortification,
                           [_FORT_CODES[f] for f in rules.not_into_fortification])
    if rules.not_into_water:
        blocked |= edge_tables(m).water
    blocked.setflags(write=False)
    _BLOCKED.insert(0, (m, rules, blocked))
    del _BLOCKED[8:]
    return blocked


_BLOCKED: list[tuple[MapData, ZocRules, npt.NDArray[np.bool_]]] = []


def zoc_edges(m: MapData, rules: ZocRules, srcs: IntArray, *,
              closed_countries: Iterable[str] = ()) -> tuple[IntArray, IntArray]:
    """C-ZOC The edges a ZOC exerted in hexes ``srcs`` (map indices) projects over, as
    (source, entered hex) index arrays: not across ``rules.blocking_features`` hexsides, not
    into terrain the rules exclude (and water), not across a closed border. What
    :func:`zoc_field` spreads each unit's class over; a caller asking about a few hexes may
    read it once per map instead of building the whole field."""
    et = edge_tables(m)
    pos = et.pos[srcs].ravel()
    pos = pos[pos >= 0]
    s, t = et.src[pos], m.indices[pos]
    ok = (m.edge_features[pos] & np.uint16(int(rules.blocking_features))) == 0
    ok &= ~_blocked_into(m, rules)[t]
    closed = list(closed_countries)
    if closed:
        unknown = [c for c in closed if c not in m.country_names]
        if unknown:
            raise InputError("closed_countries", f"unknown country {unknown[0]!r}")
        codes = np.array([m.country_names.index(c) for c in closed])
        cs, ct = m.country[s], m.country[t]
        ok &= ~((cs != ct) & (np.isin(cs, codes) | np.isin(ct, codes)))
    return s[ok], t[ok]


def zoc_field(
    m: MapData,
    forces: Forces,
    side: str,
    rules: ZocRules,
    *,
    closed_countries: Iterable[str] = (),
) -> ZocField:
    """C-ZOC (TR-27; EUR-16/17): the field of enemy ZOC over the whole map for ``side``.

    Every unit not of ``side`` with ``zoc_class > 0`` projects its class into the adjacent
    hexes, except across ``rules.blocking_features`` hexsides, into terrain in
    ``rules.not_into_terrain`` / ``not_into_fortification`` (and water), and across a border
    into or out of a country in ``closed_countries`` (TR-27: no ZOC across political
    boundaries before a declaration of war). Vectorised over all edges of occupied hexes.
    """
    code = forces.side_code(side)
    friendly_units = forces.side == code
    friendly = forces.occupied(m.n, friendly_units)
    enemy = forces.occupied(m.n, ~friendly_units)
    ex = (~friendly_units) & (forces.zoc_class > 0)
    hex_class = np.zeros(m.n, dtype=np.int8)
    np.maximum.at(hex_class, forces.hex[ex], forces.zoc_class[ex])
    # only the edges leaving hexes that exert a ZOC (a few per unit, not the whole map)
    s, t = zoc_edges(m, rules, np.nonzero(hex_class > 0)[0].astype(np.int32),
                     closed_countries=closed_countries)
    strength = np.zeros(m.n, dtype=np.int8)
    np.maximum.at(strength, t, hex_class[s])
    return ZocField(map=m, side=side, rules=rules, strength=strength, friendly=friendly,
                    enemy=enemy)


__all__ = ["ZocField", "ZocRules", "europa_revised_zoc", "third_reich_zoc", "zoc_edges",
           "zoc_field"]
