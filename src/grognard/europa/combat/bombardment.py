"""Europa revised bombardment (EUR-03..EUR-07) and the combat-phase barrage step (EUR-29).

One 2D6 table (``europa_revised_bombardment``, a RECONSTRUCTION; replace it with ``--tables``)
serves air bombing in the air phase and attacking artillery in the barrage step. Each category
totals its firing units into one roll. Results are no effect, "1" or "2".

>>> t = bombardment_table()
>>> bombardment_column(15, hex_re=Fraction(4), table=t)
'12-16'
>>> bombardment_column(15, hex_re=Fraction(2), mountain_fort_city=True, table=t)
'5-7'
>>> bombardment_hits("12-16", drm=0, roll=11, table=t)
2
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from grognard.core.dice import clamp_roll
from grognard.core.errors import IllegalOrder, InputError, TableError
from grognard.core.tables import Table, TableSet, load_tables
from grognard.core.units import SupplyState
from grognard.europa.combat.attack import BOMBARDMENT_TABLE, TERRAIN_TABLE, Attack, Combatant
from grognard.europa.combat.terrain import HexEffects, hex_effects

DRM_TABLE = "europa_bombing_drms"
_BAND = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)|\+)\s*$")


class Category(StrEnum):
    """EUR-03 The two bombardment categories: each fires separately, one roll per category."""

    AIR = "air"
    ARTILLERY = "artillery"


def bombardment_table() -> Table:
    return load_tables().get(BOMBARDMENT_TABLE)


def column_bounds(table: Table) -> tuple[int, ...]:
    """Lower strength bound of each column, parsed from names like ``5-7`` and ``60+``."""
    bounds = []
    for c in table.columns:
        m = _BAND.match(c)
        if not m:
            raise TableError("bombardment columns must be strength bands like 5-7 or 60+",
                             file=table.file, table=table.id, column=c)
        bounds.append(int(m.group(1)))
    if bounds != sorted(bounds) or bounds[0] < 1:
        raise TableError("bombardment columns must rise from strength 1", file=table.file,
                         table=table.id)
    return tuple(bounds)


def bombardment_shift(hex_re: Fraction, mountain_fort_city: bool) -> int:
    """EUR-04 (Bombardment table shifts) Net column shift: -1 for fewer than 3 REs in the hex,
    +1 for more than 6; -1 for a fortified hex, mountain or major city (any of those, once).
    The RE and terrain shifts combine.

    >>> bombardment_shift(Fraction(2), True), bombardment_shift(Fraction(7), False)
    (-2, 1)
    >>> bombardment_shift(Fraction(3), False), bombardment_shift(Fraction(6), False)
    (0, 0)
    """
    if hex_re < 0:
        raise InputError("res_in_hex", "must not be negative")
    shift = -1 if hex_re < 3 else 1 if hex_re > 6 else 0
    return shift - (1 if mountain_fort_city else 0)


def bombardment_column(strength: int, hex_re: Fraction, mountain_fort_city: bool = False,
                       table: Table | None = None) -> str:
    """EUR-04 The column for ``strength`` total bombardment points after the shifts. A shift
    past either end stays on the end column (end clamping, TABLES.md section 2)."""
    t = table if table is not None else bombardment_table()
    if isinstance(strength, bool) or not isinstance(strength, int) or strength < 1:
        raise InputError("strength", f"bombardment strength must be a positive integer, "
                         f"not {strength!r}")
    bounds = column_bounds(t)
    base = max(i for i, b in enumerate(bounds) if strength >= b)
    i = min(max(base + bombardment_shift(hex_re, mountain_fort_city), 0), len(bounds) - 1)
    return t.columns[i]


def bombardment_drm(night: bool = False, as_vs_ships: bool = False,
                    table: Table | None = None) -> int:
    """EUR-04 The bombing DRMs carried over from the original table: night attacks and AS
    missions against ships (values EXTERNAL; generic stand-in ``europa_bombing_drms``)."""
    t = table if table is not None else load_tables().get(DRM_TABLE)
    drm = 0
    for flag, key in ((night, "night"), (as_vs_ships, "as_vs_ships")):
        if flag:
            v = t.lookup(key, "drm")
            if not isinstance(v, int):
                raise TableError("drm must be an integer", file=t.file, table=t.id, row=key)
            drm += v
    return drm


def bombardment_hits(column: str, drm: int, roll: int, table: Table | None = None) -> int:
    """EUR-05 Hits (0, 1 or 2) for a natural 2D6 ``roll`` plus ``drm`` (clamped to 2..12).

    Against facilities these act like the original "H" results; two in one attack are possible.
    """
    t = table if table is not None else bombardment_table()
    if not 2 <= roll <= 12:
        raise InputError("roll", f"a 2D6 roll is 2..12, not {roll}")
    cell = t.lookup(clamp_roll(roll, drm, 2, 12), column)
    hits = {"": 0, "0": 0, "-": 0, "1": 1, "2": 2, 0: 0, 1: 1, 2: 2}.get(cell)
    if hits is None:
        raise TableError(f"unknown bombardment result {cell!r}", file=t.file, table=t.id,
                         column=column, row=roll)
    return hits


def facility_hits(hits: int) -> int:
    """EUR-05 Hits against facilities (airbases, rail, ports): the result itself, 0..2."""
    if hits not in (0, 1, 2):
        raise InputError("hits", "a bombardment result is 0, 1 or 2")
    return hits


def combat_drm_earned(hits: int, drm_allowed: bool = True) -> int:
    """EUR-06 A "1" or "2" earns +1 DRM on the combat against the hex; none against swamp
    (EUR-10).

    >>> combat_drm_earned(2), combat_drm_earned(1, drm_allowed=False), combat_drm_earned(0)
    (1, 0, 0)
    """
    return 1 if hits >= 1 and drm_allowed else 0


def combined_bombardment_drm(results: Iterable[int], drm_allowed: bool = True) -> int:
    """EUR-07 At most one +1 DRM per combat from bombardment, air and artillery combined.

    >>> combined_bombardment_drm([1, 1]), combined_bombardment_drm([0, 2])
    (1, 1)
    """
    return max((combat_drm_earned(h, drm_allowed) for h in results), default=0)


# --- step losses (EUR-06) ------------------------------------------------------------------------


def step_loss_candidates(units: Sequence[Combatant]) -> tuple[Combatant, ...]:
    """EUR-06 Units the firing player may pick for a "2": a full-strength division if any is
    present (a soft one if possible; an armored one only when no soft division exists), else a
    non-divisional unit or cadre, soft if possible.

    >>> units = [Combatant("pz", division=True, armor="full", type="armor"),
    ...          Combatant("inf", division=True), Combatant("art", type="artillery")]
    >>> [u.id for u in step_loss_candidates(units)]
    ['inf']
    """
    full = [u for u in units if u.full_division]
    pool = full if full else list(units)
    soft = [u for u in pool if u.is_soft]
    return tuple(soft if soft else pool)


def verify_step_loss(units: Sequence[Combatant], target: str) -> None:
    """EUR-06 Raise :class:`IllegalOrder` unless ``target`` may take the "2" step loss."""
    ids = [u.id for u in units]
    if target not in ids:
        raise InputError("barrage_target", f"unit {target!r} is not in the target hex")
    allowed = [u.id for u in step_loss_candidates(units)]
    if target not in allowed:
        raise IllegalOrder("EUR-06", f"{target} may not take the step loss: the firing player "
                           f"must pick one of {', '.join(allowed)} (a division before a "
                           "non-divisional unit, a soft unit if possible)")


@dataclass(frozen=True, slots=True)
class StepLoss:
    """A "2" result's step loss: which unit, and whether it was reduced or eliminated."""

    unit: str
    action: str  # "reduce" | "eliminate"


