"""A surprise plan from an order file: designate, adjust, execute, audit (SUR-04..SUR-14).

Reads the JSON order format documented in ``docs/formats/surprise.md`` and replays it through
the plan state machine of :mod:`grognard.europa.surprise.plan`; every step's record and the
plan's ledger come back for the audit.

>>> run = run_orders({"side": "axis", "command": "AGC", "continent": "europe", "centre": "2515",
...     "level": 30, "turn": 1, "target_turn": 7,
...     "steps": [{"op": "reduce_level", "level": 10, "turn": 7}, {"op": "start", "turn": 7}]})
>>> [e["op"] for e in run.to_json()["events"]], run.plan.sp_spent
(['designate', 'reduce_level', 'start'], Fraction(367, 10))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from grognard.core.errors import InputError
from grognard.core.exact import q
from grognard.core.inputs import load_json_file
from grognard.europa.surprise.front import CentreHex, FundingKind, FundingSource
from grognard.europa.surprise.general import PlanKey, SurpriseReadings
from grognard.europa.surprise.plan import (
    DesignationOrder,
    SurprisePlan,
    delay,
    designate,
    move_centre,
    reduce_level,
    reduce_planning,
    start,
)

OPS = ("delay", "reduce_planning", "reduce_level", "move_centre", "start")


def _get(raw: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str,
         default: Any = ..., ) -> Any:
    if key not in raw or raw[key] is None:
        if default is ...:
            raise InputError(f"{where}{key}", "required")
        return default
    v = raw[key]
    if isinstance(v, bool) and kind is not bool:
        raise InputError(f"{where}{key}", f"expected {getattr(kind, '__name__', kind)}, not {v!r}")
    if not isinstance(v, kind):
        name = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise InputError(f"{where}{key}", f"expected {name}, not {v!r}")
    return v


def _exact(raw: Mapping[str, Any], key: str, where: str) -> Fraction:
    v = raw.get(key, 0)
    if isinstance(v, bool) or not isinstance(v, int | str):
        raise InputError(f"{where}{key}", f"expected an integer or an exact string, not {v!r}")
    try:
        return q(v)
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{where}{key}", f"not an exact number: {v!r}") from None


def _source(raw: Any, i: int) -> FundingSource:
    where = f"sources[{i}]."
    if not isinstance(raw, Mapping):
        raise InputError(f"sources[{i}]", "expected an object")
    kind_text = _get(raw, "kind", str, where)
    try:
        kind = FundingKind(kind_text)
    except ValueError:
        known = ", ".join(k.value for k in FundingKind)
        raise InputError(f"{where}kind", f"{kind_text!r} is not one of {known}") from None
    return FundingSource(
        kind, _exact(raw, "srp", where), _exact(raw, "sp", where), _get(raw, "label", str, where, ""),
        _get(raw, "infantry_mps_to_centre", int, where, None),
        _get(raw, "within_hq_supply_range", bool, where, False),
        _get(raw, "with_naval_units_in_port", bool, where, False))


def _centre_hex(raw: Any, label: str) -> CentreHex | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise InputError("centre_hex", "expected an object of flags")
    flags = {k: _get(raw, k, bool, "centre_hex.", False) for k in (
        "in_enemy_zoc", "in_friendly_zoc", "behind_enemy_front_line", "all_sea",
        "on_line_between_front_points")}
    unknown = set(raw) - set(flags)
    if unknown:
        raise InputError(f"centre_hex.{sorted(unknown)[0]}", "unknown flag")
    return CentreHex(label, **flags)


@dataclass(frozen=True)
class PlanRun:
    """The plan after every order, and each order's record."""

    plan: SurprisePlan
    events: tuple[tuple[str, Any], ...]
    readings: SurpriseReadings

    def to_json(self) -> dict[str, Any]:
        return {"plan": self.plan.to_json(),
                "events": [{"op": op, **rec.to_json()} for op, rec in self.events],
                "readings": self.readings.to_mapping()}


def run_orders(raw: Mapping[str, Any], active: tuple[PlanKey, ...] = ()) -> PlanRun:
    """SUR-05..SUR-11 Designate the plan of ``raw`` and apply each of its ``steps`` in order.

    Any illegal step raises (naming the step and rule); nothing is returned half-done.
    """
    if not isinstance(raw, Mapping):
        raise InputError("orders", "expected a JSON object")
    readings_raw = _get(raw, "readings", Mapping, "", {})
    readings = SurpriseReadings.from_mapping(readings_raw)
    key = PlanKey(_get(raw, "side", str, ""), _get(raw, "command", str, ""),
                  _get(raw, "continent", str, ""))
    centre = _get(raw, "centre", str, "")
    sources_raw = _get(raw, "sources", list, "", [])
    order = DesignationOrder(
        key, centre, _get(raw, "level", int, ""), turn=_get(raw, "turn", int, ""),
        target_turn=_get(raw, "target_turn", int, "", None),
        weather_trigger=_get(raw, "weather_trigger", str, "", None),
        reduced_planning=_get(raw, "reduced_planning", bool, "", False),
        sources=tuple(_source(s, i) for i, s in enumerate(sources_raw)),
        centre_hex=_centre_hex(raw.get("centre_hex"), centre))
    plan, rec = designate(order, active, readings)
    events: list[tuple[str, Any]] = [("designate", rec)]
    for i, step in enumerate(_get(raw, "steps", list, "", [])):
        where = f"steps[{i}]."
        if not isinstance(step, Mapping):
            raise InputError(f"steps[{i}]", "expected an object")
        op = _get(step, "op", str, where)
        r: Any
        if op == "delay":
            plan, r = delay(plan, _get(step, "turns", int, where, 1),
                            weather_wait=_get(step, "weather_wait", bool, where, False))
        elif op == "reduce_planning":
            plan, r = reduce_planning(plan, _get(step, "target_turn", int, where, None), readings)
        elif op == "reduce_level":
            plan, r = reduce_level(plan, _get(step, "level", int, where),
                                   _get(step, "turn", int, where), readings)
        elif op == "move_centre":
            to = _get(step, "to", str, where)
            plan, r = move_centre(plan, to, _get(step, "hexes", int, where),
                                  _centre_hex(step.get("centre_hex"), to))
        elif op == "start":
            plan, r = start(plan, _get(step, "turn", int, where),
                            _get(step, "weather_met", bool, where, None), readings)
        else:
            raise InputError(f"{where}op", f"unknown step {op!r} (known: {', '.join(OPS)})")
        events.append((op, r))
    return PlanRun(plan, tuple(events), readings)


def load_orders(path: Path | str) -> dict[str, Any]:
    """Read an order file (JSON); errors name the file."""
    p = Path(path)
    raw = load_json_file(p, "order file")
    if not isinstance(raw, dict):
        raise InputError(str(p), "expected a JSON object")
    return raw
