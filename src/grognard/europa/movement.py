"""EUR-17 (ZOC movement revisions) in the engine's moves.

A Europa move pays the revised ZOC costs on top of the terrain: +2 MP to leave an enemy ZOC
(every unit); from one enemy ZOC hex straight into another only for mechanized units, at +3
in place of the +2 (reading 1); a non-mechanized unit stops when it enters an enemy ZOC and
never moves ZOC to ZOC (not even as its first step). The costs are
:func:`grognard.core.movement.europa_revised_movement`'s, with the generic terrain entry
costs of :mod:`grognard.engine.generic` (the original game's terrain effects chart is
EXTERNAL): so every hex a unit may reach under EUR-17 it can also reach under the generic
costs, and random play may draw candidates from the generic reach and keep those that pass.

A move names ``to`` (the cheapest EUR-17 path is taken) or an explicit ``path`` (priced step
by step). A non-mechanized unit that ends its move in an enemy ZOC has spent all its MPs:
a later move of the same phase cannot take it further (the stop is kept across split moves).

EUR-21 stacking (10 REs a hex, 7 in mountain) is checked where a move or an advance after
combat ends (reading ``stacking_at_move_end``; the Europa core rules, which say when stacking
is checked, are not among our texts): units pass through any stack, and the moves offered are
only those that end within the limit.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast
from weakref import WeakKeyDictionary

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import exact_json
from grognard.core.mapdata import HexsideFeature, MapData
from grognard.core.movement import (
    MoveClass,
    MovementGraph,
    MovementReadings,
    MoveRange,
    europa_revised_movement,
    is_mechanized,
    movement_graph,
)
from grognard.core.paths import Purpose, edge_tables, labels
from grognard.core.stacking import europa_revised_stacking, stacking_limits
from grognard.core.units import GROUND_TYPES, Unit, UnitType
from grognard.core.zoc import ZocField, europa_revised_zoc, zoc_field
from grognard.engine.commands import Command, made_command
from grognard.engine.context import Context
from grognard.engine.generic import RIVER_COST, TERRAIN_COST
from grognard.europa.board import forces_of, on_map_hex, per_position, readings_of
from grognard.europa.state_types import EuropaState, EuropaUnit

#: EUR-17 over the generic terrain costs (a river hexside +1 MP, as the generic move)
EUROPA_MOVEMENT = europa_revised_movement(
    terrain_costs={cls: dict(TERRAIN_COST) for cls in MoveClass},
    hexside_costs={HexsideFeature.RIVER: RIVER_COST, HexsideFeature.MAJOR_RIVER: RIVER_COST},
)

#: "All MPs" edge costs in core.movement are at least this (a whole move, first step only)
_ALL = 1e9


def move_class(u: EuropaUnit) -> MoveClass:
    """EUR-17 Mechanized: armor, armored infantry, mechanized, or motorized with MA 10."""
    return _move_class(str(u.get("nationality", "")), str(u["side"]), str(u["type"]),
                       int(u["movement"]))


@lru_cache(maxsize=256)
def _move_class(nationality: str, side: str, type_: str, movement: int) -> MoveClass:
    unit = Unit(id="u", nationality=nationality, side=side, type=UnitType(type_),
                movement=movement)
    return MoveClass.MECHANIZED if is_mechanized(unit) else MoveClass.FOOT


@dataclass
class _SideMovement:
    """What one side's movers meet while the enemy units stay put: the enemy ZOC field (read
    for movement only: Europa ZOCs are never negated for movement, EUR-16/17) and the
    movement graph of each class, built when first asked."""

    zoc: ZocField
    graphs: dict[MoveClass, MovementGraph] = field(default_factory=dict)
    #: per class: the graph's later-step edges over the whole map, as CSR arrays with one
    #: spare row (a single stack's first steps, :func:`_single_range`)
    whole: dict[MoveClass, tuple[Any, int]] = field(default_factory=dict)
    #: per class, start (map index) and MPs: a stack's range (the move lister's search, or
    #: a single one), kept while the enemy stays put (own moves change no other range), so a
    #: move's verify later in the phase does not search again
    ranges: dict[tuple[MoveClass, int, int], MoveRange] = field(default_factory=dict)


#: per map: (player, the enemy units' hexes and ZOC classes) -> what that side's movers meet.
#: A side's own moves change neither, so no whole-map rebuild per own move.
RECENT_SIDES = 8
_SIDES: WeakKeyDictionary[MapData, OrderedDict[tuple[Any, ...], _SideMovement]] = \
    WeakKeyDictionary()


#: The unit fields :func:`_enemy_entry` reads.
_ENEMY_FIELDS = frozenset({"hex", "side", "status", "zoc_class"})


def _enemy_entry(u: Mapping[str, Any], player: str) -> tuple[str, Any] | None:
    """A unit's part in the key of what ``player``'s movers meet: its hex and ZOC class if it
    is an active enemy unit on the map (None: it is not)."""
    if u["hex"] is not None and u["side"] != player and u["status"] == "active":
        return (u["hex"], u.get("zoc_class", 1))
    return None


def _side(ctx: Context, state: EuropaState, player: str) -> _SideMovement:
    def make() -> _SideMovement:
        m = ctx.scenario.map
        # the enemy units' hexes and ZOC classes in the units' own (fixed) order: equal keys
        # are the same placement (a permutation of equal units only misses the cache)
        key = (player, tuple(filter(None, ctx.unit_index(
            state, f"europa.enemy_key.{player}", _ENEMY_FIELDS,
            lambda _uid, u: _enemy_entry(u, player)).values())))
        recent = _SIDES.setdefault(m, OrderedDict())
        hit = recent.get(key)
        if hit is not None:
            recent.move_to_end(key)
            return hit
        made = recent[key] = _SideMovement(
            zoc_field(m, forces_of(ctx, state), player, europa_revised_zoc()))
        if len(recent) > RECENT_SIDES:
            recent.popitem(last=False)
        return made
    out: _SideMovement = ctx.cached(f"europa.side_movement.{player}", make)
    return out


def move_zoc(ctx: Context, state: EuropaState, player: str) -> ZocField:
    """The enemy ZOC ``player``'s movers meet (EUR-17; for movement only)."""
    return _side(ctx, state, player).zoc


