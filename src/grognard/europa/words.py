"""Europa orders in the rules' words, and where on the map each acts (issue 26).

:func:`describe` is the ``describe`` hook of the ``europa`` rule system: every command kind told
as the rules and counters name things ("Move 7 Pz (10-8-10 armor) to 0604 (3 hexes)",
"Retreat 2 hexes to 0703", "Ground support over 0704: 3 Stuka"), with a short form for a
button. :func:`places` is the ``places`` hook: the hex attacked or entered, the end hex, the
path and the units named, so a page highlights and draws an order without knowing its
arguments. Both only read and never raise on a malformed command.

>>> from grognard.engine.commands import Command
>>> places(Command("retreat", "soviet", {"units": ["su-1"], "path": ["0804", "0904"]}))
Places(target=None, to='0904', path=('0804', '0904'), units=('su-1',))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.orders import Words, and_list, as_list, hex_name, plural
from grognard.engine.state import JSON
from grognard.engine.system import Places

_MISSIONS = {"sweep": "Fighter sweep", "ground_support": "Ground support",
             "interdiction": "Interdiction", "airbase_attack": "Airbase attack",
             "strategic_bombing": "Strategic bombing"}
_REPLACEMENT = {"rebuild": "rebuild", "return_cadre": "return as a cadre",
                "return_single_step": "return (single step)"}





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


def _units(state: JSON, ids: Iterable[object]) -> str:
    ids = list(ids)
    if len(ids) > 4:
        return f"{unit_name(state, ids[0])} and {len(ids) - 1} more units"
    return and_list(unit_name(state, u) for u in ids)



def _mission(state: JSON, mid: object) -> str:
    """An assigned air mission by its kind and target (the mission id is the player's)."""
    air = state.get("air_units") if isinstance(state, Mapping) else None
    phase = (air or {}).get("phase") if isinstance(air, Mapping) else None
    for m in (phase or {}).get("missions", []) if isinstance(phase, Mapping) else []:
        if isinstance(m, Mapping) and m.get("id") == mid:
            return f"{_MISSIONS.get(str(m.get('kind')), m.get('kind'))} over {m.get('target')}"
    return f"mission {mid}"


def describe(ctx: Context, state: JSON, cmd: Command) -> Words:
    """``cmd`` in the rules' words (``text`` for forms and logs, ``short`` for buttons)."""
    a = cmd.args
    k = cmd.kind
    side = cmd.player.title()
    u = unit_name

    def h(x: object) -> str:
        return hex_name(ctx, x)

    if k == "end_phase":
        return Words(f"{side}: end the phase", "End the phase")
    if k == "move":
        path = as_list(a.get("path"))
        to = str(a["to"]) if a.get("to") else (path[-1] if path else "?")
        steps = f" ({plural(len(path), 'hex')})" if path else ""
        return Words(f"Move {u(state, a.get('unit'))} to {h(to)}{steps}", f"to {to}")
    if k == "attack":
        att = as_list(a.get("attackers"))
        return Words(f"Attack {h(a.get('defender_hex'))} with {_units(state, att)}",
                     f"attack {a.get('defender_hex')} ({plural(len(att), 'unit')})")
    if k == "overrun":
        us = as_list(a.get("units"))
        return Words(f"Overrun {h(a.get('target'))} with {_units(state, us)}",
                     f"overrun {a.get('target')}")
    if k == "retreat":
        path = as_list(a.get("path"))
        us = as_list(a.get("units"))
        end = path[-1] if path else None
        who = f"{_units(state, us)}: " if us else ""
        if end is None:
            return Words(f"{who}no retreat (EUR-15: the units stay and take the loss)",
                         "no retreat")
        return Words(f"{who}retreat {plural(len(path), 'hex')} to {h(end)}",
                     f"retreat {len(path)} to {end}")
    if k == "advance":
        us = as_list(a.get("units"))
        return Words(f"Advance after combat: {_units(state, us)}" if us
                     else "No advance after combat",
                     f"advance {len(us)}" if us else "no advance")
    if k in ("allocate_losses", "allocate_isolation_losses"):
        us = as_list(a.get("units"))
        who = f" ({a['side']})" if a.get("side") else ""
        where = f" in {h(a['hex'])}" if a.get("hex") else ""
        t = f"Take the losses{where}{who} from {_units(state, us)}" if us else \
            f"Take the losses{where}{who}"
        return Words(t, f"lose {and_list(unit_name(state, x).split(' (')[0] for x in us)}"
                     if us else "allocate losses")
    if k == "air_mission":
        us = as_list(a.get("units"))
        what = _MISSIONS.get(str(a.get("kind")), str(a.get("kind")).replace("_", " "))
        return Words(f"{what} over {h(a.get('target'))}: {_units(state, us)}",
                     f"{what.lower()} {a.get('target')}")
    if k in ("fighter_sweep", "ground_support", "interdiction", "airbase_attack",
             "strategic_bombing"):
        what = _MISSIONS.get(k if k != "fighter_sweep" else "sweep", k)
        return Words(f"Fly {_mission(state, a.get('mission'))}", f"fly {what.lower()}")
    if k == "fly_missions":
        return Words("Fly the assigned air missions", "Fly the missions")
    if k == "intercept":
        ints = as_list(a.get("interceptors"))
        t = f"Intercept {_mission(state, a.get('mission'))} with {_units(state, ints)}" if ints \
            else f"Do not intercept {_mission(state, a.get('mission'))}"
        return Words(t, f"intercept ({len(ints)})" if ints else "no interception")
    if k == "airbase_surprise":
        return Words(f"Surprise airbase attack on {h(a.get('base'))} with "
                     f"{_units(state, as_list(a.get('attackers')))}", f"hit {a.get('base')}")
    if k == "airbase_repair":
        return Words(f"Repair the airbase at {h(a.get('base'))}", f"repair {a.get('base')}")
    if k == "bonus_air_recovery":
        us = as_list(a.get("units"))
        return Words(f"Bonus air recovery: {_units(state, us)}", f"recover {len(us)}")
    if k == "take_replacement":
        act = _REPLACEMENT.get(str(a.get("action")), str(a.get("action")).replace("_", " "))
        at = f" at {h(a['hex'])}" if a.get("hex") else ""
        return Words(f"Replacement: {act} {u(state, a.get('unit'))}{at}", f"{act}{at}")
    if k == "supply_check":
        return Words("Determine supply", "Supply check")
    if k == "isolation_attrition":
        bo = as_list(a.get("break_out"))
        t = "Isolation attrition" + (f", breaking out from {and_list(h(x) for x in bo)}"
                                     if bo else "")
        return Words(t, t)
    if k == "bonus_supply_judgement":
        return Words("Use the bonus supply judgement", "Bonus supply")
    if k == "designate_surprise":
        return Words(f"Plan the surprise: {a.get('command')} on {h(a.get('centre'))}, "
                     f"level {a.get('level')}, turn {a.get('target_turn')}",
                     f"{a.get('command')}: {a.get('centre')} level {a.get('level')}")
    if k == "start_surprise":
        return Words(f"Launch the surprise attack of {a.get('command')}",
                     f"Surprise: {a.get('command')}")
    if k == "start_invasion_surprise":
        c = str(a.get("country"))
        return Words(f"Surprise invasion of {c.upper() if len(c) <= 4 else c.title()}",
                     "Invasion surprise")
    if k == "delay_surprise":
        return Words(f"Delay the surprise of {a.get('command')} by {a.get('turns')} turn(s)",
                     f"delay {a.get('command')}")
    if k == "reduce_surprise":
        return Words(f"Reduce the surprise of {a.get('command')} to level {a.get('level')}",
                     f"{a.get('command')} to level {a.get('level')}")
    if k == "move_surprise_centre":
        return Words(f"Move the surprise centre of {a.get('command')} to {h(a.get('to'))}",
                     f"centre to {a.get('to')}")
    if k == "roll_table":
        return Words(f"Roll on {str(a.get('table')).replace('_', ' ')}"
                     + (f", column {a['column']}" if a.get("column") else ""), "roll")
    words = k.replace("_", " ")
    return Words(f"{side}: {words}", words)


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
