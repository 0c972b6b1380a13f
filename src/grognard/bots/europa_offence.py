"""Europa: the attacking side's operational play (issue 25, session 10).

What a veteran player of the side driving on ``Game.objectives()`` does, read from the bot's
own view and the scenario's public map and supply sources:

* **Schwerpunkte** (:func:`assault_plan`, the movement phase): the enemy hexes in reach are
  weighed by how weak they are (defense strength times the hex's terrain), what clearing
  them is worth (the objectives, the enemy units a cleared hex would cut off, isolated
  defenders) and whether armor's terrain lets it count; a few of them get the units that
  can reach them - armor and motorized first where the terrain is open - until the planned
  odds reach :data:`AIM` to 1. Units not in a Schwerpunkt keep the old policy (hold the
  line, close on the objectives).
* **Odds that pay** (:func:`attack_worth`): an attack or overrun goes in at a chance of
  clearing the hex of at least :data:`P_MIN` (2 to 1 and up on the Europa CRT) and an
  expected gain (the enemy's losses and the hex against ours), or against a pocket
  (defenders out of supply) at any gain; an attack whose win cuts enemy units off weighs
  them.
* **Exploitation** (:func:`exploitation_plan`): the mechanized units move to the hexes that
  cut the most enemy units from their supply sources (our units and their ZOCs block the
  enemy's trace), weighed first by the exact cut (one search per candidate hex) and, where
  no single hex cuts yet, by the enemy's supply paths through the hex (the lines a pincer
  closes) and its nearness to the objectives; only hexes that trace to our own sources
  (spearheads stay in supply) and that the enemy next to them cannot easily destroy. The
  armor no Schwerpunkt needs drives the same way in the movement phase.

* **Sieges** (:func:`siege_plan`, the movement phase, session 11): the objectives the enemy
  holds that a pocket cannot take (its supply sources trace from the city itself: Leningrad,
  Kharkov, Dnepropetrovsk, and any city the enemy garrisons) are stormed: once our units are
  near, the foot units within two turns' march close on the city - the ones that can reach
  its sides stand there, the others march on it - until the planned attack reaches
  :data:`SIEGE_AIM` times the city's terrain-weighted defense as a full garrison would hold
  it; the panzers are left to the Schwerpunkte and the cuts (armor gets nothing against a
  city's defenders, EUR-10). The most valuable city first, at most :data:`SIEGES` at a
  time; the attacks on it go in at the odds that pay (:func:`attack_worth`).
* **The last turn** (``EuropaPolicy.last_turn``): the verdict counts the objectives held
  after it, so either side attacks an objective the other holds at any odds that can take
  it, its own losses no longer weighed, and advances into it.

Nothing here reads the rules: the supply trace is the EUR-30 picture as the bot sees it
(our units and our ZOCs block the enemy's lines unless the enemy holds the hex).
"""

from __future__ import annotations

import weakref
from collections import deque
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any, TypeVar

import numpy as np

from grognard.bots.situation import Situation, destination
from grognard.engine.commands import Command

T = TypeVar("T")

MECH = frozenset({"armor", "mechanized", "motorized", "armored_infantry"})
NOT_GROUND = frozenset({"air", "fleet", "naval", "hq", "supply"})

#: the odds a Schwerpunkt is planned to (its attack factors over the terrain-weighted
#: defense; ground support and the armor effects add to it)
AIM = 5
#: the least planned odds worth moving for
NEED = 3
#: how many hexes the movement phase concentrates on (per 20 of our ground units; each
#: only while the units free can still reach the planned odds)
SECTORS_PER_20 = 2
#: what a hex nearer the objectives adds to an armor unit's destination (a hex of the
#: enemy's supply paths adds a tenth of the strength they supply)
ADVANCE = 0.5
#: the least chance of clearing the hex an attack pays at (the 2 to 1 column: 1/4; 3 to 2
#: gives 1/9 and 1 to 1 1/12, and lose more than they take); the Schwerpunkte are planned
#: to :data:`AIM` to 1 (4 to 1: 7/12, 7 to 1: 35/36)
P_MIN = Fraction(1, 4)
#: the planned odds a siege gathers to (attack factors over the city's terrain-weighted
#: defense as :data:`SIEGE_GARRISON` defense factors would hold it; ground support adds its
#: +1 on the roll): 2 to 1 is the least attack that pays (:data:`P_MIN`), a little more
#: keeps it there after the city is reinforced and the first exchange
SIEGE_AIM = 2.5
#: the defense factors a siege plans against at least (three rifle divisions: the most a
#: city's 10 REs hold of them)
SIEGE_GARRISON = 15
#: how near (hexes) our units must be to a city for it to be besieged, and how far (hexes
#: over land) the foot units come to a siege (infantry covers 3-6 hexes a turn)
SIEGE_MARCH = 10
#: how many cities are besieged at once
SIEGES = 2


#: searches at least this deep run level by level on arrays (:func:`bfs_mask`); the shallow
#: ones (a unit's reach, a city's approaches) stay a queue over the few hexes they meet
WIDE = 20


def bfs(g: Any, starts: Sequence[int], passable: Callable[[int], bool],
        depth: int = 10**6) -> dict[int, int]:
    """Hexes reachable from ``starts`` through ``passable`` hexes (never across an impassable
    hexside), with their distance (up to ``depth``). A search :data:`WIDE` or deeper asks
    ``passable`` of every hex once and runs :func:`bfs_mask` (the same hexes and distances;
    only the dict's order differs)."""
    if depth >= WIDE:
        n = len(g.nbrs)
        mask = np.zeros(n + 1, dtype=bool)
        mask[:n] = np.fromiter(map(passable, range(n)), dtype=bool, count=n)
        return bfs_mask(g, starts, mask, depth)
    return bfs_queue(g, starts, passable, depth)


def bfs_queue(g: Any, starts: Sequence[int], passable: Callable[[int], bool],
              depth: int = 10**6) -> dict[int, int]:
    """:func:`bfs` hex by hex from a queue (the reference :func:`bfs_mask` is tested
    against)."""
    dist = {s: 0 for s in starts if passable(s)}
    todo = deque(dist)
    nbrs, sides = g.nbrs, g.sides
    while todo:
        i = todo.popleft()
        d = dist[i] + 1
        if d > depth:
            continue
        for j, side in zip(nbrs[i], sides[i], strict=True):
            if side >= 0 and j not in dist and passable(j):
                dist[j] = d
                todo.append(j)
    return dist


