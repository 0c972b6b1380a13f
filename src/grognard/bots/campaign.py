"""A campaign plan as data, read by the ``planner`` bot on top of the heuristic's play.

A plan (a dict, or a TOML table: see :mod:`grognard.bots.planner_plans` for the shipped ones)
gives each side:

* ``stages``: the offensives in order, each ``{name, start, goals, front, powers, war, hold,
  caution}``: ``start`` a turn label (``"Fall 1939"``) or a name of another plan key
  (``"barbarossa"`` -> the plan's ``barbarossa`` label), ``goals`` the city names it drives on,
  ``war`` the countries each power declares war on when the stage starts, ``hold`` the fronts
  whose units stay put meanwhile, ``caution`` the weight of its own losses in its attacks,
  ``push`` what a hex on the stage's front adds to an attack's worth (default 2), ``option``
  the option the stage's powers want on its front (default offensive), ``focus``
  the stage's goals alone draw the moves, ``concurrent`` the stage runs beside the stage in
  force (its goals draw its own powers' units, its option on its front is theirs),
  ``after`` the goals that must be held
  before it starts (once its date has come), ``reach`` the hexes around the goals whose units
  join it although their front holds, ``garrison`` the units each of its goals keeps once
  held (default 1; 0: none unless threatened), ``force`` (a concurrent stage) a detachment of
  that many units - the nearest its goals - instead of its powers' whole army, ``via`` the
  cities a detachment goes by (its land route), ``near`` (an alarm) the stage is in force
  only while an enemy unit (of a country at war) is within that many hexes of its goals,
  ``save`` (a date or plan key) the date from which the stage's powers keep the BRPs of
  its wars on majors unspent (a system's policy reads it: 3R, TR-25/TR-75),
  ``end`` the date the stage is given up
  (a turn label or a plan key), ``ports`` and ``beaches`` (a landing: a
  detachment that goes by sea): its units gather in the ``ports`` (cities where its fleets
  are) and wait there for the fleets, the policy invades the ``beaches`` (cities or hex
  labels) from them, or carries them to its ``to`` ports (friendly ports: a naval
  transport) (``load``: only units of at most that many attack factors, what one
  fleet carries; ``reach``: only units within that many hexes of the ports, or ashore); a
  unit of the detachment ashore (in a country of its beaches, goals or ``to`` ports,
  not of its ports) drives on the goals;
* ``garrisons``: city name -> ground units kept in it (they never leave; others move in);
* ``goals``: cities every stage drives on (a side with no stages: its objectives);
* ``reserve``: ``[[start, share], ...]``, the share of its base a power keeps unspent for
  growth from each date on (a system's policy reads it; absent: the policy's own).

A goal is a city of the map by its name or an objective of the rule system by its name
(``Game.objectives()``: e.g. a line of several hexes), held when the objective's holder is
this side.

The stage in force is the first started one whose goals are not all held, unless a later
started stage is ``fixed`` (a date the plan keeps, e.g. Barbarossa); a ``standing`` stage is
in force from its start whatever is held (a defence of its goals). A garrison is kept only in a
city this side holds (where the view keeps ``control``). Everything is read from the
seat's own view and the public map (city names to hexes) and calendar (turn labels, through
the rule system's ``turn_label`` hook): no rule system is named here.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Mapping
from typing import Any

from grognard.bots.situation import Situation
from grognard.core.errors import GrognardError
from grognard.core.mapdata import MapData
from grognard.engine.context import Context
from grognard.engine.state import JSON

Plan = Mapping[str, Any]

#: a garrison city with an enemy unit this near is threatened: it keeps (and draws) this many
THREAT = 1
STACK_GUARD = 2

_TURNS: dict[tuple[int, str], int | None] = {}


_CITY_HEXES: weakref.WeakKeyDictionary[MapData, dict[tuple[str, ...], dict[str, str]]] = \
    weakref.WeakKeyDictionary()


def city_hexes(m: MapData, names: list[str] | tuple[str, ...]) -> Mapping[str, str]:
    """City name -> hex label, for the names the map has (remembered per map and names: the
    answer is shared, never to be changed)."""
    per_map = _CITY_HEXES.setdefault(m, {})
    key = tuple(names)
    got = per_map.get(key)
    if got is None:
        want = set(names)
        got = per_map[key] = {c.name: m.label(i) for i, cs in m.cities.items() for c in cs
                              if c.name in want}
    return got


def objectives_of(sit: Situation, game: Any) -> list[Any]:
    """The rule system's ``Game.objectives()`` (once per decision; none without a game)."""
    if game is None:
        return []
    got: list[Any] = sit.memo("plan.objectives", lambda: list(game.objectives()))
    return got