def apply_step_loss(units: Sequence[Combatant], target: str | None = None
                    ) -> tuple[tuple[Combatant, ...], StepLoss]:
    """EUR-06 Apply a "2" step loss to ``target`` (default: the first eligible unit in list
    order). A division with a cadre side is reduced; any other unit is eliminated."""
    if not units:
        raise InputError("defenders", "no unit in the hex to take the step loss")
    chosen = target if target is not None else step_loss_candidates(units)[0].id
    verify_step_loss(units, chosen)
    out: list[Combatant] = []
    record = StepLoss(chosen, "eliminate")
    for u in units:
        if u.id != chosen:
            out.append(u)
        elif u.full_division and u.has_cadre_side:
            out.append(u.reduced())
            record = StepLoss(chosen, "reduce")
    return tuple(out), record


def apply_bombardment(hits: int, units: Sequence[Combatant], target: str | None = None,
                      drm_allowed: bool = True
                      ) -> tuple[int, tuple[Combatant, ...], StepLoss | None]:
    """EUR-06 A ground-support or barrage result against the units of a hex: the combat DRM it
    earns (0/1; none against swamp) and, for a "2", the step loss (the firing player's
    ``target``, checked; default the first eligible unit).

    >>> drm, after, loss = apply_bombardment(2, [Combatant("inf", division=True,
    ...                                                     cadre_defense=2)])
    >>> drm, after[0].cadre, loss.action
    (1, True, 'reduce')
    """
    if hits not in (0, 1, 2):
        raise InputError("hits", "a bombardment result is 0, 1 or 2")
    if hits == 2 and units:
        after, loss = apply_step_loss(units, target)
        return combat_drm_earned(hits, drm_allowed), after, loss
    return combat_drm_earned(hits, drm_allowed), tuple(units), None


