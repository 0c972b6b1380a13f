"""Retreat paths (EUR-16, TR-27, TR-32; C-COMBAT retreat path finding).

Legal 1- and 2-hex retreats from a hex, each hex of the retreat farther from the start, never
into enemy-occupied or water hexes or across sea, lake or impassable hexsides. Enemy ZOC is
configured by :class:`RetreatRules`:

* Europa revised (EUR-16): a retreat may pass through enemy ZOC; each enemy-ZOC hex entered
  costs one division reduced to cadre (or one non-divisional unit eliminated); a friendly unit
  in the hex negates that ZOC;
* 3R (TR-27): a retreat may not enter an enemy ZOC unless a friendly unit is there.

Many stacks are answered at once (:func:`retreat_table`) with (k, 6, 6) numpy candidate
tables; options become labelled Python objects only when a stack's options are asked for.

>>> from grognard.core.hexgrid import Hex
>>> from grognard.core.mapdata import MapData
>>> from grognard.core.paths import Forces
>>> from grognard.core.zoc import zoc_field, europa_revised_zoc
>>> m = MapData.build([Hex(q, 0) for q in range(4)], ["clear"] * 4)
>>> f = Forces.build(m, [Hex(1, 0), Hex(3, 0)], ["axis", "allies"])
>>> z = zoc_field(m, f, "axis", europa_revised_zoc())
>>> [(o.path, o.zoc_entered) for o in retreat_options(m, Hex(1, 0), 1, z,
...                                                    europa_revised_retreat())]
[(('0201', '0101'), 0), (('0201', '0302'), 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from grognard.core.errors import InputError
from grognard.core.mapdata import HexsideFeature, MapData
from grognard.core.paths import HexRef, Purpose, edge_tables, hex_indices, labels
from grognard.core.units import Unit
from grognard.core.zoc import ZocField


class ZocInRetreat(StrEnum):
    PENALTY = "penalty"  # EUR-16: allowed, one reduction per enemy-ZOC hex entered
    PROHIBITED = "prohibited"  # 3R: not into enemy ZOC unless friendly-occupied


@dataclass(frozen=True)
class RetreatRules:
    """How retreats treat enemy ZOC and terrain. Presets: :func:`europa_revised_retreat`,
    :func:`third_reich_retreat`."""

    zoc_entry: ZocInRetreat = ZocInRetreat.PENALTY
    blocking_features: HexsideFeature = (
        HexsideFeature.SEA | HexsideFeature.LAKE | HexsideFeature.IMPASSABLE
    )
    each_hex_farther: bool = True


def europa_revised_retreat() -> RetreatRules:
    """EUR-16 Retreats may pass through enemy ZOCs at one reduction per ZOC hex entered."""
    return RetreatRules(zoc_entry=ZocInRetreat.PENALTY)


def third_reich_retreat() -> RetreatRules:
    """TR-27/TR-32 Single-hex retreats, never into enemy ZOC unless a friendly unit is there."""
    return RetreatRules(zoc_entry=ZocInRetreat.PROHIBITED)


@dataclass(frozen=True, slots=True)
class RetreatOption:
    """One legal retreat: the hexes from the start (first) to the end, and its ZOC toll."""

    hexes: tuple[int, ...]
    path: tuple[str, ...]
    zoc_entered: int


@dataclass(frozen=True, eq=False)
class RetreatTable:
    """Legal retreats of many stacks as arrays: option ``i`` belongs to stack ``stack[i]``,
    runs through ``hexes[i]`` (start first) and enters ``zoc_entered[i]`` enemy-ZOC hexes.
    Options of a stack are contiguous, cheapest in ZOC first."""

    map: MapData
    starts: npt.NDArray[np.int32]
    stack: npt.NDArray[np.int64]
    hexes: npt.NDArray[np.int32]
    zoc_entered: npt.NDArray[np.int64]

    def count(self) -> npt.NDArray[np.int64]:
        """Number of legal retreats per stack (0: the stack cannot retreat)."""
        return np.bincount(self.stack, minlength=len(self.starts))

    def options(self, j: int) -> list[RetreatOption]:
        """The legal retreats of stack ``j`` as labelled options."""
        lo, hi = np.searchsorted(self.stack, [j, j + 1])
        return [RetreatOption(hexes=tuple(h), path=tuple(labels(self.map, h)), zoc_entered=z)
                for h, z in zip(self.hexes[lo:hi].tolist(), self.zoc_entered[lo:hi].tolist(),
                                strict=True)]


def retreat_options(m: MapData, start: HexRef, length: int, zoc: ZocField,
                    rules: RetreatRules) -> list[RetreatOption]:
    """EUR-16/TR-27 Every legal retreat of ``length`` (1 or 2) hexes from ``start``, cheapest
    in ZOC first. An empty list means the stack cannot retreat (TR-32: it may lose a unit
    instead)."""
    return retreat_table(m, [start], length, zoc, rules).options(0)


def retreat_table(m: MapData, starts: Sequence[HexRef] | npt.ArrayLike, length: int,
                  zoc: ZocField, rules: RetreatRules) -> RetreatTable:
    """EUR-16/TR-27 Legal retreats for many stacks at once (vectorised candidate tables)."""
    if length not in (1, 2):
        raise InputError("length", "a retreat is 1 or 2 hexes")
    s = hex_indices(m, starts, "starts")
    et = edge_tables(m)
    z = zoc.mask(Purpose.RETREAT)
    open_hex = ~(zoc.enemy | et.water)
    if rules.zoc_entry == ZocInRetreat.PROHIBITED:
        open_hex = open_hex & ~z
    blockf = np.uint16(int(rules.blocking_features))

    def step(frm: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
        safe = np.where(frm >= 0, frm, 0)
        nb, ps = et.nbr[safe], et.pos[safe]
        ok = (nb >= 0) & (frm[..., None] >= 0)
        ok &= (m.edge_features[np.where(ps >= 0, ps, 0)] & blockf) == 0
        ok &= open_hex[np.where(nb >= 0, nb, 0)]
        return np.where(ok, nb, -1).astype(np.int32)

    c1 = step(s)  # (k, 6)
    k = len(s)
    if length == 1:
        ok = c1 >= 0
        stack = np.broadcast_to(np.arange(k)[:, None], c1.shape)[ok]
        hexes = np.stack([s[stack], c1[ok]], axis=1)
    else:
        c2 = step(c1)  # (k, 6, 6)
        ok = (c2 >= 0) & (c2 != s[:, None, None])
        if rules.each_hex_farther:
            safe = np.where(c2 >= 0, c2, 0)
            dq = m.q[safe].astype(np.int64) - m.q[s].astype(np.int64)[:, None, None]
            dr = m.r[safe].astype(np.int64) - m.r[s].astype(np.int64)[:, None, None]
            ok &= (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2 == 2
        stack = np.broadcast_to(np.arange(k)[:, None, None], c2.shape)[ok]
        mid = np.broadcast_to(c1[..., None], c2.shape)[ok]
        hexes = np.stack([s[stack], mid, c2[ok]], axis=1)
    zoc_n = z[hexes[:, 1:]].sum(axis=1).astype(np.int64)
    order = np.lexsort((hexes[:, -1], zoc_n, stack)) if len(stack) else np.arange(0)
    return RetreatTable(map=m, starts=s, stack=stack[order].astype(np.int64),
                        hexes=hexes[order].astype(np.int32), zoc_entered=zoc_n[order])


@dataclass(frozen=True, slots=True)
class RetreatLosses:
    """EUR-16 the toll of a retreat: unit ids reduced to cadre and ids eliminated."""

    to_cadre: tuple[str, ...]
    eliminated: tuple[str, ...]


def retreat_penalty(stack: Sequence[Unit], zoc_entered: int) -> RetreatLosses:
    """EUR-16 For each enemy-ZOC hex entered, one division is reduced to cadre; with no
    divisional unit left to reduce, one non-divisional unit is eliminated (reading: then a
    cadre is eliminated). Units are taken in the order given (the owner's choice)."""
    if zoc_entered < 0:
        raise InputError("zoc_entered", "must not be negative")
    full = [u for u in stack if u.divisional and not u.cadre]
    nondiv = [u for u in stack if not u.divisional]
    cadres = [u for u in stack if u.divisional and u.cadre]
    to_cadre: list[str] = []
    eliminated: list[str] = []
    for _ in range(zoc_entered):
        if full:
            u = full.pop(0)
            to_cadre.append(u.id)
            cadres.append(u.to_cadre())
        elif nondiv:
            eliminated.append(nondiv.pop(0).id)
        elif cadres:
            eliminated.append(cadres.pop(0).id)
    return RetreatLosses(to_cadre=tuple(to_cadre), eliminated=tuple(eliminated))


__all__ = [
    "RetreatLosses", "RetreatOption", "RetreatRules", "RetreatTable", "ZocInRetreat",
    "europa_revised_retreat", "retreat_options", "retreat_penalty", "retreat_table",
    "third_reich_retreat",
]
