"""Arrays for learning agents: observations from a player's view, a fixed-size action index.

**Observation** (``float32`` vector of length ``FEATURES * n_hexes + GLOBALS``): for every hex
of the map (in the map's hex order) the player's own units, their attack strength, the enemy
units seen, their attack and defense strength where shown (hidden units count as units only),
then the turn, the phase index, whether the player acts now, and the number of its legal
actions. Built from ``Game.view(player)`` only.

**Actions** (``Discrete(n_kinds * BLOCK)``): the system's command kinds in sorted order each own
a block of :data:`BLOCK` slots; slot ``k * BLOCK + i`` is the ``i``-th legal command of kind
``k`` in canonical order (sorted by its arguments' JSON). A kind with more than ``BLOCK`` legal
commands at once keeps its first ``BLOCK``. The action mask has a 1 at every slot holding a
legal command now.

>>> from grognard.engine.game import Game
>>> g = Game.new("demo-europa", seed=1)
>>> enc = Encoding.of(g)
>>> slots = enc.slots(g, "axis")
>>> all(enc.kinds[s // BLOCK] == c.kind for s, c in slots.items())
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from grognard.bots.base import legal_actions
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.state import JSON

BLOCK = 128
FEATURES = 5
GLOBALS = 4


def canonical(cmd: Command) -> str:
    return json.dumps(cmd.args, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Encoding:
    """The array layout of one scenario (its map and its system's command kinds)."""

    kinds: tuple[str, ...]
    hexes: Mapping[str, int]

    @classmethod
    def of(cls, game: Game) -> Encoding:
        m = game.scenario.map
        return cls(tuple(sorted(game.system.commands)),
                   {m.label(i): i for i in range(m.n)})

    @property
    def n_actions(self) -> int:
        return len(self.kinds) * BLOCK

    @property
    def obs_size(self) -> int:
        return FEATURES * len(self.hexes) + GLOBALS

    def slots(self, game: Game, player: str) -> dict[int, Command]:
        """Slot -> legal command of ``player`` now."""
        by_kind: dict[str, list[Command]] = {}
        for c in legal_actions(game, player):
            by_kind.setdefault(c.kind, []).append(c)
        out: dict[int, Command] = {}
        for kind, cmds in by_kind.items():
            k = self.kinds.index(kind)
            for i, c in enumerate(sorted(cmds, key=canonical)[:BLOCK]):
                out[k * BLOCK + i] = c
        return out

    def mask(self, slots: Mapping[int, Command]) -> npt.NDArray[np.int8]:
        m = np.zeros(self.n_actions, dtype=np.int8)
        m[list(slots)] = 1
        return m

    def observe(self, view: JSON, player: str, phase: int, turn: int, acting: bool,
                n_legal: int) -> npt.NDArray[np.float32]:
        n = len(self.hexes)
        planes = np.zeros((FEATURES, n), dtype=np.float32)
        for u in view.get("units", {}).values():
            h = self.hexes.get(str(u.get("hex")))
            if h is None:
                continue
            if u.get("side") == player:
                planes[0, h] += 1
                planes[1, h] += float(u.get("attack") or 0)
            else:
                planes[2, h] += 1
                planes[3, h] += float(u.get("attack") or 0)
                planes[4, h] += float(u.get("defense") or 0)
        extra = np.array([turn, phase, 1.0 if acting else 0.0, n_legal], dtype=np.float32)
        return np.concatenate([planes.reshape(-1), extra])
