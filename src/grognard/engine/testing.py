"""Conformance checks every rule system's tests share (and bots or servers may reuse).

* :func:`assert_rejected`: an illegal order is refused with a matching reason and leaves the
  game exactly as it was (state hash, command log, dice streams).
* :func:`apply_or_unchanged`: apply an order if legal; if not, check nothing changed.
* :func:`assert_replays`: a save reloads byte-identical and replays to the same state.
* :func:`end_phase`: end the phase as its player would, first making each owed decision that
  has one legal answer (a Europa supply check).
* :func:`small_game`: a game on a small hand-drawn map, its units given as dicts, advanced to
  the phase a test needs (rule tests build their positions with it).
* :func:`type_errors`: where a JSON value (a state, an event's payload) breaks its declared
  type (a ``TypedDict`` of a system's ``state_types``): an undeclared or missing key, a value
  of the wrong type.

>>> from grognard.engine.commands import Command
>>> g = Game.new("demo-europa", seed=1)
>>> str(assert_rejected(g, Command("move", "soviet", {"unit": "su-23tank", "path": ["1004"]}),
...                     "axis's movement phase"))
"SEQ: it is axis's movement phase; soviet may not act"
>>> assert_replays(g)
"""

from __future__ import annotations

import json
import re
import types
import typing
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin

from grognard.core.errors import GrognardError
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.save import dumps, loads
from grognard.engine.scenario import parse_scenario


def _fingerprint(game: Game) -> tuple[str, int, object]:
    return game.state_hash(), len(game.commands), game.dice.snapshot()


def assert_rejected(game: Game, cmd: Command, match: str) -> GrognardError:
    """``cmd`` is refused (``can`` says no, ``apply`` raises an error matching ``match``) and
    the game is untouched. Returns the error."""
    before = _fingerprint(game)
    if game.can(cmd):
        raise AssertionError(f"{cmd.kind} was expected to be illegal but can() accepts it")
    try:
        game.apply(cmd)
    except GrognardError as exc:
        err = exc
    else:
        raise AssertionError(f"{cmd.kind} was expected to be illegal but was applied")
    if not re.search(match, str(err)):
        raise AssertionError(f"error {str(err)!r} does not match {match!r}")
    if _fingerprint(game) != before:
        raise AssertionError(f"the refused {cmd.kind} changed the game")
    return err


def apply_or_unchanged(game: Game, cmd: Command) -> bool:
    """Apply ``cmd`` if it is legal (True); otherwise check it changed nothing (False)."""
    before = _fingerprint(game)
    try:
        game.apply(cmd)
    except GrognardError:
        if _fingerprint(game) != before:
            raise AssertionError(f"the refused {cmd.kind} changed the game") from None
        return False
    return True


def assert_replays(game: Game) -> None:
    """Save, reload (byte-identical) and replay: the same state and hash."""
    text = dumps(game)
    again = loads(text)
    if again.state_hash() != game.state_hash() or again.state != game.state:
        raise AssertionError("the reloaded save replays to a different state")
    if dumps(again) != text:
        raise AssertionError("the reloaded save is not byte-identical")


def _toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return str(v)
    return json.dumps(str(v))  # a TOML basic string


def small_game(system: str, grid: str, units: Iterable[Mapping[str, object]], *,
               legend: Mapping[str, str] | None = None, sides: tuple[str, ...] = ("axis", "soviet"),
               sections: str = "", until: tuple[str, str] | None = None, seed: int = 1) -> Game:
    """A ``system`` game on the hex ``grid`` (one character a hex, rows top to bottom, numeric
    odd-q labels from 0101; ``legend`` maps characters to terrain, default ``.`` clear and
    ``m`` mountain) with ``units`` (each a dict of its ``[[units]]`` keys); ``sections`` is
    more scenario TOML (``[europa]``, ``[calendar]``, readings). With ``until`` = (phase name,
    player) phases are ended until that one is open.

    >>> g = small_game("generic", "...", [{"id": "u", "side": "axis", "type": "infantry",
    ...                "attack": 1, "defense": 1, "movement": 2, "hex": "0101"}])
    >>> g.state["units"]["u"]["hex"]
    '0101'
    """
    legend = legend or {".": "clear", "m": "mountain"}
    lines = ["[scenario]", 'id = "small-test"', 'title = "small test map"',
             f"system = {_toml_value(system)}", f"sides = {json.dumps(list(sides))}",
             f"seed = {seed}", "", sections, "", "[map]",
             'layout = { offset = "odd-q", style = "numeric", origin = 1 }',
             "legend = { " + ", ".join(f"{json.dumps(k)} = {json.dumps(v)}"
                                       for k, v in legend.items()) + " }",
             'grid = """', grid.strip("\n"), '"""']
    for u in units:
        lines += ["", "[[units]]", *(f"{k} = {_toml_value(v)}" for k, v in u.items())]
    g = Game.new(parse_scenario("\n".join(lines) + "\n"), seed=seed)
    while until is not None and (g.phase.name, g.phase.player) != until:
        g.apply(Command("end_phase", g.phase.player))
    return g


