"""Whole-phase plans of the 3R heuristic: every unit's move at once, and a phase's builds.

Listing every legal move of every unit and checking each with the rules was most of a
campaign game's time. The plan instead reads each mover's movement range (TR-27/TR-28, the
same ranges the move enumerator lists, computed for all units together from the seat's view
by the rule system's ``move_ranges`` hook, :meth:`~grognard.engine.game.Game.move_ranges`) and
picks every unit's best
hex with whole-map arrays: the hex distance to the nearest objective and whether a hex is in
contact with the enemy, as :meth:`~grognard.bots.heuristic.Policy.score_move` scores a move.
Moves name their ``path`` (the range's cheapest path), so the rules check them without
searching the range again; a unit's hex is left out once the plan fills it to the stacking
limit. Builds (TR-75) are chosen once per phase from the legal list, within the budget above
the growth reserve, each identical counter of the force pool standing for the others.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from grognard.bots.base import LegalActions
from grognard.bots.campaign import place_labels, turn_number, turn_of_label
from grognard.bots.situation import Situation
from grognard.core.mapdata import WATER_TERRAIN, MapData
from grognard.engine.commands import Command
from grognard.engine.system import system_named

#: TR-28: ground units of a side in one hex (bridgeheads allow more; the rules check).
STACK = 2
GROUND = frozenset({"infantry", "armor", "airborne", "replacement"})


def _distance_field(sit: Situation, targets: Mapping[str, int] | set[str]
                    ) -> npt.NDArray[np.int64]:
    """Hex distance from every hex of the map to the nearest of ``targets`` (999 if none)."""
    m = sit.map
    if not targets:
        return np.full(m.n, 999, dtype=np.int64)
    fields = _FIELDS.setdefault(m, {})
    key = tuple(sorted(targets))
    hit = fields.get(key)
    if hit is not None:
        return hit
    ix = np.array([m.index_of_label(t) for t in key], dtype=np.intp)
    q, r = m.q.astype(np.int16), m.r.astype(np.int16)
    best = np.full(m.n, 999, dtype=np.int16)
    for lo in range(0, len(ix), 512):
        part = ix[lo:lo + 512]
        dq = q[:, None] - q[part][None, :]
        dr = r[:, None] - r[part][None, :]
        d = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))
        np.minimum(best, d.min(axis=1), out=best)
    out = best.astype(np.int64)
    if len(fields) > 64:
        fields.clear()
    fields[key] = out
    return out


#: distance fields by map and target set (the same objectives serve a whole phase)
_FIELDS: weakref.WeakKeyDictionary[MapData, dict[tuple[str, ...], npt.NDArray[np.int64]]] = \
    weakref.WeakKeyDictionary()


def move_plan(sit: Situation, actions: LegalActions) -> list[tuple[float, Command]]:
    """TR-27/TR-28: each unmoved ground unit's best move this phase, best first.

    Out of contact, a unit advances on the nearest objective (score: hexes gained, +0.25 for
    an empty hex in contact); in contact it holds, unless it shares its hex and can fill an
    empty hex of the line (0.5).
    """
    game = actions.game
    m = sit.map
    moved = set(sit.view.get("moved", []) or [])
    to_obj = _distance_field(sit, sit.objectives)
    contact = _distance_field(sit, sit.enemy_hexes) <= 1
    friendly = np.zeros(m.n, dtype=np.int64)
    for label, n in sit.friendly_hexes.items():
        friendly[m.index_of_label(label)] = n
    # a planner's landing ports: the fleets there take no room of the units that embark
    for label in sit.memo("plan.ports", set):
        friendly[m.index_of_label(label)] = sum(
            1 for u in sit.mine.values() if u.get("hex") == label and u.get("type") in GROUND)
    movers: list[str] = []
    hold: set[str] = sit.memo("plan.hold", set)  # a planner's garrisons and held fronts
    advance: bool = sit.memo("plan.advance", bool)  # a planner's armor drives on past contact
    # a planner's converging stage: its goals alone draw the moves
    focus: set[str] = sit.memo("plan.focus", set)
    if focus:
        to_obj = _distance_field(sit, focus)
    to_goal = to_obj
    short: dict[str, int] = sit.memo("plan.fill", dict)  # garrisons short of units: go there
    fill_ix = {m.index_of_label(h) for h in short}
    fill_arr = np.array(sorted(fill_ix), dtype=np.int64)
    # a planner's concurrent stage: its powers' units go to its goals (a field per power)
    power_goals: dict[str, set[str]] = sit.memo("plan.power_goals", dict)
    fields = {p: _distance_field(sit, hs) for p, hs in power_goals.items()}
    # a planner's detachments (a concurrent stage's ``force``): their units go to its goals
    unit_goals: dict[str, set[str]] = sit.memo("plan.unit_goals", dict)
    for uid, u in sorted(sit.mine.items()):
        if uid in moved or u.get("type") not in GROUND or uid in hold:
            continue
        here = m.index_of_label(str(u["hex"]))
        if contact[here] and friendly[here] < 2 and not (advance and u.get("type") == "armor") \
                and not (fill_ix and sit.nearest(str(u["hex"]), short) <= 2
                         and friendly[here] > 0 and here not in fill_ix):
            continue  # hold the line
        movers.append(uid)
    if not movers:
        return []
    ranges = game.move_ranges(sit.player, movers, sit.view)
    wanted: list[tuple[float, str, Any, npt.NDArray[np.int64]]] = []
    for uid in movers:
        r = ranges.get(uid)
        if r is None or len(r.hexes) < 2:
            continue
        here = int(r.start)
        hexes = r.hexes.astype(np.int64)
        hexes = hexes[hexes != here]
        to_obj = _distance_field(sit, unit_goals[uid]) if uid in unit_goals else \
            fields.get(str(sit.mine[uid].get("power")), to_goal)
        if contact[here] and not (advance and sit.mine[uid].get("type") == "armor"):
            score = np.where(contact[hexes] & (friendly[hexes] == 0), 0.5, -0.5)
            if focus:  # a planner's converging stage: the empty hex of the line nearest
                # its goal (a hex farther from it than this one is no gain)
                gain = (to_obj[here] - to_obj[hexes]).astype(np.float64)
                score = np.where(score > 0, 0.5 + 0.5 * gain, score)
        else:
            gain = (to_obj[here] - to_obj[hexes]).astype(np.float64)
            fill = np.where(contact[hexes] & (friendly[hexes] == 0), 0.25, 0.0)
            score = np.where(gain > 0, gain + fill, -0.1)
        if len(fill_arr):  # a garrison short of units comes first
            score = np.where(np.isin(hexes, fill_arr), 5.0, score)
        best = float(score.max()) if len(score) else 0.0
        if best > 0:
            wanted.append((best, uid, r, np.stack([hexes, (score * 4).astype(np.int64)])))
    wanted.sort(key=lambda w: (-w[0], w[1]))
    out: list[tuple[float, Command]] = []
    for _best, uid, r, table in wanted:
        hexes, score4 = table[0], table[1]
        room = friendly[hexes] < STACK
        ok = np.flatnonzero(room & (score4 > 0))
        if not len(ok):
            continue
        i = int(ok[np.argmax(score4[ok])])  # the first best hex, in hex order
        to = int(hexes[i])
        path = r.path_to(to)[1:]
        if not path:
            continue
        friendly[to] += 1
        friendly[int(r.start)] -= 1
        out.append((score4[i] / 4, Command("move", sit.player, {"unit": uid, "path": path})))
    out.sort(key=lambda sc: -sc[0])
    return out


def build_plan(score_of: Callable[[Situation, Command], float],
               budget_of: Callable[[Situation, str], int], sit: Situation,
               actions: LegalActions) -> list[tuple[float, Command]]:
    """TR-75: the phase's builds: the legal (unit, hex) choices by ``score_of`` (the policy's
    :meth:`~grognard.bots.heuristic.ThirdReichPolicy.score_build_unit`), best first, while
    the power's budget above its growth reserve lasts; an identical pool counter stands in
    for a unit already planned, and a hex takes at most :data:`STACK` ground units."""
    legal = actions.of("build_unit")
    if not legal:
        return []
    units = sit.view.get("units", {})
    scored = sorted(((score_of(sit, c), i, c) for i, c in enumerate(legal)),
                    key=lambda t: (-t[0], t[1]))
    budget: dict[str, int] = {}
    pool: dict[tuple[str, str, int], list[str]] = {}
    for uid, u in sorted(units.items()):
        if u.get("side") != sit.player or not (u.get("status") == "eliminated" or (
                u.get("status") == "active" and u.get("hex") is None
                and u.get("box") == "force_pool")):
            continue
        pool.setdefault((str(u.get("power")), str(u.get("type")), int(u.get("attack") or 0)),
                        []).append(uid)
    stacked: dict[str, int] = dict(sit.friendly_hexes)
    out: list[tuple[float, Command]] = []
    for score, _i, cmd in scored:
        if score <= 0:
            break
        u = units.get(str(cmd.args.get("unit")))
        to = str(cmd.args.get("hex"))
        if not isinstance(u, Mapping):
            continue
        power = str(u.get("power"))
        if power not in budget:
            budget[power] = budget_of(sit, power)
        price = build_cost(sit, str(cmd.args.get("unit")))
        if price is None:
            continue
        key = (power, str(u.get("type")), int(u.get("attack") or 0))
        spare = pool.get(key, [])
        ground = u.get("type") in GROUND
        if price > budget[power] or not spare or (ground and stacked.get(to, 0) >= STACK):
            continue
        budget[power] -= price
        uid = spare.pop(0)
        if ground:
            stacked[to] = stacked.get(to, 0) + 1
        out.append((score, Command("build_unit", sit.player, {"unit": uid, "hex": to})))
    return out


def build_cost(sit: Situation, unit: str) -> int | None:
    """TR-31: the build cost of pool ``unit`` as the seat's view shows it (the rule system's
    ``build_cost`` hook; None: not a unit the rules build)."""
    hook = system_named(sit.context.scenario.system).build_cost
    return hook(sit.context, sit.view, unit) if hook is not None else None


def tr_front(sit: Situation, label: str) -> str:
    """TR-03: the front of a hex (its map region; western if none)."""
    m = sit.map
    fronts = _FRONTS.get(m)
    if fronts is None:
        front_of = system_named(sit.context.scenario.system).front_of  # TR-02
        fronts = _FRONTS[m] = {m.label(i): str(front_of(sit.context, m.label(i)) or "")
                               if front_of is not None else "" for i in range(m.n)}
    return fronts[label]


#: hex label -> its front, per map (regions never change)
_FRONTS: weakref.WeakKeyDictionary[MapData, dict[str, str]] = weakref.WeakKeyDictionary()


def attack_candidates(sit: Situation) -> list[Command]:
    """TR-32: per enemy ground hex on a front where this side declared an offensive (TR-03)
    and not yet attacked, one attack by every unattacked ground unit next to it (armor only
    in the mechanized combat phase), from the view alone; the rules check the one played."""
    view, m = sit.view, sit.map
    phases = sit.context.turn_sequence.phases
    mech = phases[int(view.get("phase", 0))].name == "mech_combat"  # as the sequence names it
    across = system_named(sit.context.scenario.system).attacks_across  # TR-32
    options = (view.get("options", {}) or {}).get(sit.player, {}) or {}
    offensive = {f for f, v in options.items()
                 if isinstance(v, Mapping) and v.get("option") == "offensive"}
    if not offensive:
        return []
    done = set(view.get("attacked_hexes", []) or [])
    used = set(view.get("attacked", []) or [])
    units = view.get("units", {})
    targets = sorted({str(u["hex"]) for u in units.values()
                      if u.get("side") != sit.player and u.get("hex") is not None
                      and u.get("status", "active") == "active" and u.get("type") in GROUND})
    by_hex: dict[int, list[str]] = {}  # the attackers by their hex
    for uid, u in sorted(sit.mine.items()):
        if u.get("type") in GROUND and uid not in used and (not mech or u.get("type") == "armor"):
            by_hex.setdefault(m.index_of_label(str(u["hex"])), []).append(uid)
    out = []
    for t in targets:
        if t in done or tr_front(sit, t) not in offensive:
            continue
        attackers = sorted(uid for n in m.neighbor_indices(m.index_of_label(t))
                           for uid in by_hex.get(int(n), ())
                           if across is None or across(sit.context, m.label(int(n)), t))
        if attackers:
            out.append(Command("attack", sit.player, {"hex": t, "attackers": attackers}))
    return out


def air_support(sit: Situation, target: str) -> list[str]:
    """TR-33: this side's air units within range of ``target`` and not yet used this turn."""
    used = set(sit.view.get("air_used", []) or [])
    return [uid for uid, u in sorted(sit.mine.items())
            if u.get("type") in ("air", "bomber", "interceptor") and uid not in used
            and sit.distance(str(u["hex"]), target) <= (int(u.get("movement") or 0) or 4)]


