"""How a rule system plugs into the engine: its commands, event folds, start state and views.

Rule-system packages build a :class:`RuleSystem` and :func:`register_system` it; the engine
never imports them statically (layering: engine/plugins.py imports a system's module by name on
first use). A scenario names its system; until a system registers its own commands, the
generic one runs it. A system's own scenario table is validated and typed by the system's
``scenario_section`` hook when the scenario is parsed (engine/scenario.py names no system).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from grognard.core.movement import MoveRange
from grognard.engine.commands import Command, CommandSpec
from grognard.engine.context import Context
from grognard.engine.decisions import Decision
from grognard.engine.events import Event, Fold
from grognard.engine.orders import Order, Words
from grognard.engine.phases import Phase, TurnSequence
from grognard.engine.plugins import (
    register_system,
    registered_systems,
    system_named,
    system_names,
)
from grognard.engine.scenario import Scenario, ScenarioSection, SectionContext
from grognard.engine.state import JSON

InitialState = Callable[[Scenario], JSON]
View = Callable[[JSON, str], JSON]
Decisions = Callable[[Context, JSON], Sequence[Decision]]
"""The decisions owed now; while any is owed its players act, not the phase's player."""
GameOver = Callable[[Context, JSON], Mapping[str, Any] | None]
"""The game's result (``{"winner": ..., "reason": ..., ...}``) once it has ended, else None. A
verdict that counts points gives them as ``points`` (an integer) with ``counted``, the side whose
points they are (Europa's objectives): a study compares settings by them (analysis)."""
PhasePrompt = Callable[[Context, JSON, Phase], str]
EventView = Callable[[Event, str, JSON], Mapping[str, Any] | None]
"""An event as ``player`` may see it (``to_json`` form), given the state after its command;
None hides it entirely."""
TurnLabel = Callable[[Context, JSON], str]
Describe = Callable[[Context, JSON, Command], Words]
"""A command in the rules' words (``Words(text, short)``): buttons, forms, logs (issue 26)."""
Odds = Callable[[Context, JSON, Command], Mapping[str, Any]]
"""The exact odds of a legal attack order and their why, as the attack panel shows them."""
AttackEstimate = Callable[[Context, JSON, str, str, Sequence[str]], Mapping[str, Any] | None]
"""``(ctx, view, player, target, attackers)``: a side's own exact estimate of attacking hex
``target`` with ``attackers``, read from that side's view (what a bot weighs before it
attacks): ``p_taken``, ``expected_attacker_loss``, ``expected_defender_loss`` (exact
Fractions) and ``column``; None when the rules would refuse the attack."""
ObjectivesOf = Callable[[Context, JSON], Sequence["Objective"]]
"""The places the scenario's victory conditions name, with who holds each now."""
Standing = Callable[[Context, JSON], Mapping[str, Any]]
"""The verdict if the game ended now (``{"leader", "level", "why"...}``): ``game status``."""
PlacesOf = Callable[[Command], "Places"]
"""Where on the map a command acts (its target, destination, path, units): page and bots."""
AfterEvent = tuple[str, Callable[[JSON, Event], JSON]]
"""A named rule run after every event's own fold (capture on occupation, ledger postings)."""
AfterCommand = Callable[[Context, JSON, Sequence[Event]], Sequence[Event]]
"""``(ctx, state, events)``: the events the rules add once a command's own ``events`` are
folded into ``state`` (the position after them, read-only here): a consequence the referee
draws from the new position, such as Europa's air units displaced from an airbase the enemy
entered. Deterministic (no dice), usually none; the game folds them in turn (with the
after-event rules) and records them with the command's, so a replay makes them again."""
LedgerOf = Callable[[JSON], Sequence[tuple[str, str]]]
"""A seat's point accounts read from its own VIEW (never the state, so what the view hides
never shows): ordered ``(label, exact value as a string)`` pairs, e.g. ``("germany BRPs",
"150")``: the page's ledger panel and chart, the log's "axis SPs: 120 -> 119"."""
EventWords = Callable[[Mapping[str, Any]], str | None]
"""An event as a seat sees it (``{"type", "data"}``, the ``event_view`` form) in the rules'
words for the log ("axis pays 1 SP for ..."), or None: the event has no line of its own."""
BuildCost = Callable[[Context, JSON, str], int | None]
"""``(ctx, view, unit)``: the points building ``unit`` (a unit of the seat's force pool, as
the seat's own view shows it) costs, or None when the rules build no such unit."""
MoveRanges = Callable[[Context, JSON, Sequence[str]], Mapping[str, MoveRange]]
"""``(ctx, view, units)``: every hex each of ``units`` may reach by moving in this phase (its
cheapest cost and path, as the move orders take them), read from the moving seat's own view;
a unit that cannot move now is left out (a bot plans a phase's moves from them)."""
FrontOf = Callable[[Context, str], str | None]
"""The front hex ``label`` lies on: the part of the map a side's per-front choices govern,
named as the view names those choices (None: the system has no fronts)."""
AttacksAcross = Callable[[Context, str, str], bool]
"""``(ctx, frm, to)``: whether a unit in hex ``frm`` may attack the adjacent hex ``to``
across the hexside between them (a sea or impassable hexside may forbid it)."""
Determinize = Callable[[Context, Mapping[str, Any], random.Random], JSON]
"""``(ctx, view, rng)``: one complete legal state consistent with a seat's ``view`` (a
sample of its information set, what a search bot simulates from): every unknown - the
enemy's face-down units, what the view shows only as a count, the enemy's secrets - drawn
with ``rng`` from the view and the scenario alone, never from the real state."""


