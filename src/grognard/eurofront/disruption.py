"""EF-11..EF-16 Eurofront Air Power Disruption "...or how to replicate the Battle of Britain"
(``003_bbc0beaac187b5b3.txt``, "How to use the table").

Instead of using Airpower for Combat Support, an activated Battle, Theatre or Supreme HQ may roll
on the Airpower Disruption table (``eurofront_airpower_disruption``, a RECONSTRUCTION shipped in
``data/tables``, replaceable with ``--tables``). The row is the Air Power difference (active minus
non-active, SF=1..QF=4) in the target hex's theatre; only 0 or better may roll. One combat die per
HQ strength point; every die's result applies (EF-12):

* THD (Target Hex Disrupted): one Airpower Disrupted marker of the active side goes on the hex per
  HQ roll (EF-13 effects while it stays);
* ``-``: no effect;
* OHD (Own HQ Disrupted): the activated HQ is disrupted for the rest of the month (EF-15).

A Supreme HQ whose target is not in range of an activated Battle HQ needs two THD (EF-16).
Markers decay one per hex per month unless the hex is surrounded (EF-14).

>>> apd_row(AirPower.TF, AirPower.SF), apd_row(AirPower.SF, AirPower.DF) is None
(2, True)
>>> apd_roll(3, 2, [6, 1, 3])
(<ApdResult.THD: 'THD'>, <ApdResult.OHD: 'OHD'>, <ApdResult.NONE: '-'>)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from grognard.core.dice import DiceStream
from grognard.core.errors import IllegalOrder, InputError, TableError
from grognard.core.hexgrid import Hex, distance
from grognard.core.tables import Table, load_tables
from grognard.eurofront.model import (
    DEFAULT_BASE,
    AirPower,
    BaseRules,
    Block,
    BlockType,
    Board,
    HQClass,
    Side,
)
from grognard.eurofront.readings import (
    ALL_RULES,
    DEFAULT_READINGS,
    EuroFrontReadings,
    OptionalRule,
    OptionalRules,
)

TABLE_ID = "eurofront_airpower_disruption"
APD_HQ_CLASSES = frozenset({HQClass.BATTLE, HQClass.THEATRE, HQClass.SUPREME})


class ApdResult(StrEnum):
    THD = "THD"
    NONE = "-"
    OHD = "OHD"


class NavalStatus(StrEnum):
    """Naval status in a hex, from one side's point of view (EXTERNAL base concept)."""

    SUPREMACY = "supremacy"
    PARITY = "parity"
    ENEMY_SUPREMACY = "enemy_supremacy"


@dataclass(frozen=True)
class ApdState:
    """Airpower Disrupted markers (hex -> owners, one entry per marker) and HQs disrupted until
    the end of the month (EF-15)."""

    markers: Mapping[Hex, tuple[Side, ...]] = field(default_factory=dict)
    hq_disrupted: frozenset[str] = frozenset()

    def count(self, h: Hex, owner: Side) -> int:
        return self.markers.get(h, ()).count(owner)

    def disrupted_by(self, h: Hex, owner: Side) -> bool:
        return self.count(h, owner) > 0


@dataclass(frozen=True)
class ApdOutcome:
    """The pure result of one HQ's roll."""

    results: tuple[ApdResult, ...]
    thd: int
    ohd: int
    effective: bool  # the Target Hex Disrupted result takes effect (EF-16)
    own_hq_disrupted: bool  # EF-15


@dataclass(frozen=True)
class ApdResolved:
    """Record of one Airpower Disruption roll (the engine's event)."""

    hq_id: str
    side: Side
    target: Hex
    difference: int
    rolls: tuple[int, ...]
    results: tuple[ApdResult, ...]
    effective: bool
    own_hq_disrupted: bool
    marker_placed: bool
    enemy_markers_removed: int
    combat_air_support_forgone: bool = True
    rule: str = "EF-12"


@dataclass(frozen=True)
class HexEffects:
    """EF-13 What an enemy marker means for ``side`` in one hex."""

    disrupted: bool
    hqs_disrupted: bool
    no_combat_air_support: bool
    naval_status_reduced: bool
    production_interdicted: bool
    no_cadre_or_rebuild: bool


@dataclass(frozen=True)
class MarkersRemoved:
    """EF-14/EF-15 End-of-month record."""

    removed: tuple[tuple[Hex, Side], ...]
    kept_surrounded: tuple[tuple[Hex, Side], ...]
    hqs_recovered: tuple[str, ...]
    rule: str = "EF-14"


def apd_table() -> Table:
    return load_tables().get(TABLE_ID)


def apd_row(active_level: AirPower, inactive_level: AirPower) -> int | None:
    """EF-11 The table row: the Air Power difference, or None when negative (may not roll)."""
    diff = active_level.rank - inactive_level.rank
    return diff if diff >= 0 else None


