"""Small constructed boards for the Europa bot tests (offence, sieges, army groups, the Soviet
defence): a ``w`` x ``h`` grid of hexes with four neighbours each, labelled ``XXYY``, with the
map arrays the bots read (``nbrs``, ``sides``, ``water``, ``quality``), and the situation a
bot plans from (its units, the others, the player)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any


def lab(x: int, y: int) -> str:
    return f"{x:02d}{y:02d}"


@dataclass
class Board:
    """A ``w`` x ``h`` board of land; the hexes in ``lakes`` are water, those in ``cities``
    double their defense (EUR-10); :meth:`block` makes a hexside impassable."""

    w: int
    h: int
    lakes: Collection[tuple[int, int]] = field(default_factory=set)
    cities: Collection[tuple[int, int]] = ()
    nbrs: list[list[int]] = field(default_factory=list)
    sides: list[list[int]] = field(default_factory=list)
    water: list[bool] = field(default_factory=list)
    quality: list[tuple[int, int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for y in range(self.h):
            for x in range(self.w):
                ns = [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                      if 0 <= x + dx < self.w and 0 <= y + dy < self.h]
                self.nbrs.append([b * self.w + a for a, b in ns])
                self.sides.append([0] * len(ns))
                self.water.append((x, y) in self.lakes)
                self.quality.append((2, 0, 10) if (x, y) in self.cities else (1, 0, 10))

    def index_of_label(self, label: str) -> int:
        return int(label[2:]) * self.w + int(label[:2])

    def label(self, i: int) -> str:
        return lab(i % self.w, i // self.w)

    def block(self, a: tuple[int, int], b: tuple[int, int]) -> None:
        ia, ib = a[1] * self.w + a[0], b[1] * self.w + b[0]
        self.sides[ia][self.nbrs[ia].index(ib)] = -1
        self.sides[ib][self.nbrs[ib].index(ia)] = -1


@dataclass
class Sit:
    """What a bot plans from: the board, its units, the others, the player."""

    map: Board
    mine: dict[str, dict[str, Any]]
    others: list[dict[str, Any]]
    player: str = "axis"
    _memo: dict[Any, Any] = field(default_factory=dict)

    def memo(self, key: Any, make: Any) -> Any:
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def distance(self, a: str, b: str) -> int:
        return abs(int(a[:2]) - int(b[:2])) + abs(int(a[2:]) - int(b[2:]))

    def nearest(self, label: str, targets: Any) -> int:
        return min((self.distance(label, t) for t in targets), default=999)


def barbarossa_objectives(axis: Collection[str]) -> list[Any]:
    """europa-barbarossa's objective hexes (``Game.objectives()``'s hex, value and holder)
    with those in ``axis`` held by the Axis, the rest by the Soviets."""
    from types import SimpleNamespace
    hexes = {"5422": 6, "3306": 5, "3446": 3, "5348": 3, "5054": 2, "3663": 2, "3326": 1,
             "3429": 1, "3928": 1, "3431": 1, "2631": 1, "1618": 1, "4671": 1}
    return [SimpleNamespace(hex=h, value=v, holder="axis" if h in axis else "soviet")
            for h, v in hexes.items()]
