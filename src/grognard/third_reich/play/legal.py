"""Legal-action enumerators of the ``third_reich`` system: the proposers its Orders use.

Each ``legal_<kind>(ctx, state, player)`` proposes candidate commands (an Order's
``propose``): the engine keeps those the order's own verify accepts, so every listed command
is legal. Complete for
the discrete choices (options, war targets, attrition fronts, hexes won, withdrawals
(with the optional withdrawal of cut-off units, each alone and all together), supply breakouts, saves, end_phase) and for moves (every hex of the unit's movement range,
``to`` = the cheapest path); attacks are one command per attackable hex with every ground
unit that may join (and variants adding all eligible air, or one fleet); for the other
orders (air stage, air drop, naval transport, invasion, SR, builds, counter air, Murmansk)
a representative set of each unit's destinations and sizes (verify accepts more).

Whole-map facts come from the position caches of :mod:`~grognard.third_reich.board`
and :mod:`~grognard.third_reich.play.system_moves` (forces, ZOC fields, movement ranges).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from grognard.core.errors import GrognardError, InputError
from grognard.core.mapdata import WATER_TERRAIN, MapData
from grognard.core.paths import edge_tables
from grognard.engine.commands import Command, CommandSpec
from grognard.engine.context import Context
from grognard.engine.state import JSON
from grognard.third_reich.air_naval.air_state import air_zone_at
from grognard.third_reich.air_naval.sea_zones import sea_zones
from grognard.third_reich.air_naval.transports import port_at
from grognard.third_reich.board import (
    axis_side_of,
    ground_unit_of,
    hex_front,
    hex_stacking_limit,
    on_map_ground,
    phase_name,
    position_cached,
    units_cached,
)
from grognard.third_reich.movement.movement import may_move_in_phase
from grognard.third_reich.movement.sea_srs import friendly_port as _friendly_port
from grognard.third_reich.play.system_attrition import cut_off_units, takeable_hexes
from grognard.third_reich.play.system_moves import (
    move_phase,
    refuses_every_move,
    unit_move_range,
)
from grognard.third_reich.state import AIR_TYPES, FLEET_TYPES
from grognard.third_reich.turn.options import Front
from grognard.third_reich.turn.powers import parse_power
from grognard.third_reich.turn.sequence import Phase
from grognard.third_reich.war import closed_mask, refusal, retreat_options, war_zoc

Legal = Callable[[Context, JSON, str], Iterable[Command]]


def distinct(propose: Legal) -> Legal:
    """``propose`` without repeated candidates (the same arguments proposed twice)."""
    def unique(ctx: Context, state: JSON, player: str) -> Iterator[Command]:
        seen = set()
        for cmd in propose(ctx, state, player):
            key = repr(sorted(cmd.args.items()))
            if key not in seen:
                seen.add(key)
                yield cmd
    return unique


def _units(state: JSON, side: str, types: Iterable[str] | None = None,
           ground: bool = False) -> list[tuple[str, Mapping[str, Any]]]:
    t = None if types is None else frozenset(types)
    return [(uid, u) for uid, u in sorted(state["units"].items())
            if u["side"] == side and u["status"] == "active" and u["hex"] is not None
            and (t is None or u["type"] in t) and (not ground or on_map_ground(u))]


def _distances(m: MapData, start: int, hexes: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """Hex distance from hex number ``start`` to each of ``hexes`` (vectorised distance)."""
    dq = m.q[hexes].astype(np.int64) - int(m.q[start])
    dr = m.r[hexes].astype(np.int64) - int(m.r[start])
    out: npt.NDArray[np.int64] = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    return out


#: Per map (by identity, the last few): its city and port hexes, labels sorted - facts of the
#: map alone, read by the listers on every call.
_MAP_HEXES: list[tuple[MapData, dict[str, Any]]] = []


def _of_map(m: MapData, name: str, make: Callable[[], Any]) -> Any:
    """``make()`` once per map (a map never changes; callers must not change the value)."""
    facts = next((f for known, f in _MAP_HEXES if known is m), None)
    if facts is None:
        facts = {}
        _MAP_HEXES.insert(0, (m, facts))
        del _MAP_HEXES[4:]
    if name not in facts:
        facts[name] = make()
    return facts[name]


def _city_hexes(ctx: Context) -> list[str]:
    """The map's city hexes (labels, sorted; shared: not to be changed)."""
    m = ctx.scenario.map
    got: list[str] = _of_map(m, "cities", lambda: sorted(m.label(h) for h in m.cities))
    return got


