"""TR-22/TR-77/TR-12 in the position: city control follows the ground units, and a major's
city taken by the enemy costs its value once (TR-77; pre-war USSR cities count for TR-12).

A position module like :mod:`~grognard.third_reich.board`: the after-event rule
(:func:`capture_on_occupation`, ``play/system.py``), the withdrawal's fold
(:func:`with_hexes_taken`, ``combat/orders/withdraw.py``) and the move's preview
(:func:`capture_preview`, ``movement/orders/move.py``) share it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from grognard.core.errors import IllegalOrder
from grognard.core.units import GROUND_TYPES
from grognard.engine.events import Event, Fold, UnitWrites, unit_writes, writes_units
from grognard.engine.state import JSON
from grognard.third_reich.board import economy_of
from grognard.third_reich.conquest.campaign_events import axis_of
from grognard.third_reich.conquest.control import OCCUPYING_EVENTS, occupy, occupy_changes, take
from grognard.third_reich.economy.economic_loss import capture_city, liberate_ussr_city
from grognard.third_reich.economy.economy import Economy, economy_json
from grognard.third_reich.state_types import PendingWithdrawal, TRState
from grognard.third_reich.turn.powers import Power

#: the major powers' names (a city's owner is one of them)
_POWER_NAMES = frozenset(p.value for p in Power)


def capture_records(s: TRState, changes: list[tuple[str, str | None, str]]
                     ) -> tuple[Economy, list[dict[str, Any]]]:
    """TR-77 / TR-12: the economy after the cities in ``changes`` (name, old holder, new
    holder) change hands, and a record of each loss; ``s`` is not changed."""
    econ = economy_of(s)
    records: list[dict[str, Any]] = []
    for name, old, new in changes:
        f = s.get("cities", {}).get(name)
        if f is None or f.get("owner") not in _POWER_NAMES:
            continue
        owner = cast(str, f["owner"])
        own_side = s["power_sides"].get(owner)
        if new != own_side and old == own_side and (Power(owner) in econ.powers
                                                    or owner == "ussr"):
            econ, loss = capture_city(econ, owner, name, f["classes"])
            records.append(loss.to_json())
        elif owner == "ussr" and new == own_side and old == axis_of(s) and \
                econ.balance("ussr.axis_cities") > 0:
            with contextlib.suppress(IllegalOrder):
                econ = liberate_ussr_city(econ, name, f["classes"])
                records.append({"power": "ussr", "city": name, "rule": "TR-12",
                                "liberated": True})
    return econ, records


def capture_losses(s: TRState, changes: list[tuple[str, str | None, str]]) -> None:
    """TR-77 / TR-12: a major's city taken by the enemy; pre-war USSR cities retaken."""
    if not changes or "economy" not in s:
        return
    before = economy_of(s)
    econ, _ = capture_records(s, changes)
    if econ is not before:
        s["economy"] = economy_json(econ)


def capture_preview(state: TRState, side: str, label: str) -> list[dict[str, Any]]:
    """TR-77 / TR-12: what a ``side`` ground unit entering hex ``label`` takes (the cities there
    it does not hold): the records the occupying fold's losses will have, for the event that
    causes them (a player sees why the BRPs fell)."""
    if "economy" not in state:
        return []
    control = state.get("control", {})
    changes = [(n, control.get(n), side)
               for n in (state.get("city_hexes") or {}).get(label, []) if control.get(n) != side]
    return capture_records(state, changes)[1] if changes else []


@writes_units()
def capture_on_occupation(state: TRState, ev: Event) -> JSON:
    """After an event that puts ground units in new hexes (:data:`OCCUPYING_EVENTS`): every
    city holding a ground unit is its side's (TR-22 control), and a major's city taken by the
    enemy costs its value (TR-77; TR-12 for pre-war USSR cities). TR-40's withdrawal has its
    own (the hexes won pass with it: :func:`with_hexes_taken`). Every unit is looked at; the
    game's rule (:class:`OccupationRule`) looks only where the events moved units."""
    if ev.type not in OCCUPYING_EVENTS or ev.type == "withdrawn":
        return state
    capture_losses(state, occupy_changes(state))
    return state


#: The unit fields whose change can change who holds a city (TR-22: an active ground unit's
#: hex and side).
OCCUPY_FIELDS = frozenset({"hex", "status", "type", "side"})


class _Occupied:
    """What :class:`OccupationRule` knows of one unit table since its last look: the active
    ground units standing in city hexes (``at``: uid -> hex, ``by_hex``: hex -> uids), the
    cities' control as it left it, whether every such unit's side then held its hex's cities
    (``consistent``), and the units the events folded since may have written (``dirty``;
    None: any unit)."""

    __slots__ = ("at", "by_hex", "consistent", "control", "dirty", "hexes", "units")

    def __init__(self, units: Any, hexes: Any) -> None:
        self.units, self.hexes = units, hexes
        self.at: dict[str, str] = {}
        self.by_hex: dict[str, set[str]] = {}
        self.consistent = False
        self.control: dict[str, Any] = {}
        self.dirty: set[str] | None = None


