"""Victory in a Europa scenario: the objectives, who holds each, the standing and final verdict.

The Europa texts in the seeds (rule 47, Europa revised, the Fire in the East parts) state no
victory conditions; each grognard scenario states its own as data, a documented reading
(docs/FEATURES.md "Europa victory"; the Barbarossa reading in docs/MAPS.md)::

    [europa.victory]
    side = "axis"                     # the side whose objectives' points are counted
    countries = { axis = ["germany"], soviet = ["ussr"] }   # first holders of empty hexes
    objectives = [
      { name = "Moscow", hex = "5422", points = 6 },                        # a city
      { name = "Smolensk line", hexes = ["3326", "3429", "3928"], need = 2, points = 2 },  # a line
    ]
    levels = [                        # the first level whose min the points reach
      { level = "decisive", winner = "axis", min = 8 },
      { level = "draw", min = 4 },    # no winner: a draw
      { level = "decisive", winner = "soviet", min = 0 },
    ]

The short form ``victory = { side, hexes, need }`` (that side wins holding ``need`` of the
hexes, the other side otherwise; one point a hex) reads as the same thing with two levels.

Who holds a hex (reading): the side whose ground unit last entered or stood in it. At the
start, the side of the ground units set up in it; an empty hex is held by the side whose
country it lies in (``countries``; without it, the side with the most ground units set up in
that country), else by the side whose ground units set up nearest to it (a tie: nobody). The state keeps the holders of the objective hexes in
``state["held"]``; :func:`note_holders` (an after-event rule of the Europa system) updates
them after every event, so a hex an enemy unit passed through or retreated from stays his
until a unit of the other side enters it again.

The verdict: at the end of the last turn (``[europa] last_turn``) the counted side's points
give the level (:func:`final_verdict`); ``game status`` shows the same verdict as if the game
ended now (:func:`standing`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from grognard.core.hexgrid import distance
from grognard.core.inputs import typed
from grognard.core.memo import IdentityMemo
from grognard.core.units import GROUND_TYPES, UnitType
from grognard.engine.context import Context
from grognard.engine.events import Event, writes_units
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON
from grognard.engine.system import Objective
from grognard.europa.board import europa_rules, scenario_turn_label
from grognard.europa.play.referee import last_turn
from grognard.europa.scenario_schema import VictorySection
from grognard.europa.state_types import EuropaState

#: The state key of the objective hexes' holders (``{hex: side or None}``).
HELD: Final = "held"
#: Units that hold a hex by entering it: ground combat units (not supply or replacement markers).
HOLDING_TYPES = frozenset(t.value for t in GROUND_TYPES - {UnitType.SUPPLY, UnitType.REPLACEMENT})


@dataclass(frozen=True, slots=True)
class Goal:
    """An objective: a city (one hex) or a line (``need`` of its hexes), worth ``points``."""

    name: str
    hexes: tuple[str, ...]
    need: int
    points: int

    def met(self, held: Mapping[str, str | None], side: str) -> bool:
        return sum(1 for h in self.hexes if held.get(h) == side) >= self.need


@dataclass(frozen=True, slots=True)
class Level:
    """``winner`` (None: a draw) at ``level`` when the counted side has at least ``min`` points."""

    level: str
    min: int
    winner: str | None


@dataclass(frozen=True, slots=True)
class Victory:
    """A scenario's victory conditions: the counted ``side``, its goals, the levels (highest
    ``min`` first) and the countries each side holds at the start."""

    side: str
    goals: tuple[Goal, ...]
    levels: tuple[Level, ...]
    countries: Mapping[str, str]

    @property
    def hexes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(h for g in self.goals for h in g.hexes))

    @property
    def most(self) -> int:
        return sum(g.points for g in self.goals)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The counted side's points, the goals it meets and the level they give."""

    winner: str | None
    level: str
    points: int
    most: int
    side: str
    met: tuple[str, ...]

    def summary(self) -> str:
        who = f"{self.winner} {self.level} victory" if self.winner else self.level
        met = ", ".join(self.met) or "none"
        return f"{who}: {self.side} {self.points} of {self.most} points ({met})"


def victory_from(raw: Mapping[str, Any], sides: tuple[str, ...]) -> Victory | None:
    """A ``[europa.victory]`` table as written (a mapping) as a :class:`Victory`: converted to
    its typed schema, then :func:`victory_from_section`."""
    return victory_from_section(typed(raw, VictorySection), sides)


