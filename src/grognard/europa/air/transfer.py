"""EUR-23 (reading) Air units change bases: the ``air_transfer`` order.

The revised text says only "The phasing player moves any of his air units to mission hexes"
(Air phase); how an air unit moves from one airbase to another is in the original Europa rules,
which we do not have (EXTERNAL). Without it a unit keeps its set-up base all game, and in
europa-barbarossa the Luftwaffe's June 1941 bases (hex columns 05-14) fall out of range of a
front that reaches Moscow (column 54). This module is grognard's generic mechanism for it, a
documented reading (docs/features/EUR-air.md, docs/formats/europa_air.md):

* **When.** In the phasing player's air phase (the FitE surprise turn's air phase too), while
  missions are still being assigned: before ``fly_missions``, as ``air_mission`` is.
* **Which units.** Any of the phasing player's ready air units (operative and not flown this
  game turn, :func:`grognard.europa.air.missions.ready`) not assigned to a mission of this
  phase.
* **Where.** A land hex of the map, not its present base, within :data:`TRANSFER_RANGE` times
  the unit's range in hexes of its present base, that holds a city or is already the base of
  one of the side's air units (not eliminated), and is no base of enemy air units; the side
  controls it: no enemy ground unit in it, an objective hex (``state["held"]``,
  :mod:`grognard.europa.victory`) held by the side, and any other hex behind the side's lines
  (:func:`behind_lines`: a hex of the side's own countries until the enemy's ground units
  stand in that country nearer to it than the side's; a hex of any other country once the
  side's ground units stand in that country nearer to it than the enemy's - who holds a hex is
  kept for the objectives only, so the nearest ground units stand for it, as victory.py reads
  an empty hex at the start); not in an enemy ZOC (EUR-17, as a reinforcement's hex, EUR-22);
  and room: the side's air units based there (not eliminated), with this one, at most
  :data:`~grognard.europa.air.missions.AIRBASE_CAPACITY` (the EUR-27 reading).
* **What it costs.** The transfer is the unit's flight of the game turn (the reading "a unit
  flies once per game turn"): it is based at the new hex and marked flown this turn, so it flies
  no mission and intercepts nothing until the next game turn. It pays no SP (EUR-37 counts the
  air units used on missions; a transfer is none).

The event ``air_transferred`` {unit, from, to, turn} carries the move; its fold sets the unit's
``base`` and ``flown``. An airbase the state knows (hits, EUR-27) keeps its hits when the other
side's air units move in; it becomes theirs to repair.
"""

from __future__ import annotations

from typing import NamedTuple, cast

import numpy as np
import numpy.typing as npt

from grognard.core.errors import IllegalOrder
from grognard.core.hexgrid import distance
from grognard.core.mapdata import WATER_TERRAIN
from grognard.engine.context import Context
from grognard.engine.events import Event, writes_units
from grognard.engine.orders import hex_name
from grognard.engine.state import copy_state
from grognard.europa.air.missions import (
    AIRBASE_CAPACITY,
    air_slot,
    air_units_of,
    current_phase,
    enemy_of,
    flights,
    flying,
    in_air_phase,
    ready,
)
from grognard.europa.board import on_map_of
from grognard.europa.reinforcements.schedule import enemy_zoc
from grognard.europa.state_types import AirTransferred, EuropaState
from grognard.europa.victory import HELD, HOLDING_TYPES, country_sides, victory_of

RULE = "EUR-23"
#: Reading (EUR-23, the base game's transfer EXTERNAL): an air unit transfers up to this many
#: times its range, in hexes from its present base.
TRANSFER_RANGE = 1


# --- where the side may base air units -----------------------------------------------------------
def country_owners(ctx: Context) -> dict[str, str]:
    """Country -> the side whose country it is at the start: the ``[europa.victory]``
    ``countries`` (victory.py's reading when it names none), else the scenario's
    ``home_countries``."""
    v = victory_of(ctx.scenario)
    if v is not None:
        return country_sides(ctx.scenario, v)
    return {c: side for side, cs in ctx.scenario.home_countries.items() for c in cs}


class _Lines(NamedTuple):
    """Each side's ground units that hold hexes: their axial coordinates ([q, r] rows) and
    the countries they stand in."""

    at: dict[str, npt.NDArray[np.int64]]
    countries: dict[str, frozenset[str]]


def _lines(ctx: Context, state: EuropaState) -> _Lines:
    """:class:`_Lines` once per position."""
    def make() -> _Lines:
        m = ctx.scenario.map
        at: dict[str, set[int]] = {}
        for _, u in on_map_of(ctx, state):
            if u["type"] in HOLDING_TYPES:
                at.setdefault(str(u["side"]), set()).add(m.index_of_label(u["hex"]))
        ix = {side: np.array(sorted(v)) for side, v in at.items()}
        return _Lines({side: np.stack([m.q[i], m.r[i]], axis=1).astype(np.int64)
                       for side, i in ix.items()},
                      {side: frozenset(m.country_names[int(c)] for c in m.country[i])
                       for side, i in ix.items()})
    got: _Lines = ctx.cached_for(state, "europa.air.transfer.lines", make)
    return got