#: TR-66: a unit this many hexes or more from the stage's goals is redeployed toward them
SR_FAR = 7
#: TR-66 (SR and SR limits): SR actions per player turn of each major power (the rules check
#: each SR; the plan stops at these)
SR_ACTIONS = {"us": 10, "germany": 9, "ussr": 6, "uk": 6, "italy": 5, "france": 5}


def sr_plan(sit: Situation, goals: set[str], powers: set[str],
            only: set[str] | None = None) -> list[tuple[float, Command]]:
    """TR-66..TR-68: the phase's land SRs toward ``goals`` (hex labels): each ground unit of
    ``powers`` (all if empty) out of contact, not held by the plan and at least
    :data:`SR_FAR` hexes from the goals goes to the hex of its side nearest them (a city it
    controls or a hex it occupies, out of contact, below the stacking limit) that brings it
    :data:`SR_FAR` hexes nearer, farthest units first; the rules check each (TR-67/TR-68).
    ``only``: those units alone (a detachment's), held or not."""
    if not goals:
        return []
    m = sit.map
    dist = _distance_field(sit, goals)
    hold: set[str] = set() if only is not None else \
        sit.memo("plan.hold", set) | set(sit.memo("plan.unit_goals", dict))
    done = sit.view.get("sr") or {}
    moved: set[str] = set()
    left: dict[str, int] = {}  # TR-66: SR actions left this turn per power
    for u in sit.mine.values():
        p = str(u.get("power"))
        if p not in left:
            phase = done.get(p) if isinstance(done, Mapping) else None
            used = int(phase.get("used", 0) or 0) if isinstance(phase, Mapping) else 0
            moved |= set(phase.get("units", {}) or {}) if isinstance(phase, Mapping) else set()
            left[p] = max(0, SR_ACTIONS.get(p, 0) - used)
    control = sit.view.get("control")
    own = set(sit.friendly_hexes)
    if isinstance(control, Mapping):
        names = city_hexes_of(m)
        own |= {names[n] for n, side in control.items() if side == sit.player and n in names}
    room = dict(sit.friendly_hexes)
    if only is not None:  # a detachment's port: its fleets and air take no room (TR-28)
        for h in goals:
            room[h] = sum(1 for u in sit.mine.values() if u.get("hex") == h
                          and u.get("type") in GROUND)
    dests = sorted((int(dist[m.index_of_label(h)]), h) for h in own
                   if not sit.in_contact(h))
    units = [(int(dist[m.index_of_label(str(u["hex"]))]), uid) for uid, u in sit.mine.items()
             if u.get("type") in GROUND and uid not in hold and uid not in moved
             and (only is None or uid in only)
             and (not powers or u.get("power") in powers) and not sit.in_contact(str(u["hex"]))]
    out: list[tuple[float, Command]] = []
    for d_u, uid in sorted(units, key=lambda t: (-t[0], t[1])):
        p = str(sit.mine[uid].get("power"))
        if d_u < SR_FAR or left.get(p, 0) <= 0:
            continue
        for d, h in dests:
            if d > d_u - SR_FAR:
                break
            if room.get(h, 0) < STACK:
                room[h] = room.get(h, 0) + 1
                left[p] -= 1
                out.append((1.0 + (d_u - d) / 10,
                            Command("sr", sit.player, {"unit": uid, "to": h})))
                break
    return out


