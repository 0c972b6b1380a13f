"""EUR-23 (reading) Air units displaced from an airbase the enemy enters.

The revised text says nothing of an airbase the enemy's ground units reach; what becomes of the
air units based there is in the original Europa rules, which we do not have (EXTERNAL). Without
a rule they stayed and kept flying from a hex the enemy held (a europa-barbarossa planner game,
seed 9160: three Luftwaffe units at 1042 with Soviet ground units in their base on turn 3,
Soviet units at 1527 and 1950 flying from hexes the Axis took on turn 4). This module is
grognard's generic mechanism for it, a documented reading (docs/features/EUR-air.md;
docs/formats/europa_air.md, "Air units displaced from a base the enemy enters"):

* **When.** After every command, once its events are folded (a move, an advance after combat,
  a retreat, an overrun, a reinforcement placed, ... anything that moves or places ground
  units): an enemy ground unit (any active unit on the map) stands in the hex of an airbase -
  the base of air units (not eliminated) of the other side. Where units stand when the command
  is done counts: a move that passes through a base and ends elsewhere enters none. Only the
  units the command's folds declare they wrote (:func:`~grognard.engine.events.writes_units`)
  are looked at, and only the hexes that are airbases: no command that moves no ground unit
  into an airbase pays more than that look.
* **What.** Each air unit of the other side based there, whatever its status (an inoperative
  one too), is **displaced**: the referee moves it to the nearest hex (hex distance from the
  lost base; ties by label order) where its side may base air units now
  (:func:`~grognard.europa.air.transfer.open_bases` of the position after the command: a land
  city or an airbase of the side's, controlled, out of enemy ZOCs, no enemy air units) within
  its transfer reach (:func:`~grognard.europa.air.transfer.reach` of its range) with room
  (:data:`~grognard.europa.air.missions.AIRBASE_CAPACITY`, counting the units already based
  and those displaced there before it), and it is marked flown this game turn (``flown`` = the
  turn: it flies no mission and intercepts nothing until the next game turn). With no such base
  it is **eliminated** (status ``"eliminated"``). Bases in label order, units in id order.
* **Who chooses.** The referee, by the rule above: the owner's choice (as the base game's
  transfer might let him make) would stop the enemy's move in the middle of it to ask the other
  player, so the nearest base stands for it.
* **Nothing else.** Air units only: the owner's ground units and the airbase's EUR-27 record
  (its hits) are untouched; the air units of the side whose ground unit entered are never
  moved (a base holds one side's air units, and the rule looks at sides).

The event ``air_units_displaced`` {base, side, units: [{unit, to (null: eliminated)}], turn,
rules} carries it, one per lost base and side; the engine adds it after the command's own events
(:data:`~grognard.engine.system.AfterCommand`, :func:`after_command`), records it with them
and folds it (:func:`fold_displaced`), so a replay makes it again and the log words it
(:func:`words`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from grognard.core.hexgrid import distance
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold, unit_writes, writes_units
from grognard.engine.system import AfterCommand
from grognard.europa.air.missions import AIRBASE_CAPACITY, air_units_of, enemy_of
from grognard.europa.air.transfer import based_count, ground_sides, open_bases, reach
from grognard.europa.state_types import AirUnitsDisplaced, EuropaState

RULE = "EUR-23"
EVENT = "air_units_displaced"
#: The unit fields whose change in every record (a fold's ``fields``) may put a ground unit in
#: a hex: then every unit is looked at.
_PLACING = frozenset({"hex", "status", "side"})


def _written(folds: Mapping[str, Fold], state: EuropaState, events: Sequence[Event]
             ) -> list[Mapping[str, Any]] | None:
    """The unit records ``events``' folds declare they wrote (None: any unit may have moved)."""
    named: set[str] = set()
    for ev in events:
        w = unit_writes(folds.get(ev.type))
        if w is None or not w.fields.isdisjoint(_PLACING):
            return None
        if w.named is not None:
            named.update(str(uid) for uid in w.named(ev))
    units = state["units"]
    return [units[uid] for uid in sorted(named) if uid in units]


