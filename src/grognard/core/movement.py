"""Land movement ranges (EUR-17, EUR-19, EUR-20, TR-27, TR-28; C-ZOC, C-TERRAIN, C-HEXSIDE).

One mechanism, configured by a frozen :class:`MovementRules`: terrain entry costs per movement
class (a number, ``ALL`` movement points, or ``PROHIBITED``), hexside costs (3R river +1, sea
prohibited), the cost to enter an enemy ZOC (3R +1) and to leave one (Europa revised +2),
ZOC-to-ZOC moves (Europa revised: mechanized only, +3 instead of +2), classes that must stop on
entering an enemy ZOC, the 3R one-hex-regardless move, terrain prohibited in the mechanized
phase, and EUR-26 interdiction (+1 MP). Enemy-occupied hexes are never entered.

:func:`movement_graph` builds the per-edge costs of one movement class once per phase
(vectorised); :meth:`MovementGraph.ranges` then answers nearby stacks together in one
``scipy.sparse.csgraph.dijkstra`` call over the window of hexes they can reach, each stack
from a virtual source node whose edges are its first step (where leaving a ZOC, the one-hex
move and "all MPs" terrain apply), so the shared graph needs no per-stack edits.

>>> from grognard.core.hexgrid import Hex
>>> from grognard.core.mapdata import MapData
>>> from grognard.core.paths import Forces
>>> from grognard.core.zoc import zoc_field, third_reich_zoc
>>> m = MapData.build([Hex(q, 0) for q in range(6)], ["clear"] * 6)
>>> f = Forces.build(m, [Hex(0, 0), Hex(5, 0)], ["axis", "allies"])
>>> z = zoc_field(m, f, "axis", third_reich_zoc())
>>> r = movement_range(m, Hex(0, 0), 5, MoveClass.FOOT, z, third_reich_movement())
>>> r.path_to(Hex(4, 0)), r.cost_to(Hex(4, 0))   # +1 to enter the ZOC, then stop (TR-27)
(['0101', '0201', '0302', '0402', '0503'], 5)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.core.mapdata import TERRAIN_CODES, HexsideFeature, MapData, Terrain
from grognard.core.paths import (
    BoolArray,
    FloatArray,
    HexRef,
    IntArray,
    Purpose,
    edge_tables,
    hex_index,
    hex_indices,
    labels,
)
from grognard.core.readings import Readings
from grognard.core.units import Unit, UnitType
from grognard.core.zoc import ZocField

_ALL = 1e9  # "all movement points": usable only as a whole first move


class MoveClass(StrEnum):
    """Movement class: foot (non-mechanized; 3R infantry) or mechanized (3R armor)."""

    FOOT = "foot"
    MECHANIZED = "mechanized"


class SpecialCost(StrEnum):
    ALL = "all"  # costs all the unit's MPs: only as its whole move (TR-28 armor in swamp)
    PROHIBITED = "prohibited"


class MovementPhase(StrEnum):
    NORMAL = "normal"
    MECHANIZED = "mechanized"  # 3R mechanized movement; Europa exploitation


Cost = int | SpecialCost


@dataclass(frozen=True)
class MovementRules:
    """Costs and ZOC behaviour of land movement. Presets: :func:`europa_revised_movement`,
    :func:`third_reich_movement`. Water hexes are never entered."""

    default_cost: int = 1
    terrain_costs: Mapping[MoveClass, Mapping[Terrain, Cost]] = field(default_factory=dict)
    hexside_costs: Mapping[HexsideFeature, Cost] = field(default_factory=dict)
    enter_zoc_cost: int = 0
    leave_zoc_cost: int = 0
    zoc_to_zoc_cost: Mapping[MoveClass, Cost] = field(default_factory=dict)
    must_stop_in_zoc: frozenset[MoveClass] = frozenset()
    one_hex_minimum: bool = False
    mechanized_phase_prohibited: Mapping[MoveClass, frozenset[Terrain]] = field(
        default_factory=dict)
    interdiction_cost: int = 1

    def __post_init__(self) -> None:
        for cls_costs in self.terrain_costs.values():
            for t, c in cls_costs.items():
                _check_cost(c, f"movement.terrain_costs.{t}")
        for feat, c in self.hexside_costs.items():
            _check_cost(c, f"movement.hexside_costs.{feat!r}", minimum=0)
        for name in ("default_cost",):
            _check_cost(getattr(self, name), f"movement.{name}")
        for name in ("enter_zoc_cost", "leave_zoc_cost", "interdiction_cost"):
            _check_cost(getattr(self, name), f"movement.{name}", minimum=0)


def _check_cost(c: Any, where: str, minimum: int = 1) -> None:
    if isinstance(c, SpecialCost):
        return
    if isinstance(c, bool) or not isinstance(c, int) or c < minimum:
        raise InputError(where, f"cost must be an integer >= {minimum}, 'all' or 'prohibited'")


_BLOCKING = HexsideFeature.SEA | HexsideFeature.LAKE | HexsideFeature.IMPASSABLE


def europa_revised_movement(
    terrain_costs: Mapping[MoveClass, Mapping[Terrain, Cost]] | None = None,
    hexside_costs: Mapping[HexsideFeature, Cost] | None = None,
) -> MovementRules:
    """EUR-17 ZOC revisions: leaving an enemy ZOC +2 MP for every unit; ZOC to ZOC only for
    mechanized units, at +3 (replacing the +2: reading 1); non-mechanized units stop on
    entering an enemy ZOC. The terrain effects chart is the original game's (EXTERNAL): pass
    ``terrain_costs``/``hexside_costs``; by default every land hex costs 1 and sea, lake and
    impassable hexsides are prohibited."""
    hs: dict[HexsideFeature, Cost] = {
        HexsideFeature.SEA: SpecialCost.PROHIBITED,
        HexsideFeature.LAKE: SpecialCost.PROHIBITED,
        HexsideFeature.IMPASSABLE: SpecialCost.PROHIBITED,
    }
    hs.update(hexside_costs or {})
    return MovementRules(
        terrain_costs=dict(terrain_costs or {}),
        hexside_costs=hs,
        leave_zoc_cost=2,
        zoc_to_zoc_cost={MoveClass.MECHANIZED: 3, MoveClass.FOOT: SpecialCost.PROHIBITED},
        must_stop_in_zoc=frozenset({MoveClass.FOOT}),
    )


def third_reich_movement() -> MovementRules:
    """TR-27/TR-28: every hex 1 MP; swamp and mountain 2 MP for infantry and all MPs for armor
    (which may not enter them in the mechanized phase); river hexside +1; sea hexsides and
    impassable terrain prohibited; +1 MP to enter an enemy ZOC, nothing to leave; infantry stops
    on entering; a unit may always move one hex whatever the cost (even ZOC to ZOC)."""
    rough = {Terrain.SWAMP, Terrain.MOUNTAIN}
    return MovementRules(
        terrain_costs={
            MoveClass.FOOT: dict.fromkeys(rough, 2),
            MoveClass.MECHANIZED: dict.fromkeys(rough, SpecialCost.ALL),
        },
        hexside_costs={
            HexsideFeature.RIVER: 1,
            HexsideFeature.SEA: SpecialCost.PROHIBITED,
            HexsideFeature.LAKE: SpecialCost.PROHIBITED,
            HexsideFeature.IMPASSABLE: SpecialCost.PROHIBITED,
        },
        enter_zoc_cost=1,
        must_stop_in_zoc=frozenset({MoveClass.FOOT}),
        one_hex_minimum=True,
        mechanized_phase_prohibited={MoveClass.MECHANIZED: frozenset(rough)},
    )


@dataclass(frozen=True)
class MovementReadings(Readings):
    """The RULES.md switches of the map layer's movement rows.

    ``mech_definition_ma_threshold`` (EUR-17 reading 2): motorized/motorcycle units count as
    mechanized only with MA >= this (default 10). ``overrun_unlisted_terrain_allowed``
    (EUR-20): terrain the rule does not list (marsh, desert, steppe, glacier) follows the base
    rules; default: overruns allowed there. ``stacking_at_move_end`` (EUR-21): the engine
    refuses a move or advance that would end over the stacking limit (default true)."""

    mech_definition_ma_threshold: int = 10
    overrun_unlisted_terrain_allowed: bool = True
    #: EUR-21: when stacking is checked is the Europa core rules' (not in our texts); our
    #: reading: a move or an advance after combat may not end with its side over the limit in
    #: the hex it ends in (units pass through freely; retreats are not limited). False: no check.
    stacking_at_move_end: bool = True


def is_mechanized(unit: Unit, readings: MovementReadings | None = None) -> bool:
    """EUR-17 Mechanized means the armor, armored-infantry, or motorized/motorcycle symbols
    with MA 10 (``mech_definition_ma_threshold``), whatever the nationality."""
    r = readings or MovementReadings()
    if unit.type in (UnitType.ARMOR, UnitType.ARMORED_INFANTRY, UnitType.MECHANIZED):
        return True
    return unit.type == UnitType.MOTORIZED and unit.movement >= r.mech_definition_ma_threshold


def move_class_of(unit: Unit, readings: MovementReadings | None = None) -> MoveClass:
    """EUR-17/TR-27 The movement class of a unit: mechanized (Europa: armor, armored infantry,
    mechanized, motorized with MA >= the threshold; 3R: armor) or foot."""
    return MoveClass.MECHANIZED if is_mechanized(unit, readings) else MoveClass.FOOT


def third_reich_movement_allowance(ma: int, mechanized: bool, mud: bool) -> int:
    """TR-28 Mud halves the movement allowance of armor units, fractions rounded down."""
    if ma < 0:
        raise InputError("ma", "must not be negative")
    return ma // 2 if (mechanized and mud) else ma


# --- the per-edge cost field --------------------------------------------------------------------
def _to_float(c: Cost) -> float:
    if c == SpecialCost.ALL:
        return _ALL
    if c == SpecialCost.PROHIBITED:
        return np.inf
    return float(c)


def _terrain_table(rules: MovementRules, cls: MoveClass, ph: MovementPhase) -> FloatArray:
    """The MP cost to enter each terrain code for ``cls`` in phase ``ph`` (``inf``: water or
    prohibited in the mechanized phase)."""
    table = np.full(len(TERRAIN_CODES), float(rules.default_cost))
    for t, c in rules.terrain_costs.get(cls, {}).items():
        table[TERRAIN_CODES.index(parse_enum(Terrain, t, "movement.terrain_costs"))] = _to_float(c)
    table_water = np.array([t in (Terrain.SEA, Terrain.LAKE) for t in TERRAIN_CODES])
    table[table_water] = np.inf
    if ph == MovementPhase.MECHANIZED:
        for t in rules.mechanized_phase_prohibited.get(cls, frozenset()):
            tt = parse_enum(Terrain, t, "movement.mechanized_phase_prohibited")
            table[TERRAIN_CODES.index(tt)] = np.inf
    return table


def _hexside_table(rules: MovementRules) -> FloatArray:
    """The extra MP of each combination of the 8 hexside feature bits."""
    vals = np.arange(256)
    ftab = np.zeros(256)
    for feat, c in rules.hexside_costs.items():
        ftab = ftab + np.where(vals & int(feat), _to_float(c), 0.0)
    return ftab


def _zoc_table(rules: MovementRules, cls: MoveClass) -> FloatArray | None:
    """The extra MP of a step by (from in ZOC) * 2 + (to in ZOC): nothing, nothing, leave, ZOC
    to ZOC; None when the rules charge neither."""
    z2z = rules.zoc_to_zoc_cost.get(cls)
    if not (rules.leave_zoc_cost or z2z is not None):
        return None
    both = float(rules.leave_zoc_cost) if z2z is None else _to_float(z2z)
    return np.array([0.0, 0.0, float(rules.leave_zoc_cost), both])


#: The last few (rules, class, phase) and their step tables (rules by identity: kept alive here).
_STEP_TABLES: list[tuple[MovementRules, MoveClass, MovementPhase, Any]] = []


def _step_tables(rules: MovementRules, cls: MoveClass, ph: MovementPhase
                 ) -> tuple[FloatArray, FloatArray, FloatArray | None]:
    """:func:`_terrain_table`, :func:`_hexside_table` and :func:`_zoc_table` of ``rules`` (read
    only; the rules are frozen)."""
    for r, c, p, got in _STEP_TABLES:
        if r is rules and c is cls and p is ph:
            return got  # type: ignore[no-any-return]
    made = (_terrain_table(rules, cls, ph), _hexside_table(rules), _zoc_table(rules, cls))
    for a in made:
        if a is not None:
            a.setflags(write=False)
    _STEP_TABLES.insert(0, (rules, cls, ph, made))
    del _STEP_TABLES[16:]
    return made


def edge_costs(
    m: MapData,
    move_class: MoveClass | str,
    zoc: ZocField | None,
    rules: MovementRules,
    *,
    phase: MovementPhase | str = MovementPhase.NORMAL,
    interdiction: BoolArray | None = None,
) -> FloatArray:
    """TR-28/EUR-17 The MP cost of every directed edge of the map for one movement class
    (``inf`` = prohibited, >= 1e9 = "all MPs"), vectorised; ZOC leave/enter costs included."""
    cls = parse_enum(MoveClass, move_class, "move_class")
    ph = parse_enum(MovementPhase, phase, "phase")
    table, ftab, ztab = _step_tables(rules, cls, ph)
    et = edge_tables(m)
    # per hex: the cost to enter it (terrain, interdiction, enemy ZOC), inf if enemy-held
    hex_cost = table[m.terrain]
    if interdiction is not None:
        hex_cost = hex_cost + rules.interdiction_cost * np.asarray(interdiction, dtype=bool)
    z = zoc.mask(Purpose.MOVEMENT) if zoc is not None else None
    if zoc is not None and z is not None:
        hex_cost = hex_cost + rules.enter_zoc_cost * z
        hex_cost[zoc.enemy] = np.inf
    w = hex_cost[m.indices]
    if rules.hexside_costs:  # one lookup over every combination of the 8 feature bits
        w = w + ftab[m.edge_features & np.uint16(255)]
    if z is not None and ztab is not None:
        # index (from in ZOC) * 2 + (to in ZOC): nothing, nothing, leave, ZOC to ZOC
        w = w + ztab[z[et.src].astype(np.int8) * 2 + z[m.indices]]
    return np.asarray(w, dtype=np.float64)


def edge_cost(
    m: MapData,
    move_class: MoveClass | str,
    zoc: ZocField | None,
    rules: MovementRules,
    e: int,
    *,
    phase: MovementPhase | str = MovementPhase.NORMAL,
) -> float:
    """TR-28/EUR-17 ``edge_costs(...)[e]``: the MP cost of the one directed edge ``e``, the same
    value by the same arithmetic on that edge's entries only (a path check asks a few steps,
    not the whole map)."""
    cls = parse_enum(MoveClass, move_class, "move_class")
    ph = parse_enum(MovementPhase, phase, "phase")
    table, ftab, ztab = _step_tables(rules, cls, ph)
    b = int(m.indices[e])
    hex_cost = table[m.terrain[b]]
    z = zoc.mask(Purpose.MOVEMENT) if zoc is not None else None
    if zoc is not None and z is not None:
        hex_cost = hex_cost + rules.enter_zoc_cost * z[b]
        if zoc.enemy[b]:
            hex_cost = np.float64(np.inf)
    w = hex_cost
    if rules.hexside_costs:
        w = w + ftab[m.edge_features[e] & np.uint16(255)]
    if z is not None and ztab is not None:
        w = w + ztab[np.int8(z[edge_tables(m).src[e]]) * 2 + z[b]]
    return float(w)


# --- ranges -------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class MoveRange:
    """Every hex one stack can reach, its cheapest cost and the path there.

    ``hexes`` (sorted hex numbers), ``cost`` and ``pred`` (the previous hex on the cheapest
    path; -1 for the start) are parallel arrays.
    """

    map: MapData
    start: int
    mp: int
    move_class: MoveClass
    hexes: IntArray
    cost: npt.NDArray[np.int64]
    pred: IntArray

    def _pos(self, h: int) -> int:
        hexes = self.hexes
        i = int(hexes.searchsorted(h))  # the array's own method: np.searchsorted's, unwrapped
        return i if i < len(hexes) and int(hexes[i]) == h else -1

    def __contains__(self, ref: object) -> bool:
        return self._pos(hex_index(self.map, ref)) >= 0  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self.hexes)

    def cost_to(self, ref: HexRef) -> int | None:
        """MPs spent on the cheapest legal path to the hex, or None if it is out of reach."""
        i = self._pos(hex_index(self.map, ref))
        return None if i < 0 else int(self.cost[i])

    def hex_path(self, ref: HexRef) -> list[int]:
        """Hex numbers from the start to the hex (empty if out of reach)."""
        i = self._pos(hex_index(self.map, ref))
        if i < 0:
            return []
        out = [int(self.hexes[i])]
        pred = self.pred
        p = int(pred[i])
        while p >= 0:
            out.append(p)
            i = self._pos(p)
            p = int(pred[i])
        return out[::-1]

    def path_to(self, ref: HexRef) -> list[str]:
        """Labels from the start to the hex along the cheapest legal path (empty if none)."""
        return labels(self.map, self.hex_path(ref))

    def labels(self) -> list[str]:
        return labels(self.map, self.hexes)

    def to_json(self) -> dict[str, Any]:
        lab = self.labels()
        return {
            "start": labels(self.map, [self.start])[0],
            "mp": self.mp,
            "class": str(self.move_class),
            "reachable": {h: int(c) for h, c in zip(lab, self.cost.tolist(), strict=True)},
        }


@dataclass(frozen=True, eq=False)
class MovementGraph:
    """The movement cost graph of one movement class for one phase (build once per phase,
    query many stacks): per-edge costs ``w`` (first steps) and ``wk``, the costs of the edges
    a stack may take after its first step (``inf`` where closed: must-stop ZOC hexes have no
    way out, "all MPs" edges only as a first step).

    Every step costs at least 1 MP, so a stack never gets farther than ``mp`` hexes: each
    query searches only the window of hexes within reach of its stacks (stacks are grouped
    by position, ``chunk`` to a ``csgraph.dijkstra`` call), not the whole map."""

    map: MapData
    move_class: MoveClass
    rules: MovementRules
    w: FloatArray
    wk: FloatArray
    enemy: BoolArray

    def ranges(self, starts: Sequence[HexRef] | npt.ArrayLike, mps: Sequence[int] | npt.ArrayLike,
               chunk: int = 16) -> list[MoveRange]:
        """TR-27/TR-28/EUR-17 Ranges of stacks of this class."""
        s_idx = hex_indices(self.map, starts, "starts")
        mp_arr = np.asarray(mps, dtype=np.int64).reshape(-1)
        if len(mp_arr) != len(s_idx):
            raise InputError("mps", f"{len(mp_arr)} movement allowances for {len(s_idx)} stacks")
        if len(mp_arr) and mp_arr.min() < 0:
            raise InputError("mps", "movement points must not be negative")
        if np.any(self.enemy[s_idx]):
            bad = int(s_idx[np.nonzero(self.enemy[s_idx])[0][0]])
            raise InputError("starts", f"{labels(self.map, [bad])[0]} holds enemy units")
        m = self.map
        order = np.lexsort((m.q[s_idx], m.r[s_idx]))  # neighbours share a window
        out: list[MoveRange | None] = [None] * len(s_idx)
        for lo in range(0, len(order), max(1, chunk)):
            grp = order[lo: lo + chunk]
            for slot, r in zip(grp.tolist(), self._chunk(s_idx[grp], mp_arr[grp]), strict=True):
                out[slot] = r
        return [r for r in out if r is not None]

    def range(self, start: HexRef, mp: int) -> MoveRange:
        return self.ranges([start], [mp])[0]

    def _window(self, starts: IntArray, reach: int) -> IntArray:
        """Hexes within ``reach`` of the starts' bounding box (all hexes if that is most)."""
        m = self.map
        q0, q1 = int(m.q[starts].min()) - reach, int(m.q[starts].max()) + reach
        r0, r1 = int(m.r[starts].min()) - reach, int(m.r[starts].max()) + reach
        if (q1 - q0 + 1) * (r1 - r0 + 1) >= m.n // 2:
            return np.arange(m.n, dtype=np.int32)
        qq, rr = np.meshgrid(np.arange(q0, q1 + 1), np.arange(r0, r1 + 1), indexing="ij")
        idx = m.indices_of(qq.ravel(), rr.ravel())
        return np.sort(idx[idx >= 0])

    def _chunk(self, starts: IntArray, mps: npt.NDArray[np.int64]) -> list[MoveRange]:
        m, k = self.map, len(starts)
        et = edge_tables(m)
        win = self._window(starts, int(mps.max()))
        nw = len(win)
        loc = np.full(m.n, -1, dtype=np.int32)
        loc[win] = np.arange(nw, dtype=np.int32)
        # the window's own edges, in row order
        pw = et.pos[win]  # (nw, 6)
        pws = np.where(pw >= 0, pw, 0)
        ldst = loc[m.indices[pws]]
        ok = (pw >= 0) & (ldst >= 0) & np.isfinite(self.wk[pws])
        # each stack's first step, from a virtual source node
        p = et.pos[starts]
        ps = np.where(p >= 0, p, 0)
        fw = np.where(p >= 0, self.w[ps], np.inf)
        mpk = mps[:, None].astype(np.float64)
        fw = np.where(np.isfinite(fw) & (fw >= _ALL), mpk, fw)  # "all MPs": a whole move
        if self.rules.one_hex_minimum:
            fw = np.where(np.isfinite(fw), np.minimum(fw, mpk), fw)
        fok = (fw <= mpk) & (mpk >= 1)
        counts = np.concatenate([ok.sum(axis=1), fok.sum(axis=1)])
        indptr = np.zeros(nw + k + 1, dtype=np.int64)
        np.cumsum(counts, out=indptr[1:])
        graph = sp.csr_matrix(
            (np.concatenate([self.wk[pws][ok], fw[fok]]),
             np.concatenate([ldst[ok], loc[m.indices[ps][fok]]]).astype(np.int32), indptr),
            shape=(nw + k, nw + k))
        dist, pred = dijkstra(graph, directed=True, indices=np.arange(nw, nw + k),
                              return_predecessors=True, limit=float(mps.max()))
        out = []
        for j in range(k):
            d = dist[j, :nw]
            s = int(starts[j])
            d[loc[s]] = 0.0
            lreach = np.nonzero(d <= mps[j])[0]
            lp = pred[j, lreach]
            pr = np.where(lp >= nw, s, win[np.clip(lp, 0, nw - 1)]).astype(np.int32)
            reach = win[lreach].astype(np.int32)
            pr[reach == s] = -1
            out.append(MoveRange(map=m, start=s, mp=int(mps[j]), move_class=self.move_class,
                                 hexes=reach, cost=np.rint(d[lreach]).astype(np.int64), pred=pr))
        return out