def goal_places(sit: Situation, names: list[str], game: Any = None) -> list[tuple[str, str]]:
    """(name, hex) of each goal: a city of the map by its name, or every hex of an objective
    of that name (``Game.objectives()``: a line of several hexes)."""
    out = list(city_hexes(sit.map, names).items())
    want = set(names) - {n for n, _h in out}
    if want:
        out += [(o.name, o.hex) for o in objectives_of(sit, game) if o.name in want]
    return out


def turn_of_label(context: Context, state: JSON, label: str, system: Any,
                  horizon: int = 80) -> int | None:
    """The first turn whose label (the rule system's ``turn_label`` hook) is ``label``."""
    key = (id(context), label)
    if key in _TURNS:
        return _TURNS[key]
    hook = getattr(system, "turn_label", None)
    found = None
    if hook is not None and label:  # (an empty label: a stage the plan leaves off)
        for t in range(1, horizon):
            try:
                got = hook(context, {**state, "turn": t})
            except GrognardError:  # past the calendar's last turn
                break
            if got == label:
                found = t
                break
    _TURNS[key] = found
    return found


def turn_number(view: JSON) -> int:
    t = view.get("turn")
    if isinstance(t, int):
        return t
    m = re.match(r"\d+", str(t))
    return int(m.group()) if m else 0