def _graph(ctx: Context, state: EuropaState, player: str, cls: MoveClass) -> MovementGraph:
    side = _side(ctx, state, player)
    if cls not in side.graphs:
        side.graphs[cls] = movement_graph(ctx.scenario.map, cls, side.zoc, EUROPA_MOVEMENT)
    return side.graphs[cls]


def mp_left(u: EuropaUnit) -> int:
    return max(int(u["movement"]) - int(u["mp_spent"]), 0)


def unit_range(ctx: Context, state: EuropaState, uid: str) -> MoveRange:
    """EUR-17 Every hex unit ``uid`` may still reach this phase, with its cheapest paths."""
    def make() -> MoveRange:
        u = state["units"][uid]
        side, cls = _side(ctx, state, u["side"]), move_class(u)
        graph = _graph(ctx, state, u["side"], cls)
        if cls not in side.whole:
            side.whole[cls] = _whole_rows(graph)
        start = ctx.scenario.map.index_of_label(on_map_hex(u))
        key = (cls, start, mp_left(u))
        got = side.ranges.get(key)
        if got is None:
            got = side.ranges[key] = _single_range(graph, side.whole[cls], start, mp_left(u))
        return got
    out: MoveRange = ctx.cached(f"europa.range.{uid}", make)
    return out


def _whole_rows(graph: MovementGraph) -> tuple[Any, int]:
    """The later-step edges of ``graph`` over the whole map as a CSR matrix with one spare
    row of six slots after every hex (a single stack's first steps, written per search), in
    each hex's direction order; and where the spare slots start. Built once per graph,
    shared by every single stack's search."""
    m = graph.map
    n = m.n
    pos = edge_tables(m).pos
    safe = np.where(pos >= 0, pos, 0)
    ok = (pos >= 0) & np.isfinite(graph.wk[safe])
    indptr = np.zeros(n + 2, dtype=np.int32)
    np.cumsum(ok.sum(axis=1), out=indptr[1:n + 1])
    base = int(indptr[n])
    indptr[n + 1] = base + 6
    data = np.concatenate([graph.wk[safe][ok], np.full(6, np.inf)])
    cols = np.concatenate([m.indices[safe][ok].astype(np.int32), np.full(6, n, dtype=np.int32)])
    return sp.csr_matrix((data, cols, indptr), shape=(n + 1, n + 1)), base