#: per graph (by identity): its neighbour table as an array, a row a hex and a column a
#: hexside (the hexsides impassable or missing point at the sentinel hex ``n``), and its land
_ARRAYS: dict[int, tuple[Any, Any, Any]] = {}


def graph_arrays(g: Any) -> tuple[Any, Any]:
    """``g``'s neighbour array (``n + 1`` rows: the last, the sentinel, points at itself)
    and its land mask (``n + 1`` long, the sentinel not land); built once per graph."""
    got = _ARRAYS.get(id(g))
    if got is not None and got[0]() is g:
        return got[1], got[2]
    n = len(g.nbrs)
    width = max((len(r) for r in g.nbrs), default=1)
    nbr = np.full((n + 1, max(width, 1)), n, dtype=np.intp)
    for i, (row, sides) in enumerate(zip(g.nbrs, g.sides, strict=True)):
        for k, (j, side) in enumerate(zip(row, sides, strict=True)):
            if side >= 0:
                nbr[i, k] = j
    land = np.zeros(n + 1, dtype=bool)
    land[:n] = [not w for w in g.water]
    for key in [k for k, v in _ARRAYS.items() if v[0]() is None]:
        del _ARRAYS[key]
    _ARRAYS[id(g)] = (weakref.ref(g), nbr, land)
    return nbr, land


def bfs_mask(g: Any, starts: Sequence[int], passable: Any, depth: int = 10**6
             ) -> dict[int, int]:
    """:func:`bfs` with ``passable`` a boolean array (``n + 1`` long, the last False), level
    by level: each level's neighbours (across passable hexsides) that are passable and not
    yet reached are the next level (each hex once: marked, then read off in index order)."""
    dist = bfs_field(g, starts, passable, depth)
    reached = np.flatnonzero(dist[:-1] >= 0)
    return dict(zip(reached.tolist(), dist[reached].tolist(), strict=True))


#: per graph (by identity): each hex's in-neighbours (the hexes with a passable hexside into
#: it) and out-neighbours (across its passable hexsides), for :func:`lost_by_removing`
_INTO: dict[int, tuple[Any, list[list[int]], list[list[int]]]] = {}


def _links(g: Any) -> tuple[list[list[int]], list[list[int]]]:
    """``g``'s in-neighbours and out-neighbours of each hex (built once per graph: the local
    searches walk them hex by hex)."""
    got = _INTO.get(id(g))
    if got is not None and got[0]() is g:
        return got[1], got[2]
    into: list[list[int]] = [[] for _ in g.nbrs]
    outs: list[list[int]] = [[] for _ in g.nbrs]
    for i, (row, sides) in enumerate(zip(g.nbrs, g.sides, strict=True)):
        for j, side in zip(row, sides, strict=True):
            if side >= 0:
                into[j].append(i)
                outs[i].append(j)
    for key in [k for k, v in _INTO.items() if v[0]() is None]:
        del _INTO[key]
    _INTO[id(g)] = (weakref.ref(g), into, outs)
    return into, outs


def _doubt(g: Any, dist: Any, removed: Collection[int]) -> set[int]:
    """The hexes a search (:func:`bfs_field`'s ``dist``) reached whose every shortest path
    runs through a hex of ``removed`` (those hexes included): the only ones whose distance
    changes once ``removed`` are impassable too (found nearest first: a hex is in doubt when
    all its parents, the in-neighbours one nearer, are)."""
    into, outs = _links(g)
    doubt = {i for i in removed if dist[i] >= 0}
    if not doubt:
        return doubt
    buckets: dict[int, set[int]] = {}
    for i in doubt:
        d = int(dist[i]) + 1
        for j in outs[i]:
            if dist[j] == d:
                buckets.setdefault(d, set()).add(j)
    while buckets:
        d = min(buckets)
        up, down = d - 1, d + 1
        for v in buckets.pop(d):  # a level's hexes depend only on the level before
            if v in doubt:
                continue
            for u in into[v]:  # a parent kept: v keeps a shortest path
                if dist[u] == up and u not in doubt:
                    break
            else:
                doubt.add(v)
                for j in outs[v]:
                    if dist[j] == down:
                        buckets.setdefault(down, set()).add(j)
    return doubt


def lost_by_removing(g: Any, dist: Any, removed: Collection[int],
                     wanted: Collection[int] | None = None) -> set[int]:
    """The hexes a search (:func:`bfs_field`: ``dist``, -1 where not reached, unbounded
    depth) reached that it no longer reaches once the hexes ``removed`` are impassable too
    (only removed: nothing else changes). Local, not a new whole-map search: the hexes whose
    every shortest path ran through a removed hex (:func:`_doubt`) are the ones in doubt;
    those of them another path reaches from the hexes kept are found again by a search inside
    the doubtful ones. Exact: a hex not in doubt keeps a path that avoids every removed hex
    (by induction on its distance), and any path to a doubtful hex enters the doubt from a
    kept hex. With ``wanted``, only the lost hexes among them (the search inside the doubt
    stops once it has found every wanted one again)."""
    into, outs = _links(g)
    doubt = _doubt(g, dist, removed)
    if not doubt:
        return doubt
    rem = set(removed)
    open_ = doubt - rem
    need = None
    asked = doubt
    if wanted is not None:
        asked = {i for i in doubt if i in wanted}
        need = asked - rem
        if not need:
            return asked
    found = []  # the doubtful hexes a kept hex leads into
    for v in open_:
        for u in into[v]:
            if dist[u] >= 0 and u not in doubt:
                found.append(v)
                break
    again = set(found)
    if need is not None:
        need -= again
    while found and need != set():
        i = found.pop()
        for j in outs[i]:
            if j in open_ and j not in again:
                again.add(j)
                found.append(j)
                if need is not None:
                    need.discard(j)
    return asked - again