def movement_graph(
    m: MapData,
    move_class: MoveClass | str,
    zoc: ZocField | None,
    rules: MovementRules,
    *,
    phase: MovementPhase | str = MovementPhase.NORMAL,
    interdiction: BoolArray | None = None,
) -> MovementGraph:
    """TR-27/TR-28/EUR-17 Build the cost graph of one movement class (vectorised)."""
    cls = parse_enum(MoveClass, move_class, "move_class")
    et = edge_tables(m)
    w = edge_costs(m, cls, zoc, rules, phase=phase, interdiction=interdiction)
    closed = w >= _ALL
    if zoc is not None and cls in rules.must_stop_in_zoc:
        closed |= zoc.mask(Purpose.MOVEMENT)[et.src]
    enemy = zoc.enemy if zoc is not None else np.zeros(m.n, dtype=bool)
    return MovementGraph(map=m, move_class=cls, rules=rules, w=w,
                         wk=np.where(closed, np.inf, w), enemy=enemy)


def movement_range(
    m: MapData,
    start: HexRef,
    mp: int,
    move_class: MoveClass | str,
    zoc: ZocField | None,
    rules: MovementRules,
    *,
    phase: MovementPhase | str = MovementPhase.NORMAL,
    interdiction: BoolArray | None = None,
) -> MoveRange:
    """TR-27/TR-28/EUR-17 All hexes one stack can reach with ``mp`` MPs, with cheapest paths.
    (For many queries in one phase, build a :func:`movement_graph` once and reuse it.)"""
    return movement_ranges(m, [start], [mp], [move_class], zoc, rules, phase=phase,
                           interdiction=interdiction)[0]


