"""The movement Orders' proposers (``legal``/``sample`` of ``move`` and ``sr``): every hex of
each unit's movement range (TR-27/TR-28), a move drawn uniformly without ranging every unit,
and the SR candidates (TR-53, TR-66..TR-70): the farthest reachable cities and own hexes by
land, friendly ports by sea, fleet SR between ports, air-landing SR to cities."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import cast

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from grognard.core.errors import GrognardError, InputError
from grognard.core.mapdata import MapData
from grognard.core.paths import edge_tables
from grognard.engine.commands import Command, Verify, first_verified
from grognard.engine.context import Context
from grognard.engine.state import JSON
from grognard.third_reich.air_naval.air_state import air_zone_at
from grognard.third_reich.air_naval.sea_zones import port_at, sea_zones
from grognard.third_reich.board import (
    axis_side_of,
    ground_unit_of,
    on_map_ground,
    phase_name,
    position_cached,
    units_cached,
)
from grognard.third_reich.movement.movement import may_move_in_phase
from grognard.third_reich.movement.moves import move_phase, refuses_every_move, unit_move_range
from grognard.third_reich.movement.sea_srs import friendly_port as _friendly_port
from grognard.third_reich.proposals import (
    city_hexes,
    distances,
    passes,
    port_hexes,
    port_set,
    units_of,
)
from grognard.third_reich.state import AIR_TYPES, FLEET_TYPES
from grognard.third_reich.state_types import TRState, TRUnit
from grognard.third_reich.turn.powers import parse_power
from grognard.third_reich.turn.sequence import Phase
from grognard.third_reich.war import closed_mask, refusal, war_zoc


def legal_move(ctx: Context, state: TRState, player: str, skip_refused: bool = True
               ) -> Iterator[Command]:
    """TR-27/TR-28: every hex of each unmoved unit's movement range (``to``); a unit whose
    every move verify refuses for the unit itself (:func:`refuses_every_move`) is not ranged
    unless ``skip_refused`` is False (the sampler's fallback list, which draws its random
    order over the full list)."""
    if phase_name(ctx, state) not in {Phase.MOVEMENT.value, Phase.MECH_MOVEMENT.value}:
        return
    moved = set(state["moved"])
    phase, axis = move_phase(ctx, state), axis_side_of(ctx)
    for uid, u in units_of(state, player, ground=True):
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


def sample_move(ctx: Context, state: TRState, player: str, rng: random.Random,
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
    units = [(uid, u) for uid, u in units_of(state, player, ground=True) if uid not in moved]
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
        if passes(verify, ctx, state, cmd):
            return cmd
    candidates = list(legal_move(ctx, state, player, skip_refused=False))
    rng.shuffle(candidates)
    return next((c for c in candidates if passes(verify, ctx, state, c)), None)


#: rejection rounds of :func:`sample_move` before it lists every unit's moves
SAMPLE_TRIES = 32


#: Land SR destinations listed per unit (the farthest reachable cities and own hexes).
SR_TARGETS = 8


class _SRPorts:
    """The side's ports for sea SR (``sea``: a sea-zone port) and fleet SR (``fleet``: TR-70,
    not in an uncontested enemy air zone), each port asked once per listing as the units need
    it (the idle-phase witness stops at the first legal order)."""

    def __init__(self, ctx: Context, state: TRState, player: str) -> None:
        self.ctx, self.state, self.player = ctx, state, player
        self.read: list[str] = []
        self.known: dict[tuple[str, str], bool] = {}

    def ok(self, which: str, p: str) -> bool:
        """Whether port ``p`` is the side's for ``which`` SR."""
        got = self.known.get((which, p))
        if got is None:
            got = self.known.get(("friendly", p))
            if got is None:
                got = self.known["friendly", p] = _friendly_port(self.ctx, self.state, p,
                                                                self.player)
            if got:
                got = _sea_port(self.ctx, p) if which == "sea" else \
                    not air_zone_at(self.ctx, self.state, self.player, p).uncontested_enemy
            self.known[which, p] = got
        return got

    def friendly(self, which: str) -> Iterator[str]:
        """The side's ports for ``which`` SR in label order, found as they are read."""
        if not self.read:
            self.read.extend(port_hexes(self.ctx))
        return (p for p in self.read if self.ok(which, p))