def _port_hexes(ctx: Context) -> list[str]:
    """The map's port hexes (labels, sorted; shared: not to be changed)."""
    m = ctx.scenario.map
    got: list[str] = _of_map(m, "ports", lambda: sorted(
        m.label(h) for h in m.cities if port_at(m, m.label(h)) is not None))
    return got


def _port_set(ctx: Context) -> frozenset[str]:
    """:func:`_port_hexes` as a set."""
    m = ctx.scenario.map
    got: frozenset[str] = _of_map(m, "port_set", lambda: frozenset(_port_hexes(ctx)))
    return got


# --- sequence, options, war, builds ---------------------------------------------------------


# --- movement ---------------------------------------------------------------------------------


def legal_move(ctx: Context, state: JSON, player: str, skip_refused: bool = True
               ) -> Iterator[Command]:
    """TR-27/TR-28: every hex of each unmoved unit's movement range (``to``); a unit whose
    every move verify refuses for the unit itself (:func:`refuses_every_move`) is not ranged
    unless ``skip_refused`` is False (the sampler's fallback list, which draws its random
    order over the full list)."""
    if phase_name(ctx, state) not in {Phase.MOVEMENT.value, Phase.MECH_MOVEMENT.value}:
        return
    moved = set(state["moved"])
    phase, axis = move_phase(ctx, state), axis_side_of(ctx)
    for uid, u in _units(state, player, ground=True):
        if uid in moved:
            continue
        if not may_move_in_phase(ground_unit_of(uid, u, axis), phase):
            continue  # no MPs this phase (infantry in the mechanized phase): its range is its hex
        if skip_refused and refuses_every_move(ctx, state, player, uid, u):
            continue  # verify refuses each of its moves (e.g. no offensive option: TR-02)
        try:
            reach = unit_move_range(ctx, state, uid).labels()
        except GrognardError:  # e.g. a stack sharing its hex with enemy units cannot move
            continue
        for label in reach:
            if label != u["hex"]:
                yield Command("move", player, {"unit": uid, "to": label})


def sample_move(ctx: Context, state: JSON, player: str, rng: random.Random,
                verify: Callable[[Context, JSON, Command], None]) -> Command | None:
    """One of :func:`legal_move`'s commands that passes ``verify``, drawn uniformly without
    ranging every unit: a unit drawn uniformly, then a slot among as many as any unit could
    have destinations (every hex within its MA: each hex entered costs at least 1 MP); a
    slot holding one of the unit's destinations, if verify passes it, is the draw (the
    :func:`grognard.engine.generic.sample_move` rejection). Every legal (unit, hex) pair is
    equally likely and only the drawn units are ranged. After :data:`SAMPLE_TRIES` misses (or a
    range larger than the slots) the whole list is shuffled instead."""
    if phase_name(ctx, state) not in {Phase.MOVEMENT.value, Phase.MECH_MOVEMENT.value}:
        return None
    moved = set(state["moved"])
    units = [(uid, u) for uid, u in _units(state, player, ground=True) if uid not in moved]
    if not units:
        return None
    most = max(int(u.get("movement") or 0) for _, u in units)
    slots = min(3 * most * (most + 1), ctx.scenario.map.n - 1)
    for _ in range(SAMPLE_TRIES if slots > 0 else 0):
        uid, u = units[rng.randrange(len(units))]
        slot = rng.randrange(slots)
        try:
            reach = unit_move_range(ctx, state, uid).labels()
        except GrognardError:  # as legal_move: this unit has no moves
            continue
        dests = [label for label in reach if label != u["hex"]]
        if len(dests) > slots:  # the bound does not hold: draw from the whole list
            break
        if slot >= len(dests):
            continue
        cmd = Command("move", player, {"unit": uid, "to": dests[slot]})
        if _passes(verify, ctx, state, cmd):
            return cmd
    candidates = list(legal_move(ctx, state, player, skip_refused=False))
    rng.shuffle(candidates)
    return next((c for c in candidates if _passes(verify, ctx, state, c)), None)


#: rejection rounds of :func:`sample_move` before it lists every unit's moves
SAMPLE_TRIES = 32