_CITY_LABELS: weakref.WeakKeyDictionary[MapData, dict[str, str]] = weakref.WeakKeyDictionary()


def city_hexes_of(m: MapData) -> dict[str, str]:
    """City name -> hex label of every city of the map (once per map)."""
    got = _CITY_LABELS.get(m)
    if got is None:
        got = _CITY_LABELS[m] = {c.name: m.label(i) for i, cs in m.cities.items() for c in cs}
    return got


#: TR-61: fleets whose units land a turn (each offshore hex takes at most two units, TR-62)
FLEETS = frozenset({"naval", "fleet"})
#: TR-61: the score of a landing: above zero, below every planned move of the phase (the
#: moves are played first; a unit that moved by land this phase may not invade)
LANDING_SCORE = 0.2


def place_hexes(sit: Situation, names: list[str]) -> list[str]:
    """Hex labels of ``names``: a city of the map by its name, else a hex label as given."""
    return place_labels(sit.map, names)


def landing_plan(sit: Situation, actions: LegalActions, stages: list[Mapping[str, Any]]
                 ) -> list[tuple[float, Command]]:
    """TR-61/TR-62: each landing stage's invasion this movement phase: from each of its
    ``ports``, its powers' fleets there (unused: TR-03, every invading power under its own
    offensive) carry its detachment's unmoved units there (the
    plan's ``plan.unit_goals`` naming that port; a garrison stays), one
    unit a fleet, two a sea hex next to the beach (TR-62), onto the first of its ``beaches``
    with the fewest enemy units (an empty beach is taken by the landing units, TR-61); the
    fleets' capacity is the rules' to check: the whole load first, then one unit fewer
    (the smallest units kept), down to one. The sea hexes next to a beach are the rules'
    proposer's (``LegalActions.candidates``)."""
    if not stages:
        return []
    used = set(sit.view.get("fleets_used", []) or []) | set(sit.view.get("moved", []) or [])
    # the detachments' units (a garrison's units in a port stay; :func:`detachments`)
    crew: dict[str, set[str]] = sit.memo("plan.unit_goals", dict)
    offshore: dict[str, list[str]] | None = None
    out: list[tuple[float, Command]] = []
    for st in stages:
        powers = {str(p) for p in st.get("powers", []) or []}
        beaches = place_hexes(sit, list(st.get("beaches", []) or []))
        if not beaches or not sailed(sit, actions, st):
            continue
        enemy = {b: sum(1 for u in sit.others if u.get("hex") == b
                        and u.get("type") in GROUND) for b in beaches}
        order = {b: i for i, b in enumerate(beaches)}
        beaches.sort(key=lambda b: (enemy[b], order[b]))
        for port in place_hexes(sit, list(st.get("ports", []) or [])):
            fleets = sorted(uid for uid, u in sit.mine.items() if u.get("hex") == port
                            and u.get("type") in FLEETS and uid not in used
                            and (not powers or u.get("power") in powers))
            cargo = sorted((int(u.get("attack") or 0), uid) for uid, u in sit.mine.items()
                           if u.get("hex") == port and u.get("type") in GROUND
                           and uid in crew and port in crew[uid] and uid not in used
                           and (not powers or u.get("power") in powers)
                           and int(u.get("mp_spent") or 0) == 0)
            if not fleets or not cargo:
                continue
            if offshore is None:
                offshore = {}
                for c in actions.candidates("invade"):
                    groups = c.args.get("groups") or []
                    if groups and isinstance(groups[0], Mapping):
                        offshore.setdefault(str(c.args.get("beach")), [])
                        h = str(groups[0].get("hex"))
                        if h not in offshore[str(c.args.get("beach"))]:
                            offshore[str(c.args.get("beach"))].append(h)
            for rank, beach in enumerate(beaches):
                seas = sorted(offshore.get(beach, []))
                pairs = list(zip(fleets, [uid for _a, uid in cargo], strict=False))
                pairs = pairs[:2 * len(seas)]
                for k in range(len(pairs), 0, -1):
                    groups = []
                    for i, sea in enumerate(seas):
                        part = pairs[2 * i:min(2 * i + 2, k)]
                        if not part:
                            break
                        group: dict[str, Any] = {"hex": sea,
                                                 "fleets": [f for f, _u in part],
                                                 "cargo": {f: [u] for f, u in part}}
                        groups.append(group)
                    score = LANDING_SCORE * (1 - 0.01 * rank) + 0.001 * k
                    out.append((score, Command("invade", sit.player,
                                               {"beach": beach, "groups": groups})))
    return out