def _fleet_srs(ctx: Context, player: str, uid: str, u: TRUnit, ports: _SRPorts
               ) -> Iterator[Command]:
    """TR-70: the fleet SR candidates of fleet ``uid`` (from a friendly port to each other)."""
    if u["hex"] in port_set(ctx) and ports.ok("fleet", u["hex"]):
        for p in ports.friendly("fleet"):
            if p != u["hex"]:
                yield Command("sr", player, {"kind": "fleet", "unit": uid, "to": p})


def legal_sr(ctx: Context, state: TRState, player: str) -> Iterator[Command]:
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
    own_hexes = cast("set[str]", {u["hex"] for _, u in units_of(state, player)})
    targets = sorted(set(city_hexes(ctx)) | own_hexes)
    target_ix = np.array([m.index_of_label(t) for t in targets], dtype=np.intp)
    ports = _SRPorts(ctx, state, player)

    def is_open(pw: str, i: int) -> bool:
        """TR-68 (issue 23): target ``i`` not closed to ``pw`` (asked once per target)."""
        got = open_to.get((pw, i))
        if got is None:
            got = open_to[pw, i] = refusal(ctx, state, pw, [targets[i]], "sr") is None
        return got

    for uid, u in units_of(state, player):
        if not _has_sr(u["power"]):
            continue
        if u["type"] in FLEET_TYPES:
            yield from _fleet_srs(ctx, player, uid, u, ports)
            continue
        if not (u["type"] in AIR_TYPES or on_map_ground(u)):
            continue
        here = m.index_of_label(cast(str, u["hex"]))
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
            for i in ok[np.lexsort((ok, distances(m, here, target_ix[ok])))][::-1].tolist():
                if is_open(pw, i):
                    far.append(i)
                    if len(far) == SR_TARGETS:
                        break
            for i in reversed(far):  # what an SR is for
                yield Command("sr", player, {"unit": uid, "to": targets[i]})
        if _sea_port(ctx, cast(str, u["hex"])):
            for p in ports.friendly("sea"):
                if p == u["hex"]:
                    continue
                yield Command("sr", player, {"kind": "sea", "unit": uid, "to": p})
        if u["type"] == "airborne":
            for c in city_hexes(ctx):
                if c != u["hex"]:
                    yield Command("sr", player, {"kind": "air_landing", "unit": uid, "to": c})


def any_sr(ctx: Context, state: TRState, player: str, verify: Verify) -> bool:
    """The witness of :func:`legal_sr` (whether it lists a legal SR): the fleet SRs first
    (they need no land areas, the listing's dearest part), but not those to a port closed to
    the fleet's power (verify refuses them: TR-68), then the listing in its order."""
    if phase_name(ctx, state) != Phase.STRATEGIC_DEPLOYMENT.value:
        return False
    ports = _SRPorts(ctx, state, player)
    shut: dict[tuple[str, str], bool] = {}

    def closed(power: str, to: str) -> bool:
        """TR-68 (issue 23): ``to`` closed to ``power``'s SR (verify refuses the SR)."""
        got = shut.get((power, to))
        if got is None:
            got = shut[power, to] = refusal(ctx, state, power, [to], "sr") is not None
        return got

    fleets = (c for uid, u in units_of(state, player, FLEET_TYPES) if _has_sr(u["power"])
              for c in _fleet_srs(ctx, player, uid, u, ports)
              if not closed(str(u["power"]), str(c.args["to"])))
    return first_verified(ctx, state, verify, fleets) or \
        first_verified(ctx, state, verify, legal_sr(ctx, state, player))


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


def _land_components(ctx: Context, state: TRState, side: str, power: str = "") -> np.ndarray:
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