def _nearest(units: npt.NDArray[np.int64] | None, q: int, r: int) -> int | None:
    """The hex distance from (q, r) to the nearest of ``units`` (None: there are none)."""
    if units is None or not len(units):
        return None
    dq, dr = units[:, 0] - q, units[:, 1] - r
    return int(((np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2).min())


def _nearer(a: int | None, b: int | None) -> bool:
    """Distance ``a`` is shorter than ``b`` (None: no units, infinitely far)."""
    return a is not None and (b is None or a < b)


def behind_lines(ctx: Context, state: EuropaState, side: str, label: str) -> bool:
    """EUR-23 reading: hex ``label`` is behind ``side``'s lines. In one of the side's own
    countries (:func:`country_owners`): unless the enemy's ground units stand in that country
    and are nearer the hex than the side's. In any other country: when the side's ground units
    stand in that country and are nearer the hex than the enemy's (a tie is nobody's)."""
    m = ctx.scenario.map
    i = m.index_of_label(label)
    h = m.hex(i)
    country = m.country_names[int(m.country[i])]
    enemy = enemy_of(state, side)
    lines = _lines(ctx, state)
    own = _nearest(lines.at.get(side), h.q, h.r)
    other = _nearest(lines.at.get(enemy), h.q, h.r)
    if country_owners(ctx).get(country) == side:
        return not (country in lines.countries.get(enemy, ()) and _nearer(other, own))
    return country in lines.countries.get(side, ()) and _nearer(own, other)


def ground_sides(ctx: Context, state: EuropaState) -> dict[str, set[str]]:
    """Hex -> the sides of the ground units in it, once per position."""
    def make() -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for _, u in on_map_of(ctx, state):
            out.setdefault(u["hex"], set()).add(str(u["side"]))
        return out
    got: dict[str, set[str]] = ctx.cached_for(state, "europa.air.transfer.occupied", make)
    return got


def based_count(state: EuropaState, side: str) -> dict[str, int]:
    """Hex -> how many of ``side``'s air units (not eliminated) are based there."""
    out: dict[str, int] = {}
    for u in air_units_of(state).values():
        if u["side"] == side and u["status"] != "eliminated":
            out[u["base"]] = out.get(u["base"], 0) + 1
    return out


def base_refusal(ctx: Context, state: EuropaState, side: str, label: str) -> str | None:
    """EUR-23 reading: why ``side`` may not base air units at hex ``label`` now (None: it
    may), room aside: water, no city and no airbase of the side, an enemy airbase, an enemy
    ground unit in it, an objective the enemy holds, behind the enemy's lines, an enemy ZOC."""
    m = ctx.scenario.map
    h = m.hex(m.index_of_label(label))
    enemy = enemy_of(state, side)
    terrain = m.terrain_of(h)
    if terrain in WATER_TERRAIN:
        return f"it is {terrain.value}: air units are based on land"
    air = air_units_of(state).values()
    if any(u["base"] == label and u["status"] != "eliminated" and u["side"] == enemy
           for u in air):
        return f"it is an airbase of {enemy}'s air units"
    if not m.cities_at(h) and based_count(state, side).get(label, 0) == 0:
        return f"it holds no city and no airbase of {side}'s"
    if enemy in ground_sides(ctx, state).get(label, set()):
        return f"{enemy}'s ground units are in it"
    held = state.get(HELD) or {}
    if label in held:
        if held[label] != side:
            holder = held[label]
            return f"it is held by {holder}" if holder else "no side holds it yet"
    elif not behind_lines(ctx, state, side, label):
        return f"it is not behind {side}'s lines"
    if label in enemy_zoc(ctx, state, side):
        return "it is in an enemy ZOC"
    return None


def open_bases(ctx: Context, state: EuropaState, side: str) -> tuple[str, ...]:
    """EUR-23 reading: the hexes where ``side`` may base air units now, room and range aside
    (each land city and each of its airbases that :func:`base_refusal` passes), in label
    order, once per position."""
    def make() -> tuple[str, ...]:
        m = ctx.scenario.map
        sites = {m.label(int(i)) for i, cs in m.cities.items() if cs}
        sites |= set(based_count(state, side))
        return tuple(sorted(h for h in sites if base_refusal(ctx, state, side, h) is None))
    got: tuple[str, ...] = ctx.cached_for(state, f"europa.air.transfer.bases.{side}", make)
    return got


def reach(unit_range: int) -> int:
    """EUR-23 reading: how far an air unit of ``unit_range`` transfers, in hexes.

    >>> reach(16)
    16
    """
    return TRANSFER_RANGE * int(unit_range)


def _assigned(state: EuropaState) -> dict[str, str]:
    """Air unit -> the mission of this air phase it is assigned to."""
    return {x: f["id"] for f in flights(state) for x in [*f["escorts"], *f["strikers"]]}


def _dist(ctx: Context, a: str, b: str) -> int:
    m = ctx.scenario.map
    return int(distance(m.hex(m.index_of_label(a)), m.hex(m.index_of_label(b))))


# --- the order's rule ----------------------------------------------------------------------------
def transfer_time(ctx: Context, state: EuropaState, player: str) -> str | None:
    """EUR-23 reading: why ``player`` may not transfer air units now (None: he may)."""
    phase = current_phase(ctx, state)
    if not in_air_phase(ctx, state) or phase.player != player:
        return (f"{player}'s air units transfer in {player}'s own air phase, not in "
                f"{phase.player}'s {phase.name.replace('_', ' ')} phase")
    if flying(state):
        return "the missions are flying: air units transfer only while missions are assigned"
    return None


def verify_transfer(ctx: Context, state: EuropaState, player: str, uid: str, to: str) -> None:
    """EUR-23 reading: raise :class:`IllegalOrder` unless ``player`` may transfer air unit
    ``uid`` to hex ``to`` now."""
    why = transfer_time(ctx, state, player)
    if why is not None:
        raise IllegalOrder(RULE, why)
    u = air_units_of(state).get(uid)
    if u is None or u["side"] != player:
        raise IllegalOrder(RULE, f"{uid!r} is not one of {player}'s air units")
    if u["status"] != "operative":
        raise IllegalOrder(RULE, f"{uid} is {u['status']}: only an operative air unit "
                           "transfers")
    if not ready(state, uid):
        raise IllegalOrder(RULE, f"{uid} has flown this game turn (turn {state['turn']}): it "
                           "transfers no more until the next")
    mission = _assigned(state).get(uid)
    if mission is not None:
        raise IllegalOrder(RULE, f"{uid} flies mission {mission} this air phase")
    m = ctx.scenario.map
    if to not in m.label_indices:
        raise IllegalOrder(RULE, f"{to!r} is not a hex of the map")
    base = u["base"]
    if to == base:
        raise IllegalOrder(RULE, f"{uid} is already based at {hex_name(ctx, to)}")
    d, most = _dist(ctx, base, to), reach(u["range"])
    if d > most:
        raise IllegalOrder(RULE, f"{hex_name(ctx, to)} is {d} hexes from {uid}'s base "
                           f"{hex_name(ctx, base)}: beyond its transfer range of {most}")
    why = base_refusal(ctx, state, player, to)
    if why is not None:
        raise IllegalOrder(RULE, f"{uid} cannot be based at {hex_name(ctx, to)}: {why}")
    there = based_count(state, player).get(to, 0)
    if there + 1 > AIRBASE_CAPACITY:
        raise IllegalOrder(RULE, f"the airbase at {hex_name(ctx, to)} is full: {there} of "
                           f"{player}'s air units are based there (at most {AIRBASE_CAPACITY})")


def transfers(ctx: Context, state: EuropaState, player: str) -> list[tuple[str, str]]:
    """EUR-23 reading: every (air unit, new base) ``player`` may transfer now: each ready air
    unit not on a mission, to each open base (:func:`open_bases`) within its reach with room
    (what :func:`verify_transfer` accepts)."""
    if transfer_time(ctx, state, player) is not None:
        return []
    busy = _assigned(state)
    mine = [(uid, u) for uid, u in sorted(air_units_of(state).items()) if u["side"] == player
            and uid not in busy and ready(state, uid)]
    if not mine:
        return []
    m = ctx.scenario.map
    bases = [(h, m.hex(m.index_of_label(h))) for h in open_bases(ctx, state, player)]
    count = based_count(state, player)
    roomy = [(h, x) for h, x in bases if count.get(h, 0) + 1 <= AIRBASE_CAPACITY]
    out = []
    for uid, u in mine:
        at = m.hex(m.index_of_label(u["base"]))
        most = reach(u["range"])
        out += [(uid, h) for h, x in roomy if h != u["base"] and distance(at, x) <= most]
    return out


def execute_transfer(ctx: Context, state: EuropaState, player: str, uid: str, to: str
                     ) -> list[Event]:
    """EUR-23 reading: the ``air_transferred`` event of a verified transfer."""
    return [Event("air_transferred", {"unit": uid, "from": air_units_of(state)[uid]["base"],
                                      "to": to, "turn": int(state["turn"])})]


@writes_units()  # air units only: no ground unit record
def fold_transfer(state: EuropaState, ev: Event) -> EuropaState:
    """EUR-23 reading: the unit is based at ``to`` and has flown this game turn; an airbase
    the state knows at ``to`` (its EUR-27 hits) becomes its side's."""
    d = cast(AirTransferred, ev.data)
    u = state["air_units"][d["unit"]]
    u["base"], u["flown"] = d["to"], d["turn"]
    known = air_slot(state)["airbases"].get(d["to"])
    if known is not None and known.get("owner") not in (None, u["side"]):
        air = copy_state(state["air"])  # the slot may be shared with an earlier state
        air["airbases"][d["to"]]["owner"] = u["side"]
        state["air"] = air
    return state