def entered(folds: Mapping[str, Fold], state: EuropaState, events: Sequence[Event]
            ) -> list[str]:
    """EUR-23 reading: the airbases (label order) an enemy ground unit stands in once
    ``events`` (a command's, folded by ``folds`` into ``state``) are done - looking only at the
    units they wrote and the hexes that are bases of air units (not eliminated)."""
    bases: dict[str, set[str]] = {}  # airbase hex -> the sides of the air units based there
    for u in air_units_of(state).values():
        if u["status"] != "eliminated":
            bases.setdefault(u["base"], set()).add(str(u["side"]))
    if not bases:
        return []
    moved = _written(folds, state, events)
    pool = state["units"].values() if moved is None else moved
    # a few dozen bases against the units written: no per-hex table of every unit's side
    return sorted({u["hex"] for u in pool if u["hex"] in bases and u["status"] == "active"
                   and bases[u["hex"]] - {str(u["side"])}})


def displaced(ctx: Context, state: EuropaState, bases: Sequence[str]) -> list[Event]:
    """EUR-23 reading: the ``air_units_displaced`` events of the airbases ``bases`` (hexes an
    enemy ground unit stands in, :func:`entered`): each air unit of a side whose enemy's ground
    units are there goes to the nearest open base within its reach with room (ties by label),
    else is eliminated."""
    m = ctx.scenario.map
    air = air_units_of(state)
    occupied = ground_sides(ctx, state)
    turn = int(state["turn"])
    out: list[Event] = []
    extra: dict[str, dict[str, int]] = {}  # side -> hex -> units displaced there already
    for base in bases:
        here = occupied.get(base, set())
        at = m.hex(m.index_of_label(base))
        by_side: dict[str, list[str]] = {}
        for uid, u in sorted(air.items()):
            if u["base"] == base and u["status"] != "eliminated" and \
                    enemy_of(state, u["side"]) in here:
                by_side.setdefault(u["side"], []).append(uid)
        for side, uids in sorted(by_side.items()):
            count = based_count(state, side)
            more = extra.setdefault(side, {})
            away = sorted((int(distance(at, m.hex(m.index_of_label(h)))), h)
                          for h in open_bases(ctx, state, side))
            moves: list[dict[str, str | None]] = []
            for uid in uids:
                most = reach(air[uid]["range"])
                to = next((h for d, h in away if d <= most
                           and count.get(h, 0) + more.get(h, 0) + 1 <= AIRBASE_CAPACITY), None)
                if to is not None:
                    more[to] = more.get(to, 0) + 1
                moves.append({"unit": uid, "to": to})
            out.append(Event(EVENT, {"base": base, "side": side, "units": moves, "turn": turn,
                                     "rules": [RULE]}))
    return out


def after_command(folds: Mapping[str, Fold]) -> AfterCommand:
    """The Europa system's ``after_command`` rule (the system's event ``folds`` read for what
    each event writes): the displacements of every airbase a command's events put an enemy
    ground unit in; none, cheaply, for every other command."""

    def rule(ctx: Context, state: EuropaState, events: Sequence[Event]) -> list[Event]:
        bases = entered(folds, state, events)
        return displaced(ctx, state, bases) if bases else []

    return rule


@writes_units()  # air units only: no ground unit record
def fold_displaced(state: EuropaState, ev: Event) -> EuropaState:
    """EUR-23 reading: each unit is based at its ``to`` and has flown this game turn, or is
    eliminated (``to`` null)."""
    d = cast(AirUnitsDisplaced, ev.data)
    for move in d["units"]:
        u = state["air_units"][move["unit"]]
        if move["to"] is None:
            u["status"] = "eliminated"
        else:
            u["base"], u["flown"] = move["to"], d["turn"]
    return state


def words(d: Mapping[str, Any]) -> str:
    """The event in the log's words: where each unit went, or that it was lost.

    >>> words({"base": "1042", "side": "axis", "turn": 3, "rules": ["EUR-23"], "units": [
    ...     {"unit": "de-kg-1", "to": "0926"}, {"unit": "de-jg-3", "to": None}]})
    "enemy ground units enter axis's airbase at 1042: de-kg-1 displaced to 0926 (flown this \
turn), de-jg-3 eliminated (no open base in reach) (EUR-23 reading)"
    """
    parts = [f"{x['unit']} displaced to {x['to']} (flown this turn)" if x["to"] is not None
             else f"{x['unit']} eliminated (no open base in reach)" for x in d["units"]]
    rules = ", ".join(f"{r} reading" for r in d.get("rules", [RULE]))
    return (f"enemy ground units enter {d['side']}'s airbase at {d['base']}: "
            f"{', '.join(parts)} ({rules})")