def _check_hq(hq: Block) -> HQClass:
    if hq.type is not BlockType.HQ or hq.hq_class is None:
        raise IllegalOrder("EF-11", f"block {hq.id} is not an HQ")
    if hq.hq_class not in APD_HQ_CLASSES:
        raise IllegalOrder("EF-11", f"a {hq.hq_class.value} HQ may not roll for Airpower "
                           "Disruption (Battle, Theatre or Supreme only)")
    return hq.hq_class


def verify_apd_target(board: Board, state: ApdState, hq: Block, target: Hex,
                      activated: bool = True, rules: OptionalRules = ALL_RULES,
                      base: BaseRules = DEFAULT_BASE) -> None:
    """EF-11 The HQ may roll against ``target``: an activated Battle/Theatre/Supreme HQ, the
    target in its air range and adjacent to a friendly-controlled hex or an enemy-controlled hex
    already carrying the active side's Airpower Disrupted marker."""
    if not rules.on(OptionalRule.AIRPOWER_DISRUPTION):
        raise IllegalOrder("EF-11", "Airpower Disruption is not in play")
    cls = _check_hq(hq)
    if not activated:
        raise IllegalOrder("EF-11", f"HQ {hq.id} is not activated")
    if hq.id in state.hq_disrupted:
        raise IllegalOrder("EF-15", f"HQ {hq.id} is disrupted for the rest of the month")
    if hq.at is None:
        raise InputError(f"block {hq.id}.at", "the HQ is not on the map")
    if state.disrupted_by(hq.at, hq.side.opponent):
        raise IllegalOrder("EF-13", f"HQ {hq.id} is Airpower Disrupted (enemy marker in its hex)")
    if not board.on_map(target):
        raise InputError("target", f"{tuple(target)} is not on the map")
    rng = base.air_range(cls)
    if distance(hq.at, target) > rng:
        raise IllegalOrder("EF-11", f"the target is {distance(hq.at, target)} hexes away; "
                           f"a {cls.value} HQ's air range is {rng}")
    side = hq.side
    for n in board.neighbours_on_map(target):
        owner = board.controller(n)
        if owner is side or (owner is side.opponent and state.disrupted_by(n, side)):
            return
    raise IllegalOrder("EF-11", "the target must be adjacent to a friendly-controlled hex or an "
                       "enemy-controlled disrupted hex")


def apd_can_target(board: Board, state: ApdState, hq: Block, target: Hex,
                   activated: bool = True, rules: OptionalRules = ALL_RULES,
                   base: BaseRules = DEFAULT_BASE) -> bool:
    """EF-11 Whether ``hq`` may roll for Airpower Disruption against ``target``."""
    try:
        verify_apd_target(board, state, hq, target, activated, rules, base)
    except IllegalOrder:
        return False
    return True


def _check_difference(difference: int) -> None:
    """EF-11 an Air Power difference is at most the highest level's rank minus the lowest's
    (QF=4 minus SF=1: 3)."""
    top = max(a.rank for a in AirPower) - min(a.rank for a in AirPower)
    if difference > top:
        raise InputError("difference", f"an Air Power difference is 0..{top} "
                         f"(QF=4 minus SF=1 at most), not {difference}")


def apd_roll(strength: int, difference: int, rolls: Sequence[int],
             table: Table | None = None) -> tuple[ApdResult, ...]:
    """EF-12 One result per combat die (one D6 per HQ strength point) on row ``difference``."""
    if isinstance(strength, bool) or not isinstance(strength, int) or not 1 <= strength <= 3:
        raise InputError("strength", f"an HQ has 1..3 strength points, not {strength!r}")
    if isinstance(difference, bool) or not isinstance(difference, int):
        raise InputError("difference", f"must be an integer, not {difference!r}")
    if difference < 0:
        raise IllegalOrder("EF-11", f"an Air Power difference of {difference} may not roll "
                           "(equal or positive only)")
    _check_difference(difference)
    if len(rolls) != strength:
        raise InputError("rolls", f"{strength} combat dice needed (one per strength point), "
                         f"got {len(rolls)}")
    t = table if table is not None else apd_table()
    row = min(difference, max(int(k) for k in t.row_keys))
    out = []
    for i, r in enumerate(rolls):
        if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= 6:
            raise InputError(f"rolls[{i}]", f"a D6 roll is 1..6, not {r!r}")
        cell = t.lookup(row, f"d6={r}")
        try:
            out.append(ApdResult(str(cell)))
        except ValueError:
            raise TableError(f"unknown result {cell!r} (THD, -, OHD)", file=t.file,
                             table=t.id, column=f"d6={r}", row=row) from None
    return tuple(out)