def movement_ranges(
    m: MapData,
    starts: Sequence[HexRef] | npt.ArrayLike,
    mps: Sequence[int] | npt.ArrayLike,
    move_classes: Sequence[MoveClass | str],
    zoc: ZocField | None,
    rules: MovementRules,
    *,
    phase: MovementPhase | str = MovementPhase.NORMAL,
    interdiction: BoolArray | None = None,
    chunk: int = 16,
) -> list[MoveRange]:
    """TR-27/TR-28/EUR-17 Movement ranges of many stacks: one graph per movement class, then
    ``csgraph.dijkstra`` calls of up to ``chunk`` nearby stacks (one virtual source each) on
    the window of hexes they can reach."""
    s_idx = hex_indices(m, starts, "starts")
    mp_arr = np.asarray(mps, dtype=np.int64).reshape(-1)
    if len(mp_arr) != len(s_idx) or len(move_classes) != len(s_idx):
        raise InputError("stacks", "starts, mps and move_classes must have the same length")
    classes = [parse_enum(MoveClass, c, "move_classes") for c in move_classes]
    out: list[MoveRange | None] = [None] * len(s_idx)
    for cls in dict.fromkeys(classes):
        members = np.array([i for i, c in enumerate(classes) if c == cls], dtype=np.int64)
        g = movement_graph(m, cls, zoc, rules, phase=phase, interdiction=interdiction)
        for slot, r in zip(members.tolist(), g.ranges(s_idx[members], mp_arr[members], chunk),
                           strict=True):
            out[slot] = r
    return [r for r in out if r is not None]


