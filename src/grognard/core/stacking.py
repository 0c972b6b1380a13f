"""Stacking checks (C-STACK; EUR-21, TR-29, TR-32/TR-61..63): whole map at once, exact.

One mechanism, configured by :class:`StackingRules`: what is counted (REs, units, air
factors), the limit per hex, lower limits in some terrain (Europa revised mountain 7 REs) and
a raised limit in marked hexes (3R bridgehead: 4 units). Sizes are exact (``Fraction`` REs);
totals per hex are summed with integer numpy arithmetic over a common denominator.

>>> from fractions import Fraction
>>> from grognard.core.hexgrid import Hex
>>> from grognard.core.mapdata import MapData
>>> m = MapData.build([Hex(0, 0), Hex(1, 0)], ["clear", "mountain"])
>>> rules = europa_revised_stacking()
>>> [v.describe() for v in stacking_violations(m, [0, 1, 1, 1], [3, 3, 3, Fraction(3, 2)],
...                                          rules)]
['0201: 7.5 RE over the limit of 7']
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from grognard.core.errors import InputError, parse_enum
from grognard.core.exact import exact_json
from grognard.core.mapdata import TERRAIN_CODES, MapData, Terrain
from grognard.core.paths import BoolArray, HexRef, hex_index, hex_indices, labels


class StackMeasure(StrEnum):
    RE = "RE"
    UNITS = "units"
    AIR_FACTORS = "air factors"


@dataclass(frozen=True)
class StackingRules:
    """What counts toward stacking and the limits. Presets: :func:`europa_revised_stacking`,
    :func:`third_reich_stacking`, :func:`third_reich_air_stacking`."""

    measure: StackMeasure
    limit: int
    terrain_limits: Mapping[Terrain, int] = field(default_factory=dict)
    marked_limit: int | None = None  # limit in marked hexes (3R bridgehead)

    def __post_init__(self) -> None:
        for v in (self.limit, *self.terrain_limits.values(),
                  *(() if self.marked_limit is None else (self.marked_limit,))):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InputError("stacking.limit", f"limits must be integers >= 0, not {v!r}")


def europa_revised_stacking() -> StackingRules:
    """EUR-21 Up to 10 REs per hex, any mix; 7 REs in mountain."""
    return StackingRules(StackMeasure.RE, 10, {Terrain.MOUNTAIN: 7})


def third_reich_stacking() -> StackingRules:
    """C-STACK (TR-32, TR-61..63) 2 units per hex; 4 in a bridgehead hex (``marked``)."""
    return StackingRules(StackMeasure.UNITS, 2, marked_limit=4)


def third_reich_air_stacking() -> StackingRules:
    """TR-29 At most 5 air factors per city or airbase hex, checked at the end of staging."""
    return StackingRules(StackMeasure.AIR_FACTORS, 5)


def stacking_limits(m: MapData, rules: StackingRules, marked: BoolArray | None = None
                    ) -> npt.NDArray[np.int64]:
    """C-STACK The stacking limit of every hex (vectorised)."""
    table = np.full(len(TERRAIN_CODES), rules.limit, dtype=np.int64)
    for t, lim in rules.terrain_limits.items():
        table[TERRAIN_CODES.index(parse_enum(Terrain, t, "stacking.terrain_limits"))] = lim
    out = table[m.terrain]
    if marked is not None and rules.marked_limit is not None:
        out = np.where(np.asarray(marked, dtype=bool), rules.marked_limit, out)
    return out


@dataclass(frozen=True, slots=True)
class StackingViolation:
    """An overstacked hex: its label, what it holds and its limit."""

    hex: str
    total: Fraction
    limit: int
    measure: StackMeasure

    def describe(self) -> str:
        return f"{self.hex}: {exact_json(self.total)} {self.measure} over the limit of {self.limit}"

    def to_json(self) -> dict[str, object]:
        return {"hex": self.hex, "total": exact_json(self.total), "limit": self.limit,
                "measure": str(self.measure)}


def _exact_totals(n: int, hexes: npt.NDArray[np.int32],
                  sizes: Sequence[int | Fraction] | npt.NDArray[np.integer[Any]] | None
                  ) -> tuple[npt.NDArray[np.int64], int]:
    if sizes is None:
        return np.bincount(hexes, minlength=n).astype(np.int64), 1
    if isinstance(sizes, np.ndarray) and sizes.dtype.kind in "iu":
        if len(sizes) and sizes.min() < 0:
            raise InputError("sizes", "stacking sizes must not be negative")
        tot = np.zeros(n, dtype=np.int64)
        np.add.at(tot, hexes, sizes.astype(np.int64))
        return tot, 1
    fr = [Fraction(s) for s in sizes]
    if any(f < 0 for f in fr):
        raise InputError("sizes", "stacking sizes must not be negative")
    den = math.lcm(*(f.denominator for f in fr)) if fr else 1
    nums = np.array([int(f * den) for f in fr], dtype=np.int64)
    tot = np.zeros(n, dtype=np.int64)
    np.add.at(tot, hexes, nums)
    return tot, den


def stack_totals(m: MapData, hexes: Sequence[HexRef] | npt.ArrayLike,
                 sizes: Sequence[int | Fraction] | None = None) -> dict[int, Fraction]:
    """C-STACK What each occupied hex holds (sizes default to 1 per unit), exactly."""
    h = hex_indices(m, hexes, "hexes")
    sz = [1] * len(h) if sizes is None else list(sizes)
    if len(sz) != len(h):
        raise InputError("sizes", f"{len(sz)} sizes for {len(h)} units")
    tot, den = _exact_totals(m.n, h, sz)
    return {int(i): Fraction(int(tot[i]), den) for i in np.nonzero(tot)[0]}


def stacking_violations(
    m: MapData,
    hexes: Sequence[HexRef] | npt.ArrayLike,
    sizes: Sequence[int | Fraction] | npt.NDArray[np.integer[Any]] | None,
    rules: StackingRules,
    *,
    marked: BoolArray | None = None,
) -> list[StackingViolation]:
    """EUR-21/TR-29/C-STACK Every hex over its limit, with what it holds (one vectorised pass).

    ``sizes`` are REs (Europa; ``Fraction`` allowed), air factors (3R air), or ``None`` to
    count units (3R). ``None`` or an integer numpy array take a pure numpy path."""
    h = hex_indices(m, hexes, "hexes")
    if sizes is not None and len(sizes) != len(h):
        raise InputError("sizes", f"{len(sizes)} sizes for {len(h)} units")
    tot, den = _exact_totals(m.n, h, sizes)
    lim = stacking_limits(m, rules, marked)
    over = np.nonzero(tot > lim * den)[0]
    names = labels(m, over)
    return [StackingViolation(names[i], Fraction(int(tot[o]), den), int(lim[o]), rules.measure)
            for i, o in enumerate(over.tolist())]


def stacking_room(m: MapData, hex_ref: HexRef, sizes: Sequence[int | Fraction],
                  rules: StackingRules, *, marked: bool = False) -> Fraction:
    """EUR-21 Room left in a hex for more REs/units/factors (negative when overstacked)."""
    i = hex_index(m, hex_ref)
    lim = rules.limit
    t = TERRAIN_CODES[int(m.terrain[i])]
    lim = rules.terrain_limits.get(t, lim)
    if marked and rules.marked_limit is not None:
        lim = rules.marked_limit
    return Fraction(lim) - sum((Fraction(s) for s in sizes), Fraction(0))


__all__ = [
    "StackMeasure", "StackingRules", "StackingViolation", "europa_revised_stacking",
    "stack_totals", "stacking_limits", "stacking_room", "stacking_violations",
    "third_reich_air_stacking", "third_reich_stacking",
]
