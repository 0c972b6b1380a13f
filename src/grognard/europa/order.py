"""The Europa side of :class:`~grognard.engine.orders.Order`: what every Europa Order shares.

* :class:`EuropaOrder` - ``checked`` (the candidates that pass this order's own verify: the
  legal-action enumerators of each Order list candidates and keep those), and an enumerator
  that both lists (``legal``) and draws cheaply (``propose``/``sample``) keeps its ``legal``.
* :func:`engine_choices` - EUR-12..EUR-16: after a command, the decisions that leave a single
  legal command (one allocation, one retreat, a stack that cannot retreat) are made by the
  engine in the same command, each event marked ``decided_by: "engine"``. The deciding
  Orders are passed in by the Order that runs them (no registry lookup, no import circle).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError, IllegalOrder
from grognard.engine.commands import Command, CommandSpec
from grognard.engine.context import Context
from grognard.engine.decisions import Decision
from grognard.engine.events import Event, Fold, unit_writes
from grognard.engine.orders import Order
from grognard.engine.state import JSON, copy_parts, copy_state
from grognard.europa.state_types import EuropaState

A = TypeVar("A")

#: Decision kinds the engine may answer itself when only one legal command exists.
FORCED_KINDS = ("allocate_losses", "retreat")

#: The parts of the state besides unit records that the folds of a combat and its forced
#: answers write (the combat's record, the overrun slot, the SP ledger: ``combat_resolved``,
#: ``losses_allocated``, ``units_retreated``, ``overrun_declared``, ``sp_paid`` and the
#: other logistics folds): :func:`engine_choices` copies only these and the unit records the
#: folds declare they write (issue 25: no whole-state copy per command;
#: tests/bots/test_europa_speed_s16.py checks the state is left untouched).
COMBAT_PARTS = ("combat", "overrun", "logistics")


def written_units(fold: Fold, ev: Event, state: EuropaState) -> list[str] | None:
    """The units whose records ``fold`` may write folding ``ev`` into ``state``: the units its
    declaration names (:func:`~grognard.engine.events.writes_units`), and where it declares
    ``mp_spent`` of any unit (a combat fold that settles an overrun, EUR-18) the overrunning
    stack; None when it may write any other unit (undeclared, or other fields of any unit)."""
    w = unit_writes(fold)
    if w is None or not w.fields <= {"mp_spent"}:
        return None
    named = list(w.named(ev)) if w.named is not None else []  # None: it names no unit
    if w.fields:
        slot = state.get("overrun")
        pending = slot.get("pending") if isinstance(slot, dict) else None
        named += pending["units"] if pending is not None else []
    return named


class EuropaOrder(Order[A]):
    """An Order of the ``europa`` system. ``facts`` names arguments an order might try to
    give that are the referee's facts (issue 24: orders carry choices, the referee supplies
    facts), each with where the referee takes it from: an order naming one is refused with
    one line saying so."""

    facts: ClassVar[Mapping[str, str]] = {}

    def args(self, ctx: Context | None, cmd: Command) -> A:
        for key in cmd.args:
            if key in self.facts:
                raise IllegalOrder(self.rule, f"{key} is not an order's choice: the referee "
                                   f"supplies it ({self.facts[key]})")
        return super().args(ctx, cmd)

    def check(self, ctx: Context, state: EuropaState, cmd: Command) -> None:
        """``verify`` of ``cmd`` with its arguments decoded (InputError on bad arguments)."""
        self.verify(ctx, state, cmd, self.args(ctx, cmd))

    def checked(self, ctx: Context, state: EuropaState, cands: Iterable[Command]) -> list[Command]:
        """The candidates that pass this order's verify (for enumerators that propose)."""
        out = []
        for cmd in cands:
            try:
                self.check(ctx, state, cmd)
            except GrognardError:
                continue
            out.append(cmd)
        return out

    def spec(self) -> CommandSpec:
        spec = super().spec()
        if self.legal is not None and self.propose is not None:
            # its own lister (legal) with a cheap proposal and sampler for random play
            return dataclasses.replace(spec, legal=self.legal)
        return spec


def no_legal(ctx: Context, state: EuropaState, player: str) -> list[Command]:
    """Commands whose arguments are data the state does not hold (table rolls, air units
    passed in the order): none enumerated for random play."""
    return []


DecisionsOf = Callable[[Context, JSON], Sequence[Decision]]


def engine_choices(ctx: Context, state: EuropaState, events: list[Event], dice: Dice,
                   deciders: Sequence[EuropaOrder[Any]], folds: Mapping[str, Fold],
                   decisions: DecisionsOf) -> list[Event]:
    """``events`` followed by the engine's own answers to decisions that leave one legal
    command (an allocation with one legal order of steps, a retreat with one path and one
    penalty pick, a stack that cannot retreat and is eliminated). Folds a private copy of the
    state (with ``folds``; only what they write is copied: :data:`COMBAT_PARTS` and the unit
    records they declare, :func:`written_units`) to see
    what is owed next; each answer is marked ``decided_by: "engine"`` and names the command
    the engine gave."""
    by_kind = {o.kind: o for o in deciders}
    s: Any = copy_parts(state, COMBAT_PARTS)
    s["units"] = dict(state["units"])  # the records shared until a fold may write them
    mine: set[str] = set()

    def fold(s: Any, ev: Event) -> Any:
        fn = folds[ev.type]
        units = s["units"]
        named = written_units(fn, ev, s)
        for uid in units if named is None else named:
            if uid not in mine and uid in units:
                units[uid] = copy_state(units[uid])
                mine.add(uid)
        return fn(s, ev)

    for e in events:
        s = fold(s, Event(e.type, copy_state(e.data)))
    out = list(events)
    for _ in range(16):
        local = dataclasses.replace(ctx, cache={})
        forced = None
        for d in decisions(local, s):
            kinds = [k for k in FORCED_KINDS if k in d.kinds]
            if not kinds or kinds[0] not in by_kind:
                continue
            order = by_kind[kinds[0]]
            if order.legal is None:
                continue
            options = list(itertools.islice(order.legal(local, s, d.player), 2))
            if len(options) == 1:
                forced = (order, options[0])
                break
        if forced is None:
            break
        order, cmd = forced
        for e in order.spec().execute(local, s, cmd, dice):
            marked = Event(e.type, {**e.data, "decided_by": "engine",
                                    "command": cmd.to_json()})
            out.append(marked)
            s = fold(s, Event(e.type, copy_state(marked.data)))
    return out
