"""What a bot reads off its own view: its units, the enemy's hexes, the objectives, distances.

Built once per decision from ``Game.view(player)`` (so nothing hidden reaches a bot) and the
scenario's public map.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from grognard.core.hexgrid import DIRECTIONS, Hex, Layout
from grognard.core.mapdata import CityClass, MapData
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.state import JSON

T = TypeVar("T")

#: up to this many targets :meth:`Situation.nearest` measures in Python, not on arrays
_FEW = 24

#: a hex and its six neighbours, as axial offsets (hex distance at most 1)
_ADJACENT: tuple[tuple[int, int], ...] = ((0, 0), *((d.q, d.r) for d in DIRECTIONS))

#: label -> hex, per map layout (labels never change; shared by every decision on that map)
_HEXES: dict[Layout, dict[str, Hex]] = {}


def destination(cmd: Command) -> str | None:
    """The hex a move-like command ends in (``to`` or the last hex of ``path``)."""
    args = cmd.args
    to = args.get("to")
    if isinstance(to, str):
        return to
    path = args.get("path")
    if isinstance(path, list) and path and isinstance(path[-1], str):
        return path[-1]
    return None


_CITIES: weakref.WeakKeyDictionary[MapData, list[tuple[str, str, int]]] = \
    weakref.WeakKeyDictionary()


def _cities(m: MapData) -> list[tuple[str, str, int]]:
    """(hex label, city name, objective value: capital 5, other 2) of every city, per map."""
    got = _CITIES.get(m)
    if got is None:
        got = _CITIES[m] = [
            (m.label(i), city.name, 5 if CityClass.CAPITAL in city.classes else 2)
            for i, cities in m.cities.items() for city in cities]
    return got


@dataclass
class Situation:
    """One player's picture of the board at one decision."""

    player: str
    context: Context
    view: JSON
    mine: dict[str, JSON] = field(default_factory=dict)
    enemy_hexes: set[str] = field(default_factory=set)
    friendly_hexes: dict[str, int] = field(default_factory=dict)
    objectives: dict[str, int] = field(default_factory=dict)
    #: the other sides' units on the map (read only)
    others: list[JSON] = field(default_factory=list)
    _hex: dict[str, Hex] = field(default_factory=dict)
    _arrays: dict[int, tuple[Any, Any, Any, list[tuple[int, int]] | None]] = field(
        default_factory=dict)
    _nearest: dict[tuple[str, int], int] = field(default_factory=dict)
    #: (label, id of a target collection) -> in contact (:meth:`in_contact`)
    _contact: dict[tuple[str, int], bool] = field(default_factory=dict)
    #: id of a target collection -> (the collection, its hexes' axial coordinates)
    _coords: dict[int, tuple[Any, set[tuple[int, int]]]] = field(default_factory=dict)
    _memo: dict[Any, Any] = field(default_factory=dict)

    def memo(self, key: Any, make: Callable[[], T]) -> T:
        """``make()`` once per decision (facts several candidates share)."""
        if key not in self._memo:
            self._memo[key] = make()
        value: T = self._memo[key]
        return value

    @classmethod
    def of(cls, context: Context, view: JSON, player: str) -> Situation:
        s = cls(player, context, view)
        s._hex = _HEXES.setdefault(context.scenario.map.layout, {})
        units = view.get("units", {}) if isinstance(view, Mapping) else {}
        # the containers as locals: this loop reads every unit of the view at each decision
        mine, friendly, count = s.mine, s.friendly_hexes, s.friendly_hexes.get
        enemy, others = s.enemy_hexes.add, s.others.append
        for uid, u in units.items():
            h = u.get("hex") if type(u) is dict or isinstance(u, Mapping) else None
            if h is None or u.get("status", "active") != "active":
                continue
            if u.get("side") == player:
                mine[uid] = u  # read only (a view may share the game's state)
                friendly[h] = count(h, 0) + 1
            else:
                enemy(str(h))
                others(u)
        s.objectives = s.view_objectives()
        return s

    @property
    def map(self) -> MapData:
        return self.context.scenario.map

    def hex(self, label: str) -> Hex:
        h = self._hex.get(label)
        if h is None:
            h = self._hex[label] = self.map.layout.from_label(label)
        return h

    def view_objectives(self) -> dict[str, int]:
        """Enemy-held cities (capitals 5, others 2), the scenario's objective hexes not held
        (``[calendar] objectives``: 5) and the enemy's hexes (1)."""
        out = {h: 1 for h in self.enemy_hexes}
        control = self.view.get("control") if isinstance(self.view, Mapping) else None
        if not isinstance(control, Mapping):
            return out
        for h in self.context.scenario.calendar.get("objectives", []) or []:
            if isinstance(h, str) and control.get(h) != self.player:
                out[h] = 5
        for label, name, value in _cities(self.map):
            owner = control.get(name)
            if owner is None or owner == self.player:
                continue
            out[label] = max(out.get(label, 0), value)
        return out

    def distance(self, a: str, b: str) -> int:
        """``core.hexgrid.distance`` of two labels' hexes, read here (the bots ask it some
        200,000 times a game)."""
        hexes = self._hex
        ha = hexes.get(a) or self.hex(a)
        hb = hexes.get(b) or self.hex(b)
        dq, dr = ha.q - hb.q, ha.r - hb.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def nearest(self, label: str, targets: Mapping[str, Any] | set[str]) -> int:
        """Hexes from ``label`` to the nearest of ``targets`` (a large number if none).

        ``targets`` must not change during the decision (the answer is remembered per target
        collection).
        """
        if not targets:
            return 999
        key = (label, id(targets))
        got = self._nearest.get(key)
        if got is None:
            arr = self._arrays.get(id(targets))
            if arr is None:
                hs = [self.hex(t) for t in targets]
                arr = self._arrays[id(targets)] = (
                    targets, np.array([h.q for h in hs]), np.array([h.r for h in hs]),
                    [(h.q, h.r) for h in hs] if len(hs) <= _FEW else None)
            h = self.hex(label)
            few = arr[3]
            if few is not None:  # a few targets (the goals): cheaper than the arrays' calls
                q, r = h.q, h.r
                got = min([(abs(q - tq) + abs(r - tr) + abs(q - tq + r - tr)) // 2
                           for tq, tr in few])
            else:
                dq, dr = arr[1] - h.q, arr[2] - h.r
                got = int(((np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2).min())
            self._nearest[key] = got
        return got

    def in_contact(self, label: str) -> bool:
        """Whether an enemy unit stands in ``label`` or next to it (``nearest`` of the enemy's
        hexes at most 1): the hex and its six neighbours looked up among the enemy's hexes'
        coordinates (kept per decision), not measured to each of them."""
        targets = self.enemy_hexes
        key = (label, id(targets))
        got = self._nearest.get(key)
        if got is not None:
            return got <= 1
        near = self._contact.get(key)
        if near is None:
            kept = self._coords.get(id(targets))
            if kept is None or kept[0] is not targets:
                kept = self._coords[id(targets)] = (
                    targets, {(h.q, h.r) for h in map(self.hex, targets)})
            at, h = kept[1], self.hex(label)
            q, r = h.q, h.r
            near = self._contact[key] = any((q + dq, r + dr) in at for dq, dr in _ADJACENT)
        return near

    def value_of_hex(self, label: str) -> int:
        return self.objectives.get(label, 0)
