"""A game: scenario + seed + ordered command log, folded into state; and its referee.

The game knows who must act and why (:meth:`Game.active`, :meth:`Game.prompt`,
:meth:`Game.decisions`), what each player may do (:meth:`Game.legal`), takes back a player's
unrandomised steps (:meth:`Game.undo`) and says when the game is over (:attr:`Game.result`).

>>> g = Game.new("demo-europa", seed=7)
>>> g.active()
('axis',)
>>> g.can(Command("move", "soviet", {"unit": "su-112rifle", "path": ["0703"]}))
False
>>> events = g.apply(Command("move", "axis", {"unit": "de-7pz", "path": ["0504"]}))
>>> events[0].type, g.state["units"]["de-7pz"]["hex"]
('unit_moved', '0504')
>>> g.undo("axis").kind, g.state["units"]["de-7pz"]["hex"]
('move', '0404')

Folds change the state in place; the game keeps checkpoints (the state's JSON every
:data:`CHECKPOINT_EVERY` commands) and rebuilds any earlier state from the nearest one by
folding the recorded events again (no dice), for undo and for a fold that fails half-way.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError, IllegalOrder
from grognard.core.movement import MoveRange
from grognard.core.tables import TableSet, load_tables
from grognard.engine.commands import Command, verified
from grognard.engine.context import Context
from grognard.engine.decisions import Decision
from grognard.engine.events import Event, unit_writes
from grognard.engine.orders import Words
from grognard.engine.phases import ALWAYS_ALLOWED, Phase
from grognard.engine.scenario import Scenario, load_scenario
from grognard.engine.state import JSON, state_hash
from grognard.engine.system import Objective, Places, RuleSystem, system_named

#: Commands between two checkpoints of the state (undo and recovery fold at most this many).
CHECKPOINT_EVERY = 64

DICE_ROLLED = "a die was rolled"
REVEALED = "hidden information was revealed"


class ReplayMismatch(GrognardError):
    """A saved log does not reproduce: names the command whose events differ."""


@dataclass(frozen=True, slots=True)
class Step:
    """What the referee remembers of one applied command, for undo: who was to act before it,
    and why it cannot be taken back (a die roll, a reveal), or None."""

    active: tuple[str, ...]
    barrier: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"active": list(self.active), "barrier": self.barrier}

    @classmethod
    def from_json(cls, raw: Any) -> Step:
        if not isinstance(raw, Mapping) or not isinstance(raw.get("active"), list):
            raise ValueError("a step needs an active list")
        barrier = raw.get("barrier")
        return cls(tuple(str(p) for p in raw["active"]),
                   None if barrier is None else str(barrier))


def _encode(events: Sequence[Event]) -> list[str]:
    """The events' canonical texts: compact JSON, keys sorted, text as it is (no ASCII
    escapes), no NaN - ``json.dumps(..., sort_keys=True, separators=(",", ":"),
    ensure_ascii=False, allow_nan=False)``'s, which is what saves hold and replays compare."""
    return [_canonical(e.to_json()) for e in events]


def _canonical(raw: dict[str, Any]) -> str:
    """One event's canonical text (:func:`_encode`). msgspec writes the same text several
    times faster for plain JSON data (string keys, strings, whole numbers, booleans, null,
    lists); the text is read back and must give ``raw`` again with no float in it, else -
    a float (written in another exponent form), a tuple, a non-text key, a value msgspec
    writes and ``json`` refuses - the standard library writes it (or refuses it) as ever."""
    try:
        text = _CANONICAL.encode(raw)
        if _PLAIN.decode(text) == raw:
            return text.decode("utf-8")
    except (TypeError, ValueError, OverflowError, msgspec.MsgspecError, _FloatSeen):
        pass
    return json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


class _FloatSeen(Exception):
    """A float in an event's text (its canonical form is ``json``'s)."""


def _no_float(_text: str) -> Any:
    raise _FloatSeen


_CANONICAL = msgspec.json.Encoder(order="sorted")
_PLAIN = msgspec.json.Decoder(float_hook=_no_float)


def _decode(texts: Sequence[str]) -> list[Event]:
    """The events of canonical texts (:func:`_encode`'s: each an object with its type and
    data), decoded by msgspec: the same values as ``json.loads`` gives, several times faster."""
    out = []
    for t in texts:
        raw = _DECODE(t)
        out.append(Event(str(raw["type"]), raw["data"]))
    return out