# --- overruns (map part of EUR-19 / EUR-20) -------------------------------------------------------
@cache
def _europa_revised_default() -> MovementRules:
    """:func:`europa_revised_movement` with its defaults, made once (an overrun's MPs are
    priced per unit of every stack the lister weighs; the rules are only read)."""
    return europa_revised_movement()


def overrun_mp(entry_cost: int, leaves_zoc: bool, zoc_to_zoc: bool,
               rules: MovementRules | None = None,
               move_class: MoveClass | str = MoveClass.MECHANIZED) -> int:
    """EUR-19 An overrun costs 3 MP plus the full cost of entering the defender's hex, plus the
    cost of leaving (or moving ZOC to ZOC between) ZOCs of *other* enemy units (EUR-17)."""
    r = rules or _europa_revised_default()
    cls = parse_enum(MoveClass, move_class, "move_class")
    if entry_cost < 1:
        raise InputError("entry_cost", "must be at least 1")
    cost = 3 + entry_cost
    if zoc_to_zoc:
        z = r.zoc_to_zoc_cost.get(cls, r.leave_zoc_cost)
        if z == SpecialCost.PROHIBITED:
            raise IllegalOrder("EUR-17", "non-mechanized units may not overrun ZOC to ZOC")
        if isinstance(z, SpecialCost):
            raise IllegalOrder("EUR-17", "ZOC to ZOC costs all MPs")
        cost += z
    elif leaves_zoc:
        cost += r.leave_zoc_cost
    return cost