def sailed(sit: Situation, actions: LegalActions, stage: Mapping[str, Any]) -> bool:
    """Whether a landing stage's ``sail`` date (a turn label: its units and fleets gather
    before it, they land from it) has come; a stage without one sails from its start."""
    label = stage.get("sail")
    if not label:
        return True
    game = actions.game
    if game is None:
        return False
    t = turn_of_label(game.context, game.state, str(label), game.system)
    return t is not None and turn_number(sit.view) >= t


def fleet_sr_plan(sit: Situation, stages: list[Mapping[str, Any]]
                  ) -> list[tuple[float, Command]]:
    """TR-70: until a landing stage's ``ports`` hold its ``fleets`` of its powers (a number;
    0: none sail), the fleets of its powers nearest them in other ports sail there (a fleet's own
    SR), each to the port with the fewest; the rules check each (a friendly port at either
    end, no enemy air zone)."""
    out: list[tuple[float, Command]] = []
    moved: set[str] = set()
    for st in stages:
        powers = {str(p) for p in st.get("powers", []) or []}
        ports = place_hexes(sit, list(st.get("ports", []) or []))
        want = int(st.get("fleets", 0) or 0)
        if not ports or not want:
            continue
        count = {p: sum(1 for u in sit.mine.values() if u.get("hex") == p
                        and u.get("type") in FLEETS
                        and (not powers or u.get("power") in powers)) for p in ports}
        away = sorted((sit.nearest(str(u["hex"]), set(ports)), uid)
                      for uid, u in sit.mine.items()
                      if u.get("type") in FLEETS and u.get("hex") is not None
                      and u.get("hex") not in ports and uid not in moved
                      and (not powers or u.get("power") in powers))
        for _d, uid in away[:max(0, want - sum(count.values()))]:
            to = min(ports, key=lambda p: (count[p], ports.index(p)))
            count[to] += 1
            moved.add(uid)
            out.append((0.9, Command("sr", sit.player, {"kind": "fleet", "unit": uid,
                                                        "to": to})))
    return out + air_cover_plan(sit, stages)