def legal_air_stage(ctx: Context, state: JSON, player: str) -> Iterator[Command]:
    """TR-29: each air unit to each city (verify applies the 2x range and the bases)."""
    if phase_name(ctx, state) != Phase.MOVEMENT.value:
        return
    m = ctx.scenario.map
    cities = _city_hexes(ctx)
    city_ix = np.array([m.index_of_label(c) for c in cities], dtype=np.intp)
    for uid, u in _units(state, player, AIR_TYPES):
        rng = 2 * (int(u.get("movement") or 0) or 4)
        dist = _distances(m, m.index_of_label(u["hex"]), city_ix).tolist()
        for c, d in zip(cities, dist, strict=True):
            if c != u["hex"] and d <= rng:
                yield Command("air_stage", player, {"unit": uid, "to": c})


def _air_in_range(ctx: Context, state: JSON, side: str, target: str) -> list[str]:
    m = ctx.scenario.map
    used = set(state["air_used"])
    air = [(uid, u) for uid, u in _units(state, side, AIR_TYPES) if uid not in used]
    if not air:
        return []
    dist = _distances(m, m.index_of_label(target),
                      np.array([m.index_of_label(u["hex"]) for _, u in air], dtype=np.intp))
    return [uid for (uid, u), d in zip(air, dist.tolist(), strict=True)
            if d <= (int(u.get("movement") or 0) or 4)]


def legal_airdrop(ctx: Context, state: JSON, player: str) -> Iterator[Command]:
    """TR-51: each airborne unit onto each land hex in reach, unescorted or with one escort."""
    if phase_name(ctx, state) != Phase.MOVEMENT.value:
        return
    m = ctx.scenario.map
    land = np.flatnonzero(~m.terrain_mask(*WATER_TERRAIN))
    for uid, u in _units(state, player, ground=True):
        if u["type"] != "airborne":
            continue
        here = m.index_of_label(u["hex"])
        # land hexes within 8, in hex-number order
        for h in land[(_distances(m, here, land) <= 8) & (land != here)]:
            label = m.label(int(h))
            yield Command("airdrop", player, {"unit": uid, "to": label})
            for a in _air_in_range(ctx, state, player, label)[:1]:
                yield Command("airdrop", player, {"unit": uid, "to": label, "escorts": [a]})


def legal_naval_transport(ctx: Context, state: JSON, player: str) -> Iterator[Command]:
    """TR-57: one fleet carrying one or all of the ground units in its port to each port."""
    if phase_name(ctx, state) != Phase.MOVEMENT.value:
        return
    ports = _port_hexes(ctx)
    ground = _units(state, player, ground=True)
    for fid, f in _units(state, player, FLEET_TYPES):
        here = [uid for uid, u in ground if u["hex"] == f["hex"]]
        loads = [[x] for x in here] + ([here] if len(here) > 1 else [])
        for load in loads:
            for p in ports:
                if p != f["hex"]:
                    yield Command("naval_transport", player,
                                  {"fleets": [fid], "units": load, "to": p})


def legal_invade(ctx: Context, state: JSON, player: str) -> Iterator[Command]:
    """TR-61: one fleet with one unit of its port, from each sea hex next to each beach of a
    front with the offensive option."""
    if phase_name(ctx, state) != Phase.MOVEMENT.value:
        return
    m = ctx.scenario.map
    offensive = {f for f, v in state["options"].get(player, {}).items()
                 if v.get("option") == "offensive"}
    if not offensive:
        return
    ground = _units(state, player, ground=True)
    fleets = [(fid, f, [uid for uid, u in ground if u["hex"] == f["hex"]
                        and uid not in state["moved"]])
              for fid, f in _units(state, player, FLEET_TYPES)]
    fleets = [x for x in fleets if x[2]]
    if not fleets:
        return
    et = edge_tables(m)
    for h in range(m.n):
        if et.water[h] or hex_front(m, h) not in offensive:
            continue
        for d in range(6):
            nb = int(et.nbr[h, d])
            if nb < 0 or not et.water[nb]:
                continue
            for fid, _f, cargo in fleets:
                for uid in cargo:
                    yield Command("invade", player, {"beach": m.label(h), "groups": [
                        {"hex": m.label(nb), "fleets": [fid], "cargo": {fid: [uid]}}]})


#: Land SR destinations listed per unit (the farthest reachable cities and own hexes).
SR_TARGETS = 8