_DECODE = msgspec.json.decode


def _checkpoint(state: JSON) -> bytes:
    """A state as JSON bytes, to rebuild it later (msgspec: several times faster than
    ``json.dumps`` on a whole state; state is plain JSON data, so decoding gives it back)."""
    return msgspec.json.encode(state)


def _rule_fields(rules: Sequence[tuple[str, Any]]) -> frozenset[str] | None:
    """The unit fields after-event ``rules`` declare they write in every record; None when
    one declares nothing or writes named units (so every unit counts as changed)."""
    out: frozenset[str] = frozenset()
    for _name, rule in rules:
        w = unit_writes(rule)
        if w is None or w.named is not None:
            return None
        out |= w.fields
    return out


def _title(player: str) -> str:
    return player[:1].upper() + player[1:]


class Game:
    """One game in progress. ``apply`` and ``undo`` are the only ways state changes."""

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
        self.steps: list[Step] = []
        self._checkpoints: dict[int, bytes] = {0: _checkpoint(self.state)}
        self._memo: dict[str, Any] = {}
        self._kinds: dict[int, tuple[Phase, object, int, frozenset[str]]] = {}
        #: the unit fields the after-event rules write in every record (None: an undeclared
        #: rule, which may write any unit; see :meth:`_note_unit_writes`)
        self._after_writes = _rule_fields(self.system.after_events)

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

    def _cached(self, key: str, make: Any) -> Any:
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def _changed(self) -> None:
        """The state changed: forget what was computed from the old one."""
        self._memo.clear()
        self.context.cache.clear()

    # --- the referee: who acts, why, and what they may do -----------------------------------
    def decisions(self) -> list[Decision]:
        """The decisions the rules owe now (defender's losses, retreats, secret chits, ...)."""
        hook = self.system.decisions
        if hook is None:
            return []
        return list(self._cached("decisions", lambda: list(hook(self.context, self.state))))

    @property
    def result(self) -> Mapping[str, Any] | None:
        """The game's result once it has ended (the system's verdict), else None."""
        hook = self.system.game_over
        if hook is None:
            return None
        out: Mapping[str, Any] | None = self._cached("result",
                                                     lambda: hook(self.context, self.state))
        return out

    @property
    def over(self) -> bool:
        return self.result is not None

    def active(self) -> tuple[str, ...]:
        """The player(s) who must act now: those owing a decision, else the phase's player
        (several at once for simultaneous choices); nobody once the game is over."""
        if self.over:
            return ()
        owed = self.decisions()
        if owed:
            return tuple(dict.fromkeys(d.player for d in owed))
        return (self.phase.player,)

    def allowed(self, player: str) -> frozenset[str]:
        """The command kinds ``player`` may give now (before the rules check their details)."""
        if self.over:
            return frozenset()
        owed = self.decisions()
        if owed:
            kinds: set[str] = set()
            for d in owed:
                if d.player == player:
                    kinds |= d.kinds
            return frozenset(kinds)
        phase = self.phase
        if player != phase.player:
            return frozenset()
        return self._phase_kinds(phase)

    def _phase_kinds(self, phase: Phase) -> frozenset[str]:
        """The kinds of ``phase`` (and those always allowed) the system has, made once per
        phase and command table (kept by identity, and the table's size)."""
        commands = self.system.commands
        hit = self._kinds.get(id(phase))
        if hit is not None and hit[0] is phase and hit[1] is commands and \
                hit[2] == len(commands):
            return hit[3]
        kinds = frozenset(phase.commands | ALWAYS_ALLOWED) & frozenset(commands)
        self._kinds[id(phase)] = (phase, commands, len(commands), kinds)
        return kinds

    def prompt(self, player: str) -> str:
        """One line in the rules' words: what ``player`` must do now, or whom they wait for."""
        if self.over:
            res = self.result or {}
            return f"The game is over: {res.get('summary') or res.get('winner') or 'ended'}"
        mine = [d.prompt for d in self.decisions() if d.player == player]
        if mine:
            return "; ".join(mine)
        active = self.active()
        if player in active:
            hook = self.system.phase_prompt
            if hook is not None:
                return hook(self.context, self.state, self.phase)
            kinds = sorted(self.allowed(player) - ALWAYS_ALLOWED)
            what = ", ".join(kinds)
            return (f"{_title(player)}: {self.phase.name} phase - "
                    f"{what + ', or ' if what else ''}end the phase")
        return "Waiting for " + "; ".join(self.prompt(p) for p in active)

    def legal(self, player: str, kind: str | None = None) -> list[Command]:
        """Every legal command for ``player`` now (of ``kind`` only, if given), from each
        command kind's enumerator. Kinds without an enumerator are not listed (see
        :meth:`unenumerated`)."""
        kinds = self.allowed(player)
        if kind is not None:
            kinds = kinds & {kind}
        out: list[Command] = []
        for k in sorted(kinds):
            spec = self.system.commands.get(k)
            if spec is None:
                continue
            if spec.legal is not None:
                out.extend(spec.legal(self.context, self.state, player))
            elif k in ALWAYS_ALLOWED:  # end_phase: offered whenever its own checks pass
                out.extend(verified(self.context, self.state, spec, [Command(k, player)]))
        return out

    def sample(self, player: str, kind: str, rng: random.Random) -> Command | None:
        """A uniformly random legal command of ``kind`` for ``player`` (None if there is none).

        For a kind with a proposer the candidates are shuffled and the first that passes
        ``verify`` is taken: rejection sampling, uniform over the legal commands without
        verifying them all (random play and the fuzzer spend most of their time here)."""
        spec = self.system.commands.get(kind)
        if spec is None or kind not in self.allowed(player):
            return None
        if spec.sample is not None:
            return spec.sample(self.context, self.state, player, rng)
        if spec.propose is None:
            options = self.legal(player, kind)
            return options[rng.randrange(len(options))] if options else None
        candidates = list(spec.propose(self.context, self.state, player))
        rng.shuffle(candidates)
        for cmd in candidates:
            try:
                spec.verify(self.context, self.state, cmd)
            except GrognardError:
                continue
            return cmd
        return None

    def unenumerated(self, player: str) -> list[str]:
        """Allowed kinds that have no enumerator (legal, but not listed by :meth:`legal`)."""
        specs = self.system.commands
        return sorted(k for k in self.allowed(player) if k not in ALWAYS_ALLOWED
                      and (k not in specs or specs[k].legal is None))

    def status(self) -> dict[str, Any]:
        """Where the game stands: turn, date, phase, who acts, prompts, pending decisions."""
        label = self.system.turn_label
        phase = self.phase
        return {
            "scenario": self.scenario.id,
            "system": self.system.name,
            "turn": self.turn,
            "date": None if label is None else label(self.context, self.state),
            "phase": {"index": int(self.state["phase"]), "name": phase.name,
                      "player": phase.player},
            "active": list(self.active()),
            "prompts": {p: self.prompt(p) for p in self.scenario.sides},
            "decisions": [d.to_json() for d in self.decisions()],
            "over": self.over,
            "result": None if self.result is None else dict(self.result),
            "commands": len(self.commands),
            "can_undo": {p: self.can_undo(p) for p in self.scenario.sides},
            "state_hash": self.state_hash(),
        }

    # --- the rule system's words and facts for the layers above (issue 22 hooks) ------------
    def describe(self, cmd: Command, state: JSON | None = None) -> Words:
        """``cmd`` in the rules' words (the system's ``describe``; else its kind and player),
        in ``state`` (default: now) - a logged command is told in the state it was given in."""
        if self.system.describe is not None:
            return self.system.describe(self.context, self.state if state is None else state,
                                        cmd)
        words = cmd.kind.replace("_", " ")
        return Words(f"{_title(cmd.player)}: {words}", words)

    def places(self, cmd: Command) -> Places:
        """Where ``cmd`` acts on the map (nothing known: an empty :class:`Places`)."""
        return self.system.places(cmd) if self.system.places is not None else Places()

    def objectives(self) -> list[Objective]:
        """The places the scenario's victory conditions count, with their holders now."""
        hook = self.system.objectives
        return list(hook(self.context, self.state)) if hook is not None else []

    def standing(self) -> Mapping[str, Any] | None:
        """The verdict if the game ended now (None: the system judges none)."""
        hook = self.system.standing
        return hook(self.context, self.state) if hook is not None else None

    def ledger(self, player: str, view: JSON | None = None) -> list[tuple[str, str]]:
        """``player``'s point accounts as ``(label, exact value)`` pairs, in the system's order,
        read from ``player``'s own view (``view``: one of its views at another position, as a
        log walks them; default: its view now), never from the state: what the view hides
        never shows. The system's ``ledger`` hook; none: no accounts."""
        hook = self.system.ledger
        if hook is None:
            return []
        return list(hook(self.view(player) if view is None else view))

    def event_words(self, event: Mapping[str, Any]) -> str | None:
        """An event as a seat sees it (``events_for`` form) in the rules' words, for the log;
        None when the system gives it no line of its own."""
        hook = self.system.event_words
        return hook(event) if hook is not None else None

    def build_cost(self, player: str, unit: str, view: JSON | None = None) -> int | None:
        """The points building ``unit`` costs ``player`` (the system's ``build_cost``), read
        from its own view (``view``: one it holds; default: its view now); None when the
        system builds no such unit."""
        hook = self.system.build_cost
        if hook is None:
            return None
        return hook(self.context, self.view(player) if view is None else view, unit)

    def move_ranges(self, player: str, units: Sequence[str], view: JSON | None = None
                    ) -> Mapping[str, MoveRange]:
        """Every hex each of ``player``'s ``units`` may reach by moving now, with its cheapest
        cost and path (the system's ``move_ranges``), read from the player's own view
        (``view``: one it holds; default: its view now); a unit that cannot move is left
        out, and a system without the hook ranges none."""
        hook = self.system.move_ranges
        if hook is None:
            return {}
        return hook(self.context, self.view(player) if view is None else view, units)

    def front_of(self, label: str) -> str | None:
        """The front hex ``label`` lies on (the system's ``front_of``; None: no fronts)."""
        hook = self.system.front_of
        return hook(self.context, label) if hook is not None else None

    def attacks_across(self, frm: str, to: str) -> bool:
        """Whether a unit in hex ``frm`` may attack the adjacent hex ``to`` across their
        hexside (the system's ``attacks_across``; none: no hexside forbids it)."""
        hook = self.system.attacks_across
        return hook(self.context, frm, to) if hook is not None else True

    def odds(self, cmd: Command) -> Mapping[str, Any]:
        """The exact odds of a legal attack order and their why (verified here first)."""
        if self.system.odds is None:
            raise IllegalOrder("ODDS", f"no odds display for {self.system.name} orders")
        self.verify(cmd)
        return self.system.odds(self.context, self.state, cmd)

    # --- commands (can / verify / apply) ---------------------------------------------------
    def verify(self, cmd: Command) -> None:
        """Raise :class:`IllegalOrder` (rule, reason) if ``cmd`` is illegal now."""
        spec = self.system.commands.get(cmd.kind)
        allowed = self.allowed(cmd.player)
        if spec is None:
            may = ", ".join(sorted(allowed)) or "nothing now"
            raise IllegalOrder("ENGINE", f"unknown command {cmd.kind!r} ({cmd.player} may: {may})")
        if self.over:
            raise IllegalOrder("ENGINE", self.prompt(cmd.player))
        if cmd.kind not in allowed:
            owed = self.decisions()
            if owed:
                first = next((d for d in owed if d.player == cmd.player), owed[0])
                if cmd.player in self.active():
                    raise IllegalOrder(first.rule or "SEQ", f"{cmd.kind} is not the decision owed "
                                       f"now: {first.prompt}")
                owing = ", ".join(dict.fromkeys(d.player for d in owed))
                raise IllegalOrder(first.rule or "SEQ", f"a decision is owed first by {owing}; "
                                   f"{cmd.player} may not act")
            phase = self.phase
            if cmd.player != phase.player:
                raise IllegalOrder(
                    "SEQ", f"it is {phase.player}'s {phase.name} phase; {cmd.player} may not act"
                )
            raise IllegalOrder("SEQ", f"{cmd.kind} is not allowed in the {phase.name} phase")
        spec.verify(self.context, self.state, cmd)

    def can(self, cmd: Command) -> bool:
        try:
            self.verify(cmd)
        except GrognardError:
            return False
        # a bot checks the command it then plays: applied at this position (the memo is
        # forgotten on every change), it is not verified a second time
        self._memo["verified"] = cmd
        return True

    def apply(self, cmd: Command) -> list[Event]:
        """Check, execute and fold one command. On any error the game is left untouched."""
        return self._apply(cmd)[0]

    def _apply(self, cmd: Command) -> tuple[list[Event], list[str]]:
        """:meth:`apply`, also giving the events' canonical texts (what a replay compares)."""
        if self._memo.get("verified") is not cmd:  # :meth:`can` found it legal here
            self.verify(cmd)
        spec = self.system.commands[cmd.kind]
        active = self.active()
        draws = self.dice.draws()
        self.dice.begin()  # a failed command gives back its draws
        try:
            texts = _encode(spec.execute(self.context, self.state, cmd, self.dice))
        except BaseException:
            self.dice.rollback()
            raise
        recorded = _decode(texts)
        log = self.context.units_log
        log.folding = True
        try:
            self.state = self.fold(self.state, _decode(texts))
            self._note_unit_writes(recorded)
            more = self._after_command(recorded)
            if more:  # the rules' own consequences of the position (RuleSystem.after_command)
                log.folding = True
                self.state = self.fold(self.state, _decode(more))
                added = _decode(more)
                self._note_unit_writes(added)
                texts, recorded = [*texts, *more], [*recorded, *added]
        except BaseException:
            self.dice.rollback()
            self.state = self._state_at(len(self.commands))
            log.lost()
            self._changed()
            raise
        self.dice.commit()
        barrier = None
        if self.dice.draws() != draws:
            barrier = DICE_ROLLED
        elif not spec.undoable or any(e.type in self.system.reveal_events for e in recorded):
            barrier = REVEALED
        self.commands.append(cmd)
        self.events.append(recorded)
        self.steps.append(Step(active, barrier))
        self._changed()
        if len(self.commands) % CHECKPOINT_EVERY == 0:
            self._checkpoints[len(self.commands)] = _checkpoint(self.state)
        return recorded, texts

    def _after_command(self, events: Sequence[Event]) -> list[str]:
        """The canonical texts of the events the system's ``after_command`` rule adds once a
        command's ``events`` are folded (none without the rule). The state changed in place,
        so nothing cached of the position before stands: the context's cache is cleared first."""
        hook = self.system.after_command
        if hook is None:
            return []
        self.context.cache.clear()
        return _encode(hook(self.context, self.state, events))

    def _note_unit_writes(self, events: Sequence[Event]) -> None:
        """Journal which unit records the command's folds wrote, as they declare it
        (:class:`~grognard.engine.events.UnitWrites`; undeclared: every unit)."""
        log = self.context.units_log
        units = self.state.get("units") if isinstance(self.state, dict) else None
        if units is None:
            log.lost()
            return
        if self._after_writes is None:
            log.note(units, None, frozenset())
            return
        named: set[str] = set()
        fields: frozenset[str] = self._after_writes
        folds = self.system.folds
        for ev in events:
            w = unit_writes(folds.get(ev.type))
            if w is None:
                log.note(units, None, frozenset())
                return
            if w.named is not None:
                named.update(w.named(ev))
            if w.fields:
                fields = fields | w.fields
        log.note(units, frozenset(named), fields)

    def fold(self, state: JSON, events: Sequence[Event]) -> JSON:
        """Fold ``events`` into ``state`` (in place; the folds may return a new object)."""
        for ev in events:
            fold = self.system.folds.get(ev.type)
            if fold is None:
                raise ReplayMismatch(f"no fold for event type {ev.type!r}")
            state = fold(state, ev)
            for _name, rule in self.system.after_events:
                state = rule(state, ev)
        return state

    # --- undo ------------------------------------------------------------------------------
    def undo_refusal(self, player: str) -> str | None:
        """Why ``player`` cannot take back their last command now (None: they can)."""
        if not self.commands:
            return "nothing to undo"
        last, step = self.commands[-1], self.steps[-1]
        if last.player != player:  # its kind may be a secret order: not named
            return f"the last command was {last.player}'s"
        if step.barrier is not None:
            return f"{step.barrier} in {last.kind}: it cannot be taken back"
        if player not in self.active():
            now = ", ".join(self.active()) or "nobody"
            return f"{now} now acts: {last.kind} handed over and cannot be taken back"
        return None

    def can_undo(self, player: str) -> bool:
        return self.undo_refusal(player) is None

    def undo(self, player: str) -> Command:
        """Take back ``player``'s last command (refused across a die roll, a reveal or a change
        of the player to act); returns it. The state is exactly as before it."""
        why = self.undo_refusal(player)
        if why is not None:
            raise IllegalOrder("UNDO", why)
        n = len(self.commands) - 1
        state = self._state_at(n)
        cmd = self.commands.pop()
        self.events.pop()
        self.steps.pop()
        for k in [k for k in self._checkpoints if k > n]:
            del self._checkpoints[k]
        self.state = state
        self.context.units_log.lost()
        self._changed()
        return cmd

    def state_at(self, n: int) -> JSON:
        """A copy of the state after the first ``n`` commands (for logs and replays' VCR):
        the nearest checkpoint, refolded from the recorded events (no dice)."""
        if not 0 <= n <= len(self.commands):
            raise IllegalOrder("VIEW", f"no position {n} (0..{len(self.commands)})")
        return self._state_at(n)

    def _state_at(self, n: int) -> JSON:
        """The state after the first ``n`` commands: the nearest checkpoint, refolded."""
        k = max(i for i in self._checkpoints if i <= n)
        state = msgspec.json.decode(self._checkpoints[k])
        for events in self.events[k:n]:
            state = self.fold(state, _decode(_encode(events)))
        return state

    # --- inspection ------------------------------------------------------------------------
    def state_hash(self) -> str:
        h: str = self._cached("hash", lambda: state_hash(self.state))
        return h

    def events_for(self, player: str, start: int = 0) -> list[list[dict[str, Any]]]:
        """The events of commands ``start`` onward as ``player`` may see them (the system's
        ``event_view`` against the current state; events it hides are left out)."""
        if player not in self.scenario.sides:
            raise IllegalOrder("VIEW", f"unknown player {player!r}")
        hook = self.system.event_view
        out = []
        for events in self.events[start:]:
            if hook is None:
                out.append([e.to_json() for e in events])
                continue
            shown = (hook(e, player, self.state) for e in events)
            out.append([dict(v) for v in shown if v is not None])
        return out

    def view(self, player: str) -> JSON:
        if player not in self.scenario.sides:
            raise IllegalOrder("VIEW", f"unknown player {player!r}")
        return self.system.view(self.state, player)

    # --- replay and restore ----------------------------------------------------------------
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
                events, texts = g._apply(cmd)
            except GrognardError as exc:
                raise ReplayMismatch(f"command {i} ({cmd.kind}) is illegal on replay: {exc}"
                                     ) from None
            if recorded is None:
                continue
            # the texts apply encoded are the events' canonical form unless a dict had
            # non-text keys: only then are the events themselves encoded again
            saved = _encode(recorded[i])
            if texts != saved and _encode(events) != saved:
                raise ReplayMismatch(f"command {i} ({cmd.kind}) produced different events")
        return g

    @classmethod
    def restore(
        cls,
        scenario: Scenario,
        seed: int,
        commands: Sequence[Command],
        events: Sequence[Sequence[Event]],
        steps: Sequence[Step],
        state: JSON,
        dice: Any,
        **kw: Any,
    ) -> Game:
        """A game from a snapshot (its final state and dice positions) without replaying:
        what ``game apply`` uses; ``Game.replay`` still verifies everything."""
        g = cls(scenario, seed, **kw)
        g.commands, g.events, g.steps = list(commands), [list(e) for e in events], list(steps)
        g.state = state
        g.dice.restore_json(dice)
        g._checkpoints = {0: g._checkpoints[0], len(g.commands): _checkpoint(state)}
        g.context.units_log.lost()
        g._changed()
        return g

    @classmethod
    def from_position(cls, scenario: Scenario, seed: int, state: JSON, **kw: Any) -> Game:
        """A game that goes on from ``state`` (used as given, not copied) with fresh dice from
        ``seed`` (no stream drawn yet) and no command log before it: a what-if from a position,
        each seed another future - the search's simulations and the position studies.

        >>> g = Game(load_scenario("demo-europa"), 1)
        >>> from grognard.engine.state import copy_state
        >>> a = Game.from_position(g.scenario, 5, copy_state(g.state))
        >>> a.state_hash() == g.state_hash(), len(a.commands), a.seed
        (True, 0, 5)
        """
        return cls.restore(scenario, seed, [], [], [], state, {}, **kw)

    def fold_recorded(self, recorded: Sequence[Sequence[Event]]) -> JSON:
        """State from the recorded events alone (no dice, no recomputation)."""
        state = self.system.initial_state(self.scenario)
        for events in recorded:
            state = self.fold(state, _decode(_encode(events)))
        return state
