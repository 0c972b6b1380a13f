"""The EuroFront block game's board: blocks, fog of war, hex control, movement, supply.

EuroFront's base rules are EXTERNAL (not supplied). This module is the *generic, documented and
configurable* block game the optional rules (EF-01..EF-18) run in; every number below is a
field of :class:`BlockGameReadings` (scenario ``[readings]``, keys ``efg_*``), so a user who owns
the base game can put its figures in.

* **Blocks.** A scenario unit of type ``block`` or ``hq`` is a block: ``attack`` is its
  firepower (1..3: it hits on a d6 roll of at most that), ``defense`` its steps (strength; an
  HQ's strength points), ``movement`` its movement allowance in hexes. ``flags`` name its
  EuroFront type (``infantry``, ``armour``, ``mechanised``, ``shock``, ``paratroop``,
  ``cavalry``; default infantry) and for an HQ its class (``battle``, ``tactical``,
  ``theatre``, ``supreme``; default battle). Maximum steps: 3 for an HQ, else 4 (flag
  ``max=N`` overrides).
* **Fog of war.** Blocks stand face down (``hidden``) to the enemy: the enemy's view shows only
  "a block of side X in hex H" (:func:`fog`). Blocks are revealed while a battle in their hex is
  fought, and an HQ while it runs its activation; then they stand up again.
* **Control.** A hex is controlled by the last side to have had blocks alone in it; at the
  start by the scenario's ``home_countries`` (hexes of a side's home countries) and by the
  blocks standing in it.
* **Movement.** One hex per movement point through land hexes (sea and lake are impassable);
  a block stops on entering a hex holding enemy blocks, and may not pass through one. In mud a
  block moves 1 hex, in snow half its allowance (rounded up) (EF-17 weather is rolled each
  Activation Phase).
* **Supply.** A hex is in supply for a side when a path of hexes free of enemy blocks and not
  enemy-controlled leads to one of its supply sources (cities of its home countries that it
  controls). Tested at the end of each Activation Phase (EF-17): every block out of supply
  loses ``efg_supply_attrition`` steps.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from grognard.core.errors import InputError
from grognard.core.mapdata import WATER_TERRAIN, CityClass, MapData
from grognard.core.readings import Readings
from grognard.core.units import UnitType
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON
from grognard.eurofront.model import BlockType, HQClass
from grognard.eurofront.state_types import Block as BlockRecord
from grognard.eurofront.state_types import EFState

HEAVY_TYPES = frozenset({BlockType.ARMOUR.value, BlockType.MECHANISED.value,
                         BlockType.SHOCK.value})


@dataclass(frozen=True)
class BlockGameReadings(Readings):
    """The block game's generic mechanisms (EXTERNAL base rules), each configurable.

    * ``efg_battle_rounds``: fire rounds per battle (default 1); each round the defender fires
      first, then the attacker ("Defenders ... roll first", EF-10's surviving note).
    * ``efg_command_range``: hexes from an activated HQ within which its blocks may move;
      0 (default) = the HQ's current steps.
    * ``efg_hq_activations``: times an HQ may be activated in one month (default 1).
    * ``efg_rail_hexes``: the normal strategic rail allowance in hexes (default 8).
    * ``efg_supply_attrition``: steps an out-of-supply block loses at a phase end (default 1).
    * ``efg_city_pp`` / ``efg_major_city_pp``: production points a controlled city / major city
      or capital gives each month (default 1 / 2).
    * ``efg_step_cost`` / ``efg_heavy_step_cost``: PP for one step of an infantry-type block /
      an armour, mechanised or shock block (default 1 / 2).
    * ``efg_air_hit``: combat air support dice hit on a d6 of at most this (default 1).
    * ``efg_strategic_moves``: Strategic Moves each side gets per month (EF-09; default 2).
    """

    efg_battle_rounds: int = 1
    efg_command_range: int = 0
    efg_hq_activations: int = 1
    efg_rail_hexes: int = 8
    efg_supply_attrition: int = 1
    efg_city_pp: int = 1
    efg_major_city_pp: int = 2
    efg_step_cost: int = 1
    efg_heavy_step_cost: int = 2
    efg_air_hit: int = 1
    efg_strategic_moves: int = 2

    def __post_init__(self) -> None:
        for f in ("efg_battle_rounds", "efg_hq_activations"):
            if getattr(self, f) < 1:
                raise InputError(f"readings.{f}", "must be at least 1")
        for f in ("efg_command_range", "efg_rail_hexes", "efg_supply_attrition", "efg_city_pp",
                  "efg_major_city_pp", "efg_step_cost", "efg_heavy_step_cost",
                  "efg_strategic_moves"):
            if getattr(self, f) < 0:
                raise InputError(f"readings.{f}", "must not be negative")
        if not 0 <= self.efg_air_hit <= 6:
            raise InputError("readings.efg_air_hit", "must be 0..6")


# --- blocks -------------------------------------------------------------------------------


def _flag_value(flags: Iterable[str], key: str) -> str | None:
    for f in flags:
        if f.startswith(key + "="):
            return f.split("=", 1)[1]
    return None


def block_from_unit(scenario: Scenario, uid: str, where: str) -> BlockRecord:
    """The state record of one scenario block (see the module docstring for the fields)."""
    u = scenario.unit(uid)
    flags = set(u.flags)
    is_hq = u.type is UnitType.HQ
    kinds = sorted(flags & {t.value for t in BlockType if t is not BlockType.HQ})
    classes = sorted(flags & {c.value for c in HQClass})
    if is_hq:
        kind, hq_class = BlockType.HQ.value, (classes[0] if classes else HQClass.BATTLE.value)
    else:
        kind, hq_class = (kinds[0] if kinds else BlockType.INFANTRY.value), None
    steps = u.defense if u.defense else (u.attack if is_hq else 1)
    raw_max = _flag_value(flags, "max")
    top = int(raw_max) if raw_max and raw_max.isdigit() else (3 if is_hq else 4)
    if not 1 <= steps <= top:
        raise InputError(f"{where}.defense", f"block {uid} has {steps} steps; 1..{top} allowed")
    fp = u.attack if not is_hq else max(1, min(3, u.attack or 1))
    if not 1 <= fp <= 3:
        raise InputError(f"{where}.attack", f"block {uid} firepower must be 1..3, not {fp}")
    return {"side": u.side, "hex": None, "hidden": True, "kind": kind, "hq": hq_class,
            "steps": steps, "max": top, "fp": fp, "mp": u.movement, "moved": 0,
            "name": u.name or uid}


def is_block(scenario: Scenario, uid: str) -> bool:
    return scenario.unit(uid).type in (UnitType.BLOCK, UnitType.HQ)


# --- geography (cached per map) ---------------------------------------------------------


@dataclass(frozen=True)
class Geo:
    """Labels, land adjacency and cities of one map, computed once."""

    labels: tuple[str, ...]
    index: Mapping[str, int]
    land: tuple[bool, ...]
    adj: tuple[tuple[int, ...], ...]
    city_pp: Mapping[str, str]  # label -> "city" | "major"

    def neighbours(self, label: str) -> list[str]:
        return [self.labels[j] for j in self.adj[self.index[label]]]

    def distance(self, a: str, b: str, m: MapData) -> int:
        from grognard.core.hexgrid import distance
        return distance(m.hex(self.index[a]), m.hex(self.index[b]))


_GEO: dict[int, tuple[MapData, Geo]] = {}


def geo(m: MapData) -> Geo:
    hit = _GEO.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    labels = tuple(m.label(i) for i in range(m.n))
    land = tuple(m.terrain_of(m.hex(i)) not in WATER_TERRAIN for i in range(m.n))
    adj = tuple(tuple(int(j) for j in m.neighbor_indices(i) if land[int(j)]) if land[i] else ()
                for i in range(m.n))
    cities: dict[str, str] = {}
    for i, cs in m.cities.items():
        major = any(c.classes & {CityClass.MAJOR_CITY, CityClass.CAPITAL} for c in cs)
        cities[labels[i]] = "major" if major else "city"
    g = Geo(labels, {lab: i for i, lab in enumerate(labels)}, land, adj, cities)
    if len(_GEO) > 64:
        _GEO.clear()
    _GEO[id(m)] = (m, g)
    return g


def supply_sources(scenario: Scenario, side: str) -> list[str]:
    """Cities in the side's home countries (its supply sources while it controls them)."""
    m = scenario.map
    homes = set(scenario.home_countries.get(side, ()))
    return sorted(m.label(i) for i in m.cities if m.country_of(m.hex(i)) in homes)


def initial_control(scenario: Scenario, units: Mapping[str, BlockRecord]) -> dict[str, str]:
    m = scenario.map
    out: dict[str, str] = {}
    for side, countries in scenario.home_countries.items():
        names = set(countries)
        for i in range(m.n):
            if m.country_of(m.hex(i)) in names:
                out[m.label(i)] = side
    for u in units.values():
        if u["hex"] is not None:
            out[u["hex"]] = u["side"]
    return out


# --- positions ----------------------------------------------------------------------------


def occupants(state: EFState) -> dict[str, dict[str, list[str]]]:
    """hex -> side -> block ids there (sorted)."""
    out: dict[str, dict[str, list[str]]] = {}
    for uid in sorted(state["units"]):
        u = state["units"][uid]
        if u["hex"] is not None:
            out.setdefault(u["hex"], {}).setdefault(u["side"], []).append(uid)
    return out


def enemy_in(occ: Mapping[str, Mapping[str, list[str]]], label: str | None, side: str) -> bool:
    """Enemy blocks stand in ``label`` (None: a block off the map, with no hex, meets none)."""
    return label is not None and any(s != side and ids for s, ids in occ.get(label, {}).items())


def contested(occ: Mapping[str, Mapping[str, list[str]]]) -> list[str]:
    return sorted(h for h, by in occ.items() if sum(1 for ids in by.values() if ids) > 1)


def weather_mp(mp: int, weather: str | None) -> int:
    """Movement allowance under the phase's weather (generic: mud 1, snow half rounded up)."""
    if weather == "mud":
        return min(mp, 1)
    if weather == "snow":
        return (mp + 1) // 2
    return mp


def _spread(g: Geo, start: str, limit: int, enter: Callable[[str], bool],
            stop: Callable[[str], bool]) -> dict[str, int]:
    """Hexes within ``limit`` steps of ``start`` over hexes that may be entered, never going
    on from a hex where movement stops; hex -> steps (``start`` excluded)."""
    dist = {start: 0}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        if dist[h] >= limit or (h != start and stop(h)):
            continue
        for n in g.neighbours(h):
            if n not in dist and enter(n):
                dist[n] = dist[h] + 1
                todo.append(n)
    del dist[start]
    return dist


def reach(g: Geo, occ: Mapping[str, Mapping[str, list[str]]], start: str, side: str, mp: int
          ) -> dict[str, int]:
    """Hexes a block of ``side`` in ``start`` can reach with ``mp`` hexes of movement: it may not
    pass through a hex holding enemy blocks, and stops on entering one (a battle)."""
    if enemy_in(occ, start, side):
        return {}
    return _spread(g, start, mp, lambda n: True, lambda h: enemy_in(occ, h, side))


def rail_reach(g: Geo, occ: Mapping[str, Mapping[str, list[str]]],
               control: Mapping[str, str], start: str, side: str, hexes: int) -> dict[str, int]:
    """Strategic rail: through friendly-controlled hexes free of enemy blocks only."""
    if enemy_in(occ, start, side):
        return {}
    return _spread(g, start, hexes,
                   lambda n: control.get(n) == side and not enemy_in(occ, n, side),
                   lambda h: False)


def supplied(g: Geo, occ: Mapping[str, Mapping[str, list[str]]], control: Mapping[str, str],
             sources: Iterable[str], side: str) -> frozenset[str]:
    """Hexes in supply for ``side``: traced from its controlled sources through hexes free of
    enemy blocks and not enemy-controlled (a hex with enemy blocks is reached but not passed)."""
    seen: set[str] = set()
    todo: deque[str] = deque()
    for s in sources:
        if control.get(s) == side and not enemy_in(occ, s, side):
            seen.add(s)
            todo.append(s)
    while todo:
        h = todo.popleft()
        for n in g.neighbours(h):
            if n in seen:
                continue
            owner = control.get(n)
            if owner is not None and owner != side:
                continue
            seen.add(n)
            if not enemy_in(occ, n, side):
                todo.append(n)
    return frozenset(seen)


def retreat_hexes(g: Geo, occ: Mapping[str, Mapping[str, list[str]]],
                  control: Mapping[str, str], frm: str, side: str) -> list[str]:
    """Adjacent land hexes a block may retreat into: no enemy blocks, not enemy-controlled."""
    out = []
    for n in g.neighbours(frm):
        owner = control.get(n)
        if enemy_in(occ, n, side) or (owner is not None and owner != side):
            continue
        out.append(n)
    return sorted(out)


def step_cost(kind: str, r: BlockGameReadings) -> int:
    return r.efg_heavy_step_cost if kind in HEAVY_TYPES else r.efg_step_cost


def income(g: Geo, control: Mapping[str, str], side: str, r: BlockGameReadings) -> int:
    """Production points of the month: each controlled city gives its PP."""
    return sum(r.efg_major_city_pp if kind == "major" else r.efg_city_pp
               for h, kind in g.city_pp.items() if control.get(h) == side)


def fog(state: EFState, player: str) -> dict[str, JSON]:
    """The units as ``player`` sees them: the enemy's face-down blocks only as "a block of side
    X here", numbered by hex (so the numbering says nothing about which block it is)."""
    shown: dict[str, JSON] = {}
    hidden = sorted((u["hex"] or "", u["side"]) for u in state["units"].values()
                    if u["hidden"] and u["side"] != player)
    for n, (h, s) in enumerate(hidden, 1):
        shown[f"hidden-{n}"] = {"side": s, "hex": h or None, "hidden": True}
    for uid, u in state["units"].items():
        if not (u["hidden"] and u["side"] != player):
            shown[uid] = u
    return shown
