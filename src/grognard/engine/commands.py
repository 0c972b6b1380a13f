"""Commands: what a player orders. Each kind has a spec: how to check it, how to execute it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from grognard.core.dice import Dice
from grognard.core.errors import InputError
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


Verify = Callable[[Context, JSON, Command], None]
"""Raise :class:`~grognard.core.errors.IllegalOrder` when the command is illegal in ``state``."""

Execute = Callable[[Context, JSON, Command, Dice], list[Event]]
"""Produce the events of a legal command; every die roll goes into the events."""


@dataclass(frozen=True, slots=True)
class CommandSpec:
    kind: str
    verify: Verify
    execute: Execute
    help: str = ""
    example: Mapping[str, Any] = field(default_factory=dict)