def legal_sr(ctx: Context, state: JSON, player: str) -> Iterator[Command]:
    """TR-66..TR-70: land SR of each unit to the :data:`SR_TARGETS` farthest cities or hexes
    of its own side reachable without entering an enemy ZOC; sea SR (unescorted and with one
    escort) to friendly ports of the sea-zone table; fleet SR between friendly controlled ports;
    TR-53 air-landing SR of airborne units to each city. Units of powers without SR actions
    (TR-66) are not proposed: verify would refuse every one of their orders."""
    if phase_name(ctx, state) != Phase.STRATEGIC_DEPLOYMENT.value:
        return
    m = ctx.scenario.map
    comps: dict[str, np.ndarray] = {}
    open_to: dict[tuple[str, int], bool] = {}
    own_hexes = {u["hex"] for _, u in _units(state, player)}
    targets = sorted(set(_city_hexes(ctx)) | own_hexes)
    target_ix = np.array([m.index_of_label(t) for t in targets], dtype=np.intp)
    port_hexes: list[str] = []
    ports: dict[tuple[str, str], bool] = {}

    def port_ok(which: str, p: str) -> bool:
        """Whether port ``p`` is the side's for sea SR (``sea``: a sea-zone port) or fleet SR
        (``fleet``: TR-70, not in an uncontested enemy air zone), asked once per port as the
        units need it (the idle-phase scan stops at the first legal order)."""
        got = ports.get((which, p))
        if got is None:
            got = ports.get(("friendly", p))
            if got is None:
                got = ports["friendly", p] = _friendly_port(ctx, state, p, player)
            if got:
                got = _sea_port(ctx, p) if which == "sea" else \
                    not air_zone_at(ctx, state, player, p).uncontested_enemy
            ports[which, p] = got
        return got

    def friendly_ports(which: str) -> Iterator[str]:
        """The side's ports for ``which`` SR in label order, found as they are read."""
        if not port_hexes:
            port_hexes.extend(_port_hexes(ctx))
        return (p for p in port_hexes if port_ok(which, p))

    def is_open(pw: str, i: int) -> bool:
        """TR-68 (issue 23): target ``i`` not closed to ``pw`` (asked once per target)."""
        got = open_to.get((pw, i))
        if got is None:
            got = open_to[pw, i] = refusal(ctx, state, pw, [targets[i]], "sr") is None
        return got

    for uid, u in _units(state, player):
        if not _has_sr(u["power"]):
            continue
        if u["type"] in FLEET_TYPES:
            if u["hex"] in _port_set(ctx) and port_ok("fleet", u["hex"]):
                for p in friendly_ports("fleet"):
                    if p != u["hex"]:
                        yield Command("sr", player, {"kind": "fleet", "unit": uid, "to": p})
            continue
        if not (u["type"] in AIR_TYPES or on_map_ground(u)):
            continue
        here = m.index_of_label(u["hex"])
        pw = str(u["power"])
        if pw not in comps:  # TR-68 (issue 23): per power, neutral countries closed
            comps[pw] = _land_components(ctx, state, player, pw)
        comp, target_comp = comps[pw], comps[pw][target_ix]
        start = comp[here]
        ok = np.flatnonzero((target_comp == start) & (target_ix != here) & (start >= 0))
        if len(ok):
            # the farthest open ones (ties: the later label, as sorted (distance, label) would
            # give), found from the far end
            far: list[int] = []
            for i in ok[np.lexsort((ok, _distances(m, here, target_ix[ok])))][::-1].tolist():
                if is_open(pw, i):
                    far.append(i)
                    if len(far) == SR_TARGETS:
                        break
            for i in reversed(far):  # what an SR is for
                yield Command("sr", player, {"unit": uid, "to": targets[i]})
        if _sea_port(ctx, u["hex"]):
            for p in friendly_ports("sea"):
                if p == u["hex"]:
                    continue
                yield Command("sr", player, {"kind": "sea", "unit": uid, "to": p})
        if u["type"] == "airborne":
            for c in _city_hexes(ctx):
                if c != u["hex"]:
                    yield Command("sr", player, {"kind": "air_landing", "unit": uid, "to": c})


def _has_sr(power: str) -> bool:
    """TR-66: whether ``power`` is a major power with SR actions."""
    try:
        parse_power(power)
    except InputError:
        return False
    return True


def _sea_port(ctx: Context, label: str) -> bool:
    """TR-69: whether ``label`` holds a port of the sea-zone table (sea SR ends are such)."""
    p = port_at(ctx.scenario.map, label)
    return p is not None and p in sea_zones(ctx.tables).ports