def _single_range(graph: MovementGraph, whole: tuple[Any, int], start: int,
                  mp: int) -> MoveRange:
    """EUR-17 The range of one stack: the same search as ``graph.range`` (its first steps from
    a virtual source after every hex, then the later steps, cut at ``mp``), run on the
    whole-map edges built once per graph instead of a window's edges built per query (the
    nodes keep their order, so the cheapest paths, ties included, are the same). The first
    steps are written into the spare row's slots (a slot not taken: an infinite step, never
    searched)."""
    m = graph.map
    if graph.enemy[start]:
        raise InputError("starts", f"{m.label(start)} holds enemy units")
    n = m.n
    csr, base = whole
    p = edge_tables(m).pos[start]
    ps = np.where(p >= 0, p, 0)
    fw = np.where(p >= 0, graph.w[ps], np.inf)
    fw = np.where(np.isfinite(fw) & (fw >= _ALL), float(mp), fw)  # "all MPs": a whole move
    if graph.rules.one_hex_minimum:
        fw = np.where(np.isfinite(fw), np.minimum(fw, float(mp)), fw)
    first = (fw <= mp) & (mp >= 1)
    csr.data[base:] = np.where(first, fw, np.inf)
    csr.indices[base:] = np.where(first, m.indices[ps], n)
    dist, pred = dijkstra(csr, directed=True, indices=n, return_predecessors=True,
                          limit=float(mp))
    d = dist[:n]
    d[start] = 0.0
    reach: npt.NDArray[np.int32] = np.flatnonzero(d <= mp).astype(np.int32)
    lp = pred[reach]
    pr = np.where(lp >= n, start, lp).astype(np.int32)
    pr[reach == start] = -1
    return MoveRange(map=m, start=start, mp=mp, move_class=graph.move_class, hexes=reach,
                     cost=np.rint(d[reach]).astype(np.int64), pred=pr)


@dataclass(frozen=True)
class EuropaMove:
    """A checked move: the hexes entered, its MP cost (all MPs left when a non-mechanized
    unit stops in an enemy ZOC) and whether a ZOC rule of EUR-17 took part."""

    path: list[str]
    mp: int
    zoc: bool

    def event_data(self, uid: str, start: str) -> dict[str, Any]:
        data: dict[str, Any] = {"unit": uid, "from": start, "path": self.path, "mp": self.mp}
        if self.zoc:
            data["rules"] = ["EUR-17"]
        return data


def _step_edge(m: MapData, a: int, b: int) -> int:
    pos = edge_tables(m).pos[a]
    for e in pos.tolist():
        if e >= 0 and int(m.indices[e]) == b:
            return int(e)
    raise IllegalOrder("MOVE", f"{m.label(b)} is not adjacent to {m.label(a)}")


def _path_cost(ctx: Context, graph: MovementGraph, start: int, hexes: list[int],
               budget: int, in_zoc: Any) -> int:
    """EUR-17 The MP cost of an explicit path (IllegalOrder where a step is closed)."""
    m = ctx.scenario.map
    cost, here = 0.0, start
    for k, nxt in enumerate(hexes):
        e = _step_edge(m, here, nxt)
        w = float(graph.w[e] if k == 0 else graph.wk[e])
        if not np.isfinite(w):
            why = ("a non-mechanized unit stops on entering an enemy ZOC and never moves ZOC "
                   "to ZOC" if graph.move_class is MoveClass.FOOT and bool(in_zoc[here])
                   else "the step cannot be taken (water, a blocking hexside, an enemy unit)")
            raise IllegalOrder("EUR-17", f"{m.label(here)} to {m.label(nxt)}: {why}")
        if w >= _ALL:
            if k:
                raise IllegalOrder("EUR-17", f"{m.label(nxt)} takes a whole move")
            w = float(budget)
        cost += w
        here = nxt
    return round(cost)


