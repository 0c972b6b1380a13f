"""The Europa engine system's shared facts of a position: the units on the map, their ``Forces``
table, the scenario's ``[europa]`` table (parsed once by the engine: ``Scenario.rules``), the
readings in force, the date and weather of a turn. Below the rule-book sections and
:mod:`grognard.europa.play` (it imports only core, engine and the ``[europa]`` schema), so any
section's Orders may read the position here.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex
from grognard.core.memo import IdentityMemo
from grognard.core.paths import Forces
from grognard.core.units import Unit
from grognard.engine.context import Context
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON
from grognard.europa.scenario_schema import EuropaRules, EuropaSection
from grognard.europa.state_types import EuropaState, EuropaUnit

T = TypeVar("T")

NAME = "europa"
#: The FitE surprise turn's phases carry this prefix (EUR-44).
SURPRISE_PREFIX = "surprise_"





def readings_of(ctx: Context, kind: type[Any]) -> Any:
    """The readings of ``kind`` (a ``Readings`` dataclass) from the game's ``--readings``
    (parsed once per game: a game's readings are fixed when it is created, and the parsed
    value is frozen)."""
    memo = _READINGS.get(kind)
    if memo is None:
        memo = _READINGS[kind] = IdentityMemo(8)
    return memo.get(ctx.readings, lambda given: readings_from(given, kind))


#: per readings class: the parsed readings of the last few games' readings mappings
_READINGS: dict[type[Any], IdentityMemo[Mapping[str, Any], Any]] = {}


def readings_from(given: Mapping[str, Any], kind: type[Any]) -> Any:
    """The readings of ``kind`` among ``given`` (a game's or a scenario's ``[readings]``)."""
    names = {f.name for f in dataclasses.fields(kind)}
    return kind.from_mapping({k: v for k, v in given.items() if k in names})


def on_map_hex(u: EuropaUnit) -> str:
    """The hex of a unit standing on the map (a unit in a box, or still to arrive, has none;
    the rules that move or count units on the map pass only those)."""
    h = u["hex"]
    assert h is not None, "the unit stands on the map"
    return h


def on_map(state: EuropaState) -> list[tuple[str, JSON]]:
    """The active units on the map, by id."""
    return sorted((uid, u) for uid, u in state["units"].items()  # chosen, then sorted by id
                  if u["status"] == "active" and u["hex"] is not None)


def per_position(ctx: Context, state: EuropaState, key: str, make: Callable[[], T]) -> T:
    """``make()`` once per position: kept in the game's per-command cache (cleared on every
    change) together with the state it was made from, so another state (a view, a private
    copy) asking under the same key never reads it. The value is shared: callers must not
    change it."""
    return ctx.cached_for(state, key, make)


def on_map_of(ctx: Context, state: EuropaState) -> list[tuple[str, JSON]]:
    """:func:`on_map`, once per position (do not change the list)."""
    return per_position(ctx, state, "europa.on_map", lambda: on_map(state))


def units_by_hex(ctx: Context, state: EuropaState) -> dict[str, list[tuple[str, JSON]]]:
    """:func:`on_map` by hex (each hex's units in id order), once per position (do not change
    it)."""
    def make() -> dict[str, list[tuple[str, JSON]]]:
        out: dict[str, list[tuple[str, JSON]]] = {}
        for uid, u in on_map_of(ctx, state):
            out.setdefault(u["hex"], []).append((uid, u))
        return out
    return per_position(ctx, state, "europa.units_by_hex", make)


def forces_of(ctx: Context, state: EuropaState) -> Forces:
    """The units on the map as ``core.paths.Forces`` (side, ZOC class, id)."""
    placed = on_map(state)
    return Forces.build(ctx.scenario.map, [u["hex"] for _, u in placed],
                        [u["side"] for _, u in placed],
                        zoc_class=[int(u.get("zoc_class", 1)) for _, u in placed],
                        ids=[uid for uid, _ in placed], side_names=list(state["sides"]))


def hex_arg(ctx: Context, label: Any, field: str) -> Hex:
    """A command argument naming a hex of the map (InputError naming ``field`` otherwise)."""
    if not isinstance(label, str):
        raise InputError(field, "a hex label")
    h = ctx.scenario.map.layout.from_label(label)
    if not ctx.scenario.map.has(h):
        raise InputError(field, f"{label} is off the map")
    return h


def unit_json(uid: str, u: EuropaUnit) -> dict[str, Any]:
    """A unit of the state as a combatant of the ATTACK.json model (EUR-09)."""
    return {"id": uid, "attack": u["attack"], "defense": u["defense"], "type": u["type"],
            "armor": u["armor"], "division": u["divisional"], "cadre": u["cadre"],
            "supply": u["supply"], "nationality": u["nationality"], "re_size": u["re_size"]}


def eliminate(s: EuropaState, uid: str) -> None:
    """Fold: the unit leaves the map eliminated."""
    u = s["units"][uid]
    u["status"], u["hex"] = "eliminated", None


def reduce_unit(s: EuropaState, uid: str, attack: int, defense: int) -> None:
    """Fold: the division is reduced to its cadre (EUR-13)."""
    u = s["units"][uid]
    u["cadre"], u["attack"], u["defense"] = True, attack, defense


def apply_losses(s: EuropaState, d: JSON) -> None:
    """Fold: the losses an event records - ``reduced`` {unit: {attack, defense}} to cadres,
    then ``eliminated`` [units] off the map."""
    for uid, v in d["reduced"].items():
        reduce_unit(s, uid, v["attack"], v["defense"])
    for uid in d["eliminated"]:
        eliminate(s, uid)


# --- scenario configuration --------------------------------------------------------------------
#: The ``[europa]`` of a scenario that has none (a scenario of another system, a bare Scenario).
NO_RULES = EuropaRules(EuropaSection(), MappingProxyType({}))


def europa_rules(scenario: Scenario) -> EuropaRules:
    """The scenario's ``[europa]`` table, parsed once by the engine (the Europa system's
    ``scenario_section`` hook, europa/scenario_schema.py): ``section`` typed, ``table`` as
    written; empty for a scenario of another system."""
    rules = scenario.rules
    return rules if isinstance(rules, EuropaRules) else NO_RULES


def scenario_unit(scenario: Scenario, uid: str) -> Unit:
    """The printed unit ``uid``: a ``[[units]]`` record, else a reinforcement of the schedule
    (EUR-22, ``[[europa.reinforcements]]``)."""
    a = europa_rules(scenario).arrival_of.get(uid)
    return a.unit if a is not None else scenario.unit(uid)


def fite_surprise_turn(scenario: Scenario) -> bool:
    """EUR-44 Whether the scenario opens with the FitE German surprise turn."""
    return europa_rules(scenario).section.fite_surprise_turn


# --- the date of a turn --------------------------------------------------------------------------
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_START = re.compile(r"^(\d{4})-(\d{1,2})-(I{1,2})$")


def turn_label(ctx: Context, state: EuropaState) -> str:
    """EUR-22 The game turn's date: Europa turns are half months ("Jun II 1941"), counted from
    the scenario's ``[calendar] start`` ("1941-06-II"); "Turn N" without one."""
    return scenario_turn_label(ctx.scenario, int(state["turn"]))


