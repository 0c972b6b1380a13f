"""Europa revised combat: the armor DRM (EUR-02), odds and columns (EUR-09), the CRT results
(EUR-15) and the one resolve function (EUR-09) that exact odds and Monte Carlo both use.

The CRT is the table ``europa_revised_crt`` (a RECONSTRUCTION; replace it with ``--tables``).

>>> armor_drm(Fraction(9), Fraction(3)), armor_drm(Fraction(4), Fraction(6))
(1, -1)
>>> odds_column(Fraction(17), Fraction(6))
OddsColumn(odds='2-1', column='2-1', shift=0, eliminated=False)
>>> odds_column(Fraction(9), Fraction(1), left_shifts=1).column
'7-1'
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

from grognard.core.dice import clamp_roll
from grognard.core.errors import IllegalOrder, InputError, TableError
from grognard.core.exact import exact_json, round_half_up
from grognard.core.tables import Table, TableSet, load_tables
from grognard.europa.combat.attack import (
    CRT_TABLE,
    HEXSIDE_TABLE,
    TERRAIN_TABLE,
    ArmorOddsRounding,
    Attack,
    BelowLowest,
    Side,
)
from grognard.europa.combat.bombardment import (
    Barrage,
    barrage,
    barrage_strength,
    bombardment_shift,
    combined_bombardment_drm,
)
from grognard.europa.combat.losses import loss_basis, loss_unit, weaker_side
from grognard.europa.combat.strength import (
    armor_strengths,
    attack_strength,
    defense_strength,
)
from grognard.europa.combat.terrain import hex_effects


class CrtResult(StrEnum):
    """EUR-15 CRT result codes, plus AE: attacker eliminated without a roll (below 1-4)."""

    NONE = "0"
    AR = "AR"
    DR = "DR"
    X1 = "X1"
    A1 = "A1"
    A2 = "A2"
    D1 = "D1"
    D2 = "D2"
    AE = "AE"


#: (attacker losses in L, defender losses in L, attacker retreat hexes, defender retreat hexes)
RESULT_EFFECTS: dict[CrtResult, tuple[int, int, int, int]] = {
    CrtResult.NONE: (0, 0, 0, 0),
    CrtResult.AR: (0, 0, 1, 0),
    CrtResult.DR: (0, 0, 0, 2),
    CrtResult.X1: (1, 1, 0, 0),
    CrtResult.A1: (1, 0, 0, 0),
    CrtResult.A2: (2, 0, 0, 0),
    CrtResult.D1: (0, 1, 0, 0),
    CrtResult.D2: (0, 2, 0, 0),
    CrtResult.AE: (0, 0, 0, 0),
}


# --- armor DRM (EUR-02) ------------------------------------------------------------------------


def armor_odds(attacker: Fraction, defender: Fraction,
               rounding: ArmorOddsRounding = ArmorOddsRounding.HALF_UP) -> tuple[int, int] | None:
    """EUR-02 The armor-only odds "rounding normally" as (a, d), e.g. (3, 1) or (1, 2).

    HALF_UP: if A >= D, k-1 with k = round_half_up(A/D); else 1-k with k = round_half_up(D/A).
    DEFENDER_FAVOUR: floor(A/D)-1, or 1-ceil(D/A). None when both are 0; (1, 0) when D = 0.
    """
    a, d = Fraction(attacker), Fraction(defender)
    if a < 0 or d < 0:
        raise InputError("armor strength", "must not be negative")
    if a == 0 and d == 0:
        return None
    if d == 0:
        return (1, 0)
    if a == 0:
        return (0, 1)
    half_up = rounding == ArmorOddsRounding.HALF_UP
    if a >= d:
        return (round_half_up(a / d) if half_up else math.floor(a / d), 1)
    return (1, round_half_up(d / a) if half_up else math.ceil(d / a))


def armor_drm(attacker: Fraction, defender: Fraction,
              rounding: ArmorOddsRounding = ArmorOddsRounding.HALF_UP,
              armor_allowed: bool = True) -> int:
    """EUR-02 (New armor advantage procedure) +1 at armor-only odds of 3-1 or more, -1 below
    1-1, else 0; 0 in terrain that negated AEC in the original TEC. Mud does not cancel it.

    >>> [armor_drm(Fraction(a), Fraction(d)) for a, d in [(5, 2), (4, 2), (5, 6), (4, 0), (0, 3)]]
    [1, 0, 0, 1, -1]
    >>> armor_drm(Fraction(9), Fraction(3), armor_allowed=False)
    0
    """
    if not armor_allowed:
        return 0
    o = armor_odds(attacker, defender, rounding)
    if o is None:
        return 0
    a, d = o
    if d == 0 or (d == 1 and a >= 3):
        return 1
    if a == 0 or (a == 1 and d >= 2):
        return -1
    return 0


# --- odds and column (EUR-09) ----------------------------------------------------------------


def column_ratio(column: str) -> Fraction:
    try:
        a, b = (int(x) for x in column.split("-"))
        return Fraction(a, b)
    except (ValueError, ZeroDivisionError):
        raise InputError("column", f"not an odds column like 3-2: {column!r}") from None


def odds_text(ratio: Fraction | None) -> str:
    """Odds rounded in the defender's favour as text: 2-1, 3-2, 1-3 (``None`` = infinite)."""
    if ratio is None:
        return "inf"
    if ratio >= 1:
        if ratio < 2 and ratio >= Fraction(3, 2):
            return "3-2"
        return f"{math.floor(ratio)}-1"
    if ratio == 0:
        return "0-1"
    return f"1-{math.ceil(1 / ratio)}"