#: TR-29: the air factors a city (or airbase) bases
CITY_AIR = 5
AIR = frozenset({"air", "bomber", "interceptor"})


def offshore_hexes(sit: Situation, beaches: list[str]) -> set[str]:
    """TR-61: the sea hexes next to ``beaches`` (hex labels), from the map."""
    m = sit.map
    return {m.label(int(n)) for b in beaches for n in m.neighbor_indices(m.index_of_label(b))
            if m.terrain_of(m.hex(int(n))) in WATER_TERRAIN}


def _air_range(u: Mapping[str, Any]) -> int:
    """TR-29: an air unit's range (its printed movement; 4, a 5-4's, if none)."""
    return int(u.get("movement") or 0) or 4


def air_cover_plan(sit: Situation, stages: list[Mapping[str, Any]]
                   ) -> list[tuple[float, Command]]:
    """TR-60/TR-68: until ``air`` (a number) air units of a landing stage's powers are based
    within their range of a sea hex next to its beaches (a hex in the invader's uncontested
    air zone cannot be intercepted by fleets, TR-60), the air units of its powers nearest
    those hexes go by SR to the city this side controls nearest them within that range
    (:data:`CITY_AIR` factors a city); none if no such city (the rules check each SR)."""
    out: list[tuple[float, Command]] = []
    control = sit.view.get("control")
    if not isinstance(control, Mapping):
        return out
    names = city_hexes_of(sit.map)
    moved: set[str] = set()
    for st in stages:
        want = int(st.get("air", 0) or 0)
        powers = {str(p) for p in st.get("powers", []) or []}
        seas = offshore_hexes(sit, place_hexes(sit, list(st.get("beaches", []) or [])))
        if not want or not seas:
            continue
        air = {uid: u for uid, u in sit.mine.items() if u.get("type") in AIR
               and u.get("hex") is not None and (not powers or u.get("power") in powers)}
        covering = [uid for uid, u in air.items()
                    if sit.nearest(str(u["hex"]), seas) <= _air_range(u)]
        short = want - len(covering)
        if short <= 0:
            continue
        based: dict[str, int] = {}
        for u in sit.mine.values():
            if u.get("type") in AIR and u.get("hex") is not None:
                based[str(u["hex"])] = based.get(str(u["hex"]), 0) + int(u.get("attack") or 0)
        cities = sorted((sit.nearest(h, seas), h) for n, h in names.items()
                        if control.get(n) == sit.player)
        for _d, uid in sorted((sit.nearest(str(u["hex"]), seas), uid)
                              for uid, u in air.items()
                              if uid not in covering and uid not in moved):
            if short <= 0:
                break
            factors = int(air[uid].get("attack") or 0)
            to = next((h for d, h in cities if d <= _air_range(air[uid])
                       and based.get(h, 0) + factors <= CITY_AIR), None)
            if to is None:
                break
            based[to] = based.get(to, 0) + factors
            moved.add(uid)
            short -= 1
            out.append((0.9, Command("sr", sit.player, {"unit": uid, "to": to})))
    return out


