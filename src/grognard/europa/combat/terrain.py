"""Europa revised "Terrain effects on combat" (EUR-10), read from a configurable table.

Which terrain gave -1 or -2 DRMs or prevented AEC on the original Terrain Effects Chart is a
base-game matter (EXTERNAL). grognard ships ``europa_terrain_effects`` and
``europa_hexside_effects`` as a GENERIC STAND-IN (``source = "reconstructed"``); replace them
with your game's TEC via ``--tables DIR``. The revised rules themselves are code here:

* -1 terrain becomes +1 defense strength, -2 terrain +2 and one left column shift (per hex);
* AEC-negating terrain ignores the armor odds;
* water barriers halve armor and mechanized AFs attacking across, major rivers all AFs;
* mountain, fortified and major city shift bombardment one column left (one shift at most);
* no bombardment support (+1 DRM) against swamp.

>>> e = hex_effects("mountain")
>>> e.defense_add, e.left_shifts, e.armor_odds_allowed, e.bombard_left
(2, 1, False, 1)
>>> hex_effects("clear", fortified=True).defense_multiplier
2
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from grognard.core.errors import InputError, TableError
from grognard.core.tables import Table, load_tables
from grognard.europa.combat.attack import HEXSIDE_TABLE, TERRAIN_TABLE, Combatant

FEATURE_ROWS = ("fortified", "major_city")


class Halving(StrEnum):
    """What a hexside halves for units attacking across it (EUR-10)."""

    NONE = "none"
    MECHANIZED = "mechanized"
    ALL = "all"


_HALVING_RANK = {Halving.NONE: 0, Halving.MECHANIZED: 1, Halving.ALL: 2}


@dataclass(frozen=True, slots=True)
class HexEffects:
    """The revised terrain effects of the target hex on one combat (EUR-10)."""

    terrain: str
    defense_add: int
    left_shifts: int
    armor_odds_allowed: bool
    bombard_left: int
    bombard_drm_allowed: bool
    defense_multiplier: int


def terrain_table() -> Table:
    return load_tables().get(TERRAIN_TABLE)


def hexside_table() -> Table:
    return load_tables().get(HEXSIDE_TABLE)


def _row(table: Table, key: str, field: str) -> dict[str, int]:
    if key not in table.rows:
        known = ", ".join(str(k) for k in table.rows if k not in FEATURE_ROWS)
        raise InputError(field, f"unknown terrain {key!r} (known: {known})")
    out = {}
    for col in ("defense_add", "left_shifts", "negates_armor", "bombard_left", "no_bombard_drm",
                "defense_multiplier"):
        v = table.lookup(key, col)
        if not isinstance(v, int) or v < 0:
            raise TableError("must be a non-negative integer", file=table.file, table=table.id,
                             column=col, row=key)
        out[col] = v
    return out


def hex_effects(terrain: str, fortified: bool = False, major_city: bool = False,
                table: Table | None = None) -> HexEffects:
    """EUR-10 (Terrain effects on combat) The target hex's effects: defense add, left shifts,
    armor odds allowed, bombardment shift and support, defense multiplier.

    Terrain and the fortified / major-city features combine: defense adds and left shifts add
    up, any AEC negation negates, the bombardment left shift is one at most ("any of those, not
    cumulative", EUR-04) and the larger defense multiplier applies.

    >>> hex_effects("swamp").bombard_drm_allowed
    False
    """
    t = table if table is not None else terrain_table()
    if terrain in FEATURE_ROWS:
        raise InputError("terrain", f"{terrain!r} is a hex feature, not a terrain")
    rows = [_row(t, terrain, "terrain")]
    for flag, key in ((fortified, "fortified"), (major_city, "major_city")):
        if flag:
            rows.append(_row(t, key, key))
    return HexEffects(
        terrain=terrain,
        defense_add=sum(r["defense_add"] for r in rows),
        left_shifts=sum(r["left_shifts"] for r in rows),
        armor_odds_allowed=not any(r["negates_armor"] for r in rows),
        bombard_left=min(1, max(r["bombard_left"] for r in rows)),
        bombard_drm_allowed=not any(r["no_bombard_drm"] for r in rows),
        defense_multiplier=max(max(r["defense_multiplier"] for r in rows), 1),
    )


def hexside_halving(hexsides: tuple[str, ...], table: Table | None = None,
                    field: str = "hexsides") -> Halving:
    """EUR-10 The strongest halving among the hexsides a unit attacks across (not cumulative).

    >>> hexside_halving(("river",)), hexside_halving(("river", "major_river"))
    (<Halving.MECHANIZED: 'mechanized'>, <Halving.ALL: 'all'>)
    """
    t = table if table is not None else hexside_table()
    best = Halving.NONE
    for h in hexsides:
        if h not in t.rows:
            known = ", ".join(str(k) for k in t.rows)
            raise InputError(field, f"unknown hexside {h!r} (known: {known})")
        raw = t.lookup(h, "halves")
        try:
            kind = Halving(str(raw))
        except ValueError:
            raise TableError("halves must be none, mechanized or all", file=t.file,
                             table=t.id, column="halves", row=h) from None
        if _HALVING_RANK[kind] > _HALVING_RANK[best]:
            best = kind
    return best


def crossing_multiplier(unit: Combatant, hexsides: tuple[str, ...],
                        table: Table | None = None) -> Fraction:
    """EUR-10 The attack-factor multiplier of ``unit`` attacking across ``hexsides``: 1/2 for
    armor and mechanized units across a water barrier, 1/2 for every unit across a major river.

    >>> inf = Combatant("i", attack=6)
    >>> pz = Combatant("p", attack=9, type="armor", armor="full")
    >>> crossing_multiplier(inf, ("river",)), crossing_multiplier(pz, ("river",))
    (Fraction(1, 1), Fraction(1, 2))
    >>> crossing_multiplier(inf, ("major_river",))
    Fraction(1, 2)
    """
    crossed = unit.hexsides if unit.hexsides is not None else hexsides
    kind = hexside_halving(crossed, table, f"unit {unit.id}.hexsides")
    if kind == Halving.ALL or (kind == Halving.MECHANIZED and unit.is_mechanized):
        return Fraction(1, 2)
    return Fraction(1)
