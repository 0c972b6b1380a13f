"""Europa: the defender's operational play for the planner (issue 25, session 12).

What a Soviet player does in 1941, read from the bot's own view, the scenario's public map
and supply sources and ``Game.objectives()`` (never a rule system's state keys):

* **Fortresses** (:func:`fortress_wants`): the plan's cities that decide the verdict (the
  ones a pocket cannot take: the defender's supply sources, and the rest of the plan's
  ``fortresses``) are held to the end - a full garrison (the stacking limit) once the enemy
  is within :data:`FORTRESS_REACH` hexes, and a ring of :data:`RING` units on each land hex
  next to the city once the enemy is within :data:`RING_REACH`: the enemy must break the
  ring before it can attack the city from every side (a full stack of three corps cannot
  hold a major city against the eighteen that fit on its six sides).
* **Garrisons that scale with the threat** (:func:`garrison_want`): every other objective we
  hold gets the units its terrain needs to keep the enemy within reach under
  :data:`TENABLE` to 1 (at most the stacking limit); one the enemy could take from any
  garrison gets a screen only while the enemy is far, never a stack to be destroyed.
* **The march on the fortresses**: the units nearest a fortress that still lacks its ring
  (out of contact) march on it, every other unit defends by the heuristic's line
  (:class:`grognard.bots.heuristic.DefencePlan`: stacks in good terrain, falling back from a
  hex it cannot hold, out of hexes the enemy's spearheads have cut off).
* **Counter-attacks** (:func:`counter_attacks`, the movement phase): an enemy hex that is
  exposed - out of supply, or an objective we want back, or a weak stack in the open - and
  that our free units (not in a garrison, never from a hex the enemy cuts off) can reach
  at :data:`COUNTER_ODDS` to 1 or better (attack factors over its terrain-weighted defense,
  rivers halving across) gets those units on its sides; the combat phase attacks at the
  exact odds with the defender's caution (no attack at bad odds).
* **Retaking** an objective the enemy holds and has left empty: the nearest unit that can
  reach it safely moves in (the verdict counts who entered a hex last); on the scenario's
  last turn every objective the enemy holds within reach draws units to it for the last
  attacks (any odds then: ``EuropaPolicy.score_attack``).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from grognard.bots import europa_offence as offence
from grognard.bots.base import LegalActions
from grognard.bots.heuristic import (
    DefencePlan,
    Score,
    defence_board,
    garrison,
    place_on_line,
    placed_moves,
)
from grognard.bots.situation import Situation
from grognard.engine.commands import Command

#: the enemy within this many hexes of a fortress: its full garrison
FORTRESS_REACH = 20
#: the enemy within this many hexes of a fortress: its ring (and the march on it)
RING_REACH = 12
#: units wanted on each land hex next to a fortress under threat
RING = 2
#: the odds (enemy attack in reach over our terrain-weighted defense) a garrison is sized to
TENABLE = 2.5
#: the enemy's reach counted against an objective (hexes: foot, mechanized)
GARRISON_REACH = (4, 8)
#: a garrison's units assumed to bring this many defense factors each (a rifle corps)
UNIT_DEFENSE = 5
#: the least planned odds (attack over terrain-weighted defense) a counter-attack moves for
COUNTER_ODDS = 3.0
#: a weak stack: at most this terrain-weighted defense (an exposed spearhead)
EXPOSED = 12.0


def fortress_hexes(sit: Situation, objectives: Sequence[Any], names: Collection[str],
                   sources: Collection[str]) -> set[str]:
    """The objective hexes (``Game.objectives()``) we hold that are fortresses: named by
    the plan (an objective's name starts with one of ``names``) or one of our supply
    sources."""
    out = set()
    for o in objectives:
        if o.holder != sit.player:
            continue
        if str(o.hex) in sources or any(str(o.name).startswith(n) for n in names):
            out.add(str(o.hex))
    return out


def garrison_want(threat: float, mult: int, add: int, limit_units: int) -> int:
    """The units a city needs to keep ``threat`` (enemy attack factors in reach) under
    :data:`TENABLE` to 1 against its terrain (EUR-10: (defense + add) x multiplier);
    ``limit_units + 1`` when no garrison it can stack would do."""
    if threat <= 0:
        return 0
    need = threat / TENABLE / max(1, mult) - add
    n = max(1, math.ceil(need / UNIT_DEFENSE))
    return n if n <= limit_units else limit_units + 1


def _land_ring(g: Any, i: int, land: Sequence[bool]) -> list[int]:
    return [j for j, s in zip(g.nbrs[i], g.sides[i], strict=True) if s >= 0 and land[j]]


def fortress_wants(sit: Situation, g: Any, objectives: Sequence[Any], fortresses: set[str],
                   enemy: Sequence[tuple[int, Mapping[str, Any]]], land: Sequence[bool],
                   safe: Collection[int], last_turn: bool = False
                   ) -> tuple[dict[int, int], dict[int, int]]:
    """(hex -> units wanted there, ring hex -> its fortress): the fortresses' garrisons and
    rings, the other objectives' threat-scaled garrisons and the objectives the enemy holds
    empty (one unit retakes each). An objective that no longer traces to our supply sources
    (not in ``safe``: the enemy has cut it off) and is no fortress wants no garrison: its
    units break out rather than die in the pocket (on the last turn it is held to the
    end)."""
    m = sit.map
    idx = m.index_of_label
    enemy_labels = {m.label(i) for i, _u in enemy}
    enemy_hexes = {i for i, _u in enemy}
    want: dict[int, int] = {}
    ring_of: dict[int, int] = {}
    for o in objectives:
        h = str(o.hex)
        i = idx(h)
        if i in enemy_hexes:
            continue
        d = sit.nearest(h, enemy_labels) if enemy_labels else 999
        mult, add, limit = g.quality[i]
        units = max(1, limit // 3)  # corps of 3 REs
        if o.holder != sit.player:  # empty and the enemy's: retake it
            if i in safe or last_turn:
                want[i] = max(want.get(i, 0), 1)
            continue
        if i not in safe and h not in fortresses and not last_turn:
            continue  # cut off: a pocket, not a garrison
        if h in fortresses:
            if d <= FORTRESS_REACH:
                want[i] = max(want.get(i, 0), units)
            if d <= RING_REACH and not last_turn:
                for j in _land_ring(g, i, land):
                    if j not in enemy_hexes:
                        want[j] = max(want.get(j, 0), RING)
                        ring_of.setdefault(j, i)
            continue
        threat = 0.0
        for k, u in enemy:
            reach = GARRISON_REACH[1] if str(u.get("type")) in offence.MECH \
                else GARRISON_REACH[0]
            if sit.distance(m.label(k), h) <= reach:
                threat += offence.view_factor(u, "attack")
        n = garrison_want(threat / 2, mult, add, units)  # its attacks are spread
        if n > units:  # no garrison holds it: a screen while the enemy is far
            n = 1 if d > 3 else 0
        elif d > 12:
            n = min(n, 1)
        if n:
            want[i] = max(want.get(i, 0), n)
    return want, ring_of


def counter_attacks(sit: Situation, g: Any, pic: offence.Picture,
                    moves: Mapping[str, Mapping[int, Command]], free: Collection[str],
                    at: Mapping[str, int], safe: Collection[int], plan: DefencePlan,
                    wanted_back: Collection[int], last_turn: bool = False
                    ) -> list[tuple[int, dict[str, int]]]:
    """The counter-attacks of this movement phase: (target hex, {unit: hex it moves to});
    each exposed enemy hex (out of supply, an objective we want back, or at most
    :data:`EXPOSED` terrain-weighted defense) that the ``free`` units can reach at
    :data:`COUNTER_ODDS` to 1 gets the fewest of them (strongest first) that make it; on the
    last turn every objective we want back gets whatever can reach it."""
    targets = []
    for i, us in pic.theirs.items():
        if not us:
            continue
        defense, isolated = pic.defense(i)
        back = i in wanted_back
        if not (isolated or back or defense <= EXPOSED):
            continue
        worth = (3.0 if back else 0.0) + (2.0 if isolated else 0.0) + 10.0 / (1 + defense)
        targets.append((-worth, i, defense))
    targets.sort()
    used: set[str] = set()
    out: list[tuple[int, dict[str, int]]] = []
    for _w, i, defense in targets:
        sides = [j for j, s in zip(g.nbrs[i], g.sides[i], strict=True)
                 if s >= 0 and pic.land[j] and j not in pic.theirs and j in safe]
        if not sides:
            continue
        offers = []
        for uid in free:
            if uid in used:
                continue
            u = sit.mine[uid]
            a = offence.view_factor(u, "attack")
            if a <= 0:
                continue
            mech = str(u.get("type")) in offence.MECH
            best = None
            for j in sides:
                if j != at[uid] and j not in moves.get(uid, {}):
                    continue
                f = a * offence._crossing(g, j, i, mech)
                if f > 0 and (best is None or f > best[0]):
                    best = (f, j)
            if best is not None:
                offers.append((-best[0], uid, best[1]))
        offers.sort()
        need = COUNTER_ODDS * max(defense, 1.0)
        got = 0.0
        chosen: dict[str, int] = {}
        for negf, uid, j in offers:
            if got >= need:
                break
            if plan.value(uid, j) <= -99:  # the stack is full
                continue
            plan.place(uid, j)
            chosen[uid] = j
            got += -negf
        if chosen and (got >= need or (last_turn and i in wanted_back)):
            used.update(chosen)
            out.append((i, chosen))
        else:
            for uid, j in chosen.items():
                plan.unplace(uid, j)
    return out


def defence_moves(sit: Situation, actions: LegalActions, objectives: Sequence[Any],
                  sources: Sequence[str], their_sources: Sequence[str],
                  fortress_names: Collection[str] = (), last_turn: bool = False,
                  counter: bool = True, g: Any = None) -> list[tuple[Score, Command]]:
    """The defender's moves of one movement phase (see the module's text): pinned units
    and those that cannot move stay; the fortresses, the threat-scaled garrisons and the
    objectives to retake get their units; the counter-attacks theirs; the units nearest a
    fortress that lacks its ring march on it; every other unit takes its best hex of the
    heuristic's line (:class:`DefencePlan`). ``g``: the map's graph (default: the
    heuristic's of the scenario's map)."""
    m = sit.map
    idx = m.index_of_label
    board = defence_board(sit, actions, sources, g)
    if board is None:
        return []
    g, moves, enemy, land = board.g, board.moves, board.enemy, board.land
    enemy_at, safe, plan = board.enemy_at, board.safe, board.plan
    fortresses = fortress_hexes(sit, objectives, fortress_names, sources)
    want, ring_of = fortress_wants(sit, g, objectives, fortresses, enemy, land, safe,
                                   last_turn)
    plan.want = dict(want)
    for f in fortresses:  # the approaches: depth around a fortress
        for j, k in offence.bfs(g, [idx(f)], lambda x: land[x], 2).items():
            if k:
                plan.depth[j] = max(plan.depth.get(j, 0.0), 1.0 if k == 1 else 0.5)
    pinned: set[str] = sit.memo("plan.hold", set)
    ground = {uid: u for uid, u in sit.mine.items()
              if str(u.get("type")) not in offence.NOT_GROUND}
    at = {uid: idx(str(u["hex"])) for uid, u in ground.items()}
    placed: dict[str, int] = {}
    for uid in sorted(ground):
        if uid in pinned or uid not in moves:
            plan.place(uid, at[uid])
            placed[uid] = at[uid]
    # the garrisons (the fortresses first, then the most wanted): the units there first,
    # then the foot units that can reach it, nearest first (never into a cut-off hex)
    order = sorted(plan.want, key=lambda k: (m.label(k) not in fortresses, k in ring_of,
                                             -plan.want[k], m.label(k)))
    for i in order:  # never into a cut-off hex from one that traces to our sources
        garrison(sit, plan, i, ground, placed, at,
                 lambda uid, j: j in moves.get(uid, {}) and (j in safe or at[uid] not in safe))
    # counter-attacks by the units left (not from a hex the enemy has cut off)
    wanted_back = {idx(str(o.hex)) for o in objectives if o.holder != sit.player}
    if counter:
        pic = offence.Picture.of(sit, g, sources, their_sources)
        free = [uid for uid in sorted(ground) if uid not in placed and at[uid] in safe]
        for _t, chosen in counter_attacks(sit, g, pic, moves, free, at, safe, plan,
                                          wanted_back, last_turn):
            placed.update(chosen)
    # the march on the fortresses whose ring lacks units: the nearest units out of contact
    lacking = {j: plan.want[j] - len(plan.stacks.get(j, [])) for j in ring_of
               if len(plan.stacks.get(j, [])) < plan.want[j]}
    lacking.update({idx(f): plan.want.get(idx(f), 0) - len(plan.stacks.get(idx(f), []))
                    for f in fortresses
                    if len(plan.stacks.get(idx(f), [])) < plan.want.get(idx(f), 0)})
    if lacking:
        walkers = sorted((uid for uid in ground if uid not in placed
                          and enemy_at.get(at[uid], 99) > 1 and at[uid] in safe),
                         key=lambda x: (min(sit.distance(m.label(at[x]), m.label(j))
                                            for j in lacking), x))
        for uid in walkers:
            open_ = [j for j, n in lacking.items() if n > 0]
            if not open_:
                break
            goal = min(open_, key=lambda j: (sit.distance(m.label(at[uid]), m.label(j)), j))
            options = [k for k in [at[uid], *moves.get(uid, {})]
                       if k in safe and plan.value(uid, k) > -99]
            if not options:
                continue
            best = min(options, key=lambda k: (sit.distance(m.label(k), m.label(goal)),
                                               -plan.value(uid, k), k))
            if sit.distance(m.label(best), m.label(goal)) >= \
                    sit.distance(m.label(at[uid]), m.label(goal)) and best != goal:
                continue  # no nearer: it defends where it is (the line below)
            plan.place(uid, best)
            placed[uid] = best
            lacking[goal] -= 1
    place_on_line(plan, ground, placed, at, moves, enemy_at)
    return placed_moves(placed, at, moves, enemy_at)
