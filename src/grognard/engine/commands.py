"""Commands: what a player orders. Each kind has a spec: how to check it, how to execute it."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError, InputError
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.state import JSON


@dataclass(frozen=True, slots=True)
class Command:
    """One order: its kind, the player giving it, and its arguments (JSON data)."""

    kind: str
    player: str
    args: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "player": self.player, "args": dict(self.args)}

    @classmethod
    def from_json(cls, raw: Mapping[str, JSON], where: str = "command") -> Command:
        kind, player, args = raw.get("kind"), raw.get("player"), raw.get("args", {})
        if not isinstance(kind, str) or not kind:
            raise InputError(f"{where}.kind", "a command needs a kind")
        if not isinstance(player, str) or not player:
            raise InputError(f"{where}.player", "a command needs a player")
        if not isinstance(args, dict):
            raise InputError(f"{where}.args", "must be an object")
        return cls(kind, player, dict(args))


_new = object.__new__
_set_kind = vars(Command)["kind"].__set__  # the slots' descriptors
_set_player = vars(Command)["player"].__set__
_set_args = vars(Command)["args"].__set__


def made_command(kind: str, player: str, args: Mapping[str, JSON]) -> Command:
    """``Command(kind, player, args)`` set slot by slot, without the frozen dataclass's
    ``__init__`` (a Python call per command: a lister makes hundreds of thousands a game).
    The same object: the fields are exactly these three and there is no ``__post_init__``
    (tests/bots/test_europa_speed_s17.py checks both)."""
    cmd: Command = _new(Command)
    _set_kind(cmd, kind)
    _set_player(cmd, player)
    _set_args(cmd, args)
    return cmd


Verify = Callable[[Context, JSON, Command], None]
"""Raise :class:`~grognard.core.errors.IllegalOrder` when the command is illegal in ``state``."""

Execute = Callable[[Context, JSON, Command, Dice], list[Event]]
"""Produce the events of a legal command; every die roll goes into the events."""


Legal = Callable[[Context, JSON, str], Iterable[Command]]
"""Enumerate every legal command of this kind for ``player`` now (each must pass ``verify``)."""

Sample = Callable[[Context, JSON, str, random.Random], "Command | None"]
"""Draw one of ``legal``'s commands uniformly without listing them all (None: there is none)."""

Witness = Callable[[Context, JSON, str, Verify], bool]
"""Whether ``legal`` would list at least one command for ``player`` now (given the spec's
``verify``): the same answer as ``bool(legal(...))``, found by the cheapest sufficient checks
first. It never changes what ``legal`` lists or in which order."""


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """One command kind: check it, execute it into events, enumerate it.

    ``legal`` enumerates the legal commands of this kind for a player (None: not enumerated,
    so random play and bots never choose it). ``undoable`` is False for a command that reveals
    hidden information: it clears the undo history like a die roll (which the engine detects
    by itself). ``propose``, when given, lists cheap candidates, a superset of the legal
    commands (``legal`` is then the candidates that pass ``verify``): random play draws from
    them without verifying them all (:meth:`Game.sample <grognard.engine.game.Game.sample>`);
    ``sample`` draws one legal command directly (e.g. a move: a unit weighted by its number of
    destinations, then one of them). ``any_legal`` (a :data:`Witness`) answers only whether
    there is at least one legal command (:func:`has_legal`: an idle-phase scan's question),
    checking the cheapest candidates first; without it :func:`has_legal` asks the listing.
    """

    kind: str
    verify: Verify
    execute: Execute
    help: str = ""
    example: Mapping[str, Any] = field(default_factory=dict)
    legal: Legal | None = None
    undoable: bool = True
    propose: Legal | None = None
    sample: Sample | None = None
    any_legal: Witness | None = None

    def with_legal(self, legal: Legal) -> CommandSpec:
        """This spec with an enumerator (for systems that reuse another system's spec)."""
        return replace(self, legal=legal, propose=None, sample=None, any_legal=None)

    def with_proposer(self, propose: Legal) -> CommandSpec:
        """This spec enumerated by ``propose``: its candidates that pass ``verify``."""
        spec = replace(self, legal=None, propose=propose, sample=None, any_legal=None)
        return replace(spec, legal=lambda ctx, state, player: verified(
            ctx, state, spec, propose(ctx, state, player)))


def verified(ctx: Context, state: JSON, spec: CommandSpec, candidates: Iterable[Command]
             ) -> list[Command]:
    """The candidates that pass ``spec.verify``: for enumerators that propose a superset."""
    out = []
    for cmd in candidates:
        try:
            spec.verify(ctx, state, cmd)
        except GrognardError:
            continue
        out.append(cmd)
    return out


def has_legal(ctx: Context, state: JSON, spec: CommandSpec, player: str) -> bool:
    """Whether ``player`` has a legal command of ``spec``'s kind now, by its witness
    (``any_legal``) when it has one, else by its listing: the first proposed candidate that
    passes ``verify``, or a non-empty ``legal`` (a kind with no enumerator counts as having
    one: nothing says it has none)."""
    if spec.any_legal is not None:
        return spec.any_legal(ctx, state, player, spec.verify)
    if spec.propose is None:
        return spec.legal is None or bool(spec.legal(ctx, state, player))
    return first_verified(ctx, state, spec.verify, spec.propose(ctx, state, player))


def first_verified(ctx: Context, state: JSON, verify: Verify, candidates: Iterable[Command]
                   ) -> bool:
    """Whether any of ``candidates`` passes ``verify`` (stops at the first that does)."""
    for cmd in candidates:
        try:
            verify(ctx, state, cmd)
        except GrognardError:
            continue
        return True
    return False