def check_move(ctx: Context, state: EuropaState, cmd: Command, path: list[str] | None) -> EuropaMove:
    """EUR-17 The move ``cmd`` under the revised ZOC costs. ``path`` is the explicit path the
    order gives (None: the order names ``to`` and the cheapest EUR-17 path is taken). The
    unit's ownership, and an explicit path's hexes, are the generic move's checks (done
    before)."""
    m = ctx.scenario.map
    uid = str(cmd.args["unit"])
    u = state["units"][uid]
    cls = move_class(u)
    budget = mp_left(u)
    zoc = move_zoc(ctx, state, u["side"])
    in_zoc = zoc.mask(Purpose.MOVEMENT)
    start = m.index_of_label(on_map_hex(u))
    if path is None:
        to = str(cmd.args["to"])
        if to not in m.label_indices:
            raise IllegalOrder("MOVE", f"{to} is not a hex of the map")
        reach = unit_range(ctx, state, uid)
        cost = reach.cost_to(to)
        if cost is None or to == u["hex"]:
            raise IllegalOrder("EUR-17", f"{uid} cannot reach {to} with {budget} MP left under "
                               "the ZOC costs (+2 MP to leave an enemy ZOC; only mechanized "
                               "units move ZOC to ZOC, at +3)")
        labels = reach.path_to(to)[1:]
    else:
        hexes = [m.index_of_label(h) for h in path]
        cost = _path_cost(ctx, _graph(ctx, state, u["side"], cls), start, hexes, budget,
                          in_zoc)
        if cost > budget:
            raise IllegalOrder("EUR-17", f"{uid}: the path costs {cost} MP under the ZOC costs "
                               f"(+2 MP to leave an enemy ZOC); {budget} left")
        labels = list(path)
    end = m.index_of_label(labels[-1])
    over = stacking_refusal(ctx, state, str(u["side"]), labels[-1], [uid])
    if over is not None:
        raise over
    touched = bool(in_zoc[start]) or any(bool(in_zoc[m.index_of_label(h)]) for h in labels)
    if cls is MoveClass.FOOT and in_zoc[end]:
        cost = budget  # EUR-17: stops on entering an enemy ZOC
    return EuropaMove(labels, int(cost), touched)


#: the unit types that move on land (air and naval units never make these moves)
_GROUND = frozenset(t.value for t in GROUND_TYPES)


def legal_moves(ctx: Context, state: EuropaState, player: str) -> list[Command]:
    """EUR-17 Every move ``player``'s ground units may make now, one per unit and reachable
    hex (``to``: the cheapest path): one vectorised search per movement class, each unit's
    range kept for the move's verify; the hexes a unit fits in (EUR-21) picked from its
    range at once (:func:`_fits`)."""
    movers: dict[MoveClass, list[str]] = {}
    for uid, u in sorted(state["units"].items()):
        if (u["side"] == player and u["status"] == "active" and u["hex"] is not None
                and u["type"] in _GROUND and mp_left(u) > 0):
            movers.setdefault(move_class(u), []).append(uid)
    out: list[Command] = []
    fits = _fits(ctx, state, player)
    m = ctx.scenario.map
    for cls, uids in movers.items():
        units = [state["units"][uid] for uid in uids]
        # a stack's units of one class with the MPs left share a range: searched once
        keys = [(on_map_hex(u), mp_left(u)) for u in units]
        once = list(dict.fromkeys(keys))
        found = dict(zip(once, _graph(ctx, state, player, cls).ranges(
            [k[0] for k in once], [k[1] for k in once]), strict=True))
        ranges = [found[k] for k in keys]
        side = _side(ctx, state, player)
        for uid, u, r in zip(uids, units, ranges, strict=True):
            ctx.cache.setdefault(f"europa.range.{uid}", r)
            side.ranges.setdefault((cls, int(r.start), mp_left(u)), r)
            hexes = r.hexes
            keep = hexes != r.start  # the unit's own hex is no move
            fit = fits(u["re_size"])
            if fit is not None:
                keep &= fit[hexes]
            out += [made_command("move", player, {"unit": uid, "to": h})
                    for h in labels(m, hexes[keep])]
    return out


def _fits(ctx: Context, state: EuropaState, side: str
          ) -> Callable[[Any], npt.NDArray[np.bool_] | None]:
    """EUR-21 For a unit size (as the unit's ``re_size`` reads), whether a unit of that size
    may end a move in each hex (by map index): the REs ``side`` may still bring in (the
    limit less its REs there; a unit moving out of its own hex never counts there, as it
    leaves it) at least the size; None when the stacking reading is off (every hex). Made
    once per size a listing (a side's units share a few sizes): the hexes without the side's
    units compared as ints at once, those with them one by one."""
    if not _stacking_checked(ctx):
        return lambda _raw: None
    m = ctx.scenario.map
    have = _side_res(state, side)
    limit = _limit_list(m)
    limits = np.asarray(limit, dtype=np.int64)
    made: dict[Any, npt.NDArray[np.bool_]] = {}

    def fits(raw: Any) -> npt.NDArray[np.bool_]:
        key = (type(raw), raw)
        got = made.get(key)
        if got is None:
            size = Fraction(raw)
            got = limits * size.denominator >= size.numerator  # limit >= size, exactly
            # a whole size compared as an int (the rooms are ints where the side has no units)
            need: int | Fraction = size.numerator if size.denominator == 1 else size
            for label, res in have.items():
                i = m.index_of_label(label)
                got[i] = limit[i] - res >= need
            made[key] = got
        return got
    return fits