def transport_plan(sit: Situation, stages: list[Mapping[str, Any]]
                   ) -> list[tuple[float, Command]]:
    """TR-57: each transport stage's naval transport this movement phase (a stage with
    ``to``: the friendly ports it sails to): from each of its ``ports``, the fleets of this
    side there (unused this turn, TR-54) carry its detachment's units there (the plan's
    ``plan.unit_goals`` naming that port; unmoved: a unit carried may not move by land the
    same turn) to the first of its ``to`` ports this side controls, each fleet the largest
    unit within its capacity (floor(factors / 2) ground factors, TR-57); the rules check the
    rest (one zone, a friendly port, TR-25 entry)."""
    control = sit.view.get("control")
    if not stages or not isinstance(control, Mapping):
        return []
    used = set(sit.view.get("fleets_used", []) or []) | set(sit.view.get("moved", []) or [])
    crew: dict[str, set[str]] = sit.memo("plan.unit_goals", dict)
    out: list[tuple[float, Command]] = []
    for st in stages:
        names = [str(n) for n in st.get("to", []) or []]
        to = next((h for n, h in zip(names, place_hexes(sit, names), strict=False)
                   if control.get(n) == sit.player), None)
        if to is None:
            continue
        powers = {str(p) for p in st.get("powers", []) or []}
        for port in place_hexes(sit, list(st.get("ports", []) or [])):
            fleets = sorted(uid for uid, u in sit.mine.items() if u.get("hex") == port
                            and u.get("type") in FLEETS and uid not in used)
            cargo = sorted(((int(u.get("attack") or 0), uid) for uid, u in sit.mine.items()
                            if u.get("hex") == port and u.get("type") in GROUND
                            and port in crew.get(uid, ()) and uid not in used
                            and (not powers or u.get("power") in powers)
                            and int(u.get("mp_spent") or 0) == 0), reverse=True)
            ships: list[str] = []
            units: list[str] = []
            for f in fleets:
                room = int(sit.mine[f].get("attack") or 0) // 2  # TR-57's capacity
                pick = next(((a, uid) for a, uid in cargo if a <= room), None)
                if pick is None:
                    continue
                cargo.remove(pick)
                ships.append(f)
                units.append(pick[1])
            if units:
                out.append((LANDING_SCORE + 0.01 * len(units),
                            Command("naval_transport", sit.player,
                                    {"fleets": ships, "units": units, "to": to})))
    return out