def apd_effective(hq_class: HQClass, thd_count: int, battle_hq_in_range: bool) -> bool:
    """EF-16 Does the roll disrupt the target? One THD suffices, except a Supreme HQ whose
    target is not in range of an activated Battle HQ needs two.

    >>> apd_effective(HQClass.SUPREME, 1, False), apd_effective(HQClass.SUPREME, 2, False)
    (False, True)
    """
    need = 2 if hq_class is HQClass.SUPREME and not battle_hq_in_range else 1
    return thd_count >= need


def battle_hq_in_range(target: Hex, battle_hqs: Sequence[Block],
                       base: BaseRules = DEFAULT_BASE) -> bool:
    """EF-16 Is ``target`` in air range of any of these activated Battle HQs?"""
    return any(b.hq_class is HQClass.BATTLE and b.at is not None
               and distance(b.at, target) <= base.air_range(HQClass.BATTLE) for b in battle_hqs)


def apd_outcome(hq_class: HQClass, strength: int, difference: int, rolls: Sequence[int],
                in_battle_range: bool = True, table: Table | None = None) -> ApdOutcome:
    """EF-12/EF-15/EF-16 The pure outcome of one HQ's Airpower Disruption roll."""
    results = apd_roll(strength, difference, rolls, table)
    thd = results.count(ApdResult.THD)
    ohd = results.count(ApdResult.OHD)
    return ApdOutcome(results, thd, ohd, apd_effective(hq_class, thd, in_battle_range), ohd > 0)


def apd_odds(hq_class: HQClass, strength: int, difference: int, in_battle_range: bool = True,
             table: Table | None = None) -> dict[tuple[bool, bool], Fraction]:
    """EF-12 Exact odds of (effective, own HQ disrupted): :func:`apd_outcome` over all dice.

    >>> apd_odds(HQClass.BATTLE, 1, 0)[(True, False)]
    Fraction(1, 6)
    """
    t = table if table is not None else apd_table()
    acc: dict[tuple[bool, bool], int] = {}
    for rolls in itertools.product(range(1, 7), repeat=strength):
        o = apd_outcome(hq_class, strength, difference, rolls, in_battle_range, t)
        key = (o.effective, o.own_hq_disrupted)
        acc[key] = acc.get(key, 0) + 1
    total = 6 ** strength
    return {k: Fraction(v, total) for k, v in sorted(acc.items())}


def apd_sample(hq_class: HQClass, strength: int, difference: int, n: int, dice: DiceStream,
               in_battle_range: bool = True, table: Table | None = None,
               ) -> dict[str, npt.NDArray[np.bool_]]:
    """EF-12 Monte Carlo: ``n`` HQ rolls at once, the same table read through numpy codes.

    Returns boolean arrays ``effective`` and ``own_hq_disrupted`` (one entry per sample); their
    means converge on :func:`apd_odds`.
    """
    if n < 1:
        raise InputError("n", "at least one sample")
    if difference < 0:
        raise IllegalOrder("EF-11", "a negative difference may not roll")
    _check_difference(difference)
    if not 1 <= strength <= 3:
        raise InputError("strength", f"an HQ has 1..3 strength points, not {strength!r}")
    t = table if table is not None else apd_table()
    codes, alphabet = t.codes()
    rows = list(t.row_keys)
    row = rows.index(min(difference, max(int(k) for k in rows)))
    faces = np.array([t.column_index(f"d6={d}") for d in range(1, 7)])
    cells = codes[row, faces]  # code per face 1..6
    thd_code = alphabet.index(ApdResult.THD.value) if ApdResult.THD.value in alphabet else -1
    ohd_code = alphabet.index(ApdResult.OHD.value) if ApdResult.OHD.value in alphabet else -1
    thd = np.zeros(n, dtype=np.int8)
    ohd = np.zeros(n, dtype=np.bool_)
    for _ in range(strength):
        c = cells[dice.sample("1d6", n).astype(np.intp) - 1]
        thd += c == thd_code
        ohd |= c == ohd_code
    need = 2 if hq_class is HQClass.SUPREME and not in_battle_range else 1
    return {"effective": thd >= need, "own_hq_disrupted": ohd}


