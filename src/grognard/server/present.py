"""What the page shows of an order, through the rule-system hooks only (issue 26).

Each legal command goes to the page with its words (``Game.describe``: the rules' words, a
short form for buttons) and its places on the map (``Game.places``: target, destination, path,
units), so neither this server nor the page's script knows any system's argument names. When a
unit has no legal order, :func:`why_stuck` asks the rules why: it tries the kind's documented
example shape on the unit and its neighbouring hexes and reports the rules' refusals
(``IllegalOrder(rule, reason)``), as the CLI reports a refused order.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from grognard.core.errors import GrognardError
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.system import Places
from grognard.server.dice import _dice_in

#: a hex label as the shipped maps write them ("0504", "B6", "AD53")
HEX_LIKE = re.compile(r"^[A-Z]{0,2}\d{2,4}$")


def places_json(p: Places) -> dict[str, Any]:
    return {"target": p.target, "to": p.to, "path": list(p.path), "units": list(p.units)}


def entry(game: Game, cmd: Command) -> dict[str, Any]:
    """A legal command as the page gets it: kind, args (for sending back), words, places."""
    words = game.describe(cmd).to_json()
    return {"kind": cmd.kind, "args": dict(cmd.args), "words": words,
            "places": places_json(game.places(cmd))}


def units_of(game: Game, cmd: Command) -> tuple[str, ...]:
    return game.places(cmd).units


def _shaped(example: Any, unit: str, hexes: list[str]) -> list[Any]:
    """The example's arguments with its unit replaced by ``unit`` and its hex (or list of
    hexes) by each of ``hexes``: one candidate per hex (no argument is named)."""
    out = []
    for h in hexes:
        def sub(v: Any, h: str = h) -> Any:
            if isinstance(v, str):
                return h if HEX_LIKE.match(v) else unit
            if isinstance(v, list):
                return [sub(x) for x in v[:1]]
            if isinstance(v, Mapping):
                return {k: sub(x) for k, x in v.items()}
            return v
        out.append(sub(example))
    return out


def why_stuck(game: Game, player: str, unit: str, kind: str = "move") -> str:
    """Why ``unit`` has no legal ``kind`` order now, in the rules' words."""
    units = game.state.get("units") or {}
    u = units.get(unit)
    if not isinstance(u, Mapping) or u.get("side") != player:
        return "not a unit of yours"
    if player not in game.active():
        return f"not your turn: {game.prompt(player)}"
    if kind not in game.allowed(player):
        return f"no {kind.replace('_', ' ')} in this phase: {game.prompt(player)}"
    spec = game.system.commands.get(kind)
    where = u.get("hex")
    if spec is None or not spec.example or not isinstance(where, str):
        return f"no legal {kind.replace('_', ' ')} for this unit now"
    m = game.scenario.map
    try:
        i = m.index_of_label(where)
    except (KeyError, ValueError):
        return f"no legal {kind.replace('_', ' ')} for this unit now"
    hexes = [m.label(int(j)) for j in m.neighbor_indices(i)]
    example = dict(spec.example.get("args", spec.example))
    reasons: Counter[str] = Counter()
    for args in _shaped(example, unit, hexes):
        try:
            game.verify(Command(kind, player, args))
        except GrognardError as exc:
            text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            rule = getattr(exc, "rule", None)
            if rule and not text.startswith(str(rule)):
                text = f"{rule}: {text}"
            reasons[text] += 1
    if not reasons:
        return f"no legal {kind.replace('_', ' ')} for this unit now"
    return "; ".join(r for r, _n in reasons.most_common(2))


def public_order(game: Game, cmd: Command, seen: list[dict[str, Any]], after: Any,
                 i: int) -> bool:
    """May a seat read another side's command ``i`` in words? Only when it saw every one of
    its events exactly as they happened (nothing redacted) and every unit it names is on the
    seat's view: the order's words then tell nothing the seat could not see."""
    full = [e.to_json() for e in game.events[i]]
    if not full or seen != full:
        return False
    units = after.get("units", {}) if isinstance(after, Mapping) else {}
    return all(u in units and not units[u].get("hidden") for u in units_of(game, cmd))


RULE_PREFIX = re.compile(r"\b([A-Z]{2,4})-\d")


