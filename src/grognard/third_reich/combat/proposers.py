"""The combat Orders' proposers (``propose`` of ``airdrop``, ``invade``, ``attack``,
``attrition``, ``take_hexes``, ``withdraw`` and ``save_attrition_losses``).

Complete for the discrete choices (attrition fronts, hexes won, withdrawals with the optional
withdrawal of cut-off units, each alone and all together, saves); attacks are one command per
attackable hex with every ground unit that may join (and variants adding all eligible air, or
one fleet); for air drops and invasions a representative set of each unit's destinations
(verify accepts more). The shared facts come from :mod:`~grognard.third_reich.proposals`, the
TR-40 position (hexes won, withdrawal room, units cut off) from
:mod:`~grognard.third_reich.attritions`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any, cast

import numpy as np

from grognard.core.hexgrid import DIRECTIONS
from grognard.core.mapdata import WATER_TERRAIN, MapData
from grognard.core.memo import IdentityMemo
from grognard.core.paths import edge_tables
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.third_reich.attritions import (
    cut_off_units,
    takeable_hexes,
    withdrawal_room,
)
from grognard.third_reich.board import (
    hex_front,
    on_map_ground,
    phase_name,
)
from grognard.third_reich.proposals import (
    air_in_range,
    distances,
    passes,
    units_of,
)
from grognard.third_reich.state import FLEET_TYPES
from grognard.third_reich.state_types import PendingWithdrawal, TRState, TRUnit
from grognard.third_reich.turn.options import Front
from grognard.third_reich.turn.sequence import Phase
from grognard.third_reich.war import closed_mask, retreat_options

# --- movement: air drops and invasions ---------------------------------------------------------


def legal_airdrop(ctx: Context, state: TRState, player: str) -> Iterator[Command]:
    """TR-51: each airborne unit onto each land hex in reach, unescorted or with one escort."""
    if phase_name(ctx, state) != Phase.MOVEMENT.value:
        return
    m = ctx.scenario.map
    land = np.flatnonzero(~m.terrain_mask(*WATER_TERRAIN))
    for uid, u in units_of(state, player, ground=True):
        if u["type"] != "airborne":
            continue
        here = m.index_of_label(cast(str, u["hex"]))
        # land hexes within 8, in hex-number order
        for h in land[(distances(m, here, land) <= 8) & (land != here)]:
            label = m.label(int(h))
            yield Command("airdrop", player, {"unit": uid, "to": label})
            for a in air_in_range(ctx, state, player, label)[:1]:
                yield Command("airdrop", player, {"unit": uid, "to": label, "escorts": [a]})


def legal_invade(ctx: Context, state: TRState, player: str) -> Iterator[Command]:
    """TR-61: one fleet with one unit of its port, from each sea hex next to each beach of a
    front with the offensive option."""
    if phase_name(ctx, state) != Phase.MOVEMENT.value:
        return
    m = ctx.scenario.map
    offensive = {f for f, v in state["options"].get(player, {}).items()
                 if v.get("option") == "offensive"}
    if not offensive:
        return
    ground = units_of(state, player, ground=True)
    fleets = [(fid, f, [uid for uid, u in ground if u["hex"] == f["hex"]
                        and uid not in state["moved"]])
              for fid, f in units_of(state, player, FLEET_TYPES)]
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


# --- combat ---------------------------------------------------------------------


def _attack_candidates(ctx: Context, state: TRState, player: str
                       ) -> Iterator[tuple[str, list[str]]]:
    """TR-32: per attackable hex (label order), the ground units that may join an attack on
    it, each to be checked alone (adjacent or in the hex, not yet attacked, its power not
    closed out of the hex)."""
    if phase_name(ctx, state) not in {Phase.COMBAT.value, Phase.MECH_COMBAT.value}:
        return
    m = ctx.scenario.map
    attacked = set(state["attacked"])
    mine = [(uid, u) for uid, u in units_of(state, player, ground=True) if uid not in attacked]
    mine_ix = np.array([m.index_of_label(cast(str, u["hex"])) for _, u in mine], dtype=np.intp)
    enemy_hexes = sorted(cast("set[str]", {u["hex"] for u in state["units"].values()
                                           if on_map_ground(u) and u["side"] != player}))
    done = set(state["attacked_hexes"])
    # TR-03: only on a front where the side has an offensive option (verify refuses the rest)
    offensive = {f for f, o in state["options"].get(player, {}).items()
                 if isinstance(o, Mapping) and o.get("option") == "offensive"}
    closed: dict[str, np.ndarray] = {}

    def open_to(u: TRUnit, h: int) -> bool:
        """TR-25: whether ``u``'s power may attack hex ``h`` (verify refuses the attack of a
        power into a closed hex whatever else it names: such a candidate is not tried)."""
        p = str(u.get("power") or "")
        if not p:
            return True
        mask = closed.get(p)
        if mask is None:
            mask = closed[p] = closed_mask(ctx, state, p, "attack")
        return not bool(mask[h])

    # the units by hex (their places in ``mine``), so each hex gathers the units within one
    # hex of it (adjacent, or in the hex) from its own and its six neighbours' lists
    at: dict[int, list[int]] = {}
    for i, h in enumerate(mine_ix.tolist()):
        at.setdefault(h, []).append(i)
    ring = _ring(m)
    for t in enemy_hexes:
        th = m.index_of_label(t)
        if t in done or hex_front(m, th) not in offensive:
            continue
        near = sorted(i for h in ring[th] for i in at.get(h, ()))
        yield t, [mine[i][0] for i in near if open_to(mine[i][1], th)]


def _ring(m: MapData) -> list[tuple[int, ...]]:
    """Each hex's number with those of the map's hexes one hex away (axial distance 1, as
    :func:`~grognard.third_reich.proposals.distances` counts), once per map (kept)."""
    def make() -> list[tuple[int, ...]]:
        q, r = np.asarray(m.q, dtype=np.int64), np.asarray(m.r, dtype=np.int64)
        around = np.stack([m.indices_of(q + d.q, r + d.r) for d in DIRECTIONS], axis=1)
        return [(h, *(int(x) for x in row if x >= 0)) for h, row in enumerate(around.tolist())]
    return _RINGS.get(m, lambda _m: make())


_RINGS: IdentityMemo[MapData, list[tuple[int, ...]]] = IdentityMemo(4)


def legal_attack(ctx: Context, state: TRState, player: str, verify: Any) -> Iterator[Command]:
    """TR-32: per attackable hex, every ground unit that may join (checked alone), then the
    same with every eligible air unit, and with each eligible fleet."""
    for t, cands in _attack_candidates(ctx, state, player):
        ok = [a for a in cands if passes(verify, ctx, state,
                                          Command("attack", player, {"hex": t, "attackers": [a]}))]
        if not ok:
            continue
        base: dict[str, Any] = {"hex": t, "attackers": ok}
        if not passes(verify, ctx, state, Command("attack", player, base)):
            base = {"hex": t, "attackers": ok[:1]}
        yield Command("attack", player, base)
        air = [a for a in air_in_range(ctx, state, player, t)
               if passes(verify, ctx, state, Command("attack", player, {**base, "air": [a]}))]
        if air:
            yield Command("attack", player, {**base, "air": air})
        for fid, _f in units_of(state, player, FLEET_TYPES):
            if fid not in state["fleets_used"]:
                yield Command("attack", player, {**base, "fleet": fid})


def any_attack(ctx: Context, state: TRState, player: str, verify: Any) -> bool:
    """The witness of :func:`legal_attack`: it lists an attack on a hex exactly when one of
    the hex's units passes ``verify`` alone (that attack, or all such units together, is its
    first command), so the first unit that does answers."""
    return any(passes(verify, ctx, state, Command("attack", player, {"hex": t, "attackers": [a]}))
               for t, cands in _attack_candidates(ctx, state, player) for a in cands)


# --- attrition ------------------------------------------------------------------------------------


def legal_attrition(ctx: Context, state: TRState, player: str) -> Iterator[Command]:
    for f in Front:
        yield Command("attrition", player, {"front": f.value})


def legal_take_hexes(ctx: Context, state: TRState, player: str) -> Iterator[Command]:
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


def legal_withdraw(ctx: Context, state: TRState, player: str) -> Iterator[Command]:
    """TR-40: the defender's complete answers (every withdrawing unit named: a retreat hex or
    removal, issue 23): every assignment that keeps each hex within its stacking limit
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
    moving = {uid for uid, _ in per_unit}
    room: dict[str, int] = {}
    for _uid, hexes in per_unit:
        for h in hexes:
            if h is not None and h not in room:
                room[h] = withdrawal_room(state, player, h, moving)
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


def _cut_off_withdrawals(ctx: Context, state: TRState, player: str,
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
    taken = set(cast(PendingWithdrawal, state["pending_withdrawal"])["hexes"])
    options: dict[str, list[str]] = {}
    for uid in candidates:
        hexes = [h for h in retreat_options(ctx, state, player, cast(str, state["units"][uid]["hex"]))
                 if h not in taken]
        for h in hexes:
            if h not in room:
                room[h] = withdrawal_room(state, player, h, set(base))
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


def legal_save_attrition_losses(ctx: Context, state: TRState, player: str) -> Iterator[Command]:
    """TR-41: each unit lost to attrition saved by each friendly replacement unit."""
    losses = [x["unit"] for x in state["attrition_losses"] if x["side"] == player]
    reps = [uid for uid, u in units_of(state, player, ground=True) if u["type"] == "replacement"]
    for lost in losses:
        for r in reps:
            yield Command("save_attrition_losses", player, {"saves": {lost: r}})
