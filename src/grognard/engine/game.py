"""A game: scenario + seed + ordered command log, folded into state.

>>> g = Game.new("demo-europa", seed=7)
>>> g.can(Command("move", "soviet", {"unit": "su-112rifle", "path": ["0703"]}))
False
>>> events = g.apply(Command("move", "axis", {"unit": "de-7pz", "path": ["0504"]}))
>>> events[0].type, g.state["units"]["de-7pz"]["hex"]
('unit_moved', '0504')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError, IllegalOrder
from grognard.core.tables import TableSet, load_tables
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.phases import Phase
from grognard.engine.scenario import Scenario, load_scenario
from grognard.engine.state import JSON, state_hash
from grognard.engine.system import RuleSystem, system_named


class ReplayMismatch(GrognardError):
    """A saved log does not reproduce: names the command whose events differ."""


class Game:
    """One game in progress. ``apply`` is the only way state changes."""

    def __init__(
        self,
        scenario: Scenario,
        seed: int | None = None,
        *,
        system: RuleSystem | None = None,
        tables: TableSet | None = None,
        readings: Mapping[str, Any] | None = None,
    ) -> None:
        self.scenario = scenario
        self.seed = scenario.seed if seed is None else seed
        self.system = system or system_named(scenario.system)
        self.readings = dict(scenario.readings if readings is None else readings)
        default = self.system.default_sequence
        self.sequence = (default(scenario) if default is not None and not scenario.sequence_given
                         else scenario.sequence)
        self.context = Context(scenario, tables or load_tables(), self.readings, self.sequence)
        self.dice = Dice(self.seed)
        self.state: JSON = self.system.initial_state(scenario)
        self.commands: list[Command] = []
        self.events: list[list[Event]] = []

    @classmethod
    def new(cls, scenario: str | Path | Scenario, seed: int | None = None, **kw: Any) -> Game:
        sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        return cls(sc, seed, **kw)

    # --- position in the turn ------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        return self.sequence.phases[int(self.state["phase"])]

    @property
    def turn(self) -> int:
        return int(self.state["turn"])

    # --- commands (can / verify / apply) ---------------------------------------------------
    def verify(self, cmd: Command) -> None:
        """Raise :class:`IllegalOrder` (rule, reason) if ``cmd`` is illegal now."""
        spec = self.system.commands.get(cmd.kind)
        if spec is None:
            known = ", ".join(sorted(self.system.commands))
            raise IllegalOrder("ENGINE", f"unknown command {cmd.kind!r} (known: {known})")
        phase = self.phase
        if cmd.player != phase.player:
            raise IllegalOrder(
                "SEQ", f"it is {phase.player}'s {phase.name} phase; {cmd.player} may not act"
            )
        if not self.sequence.allows(self.state["phase"], cmd.kind):
            raise IllegalOrder("SEQ", f"{cmd.kind} is not allowed in the {phase.name} phase")
        spec.verify(self.context, self.state, cmd)

    def can(self, cmd: Command) -> bool:
        try:
            self.verify(cmd)
        except GrognardError:
            return False
        return True

    def apply(self, cmd: Command) -> list[Event]:
        """Check, execute and fold one command. On any error the game is left untouched."""
        self.verify(cmd)
        snapshot = self.dice.snapshot()
        try:
            events = self.system.commands[cmd.kind].execute(self.context, self.state, cmd,
                                                            self.dice)
            new_state = self.fold(self.state, events)
        except BaseException:
            self.dice.restore(snapshot)
            raise
        self.state = new_state
        self.commands.append(cmd)
        self.events.append(events)
        return events

    def fold(self, state: JSON, events: Sequence[Event]) -> JSON:
        for ev in events:
            fold = self.system.folds.get(ev.type)
            if fold is None:
                raise ReplayMismatch(f"no fold for event type {ev.type!r}")
            state = fold(state, ev)
        return state

    # --- inspection ------------------------------------------------------------------------
    def state_hash(self) -> str:
        return state_hash(self.state)

    def view(self, player: str) -> JSON:
        if player not in self.scenario.sides:
            raise IllegalOrder("VIEW", f"unknown player {player!r}")
        return self.system.view(self.state, player)

    # --- replay ----------------------------------------------------------------------------
    @classmethod
    def replay(
        cls,
        scenario: Scenario,
        seed: int,
        commands: Sequence[Command],
        recorded: Sequence[Sequence[Event]] | None = None,
        **kw: Any,
    ) -> Game:
        """Re-run a command log; if ``recorded`` events are given, each must match exactly."""
        g = cls(scenario, seed, **kw)
        for i, cmd in enumerate(commands):
            try:
                events = g.apply(cmd)
            except GrognardError as exc:
                raise ReplayMismatch(f"command {i} ({cmd.kind}) is illegal on replay: {exc}"
                                     ) from None
            if recorded is not None and [e.to_json() for e in events] != [
                e.to_json() for e in recorded[i]
            ]:
                raise ReplayMismatch(f"command {i} ({cmd.kind}) produced different events")
        return g

    def fold_recorded(self, recorded: Sequence[Sequence[Event]]) -> JSON:
        """State from the recorded events alone (no dice, no recomputation)."""
        state = self.system.initial_state(self.scenario)
        for events in recorded:
            state = self.fold(state, events)
        return state