def result_key(game: Game) -> list[dict[str, Any]]:
    """The result codes of the game's combat tables in the tables' own words (each table's
    ``legend``): the tables whose rule IDs carry the prefix the system's commands cite."""
    prefixes = {m.group(1) for spec in game.system.commands.values()
                for m in RULE_PREFIX.finditer(spec.help or "")}
    out = []
    for tid in sorted(game.context.tables.keys()):
        t = game.context.tables.table(tid)
        legend = (t.meta or {}).get("legend") if isinstance(t.meta, Mapping) else None
        if not isinstance(legend, Mapping) or not t.columns:
            continue
        cited = {m.group(1) for r in t.rule_ids if (m := RULE_PREFIX.match(str(r)))}
        if not cited & prefixes:
            continue
        out.append({"title": str(t.title).split(" - ")[0],
                    "codes": {str(k): str(v) for k, v in legend.items()}})
    return out


#: where events record the dice the referee rolled for them (leaves or lists of ints)
ROLL_KEY = re.compile(r"(^|_)(roll|rolls|dice|die)$")


def _names(value: Any, out: dict[str, str]) -> dict[str, str]:
    """Every ``{id: {"name": ...}}`` the seat's events carry: ids to names for the log."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            if isinstance(v, Mapping) and isinstance(v.get("name"), str):
                out[str(k)] = v["name"]
            _names(v, out)
    elif isinstance(value, list):
        for v in value:
            _names(v, out)
    return out


def _ints(v: Any) -> list[int] | None:
    if type(v) is int:
        return [v]
    if isinstance(v, list) and v and all(type(x) is int for x in v):
        return list(v)
    return None


def roll_lines(events: list[dict[str, Any]], after: Any = None) -> list[str]:
    """The referee's rolls in the seat's events, one line each, in words: who rolled (the
    names the events and the seat's view give), the dice, and the hits they scored, e.g.
    ``battle fire in 0703, round 1, allies (defender): 2. Rifle Corps 4 1 4 — 1 hit``.
    Only what the seat may see reaches here (``Game.events_for``); no argument is named
    beyond the dice, ``hits`` and a few generic scalars."""
    names = _names(events, {})
    units = after.get("units", {}) if isinstance(after, Mapping) else {}
    for uid, u in units.items():
        if isinstance(u, Mapping) and isinstance(u.get("name"), str):
            names.setdefault(str(uid), u["name"])
    out = []
    for e in events:
        d = e.get("data") or {}
        if not isinstance(d, Mapping):
            continue
        rolls: list[str] = []
        for k, v in d.items():
            if not ROLL_KEY.search(str(k)):
                continue
            dice = _ints(v)
            if type(v) is int and str(k).endswith(("dice", "rolls")):
                continue  # a count of dice, not a roll
            if dice is not None:
                label = ROLL_KEY.sub("", str(k)).replace("_", " ")  # "air_rolls": "air"
                rolls.append((f"{label} " if label else "") + " ".join(map(str, dice)))
            elif isinstance(v, Mapping):
                for who, dv in v.items():
                    dd = _ints(dv)
                    if dd is not None:
                        rolls.append(f"{names.get(str(who), str(who))} "
                                     + " ".join(map(str, dd)))
        hits = d.get("hits")
        if not rolls and type(hits) is not int:
            continue
        if type(hits) is not int and _dice_in(e):
            continue  # the entry's dice already show these
        head = str(e.get("type", "")).replace("_", " ")
        if isinstance(d.get("hex"), str):
            head += f" in {d['hex']}"
        if type(d.get("round")) is int:
            head += f", round {d['round']}"
        if isinstance(d.get("side"), str):
            head += f", {d['side']}" + (f" ({d['role']})" if isinstance(d.get("role"), str)
                                        else "")
        said = [f"{k.replace('_', ' ')} {v.replace('_', ' ')}" for k, v in d.items()
                if isinstance(v, str) and k not in ("hex", "side", "role", "result")
                and not HEX_LIKE.match(v) and len(v) < 20 and k not in names]
        text = head + ": " + ("rolled " + "; ".join(rolls) if rolls else "no dice")
        if type(hits) is int:
            text += f" — {hits} hit" + ("" if hits == 1 else "s")
        if said:
            text += " (" + ", ".join(said) + ")"
        out.append(text)
    return out