def _land_components(ctx: Context, state: JSON, side: str, power: str = "") -> np.ndarray:
    """Connected land areas free of enemy units and enemy ZOC, per placement of the units:
    per hex its area (:func:`land_areas`: numbered in the order of their lowest hex).

    A blocked land hex (an enemy ZOC or enemy unit: where a unit may start but not pass) is
    given the area of a free neighbour (the lowest numbered), so units standing in one are
    proposed SRs into it; -1 for water and blocked hexes with no free neighbour. Read-only."""
    def make() -> np.ndarray:
        m = ctx.scenario.map
        et = edge_tables(m)
        zoc = war_zoc(ctx, state, side, power)  # TR-27/TR-68: ZOCs of powers at war only
        free = ~(zoc.enemy | et.water | zoc.mask("movement"))
        if power:  # TR-68: never crossing neutral countries (issue 23)
            free = free & ~closed_mask(ctx, state, power, "sr")
        comp = land_areas(m, free)
        none = m.n  # above every area number
        nb_comp = np.where(et.nbr >= 0, comp[np.maximum(et.nbr, 0)], -1)
        best = np.where(nb_comp >= 0, nb_comp, none).min(axis=1)
        edge = ~free & ~et.water & (best < none)
        comp = np.where(edge, best, comp)
        comp.setflags(write=False)
        return comp
    if power:
        return position_cached(ctx, state, f"tr.land_components.{side}.{power}", make)
    return units_cached(ctx, state, f"tr.land_components.{side}", make)


def land_areas(m: MapData, free: npt.NDArray[np.bool_]) -> npt.NDArray[np.intp]:
    """The connected areas of the ``free`` hexes (two adjacent free hexes share one): per hex
    its area's number, -1 where not free. Areas are numbered in the order of their lowest hex
    (the graph's connected components, its rows built directly from the neighbour table)."""
    nbr = edge_tables(m).nbr
    linked = (nbr >= 0) & free[:, None] & free[np.maximum(nbr, 0)]
    indptr = np.zeros(m.n + 1, dtype=np.int32)
    np.cumsum(linked.sum(axis=1), out=indptr[1:])
    cols = nbr[linked]
    graph = csr_matrix((np.ones(len(cols)), cols, indptr), shape=(m.n, m.n))
    _, labels = connected_components(graph, directed=False)
    out: npt.NDArray[np.intp] = np.where(free, labels, -1)
    return out


# --- air missions and combat ---------------------------------------------------------------------


def legal_counter_air(ctx: Context, state: JSON, player: str) -> Iterator[Command]:
    """TR-44: at each enemy air hex, each own air unit in range alone, and all of them."""
    if phase_name(ctx, state) != Phase.AIR_MISSIONS.value:
        return
    targets = sorted({u["hex"] for _, u in state["units"].items()
                      if u["type"] in AIR_TYPES and u["status"] == "active"
                      and u["hex"] is not None and u["side"] != player})
    for t in targets:
        mine = _air_in_range(ctx, state, player, t)
        for a in mine:
            yield Command("counter_air", player, {"air": [a], "target": t})
        if len(mine) > 1:
            yield Command("counter_air", player, {"air": mine, "target": t})