#: the odds of each CRT's columns, per tuple of column names (a function of the names alone)
_RATIOS: dict[tuple[str, ...], tuple[Fraction, ...]] = {}


def _column_ratios(cols: tuple[str, ...]) -> tuple[Fraction, ...]:
    """The odds of the CRT columns ``cols`` (:func:`column_ratio`), refused unless they
    rise; found once per tuple of names (every attack's setup reads them)."""
    got = _RATIOS.get(cols)
    if got is None:
        got = tuple(column_ratio(c) for c in cols)
        if list(got) != sorted(got):
            raise TableError("CRT columns must rise in odds", table=CRT_TABLE)
        _RATIOS[cols] = got
    return got


@dataclass(frozen=True, slots=True)
class OddsColumn:
    """The odds (rounded, before shifts) and the CRT column used (after shifts and the cap)."""

    odds: str
    column: str | None
    shift: int
    eliminated: bool


def odds_column(attack_strength: Fraction, defense_strength: Fraction, left_shifts: int = 0,
                columns: Sequence[str] | None = None,
                below: BelowLowest = BelowLowest.ELIMINATE) -> OddsColumn:
    """EUR-09 Odds as in original Europa (rounded in the defender's favour; EXTERNAL rule, the
    usual reading), then terrain left shifts, then the cap: above the top column (7-1) use it;
    below the lowest (1-4) the attacker is eliminated with no roll (or CLAMP).

    >>> odds_column(Fraction(5), Fraction(12))
    OddsColumn(odds='1-3', column='1-3', shift=0, eliminated=False)
    >>> odds_column(Fraction(1), Fraction(5))
    OddsColumn(odds='1-5', column=None, shift=0, eliminated=True)
    >>> odds_column(Fraction(3), Fraction(12), left_shifts=1).eliminated
    True
    """
    cols = list(columns) if columns is not None else list(crt_table().columns)
    ratios = _column_ratios(tuple(cols))
    if attack_strength < 0 or defense_strength < 0:
        raise InputError("strength", "must not be negative")
    ratio = None if defense_strength == 0 else Fraction(attack_strength) / defense_strength
    top = ratios[-1]
    if ratio is None:
        index = len(cols) - 1 + left_shifts
    elif ratio >= top:
        extra = math.floor(ratio) - math.floor(top) if top >= 1 else 0
        index = len(cols) - 1 + extra
    else:
        index = bisect_right(ratios, ratio) - 1  # the last column at or below the odds
    shifted = index - left_shifts
    if shifted < 0:
        if below == BelowLowest.CLAMP and index >= 0:
            return OddsColumn(odds_text(ratio), cols[0], -left_shifts, False)
        return OddsColumn(odds_text(ratio), None, -left_shifts, True)
    return OddsColumn(odds_text(ratio), cols[min(shifted, len(cols) - 1)], -left_shifts, False)


