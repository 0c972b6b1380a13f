"""Revised Third Reich orders in the rules' words: the shared vocabulary, and where on the map
each order acts (issue 26).

Each Order tells itself (its ``describe``, beside its rule: "Germany: offensive in the East
(15 BRPs)", "Air stage: 5-4 German air fleet to H36", "Retreat to D3"); the system's
``describe`` hook is :func:`grognard.engine.system.describe_of` over its Orders. This module
holds what they share: the fronts, powers and countries as the rules name them, a unit as its
counter reads (:func:`unit_name`), and the acting power. :func:`places` is the ``places``
hook: the hex a command attacks or enters, where it ends, the hexes it passes and the units it
names, so a page highlights and draws it without knowing the command's arguments. Nothing here
raises on a malformed command (a page describes what it is given, the referee judges it).

>>> from grognard.engine.commands import Command
>>> places(Command("move", "axis", {"unit": "ger-inf1", "path": ["N34", "N35"]}))
Places(target=None, to='N35', path=('N34', 'N35'), units=('ger-inf1',))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from grognard.engine.commands import Command
from grognard.engine.orders import and_list, as_list
from grognard.engine.state import JSON
from grognard.engine.system import Places

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


def unit_name(state: JSON, uid: object) -> str:
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


def units_words(state: JSON, ids: Iterable[object]) -> str:
    """Units as their counters read, in a list ("4-6 German armor and 3-3 German infantry")."""
    return and_list(unit_name(state, u) for u in ids)


def acting_power(state: JSON, cmd: Command) -> str:
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


def places(cmd: Command) -> Places:
    """Where ``cmd`` acts: the hex attacked or entered, the end hex, the path, its units."""
    a = cmd.args
    k = cmd.kind

    def units(*keys: str) -> tuple[str, ...]:
        out: list[str] = []
        for key in keys:
            v = a.get(key)
            if isinstance(v, Mapping):
                out += [str(x) for x in v]
            else:
                out += as_list(v)
        return tuple(dict.fromkeys(out))

    if k == "move":
        path = tuple(as_list(a.get("path")))
        to = str(a["to"]) if a.get("to") else (path[-1] if path else None)
        return Places(None, to, path or ((to,) if to else ()), units("unit"))
    if k in ("sr", "air_stage"):
        to = str(a["to"]) if a.get("to") else None
        via = (str(a["via"]),) if a.get("via") else ()
        return Places(None, to, (*via, to) if to else via, units("unit"))
    if k == "airdrop":
        to = str(a["to"]) if a.get("to") else None
        return Places(to, to, (to,) if to else (), units("unit", "escorts"))
    if k == "attack":
        t = str(a["hex"]) if a.get("hex") else None
        return Places(t, None, (), units("attackers", "air", "fleet", "fleets"))
    if k == "retreat":
        to = str(a["to"]) if a.get("to") else None
        return Places(None, to, (to,) if to else (), ())
    if k == "counter_air":
        t = str(a["target"]) if a.get("target") else None
        return Places(t, None, (), units("air"))
    if k == "naval_transport":
        to = str(a["to"]) if a.get("to") else None
        return Places(None, to, (to,) if to else (), units("units", "fleets", "escorts"))
    if k == "invade":
        b = str(a["beach"]) if a.get("beach") else None
        return Places(b, b, (b,) if b else (), units("air"))
    if k == "build_unit":
        to = str(a["hex"]) if a.get("hex") else None
        return Places(None, to, (), units("unit"))
    if k == "remove_losses":
        return Places(None, None, (), units("units"))
    if k == "take_hexes":
        hexes = tuple(as_list(a.get("hexes")))
        return Places(hexes[0] if hexes else None, None, hexes, ())
    if k == "withdraw":
        ret = map_arg(a.get("retreats"))
        return Places(None, None, tuple(str(v) for v in ret.values() if v), units("retreats"))
    if k in ("defensive_air",):
        return Places(None, None, (), units("defensive_air"))
    if k == "intercept":
        return Places(None, None, (), units("interceptors", "air_interceptors"))
    if k in ("sw_convert",):
        return Places(None, None, (), units("unit"))
    if k == "save_attrition_losses":
        return Places(None, None, (), units("saves"))
    return Places()