def field_without(g: Any, dist: list[int], removed: Collection[int]) -> list[int]:
    """:func:`bfs_field`'s distances (as a list) once the hexes ``removed`` are impassable
    too, found from the field before (``dist``, unbounded depth) without a new whole-map
    search: only the hexes in doubt (:func:`_doubt`) can change; they are searched again
    from the hexes kept next to them, nearest first (a hex kept keeps its distance, and a
    shortest path to a doubtful hex enters the doubt from a kept one, as in
    :func:`lost_by_removing`); the removed hexes and those not found again are -1."""
    into, outs = _links(g)
    doubt = _doubt(g, dist, removed)
    out = list(dist)
    if not doubt:
        return out
    for i in doubt:
        out[i] = -1
    open_ = doubt - set(removed)
    buckets: dict[int, list[int]] = {}
    for v in open_:
        best = min((dist[u] for u in into[v] if dist[u] >= 0 and u not in doubt), default=-1)
        if best >= 0:
            buckets.setdefault(best + 1, []).append(v)
    while buckets:
        d = min(buckets)
        for v in buckets.pop(d):
            if out[v] >= 0:
                continue
            out[v] = d
            for j in outs[v]:
                if j in open_ and out[j] < 0:
                    buckets.setdefault(d + 1, []).append(j)
    return out


def bfs_field(g: Any, starts: Sequence[int], passable: Any, depth: int = 10**6) -> Any:
    """:func:`bfs_mask`'s search as an array: each hex's distance (``n + 1`` long, -1 where
    not reached)."""
    nbr, _land = graph_arrays(g)
    n = len(nbr) - 1
    dist = np.full(n + 1, -1, dtype=np.intp)
    mark = np.zeros(n + 1, dtype=bool)
    front = np.asarray(list(starts), dtype=np.intp)
    front = front[passable[front]] if front.size else front
    dist[front] = 0
    d = 0
    while front.size and d < depth:
        d += 1
        nxt = nbr[front].ravel()
        nxt = nxt[passable[nxt] & (dist[nxt] < 0)]
        if not nxt.size:
            break
        dist[nxt] = d
        mark[nxt] = True
        front = np.flatnonzero(mark)
        mark[front] = False
    return dist


def kept_per_hex(f: Callable[[int], T]) -> Callable[[int], T]:
    """``f`` (a function of a map index that does not change during one plan: a hex's
    value, its distance to the objectives) computed once per hex: the plans ask it of each
    option of each mover."""
    return _Kept(f).__getitem__  # a hex asked before: read in C, no Python call


class _Kept(dict[int, Any]):
    """:func:`kept_per_hex`'s table: a hex not asked before computed (once) on its miss."""

    __slots__ = ("f",)

    def __init__(self, f: Callable[[int], Any]) -> None:
        super().__init__()
        self.f = f

    def __missing__(self, i: int) -> Any:
        got = self[i] = self.f(i)
        return got


def view_factor(u: Mapping[str, Any], key: str) -> int:
    """A unit's factor as the view shows it (a face-down enemy unit counts 6)."""
    v = u.get(key)
    return int(v) if isinstance(v, int) else 6  # a face-down unit


def out_of_supply(u: Mapping[str, Any]) -> bool:
    """A unit the view shows out of supply or isolated (EUR-30 markers are public)."""
    return bool(u.get("isolated")) or u.get("supply") == "out"