# --- the CRT ----------------------------------------------------------------------------------


def crt_table(tables: TableSet | None = None) -> Table:
    return (tables if tables is not None else load_tables()).get(CRT_TABLE)


def crt_result(column: str, drm: int, roll: int, table: Table | None = None) -> CrtResult:
    """EUR-09/EUR-15 The CRT result for a natural 2D6 ``roll`` with ``drm``: the modified roll
    is clamped to 2..12.

    >>> crt_result("3-1", 0, 7), crt_result("7-1", -3, 2), crt_result("1-1", 5, 12)
    (<CrtResult.DR: 'DR'>, <CrtResult.A1: 'A1'>, <CrtResult.D2: 'D2'>)
    """
    t = table if table is not None else crt_table()
    if not 2 <= roll <= 12:
        raise InputError("roll", f"a 2D6 roll is 2..12, not {roll}")
    cell = t.lookup(clamp_roll(roll, drm, 2, 12), column)
    try:
        return CrtResult(str(cell))
    except ValueError:
        raise TableError(f"unknown CRT result {cell!r} (allowed: 0 AR DR X1 A1 A2 D1 D2)",
                         file=t.file, table=t.id, column=column, row=roll) from None


@dataclass(frozen=True, slots=True)
class ResultEffect:
    """EUR-15 What a result does: losses in SPs, retreat lengths, advance."""

    attacker_loss: Fraction
    defender_loss: Fraction
    attacker_retreat: int
    defender_retreat: int
    attacker_may_advance: bool
    attacker_eliminated: bool


def apply_result(result: CrtResult, loss_unit_sp: Fraction,
                 attacker_strength: Fraction = Fraction(0)) -> ResultEffect:
    """EUR-15 (AR means...) 0 no effect; AR attacker retreats 1 hex; DR defender retreats 2
    hexes and the attacker may advance; X1 both lose L; A1/A2 attacker loses L/2L; D1/D2
    defender loses L/2L. AE (below 1-4) eliminates the attacker (``attacker_strength``).

    >>> e = apply_result(CrtResult.X1, Fraction(9, 2))
    >>> e.attacker_loss, e.defender_loss
    (Fraction(9, 2), Fraction(9, 2))
    """
    a, d, ar, dr = RESULT_EFFECTS[CrtResult(result)]
    if result == CrtResult.AE:
        return ResultEffect(Fraction(attacker_strength), Fraction(0), 0, 0, False, True)
    return ResultEffect(a * loss_unit_sp, d * loss_unit_sp, ar, dr, dr > 0, False)


# --- before the roll, and the roll -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CombatSetup:
    """Everything fixed before the CRT roll (after any barrage): the numbers a player sees."""

    attack: Attack
    attack_strength: Fraction
    defense_strength: Fraction
    odds: OddsColumn
    shifts: tuple[tuple[str, int], ...]
    drm: int
    drm_breakdown: tuple[tuple[str, int], ...]
    armor_attacker: Fraction
    armor_defender: Fraction
    loss_unit: Fraction
    weaker: Side | None
    barrage: Barrage | None
    hex_cleared: bool


def _tables(tables: TableSet | None) -> TableSet:
    return tables if tables is not None else load_tables()


#: recent setups by the very :class:`Attack` object, barrage roll and tables they were made
#: from (a function of those alone): a model a lister checks and a bot then estimates is one
#: object (``combat.commands.kept_model``), so its setup is made once
_KEPT_SETUPS: dict[tuple[int, int | None, int], tuple[Attack, TableSet, CombatSetup]] = {}
_KEPT_SETUPS_MAX = 4096