@dataclass(frozen=True, slots=True)
class Objective:
    """A place victory counts: its hex label, name, worth, who holds it now and which sides
    want it (a bot drives on it, a study counts it)."""

    hex: str
    name: str
    value: int = 1
    holder: str | None = None
    wanted_by: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"hex": self.hex, "name": self.name, "value": self.value, "holder": self.holder,
                "wanted_by": list(self.wanted_by)}


@dataclass(frozen=True, slots=True)
class Places:
    """Where an order acts: ``target`` (the hex attacked or entered), ``to`` (the end hex),
    ``path`` (the hexes passed), ``units`` (the units it names)."""

    target: str | None = None
    to: str | None = None
    path: tuple[str, ...] = ()
    units: tuple[str, ...] = ()


@dataclass(frozen=True)
class RuleSystem:
    name: str
    commands: Mapping[str, CommandSpec]
    folds: Mapping[str, Fold]
    initial_state: InitialState
    view: View
    description: str = ""
    #: The turn sequence used when the scenario gives no ``[sequence]`` of its own.
    default_sequence: Callable[[Scenario], TurnSequence] | None = None
    extends: tuple[str, ...] = field(default_factory=tuple)
    #: Referee hooks (all optional): decisions owed, end of game, the phase's prompt, the date.
    decisions: Decisions | None = None
    game_over: GameOver | None = None
    phase_prompt: PhasePrompt | None = None
    turn_label: TurnLabel | None = None
    #: Event types that reveal hidden information: like a die roll, they clear undo.
    reveal_events: frozenset[str] = frozenset()
    #: Events as each player may see them (logs, ``game apply``, the server); None: in full.
    event_view: EventView | None = None
    #: Hooks for everything above the rule packages (server, bots, analysis), so none of them
    #: branches on a system's name or knows its argument and state keys (issue 22).
    describe: Describe | None = None
    odds: Odds | None = None
    estimate: AttackEstimate | None = None
    objectives: ObjectivesOf | None = None
    standing: Standing | None = None
    places: PlacesOf | None = None
    #: A seat's point accounts from its view, and its events in words (the server's ledger
    #: panel and log); None: the system keeps no accounts / no event has a line of its own.
    ledger: LedgerOf | None = None
    event_words: EventWords | None = None
    #: Facts a bot plans a phase from, read from its seat's view or the map (None: the
    #: system has no such notion): a unit's build cost, the hexes units may reach now, the
    #: front of a hex, whether an attack may cross a hexside.
    build_cost: BuildCost | None = None
    move_ranges: MoveRanges | None = None
    front_of: FrontOf | None = None
    attacks_across: AttacksAcross | None = None
    #: A seat's information set sampled as a whole state (None: the bots' generic sample -
    #: the view with each face-down unit drawn from its side's counter mix, the missing
    #: secrets empty - which is complete only where the view hides nothing else).
    determinize: Determinize | None = None
    #: Rules run after every event's own fold, in order (declared once, by name).
    after_events: tuple[AfterEvent, ...] = ()
    #: The events the rules add after each command's own (None: never any).
    after_command: AfterCommand | None = None
    #: The system's own table of a scenario file (``[<name>]``): its schema and check; the
    #: engine validates it when the scenario is parsed and keeps the typed value on
    #: ``Scenario.rules`` (None: the system reads no table of its own).
    scenario_section: ScenarioSection | None = None


def describe_of(orders: Iterable[Order[Any]], extra: Mapping[str, Describe] | None = None
                ) -> Describe:
    """The ``describe`` hook of a system's Orders: each command told by its own Order's
    ``describe`` (``extra``: kinds no Order takes, such as the generic table roll); a kind
    nobody tells by its player and kind ("Axis: roll weather")."""
    tellers: dict[str, Describe] = {o.kind: o.describe for o in orders}
    tellers.update(extra or {})

    def describe(ctx: Context, state: JSON, cmd: Command) -> Words:
        tell = tellers.get(cmd.kind)
        if tell is not None:
            return tell(ctx, state, cmd)
        words = cmd.kind.replace("_", " ")
        return Words(f"{cmd.player.title()}: {words}", words)

    return describe


def places_of(orders: Iterable[Order[Any]]) -> PlacesOf:
    """The ``places`` hook of a system's Orders: each command placed by its own Order's
    ``places(cmd)``; an Order without one, or a kind no Order takes, acts nowhere on the map."""
    placers: dict[str, PlacesOf] = {}
    for o in orders:
        placer = getattr(o, "places", None)
        if callable(placer):
            placers[o.kind] = placer

    def places(cmd: Command) -> Places:
        place = placers.get(cmd.kind)
        return place(cmd) if place is not None else Places()

    return places


def event_words_of(words: Mapping[str, Callable[[Mapping[str, Any]], str]]) -> EventWords:
    """The ``event_words`` hook of a table of event types in words (each told from the event's
    ``data``); an event of another type, or one whose data the seat sees only in part (a key
    its ``event_view`` left out, a value of another shape), has no line."""

    def event_words(event: Mapping[str, Any]) -> str | None:
        tell = words.get(str(event.get("type", "")))
        if tell is None:
            return None
        try:
            return tell(event["data"])
        except (KeyError, TypeError):
            return None

    return event_words


__all__ = [
    "AfterCommand", "AfterEvent", "AttackEstimate", "AttacksAcross", "BuildCost", "Decisions",
    "Describe", "Determinize",
    "EventView", "EventWords", "FrontOf", "GameOver", "InitialState", "LedgerOf", "MoveRanges",
    "Objective", "ObjectivesOf", "Odds", "PhasePrompt", "Places", "PlacesOf", "RuleSystem",
    "ScenarioSection", "SectionContext", "Standing", "TurnLabel", "View", "describe_of",
    "event_words_of", "places_of", "register_system", "registered_systems", "system_named",
    "system_names",
]