# --- EUR-21 stacking ----------------------------------------------------------------------------
_LIMITS: WeakKeyDictionary[MapData, Any] = WeakKeyDictionary()


def stack_limit(m: MapData, label: str) -> int:
    """EUR-21 The stacking limit of hex ``label`` in REs: 10, or 7 in mountain."""
    lim = _LIMITS.get(m)
    if lim is None:
        lim = _LIMITS[m] = stacking_limits(m, europa_revised_stacking())
    return int(lim[m.index_of_label(label)])


_LIMIT_LISTS: WeakKeyDictionary[MapData, list[int]] = WeakKeyDictionary()


def _limit_list(m: MapData) -> list[int]:
    """EUR-21 :func:`stack_limit` of every hex, by map index, as ints (the move lister asks
    hundreds of hexes a phase)."""
    got = _LIMIT_LISTS.get(m)
    if got is None:
        stack_limit(m, m.label(0))
        got = _LIMIT_LISTS[m] = [int(x) for x in _LIMITS[m].tolist()]
    return got


def _side_res(state: EuropaState, side: str, leaving: frozenset[str] = frozenset()
              ) -> dict[str, Fraction]:
    """EUR-21 The REs of ``side``'s ground units in each hex (``leaving`` not counted)."""
    out: dict[str, Fraction] = {}
    for uid, u in state["units"].items():
        if (u["side"] == side and u["status"] == "active" and u["hex"] is not None
                and u["type"] in _GROUND and uid not in leaving):
            out[u["hex"]] = out.get(u["hex"], Fraction(0)) + Fraction(u["re_size"])
    return out


def _stack_in(ctx: Context, state: EuropaState, side: str, label: str, leaving: frozenset[str]
              ) -> tuple[str, ...]:
    """EUR-21 ``side``'s ground units in hex ``label`` (``leaving`` not counted). One scan of
    the units: a move checks one hex, cheaper than an index of every hex; once per position
    (a move's verify and its execution ask the same)."""
    def make() -> tuple[str, ...]:
        return tuple([uid for uid, u in state["units"].items()
                      if u["hex"] == label and u["side"] == side and u["status"] == "active"
                      and u["type"] in _GROUND and uid not in leaving])
    return per_position(ctx, state, f"europa.stack_in.{side}.{label}.{sorted(leaving)}", make)


def _stacking_checked(ctx: Context) -> bool:
    return bool(readings_of(ctx, MovementReadings).stacking_at_move_end)


def joins_stack(ctx: Context, state: EuropaState, side: str, to: str, movers: list[str]) -> bool:
    """EUR-21 took effect: the movers end in a hex already holding their side's units, so the
    limit was checked against a stack (events then name EUR-21)."""
    return _stacking_checked(ctx) and bool(_stack_in(ctx, state, side, to, frozenset(movers)))


def stacking_refusal(ctx: Context, state: EuropaState, side: str, to: str, movers: list[str]
                     ) -> IllegalOrder | None:
    """EUR-21 Why ``movers`` may not end a move or an advance in ``to`` (None: they may):
    their side's REs there would pass 10 (7 in mountain)."""
    if not _stacking_checked(ctx):
        return None
    return added_stacking_refusal(ctx, state, side, to, _res_of(state, movers),
                                  frozenset(movers))


def _res_of(state: EuropaState, ids: Iterable[str]) -> Fraction:
    """EUR-21 The REs of units ``ids`` together (whole sizes summed as integers first)."""
    sizes = [state["units"][x]["re_size"] for x in ids]
    if all(type(v) is int for v in sizes):
        return Fraction(sum(cast(list[int], sizes)))
    return sum((Fraction(v) for v in sizes), Fraction(0))


def added_stacking_refusal(ctx: Context, state: EuropaState, side: str, to: str, added: Fraction,
                           leaving: frozenset[str] = frozenset()) -> IllegalOrder | None:
    """EUR-21 Why ``added`` REs of ``side`` may not end in ``to`` (None: they may), the units
    ``leaving`` not counted there: a move's movers, or a reinforcement entering (EUR-22)."""
    if not _stacking_checked(ctx):
        return None
    have = _res_of(state, _stack_in(ctx, state, side, to, leaving))
    total = have + added
    lim = stack_limit(ctx.scenario.map, to)
    if total > lim:
        return IllegalOrder("EUR-21", f"{to} would hold {exact_json(total)} RE of {side}; the "
                            f"stacking limit there is {lim} RE (10, 7 in mountain)")
    return None