def victory_from_section(v: VictorySection, sides: tuple[str, ...]) -> Victory | None:
    """The typed ``[europa.victory]`` (europa/scenario_schema.py, checked when the scenario was
    parsed: its sides, hexes and levels) as a :class:`Victory` (None: it names no counted side
    or no objective)."""
    if v.side not in sides:
        return None
    other = next((s for s in sides if s != v.side), None)
    countries = {c: s for s, cs in v.countries.items() for c in cs}
    if v.objectives:
        goals = tuple(Goal(o.name, tuple(o.hexes or [o.hex]), o.need or len(o.hexes or [o.hex]),
                           o.points) for o in v.objectives)
        levels = tuple(sorted((Level(lv.level, lv.min, lv.winner or None) for lv in v.levels),
                              key=lambda lv: -lv.min))
        return Victory(v.side, goals, levels, countries)
    if not v.hexes:
        return None
    need = v.need or len(v.hexes)  # the short form: one point a hex
    goals = tuple(Goal(h, (h,), 1, 1) for h in v.hexes)
    return Victory(v.side, goals, (Level("victory", need, v.side), Level("victory", 0, other)),
                   countries)


def _victory_of(scenario: Scenario) -> Victory | None:
    v = europa_rules(scenario).section.victory
    return None if v is None else victory_from_section(v, tuple(scenario.sides))


#: Each scenario's victory conditions, read once from its ``[europa]`` table.
_VICTORIES: IdentityMemo[Scenario, Victory | None] = IdentityMemo(8)


def victory_of(scenario: Scenario) -> Victory | None:
    """The scenario's victory conditions (None: it judges none; its last turn ends in a draw)."""
    return _VICTORIES.get(scenario, _victory_of)


# --- who holds a hex -----------------------------------------------------------------------------
def _occupants(units: Mapping[str, Any], hexes: Any) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    # the units in the hexes first (a few of the whole table, which this reads after events)
    for u in [u for u in units.values() if u.get("hex") in hexes]:
        if u.get("status") == "active" and u.get("type") in HOLDING_TYPES:
            out.setdefault(u["hex"], set()).add(str(u["side"]))
    return out


def country_sides(scenario: Scenario, v: Victory) -> dict[str, str]:
    """Each country's side at the start: as ``countries`` names it, else the side with the most
    ground units set up in it (a tie or no unit: nobody)."""
    if v.countries:
        return dict(v.countries)
    m = scenario.map
    count: dict[str, Counter[str]] = {}
    for p in scenario.placements:
        u = p.unit
        if p.hex is None or str(u.type) not in HOLDING_TYPES:
            continue
        c = m.country_of(m.layout.from_label(p.hex))
        if c:
            count.setdefault(c, Counter())[u.side] += 1
    out = {}
    for c, n in count.items():
        top = n.most_common(2)
        if len(top) == 1 or top[0][1] > top[1][1]:
            out[c] = top[0][0]
    return out


def initial_holders(scenario: Scenario) -> dict[str, str | None]:
    """The objective hexes' first holders: the side set up in the hex, else its country's."""
    v = victory_of(scenario)
    if v is None:
        return {}
    m = scenario.map
    by_country = country_sides(scenario, v)
    units = {p.unit.id: {"hex": p.hex, "status": "active", "type": str(p.unit.type), "side": p.unit.side}
             for p in scenario.placements}
    here = _occupants(units, set(v.hexes))
    placed = [(m.layout.from_label(str(u["hex"])), str(u["side"])) for u in units.values()
              if u["hex"] is not None and u["type"] in HOLDING_TYPES]
    out: dict[str, str | None] = {}
    for h in v.hexes:
        sides = here.get(h, set())
        at = m.layout.from_label(h)
        if len(sides) == 1:
            out[h] = next(iter(sides))
        elif m.country_of(at) in by_country:
            out[h] = by_country[m.country_of(at)]
        else:  # behind whose lines: the side of the nearest ground units set up (a tie: nobody)
            near = min((distance(at, x) for x, _ in placed), default=None)
            closest = {side for x, side in placed if distance(at, x) == near}
            out[h] = next(iter(closest)) if len(closest) == 1 else None
    return out