def legal_attack(ctx: Context, state: JSON, player: str, verify: Any) -> Iterator[Command]:
    """TR-32: per attackable hex, every ground unit that may join (checked alone), then the
    same with every eligible air unit, and with each eligible fleet."""
    if phase_name(ctx, state) not in {Phase.COMBAT.value, Phase.MECH_COMBAT.value}:
        return
    m = ctx.scenario.map
    attacked = set(state["attacked"])
    mine = [(uid, u) for uid, u in _units(state, player, ground=True) if uid not in attacked]
    mine_ix = np.array([m.index_of_label(u["hex"]) for _, u in mine], dtype=np.intp)
    enemy_hexes = sorted({u["hex"] for u in state["units"].values()
                          if on_map_ground(u) and u["side"] != player})
    done = set(state["attacked_hexes"])
    # TR-03: only on a front where the side has an offensive option (verify refuses the rest)
    offensive = {f for f, o in state["options"].get(player, {}).items()
                 if isinstance(o, Mapping) and o.get("option") == "offensive"}
    closed: dict[str, np.ndarray] = {}

    def open_to(u: Mapping[str, Any], h: int) -> bool:
        """TR-25: whether ``u``'s power may attack hex ``h`` (verify refuses the attack of a
        power into a closed hex whatever else it names: such a candidate is not tried)."""
        p = str(u.get("power") or "")
        if not p:
            return True
        mask = closed.get(p)
        if mask is None:
            mask = closed[p] = closed_mask(ctx, state, p, "attack")
        return not bool(mask[h])

    for t in enemy_hexes:
        th = m.index_of_label(t)
        if t in done or hex_front(m, th) not in offensive:
            continue
        near = _distances(m, th, mine_ix) <= 1  # adjacent, or in the hex
        cands = [uid for (uid, u), ok in zip(mine, near.tolist(), strict=True)
                 if ok and open_to(u, th)]
        ok = [a for a in cands if _passes(verify, ctx, state,
                                          Command("attack", player, {"hex": t, "attackers": [a]}))]
        if not ok:
            continue
        base: dict[str, Any] = {"hex": t, "attackers": ok}
        if not _passes(verify, ctx, state, Command("attack", player, base)):
            base = {"hex": t, "attackers": ok[:1]}
        yield Command("attack", player, base)
        air = [a for a in _air_in_range(ctx, state, player, t)
               if _passes(verify, ctx, state, Command("attack", player, {**base, "air": [a]}))]
        if air:
            yield Command("attack", player, {**base, "air": air})
        for fid, _f in _units(state, player, FLEET_TYPES):
            if fid not in state["fleets_used"]:
                yield Command("attack", player, {**base, "fleet": fid})


def _passes(verify: Any, ctx: Context, state: JSON, cmd: Command) -> bool:
    try:
        verify(ctx, state, cmd)
    except GrognardError:
        return False
    return True


# --- attrition ------------------------------------------------------------------------------------


def legal_attrition(ctx: Context, state: JSON, player: str) -> Iterator[Command]:
    for f in Front:
        yield Command("attrition", player, {"front": f.value})


def legal_take_hexes(ctx: Context, state: JSON, player: str) -> Iterator[Command]:
    """TR-40: every choice of the N hexes among those eligible (no advance)."""
    p = state.get("pending_hexes")
    if not p or p["side"] != player:
        return
    cands = sorted(h.id for h in takeable_hexes(ctx, state, p) if h.eligible)
    n = min(int(p["n"]), len(cands))
    for combo in itertools.islice(itertools.combinations(cands, n), 200):
        yield Command("take_hexes", player, {"hexes": list(combo)})


#: withdrawal choices listed at most (every listed one keeps to the stacking limits)
WITHDRAW_OPTIONS = 256
#: withdrawals with cut-off units listed at most (each costs two supply traces to verify)
CUT_OFF_OPTIONS = 64


def _room(state: JSON, player: str, label: str, leaving: set[str]) -> int:
    """TR-28/TR-63 How many more of ``player``'s ground units ``label`` holds, the units in
    ``leaving`` gone from where they stand."""
    here = sum(1 for vid, v in state["units"].items() if on_map_ground(v) and v["hex"] == label
               and v["side"] == player and vid not in leaving)
    return hex_stacking_limit(state, label) - here


def legal_withdraw(ctx: Context, state: JSON, player: str) -> Iterator[Command]:
    """TR-40: the defender's retreat hex (or removal) for each withdrawing unit: the engine's
    default (``{}``), then every assignment that keeps each hex within its stacking limit
    (TR-28/TR-63), found by a search that never puts a unit where no room is left, up to
    :data:`WITHDRAW_OPTIONS` (removing every unit always keeps the limits, so one exists);
    then the optional withdrawals of units the loss would cut off
    (:func:`_cut_off_withdrawals`)."""
    p = state.get("pending_withdrawal")
    if not p:
        return
    per_unit: list[tuple[str, list[str | None]]] = []
    for label, units in sorted(p["withdrawing"].items()):
        if not units:
            continue
        side = state["units"][units[0]]["side"]
        if side != player:
            return
        legal = [h for h in retreat_options(ctx, state, side, label) if h not in p["hexes"]]
        per_unit += [(uid, [*legal, None]) for uid in units]
    yield Command("withdraw", player, {})
    moving = {uid for uid, _ in per_unit}
    room: dict[str, int] = {}
    for _uid, hexes in per_unit:
        for h in hexes:
            if h is not None and h not in room:
                room[h] = _room(state, player, h, moving)
    ids = [uid for uid, _ in per_unit]
    chosen: list[str | None] = []
    listed = 0

    def search(k: int) -> Iterator[Command]:
        nonlocal listed
        if listed >= WITHDRAW_OPTIONS:
            return
        if k == len(per_unit):
            listed += 1
            yield Command("withdraw", player, {"retreats": dict(zip(ids, chosen, strict=True))})
            return
        for h in per_unit[k][1]:
            if h is not None and room[h] <= 0:
                continue
            if h is not None:
                room[h] -= 1
            chosen.append(h)
            yield from search(k + 1)
            chosen.pop()
            if h is not None:
                room[h] += 1

    yield from search(0)
    yield from _cut_off_withdrawals(ctx, state, player, per_unit, room)


