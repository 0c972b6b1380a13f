"""Phases and turn order as data (C-SEQ).

A :class:`TurnSequence` is the ordered list of phases of one game turn; each phase names the
player who acts and the command kinds allowed in it. Rule systems supply their own sequences.

>>> seq = TurnSequence((Phase("movement", "axis", frozenset({"move"})),
...                     Phase("combat", "axis", frozenset({"roll_table"}))))
>>> seq.next_position(0, 1), seq.next_position(1, 1)
((1, 1), (0, 2))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from grognard.core.errors import InputError


@dataclass(frozen=True, slots=True)
class Phase:
    name: str
    player: str
    commands: frozenset[str]

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "player": self.player, "commands": sorted(self.commands)}


ALWAYS_ALLOWED = frozenset({"end_phase"})


@dataclass(frozen=True, slots=True)
class TurnSequence:
    phases: tuple[Phase, ...]

    def __post_init__(self) -> None:
        if not self.phases:
            raise InputError("sequence", "a turn needs at least one phase")

    def next_position(self, phase_index: int, turn: int) -> tuple[int, int]:
        """Position (phase index, turn) after ending ``phase_index`` of ``turn``."""
        if phase_index + 1 < len(self.phases):
            return phase_index + 1, turn
        return 0, turn + 1

    def allows(self, phase_index: int, kind: str) -> bool:
        return kind in ALWAYS_ALLOWED or kind in self.phases[phase_index].commands

    @classmethod
    def per_player(cls, players: Sequence[str], phases: Sequence[tuple[str, Sequence[str]]]
                   ) -> TurnSequence:
        """The same phase list for each player in turn order (a classic player-turn sequence)."""
        return cls(tuple(Phase(name, p, frozenset(cmds)) for p in players for name, cmds in phases))

    @classmethod
    def from_json(cls, raw: Sequence[Mapping[str, object]], where: str = "sequence"
                  ) -> TurnSequence:
        phases = []
        for i, p in enumerate(raw):
            name, player, cmds = p.get("name"), p.get("player"), p.get("commands", [])
            if not isinstance(name, str) or not isinstance(player, str):
                raise InputError(f"{where}[{i}]", "a phase needs a name and a player")
            if not isinstance(cmds, list):
                raise InputError(f"{where}[{i}].commands", "must be a list")
            phases.append(Phase(name, player, frozenset(str(c) for c in cmds)))
        return cls(tuple(phases))
