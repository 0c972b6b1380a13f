"""Europa revised losses: calibration (EUR-11), allocation with the armor-first requirement
(EUR-12), credit for reductions (EUR-13) and replacements for the excess (EUR-14).

>>> loss_requirement(Fraction(9), 1), loss_requirement(Fraction(9), 2)
(Fraction(9, 2), Fraction(9, 1))
>>> excess_replacements(Series.RE, credited=9, requirement=2, armor_excess=7)
Replacements(series=<Series.RE: 're'>, armor=2, infantry=0)
>>> excess_replacements(Series.FACTOR, credited=4, requirement=2)
Replacements(series=<Series.FACTOR: 'factor'>, armor=0, infantry=1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import floor_q
from grognard.core.tables import TableSet, load_tables
from grognard.core.units import ArmorClass, SupplyState
from grognard.europa.combat.attack import (
    TERRAIN_TABLE,
    Attack,
    Combatant,
    CombatReadings,
    ExcessMixedArmor,
    Series,
    Side,
)
from grognard.europa.combat.strength import (
    attacker_base_strength,
    defender_base_strength,
    defensive_artillery,
)
from grognard.europa.combat.terrain import hex_effects


def weaker_side(column: str) -> Side:
    """EUR-11 The side whose strength calibrates losses, fixed by the column used: the defender
    at 1-1 and above, the attacker at 1-2 and below.

    >>> weaker_side("1-1"), weaker_side("1-2"), weaker_side("7-1")
    (<Side.DEFENDER: 'defender'>, <Side.ATTACKER: 'attacker'>, <Side.DEFENDER: 'defender'>)
    """
    try:
        a, b = (int(x) for x in column.split("-"))
    except ValueError:
        raise InputError("column", f"not an odds column like 3-2: {column!r}") from None
    return Side.DEFENDER if a >= b else Side.ATTACKER


def loss_basis(attack: Attack, side: Side) -> Fraction:
    """EUR-11 A side's SP strength for loss calibration: printed strength reduced only for
    supply and support, and for defenders increased in a fortified hex or major city (by the
    reading ``loss_basis_fort_multiplier``, default x2). Terrain, rivers, armor and DRMs do not
    count. Attackers count attack factors, defenders defense factors; attacking artillery is
    left out (it adds no attack factors) unless ``attacking_artillery_in_loss_basis``.
    """
    r = attack.readings
    if side == Side.ATTACKER:
        return sum((attacker_base_strength(u) for u in attack.attackers
                    if r.attacking_artillery_in_loss_basis or not u.is_artillery), Fraction(0))
    arty = defensive_artillery([u for u in attack.defenders if u.is_artillery])
    of_arty = dict(arty.contributions)
    total = sum((of_arty[u.id] if u.is_artillery else defender_base_strength(u, arty.support, r)
                 for u in attack.defenders), Fraction(0))
    if attack.fortified or attack.major_city:
        total *= r.loss_basis_fort_multiplier
    return total


def loss_unit(attack: Attack, column: str) -> Fraction:
    """EUR-11 (All losses are calibrated) L = 50% of the weaker side's SP strength, exact.

    "1" results cost L, "2" results 2L. An allocation must reach at least L.
    """
    return loss_basis(attack, weaker_side(column)) / 2


def loss_requirement(weaker_strength: Fraction | int, results: int) -> Fraction:
    """EUR-11 The loss a "1" (results=1) or "2" (results=2) result requires, in SPs."""
    if results not in (1, 2):
        raise InputError("results", "a loss result is 1 or 2")
    if weaker_strength < 0:
        raise InputError("weaker_strength", "must not be negative")
    return Fraction(weaker_strength) / 2 * results


# --- credit (EUR-13) -------------------------------------------------------------------------


class Action(StrEnum):
    REDUCE = "reduce"
    ELIMINATE = "eliminate"


def credit(unit: Combatant, side: Side, action: Action) -> int:
    """EUR-13 (Full strength division reductions) Loss credit of one step.

    Reducing a full-strength division to cadre credits its full value, not the difference.
    Eliminating a one-step unit (or a cadre) credits its listed strength: attack factor for
    attackers, defense factor for defenders.

    >>> pz = Combatant("pz", attack=9, defense=10, division=True, cadre_attack=3,
    ...                cadre_defense=3)
    >>> credit(pz, Side.ATTACKER, Action.REDUCE), credit(pz, Side.DEFENDER, Action.REDUCE)
    (9, 10)
    """
    if action == Action.REDUCE and not (unit.full_division and unit.has_cadre_side):
        raise IllegalOrder("EUR-13", f"{unit.id} cannot be reduced to cadre "
                           "(only a full-strength division with a cadre side)")
    return unit.strength(side)


def step_action(unit: Combatant) -> Action:
    """The next step loss of ``unit``: reduce a full division with a cadre side, else
    eliminate."""
    return Action.REDUCE if unit.full_division and unit.has_cadre_side else Action.ELIMINATE


# --- allocation (EUR-12) ---------------------------------------------------------------------


def attacker_armor_first(attack: Attack) -> bool:
    """EUR-12 (Armor loss requirement) The attacker's first reduced unit must be armor-capable
    if the attacker has any armor and the defender had armor or AT, or is in a fortified hex,
    or in a major city."""
    att_armor = any(u.is_armor_capable for u in attack.attackers)
    def_armor_or_at = any(u.is_armor_capable or u.armor == ArmorClass.AT
                          for u in attack.defenders)
    return att_armor and (def_armor_or_at or attack.fortified or attack.major_city)


def defender_armor_first(attack: Attack, tables: TableSet | None = None) -> bool:
    """EUR-12 The defender's first reduced unit must be armor if the defender has armor, the
    terrain allowed a possible armor shift, and the attacker has armor."""
    ts = tables if tables is not None else load_tables()
    effects = hex_effects(attack.terrain, attack.fortified, attack.major_city,
                          ts.get(TERRAIN_TABLE))
    return (any(u.is_armor_capable for u in attack.defenders)
            and effects.armor_odds_allowed
            and any(u.is_armor_capable for u in attack.attackers))


def armor_first(attack: Attack, side: Side, tables: TableSet | None = None) -> bool:
    """EUR-12 Whether ``side``'s first reduced unit must be armor-capable in ``attack``."""
    return (attacker_armor_first(attack) if side == Side.ATTACKER
            else defender_armor_first(attack, tables))


