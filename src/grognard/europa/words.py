"""Europa orders in the rules' words: the shared vocabulary, and where on the map each order acts
(issue 26).

Each Order tells itself (its ``describe``, beside its rule: "Move 7 Pz (10-8-10 armor) to 0604
(3 hexes)", "Retreat 2 hexes to 0703", "Ground support over 0704: 3 Stuka"); the system's
``describe`` hook is :func:`grognard.engine.system.describe_of` over its Orders. This module
holds what they share: a unit as its counter reads (:func:`unit_name`), an assigned air mission
(:func:`mission_words`), the loss allocations' words, and the generic table roll's.
:func:`places` is the ``places`` hook: the hex attacked or entered, the end hex, the path and
the units named, so a page highlights and draws an order without knowing its arguments.
Nothing here raises on a malformed command.

>>> from grognard.engine.commands import Command
>>> places(Command("retreat", "soviet", {"units": ["su-1"], "path": ["0804", "0904"]}))
Places(target=None, to='0904', path=('0804', '0904'), units=('su-1',))
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.orders import Words, and_list, as_list, hex_name
from grognard.engine.state import JSON
from grognard.engine.system import Places

#: The air missions as the rules name them (EUR-23).
MISSIONS = {"sweep": "Fighter sweep", "ground_support": "Ground support",
             "interdiction": "Interdiction", "airbase_attack": "Airbase attack",
             "strategic_bombing": "Strategic bombing"}


def unit_name(state: JSON, uid: object) -> str:
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


def units_words(state: JSON, ids: Iterable[object]) -> str:
    """Units as their counters read, in a list (more than four: the first and a count)."""
    ids = list(ids)
    if len(ids) > 4:
        return f"{unit_name(state, ids[0])} and {len(ids) - 1} more units"
    return and_list(unit_name(state, u) for u in ids)


def mission_words(state: JSON, mid: object) -> str:
    """An assigned air mission by its kind and target (the mission id is the player's)."""
    air = state.get("air_units") if isinstance(state, Mapping) else None
    phase = (air or {}).get("phase") if isinstance(air, Mapping) else None
    for m in (phase or {}).get("missions", []) if isinstance(phase, Mapping) else []:
        if isinstance(m, Mapping) and m.get("id") == mid:
            return f"{MISSIONS.get(str(m.get('kind')), m.get('kind'))} over {m.get('target')}"
    return f"mission {mid}"


def losses_words(ctx: Context, state: JSON, cmd: Command) -> Words:
    """An allocation of losses in words: combat (EUR-12) or isolation attrition (EUR-32)."""
    a = cmd.args
    us = as_list(a.get("units"))
    who = f" ({a['side']})" if a.get("side") else ""
    where = f" in {hex_name(ctx, a['hex'])}" if a.get("hex") else ""
    t = f"Take the losses{where}{who} from {units_words(state, us)}" if us else \
        f"Take the losses{where}{who}"
    return Words(t, f"lose {and_list(unit_name(state, x).split(' (')[0] for x in us)}"
                 if us else "allocate losses")


def roll_table(ctx: Context, state: JSON, cmd: Command) -> Words:
    """The generic table roll (a designer's tool) in words."""
    a = cmd.args
    return Words(f"Roll on {str(a.get('table')).replace('_', ' ')}"
                 + (f", column {a['column']}" if a.get("column") else ""), "roll")


def places(cmd: Command) -> Places:
    """Where ``cmd`` acts: the hex attacked or entered, the end hex, the path, its units."""
    a = cmd.args
    k = cmd.kind

    def units(*keys: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(x for key in keys for x in as_list(a.get(key))))

    def one(key: str) -> str | None:
        v = a.get(key)
        return str(v) if isinstance(v, str) and v else None

    if k in ("move", "retreat"):
        path = tuple(as_list(a.get("path")))
        to: str | None = one("to") or (path[-1] if path else None)
        return Places(None, to, path or ((to,) if to else ()), units("unit", "units"))
    if k == "attack":
        return Places(one("defender_hex"), None, (), units("attackers"))
    if k == "overrun":
        t = one("target")
        return Places(t, t, (t,) if t else (), units("units"))
    if k == "air_mission":
        return Places(one("target"), None, (), units("units"))
    if k == "airbase_surprise":
        return Places(one("base"), None, (), units("attackers"))
    if k == "airbase_repair":
        return Places(one("base"), None, (), ())
    if k in ("advance", "allocate_losses", "allocate_isolation_losses", "bonus_air_recovery"):
        return Places(one("hex"), None, (), units("units"))
    if k == "intercept":
        return Places(None, None, (), units("interceptors"))
    if k == "take_replacement":
        return Places(None, one("hex"), (), units("unit"))
    if k == "designate_surprise":
        return Places(one("centre"), None, (), ())
    if k == "move_surprise_centre":
        return Places(None, one("to"), (), ())
    return Places()