def combat_setup(attack: Attack, barrage_roll: int | None = None,
                 tables: TableSet | None = None) -> CombatSetup:
    """EUR-09 (The new combat procedure) Steps 1-3: fire-support DRM (air result, then the
    artillery barrage; at most +1), the armor-only odds DRM terrain permitting, and the odds
    with the revised terrain. ``barrage_roll`` is the natural 2D6 of the barrage step (needed
    when attacking artillery fires). Kept for the same attack object, roll and tables (a
    refusal is not kept)."""
    ts = _tables(tables)
    key = (id(attack), barrage_roll, id(ts))
    hit = _KEPT_SETUPS.get(key)
    if hit is not None and hit[0] is attack and hit[1] is ts:
        return hit[2]
    setup = _combat_setup(attack, barrage_roll, ts)
    if len(_KEPT_SETUPS) >= _KEPT_SETUPS_MAX:
        _KEPT_SETUPS.clear()
    _KEPT_SETUPS[key] = (attack, ts, setup)  # holds ``attack``: its id is not reused while kept
    return setup


def _combat_setup(attack: Attack, barrage_roll: int | None, ts: TableSet) -> CombatSetup:
    """:func:`combat_setup` made afresh."""
    if all(u.is_artillery for u in attack.attackers):
        raise IllegalOrder("EUR-03", "artillery alone cannot attack: its factors only fire "
                           "as bombardment support for an attack by other units")
    terrain_t, hexside_t = ts.get(TERRAIN_TABLE), ts.get(HEXSIDE_TABLE)
    crt = ts.get(CRT_TABLE)
    effects = hex_effects(attack.terrain, attack.fortified, attack.major_city, terrain_t)
    fired: Barrage | None = None
    if barrage_strength(attack) > 0:
        if barrage_roll is None:
            raise InputError("barrage_roll", "attacking artillery fires a barrage first "
                             "(EUR-29): a barrage roll is needed")
        fired = barrage(attack, barrage_roll, ts)
    if fired is not None and not fired.defenders:
        return CombatSetup(attack, attack_strength(attack, hexside_t), Fraction(0),
                           OddsColumn("inf", None, 0, False), (), 0, (), Fraction(0),
                           Fraction(0), Fraction(0), None, fired, True)
    current = replace(attack, defenders=fired.defenders) if fired is not None else attack
    a = attack_strength(current, hexside_t)
    d = defense_strength(current, effects)
    bomb_results = [current.bombardment] + ([fired.outcome.hits] if fired else [])
    bomb_drm = combined_bombardment_drm(bomb_results, effects.bombard_drm_allowed)
    arm = armor_strengths(current, hexside_t)
    a_drm = armor_drm(arm.attacker, arm.defender, current.readings.armor_odds_rounding,
                      effects.armor_odds_allowed)
    shifts = ((f"terrain {current.terrain}"
               + (" fortified" if current.fortified else "")
               + (" major city" if current.major_city else ""), -effects.left_shifts),
              ) if effects.left_shifts else ()
    oc = odds_column(a, d, effects.left_shifts, crt.columns,
                     current.readings.below_lowest_column)
    weaker = weaker_side(oc.column) if oc.column is not None else None
    lu = loss_unit(current, oc.column) if oc.column is not None else Fraction(0)
    return CombatSetup(current, a, d, oc, shifts, bomb_drm + a_drm,
                       (("bombardment", bomb_drm), ("armor", a_drm)), arm.attacker,
                       arm.defender, lu, weaker, fired, False)


def applied_rules(setup: CombatSetup, tables: TableSet | None = None) -> list[str]:
    """The fire-support rules that took effect in this combat (for the event's ``rules``):
    EUR-29/EUR-03 when attacking artillery fired its barrage, EUR-04 when a column shift or a
    DRM moved that roll, EUR-06 when the air or artillery fire scored (+1 DRM, a "2" step
    loss), EUR-07 when both categories scored and the +1 cap held, EUR-08 when defending
    artillery added its strength.

    >>> from grognard.europa.combat.attack import attack_from_json
    >>> a = attack_from_json({"attackers": [{"id": "i", "attack": 9}, {"id": "art",
    ...     "attack": 4, "type": "artillery"}], "defenders": [{"id": "d", "defense": 6},
    ...     {"id": "da", "defense": 3, "type": "artillery"}]})
    >>> applied_rules(combat_setup(a, barrage_roll=12))
    ['EUR-03', 'EUR-04', 'EUR-06', 'EUR-08', 'EUR-29']
    """
    out: set[str] = set()
    b, a = setup.barrage, setup.attack
    if b is not None:
        out |= {"EUR-29", "EUR-03"}
        effects = hex_effects(a.terrain, a.fortified, a.major_city,
                              _tables(tables).get(TERRAIN_TABLE))
        if b.outcome.drm or bombardment_shift(a.hex_re, effects.bombard_left > 0):
            out.add("EUR-04")
        if b.outcome.hits:
            out.add("EUR-06")
        if b.outcome.combat_drm and a.bombardment:
            out.add("EUR-07")  # air and artillery both scored: one +1 only
    if a.bombardment and dict(setup.drm_breakdown).get("bombardment"):
        out.add("EUR-06")
    if any(u.is_artillery for u in a.defenders) and not setup.hex_cleared:
        out.add("EUR-08")
    return sorted(out)


