"""Orders: one command kind as one object, beside the rule it drives (issue 22).

An :class:`Order` holds everything about one kind of command: the player's choices it takes
(``Args``, a msgspec Struct decoded once per command; an unknown or extra argument is refused),
the rule it cites, its help and example, ``verify`` (raise :class:`IllegalOrder` with the rule),
``execute`` (events carrying every number and die), the folds of its events, and the optional
``legal`` / ``propose`` / ``sample`` enumerators, ``describe`` (the order in words) and
``undoable``. Rally the Troops' "a prompt, its actions, one handler per action" and PokerKit's
``verify_x`` / ``x -> record`` are the models.

A rule system lists its Orders once (:func:`commands_of`, :func:`folds_of`); the engine runs
them through :class:`~grognard.engine.commands.CommandSpec`, so systems can move one command
kind at a time.

Orders carry choices, the referee supplies facts: ``Args`` never holds a modifier, a die, a
reading, a terrain, a weather or any other fact the state, the map or the calendar gives.

>>> import msgspec
>>> class MoveArgs(msgspec.Struct, forbid_unknown_fields=True):
...     unit: str
...     path: list[str]
>>> class Move(Order[MoveArgs]):
...     kind, rule, Args = "move", "EX-1", MoveArgs
...     def verify(self, ctx, state, cmd, args):
...         if not args.path:
...             raise IllegalOrder(self.rule, "an empty path")
...     def execute(self, ctx, state, cmd, args, dice):
...         return [Event("moved", {"unit": args.unit, "to": args.path[-1]})]
>>> spec = Move().spec()
>>> from grognard.engine.commands import Command
>>> spec.execute(None, {}, Command("move", "a", {"unit": "u1", "path": ["0101"]}), None)
[Event(type='moved', data={'unit': 'u1', 'to': '0101'})]
>>> spec.verify(None, {}, Command("move", "a", {"unit": "u1", "path": [], "cheat": 1}))
Traceback (most recent call last):
grognard.core.errors.InputError: args.cheat: unknown argument of move (it takes: path, unit)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.inputs import typed
from grognard.engine.commands import Command, CommandSpec, verified
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.state import JSON

__all__ = ["IllegalOrder", "NoArgs", "Order", "Words", "commands_of", "decode_args",
           "folds_of"]


class NoArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The arguments of an order that takes none."""


class Words(msgspec.Struct, frozen=True):
    """An order in the rules' words: ``text`` for the log and forms, ``short`` for a button."""

    text: str
    short: str = ""

    def to_json(self) -> dict[str, str]:
        return {"text": self.text, "short": self.short or self.text}


A = TypeVar("A")

#: How many decoded commands one position keeps (:meth:`Order.args`): verify and execute of
#: the command being applied share its decoding; a lister's probes are dropped in batches.
ARGS_KEPT = 256


# --- words: the small helpers every system's ``describe`` shares ----------------------------
def and_list(items: Iterable[str]) -> str:
    """``"a, b and c"`` (empty items left out).

    >>> and_list(["Riga", "", "Minsk", "Kiev"])
    'Riga, Minsk and Kiev'
    """
    xs = [x for x in items if x]
    if len(xs) <= 1:
        return "".join(xs)
    return ", ".join(xs[:-1]) + " and " + xs[-1]


def plural(n: int, word: str) -> str:
    """``"1 hex"``, ``"2 hexes"``, ``"3 units"``."""
    return f"{n} {word}" + ("" if n == 1 else "es" if word.endswith("x") else "s")


def as_list(v: object) -> list[str]:
    """An argument read as a list of strings (a lone string is a list of one)."""
    if isinstance(v, list | tuple):
        return [str(x) for x in v]
    if isinstance(v, str):
        return [v]
    return []


def hex_name(ctx: Context | None, label: object) -> str:
    """A hex by its label, with the city in it if any ("0703 (Minsk)")."""
    s = str(label)
    if ctx is None:
        return s
    try:
        m = ctx.scenario.map
        cities = m.cities_at(m.hex(m.index_of_label(s)))
    except (KeyError, ValueError, IndexError, AttributeError, TypeError):
        return s
    return f"{s} ({cities[0].name})" if cities else s


def _field_names(kind: type[Any]) -> list[str]:
    return sorted(getattr(kind, "__struct_fields__", ()))


def decode_args(kind: str, args_type: type[A], raw: Mapping[str, Any]) -> A:
    """``raw`` (a command's JSON arguments) as ``args_type``, or one :class:`InputError`
    naming the argument: unknown and extra arguments are refused, no type is coerced."""
    try:
        return typed(dict(raw), args_type)
    except msgspec.ValidationError as exc:
        text = str(exc)
        where = "args"
        if " - at `$." in text:
            text, path = text.rsplit(" - at `$.", 1)
            where = "args." + path.rstrip("`")
        elif text.startswith("Object contains unknown field `"):
            name = text.split("`")[1]
            raise InputError(f"args.{name}", f"unknown argument of {kind} (it takes: "
                             f"{', '.join(_field_names(args_type)) or 'nothing'})") from None
        if "unknown field `" in text:
            name = text.split("unknown field `", 1)[1].split("`")[0]
            raise InputError(f"{where}.{name}", f"unknown argument of {kind}") from None
        raise InputError(where, text) from None