def end_phase(game: Game) -> None:
    """End the current phase as its player would: each decision owed first, answered by its
    first legal command (the Europa supply phase's check, EUR-30; isolation attrition without
    a Break Out, EUR-32), then ``end_phase``."""
    for _ in range(32):
        owed = game.decisions()
        if not owed:
            game.apply(Command("end_phase", game.active()[0]))
            return
        d = owed[0]
        options = [c for k in sorted(d.kinds) for c in game.legal(d.player, k)]
        if not options:
            raise AssertionError(f"{d.prompt}: no legal answer")
        game.apply(options[0])
    raise AssertionError("the phase keeps owing decisions")


# --- declared types, checked at run time (tests only) ------------------------------------------


@cache
def _fields(td: type) -> tuple[dict[str, object], frozenset[str]]:
    """A TypedDict's fields (their types, NotRequired/Required taken off) and its required
    keys. Computed from the hints rather than ``__required_keys__``, which Python 3.11 gets
    wrong in a module with ``from __future__ import annotations``."""
    hints = typing.get_type_hints(td, include_extras=True)
    fields: dict[str, object] = {}
    required: set[str] = set()
    total = bool(getattr(td, "__total__", True))
    for name, hint in hints.items():
        origin = get_origin(hint)
        if origin is NotRequired:
            hint = get_args(hint)[0]
        elif origin is Required:
            hint = get_args(hint)[0]
            required.add(name)
        elif total:
            required.add(name)
        fields[name] = hint
    return fields, frozenset(required)


_SCALARS: dict[object, type] = {int: int, str: str, bool: bool, type(None): type(None),
                                None: type(None)}


def _name(t: object) -> str:
    return t.__name__ if isinstance(t, type) else str(t).replace("typing.", "")


def type_errors(value: object, declared: object, where: str = "state", *,
                limit: int = 20) -> list[str]:
    """Where ``value`` (JSON: dicts, lists, strings, whole numbers, booleans, null) does not
    conform to ``declared``: a ``TypedDict`` (every required key present, no undeclared key,
    each value of its field's type), ``dict[str, X]``, ``list[X]``, ``X | Y``, ``Literal``,
    ``int``/``str``/``bool``/``None`` (a bool is not an int), or ``Any``. Each error is one
    line naming the path; at most ``limit`` are returned ([]: it conforms).

    >>> from typing import TypedDict
    >>> class Unit(TypedDict):
    ...     hex: str
    ...     steps: int
    >>> type_errors({"hex": "0101", "steps": True, "colour": "red"}, Unit, "unit")
    ['unit.colour: undeclared key', 'unit.steps: expected int, got bool (True)']
    """
    out: list[str] = []
    _check(value, declared, where, out, limit)
    return out[:limit]


def _shape(t: object) -> type | None:
    """The JSON container a declared type stands for (dict or list), if any."""
    if typing.is_typeddict(t) or get_origin(t) is dict:
        return dict
    return list if get_origin(t) is list else None


def _check(v: object, t: object, where: str, out: list[str], limit: int) -> bool:
    """Append ``v``'s errors against ``t`` to ``out``; True if it conforms."""
    if len(out) >= limit:
        return False
    if t is Any:
        return True
    scalar = _SCALARS.get(t)
    if scalar is not None:
        if type(v) is scalar:
            return True
        out.append(f"{where}: expected {_name(t)}, got {type(v).__name__} ({v!r:.60})")
        return False
    if typing.is_typeddict(t):
        if type(v) is not dict:
            out.append(f"{where}: expected a {_name(t)} record, got {type(v).__name__}")
            return False
        fields, required = _fields(t)
        ok = True
        for key in sorted(v.keys() - fields.keys(), key=str):
            out.append(f"{where}.{key}: undeclared key")
            ok = False
        for key in sorted(required - v.keys()):
            out.append(f"{where}.{key}: missing (declared required)")
            ok = False
        for key, val in v.items():
            if key in fields:
                ok = _check(val, fields[key], f"{where}.{key}", out, limit) and ok
        return ok
    origin, args = get_origin(t), get_args(t)
    if origin is Union or origin is types.UnionType:
        for arm in args:
            if _check(v, arm, where, [], limit):
                return True
        alike = [arm for arm in args if _shape(arm) is type(v)]
        if len(alike) == 1:  # one arm of the value's shape: say what is wrong inside it
            return _check(v, alike[0], where, out, limit)
        out.append(f"{where}: expected {_name(t)}, got {type(v).__name__} ({v!r:.60})")
        return False
    if origin is Literal:
        if v in args and type(v) in {type(a) for a in args}:
            return True
        out.append(f"{where}: expected one of {list(args)}, got {v!r:.60}")
        return False
    if origin is list:
        if type(v) is not list:
            out.append(f"{where}: expected a list, got {type(v).__name__}")
            return False
        ok = True
        for i, x in enumerate(v):
            ok = _check(x, args[0] if args else Any, f"{where}[{i}]", out, limit) and ok
        return ok
    if origin is dict:
        if type(v) is not dict:
            out.append(f"{where}: expected a dict, got {type(v).__name__}")
            return False
        kt, vt = args if args else (str, Any)
        ok = True
        for key, x in v.items():
            ok = _check(key, kt, f"{where} key", out, limit) and ok
            ok = _check(x, vt, f"{where}.{key}", out, limit) and ok
        return ok
    raise TypeError(f"{where}: cannot check against {t!r}")
