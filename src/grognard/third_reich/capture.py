"""TR-22/TR-77/TR-12 in the position: city control follows the ground units, and a major's
city taken by the enemy costs its value once (TR-77; pre-war USSR cities count for TR-12).

A position module like :mod:`~grognard.third_reich.board`: the after-event rule
(:func:`capture_on_occupation`, ``play/system.py``), the withdrawal's fold
(:func:`with_hexes_taken`, ``combat/orders/withdraw.py``) and the move's preview
(:func:`capture_preview`, ``movement/orders/move.py``) share it.
"""

from __future__ import annotations

import contextlib
from typing import Any

from grognard.core.errors import IllegalOrder
from grognard.engine.events import Event, Fold, unit_writes, writes_units
from grognard.engine.state import JSON
from grognard.third_reich.board import economy_of
from grognard.third_reich.conquest.campaign_events import axis_of
from grognard.third_reich.conquest.control import OCCUPYING_EVENTS, occupy, occupy_changes, take
from grognard.third_reich.economy.economic_loss import capture_city, liberate_ussr_city
from grognard.third_reich.economy.economy import Economy, economy_json
from grognard.third_reich.turn.powers import Power


def capture_records(s: JSON, changes: list[tuple[str, str | None, str]]
                     ) -> tuple[Economy, list[dict[str, Any]]]:
    """TR-77 / TR-12: the economy after the cities in ``changes`` (name, old holder, new
    holder) change hands, and a record of each loss; ``s`` is not changed."""
    econ = economy_of(s)
    records: list[dict[str, Any]] = []
    for name, old, new in changes:
        f = s.get("cities", {}).get(name)
        if f is None or f.get("owner") not in {p.value for p in Power}:
            continue
        owner = f["owner"]
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


def capture_losses(s: JSON, changes: list[tuple[str, str | None, str]]) -> None:
    """TR-77 / TR-12: a major's city taken by the enemy; pre-war USSR cities retaken."""
    if not changes or "economy" not in s:
        return
    before = economy_of(s)
    econ, _ = capture_records(s, changes)
    if econ is not before:
        s["economy"] = economy_json(econ)


def capture_preview(state: JSON, side: str, label: str) -> list[dict[str, Any]]:
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
def capture_on_occupation(state: JSON, ev: Event) -> JSON:
    """After an event that puts ground units in new hexes (:data:`OCCUPYING_EVENTS`): every
    city holding a ground unit is its side's (TR-22 control), and a major's city taken by the
    enemy costs its value (TR-77; TR-12 for pre-war USSR cities). TR-40's withdrawal has its
    own (the hexes won pass with it: :func:`with_hexes_taken`)."""
    if ev.type not in OCCUPYING_EVENTS or ev.type == "withdrawn":
        return state
    capture_losses(state, occupy_changes(state))
    return state


def with_hexes_taken(fold: Fold) -> Fold:
    """TR-40: the cities of the hexes won by attrition pass to the attacker."""

    def folded(state: JSON, ev: Event) -> JSON:
        pend = state.get("pending_withdrawal") or {}
        hexes, side = list(pend.get("hexes", [])), pend.get("side")
        before = dict(state.get("control", {}))
        s = fold(state, ev)
        changed = take(s, hexes, side) if side else []
        changed += occupy(s)
        capture_losses(s, [(n, before.get(n), s["control"][n]) for n in dict.fromkeys(changed)])
        return s

    declared = unit_writes(fold)  # the cities' control and the economy: no unit besides
    return folded if declared is None else writes_units(declared.named, declared.fields)(folded)


__all__ = ["capture_losses", "capture_on_occupation", "capture_preview", "capture_records",
           "with_hexes_taken"]