@dataclass(frozen=True, slots=True)
class Step:
    """One step of an allocation: the unit, what happens to it, what it credits."""

    unit: str
    action: Action
    credit: int
    armor: bool
    out_of_supply: bool


@dataclass(frozen=True, slots=True)
class Replacements:
    """EUR-14 Replacements earned: REs (RE series) or factors (factor series)."""

    series: Series
    armor: int
    infantry: int

    def to_json(self) -> dict[str, object]:
        return {"series": str(self.series), "armor": self.armor, "infantry": self.infantry}


@dataclass(frozen=True, slots=True)
class Allocation:
    """The checked allocation of one side's loss (the event record)."""

    side: Side
    requirement: Fraction
    steps: tuple[Step, ...]
    credited: int
    excess: Fraction
    replacements: Replacements
    units_after: tuple[Combatant, ...]


def _steps(units: Sequence[Combatant], side: Side, choices: Sequence[str]
           ) -> tuple[list[Step], tuple[Combatant, ...]]:
    state = {u.id: u for u in units}
    order = [u.id for u in units]
    steps: list[Step] = []
    for uid in choices:
        if uid not in order:
            raise InputError("units",
                             f"unit {uid!r} is not one of the {side}'s units in the attack")
        u = state.get(uid)
        if u is None:
            raise IllegalOrder("EUR-12", f"{uid} is already eliminated")
        action = step_action(u)
        steps.append(Step(uid, action, credit(u, side, action), u.is_armor_capable,
                          u.supply == SupplyState.OUT))
        if action == Action.REDUCE:
            state[uid] = u.reduced()
        else:
            del state[uid]
    return steps, tuple(state[i] for i in order if i in state)