def crew_sr_plan(sit: Situation, stages: list[Mapping[str, Any]]
                 ) -> list[tuple[float, Command]]:
    """TR-66..TR-70 for a transport stage (``to``): its detachment's units on their way to
    its ``ports`` (at least :data:`SR_FAR` hexes off) go there by rail (:func:`sr_plan`
    toward the ports, for those units alone); its ``fleets`` of its ``fleet_powers`` (its
    powers if none) sail to the ports (:func:`fleet_sr_plan`: back from the port of arrival
    too, where TR-57 leaves a fleet); its ``air`` units go by SR within range of the ports
    of arrival (:func:`air_cover_plan`: TR-70, no fleet SR from a port in the enemy's
    uncontested air zone, and TR-60, no naval interception in this side's). The rules check
    each SR."""
    crew: dict[str, set[str]] = sit.memo("plan.unit_goals", dict)
    out: list[tuple[float, Command]] = []
    for st in stages:
        ports = set(place_hexes(sit, list(st.get("ports", []) or [])))
        mine = {uid for uid, goals in crew.items() if goals and goals <= ports}
        powers = list(st.get("powers", []) or [])
        if mine:
            out += sr_plan(sit, ports, {str(p) for p in powers}, only=mine)
        out += fleet_sr_plan(sit, [{"ports": st.get("ports"), "fleets": st.get("fleets", 0),
                                    "powers": st.get("fleet_powers") or powers}])
        out += air_cover_plan(sit, [{"beaches": st.get("to"), "air": st.get("air", 0),
                                     "powers": powers}])
    return out


