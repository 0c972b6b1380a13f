"""Revised Third Reich orders in the rules' words: the vocabulary the Orders share (issue 26).

Each Order tells itself and says where it acts, beside its rule: its ``describe`` ("Germany:
offensive in the East (15 BRPs)", "Air stage: 5-4 German air fleet to H36", "Retreat to D3")
and its ``places`` (the hex it attacks or enters, where it ends, the hexes it passes, the units
it names, so a page highlights and draws it without knowing the command's arguments). The
system's hooks are :func:`grognard.engine.system.describe_of` and
:func:`~grognard.engine.system.places_of` over its Orders. This module holds what they share:
the fronts, powers and countries as the rules name them, a unit as its counter reads
(:func:`unit_name`), the acting power, and the arguments read as hexes and units. Nothing here
raises on a malformed command (a page describes what it is given, the referee judges it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from grognard.engine.commands import Command
from grognard.engine.orders import and_list, as_list
from grognard.engine.system import Places
from grognard.third_reich.state_types import TRState

#: TR-03: the fronts as the rules name them (the map's regions).
FRONTS = {"eastern": "the East", "western": "the West", "southern": "the Mediterranean"}
#: the powers and countries as the rules name them
_NAMES = {"ussr": "the USSR", "uk": "Britain", "us": "the US", "usa": "the US"}
_TYPES = {"air": "air fleet", "naval": "fleet", "armor": "armor", "infantry": "infantry",
          "airborne": "airborne", "replacement": "replacement", "bomber": "bomber",
          "interceptor": "interceptor"}
_ADJ = {"german": "German", "italian": "Italian", "soviet": "Soviet", "russian": "Soviet",
        "british": "British", "french": "French", "american": "American", "polish": "Polish"}


def power_name(p: object) -> str:
    """A power as the rules name it ("the USSR", "Britain", "Germany")."""
    s = str(p)
    return _NAMES.get(s, s.replace("_", " ").title())


def country_name(c: object) -> str:
    """A country as the rules name it ("the USSR", "Britain", "Yugoslavia")."""
    s = str(c)
    return _NAMES.get(s, s.replace("_", " ").title())


def map_arg(v: object) -> Mapping[str, Any]:
    """An argument read as a mapping (anything else: empty)."""
    return v if isinstance(v, Mapping) else {}


def unit_name(state: TRState, uid: object) -> str:
    """A unit as its counter reads: its name, else strength-range, nationality and type
    ("4-6 German armor", "5-4 German air fleet")."""
    u = (state.get("units") or {}).get(str(uid)) if isinstance(state, Mapping) else None
    if not isinstance(u, Mapping):
        return str(uid)
    if u.get("name"):
        return str(u["name"])
    kind = _TYPES.get(str(u.get("type")), str(u.get("type") or "unit"))
    nat = str(u.get("nationality") or "")
    adj = _ADJ.get(nat, nat.replace("_", " ").title())
    a, m = u.get("attack"), u.get("movement")
    factors = f"{a}-{m} " if a is not None and m is not None and str(u.get("type")) != "naval" \
        else (f"{a}-factor " if a is not None else "")
    return f"{factors}{adj} {kind}".replace("  ", " ").strip()


def units_words(state: TRState, ids: Iterable[object]) -> str:
    """Units as their counters read, in a list ("4-6 German armor and 3-3 German infantry")."""
    return and_list(unit_name(state, u) for u in ids)


def acting_power(state: TRState, cmd: Command) -> str:
    """The power an order acts for: its ``power``, else the player's power with an economy."""
    p = cmd.args.get("power")
    if isinstance(p, str):
        return p
    sides = state.get("power_sides") or {}
    eco = ((state.get("economy") or {}).get("summary") or {})
    for power, side in sides.items():
        if side == cmd.player and power in eco:
            return str(power)
    return cmd.player


def label_of(cmd: Command, key: str) -> str | None:
    """A hex argument as its label (None when absent or empty)."""
    v = cmd.args.get(key)
    return str(v) if v else None


def named_units(cmd: Command, *keys: str) -> tuple[str, ...]:
    """The units an order names under ``keys`` (a list, one id, or a mapping's keys), each
    once, in order.

    >>> named_units(Command("attack", "axis", {"attackers": ["a", "b"], "air": "a"}),
    ...             "attackers", "air")
    ('a', 'b')
    """
    out: list[str] = []
    for key in keys:
        v = cmd.args.get(key)
        if isinstance(v, Mapping):
            out += [str(x) for x in v]
        else:
            out += as_list(v)
    return tuple(dict.fromkeys(out))


def via_places(cmd: Command) -> Places:
    """Where an order to a hex, perhaps by way of another, acts (an SR, an air staging): it
    ends at ``to``, passing ``via``; its unit is ``unit``."""
    to = label_of(cmd, "to")
    via = (str(cmd.args["via"]),) if cmd.args.get("via") else ()
    return Places(None, to, (*via, to) if to else via, named_units(cmd, "unit"))