class Campaign:
    """One side's plan as the planner reads it at a decision."""

    def __init__(self, plan: Plan, side: str) -> None:
        self.plan = plan
        self.side_plan: Mapping[str, Any] = plan.get(side, {}) or {}

    @property
    def stages(self) -> list[Mapping[str, Any]]:
        return list(self.side_plan.get("stages", []) or [])

    def start_label(self, stage: Mapping[str, Any]) -> str:
        start = str(stage.get("start", ""))
        return str(self.side_plan.get(start, self.plan.get(start, start)))

    def started(self, stage: Mapping[str, Any], turn: int, game: Any,
                sit: Situation | None = None) -> bool:
        """Whether ``stage``'s date has come (and, with ``sit``, the goals it comes
        ``after`` are held)."""
        if game is None:
            return False
        label = self.start_label(stage)
        t = turn_of_label(game.context, game.state, label, game.system)
        if t is None or turn < t:
            return False
        end = stage.get("end")  # a stage given up at this date (a landing that failed)
        if end is not None:
            e = turn_of_label(game.context, game.state,
                              str(self.side_plan.get(end, self.plan.get(end, end))),
                              game.system)
            if e is not None and turn >= e:
                return False
        near = stage.get("near")  # an alarm: only while the enemy is that near its goals
        if near is not None:
            if sit is None:
                return False
            goals = {h for _n, h in goal_places(sit, list(stage.get("goals", []) or []), game)}
            if not goals or min(sit.nearest(h, sit.enemy_hexes) for h in goals) > int(near):
                return False
        after = list(stage.get("after") or [])
        return not (after and sit is not None) or self.held(sit, after, game)

    def held(self, sit: Situation, goals: list[str], game: Any = None) -> bool:
        """Whether every goal is ours: an objective by its holder (``Game.objectives()``),
        a city held (``control``) where the view keeps it, else occupied by our units and no
        enemy's."""
        hexes = city_hexes(sit.map, goals)
        control = sit.view.get("control")
        named: dict[str, list[Any]] = {}
        for o in objectives_of(sit, game):
            named.setdefault(o.name, []).append(o)
        for name in goals:
            if name in named:
                if any(o.holder != sit.player for o in named[name]):
                    return False
            elif isinstance(control, Mapping) and name in control:
                if control.get(name) != sit.player:
                    return False
            elif name in hexes:
                h = hexes[name]
                if h in sit.enemy_hexes or not sit.friendly_hexes.get(h):
                    return False
        return True

    def stage(self, sit: Situation, game: Any) -> Mapping[str, Any] | None:
        """The stage in force now (None: the plan has none started)."""
        open_ = [s for s in self.open_stages(sit, game) if not s.get("concurrent")]
        fixed = [s for s in open_ if s.get("fixed")]
        if fixed:
            return fixed[-1]
        return open_[0] if open_ else None

    def open_stages(self, sit: Situation, game: Any) -> list[Mapping[str, Any]]:
        """The started stages whose goals are not all held (a standing one: every started)."""
        turn = turn_number(sit.view)
        return [s for s in self.stages if self.started(s, turn, game, sit)
                and (s.get("standing") or not self.held(sit, list(s.get("goals", [])), game))]

    def concurrent(self, sit: Situation, game: Any) -> list[Mapping[str, Any]]:
        """The ``concurrent`` stages in force: each drives its own powers on its goals beside
        the stage in force (e.g. Italy in the Balkans while Germany is in Russia)."""
        return [s for s in self.open_stages(sit, game) if s.get("concurrent")]

    def dated(self, key: str, sit: Situation, game: Any) -> Any:
        """The value in force of a dated list ``[[start, value], ...]`` of the side's plan
        (the last entry whose start has come; None before the first or without the key)."""
        turn = turn_number(sit.view)
        got = None
        for start, value in self.side_plan.get(key, []) or []:
            if self.started({"start": start}, turn, game):
                got = value
        return got

    def started_stages(self, sit: Situation, game: Any) -> list[Mapping[str, Any]]:
        turn = turn_number(sit.view)
        return [s for s in self.stages if self.started(s, turn, game, sit)]

    def garrisons(self, sit: Situation | None = None, game: Any = None) -> dict[str, int]:
        """City -> units kept there: the plan's, and one in each goal of a started stage
        that this side holds (a conquest is kept)."""
        out = {str(k): int(v) for k, v in (self.side_plan.get("garrisons", {}) or {}).items()}
        if sit is not None:
            for st in self.started_stages(sit, game):
                for name in st.get("goals", []) or []:
                    if self.held(sit, [name], game):
                        out[str(name)] = max(out.get(str(name), 0), int(st.get("garrison", 1)))
        return out