#: TR-51: an airborne unit's drop range (hexes)
DROP_RANGE = 6
#: TR-51: a drop is played first in its movement phase (the unit may not move by land before)
DROP_SCORE = 3.0


def airdrop_plan(sit: Situation) -> list[tuple[float, Command]]:
    """TR-51: each unmoved airborne unit of this side drops on an empty goal of the plan
    within :data:`DROP_RANGE` hexes (a city the enemy holds that the plan's objectives name
    - the stage in force's and the concurrent stages' goals, 9 and up - with no enemy unit
    in it: TR-22, it takes the city), the nearest first, escorted by the air units in range
    of it (TR-51: the enemy's interceptors fight them first); the rules check the rest (an
    offensive-option turn, clear weather, a start in a friendly city, no uncontested enemy
    air zone)."""
    control = sit.view.get("control")
    if not isinstance(control, Mapping):
        return []
    names = {h: n for n, h in city_hexes_of(sit.map).items()}
    moved = set(sit.view.get("moved", []) or [])
    # (a fleet in its port holds no ground)
    held = {str(u.get("hex")) for u in sit.others if u.get("type") in GROUND}
    targets = sorted(h for h, v in sit.objectives.items() if v >= 9 and h in names
                     and h not in held and not sit.friendly_hexes.get(h)
                     and control.get(names[h]) not in (None, sit.player))
    out: list[tuple[float, Command]] = []
    for uid, u in sorted(sit.mine.items()):
        if u.get("type") != "airborne" or uid in moved or int(u.get("mp_spent") or 0):
            continue
        near = sorted((sit.distance(str(u["hex"]), t), t) for t in targets)
        for d, t in near:
            if d > DROP_RANGE:
                break
            args: dict[str, Any] = {"unit": uid, "to": t}
            escorts = air_support(sit, t)
            if escorts:
                args["escorts"] = escorts
            out.append((DROP_SCORE - 0.01 * d, Command("airdrop", sit.player, args)))
    return out