def _cut_off_withdrawals(ctx: Context, state: JSON, player: str,
                         per_unit: list[tuple[str, list[str | None]]],
                         room: dict[str, int]) -> Iterator[Command]:
    """TR-40 "may also withdraw units that would be cut off": with the first assignment that
    keeps the stacking limits (each unit to its first hex with room, else removed), each
    unit :func:`cut_off_units` names withdrawn alone to each of its legal hexes with room,
    then all of them together (each to its first such hex), up to :data:`CUT_OFF_OPTIONS`."""
    room = dict(room)
    base: dict[str, str | None] = {}
    for uid, slots in per_unit:
        to = next((h for h in slots if h is not None and room[h] > 0), None)
        if to is not None:
            room[to] -= 1
        base[uid] = to
    candidates = cut_off_units(ctx, state, base)
    if not candidates:
        return
    taken = set(state["pending_withdrawal"]["hexes"])
    options: dict[str, list[str]] = {}
    for uid in candidates:
        hexes = [h for h in retreat_options(ctx, state, player, state["units"][uid]["hex"])
                 if h not in taken]
        for h in hexes:
            if h not in room:
                room[h] = _room(state, player, h, set(base))
        options[uid] = [h for h in hexes if room[h] > 0]
    listed = 0
    for uid in candidates:
        for h in options[uid]:
            if listed >= CUT_OFF_OPTIONS:
                return
            listed += 1
            yield Command("withdraw", player, {"retreats": base, "cut_off": {uid: h}})
    together: dict[str, str] = {}
    for uid in candidates:
        to = next((h for h in options[uid] if room[h] > 0), None)
        if to is not None:
            room[to] -= 1
            together[uid] = to
    if len(together) > 1 and listed < CUT_OFF_OPTIONS:
        yield Command("withdraw", player, {"retreats": base, "cut_off": together})


def legal_save_attrition_losses(ctx: Context, state: JSON, player: str) -> Iterator[Command]:
    """TR-41: each unit lost to attrition saved by each friendly replacement unit."""
    losses = [x["unit"] for x in state["attrition_losses"] if x["side"] == player]
    reps = [uid for uid, u in _units(state, player, ground=True) if u["type"] == "replacement"]
    for lost in losses:
        for r in reps:
            yield Command("save_attrition_losses", player, {"saves": {lost: r}})


# --- strategic warfare: Murmansk ------------------------------------------------------------------


#: Phases never passed over: the options are declared (or passed) in them.
KEEP = frozenset({Phase.DECLARE_OPTIONS.value, Phase.YEAR_START.value})


def idle_phase(ctx: Context, state: JSON, idx: int, commands: Mapping[str, CommandSpec]) -> bool:
    """Whether phase ``idx`` of this game turn would give its player nothing to do but end
    it: no command of the phase has a legal instance in the position as it stands when the
    phase opens (the per-phase marks cleared)."""
    phase = ctx.turn_sequence.phases[idx]
    if phase.name in KEEP:
        return False
    kinds = sorted(k for k in phase.commands if k in commands and k != "end_phase")
    if not kinds:
        return True
    opened = {**state, "phase": idx, "attacked": [], "attacked_hexes": [], "moved": [],
              "supply_checked": False}
    for kind in kinds:
        spec = commands[kind]
        propose = spec.propose
        if propose is None:
            if spec.legal is None or spec.legal(ctx, opened, phase.player):
                return False
            continue
        for cmd in propose(ctx, opened, phase.player):
            try:
                spec.verify(ctx, opened, cmd)
            except GrognardError:
                continue
            return False
    return True