# --- once per player turn per category (EUR-07) ----------------------------------------------


@dataclass(frozen=True, slots=True)
class BombardmentLog:
    """EUR-07 Bombardments made against each hex in the current player turn."""

    fired: frozenset[tuple[str, Category]] = frozenset()


def can_bombard(log: BombardmentLog, hex_id: str, category: Category) -> bool:
    """EUR-07 At most one air and one artillery bombardment per hex per player turn."""
    return (hex_id, Category(category)) not in log.fired


def verify_bombard(log: BombardmentLog, hex_id: str, category: Category) -> None:
    if not can_bombard(log, hex_id, category):
        raise IllegalOrder("EUR-07", f"hex {hex_id} has already been bombarded by {category} "
                           "this player turn (at most once by air and once by artillery)")


def bombard(log: BombardmentLog, hex_id: str, category: Category) -> BombardmentLog:
    """EUR-07 Record a bombardment of ``hex_id`` by ``category`` (raises if already made)."""
    verify_bombard(log, hex_id, category)
    return replace(log, fired=log.fired | {(hex_id, Category(category))})


# --- one bombardment roll, and the barrage step (EUR-29) ----------------------------------


@dataclass(frozen=True, slots=True)
class BombardmentOutcome:
    """Every number of one bombardment roll (the event record)."""

    category: Category
    strength: int
    column: str
    drm: int
    roll: int
    modified_roll: int
    hits: int
    combat_drm: int


def resolve_bombardment(category: Category, strength: int, hex_re: Fraction,
                        effects: HexEffects, roll: int, drm: int = 0,
                        table: Table | None = None) -> BombardmentOutcome:
    """EUR-03/04/05/06 One bombardment roll of ``strength`` points against a hex."""
    t = table if table is not None else bombardment_table()
    column = bombardment_column(strength, hex_re, effects.bombard_left > 0, t)
    hits = bombardment_hits(column, drm, roll, t)
    return BombardmentOutcome(Category(category), strength, column, drm, roll,
                              clamp_roll(roll, drm, 2, 12), hits,
                              combat_drm_earned(hits, effects.bombard_drm_allowed))


def barrage_strength(attack: Attack) -> int:
    """EUR-29/EUR-03 Total attack factors of the attacking artillery that may fire: in supply
    (defensive-supply artillery cannot bombard, EUR-36; nor out-of-supply artillery), and never
    in an overrun (EUR-18)."""
    if attack.overrun:
        return 0
    return sum(u.attack for u in attack.attackers
               if u.is_artillery and u.supply == SupplyState.IN)


@dataclass(frozen=True, slots=True)
class Barrage:
    """EUR-29 The barrage step before one combat: the roll and its effect on the hex."""

    outcome: BombardmentOutcome
    step_loss: StepLoss | None
    defenders: tuple[Combatant, ...]


def barrage(attack: Attack, roll: int, tables: TableSet | None = None) -> Barrage | None:
    """EUR-29 (Revised Sequence of Play, combat phase) Before an attack with attacking
    artillery: total their strengths, find the column, apply shifts and DRMs, roll. A "2"
    reduces a defending unit (EUR-06; ``attack.barrage_target`` or the first eligible one).
    None when no artillery fires."""
    strength = barrage_strength(attack)
    if strength == 0:
        return None
    ts = tables if tables is not None else load_tables()
    effects = hex_effects(attack.terrain, attack.fortified, attack.major_city,
                          ts.get(TERRAIN_TABLE))
    drm = bombardment_drm(night=attack.night, table=ts.get(DRM_TABLE))
    outcome = resolve_bombardment(Category.ARTILLERY, strength, attack.hex_re, effects, roll,
                                  drm, ts.get(BOMBARDMENT_TABLE))
    _, defenders, loss = apply_bombardment(outcome.hits, attack.defenders,
                                           attack.barrage_target, effects.bombard_drm_allowed)
    return Barrage(outcome, loss, defenders)