@writes_units()
def note_holders(state: EuropaState, ev: Event) -> EuropaState:
    """After every event: an objective hex with ground units of one side is that side's (it
    stays so when they leave, until the other side's ground units enter it).

    A move (``unit_moved``: one unit from ``from`` to the path's last hex, its fold changing
    nothing else) that neither leaves nor enters an objective hex changes no objective hex's
    occupants, and the rule held after the event before it: the scan of every unit is
    skipped (the same ``held``)."""
    held = state.get(HELD)
    if not held:
        return state
    if ev.type == "unit_moved" and _away_from(ev.data, held):
        return state
    for h, sides in _occupants(state["units"], held).items():
        if len(sides) == 1:
            held[h] = next(iter(sides))
    return state


def _away_from(data: Mapping[str, Any], held: Mapping[str, Any]) -> bool:
    """Whether a ``unit_moved`` event's unit started and ended outside every hex of ``held``."""
    start, path = data.get("from"), data.get("path")
    return (isinstance(start, str) and isinstance(path, list) and bool(path)
            and start not in held and path[-1] not in held)


#: The Europa system's after-event rule that keeps ``state["held"]``.
HOLDERS_RULE: tuple[str, Callable[[JSON, Event], JSON]] = ("europa.victory.holders",
                                                           note_holders)


def with_holders(initial: Callable[[Scenario], JSON]) -> Callable[[Scenario], JSON]:
    """The system's initial state plus ``state["held"]`` (only when the scenario judges
    victory, so states of scenarios without one are unchanged)."""

    def initial_state(scenario: Scenario) -> JSON:
        s = initial(scenario)
        held = initial_holders(scenario)
        if held:
            s[HELD] = held
        return s

    return initial_state


def holders(scenario: Scenario, state: EuropaState) -> dict[str, str | None]:
    """Who holds each objective hex now."""
    held = state.get(HELD)
    return dict(held) if isinstance(held, Mapping) else initial_holders(scenario)


# --- the verdict ---------------------------------------------------------------------------------
def verdict(v: Victory, held: Mapping[str, str | None]) -> Verdict:
    """The level the counted side's points give (the first level, highest ``min`` first,
    whose ``min`` they reach)."""
    met = tuple(g.name for g in v.goals if g.met(held, v.side))
    points = sum(g.points for g in v.goals if g.met(held, v.side))
    level = next(lv for lv in v.levels if points >= lv.min)
    return Verdict(level.winner, level.level, points, v.most, v.side, met)


def objectives(ctx: Context, state: EuropaState) -> list[Objective]:
    """The hexes the victory conditions name, each with its goal's worth (a line's points
    shared over the hexes it needs) and holder; both sides want them (one to take, one to
    keep)."""
    v = victory_of(ctx.scenario)
    if v is None:
        return []
    held = holders(ctx.scenario, state)
    want = tuple(state["sides"])
    out: dict[str, Objective] = {}
    for g in v.goals:
        worth = max(1, g.points // g.need) if len(g.hexes) > 1 else g.points
        for h in g.hexes:
            if h in out:  # a hex in two goals: worth both
                o = out[h]
                out[h] = Objective(h, f"{o.name}; {g.name}", o.value + worth, o.holder, want)
            else:
                out[h] = Objective(h, g.name, worth, held.get(h), want)
    return list(out.values())


def _verdict_json(ctx: Context, state: EuropaState, v: Victory) -> dict[str, Any]:
    vd = verdict(v, holders(ctx.scenario, state))
    return {"winner": vd.winner, "level": vd.level, "points": vd.points, "of": vd.most,
            "counted": vd.side, "met": ", ".join(vd.met), "summary": vd.summary()}


def standing(ctx: Context, state: EuropaState) -> dict[str, Any]:
    """The verdict if the game ended now (``leader``: the side it favours, None: a draw)."""
    v = victory_of(ctx.scenario)
    if v is None:
        return {"leader": None, "level": None, "why": "this scenario judges no victory"}
    out = _verdict_json(ctx, state, v)
    out["leader"] = out["winner"]
    out["why"] = out["summary"]
    return out


def final_verdict(ctx: Context, state: EuropaState) -> dict[str, Any] | None:
    """The result once the last turn is played: the winner and level of the victory
    conditions (a draw without any), else None."""
    last = last_turn(ctx)
    if last is None or int(state["turn"]) <= last:
        return None
    v = victory_of(ctx.scenario)
    date = scenario_turn_label(ctx.scenario, last)
    if v is None:
        return {"winner": None, "level": "draw", "reason": "last turn",
                "summary": f"draw: {date} played, no victory conditions"}
    out = _verdict_json(ctx, state, v)
    out["reason"] = "last turn"
    out["summary"] = f"{out['summary']} after {date}"
    return out
