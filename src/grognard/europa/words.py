"""Europa orders in the rules' words: the vocabulary the Orders share (issue 26).

Each Order tells itself and says where it acts, beside its rule: its ``describe`` ("Move 7 Pz
(10-8-10 armor) to 0604 (3 hexes)", "Retreat 2 hexes to 0703", "Ground support over 0704: 3
Stuka") and its ``places`` (the hex attacked or entered, the end hex, the path and the units
named, so a page highlights and draws an order without knowing its arguments). The system's
hooks are :func:`grognard.engine.system.describe_of` and
:func:`~grognard.engine.system.places_of` over its Orders. This module holds what they share: a
unit as its counter reads (:func:`unit_name`), an assigned air mission
(:func:`mission_words`), the loss allocations' words, the generic table roll's, and the
arguments read as hexes and units. Nothing here raises on a malformed command.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.orders import Words, and_list, as_list, hex_name
from grognard.engine.system import Places
from grognard.europa.state_types import EuropaState

#: The air missions as the rules name them (EUR-23).
MISSIONS = {"sweep": "Fighter sweep", "ground_support": "Ground support",
             "interdiction": "Interdiction", "airbase_attack": "Airbase attack",
             "strategic_bombing": "Strategic bombing"}


def unit_name(state: EuropaState, uid: object) -> str:
    """A unit as its counter reads: "AGN inf 1 (6-7-6 infantry)"."""
    u = (state.get("units") or {}).get(str(uid)) if isinstance(state, Mapping) else None
    if not isinstance(u, Mapping):
        return str(uid)
    vals = [u.get(k) for k in ("attack", "defense", "movement")]
    factors = "-".join(str(v) for v in vals if v is not None)
    kind = str(u.get("type") or "").replace("_", " ")
    name = str(u.get("name") or uid)
    inside = " ".join(x for x in (factors, kind) if x)
    return f"{name} ({inside})" if inside else name


def units_words(state: EuropaState, ids: Iterable[object]) -> str:
    """Units as their counters read, in a list (more than four: the first and a count)."""
    ids = list(ids)
    if len(ids) > 4:
        return f"{unit_name(state, ids[0])} and {len(ids) - 1} more units"
    return and_list(unit_name(state, u) for u in ids)


def mission_words(state: EuropaState, mid: object) -> str:
    """An assigned air mission by its kind and target (the mission id is the player's): this
    air phase's flight (EUR-23: ``state["air"]["flights"]``), else its kind as assigned.

    >>> mission_words({"turn": 1, "phase": 2, "air": {"key": [1, 2], "missions": [["m1",
    ...     "ground_support"]], "flights": [{"id": "m1", "kind": "ground_support",
    ...     "target": "0704"}]}}, "m1")
    'ground support over 0704'
    """
    air = state.get("air") if isinstance(state, Mapping) else None
    if not isinstance(air, Mapping) or air.get("key") != [state.get("turn"), state.get("phase")]:
        return f"mission {mid}"  # no mission assigned in this air phase
    for f in air.get("flights") or []:
        if f.get("id") == mid:
            return f"{MISSIONS.get(f['kind'], f['kind']).lower()} over {f['target']}"
    for m, kind in air.get("missions") or []:
        if m == mid:
            return f"{MISSIONS.get(kind, kind).lower()} mission {mid}"
    return f"mission {mid}"


def losses_words(ctx: Context, state: EuropaState, cmd: Command) -> Words:
    """An allocation of losses in words: combat (EUR-12) or isolation attrition (EUR-32)."""
    a = cmd.args
    us = as_list(a.get("units"))
    who = f" ({a['side']})" if a.get("side") else ""
    where = f" in {hex_name(ctx, a['hex'])}" if a.get("hex") else ""
    t = f"Take the losses{where}{who} from {units_words(state, us)}" if us else \
        f"Take the losses{where}{who}"
    return Words(t, f"lose {and_list(unit_name(state, x).split(' (')[0] for x in us)}"
                 if us else "allocate losses")


def roll_table(ctx: Context, state: EuropaState, cmd: Command) -> Words:
    """The generic table roll (a designer's tool) in words."""
    a = cmd.args
    return Words(f"Roll on {str(a.get('table')).replace('_', ' ')}"
                 + (f", column {a['column']}" if a.get("column") else ""), "roll")


def label_of(cmd: Command, key: str) -> str | None:
    """A hex argument as its label (None unless a non-empty string)."""
    v = cmd.args.get(key)
    return str(v) if isinstance(v, str) and v else None


def named_units(cmd: Command, *keys: str) -> tuple[str, ...]:
    """The units an order names under ``keys`` (a list or one id), each once, in order.

    >>> named_units(Command("retreat", "soviet", {"units": ["su-1", "su-2", "su-1"]}), "units")
    ('su-1', 'su-2')
    """
    return tuple(dict.fromkeys(x for key in keys for x in as_list(cmd.args.get(key))))


def path_places(cmd: Command, *unit_keys: str) -> Places:
    """Where an order along a path acts (a move, a retreat): it ends at ``to`` or the path's
    last hex, passing the path; its units are those named under ``unit_keys``."""
    path = tuple(as_list(cmd.args.get("path")))
    to = label_of(cmd, "to") or (path[-1] if path else None)
    return Places(None, to, path or ((to,) if to else ()), named_units(cmd, *unit_keys))