@dataclass
class Picture:
    """The attacker's picture for one phase: the two sides' ground units by hex, the hexes
    each side's ZOC covers, and both sides' supply sources (map indices)."""

    sit: Situation
    g: Any
    land: list[bool]
    ours: dict[int, list[str]]
    theirs: dict[int, list[Mapping[str, Any]]]
    our_zoc: set[int]
    their_zoc: set[int]
    our_sources: list[int]
    their_sources: list[int]
    _cut: dict[int, float] = field(default_factory=dict)
    _field: tuple[Any, list[int]] = field(default_factory=lambda: (None, []))

    @classmethod
    def of(cls, sit: Situation, g: Any, our_sources: Sequence[str],
           their_sources: Sequence[str]) -> Picture:
        m = sit.map
        idx = m.index_of_label
        ours: dict[int, list[str]] = {}
        for uid, u in sit.mine.items():
            if str(u.get("type")) not in NOT_GROUND:
                ours.setdefault(idx(str(u["hex"])), []).append(uid)
        theirs: dict[int, list[Mapping[str, Any]]] = {}
        for u in sit.others:
            if str(u.get("type")) not in NOT_GROUND:
                theirs.setdefault(idx(str(u["hex"])), []).append(u)

        def zoc(units: Mapping[int, Sequence[Any]], get: Callable[[Any], Mapping[str, Any]]
                ) -> set[int]:
            return {j for i, us in units.items()
                    if any(int(get(x).get("zoc_class", 1) or 0) > 0 for x in us)
                    for j in g.nbrs[i]}
        land = [not w for w in g.water]
        return cls(sit, g, land, ours, theirs, zoc(ours, lambda x: sit.mine[x]),
                   zoc(theirs, lambda x: x), [idx(s) for s in our_sources],
                   [idx(s) for s in their_sources])

    def their_supplied(self, add: Sequence[int] = (), cleared: int | None = None
                       ) -> dict[int, int]:
        """EUR-30 as the bot sees it: the hexes the enemy traces to one of its sources (with
        the distance), not through our units or our ZOC unless the enemy holds the hex; with
        our units also in ``add`` and the enemy gone from ``cleared`` (and ours in it)."""
        return bfs_mask(self.g, self.their_sources, self._their_open(add, cleared))

    def _their_open(self, add: Sequence[int] = (), cleared: int | None = None) -> Any:
        """The hexes the enemy's trace may enter (:meth:`their_supplied`) as a mask."""
        occ = set(self.ours)
        zoc = set(self.our_zoc)
        held = set(self.theirs)
        for i in [*add, *([cleared] if cleared is not None else [])]:
            occ.add(i)
            zoc.update(self.g.nbrs[i])
        if cleared is not None:
            held.discard(cleared)
        return self._open(occ, zoc - held)

    def their_field(self, add: Sequence[int] = ()) -> tuple[Any, list[int]]:
        """:meth:`their_supplied` with our units also in ``add`` as (the mask it searched,
        each hex's distance, -1 where not reached): the base :meth:`cut_after` works from."""
        mask = self._their_open(add)
        return mask, bfs_field(self.g, self.their_sources, mask).tolist()

    def field_after(self, base: tuple[Any, list[int]], add: Sequence[int], known: int
                    ) -> tuple[Any, list[int]]:
        """:meth:`their_field` of ``add`` from ``base``, the field of its first ``known``
        hexes (exploitation places a mover at a time): the hexes the others close
        (:meth:`_closed`) taken out by :func:`field_without`, not a new whole-map search."""
        mask0, dist = base
        removed = self._closed(mask0, add[known:])
        if not removed:
            return base
        mask = mask0.copy()
        mask[removed] = False
        return mask, field_without(self.g, dist, removed)

    def _closed(self, mask0: Any, add: Sequence[int], cleared: int | None = None
                ) -> list[int]:
        """The hexes open in ``mask0`` (:meth:`_their_open` of a prefix of ``add``, nothing
        cleared) that :meth:`_their_open` (``add``, ``cleared``) closes, in index order: our
        new units' hexes and the cleared one (occupied), and their neighbours the enemy does
        not hold (our ZOC). The rest of our ZOC was closed in ``mask0`` already, except a
        hex the enemy held there: only ``cleared`` of those opens to our ZOC."""
        g, held = self.g, self.theirs
        got: set[int] = set()
        for i in [*add, *([cleared] if cleared is not None else [])]:
            if mask0[i]:
                got.add(i)
            for j in g.nbrs[i]:
                if mask0[j] and (j == cleared or j not in held):
                    got.add(j)
        return sorted(got)

    def cut_of(self, traced: tuple[Any, list[int]]) -> float:
        """:meth:`cut_worth` of a :meth:`their_field` (the strength in hexes it does not
        reach)."""
        dist = traced[1]
        return float(sum(view_factor(u, "defense") for i, us in self.theirs.items()
                         if dist[i] < 0 for u in us))

    def cut_after(self, base: tuple[Any, list[int]], add: Sequence[int] = (),
                  cleared: int | None = None) -> float:
        """:meth:`cut_worth` of :meth:`their_supplied` (``add``, ``cleared``) found from a
        ``base`` field (:meth:`their_field` of a prefix of ``add``: every hex open now was
        open there) by :func:`lost_by_removing`, not a new search."""
        mask0, dist = base
        removed = self._closed(mask0, add, cleared)
        lost = lost_by_removing(self.g, dist, removed, self.theirs)
        return float(sum(view_factor(u, "defense") for i, us in self.theirs.items()
                         if dist[i] < 0 or i in lost for u in us))

    def _open(self, occ: set[int], shut: set[int]) -> Any:
        """The land mask (:func:`graph_arrays`) less the hexes ``occ`` and ``shut``."""
        _nbr, land = graph_arrays(self.g)
        mask = land.copy()
        if occ:
            mask[np.fromiter(occ, dtype=np.intp, count=len(occ))] = False
        if shut:
            mask[np.fromiter(shut, dtype=np.intp, count=len(shut))] = False
        return mask

    def our_supplied(self) -> set[int]:
        """The hexes that trace to one of our sources (not through the enemy's units or its
        ZOC unless we hold the hex): where a spearhead stays in supply."""
        occ, zoc, mine = set(self.theirs), self.their_zoc, set(self.ours)
        return set(bfs_mask(self.g, self.our_sources, self._open(occ, zoc - mine)))

    def cut_worth(self, supplied: Mapping[int, int]) -> float:
        """The enemy's ground strength (defense factors) in hexes that do not trace."""
        return float(sum(view_factor(u, "defense") for i, us in self.theirs.items()
                         if i not in supplied for u in us))

    def cut_by_clearing(self, target: int) -> float:
        """The enemy strength a cleared ``target`` (our units in it) would cut off, beyond
        what is cut already (remembered per target for the phase's picture)."""
        got = self._cut.get(target)
        if got is None:
            base = self._cut.get(-1)
            if base is None:
                self._field = self.their_field()
                base = self._cut[-1] = self.cut_of(self._field)
            after = self.cut_after(self._field, cleared=target)
            own = float(sum(view_factor(u, "defense") for u in self.theirs.get(target, [])))
            got = self._cut[target] = max(0.0, after - base - own)
        return got

    def defense(self, i: int) -> tuple[float, bool]:
        """The terrain-weighted defense of enemy hex ``i`` (EUR-10: (defense + add) x the
        multiplier) and whether all its units are out of supply."""
        us = self.theirs.get(i, [])
        mult, add, _limit = self.g.quality[i]
        d = sum(view_factor(u, "defense") for u in us)
        return float((d + add) * mult), bool(us) and all(out_of_supply(u) for u in us)


def _crossing(g: Any, frm: int, to: int, mech: bool) -> float:
    """EUR-10 What attacking from ``frm`` into ``to`` keeps of a unit's attack: a major
    river halves every unit, a river armor and mechanized units."""
    for j, s in zip(g.nbrs[frm], g.sides[frm], strict=True):
        if j == to:
            if s < 0:
                return 0.0
            return 0.5 if s == 2 or (s == 1 and mech) else 1.0
    return 0.0


def moves_by_unit(sit: Situation, cands: Sequence[Command],
                  dest: Callable[[Command], Any] = destination
                  ) -> dict[str, dict[int, Command]]:
    """Our units' candidate moves by unit and destination (map index; the first move to a
    hex kept), the units in the order the candidates name them. With :func:`destination`
    (a ``to`` read first) a move's ``to`` is read here without the call, and each hex's index
    is looked up once a listing (a lister names the same hexes for unit after unit: 320,000
    candidates a game)."""
    idx = sit.map.index_of_label
    mine = sit.mine
    out: dict[str, dict[int, Command]] = {}
    at: dict[str, int] = {}  # hex label -> map index, this listing's
    plain = dest is destination
    # a lister names a unit's moves one after another: its options looked up once a run
    raw: Any = _NONE
    opts: dict[int, Command] | None = None
    for c in cands:
        args = c.args
        to = args.get("to") if plain else None
        if type(to) is not str:
            to = dest(c)
            if to is None:
                continue
            to = str(to)
        unit = args.get("unit")
        if unit is not raw:
            raw = unit
            uid = str(unit)
            opts = out.get(uid)
            if opts is None and uid in mine:
                opts = out[uid] = {}
        if opts is None:
            continue
        i = at.get(to)
        if i is None:
            i = at[to] = idx(to)
        if i not in opts:
            opts[i] = c
    return out


#: no unit named yet (:func:`moves_by_unit`)
_NONE = object()


def _res(sit: Situation, uid: str) -> int:
    return int(sit.mine[uid].get("re_size") or 1)