class OccupationRule:
    """:func:`capture_on_occupation` as the game's after-event rule, looking only where the
    events moved units (issue 22): the same changes of control, in the same order, and so the
    same losses.

    The whole-table pass (:func:`~grognard.third_reich.conquest.control.occupy_changes`)
    changes nothing while every active ground unit in a city hex is of the side holding its
    cities. So the rule follows each unit table it sees (by identity, the last few): the units
    the folds of every event since its last look declare they wrote
    (:class:`~grognard.engine.events.UnitWrites`), and where the active ground units in city
    hexes stand. At an occupying event, when control was consistent at its last look and the
    cities' control is as it left it, only the city hexes the written units stand in can
    change: none - nothing changes; one, held by units of one side - its cities go to that
    side, in the order the pass gives them; otherwise (several hexes, a hex of two sides, an
    undeclared write, another table) it makes the whole pass and looks again at every unit."""

    unit_writes = UnitWrites()  # it writes the cities' control and the economy, no unit

    def __init__(self, folds: Callable[[], Mapping[str, Fold]],
                 after: Callable[[], Sequence[tuple[str, Fold]]]) -> None:
        self._folds, self._after = folds, after
        self._followed: list[_Occupied] = []
        self._others_write: bool | None = None

    def _others_may_move_units(self) -> bool:
        """Whether another after-event rule may write a unit's hex, status, type or side."""
        if self._others_write is None:
            self._others_write = False
            for _name, rule in self._after():
                if rule is self:
                    continue
                w = unit_writes(rule)
                if w is None or w.named is not None or not w.fields.isdisjoint(OCCUPY_FIELDS):
                    self._others_write = True
        return self._others_write

    def _seen(self, units: Any, hexes: Any) -> _Occupied | None:
        for k in self._followed:
            if k.units is units and k.hexes is hexes:
                return k
        return None

    def __call__(self, state: TRState, ev: Event) -> JSON:
        units, hexes = state.get("units"), state.get("city_hexes") or {}
        kept = self._seen(units, hexes)
        if kept is not None and kept.dirty is not None:
            w = unit_writes(self._folds().get(ev.type))
            if w is None or not w.fields.isdisjoint(OCCUPY_FIELDS):
                kept.dirty = None
            elif w.named is not None:
                kept.dirty.update(w.named(ev))
        if ev.type not in OCCUPYING_EVENTS or ev.type == "withdrawn":
            return state
        if not hexes:
            return state
        control = state["control"]
        changes = None
        if kept is not None and kept.dirty is not None and kept.consistent and \
                kept.control == control:
            changes = self._near(kept, units, hexes, control)
        if changes is None or kept is None:
            changes = occupy_changes(state)
            kept = self._look(units, hexes, control)
        elif changes:
            kept.control = dict(control)
        kept.dirty = None if self._others_may_move_units() else set()
        capture_losses(state, changes)
        return state

    def _near(self, kept: _Occupied, units: Any, hexes: Any, control: dict[str, Any]
              ) -> list[tuple[str, str | None, str]] | None:
        """The pass's changes from the written units' city hexes (None: make the pass)."""
        assert kept.dirty is not None
        touched: set[str] = set()
        for uid in kept.dirty:
            old = kept.at.pop(uid, None)
            if old is not None:
                kept.by_hex[old].discard(uid)
            u = units.get(uid)
            if u is not None and u.get("hex") in hexes and u["status"] == "active" and \
                    u["type"] in GROUND_TYPES:
                kept.at[uid] = u["hex"]
                kept.by_hex.setdefault(u["hex"], set()).add(uid)
                touched.add(u["hex"])
        if not touched:
            return []
        if len(touched) > 1:
            return None
        (h,) = touched
        sides = {units[uid]["side"] for uid in kept.by_hex[h]}
        if len(sides) != 1:
            return None
        (side,) = sides
        changes: list[tuple[str, str | None, str]] = []
        for name in hexes[h]:
            old = control.get(name)
            if old != side:
                control[name] = side
                changes.append((name, old, side))
        return changes

    def _look(self, units: Any, hexes: Any, control: dict[str, Any]) -> _Occupied:
        """Follow ``units`` afresh: every active ground unit in a city hex, whether control
        is consistent (each such hex of one side, every city named in one hex only)."""
        kept = self._seen(units, hexes)
        if kept is None:
            kept = _Occupied(units, hexes)
            self._followed.insert(0, kept)
            del self._followed[4:]
        kept.at, kept.by_hex = {}, {}
        for uid, u in units.items():
            if u.get("hex") in hexes and u["status"] == "active" and u["type"] in GROUND_TYPES:
                kept.at[uid] = u["hex"]
                kept.by_hex.setdefault(u["hex"], set()).add(uid)
        names = [n for ns in hexes.values() for n in ns]
        kept.consistent = len(names) == len(set(names)) and all(
            len({units[uid]["side"] for uid in ids}) == 1 for ids in kept.by_hex.values())
        kept.control = dict(control)
        return kept


def with_hexes_taken(fold: Fold) -> Fold:
    """TR-40: the cities of the hexes won by attrition pass to the attacker."""

    def folded(state: TRState, ev: Event) -> TRState:
        pend = state.get("pending_withdrawal") or cast(PendingWithdrawal, {})
        hexes, side = list(pend.get("hexes", [])), pend.get("side")
        before = dict(state.get("control", {}))
        s: TRState = fold(state, ev)
        changed = take(s, hexes, side) if side else []
        changed += occupy(s)
        capture_losses(s, [(n, before.get(n), s["control"][n]) for n in dict.fromkeys(changed)])
        return s

    declared = unit_writes(fold)  # the cities' control and the economy: no unit besides
    return folded if declared is None else writes_units(declared.named, declared.fields)(folded)


__all__ = ["OCCUPY_FIELDS", "OccupationRule", "capture_losses", "capture_on_occupation", "capture_preview", "capture_records",
           "with_hexes_taken"]
