"""Revised Third Reich orders in the rules' words, and where on the map each acts (issue 26).

:func:`describe` is the ``describe`` hook of the ``third_reich`` rule system: every command kind
told as the rules and the counters name things ("Germany: offensive in the East (15 BRPs)",
"Air stage: 5-4 German air fleet to H36", "Retreat to D3"), with a short form for a button.
:func:`places` is the ``places`` hook: the hex a command attacks or enters, where it ends, the
hexes it passes and the units it names, so a page highlights and draws it without knowing the
command's arguments. Both only read; neither raises on a malformed command (a page describes
what it is given, the referee judges it).

>>> from grognard.engine.commands import Command
>>> places(Command("move", "axis", {"unit": "ger-inf1", "path": ["N34", "N35"]}))
Places(target=None, to='N35', path=('N34', 'N35'), units=('ger-inf1',))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.orders import Words, and_list, as_list, hex_name, plural
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
_SR_KIND = {"land": "SR", "sea": "sea SR", "fleet": "fleet SR", "air_landing": "air-landing SR"}
_BUILD = {"infantry_factors": "infantry factor", "armor_factors": "armor factor",
          "air_factors": "air factor", "airborne_factors": "airborne factor",
          "naval_fleets": "fleet", "replacements": "replacement"}


def power_name(p: object) -> str:
    s = str(p)
    return _NAMES.get(s, s.replace("_", " ").title())


def _country(c: object) -> str:
    s = str(c)
    return _NAMES.get(s, s.replace("_", " ").title())




def _map(v: object) -> Mapping[str, Any]:
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


def _units(state: JSON, ids: Iterable[object]) -> str:
    return and_list(unit_name(state, u) for u in ids)



def _options_cost(state: JSON, options: Mapping[str, str]) -> int | None:
    try:
        from grognard.third_reich.turn.options import options_cost

        econ = state.get("economy") or {}
        year = econ.get("year")
        if year is None:
            from grognard.third_reich.board import economy_of

            year = economy_of(state).year
        return int(options_cost(dict(options), int(year)))
    except Exception:  # a description never fails: the cost is left out
        return None


def _dow_cost(state: JSON, power: str, minors: list[str], majors: list[str]) -> int | None:
    try:
        from grognard.third_reich.turn.options import dow_cost

        paid = (state.get("dow_minor_paid") or {}).get(power) == state.get("turn")
        return int(dow_cost(len(minors), len(majors), paid))
    except Exception:
        return None


def _acting_power(state: JSON, cmd: Command) -> str:
    p = cmd.args.get("power")
    if isinstance(p, str):
        return p
    sides = state.get("power_sides") or {}
    eco = ((state.get("economy") or {}).get("summary") or {})
    for power, side in sides.items():
        if side == cmd.player and power in eco:
            return str(power)
    return cmd.player


def _options(state: JSON, cmd: Command) -> Words:
    opts = cmd.args.get("options")
    if not isinstance(opts, Mapping):
        opts = {k: v for k, v in cmd.args.items() if k in FRONTS}
    power = power_name(_acting_power(state, cmd))
    by: dict[str, list[str]] = {}
    for front in ("eastern", "western", "southern"):
        if front in opts:
            by.setdefault(str(opts[front]), []).append(FRONTS[front])
    for front, o in opts.items():
        if front not in FRONTS:
            by.setdefault(str(o), []).append(str(front))
    parts = [f"{o} in {and_list(fs)}" if o != "pass" else f"pass in {and_list(fs)}"
             for o, fs in sorted(by.items(), key=lambda kv: ("offensive", "attrition",
                                                              "pass").index(kv[0])
                                 if kv[0] in ("offensive", "attrition", "pass") else 3)]
    cost = _options_cost(state, {str(k): str(v) for k, v in opts.items()})
    what = "; ".join(parts) or "no option"
    brps = f" ({cost} BRPs)" if cost is not None else ""
    short = ", ".join(f"{FRONTS.get(str(f), str(f)).replace('the ', '')} {o}"
                      for f, o in opts.items())
    return Words(f"{power}: {what}{brps}", f"{short}{brps}")


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
    if k == "declare_options":
        return _options(state, cmd)
    if k == "declare_war":
        power = _acting_power(state, cmd)
        minors, majors = as_list(a.get("minors")), as_list(a.get("majors"))
        cost = _dow_cost(state, power, minors, majors)
        on = and_list([_country(x) for x in minors + majors])
        brps = f" ({cost} BRPs)" if cost is not None else ""
        return Words(f"{power_name(power)} declares war on {on}{brps}", f"War on {on}{brps}")
    if k == "move":
        path = as_list(a.get("path"))
        to = str(a["to"]) if a.get("to") else (path[-1] if path else "?")
        t = f"Move {u(state, a.get('unit'))} to {h(to)}"
        steps = "" if not path else f" ({plural(len(path), 'hex')}" + (
            f" via {', '.join(path[:-1])})" if len(path) > 1 else ")")
        return Words(t + steps, f"to {to}")
    if k == "sr":
        kind = _SR_KIND.get(str(a.get("kind") or "land"), "SR")
        via = f" via {h(a['via'])}" if a.get("via") else ""
        t = f"{kind}: {u(state, a.get('unit'))} to {h(a.get('to'))}{via}"
        return Words(t[0].upper() + t[1:], f"{kind} to {a.get('to')}")
    if k == "air_stage":
        return Words(f"Air stage: {u(state, a.get('unit'))} to {h(a.get('to'))}",
                     f"stage to {a.get('to')}")
    if k == "airdrop":
        esc = as_list(a.get("escorts"))
        t = f"Air drop: {u(state, a.get('unit'))} on {h(a.get('to'))}"
        if esc:
            t += f", escorted by {_units(state, esc)}"
        return Words(t, f"drop on {a.get('to')}")
    if k == "attack":
        att = as_list(a.get("attackers"))
        air = as_list(a.get("air"))
        fleets = as_list(a.get("fleets")) + as_list(a.get("fleet"))
        t = f"Attack {h(a.get('hex'))} with {_units(state, att) or 'no ground unit'}"
        if air or fleets:
            t += f"; support: {_units(state, air + fleets)}"
        if a.get("advance") is False:
            t += "; no advance"
        return Words(t, f"attack {a.get('hex')} ({plural(len(att), 'unit')}"
                        + (f", {len(air) + len(fleets)} support" if air or fleets else "") + ")")
    if k == "retreat":
        return Words(f"Retreat to {h(a.get('to'))}", f"retreat to {a.get('to')}")
    if k == "defensive_air":
        air = as_list(a.get("defensive_air"))
        return Words(f"Defensive air support: {_units(state, air) or 'none'}",
                     f"defensive air: {len(air)}" if air else "no defensive air")
    if k == "intercept":
        ints = [x for key in ("interceptors", "air_interceptors") for x in as_list(a.get(key))]
        return Words(f"Intercept with {_units(state, ints)}" if ints else "Do not intercept",
                     f"intercept ({len(ints)})" if ints else "no interception")
    if k == "attrition":
        f = FRONTS.get(str(a.get("front")), str(a.get("front")))
        return Words(f"{side}: attrition in {f}", f"attrition in {f}")
    if k == "land_losses":  # TR-32: the loser's units lost to a land CRT result
        lost = as_list(a.get("units"))
        return Words(f"Lose {_units(state, lost)} (land-combat losses)", f"lose {len(lost)}")
    if k == "advance":  # TR-32: the attacker's advance after combat
        going = as_list(a.get("units"))
        return Words(f"Advance {_units(state, going)} after combat" if going else
                     "No advance after combat", f"advance {len(going)}" if going else "no advance")
    if k == "remove_losses":
        lost = as_list(a.get("units"))
        return Words(f"Remove {_units(state, lost)} (attrition losses)" if lost else
                     "Remove no unit", f"remove {len(lost)}")
    if k == "take_hexes":
        hexes = as_list(a.get("hexes"))
        adv = _map(a.get("advance"))
        t = f"Take {and_list(h(x) for x in hexes)}" if hexes else "Take no hex"
        if adv:
            t += "; advance " + "; ".join(f"{_units(state, as_list(v))} into {hx}"
                                          for hx, v in adv.items())
        return Words(t, t if len(t) < 40 else f"take {len(hexes)} hexes")
    if k == "withdraw":
        ret = _map(a.get("retreats"))
        cut = _map(a.get("cut_off"))
        parts = [f"{u(state, x)} to {h(to)}" if to else f"{u(state, x)} removed"
                 for x, to in {**ret, **cut}.items()]
        return Words("Withdraw: " + ("; ".join(parts) or "each unit to its first hex"),
                     f"withdraw ({len(parts)})" if parts else "withdraw")
    if k == "save_attrition_losses":
        saves = _map(a.get("saves"))
        parts = [f"{u(state, x)} for {u(state, r)}" for x, r in saves.items()]
        return Words("Save " + ("; ".join(parts) or "nothing"), f"save {len(parts)}")
    if k == "supply_check":
        bo = as_list(a.get("breakout"))
        t = "Supply check" + (f", breaking out from {and_list(h(x) for x in bo)}" if bo else "")
        return Words(t, t)
    if k == "build":
        power = power_name(_acting_power(state, cmd))
        parts = [plural(int(a[f]), word) for f, word in _BUILD.items()
                 if isinstance(a.get(f), int) and a[f]]
        return Words(f"{power} builds {and_list(parts) or 'nothing'}", f"build {and_list(parts)}")
    if k == "build_unit":
        return Words(f"Place {u(state, a.get('unit'))} in {h(a.get('hex'))}",
                     f"place in {a.get('hex')}")
    if k == "year_start":
        return Words("Run the Year Start (BRP growth, new bases)", "Year Start")
    if k == "counter_air":
        air = as_list(a.get("air"))
        return Words(f"Counter air over {h(a.get('target'))} with {_units(state, air)}",
                     f"counter air {a.get('target')}")
    if k == "naval_transport":
        t = (f"Naval transport: {_units(state, as_list(a.get('units')))} by "
             f"{_units(state, as_list(a.get('fleets')))} to {h(a.get('to'))}")
        return Words(t, f"transport to {a.get('to')}")
    if k == "invade":
        groups = a.get("groups")
        groups = groups if isinstance(groups, list) else []
        cargo = [x for g in groups if isinstance(g, Mapping)
                 for v in (g.get("cargo") or {}).values() for x in as_list(v)]
        t = f"Invade {h(a.get('beach'))}" + (f" with {_units(state, cargo)}" if cargo else "")
        return Words(t, f"invade {a.get('beach')}")
    if k == "murmansk_commit":
        parts = [plural(int(a.get(x) or 0), w) for x, w in
                 (("air", "air factor"), ("naval", "naval factor"), ("subs", "U-boat factor"))]
        return Words(f"Commit to the Murmansk box: {and_list(parts)}", f"commit {', '.join(parts)}")
    if k == "murmansk_escort":
        parts = [plural(int(a.get(x) or 0), w) for x, w in
                 (("naval", "naval factor"), ("asw", "ASW factor"))]
        return Words(f"Escort the Murmansk convoy: {and_list(parts)}", f"escort {', '.join(parts)}")
    if k == "murmansk_ship":
        brps = a.get("brps", 20)
        return Words(f"{power_name(a.get('sender'))} ships {brps} BRPs to Murmansk",
                     f"{power_name(a.get('sender'))}: ship {brps} BRPs to Murmansk")
    if k == "lend_lease":
        t = (f"Lend-lease: {power_name(a.get('sender'))} sends {a.get('amount')} BRPs to "
             f"{power_name(a.get('receiver'))}" + (f" ({str(a.get('route')).replace('_', ' ')} "
                                                   f"route)" if a.get("route") else ""))
        return Words(t, f"{a.get('amount')} BRPs to {power_name(a.get('receiver'))}")
    if k == "open_iran_route":
        return Words("Open the Persian lend-lease route", "Open the Iran route")
    if k == "sw_build":
        return Words(f"{power_name(a.get('power'))} builds "
                     f"{plural(int(a.get('factors') or 0), str(a.get('category')).rstrip('s'))}"
                     " (strategic warfare)",
                     f"SW: {a.get('factors')} {a.get('category')}")
    if k == "sw_convert":
        return Words(f"Convert {u(state, a.get('unit'))} to strategic warfare factors",
                     "convert to SW")
    if k == "sw_uboats":
        return Words(f"U-boat campaign against {power_name(a.get('target'))}",
                     f"U-boats vs {power_name(a.get('target'))}")
    if k == "sw_bombing":
        lf = a.get("losses_first")
        return Words("Strategic bombing" + (f" ({power_name(lf)} takes losses first)"
                                           if lf else ""), "bombing")
    words = k.replace("_", " ")
    return Words(f"{side}: {words}", words)


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
    if k in ("remove_losses", "land_losses", "advance"):
        return Places(None, None, (), units("units"))
    if k == "take_hexes":
        hexes = tuple(as_list(a.get("hexes")))
        return Places(hexes[0] if hexes else None, None, hexes, ())
    if k == "withdraw":
        ret = _map(a.get("retreats"))
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