def airpower_disruption(board: Board, state: ApdState, hq: Block, target: Hex,
                        active_level: AirPower, inactive_level: AirPower, rolls: Sequence[int],
                        in_battle_range: bool = True, activated: bool = True,
                        rules: OptionalRules = ALL_RULES,
                        readings: EuroFrontReadings = DEFAULT_READINGS,
                        base: BaseRules = DEFAULT_BASE, table: Table | None = None,
                        ) -> tuple[ApdState, ApdResolved]:
    """EF-11..EF-16 An activated HQ rolls for Airpower Disruption against ``target``.

    ``active_level``/``inactive_level`` are the two sides' Air Power in the target hex's
    theatre (see :func:`grognard.eurofront.airpower.air_power_level`). An effective result
    places one marker of the active side; under ``ef_apd_counter_removal`` it also removes one
    opposing marker there (EF-14). Any OHD disrupts the HQ until the end of the month (EF-15).
    """
    verify_apd_target(board, state, hq, target, activated, rules, base)
    diff = apd_row(active_level, inactive_level)
    if diff is None:
        raise IllegalOrder("EF-11", f"Air Power {active_level.value} against "
                           f"{inactive_level.value}: a negative difference may not roll")
    assert hq.hq_class is not None
    o = apd_outcome(hq.hq_class, hq.strength, diff, rolls, in_battle_range, table)
    markers = dict(state.markers)
    removed = 0
    if o.effective:
        here = list(markers.get(target, ()))
        if readings.ef_apd_counter_removal and hq.side.opponent in here:
            here.remove(hq.side.opponent)
            removed = 1
        here.append(hq.side)
        markers[target] = tuple(here)
    disrupted = state.hq_disrupted | ({hq.id} if o.own_hq_disrupted else frozenset())
    new = ApdState(markers, frozenset(disrupted))
    return new, ApdResolved(hq.id, hq.side, target, diff, tuple(rolls), o.results, o.effective,
                            o.own_hq_disrupted, o.effective, removed)


def naval_status_under_apd(status: NavalStatus, disrupted: bool) -> NavalStatus:
    """EF-13 An enemy marker drops Naval Supremacy to Parity and Parity to Enemy Supremacy.

    >>> naval_status_under_apd(NavalStatus.SUPREMACY, True)
    <NavalStatus.PARITY: 'parity'>
    """
    if not disrupted:
        return status
    return {NavalStatus.SUPREMACY: NavalStatus.PARITY,
            NavalStatus.PARITY: NavalStatus.ENEMY_SUPREMACY}.get(status, status)


def apd_hex_effects(state: ApdState, h: Hex, side: Side,
                    rules: OptionalRules = ALL_RULES) -> HexEffects:
    """EF-13 Target Hex Disrupted effects on ``side`` in hex ``h`` (an enemy marker there)."""
    d = rules.on(OptionalRule.AIRPOWER_DISRUPTION) and state.disrupted_by(h, side.opponent)
    return HexEffects(d, d, d, d, d, d)


def hq_disrupted(state: ApdState, hq: Block, rules: OptionalRules = ALL_RULES) -> bool:
    """EF-13/EF-15 Is the HQ disrupted by Airpower Disruption (own OHD, or an enemy marker in
    its hex)?"""
    if not rules.on(OptionalRule.AIRPOWER_DISRUPTION):
        return False
    in_marked_hex = hq.at is not None and state.disrupted_by(hq.at, hq.side.opponent)
    return hq.id in state.hq_disrupted or in_marked_hex


def surrounded_for(board: Board, state: ApdState, h: Hex, owner: Side) -> bool:
    """EF-14 Every neighbour on the map is controlled by the marker's owner or carries one of
    the owner's markers."""
    return all(board.controller(n) is owner or state.disrupted_by(n, owner)
               for n in board.neighbours_on_map(h))


def end_of_month_apd_cleanup(board: Board, state: ApdState,
                             ) -> tuple[ApdState, MarkersRemoved]:
    """EF-14/EF-15 End of month: one marker per hex (per owner) is removed unless the hex is
    surrounded for its owner (judged on the markers before any removal); HQs disrupted by OHD
    recover."""
    removed, kept = [], []
    markers: dict[Hex, tuple[Side, ...]] = {}
    for h, owners in state.markers.items():
        left = list(owners)
        for owner in (Side.AXIS, Side.ALLIES):
            if owner not in left:
                continue
            if surrounded_for(board, state, h, owner):
                kept.append((h, owner))
            else:
                left.remove(owner)
                removed.append((h, owner))
        if left:
            markers[h] = tuple(left)
    return (ApdState(markers, frozenset()),
            MarkersRemoved(tuple(removed), tuple(kept), tuple(sorted(state.hq_disrupted))))


def remove_apd_marker(state: ApdState, h: Hex, owner: Side) -> ApdState:
    """EF-14 The owning player may remove one of its markers at any time."""
    here = list(state.markers.get(h, ()))
    if owner not in here:
        raise IllegalOrder("EF-14", f"{owner.value} has no Airpower Disrupted marker in "
                           f"{tuple(h)}")
    here.remove(owner)
    markers = dict(state.markers)
    if here:
        markers[h] = tuple(here)
    else:
        del markers[h]
    return ApdState(markers, state.hq_disrupted)