_NO_OVERRUN = frozenset({Terrain.WOODED_ROUGH, Terrain.MOUNTAIN, Terrain.SWAMP, Terrain.FOREST})
_OVERRUN_OK = frozenset({Terrain.CLEAR, Terrain.WOODS, Terrain.ROUGH, Terrain.URBAN})


def overrun_allowed(m: MapData, from_hex: HexRef, target: HexRef, *, mud: bool = False,
                    frozen_rivers: bool = False, readings: MovementReadings | None = None) -> bool:
    """EUR-20 No overruns in mud; never against wooded rough, mountain, swamp or forest; never
    across a major-river hexside unless it is frozen. "Clear, woods, normal rough, and all city
    types can be overrun": a hex holding a city of any class is listed terrain, allowed even
    where ``overrun_unlisted_terrain_allowed`` is off (reading: a city in wooded rough,
    mountain, swamp or forest stays prohibited -- the prohibition is the specific rule)."""
    r = readings or MovementReadings()
    a, b = hex_index(m, from_hex, "from_hex"), hex_index(m, target, "target")
    feats = m.features_between(m.hex(a), m.hex(b))
    if mud:
        return False
    t = TERRAIN_CODES[int(m.terrain[b])]
    if t in _NO_OVERRUN or t in (Terrain.SEA, Terrain.LAKE):
        return False
    if t not in _OVERRUN_OK and not m.cities.get(b) and not r.overrun_unlisted_terrain_allowed:
        return False
    if feats & _BLOCKING:
        return False
    return not (feats & HexsideFeature.MAJOR_RIVER and not frozen_rivers)


__all__ = [
    "MoveClass",
    "MoveRange",
    "MovementGraph",
    "MovementPhase",
    "MovementReadings",
    "MovementRules",
    "SpecialCost",
    "edge_cost",
    "edge_costs",
    "europa_revised_movement",
    "is_mechanized",
    "move_class_of",
    "movement_graph",
    "movement_range",
    "movement_ranges",
    "overrun_allowed",
    "overrun_mp",
    "third_reich_movement",
    "third_reich_movement_allowance",
]