def keeps_a_unit(attack: Attack, side: Side, requirement: Fraction | int,
                 tables: TableSet | None = None) -> bool:
    """EUR-11/12/13 Whether ``side`` can meet a loss of ``requirement`` SPs and keep a unit
    in the hex (:func:`keep_limit`). When it cannot, the loss empties the hex: a "1" result
    against one-step units in a major city or fortified hex (the loss basis increased, the
    credits not), or a lone one-step unit's D1.

    >>> from grognard.europa.combat.attack import Combatant
    >>> rifle = tuple(Combatant(f"r{i}", attack=3, defense=5) for i in range(3))
    >>> city = Attack((Combatant("a", attack=30, defense=30),), rifle, major_city=True)
    >>> keeps_a_unit(city, Side.DEFENDER, 15), keeps_a_unit(city, Side.DEFENDER, 10)
    (False, True)
    """
    req = Fraction(requirement)
    if not attack.side_units(side):
        return False
    return req <= 0 or req <= keep_limit(attack, side, tables)


def keep_limit(attack: Attack, side: Side, tables: TableSet | None = None) -> int:
    """EUR-12/13 The largest loss (SPs) ``side`` can meet and still keep a unit in the hex:
    the credits of every step it has (a full division's reduction credits its full value
    and leaves its cadre, EUR-13) less what keeping one unit costs (a division its cadre's
    credit, a one-step unit all of it), where the first step can be an armor unit if EUR-12
    asks for one; -1 when no unit can be kept.

    >>> from grognard.europa.combat.attack import Combatant
    >>> pz = Combatant("pz", attack=9, defense=10, division=True, cadre_attack=3,
    ...                cadre_defense=3)
    >>> inf = Combatant("inf", attack=4, defense=5)
    >>> keep_limit(Attack((inf,), (pz, Combatant("i2", attack=4, defense=5))), Side.DEFENDER)
    15
    """
    units = attack.side_units(side)
    reducible = {u.id: u.full_division and u.has_cadre_side for u in units}
    every = 0
    keep_cost: dict[str, int] = {}
    for u in units:
        if reducible[u.id]:
            cadre = credit(u.reduced(), side, Action.ELIMINATE)
            every += credit(u, side, Action.REDUCE) + cadre
            keep_cost[u.id] = cadre
        else:
            keep_cost[u.id] = credit(u, side, Action.ELIMINATE)
            every += keep_cost[u.id]
    first_armor = armor_first(attack, side, tables) if units else False
    best = -1
    for k in units:
        if first_armor and not any(a.is_armor_capable and (a.id != k.id or reducible[a.id])
                                   for a in units):
            continue  # its first step must be the armor unit kept: it is lost
        best = max(best, every - keep_cost[k.id])
    return best


def verify_allocation(attack: Attack, side: Side, requirement: Fraction,
                      choices: Sequence[str]) -> None:
    """EUR-12 Raise :class:`IllegalOrder` (rule, unit) unless the ordered ``choices`` (unit
    ids, one per step; an id twice = reduce then eliminate its cadre) fulfil ``requirement``."""
    allocate_losses(attack, side, requirement, choices)


def can_allocate(attack: Attack, side: Side, requirement: Fraction,
                 choices: Sequence[str]) -> bool:
    try:
        allocate_losses(attack, side, requirement, choices)
    except IllegalOrder:
        return False
    return True