@dataclass(frozen=True, slots=True)
class CombatOutcome:
    """EUR-09 The resolved combat: every number and die roll (the event record)."""

    setup: CombatSetup
    roll: int | None
    modified_roll: int | None
    result: CrtResult
    effect: ResultEffect


def resolve_setup(setup: CombatSetup, roll: int, tables: TableSet | None = None
                  ) -> CombatOutcome:
    """EUR-09 steps 4-5 for a fixed setup: roll 2D6 plus DRMs (clamped to 2..12), apply."""
    if setup.hex_cleared:
        return CombatOutcome(setup, None, None, CrtResult.NONE,
                             ResultEffect(Fraction(0), Fraction(0), 0, 0, True, False))
    if setup.odds.eliminated:
        return CombatOutcome(setup, None, None, CrtResult.AE,
                             apply_result(CrtResult.AE, Fraction(0),
                                          loss_basis(setup.attack, Side.ATTACKER)))
    assert setup.odds.column is not None
    result = crt_result(setup.odds.column, setup.drm, roll, crt_table(tables))
    return CombatOutcome(setup, roll, clamp_roll(roll, setup.drm, 2, 12), result,
                         apply_result(result, setup.loss_unit))


def resolve(attack: Attack, roll: int, barrage_roll: int | None = None,
            tables: TableSet | None = None) -> CombatOutcome:
    """EUR-09 The whole combat as one pure function of the attack and the rolls.

    Exact odds map this over the 2D6 distribution; Monte Carlo uses the same table vectorised.
    """
    return resolve_setup(combat_setup(attack, barrage_roll, tables), roll, tables)


def outcome_json(outcome: CombatOutcome) -> dict[str, Any]:
    """The ``grognard europa combat resolve --json`` document (docs/formats/europa_combat.md)."""
    s, e = outcome.setup, outcome.effect
    b = s.barrage
    return {
        "odds": s.odds.odds,
        "column": s.odds.column,
        "shifts": [{"cause": cause, "columns": n} for cause, n in s.shifts],
        "drm": s.drm,
        "drm_breakdown": dict(s.drm_breakdown),
        "roll": outcome.roll,
        "modified_roll": outcome.modified_roll,
        "result": str(outcome.result),
        "loss_unit": exact_json(s.loss_unit),
        "attacker_loss": exact_json(e.attacker_loss),
        "defender_loss": exact_json(e.defender_loss),
        "attacker_retreat": e.attacker_retreat,
        "defender_retreat": e.defender_retreat,
        "attacker_may_advance": e.attacker_may_advance,
        "attacker_eliminated": e.attacker_eliminated,
        "weaker_side": str(s.weaker) if s.weaker is not None else None,
        "attack_strength": exact_json(s.attack_strength),
        "defense_strength": exact_json(s.defense_strength),
        "armor_strengths": {"attacker": exact_json(s.armor_attacker),
                            "defender": exact_json(s.armor_defender)},
        "barrage": None if b is None else {
            "strength": b.outcome.strength,
            "column": b.outcome.column,
            "roll": b.outcome.roll,
            "modified_roll": b.outcome.modified_roll,
            "hits": b.outcome.hits,
            "combat_drm": b.outcome.combat_drm,
            "step_loss": None if b.step_loss is None else
            {"unit": b.step_loss.unit, "action": b.step_loss.action},
        },
        "hex_cleared": s.hex_cleared,
    }