class Order(Generic[A]):
    """One command kind. Subclasses set ``kind``, ``rule``, ``Args`` and define ``verify`` and
    ``execute``; the rest is optional."""

    kind: ClassVar[str]
    rule: ClassVar[str] = ""
    help: ClassVar[str] = ""
    example: ClassVar[Mapping[str, Any]] = {}
    Args: ClassVar[type[Any]] = NoArgs
    #: False for an order that reveals hidden information (it clears undo like a die).
    undoable: ClassVar[bool] = True
    #: The folds of the events this order emits: event type -> fold.
    folds: ClassVar[Mapping[str, Fold]] = {}

    # --- the player's choices, decoded once per command -----------------------------------
    def args(self, ctx: Context | None, cmd: Command) -> A:
        """``cmd``'s arguments as ``Args``, decoded once per command and position."""
        if ctx is None:
            decoded: A = decode_args(self.kind, self.Args, cmd.args)
            return decoded
        # One bounded table per position: a lister that verifies thousands of candidates
        # must not keep each of them (and its arguments) alive until the position changes.
        kept = ctx.cache.get("order.args")
        if kept is None or len(kept) >= ARGS_KEPT:
            kept = ctx.cache["order.args"] = {}
        hit = kept.get(id(cmd))
        if hit is not None and hit[0] is cmd:  # the same object: its id was not reused
            same: A = hit[1]
            return same
        args: A = decode_args(self.kind, self.Args, cmd.args)
        kept[id(cmd)] = (cmd, args)
        return args

    # --- the rule ------------------------------------------------------------------------
    def verify(self, ctx: Context, state: JSON, cmd: Command, args: A) -> None:
        """Raise :class:`IllegalOrder` (rule, reason) when the rules forbid the order."""

    def execute(self, ctx: Context, state: JSON, cmd: Command, args: A,
                dice: Dice) -> list[Event]:
        raise NotImplementedError(self.kind)

    # --- optional: enumeration and words -------------------------------------------------
    #: Every legal command of this kind for ``player`` (each passes verify); None: none listed.
    legal: Any = None
    #: Cheap candidates, a superset of the legal commands (legal = those that verify).
    propose: Any = None
    #: One legal command drawn uniformly without listing them all.
    sample: Any = None
    #: The witness (:data:`~grognard.engine.commands.Witness`): ``any_legal(ctx, state,
    #: player, verify) -> bool``, whether the listing (``legal``, or the ``propose``
    #: candidates that pass ``verify``) has at least one command, checking the cheapest
    #: candidates first and stopping at the first legal one. It must give exactly
    #: ``bool(listing)`` and never change the listing. None (the default): the engine asks
    #: the listing itself, stopping at its first legal command
    #: (:func:`~grognard.engine.commands.has_legal`).
    any_legal: Any = None

    def describe(self, ctx: Context, state: JSON, cmd: Command) -> Words:
        """The order in the rules' words (default: the kind and the help line)."""
        return Words(f"{cmd.player}: {self.kind.replace('_', ' ')}", self.kind.replace("_", " "))

    # --- as the engine runs it ------------------------------------------------------------
    def spec(self) -> CommandSpec:
        def verify(ctx: Context, state: JSON, cmd: Command) -> None:
            self.verify(ctx, state, cmd, self.args(ctx, cmd))

        def execute(ctx: Context, state: JSON, cmd: Command, dice: Dice) -> list[Event]:
            return self.execute(ctx, state, cmd, self.args(ctx, cmd), dice)

        spec = CommandSpec(self.kind, verify, execute, self.help, dict(self.example),
                           legal=self.legal, undoable=self.undoable, propose=self.propose,
                           sample=self.sample, any_legal=self.any_legal)
        if self.propose is None:
            return spec
        propose = self.propose
        return replace(spec, legal=lambda ctx, state, player: verified(
            ctx, state, spec, propose(ctx, state, player)))


def commands_of(orders: Iterable[Order[Any]]) -> dict[str, CommandSpec]:
    """The engine's command table of a list of Orders (one kind each, listed once)."""
    out: dict[str, CommandSpec] = {}
    for order in orders:
        if order.kind in out:
            raise ValueError(f"two orders of kind {order.kind!r}")
        out[order.kind] = order.spec()
    return out


def folds_of(orders: Iterable[Order[Any]], extra: Mapping[str, Fold] | None = None
             ) -> dict[str, Fold]:
    """Every event fold the Orders declare (plus ``extra``); an event folded twice is an
    error."""
    out: dict[str, Fold] = dict(extra or {})
    for order in orders:
        for ev, fold in order.folds.items():
            if ev in out and out[ev] is not fold:
                raise ValueError(f"event {ev!r} has two folds ({order.kind})")
            out[ev] = fold
    return out