def apply_plan(sit: Situation, campaign: Campaign, game: Any,
               front_of: Any = None) -> Mapping[str, Any] | None:
    """Point ``sit`` at the plan: the stage's goals (and the rule system's objectives wanted
    by this side) become the objectives the moves drive on, the garrisons' units and the held
    fronts' units stay put (``sit.memo("plan.hold")``), under-garrisoned cities draw units in.
    Returns the stage in force."""
    stage = campaign.stage(sit, game)
    goals = list(campaign.side_plan.get("goals", []) or [])
    if stage is not None:
        goals = list(stage.get("goals", [])) + goals
    objectives: dict[str, int] = {}
    for name, h in goal_places(sit, goals, game):
        if h in sit.enemy_hexes or not sit.friendly_hexes.get(h):
            objectives[h] = 10 if stage is not None and name in stage.get("goals", []) else 6
    if game is not None:
        for o in objectives_of(sit, game):
            if sit.player in o.wanted_by and o.holder != sit.player:
                objectives[o.hex] = max(objectives.get(o.hex, 0), 5 + int(o.value))
    # the concurrent stages: their goals draw their own powers' units (``plan.power_goals``)
    # and are worth attacking, below the stage in force's goals (10: its focus)
    power_goals: dict[str, set[str]] = {}
    # (units, powers, goal hexes, the hexes it goes by, its embarkation ports, the most
    # attack factors of a unit its fleets carry)
    forces: list[tuple[int, set[str], set[str], set[str], set[str], int, int]] = []
    for st in campaign.concurrent(sit, game):
        hexes = {h for _n, h in goal_places(sit, list(st.get("goals", [])), game)
                 if h in sit.enemy_hexes or not sit.friendly_hexes.get(h)}
        force = int(st.get("force", 0) or 0)
        if force:  # a detachment: only its units (chosen below, out of the garrisons)
            if st.get("standing"):  # a guard: it stays by its goals, held or not
                hexes = {h for _n, h in goal_places(sit, list(st.get("goals", [])), game)}
            if hexes:
                via = {h for _n, h in goal_places(sit, list(st.get("via", []) or []), game)}
                ports = {h for _n, h in goal_places(sit, list(st.get("ports", []) or []),
                                                    game)}
                if ports:  # a landing: its shore, the countries of its beaches, goals and
                    # ports of arrival
                    shore = {h for _n, h in goal_places(sit, list(st.get("goals", [])), game)}
                    shore |= set(place_labels(sit.map, list(st.get("beaches", []) or [])))
                    shore |= set(place_labels(sit.map, list(st.get("to", []) or [])))
                    via = {country(sit.map, h) for h in shore} - \
                        {country(sit.map, h) for h in ports}
                forces.append((force, {str(p) for p in st.get("powers", []) or []}, hexes,
                               via, ports, int(st.get("load", 0) or 0),
                               int(st.get("reach", 0) or 0)))
            continue
        for p in st.get("powers", []) or []:
            power_goals.setdefault(str(p), set()).update(hexes)
    front = stage.get("front") if stage is not None else None
    if stage is not None and stage.get("focus") and objectives:
        pass  # the stage's goals only: every unit out of contact converges on them
    elif front is not None and front_of is not None:
        for h, v in sit.objectives.items():
            if front_of(sit, h) == front:
                objectives[h] = max(objectives.get(h, 0), v)
    else:  # the plan's places besides the policy's own (enemy units, cities)
        for h, v in sit.objectives.items():
            objectives.setdefault(h, v)
    hold: set[str] = set()
    fill: dict[str, int] = {}
    garrisons = campaign.garrisons(sit, game)
    control = sit.view.get("control")
    for name, h in goal_places(sit, list(garrisons), game):
        if isinstance(control, Mapping) and name in city_hexes(sit.map, [name]) and \
                control.get(name) != sit.player:
            continue  # a city this side does not hold (yet) is no garrison
        want = garrisons[name]
        here = sorted(uid for uid, u in sit.mine.items() if u.get("hex") == h
                      and u.get("type") not in ("air", "fleet", "naval", "hq"))
        threatened = sit.nearest(h, sit.enemy_hexes) <= THREAT
        if threatened:  # the enemy is near: everything there stays, more come
            want = max(want, STACK_GUARD)
        hold.update(here[:want])
        if len(here) < want and h not in sit.enemy_hexes:
            objectives[h] = max(objectives.get(h, 0), 12 if threatened else 8)
            if threatened:
                fill[h] = want - len(here)
    unit_goals = detachments(sit, forces, hold)
    # a landing's units in their port wait there for the fleets (the policy invades)
    ports = {h for f in forces for h in f[4]}
    hold.update(uid for uid, goals in unit_goals.items()
                if goals <= ports and str(sit.mine[uid].get("hex")) in goals)
    if stage is not None and front_of is not None:
        held_fronts = set(stage.get("hold", []) or [])
        powers = set(stage.get("powers", []) or [])
        reach = int(stage.get("reach", 0) or 0)
        goal_hexes = {h for _n, h in goal_places(sit, list(stage.get("goals", [])), game)}
        for uid, u in sit.mine.items():
            if (not powers or u.get("power") in powers) and held_fronts and \
                    front_of(sit, str(u["hex"])) in held_fronts and \
                    not (reach and goal_hexes
                         and sit.nearest(str(u["hex"]), goal_hexes) <= reach) and \
                    uid not in unit_goals:
                hold.add(uid)
    for hexes in [*power_goals.values(), *(f[2] for f in forces)]:
        for h in hexes:
            if h in sit.enemy_hexes or not sit.friendly_hexes.get(h):  # (a guard's held
                objectives[h] = max(objectives.get(h, 0), 9)  # goal draws only its units)
    if objectives:
        sit.objectives = objectives
    sit.memo("plan.power_goals", lambda: {p: hs for p, hs in power_goals.items() if hs})
    sit.memo("plan.unit_goals", lambda: unit_goals)
    sit.memo("plan.ports", lambda: ports)
    sit.memo("plan.hold", lambda: hold)
    sit.memo("plan.fill", lambda: fill)
    sit.memo("plan.stage", lambda: stage)
    focus = {h for h, v in objectives.items() if v >= 10} \
        if stage is not None and stage.get("focus") else set()
    sit.memo("plan.focus", lambda: focus)
    return stage