def scenario_turn_label(scenario: Scenario, turn: int) -> str:
    """EUR-22 The date of game turn ``turn`` of ``scenario`` (see :func:`turn_label`)."""
    date = turn_date(scenario, turn)
    if date is None:
        return f"Turn {turn}"
    year, month, half = date
    return f"{_MONTHS[month - 1]} {'I' * half} {year}"


def turn_date(scenario: Scenario, turn: int) -> tuple[int, int, int] | None:
    """EUR-22 (year, month, half 1 or 2) of game turn ``turn``, counted in half months from
    the scenario's ``[calendar] start``; None without one."""
    m = _START.match(str(scenario.calendar.get("start", "")))
    if m is None:
        return None
    half = (int(m.group(1)) * 12 + int(m.group(2)) - 1) * 2 + len(m.group(3)) - 1 + turn - 1
    year, rest = divmod(half, 24)
    return year, rest // 2 + 1, rest % 2 + 1


# --- the weather of a turn -----------------------------------------------------------------------
def turn_weather(ctx: Context, state: EuropaState) -> str:
    """The game turn's weather from the scenario's ``[europa] weather`` table (turn label ->
    weather: clear, mud, frost, snow, winter); clear for a turn the table does not name."""
    return scenario_weather(ctx.scenario, int(state["turn"]))


def scenario_weather(scenario: Scenario, turn: int) -> str:
    """The weather of game turn ``turn`` of ``scenario`` (see :func:`turn_weather`)."""
    table = europa_rules(scenario).section.weather or {}
    return table.get(scenario_turn_label(scenario, turn), "clear")


def combat_weather(ctx: Context, state: EuropaState, args: Any) -> str:
    """The weather an attack or overrun is fought in: with a ``[europa] weather`` table the
    referee's (an order naming other weather is refused); without one the order's
    ``weather`` (default clear), as a designer sets it."""
    table = europa_rules(ctx.scenario).section.weather
    given = args.get("weather") if isinstance(args, Mapping) else None
    if table is None:
        return str(given or "clear")
    now = turn_weather(ctx, state)
    if given is not None and str(given) != now:
        raise IllegalOrder("WEATHER", f"the weather of {turn_label(ctx, state)} is {now}, "
                           f"not {given}")
    return now