def assault_plan(pic: Picture, moves: Mapping[str, Mapping[int, Command]],
                 value_of: Callable[[int], float], pinned: Collection[str] = (),
                 busy: Collection[str] = ()
                 ) -> tuple[list[tuple[float, Command]], set[str], list[int]]:
    """The movement phase's Schwerpunkte: the moves that bring units next to the chosen enemy
    hexes (scored 100 down, the first target's first), the units committed (moving or
    staying) and the targets, best first; ``busy`` units (a siege's) are left out."""
    sit, g = pic.sit, pic.g
    m = sit.map
    at = {uid: m.index_of_label(str(u["hex"])) for uid, u in sit.mine.items()
          if str(u.get("type")) not in NOT_GROUND and int(u.get("attack") or 0) > 0
          and uid not in busy}
    room: dict[int, int] = {}
    for i, us in pic.ours.items():
        room[i] = g.quality[i][2] - sum(_res(sit, x) for x in us)
    # enemy hexes some unit can reach the side of
    reach: dict[int, list[tuple[float, str, int]]] = {}
    for uid, here in at.items():
        opts = [here] if uid in pinned else [here, *moves.get(uid, {})]
        mech = str(sit.mine[uid].get("type")) in MECH
        a = int(sit.mine[uid].get("attack") or 0)
        best: dict[int, tuple[float, int]] = {}
        for i in opts:
            if i in pic.theirs or not pic.land[i]:
                continue
            for t in g.nbrs[i]:
                if t in pic.theirs:
                    f = a * _crossing(g, i, t, mech)
                    # staying put beats moving; a nearer hex beats a farther one
                    key = (f + (0.01 if i == here else 0.0))
                    if f > 0 and (t not in best or key > best[t][0]):
                        best[t] = (key, i)
        for t, (f, i) in best.items():
            reach.setdefault(t, []).append((f, uid, i))
    committed: set[str] = set()
    out: list[tuple[float, Command]] = []
    chosen: list[int] = []
    n_ground = len(at)
    sectors = max(2, SECTORS_PER_20 * n_ground // 20)

    def planned_odds(t: int) -> tuple[float, list[tuple[float, str, int]]]:
        d, _iso = pic.defense(t)
        got: list[tuple[float, str, int]] = []
        used: dict[int, int] = {}
        total = 0.0
        clear = g.quality[t][0] == 1 and g.quality[t][1] == 0
        # the strongest first; in open terrain armor first (its effects count there)
        for f, uid, i in sorted(reach.get(t, []), key=lambda x: (
                -(x[0] * (1.2 if clear and str(sit.mine[x[1]].get("type")) in MECH else 1.0)),
                x[1])):
            if uid in committed:
                continue
            if i != at[uid] and room.get(i, g.quality[i][2]) - used.get(i, 0) < _res(sit, uid):
                continue
            got.append((f, uid, i))
            if i != at[uid]:
                used[i] = used.get(i, 0) + _res(sit, uid)
            total += f
            if total >= AIM * max(d, 1.0):
                break
        return total / max(d, 1.0), got

    for _k in range(sectors):
        best_t, best_w, best_units = None, 0.0, []
        for t in reach:
            if t in chosen:
                continue
            ratio, units = planned_odds(t)
            if ratio < NEED:
                continue
            _d, iso = pic.defense(t)
            clear = g.quality[t][0] == 1 and g.quality[t][1] == 0
            w = min(ratio, AIM) * (1.0 + value_of(t) + pic.cut_by_clearing(t) / 10
                                   + (2.0 if iso else 0.0) + (0.5 if clear else 0.0))
            if w > best_w or (w == best_w and best_t is not None and t < best_t):
                best_t, best_w, best_units = t, w, units
        if best_t is None:
            break
        chosen.append(best_t)
        for _f, uid, i in best_units:
            committed.add(uid)
            if i != at[uid]:
                room[i] = room.get(i, g.quality[i][2]) - _res(sit, uid)
                out.append((200.0 - len(chosen) - 0.001 * len(out), moves[uid][i]))
    return out, committed, chosen


def siege_plan(pic: Picture, moves: Mapping[str, Mapping[int, Command]],
               cities: Sequence[tuple[int, float]], kept: Collection[str] = (),
               sieges: int = SIEGES
               ) -> tuple[list[tuple[float, Command]], set[str], list[int]]:
    """The movement phase's sieges: for each of ``cities`` (enemy-held objective hexes with
    their worth, best first; up to ``sieges``, by default :data:`SIEGES`), the foot units
    (not armor) within :data:`SIEGE_MARCH` hexes over land close on it - those next to it
    stay, then the strongest first: those that can reach a free side of it (room for their REs, not across
    an impassable hexside) move there, the others march to their reachable hex nearest it -
    until the
    attack planned next to it and on the march reaches :data:`SIEGE_AIM` times its defense
    (:meth:`Picture.defense`, planned against :data:`SIEGE_GARRISON` factors at least).
    Returns the moves (scored 250 down), the units committed (``kept`` never are) and the
    cities besieged."""
    sit, g = pic.sit, pic.g
    m = sit.map
    land = pic.land
    room: dict[int, int] = {i: g.quality[i][2] - sum(_res(sit, x) for x in us)
                            for i, us in pic.ours.items()}
    out: list[tuple[float, Command]] = []
    committed: set[str] = set()
    besieged: list[int] = []
    foot = {uid: m.index_of_label(str(u["hex"])) for uid, u in sit.mine.items()
            if str(u.get("type")) not in NOT_GROUND and str(u.get("type")) != "armor"
            and int(u.get("attack") or 0) > 0 and uid not in kept}
    for t, _worth in cities:
        if len(besieged) >= sieges:
            break
        if t not in pic.theirs:
            continue  # an empty city is walked into, not besieged
        mult, add, _limit = g.quality[t]
        d, _iso = pic.defense(t)
        need = SIEGE_AIM * max(d, float((SIEGE_GARRISON + add) * mult))
        def open_to(j: int, t: int = t) -> bool:
            return land[j] and (j == t or j not in pic.theirs)

        near = bfs(g, [t], open_to, SIEGE_MARCH)
        sides = {j: _crossing(g, j, t, False) for j in g.nbrs[t]
                 if land[j] and j not in pic.theirs}
        sides = {j: f for j, f in sides.items() if f > 0}
        if not sides:
            continue
        cands = sorted((uid for uid, i in foot.items() if uid not in committed and i in near),
                       key=lambda x: (near[foot[x]] > 1, -int(sit.mine[x].get("attack") or 0),
                                      near[foot[x]], x))
        total = 0.0
        mine: list[tuple[str, int]] = []
        for uid in cands:
            if total >= need:
                break
            here = foot[uid]
            a = float(int(sit.mine[uid].get("attack") or 0))
            opts = moves.get(uid, {})
            if here in sides:
                mine.append((uid, here))
                total += a * sides[here]
                continue
            reach = [j for j in sides if j in opts and room.get(j, g.quality[j][2]) >= _res(sit, uid)]
            if reach:
                j = max(reach, key=lambda k: (sides[k], -room.get(k, g.quality[k][2]), -k))
                room[j] = room.get(j, g.quality[j][2]) - _res(sit, uid)
                mine.append((uid, j))
                total += a * sides[j]
                continue
            closer = [j for j in opts if near.get(j, 99) < near[here]
                      and room.get(j, g.quality[j][2]) >= _res(sit, uid)]
            if not closer:
                continue
            j = min(closer, key=lambda k: (near[k], -k))
            room[j] = room.get(j, g.quality[j][2]) - _res(sit, uid)
            mine.append((uid, j))
            total += 0.5 * a  # on the march: half counted (it arrives next turn, if at all)
        if not mine:
            continue
        besieged.append(t)
        for uid, j in mine:
            committed.add(uid)
            if j != foot[uid]:
                out.append((250.0 - len(besieged) - 0.001 * len(out), moves[uid][j]))
    return out, committed, besieged


def siege_target(pic: Picture, city: int) -> int | None:
    """The hex a siege of ``city`` (an enemy-held objective) attacks (session 13): the city
    itself while one of its land sides is free for our units to attack from; once the enemy
    holds every side (a fortress's ring), the weakest ring hex (terrain-weighted defense,
    :meth:`Picture.defense`) that has a free land side of its own - the breach the city is
    stormed through; None when no ring hex has one."""
    g, land = pic.g, pic.land
    sides = [j for j in g.nbrs[city] if land[j] and _crossing(g, j, city, False) > 0]
    if any(j not in pic.theirs for j in sides):
        return city
    ring = [j for j in sides if any(land[k] and k not in pic.theirs and k != city
                                    and _crossing(g, k, j, False) > 0 for k in g.nbrs[j])]
    if not ring:
        return None
    weakest: int = min(ring, key=lambda j: (pic.defense(j)[0], j))
    return weakest


#: EUR-09 the chance an attack at (at least) these odds clears the hex: the revised CRT's
#: DR and D2 results with no modifier (``crt_analysis.column_stats``); both sides' last
#: assaults weigh their targets by it
CLEAR = ((7.0, 0.83), (5.0, 0.72), (4.0, 0.58), (3.0, 0.47), (2.0, 0.28), (1.5, 0.14),
         (1.0, 0.11))


def p_clear(odds: float) -> float:
    """The chance (:data:`CLEAR`) that an attack at ``odds`` to 1 clears the hex."""
    for at, p in CLEAR:
        if odds >= at:
            return p
    return 0.0


def verdict_value(verdict: Callable[[Collection[str]], float],
                  targets: Sequence[tuple[str, float]]) -> float:
    """The expected worth of ``verdict`` over the hexes taken (or retaken) when each target
    (its hex, the chance it is cleared) falls or holds on its own die roll.

    >>> verdict_value(lambda got: 1.0 if len(got) == 2 else 0.0, [("a", 0.5), ("b", 0.5)])
    0.25
    """
    dist: dict[frozenset[str], float] = {frozenset(): 1.0}
    for hex_, p in targets:
        nxt: dict[frozenset[str], float] = {}
        for got, q in dist.items():
            nxt[got | {hex_}] = nxt.get(got | {hex_}, 0.0) + q * p
            nxt[got] = nxt.get(got, 0.0) + q * (1 - p)
        dist = nxt
    return sum(q * verdict(got) for got, q in dist.items())


#: session 27 (the attacker's last assault, :func:`last_assault_plan`): the most targets a
#: subset weighed has, the odds an assault gathers units to (more only from the units
#: left over) and the least it is made at - 1 to 1, the lowest column that can clear a hex
LAST_TARGETS = 3
LAST_AIM = 5.0
LAST_MIN = 1.0


#: session 30: what a planned attack's chance of emptying its target is read from - the
#: target (map index) and {unit: the hex it attacks from} -> the chance, or None where it
#: cannot say (the search's: the system's exact estimate of the planned position)
Chance = Callable[[int, Mapping[str, int]], "float | None"]


def last_assault_plan(pic: Picture, moves: Mapping[str, Mapping[int, Command]],
                      stakes: Mapping[int, float],
                      verdict: Callable[[Collection[str]], float],
                      pinned: Collection[str] = (), chance: Chance | None = None,
                      aims: Sequence[float] = (LAST_AIM,)
                      ) -> tuple[list[tuple[float, Command]], set[str], list[int]]:
    """The attacker's last movement phase (session 27, the search bot's): the objectives the
    enemy holds with units in them (``stakes``: hex -> the points taking it is worth, > 0)
    are the only hexes that still count, and what the verdict makes of them is what the
    turn is for. Every subset of up to :data:`LAST_TARGETS` of them (and all of them first)
    is planned on its own - each target, the likeliest points first, gets the strongest of
    our ground units that can stand on its free sides (their own hex, or a legal move into
    a hex with room in the stack; ``pinned`` units only from where they stand; rivers
    halve across, EUR-10; out of supply halves, EUR-30) up to :data:`LAST_AIM` to 1 over
    its terrain-weighted defense, kept if they make :data:`LAST_MIN`; each unit left then
    joins the target where it adds most to the points expected (:func:`p_clear`) - and
    valued by :func:`verdict_value` (``verdict``: the hexes taken -> what the verdict they
    make is worth to us); the best is made. Returns the moves (scored 300 down), the units
    committed (those attacking from where they stand too) and the targets.

    Session 30 (the search's): ``chance`` values each planned attack by the system's exact
    chance that it empties its target (a "1" result empties a major city of one-step units,
    EUR-11/13, which :func:`p_clear` does not count) where it gives one, and each subset is
    also planned to each of ``aims`` (the odds a target gathers units to before the next:
    lower aims spread the army over more targets)."""
    sit, g = pic.sit, pic.g
    m = sit.map
    targets = sorted(t for t, s in stakes.items() if s > 0 and t in pic.theirs)
    if not targets:
        return [], set(), []
    at = {uid: m.index_of_label(str(u["hex"])) for uid, u in sit.mine.items()
          if str(u.get("type")) not in NOT_GROUND and view_factor(u, "attack") > 0}
    room0 = {i: g.quality[i][2] - sum(_res(sit, x) for x in us) for i, us in pic.ours.items()}
    defense = {t: max(pic.defense(t)[0], 1.0) for t in targets}
    # each unit's options next to each target: (factors, unit, side hex), strongest first
    offers: dict[int, list[tuple[float, str, int]]] = {}
    for t in targets:
        sides = [j for j in g.nbrs[t] if pic.land[j] and j not in pic.theirs]
        got: list[tuple[float, str, int]] = []
        for uid, here in at.items():
            u = sit.mine[uid]
            a = float(view_factor(u, "attack")) / (2 if out_of_supply(u) else 1)
            mech = str(u.get("type")) in MECH
            opts = moves.get(uid, {}) if uid not in pinned else {}
            for j in sides:
                if j == here or j in opts:
                    f = a * _crossing(g, j, t, mech)
                    if f > 0:
                        got.append((f, uid, j))
        got.sort(key=lambda x: (-x[0], x[2] != at[x[1]], x[1], x[2]))
        offers[t] = got
    # the points each target can be expected to give with every unit that reaches it (its
    # best side each): the order the subsets' targets are planned in
    likely: dict[int, float] = {}
    for t in targets:
        strongest: dict[str, float] = {}
        for f, uid, _j in offers[t]:
            strongest.setdefault(uid, f)
        likely[t] = stakes[t] * p_clear(sum(strongest.values()) / defense[t])

    def plan(only: Sequence[int], aim: float = LAST_AIM
             ) -> tuple[dict[int, dict[str, int]], dict[int, float]]:
        room = dict(room0)
        used: set[str] = set()
        chosen: dict[int, dict[str, int]] = {}
        total: dict[int, float] = {}

        def fits(uid: str, j: int) -> bool:
            return j == at[uid] or room.get(j, g.quality[j][2]) >= _res(sit, uid)

        def put(uid: str, j: int, sign: int = 1) -> None:
            if j != at[uid]:
                room[j] = room.get(j, g.quality[j][2]) - sign * _res(sit, uid)

        for t in sorted(only, key=lambda t: (-likely[t], -stakes[t], t)):
            pick: dict[str, int] = {}
            f_sum = 0.0
            for f, uid, j in offers[t]:
                if f_sum >= aim * defense[t]:
                    break
                if uid in used or uid in pick or not fits(uid, j):
                    continue
                pick[uid] = j
                put(uid, j)
                f_sum += f
            if pick and f_sum >= LAST_MIN * defense[t]:
                used.update(pick)
                chosen[t], total[t] = pick, f_sum
            else:
                for uid, j in pick.items():
                    put(uid, j, -1)
        # the units left join where they add most to the points expected
        for uid in sorted(at):
            if uid in used:
                continue
            best: tuple[tuple[float, float, int, float], int, int, float] | None = None
            for t in chosen:
                if total[t] >= CLEAR[0][0] * defense[t]:
                    continue
                opt = next(((f, j) for f, u, j in offers[t] if u == uid and fits(uid, j)), None)
                if opt is None:
                    continue
                f, j = opt
                gain = stakes[t] * (p_clear((total[t] + f) / defense[t])
                                    - p_clear(total[t] / defense[t]))
                key = (gain, stakes[t], -t, f)
                if best is None or key > best[0]:
                    best = (key, t, j, f)
            if best is not None:
                _key, t, j, f = best
                chosen[t][uid] = j
                put(uid, j)
                total[t] += f
                used.add(uid)
        return chosen, total

    subsets: list[Sequence[int]] = [targets]
    for k in range(1, min(LAST_TARGETS, len(targets) - 1) + 1):
        subsets += [list(c) for c in combinations(targets, k)]

    def cleared(t: int, pick: Mapping[str, int], f_sum: float) -> float:
        got = chance(t, pick) if chance is not None else None
        return p_clear(f_sum / defense[t]) if got is None else got

    best_plan: tuple[float, dict[int, dict[str, int]]] | None = None
    for only in subsets:
        for aim in aims:
            chosen, total = plan(only, aim)
            value = verdict_value(verdict, [(m.label(t), cleared(t, chosen[t], total[t]))
                                            for t in chosen])
            if best_plan is None or value > best_plan[0] + 1e-9:
                best_plan = (value, chosen)
    assert best_plan is not None
    out: list[tuple[float, Command]] = []
    committed: set[str] = set()
    for k, t in enumerate(sorted(best_plan[1], key=lambda t: (-stakes[t], t))):
        for uid, j in sorted(best_plan[1][t].items()):
            committed.add(uid)
            if j != at[uid]:
                out.append((300.0 - k - 0.001 * len(out), moves[uid][j]))
    return out, committed, sorted(best_plan[1], key=lambda t: (-stakes[t], t))


def exploitation_plan(pic: Picture, moves: Mapping[str, Mapping[int, Command]],
                      value_of: Callable[[int], float], checks: int = 4,
                      goal_distance: Callable[[int], int] | None = None
                      ) -> list[tuple[float, Command]]:
    """The exploitation phase's cuts: each mechanized unit that may move, strongest first, to
    the hex (that traces to our sources, not next to more enemy strength than it defends)
    that cuts the most enemy strength from its sources with the moves planned before it,
    else the one most of the enemy's supply paths run through near the front, and nearer
    the objectives (``goal_distance``: hexes to the nearest)."""
    sit, g = pic.sit, pic.g
    m = sit.map
    field0 = pic.their_field()
    supplied = {i: d for i, d in enumerate(field0[1]) if d >= 0}  # their_supplied()
    base = pic.cut_worth(supplied)
    field_now, field_at = field0, 0  # the field with the first field_at cuts added
    ok = pic.our_supplied()
    # the enemy's supply paths: from each enemy hex in contact down the distance field
    flow: dict[int, float] = {}
    for i, us in pic.theirs.items():
        if i not in supplied:
            continue
        w = float(sum(view_factor(u, "defense") for u in us))
        cur = i
        for _step in range(8):
            nxt = [j for j, s in zip(g.nbrs[cur], g.sides[cur], strict=True)
                   if s >= 0 and supplied.get(j, 10**6) < supplied[cur]]
            if not nxt:
                break
            cur = min(nxt)
            flow[cur] = flow.get(cur, 0.0) + w
    added: list[int] = []
    stack: dict[int, int] = {}
    out: list[tuple[float, Command]] = []

    # the options' fixed parts, once per hex for all the movers
    @kept_per_hex
    def flow_ring(i: int) -> float:
        return flow.get(i, 0.0) + sum(flow.get(j, 0.0) for j in g.nbrs[i]
                                      if j not in pic.theirs)
    @kept_per_hex
    def near_attack(i: int) -> int:  # the enemy's attack factors next to hex i
        return sum(view_factor(x, "attack") for j in g.nbrs[i] for x in pic.theirs.get(j, []))
    @kept_per_hex
    def traces(i: int) -> bool:
        # EUR-30: not the enemy's, and the unit's own hex is ours once it stands there, so
        # it traces from there through a neighbour that does
        return i not in pic.theirs and (i in ok or any(j in ok for j in g.nbrs[i]))
    value_of = kept_per_hex(value_of)
    if goal_distance is not None:
        goal_distance = kept_per_hex(goal_distance)
    movers = sorted((uid for uid in moves if str(sit.mine[uid].get("type")) in MECH),
                    key=lambda x: (-int(sit.mine[x].get("attack") or 0), x))
    for uid in movers:
        u = sit.mine[uid]
        here = m.index_of_label(str(u["hex"]))
        own = view_factor(u, "defense")

        d0 = goal_distance(here) if goal_distance is not None else 0

        def pre(i: int, d0: int = d0) -> float:
            ring = flow_ring(i)
            closer = ADVANCE * (d0 - goal_distance(i)) if goal_distance is not None else 0.0
            return ring / 10 + 0.3 * value_of(i) + (1.0 if stack.get(i) else 0.0) + closer

        opts = []
        for i in moves[uid]:
            if not traces(i):
                continue
            if near_attack(i) > 2 * (own + 6 * stack.get(i, 0)):
                continue  # a spearhead the enemy would destroy
            opts.append(i)
        if not opts:
            continue
        ranked = sorted(opts, key=lambda i: (-pre(i), i))[:checks]
        if field_at != len(added):  # the movers placed since: their hexes closed
            field_now, field_at = pic.field_after(field_now, added, field_at), len(added)
        now = pic.cut_of(field_now) if added else base
        scored = []
        for i in ranked:
            gain = pic.cut_after(field_now, [*added, i]) - now
            scored.append((gain + pre(i), i))
        stay = pre(here)
        w, best = max(scored, key=lambda x: (x[0], -x[1]))
        if w <= stay + 0.5:
            continue
        added.append(best)
        stack[best] = stack.get(best, 0) + 1
        out.append((150.0 + min(w, 40.0) - 0.001 * len(out), moves[uid][best]))
    return out


def army_groups(rows: Mapping[str, int], shares: Sequence[float]) -> dict[str, int]:
    """The army groups (session 13): units (id -> their map row, north small) split north to
    south by the groups' ``shares`` of the army (the first group the northernmost units).
    Returns unit id -> group index; a unit past the last share (rounding) joins the last."""
    order = sorted(rows, key=lambda u: (rows[u], u))
    total = float(sum(shares)) or 1.0
    bounds: list[float] = []
    acc = 0.0
    for s in shares:
        acc += float(s) / total
        bounds.append(acc * len(order))
    out: dict[str, int] = {}
    k = 0
    for n, uid in enumerate(order):
        while k < len(bounds) - 1 and n >= bounds[k] - 1e-9:
            k += 1
        out[uid] = k
    return out


#: the attack factors an army group's objective draws on the march, as a multiple of the
#: enemy's defense in it (terrain-weighted, :data:`SIEGE_GARRISON` factors at least) and
#: next to it: the rest of the group marches on past it, to its last objective
MARCH_AIM = 3


def march_need(pic: Picture, goal: int) -> float:
    """The attack factors an army group sends to ``goal`` (:data:`MARCH_AIM` times its
    terrain-weighted defense, planned against :data:`SIEGE_GARRISON` factors at least, plus
    the enemy's defense next to it)."""
    mult, add, _limit = pic.g.quality[goal]
    d, _iso = pic.defense(goal)
    ring = sum(view_factor(u, "defense") for j in pic.g.nbrs[goal]
               for u in pic.theirs.get(j, []))
    return MARCH_AIM * (max(d, float((SIEGE_GARRISON + add) * mult)) + ring)


def march_plan(units: Mapping[str, tuple[int, float]], goals: Sequence[int],
               need: Mapping[int, float], field_of: Callable[[int], Mapping[int, int]]
               ) -> dict[str, int]:
    """An army group's march (session 13): ``units`` (id -> (its hex, its attack factors))
    make for ``goals`` (map indices, the plan's order: the last the deepest). The nearest
    units over land (``field_of(goal)``: every hex's land distance to it) go to each goal
    until their attack reaches its ``need``; the rest march on past them, to the last goal
    they can reach over land (a unit that reaches none is left out)."""
    pairs = sorted((d, uid, t) for uid, (here, _a) in units.items() for t in goals
                   if (d := field_of(t).get(here)) is not None)
    got = dict.fromkeys(goals, 0.0)
    out: dict[str, int] = {}
    for _d, uid, t in pairs:
        if uid in out or got[t] >= need.get(t, 0.0):
            continue
        out[uid] = t
        got[t] += units[uid][1]
    for uid, (here, _a) in sorted(units.items()):
        if uid not in out:
            deep = [t for t in goals if field_of(t).get(here) is not None]
            if deep:
                out[uid] = deep[-1]
    return out


def attack_worth(p_taken: Fraction, value: Fraction, isolated: bool, cut: float,
                 floor: Fraction = P_MIN) -> float:
    """An attack by the side driving on the objectives: at the odds that pay (a chance of
    clearing the hex of at least ``floor``, :data:`P_MIN`; any against a pocket) its
    expected gain (``value``) plus the enemy strength its win cuts off; else not made."""
    if not isolated and p_taken < floor:
        return -1.0
    return float(value) + float(p_taken) * cut / 4 + (1.0 if isolated else 0.0)