def allocate_losses(attack: Attack, side: Side, requirement: Fraction | int,
                    choices: Sequence[str], tables: TableSet | None = None) -> Allocation:
    """EUR-12/13/14 Check the losing side's allocation and credit the excess.

    The credited total must reach the requirement, unless every unit of the side is
    eliminated (nothing is left to lose); every step must still be needed (unless
    ``allow_surplus_units``); the first unit reduced must be armor when EUR-12 requires it.
    A wrong allocation raises :class:`IllegalOrder` naming the rule and the unit.
    """
    req = Fraction(requirement)
    if req < 0:
        raise InputError("requirement", "must not be negative")
    units = attack.side_units(side)
    steps, after = _steps(units, side, choices)
    if steps and req > 0 and armor_first(attack, side, tables) and not steps[0].armor:
        why = ("the attacker has armor and the defender had armor or AT, or holds a "
               "fortified hex or major city" if side == Side.ATTACKER else
               "both sides have armor and the terrain allowed an armor shift")
        raise IllegalOrder("EUR-12", f"the first {side} unit reduced must be an armor "
                           f"unit ({why}); {steps[0].unit} is not")
    credited = sum(s.credit for s in steps)
    # EUR-11/12 reading: a requirement beyond everything the side can credit (a "2" result
    # against a cadre in a fortified hex or major city, whose loss basis is multiplied while
    # the credits are not) is met once every unit of the side is eliminated: nothing is left
    # to lose. Excess and replacements are then nil.
    if credited < req and (after or not steps):
        raise IllegalOrder("EUR-12", f"the allocation credits {credited}, short of the "
                           f"requirement {_txt(req)}")
    if not attack.readings.allow_surplus_units and len(steps) > 1:
        before_last = credited - steps[-1].credit
        if before_last >= req:
            raise IllegalOrder("EUR-12", f"{steps[-1].unit} is not needed: the requirement "
                               f"{_txt(req)} is met before it ({before_last} credited)")
    excess = max(credited - req, Fraction(0))
    reps = _replacements_for(steps, req, attack.series, attack.readings)
    return Allocation(side, req, tuple(steps), credited, excess, reps, after)


def _txt(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _replacements_for(steps: Sequence[Step], req: Fraction, series: Series,
                      readings: CombatReadings) -> Replacements:
    """Split the excess over the steps in order: the requirement is met first, the rest is
    excess; out-of-supply steps earn nothing (EUR-14)."""
    remaining = req
    armor_excess = Fraction(0)
    other_excess = Fraction(0)
    for s in steps:
        used = min(Fraction(s.credit), remaining)
        remaining -= used
        extra = s.credit - used
        if s.out_of_supply:
            continue
        if s.armor:
            armor_excess += extra
        else:
            other_excess += extra
    if series == Series.RE:
        return re_replacements(armor_excess, other_excess, readings)
    return factor_replacements(armor_excess, other_excess)


def re_replacements(armor_excess: Fraction, other_excess: Fraction,
                    readings: CombatReadings | None = None) -> Replacements:
    """EUR-14 RE series: floor(excess / 3) REs; armor REs for the part from armor units
    (``excess_mixed_armor_rule``: armor_part = floor(armor part / 3) armor, the rest infantry;
    all_armor = all armor when any armor unit contributed)."""
    r = readings if readings is not None else CombatReadings()
    total = floor_q((armor_excess + other_excess) / 3)
    if r.excess_mixed_armor_rule == ExcessMixedArmor.ALL_ARMOR:
        armor = total if armor_excess > 0 else 0
    else:
        armor = floor_q(armor_excess / 3)
    return Replacements(Series.RE, armor, total - armor)


def factor_replacements(armor_excess: Fraction, other_excess: Fraction) -> Replacements:
    """EUR-14 Factor series (FitE/SE): the excess minus 1 per occasion (one combat, one side),
    as factors of the kind removed; the 1 comes off the non-armor part first."""
    armor, other = floor_q(armor_excess), floor_q(other_excess)
    if armor + other == 0:
        return Replacements(Series.FACTOR, 0, 0)
    if other > 0:
        other -= 1
    else:
        armor -= 1
    return Replacements(Series.FACTOR, armor, other)


def excess_replacements(series: Series, credited: int | Fraction, requirement: int | Fraction,
                        armor_excess: int | Fraction = 0, in_supply: bool = True,
                        readings: CombatReadings | None = None) -> Replacements:
    """EUR-14 (Replacements for excess removals) Replacements for the excess
    E = credited - requirement: RE series floor(E/3) REs (armor REs for the armor part);
    factor series E - 1 factors. Nothing if the units were marked out of supply."""
    excess = Fraction(credited) - Fraction(requirement)
    if excess < 0:
        raise IllegalOrder("EUR-12", f"credited {credited} is short of the requirement "
                           f"{requirement}")
    if not 0 <= Fraction(armor_excess) <= excess:
        raise InputError("armor_excess", "must be between 0 and the excess")
    if not in_supply:
        return Replacements(Series(series), 0, 0)
    a = Fraction(armor_excess)
    if Series(series) == Series.RE:
        return re_replacements(a, excess - a, readings)
    return factor_replacements(a, excess - a)