#: the unit types a detachment is made of (ground units that move and fight)
DETACHED = frozenset({"infantry", "armor", "airborne"})


def _way(sit: Situation, h: str, goals: set[str], via: set[str], past: int | None
         ) -> tuple[int, bool]:
    """A detachment's way from ``h`` to its goals: (its length, whether it goes by the
    via first: ``h`` is farther from the goals than the via, ``past`` hexes)."""
    d = sit.nearest(h, goals)
    if past is None or d <= past:
        return d, False
    return past + sit.nearest(h, via), True


def country(m: MapData, label: str) -> str:
    """The country (the map's) of hex ``label``."""
    return str(m.country_of(m.hex(m.index_of_label(label))))


def place_labels(m: MapData, names: list[str]) -> list[str]:
    """Hex labels of ``names``: a city of the map by its name, else a hex label of the map."""
    cities = city_hexes(m, names)
    out = []
    for n in names:
        if n in cities:
            out.append(cities[n])
        else:
            try:
                m.index_of_label(n)
            except (KeyError, ValueError, IndexError):
                continue
            out.append(n)
    return out


def ashore(sit: Situation, h: str, shore: set[str]) -> bool:
    """Whether hex ``h`` is on a landing's shore: in one of the ``shore`` countries (those
    of its beaches and goals, not its ports')."""
    return country(sit.map, h) in shore


def detachments(sit: Situation,
                forces: list[tuple[int, set[str], set[str], set[str], set[str], int, int]],
                hold: set[str]) -> dict[str, set[str]]:
    """Unit id -> the hexes it drives on, for each ``force`` stage (a concurrent stage with
    ``force: N``): the N ground units of its powers nearest its goals (ties by id), none a
    garrison's (``hold``) or another detachment's. A stage's ``via`` (cities it goes by: the
    land route, where the hex distance would cross the sea) is on the way: a unit farther
    from the goals than the via is counted from the via and drives on it. Re-chosen at each
    decision from the view: the units on the way are the nearest, so the detachment stays.
    A landing (``ports``; its ``via`` is then its shore, the countries of its beaches and
    goals): its units ashore first (they drive on the goals), then those nearest its ports
    (they go there and wait for the fleets)."""
    out: dict[str, set[str]] = {}
    for n, powers, hexes, via, ports, load, reach in forces:
        if ports:
            free = sorted((not ashore(sit, str(u["hex"]), via),
                           sit.nearest(str(u["hex"]), ports), uid)
                          for uid, u in sit.mine.items()
                          if uid not in hold and uid not in out and u.get("hex") is not None
                          and u.get("type") in DETACHED
                          and (not powers or str(u.get("power")) in powers)
                          and (not load or int(u.get("attack") or 0) <= load))
            if reach:  # only the units ashore or within reach of the ports
                free = [f for f in free if not f[0] or f[1] <= reach]
            for home, _d, uid in free[:n]:
                out[uid] = ports if home else hexes
            continue
        past = min((sit.nearest(v, hexes) for v in via), default=None)
        way = sorted((*_way(sit, str(u["hex"]), hexes, via, past), uid)
                      for uid, u in sit.mine.items()
                      if uid not in hold and uid not in out and u.get("hex") is not None
                      and u.get("type") in DETACHED
                      and (not powers or str(u.get("power")) in powers))
        for _d, by_via, uid in way[:n]:
            out[uid] = via if by_via else hexes
    return out
