"""Decisions: who must act now and why (the referee's to-do list).

A rule system reports the decisions a game owes (``RuleSystem.decisions``): the defender's loss
allocation after a D result, a retreat choice, an interception, both players' secret chits. While
any decision is owed, only its players act, only with its command kinds, and the phase cannot
end. Several decisions for different players at once are simultaneous choices.

>>> d = Decision("soviet", frozenset({"allocate_losses"}), "Soviet: allocate 3 SPs of losses in 0705",
...              "EUR-12")
>>> d.to_json()["kinds"]
['allocate_losses']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice the rules give ``player``: answered by a command of one of ``kinds``."""

    player: str
    kinds: frozenset[str]
    prompt: str
    rule: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "kinds": sorted(self.kinds), "prompt": self.prompt,
                "rule": self.rule}
