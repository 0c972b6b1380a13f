"""TR-27/TR-28 ("ZOCs and changes to land movement"): the 3R rule layer over the map layer.

The map mechanism (ZOC fields, per-edge costs, ranges) is :mod:`grognard.core.zoc` and
:mod:`grognard.core.movement` with their ``third_reich_*()`` presets; this module says which
3R units exert ZOCs and move how, and gives the per-move rule functions a referee calls:

* every ground unit exerts a soft ZOC into its six neighbours (air units and fleets do not:
  reading of "all units" in the land movement section); :func:`zoc_hexes`;
* entering an enemy ZOC costs +1 MP (:func:`zoc_entry_cost`), infantry must stop there
  (:func:`must_stop`), armor may go on;
* swamp/mountain 2 MP for infantry, all MPs for armor, river hexside +1, everything else 1;
  a unit may always move one hex (:func:`minimum_move_ok`), even ZOC to ZOC;
* mud halves armor MA, rounding down (:func:`movement_allowance`);
* movement phases per option and weather (:func:`movement_phases`): only armor moves in the
  mechanized movement phase (reading: 3R4's mechanized movement is for armor units), never into
  swamp or mountain; an airborne unit that air-landed does not move again that turn (TR-51).

>>> from grognard.core.mapgen import map_from_rows
>>> from grognard.third_reich.turn.forces import GroundKind
>>> m = map_from_rows(["ccccc"])
>>> inf = GroundUnit("i", "german", Side.AXIS, GroundKind.INFANTRY, 2, 4)
>>> foe = GroundUnit("f", "french", Side.ALLIES, GroundKind.INFANTRY, 2, 3)
>>> move_range(m, inf, "0101", [("0101", inf), ("0501", foe)]).cost_to("0401")  # 3 hexes + 1 ZOC
4
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from grognard.core.errors import InputError, member, parse_enum
from grognard.core.mapdata import MapData
from grognard.core.memo import IdentityMemo
from grognard.core.movement import (
    MoveClass,
    MovementPhase,
    MoveRange,
    SpecialCost,
    edge_cost,
    edge_costs,
    movement_range,
    third_reich_movement,
    third_reich_movement_allowance,
)
from grognard.core.paths import Forces, HexRef, Purpose, hex_index
from grognard.core.zoc import ZocField, third_reich_zoc, zoc_field
from grognard.third_reich.turn.calendar import Weather
from grognard.third_reich.turn.forces import GroundUnit, Side
from grognard.third_reich.turn.options import (
    DEFAULT_OPTION_READINGS,
    Declared,
    Front,
    Option,
    OptionReadings,
    OptionRefusal,
    acting_option,
)
from grognard.third_reich.turn.sequence import Phase, front_phases

_ALL = 1e9
Placed = tuple[HexRef, GroundUnit]


def exerts_zoc(unit: Any) -> bool:
    """TR-27 Every ground unit (infantry, armor, airborne, marine, replacement) has a soft ZOC;
    air units and fleets are not land units and have none (reading)."""
    return isinstance(unit, GroundUnit)


def move_class(unit: GroundUnit) -> MoveClass:
    """TR-27/TR-28 Armor moves as mechanized; every other ground unit (airborne and marines
    included) as infantry."""
    return MoveClass.MECHANIZED if unit.is_armor else MoveClass.FOOT


def movement_allowance(unit: GroundUnit, weather: Weather | str = Weather.CLEAR) -> int:
    """TR-28 Seasons do not change movement; mud halves armor MA (fractions round down).

    >>> from grognard.third_reich.turn.forces import GroundKind
    >>> pz = GroundUnit("pz", "german", Side.AXIS, GroundKind.ARMOR, 4, 5)
    >>> movement_allowance(pz, "mud"), movement_allowance(pz, "snow")
    (2, 5)
    """
    w = parse_enum(Weather, weather, "weather")
    return third_reich_movement_allowance(unit.movement, unit.is_armor, w is Weather.MUD)


def movement_phases(option: Option | str, weather: Weather | str = Weather.CLEAR
                    ) -> tuple[MovementPhase, ...]:
    """TR-02/TR-28 The movement phases a front has this turn: the ordinary movement phase under
    every option, the mechanized one only under the offensive option in clear weather (snow and
    mud remove the mechanized phases)."""
    phases = front_phases(option, weather)
    out = [MovementPhase.NORMAL]
    if Phase.MECH_MOVEMENT in phases:
        out.append(MovementPhase.MECHANIZED)
    return tuple(out)


def mech_move_refusal(declared: Declared, power: str, front: Front | str,
                      patron_of: Mapping[str, str], side_majors: Iterable[str] = (),
                      readings: OptionReadings = DEFAULT_OPTION_READINGS
                      ) -> OptionRefusal | None:
    """TR-03 ("An offensive option ... allows all phases, air and naval missions, mechanized
    movement and combat phases"), TR-22, issue 23: a power's armor moves in the mechanized
    movement phase only under that power's own offensive option on the front, never under
    an ally's (the side's widest option opens the phase, not each power's movement); a minor
    ally's under its patron's option (``minor_option``: or the widest of ``side_majors``).
    None when ``power``'s units may make their mechanized move on ``front``.

    >>> d = {"uk": {"western": "offensive"}, "france": {"western": "pass"}}
    >>> mech_move_refusal(d, "uk", "western", {}) is None
    True
    >>> mech_move_refusal(d, "france", "western", {}).reason
    "france's option on the western front is pass, not offensive: no mechanized movement"
    >>> mech_move_refusal(d, "poland", "western", {"poland": "uk"}) is None
    True
    """
    opt = acting_option(declared, power, front, patron_of, side_majors, readings)
    if opt is Option.OFFENSIVE:
        return None
    f = Front(front).value
    under = f" (under {patron_of[power]}'s option)" if power in patron_of else ""
    return OptionRefusal("TR-03", f"{power}'s option on the {f} front is {opt.value}{under}, "
                                  "not offensive: no mechanized movement")


def may_move_in_phase(unit: GroundUnit, phase: MovementPhase | str,
                      air_landed_this_turn: bool = False) -> bool:
    """TR-28/TR-51/TR-52 Who moves in a movement phase: every ground unit in the ordinary
    phase, only armor in the mechanized phase; an airborne unit that air-landed this turn
    makes no other move."""
    ph = parse_enum(MovementPhase, phase, "phase")
    if air_landed_this_turn:
        return False
    return ph is MovementPhase.NORMAL or unit.is_armor


def forces(m: MapData, placed: Sequence[Placed]) -> Forces:
    """TR-27 Pack ground units into the map layer's :class:`Forces` (ZOC class 1 each)."""
    return Forces.build(m, [h for h, _ in placed], [str(u.side) for _, u in placed],
                        zoc_class=[1 if exerts_zoc(u) else 0 for _, u in placed],
                        ids=[u.id for _, u in placed],
                        side_names=[str(Side.AXIS), str(Side.ALLIES)])


def enemy_zoc(m: MapData, placed: Sequence[Placed], side: Side | str,
              closed_countries: Iterable[str] = ()) -> ZocField:
    """TR-27 The enemy ZOC field as seen by ``side``: out of but not into swamp, mountain and
    fortress; not across sea or impassable hexsides; not across the borders of
    ``closed_countries`` (countries not yet at war with the side)."""
    s = parse_enum(Side, side, "side")
    return zoc_field(m, forces(m, placed), str(s), third_reich_zoc(),
                     closed_countries=closed_countries)


def zoc_hexes(m: MapData, at: HexRef, closed_countries: Iterable[str] = ()) -> list[str]:
    """TR-27 The hexes a ground unit at ``at`` puts in its ZOC (labels, map order)."""
    h = hex_index(m, at, "at")
    f = Forces.build(m, [h], ["enemy"], side_names=["friend", "enemy"])
    z = zoc_field(m, f, "friend", third_reich_zoc(), closed_countries=closed_countries)
    return z.hexes(Purpose.MOVEMENT)


def zoc_entry_cost(zoc: ZocField, to_hex: HexRef) -> int:
    """TR-27 Entering an enemy ZOC costs +1 MP (friendly units there do not negate it);
    leaving one costs nothing."""
    return int(zoc.contains(hex_index(zoc.map, to_hex, "to_hex"), Purpose.MOVEMENT))


def must_stop(unit: GroundUnit, zoc: ZocField, to_hex: HexRef) -> bool:
    """TR-27 Infantry entering an enemy ZOC stops for the phase; armor may go on."""
    return (not unit.is_armor) and zoc_entry_cost(zoc, to_hex) == 1


def _edge(m: MapData, a: int, b: int) -> int:
    """The map's edge (CSR position) from hex ``a`` to its neighbour ``b``."""
    rows = _EDGE_ROWS.get(m, _edge_rows)
    got = rows.get((a, b))
    if got is None:
        raise InputError("to_hex", f"{m.label(b)} is not adjacent to {m.label(a)}")
    return got


def _edge_rows(m: MapData) -> dict[tuple[int, int], int]:
    """Each edge's CSR position by its (from, to) hexes, the first of a row (once per map: a
    path is checked step by step)."""
    src = m.edge_sources().tolist()
    out: dict[tuple[int, int], int] = {}
    for e, (a, b) in enumerate(zip(src, m.indices.tolist(), strict=True)):
        out.setdefault((a, b), e)
    return out


_EDGE_ROWS: IdentityMemo[MapData, dict[tuple[int, int], int]] = IdentityMemo(4)


_RULES = third_reich_movement()
_COSTS: list[tuple[tuple[Any, ...], Any]] = []


def _costs_key(m: MapData, cls: MoveClass, zoc: ZocField | None, phase: MovementPhase
               ) -> tuple[Any, ...]:
    """What :func:`_edge_costs` are known by (see there)."""
    if zoc is None:
        return (m, cls, phase, None, None, None, None)
    friendly = zoc.friendly if Purpose.MOVEMENT in zoc.rules.negated_for else None
    return (m, cls, phase, zoc.rules, zoc.strength, zoc.enemy, friendly)


def _kept_costs(key: tuple[Any, ...]) -> Any:
    """The remembered :func:`_edge_costs` of ``key`` (None: not among the last few)."""
    m, cls, phase, rules, strength, enemy, friendly = key
    for k, w in _COSTS:  # the key's parts by identity (its arrays are compared so)
        if k[4] is strength and k[5] is enemy and k[6] is friendly and k[0] is m and \
                k[1] is cls and k[2] is phase and k[3] is rules:
            return w
    return None


def _edge_costs(m: MapData, cls: MoveClass, zoc: ZocField | None,
                phase: MovementPhase) -> Any:
    """:func:`edge_costs` with the 3R rules, remembered for the last few (map, class, ZOC
    field, phase): a path is checked step by step against the same field. A ZOC field is
    known by the arrays the costs read (its strengths and enemy-held hexes, and its friendly
    hexes only when they negate a ZOC for movement), so fields that share them (the move
    check's enemy part, kept across a side's moves) share the costs."""
    key = _costs_key(m, cls, zoc, phase)
    w = _kept_costs(key)
    if w is not None:
        return w
    w = edge_costs(m, cls, zoc, _RULES, phase=phase)
    _COSTS.insert(0, (key, w))
    del _COSTS[8:]
    return w


def move_cost(m: MapData, unit: GroundUnit, from_hex: HexRef, to_hex: HexRef,
              zoc: ZocField | None = None,
              phase: MovementPhase | str = MovementPhase.NORMAL) -> int | SpecialCost:
    """TR-27/TR-28 The MP cost of one step: 1, +1 across a river, swamp/mountain 2 for
    infantry and ``ALL`` MPs for armor (``PROHIBITED`` in the mechanized phase), +1 into an
    enemy ZOC; sea/impassable hexsides, water and enemy-held hexes are ``PROHIBITED``."""
    a, b = hex_index(m, from_hex, "from_hex"), hex_index(m, to_hex, "to_hex")
    e = _edge(m, a, b)
    cls, ph = move_class(unit), member(MovementPhase, phase)
    # the whole map's costs when they are at hand, else this step's alone (the same value)
    kept = _kept_costs(_costs_key(m, cls, zoc, ph))
    w = float(kept[e]) if kept is not None else edge_cost(m, cls, zoc, _RULES, e, phase=ph)
    if not np.isfinite(w):
        return SpecialCost.PROHIBITED
    if w >= _ALL:
        return SpecialCost.ALL
    return int(w)


def minimum_move_ok(m: MapData, unit: GroundUnit, from_hex: HexRef, to_hex: HexRef,
                    zoc: ZocField | None = None,
                    phase: MovementPhase | str = MovementPhase.NORMAL) -> bool:
    """TR-28 A unit may always move one hex in a movement phase whatever the MP cost, even
    ZOC to ZOC, but not across impassable terrain (a sea hexside), into an enemy-held hex, or
    (armor) into swamp/mountain in the mechanized phase."""
    if not may_move_in_phase(unit, phase):
        return False
    return move_cost(m, unit, from_hex, to_hex, zoc, phase) is not SpecialCost.PROHIBITED


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """TR-27/TR-28: a checked path: MPs spent and whether it is legal."""

    legal: bool
    mp: int
    allowance: int
    reason: str = ""


def check_path(m: MapData, unit: GroundUnit, path: Sequence[HexRef], zoc: ZocField,
               phase: MovementPhase | str = MovementPhase.NORMAL,
               weather: Weather | str = Weather.CLEAR) -> MoveCheck:
    """TR-27/TR-28 Check a move hex by hex: each step's cost, infantry stopping on entering an
    enemy ZOC, "all MPs" terrain only as the whole move, the one-hex minimum move."""
    if len(path) < 2:
        raise InputError("path", "a move needs at least two hexes")
    ma = movement_allowance(unit, weather)
    if not may_move_in_phase(unit, phase):
        return MoveCheck(False, 0, ma, f"{unit.id} does not move in the {phase} phase")
    if ma < 1:
        return MoveCheck(False, 0, ma, f"{unit.id} has no movement allowance")
    spent = 0
    for k in range(1, len(path)):
        c = move_cost(m, unit, path[k - 1], path[k], zoc, phase)
        step = f"{path[k - 1]}->{path[k]}"
        if c is SpecialCost.PROHIBITED:
            return MoveCheck(False, spent, ma, f"step {step} is prohibited")
        if k > 1 and must_stop(unit, zoc, path[k - 1]):
            return MoveCheck(False, spent, ma, f"infantry stops on entering the enemy ZOC "
                             f"at {path[k - 1]}")
        if len(path) == 2:  # the one-hex move: always allowed
            return MoveCheck(True, ma if c is SpecialCost.ALL else min(int(c), ma), ma)
        if c is SpecialCost.ALL:
            return MoveCheck(False, spent, ma, f"{path[k]} costs all MPs: a one-hex move only")
        spent += int(c)
        if spent > ma:
            return MoveCheck(False, spent, ma, f"needs {spent} MPs, has {ma}")
    return MoveCheck(True, spent, ma)


def move_range(m: MapData, unit: GroundUnit, start: HexRef, placed: Sequence[Placed],
               phase: MovementPhase | str = MovementPhase.NORMAL,
               weather: Weather | str = Weather.CLEAR,
               closed_countries: Iterable[str] = ()) -> MoveRange:
    """TR-27/TR-28 Every hex ``unit`` can reach from ``start`` this phase, given all ground
    units on the map (``placed``: (hex, unit) pairs, the mover's own entry included or not)."""
    others = [(h, u) for h, u in placed if u.id != unit.id]
    z = enemy_zoc(m, others, unit.side, closed_countries)
    mp = movement_allowance(unit, weather) if may_move_in_phase(unit, phase) else 0
    return movement_range(m, start, mp, move_class(unit), z, third_reich_movement(), phase=phase)


__all__ = [
    "MoveCheck", "check_path", "enemy_zoc", "exerts_zoc", "forces",
    "may_move_in_phase", "mech_move_refusal", "minimum_move_ok", "move_class", "move_cost", "move_range",
    "movement_allowance", "movement_phases", "must_stop", "zoc_entry_cost", "zoc_hexes",
]
