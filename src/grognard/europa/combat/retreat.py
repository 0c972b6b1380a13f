"""Europa revised retreats (EUR-15, EUR-16): retreat lengths and the enemy-ZOC penalty.

The retreat path itself comes from the map layer (``core/paths``, built separately). The
penalty here is a pure function of the hexes entered, or simply of the count of enemy-ZOC hexes
entered that no friendly unit negates, so the map layer can feed it.

>>> zoc_hexes_entered(["a", "b", "c"], enemy_zoc={"a", "b"}, friendly_occupied={"b"})
1
>>> retreat_hexes(Side.DEFENDER, "DR"), retreat_hexes(Side.ATTACKER, "AR")
(2, 1)
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.mapdata import MapData
from grognard.core.paths import HexRef
from grognard.core.retreat import RetreatOption, europa_revised_retreat, retreat_options
from grognard.core.zoc import ZocField
from grognard.europa.combat.attack import Combatant, Side
from grognard.europa.combat.crt import RESULT_EFFECTS, CrtResult


def retreat_hexes(side: Side, result: CrtResult | str) -> int:
    """EUR-15 Hexes ``side`` must retreat: AR = attacker 1 hex; DR = defender 2 hexes."""
    try:
        r = CrtResult(result)
    except ValueError:
        raise InputError("result", f"unknown CRT result {result!r}") from None
    _, _, att, dfn = RESULT_EFFECTS[r]
    return att if Side(side) == Side.ATTACKER else dfn


def attacker_may_advance(result: CrtResult | str) -> bool:
    """EUR-15 After DR the attacker may advance into the defender's hex (other advances follow
    the original Europa rules)."""
    return CrtResult(result) == CrtResult.DR


def zoc_hexes_entered(path: Iterable[Hashable], enemy_zoc: Collection[Hashable],
                      friendly_occupied: Collection[Hashable] = ()) -> int:
    """EUR-16 Enemy-ZOC hexes entered along a retreat ``path`` (the hexes entered, in order),
    not counting hexes where friendly units negate the enemy ZOC."""
    return sum(1 for h in path if h in enemy_zoc and h not in friendly_occupied)


def zoc_penalty_count(enemy_zoc_entered: int, negated_by_friendly: int = 0) -> int:
    """EUR-16 (Units forced to retreat through enemy ZOCs) One penalty per enemy-ZOC hex
    entered; friendly units negate enemy ZOC in their own hex.

    >>> zoc_penalty_count(3, negated_by_friendly=1)
    2
    """
    for name, v in (("enemy_zoc_entered", enemy_zoc_entered),
                    ("negated_by_friendly", negated_by_friendly)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(name, f"must be a non-negative integer, not {v!r}")
    if negated_by_friendly > enemy_zoc_entered:
        raise InputError("negated_by_friendly", "cannot exceed the enemy-ZOC hexes entered")
    return enemy_zoc_entered - negated_by_friendly


def retreat_loss_candidates(units: Sequence[Combatant]) -> tuple[Combatant, ...]:
    """EUR-16 Units that may pay one ZOC penalty: a full-strength division (reduced to cadre,
    or eliminated if it has no cadre side); with no such division, a non-divisional unit or
    (reading) a cadre, eliminated - non-divisional units listed first (the default pick)."""
    full = [u for u in units if u.full_division]
    if full:
        return tuple(full)
    return tuple([u for u in units if not u.division] + [u for u in units if u.division])


@dataclass(frozen=True, slots=True)
class RetreatLoss:
    """One ZOC penalty paid: which unit and how."""

    unit: str
    action: str  # "reduce" | "eliminate"


def retreat_losses(units: Sequence[Combatant], penalties: int,
                   choices: Sequence[str] | None = None
                   ) -> tuple[tuple[Combatant, ...], tuple[RetreatLoss, ...]]:
    """EUR-16 Pay ``penalties`` ZOC penalties from the retreating stack: per penalty reduce one
    division to cadre, or if the stack has no division to reduce, eliminate one non-divisional
    unit. ``choices`` (the owner's picks, in order) default to the first eligible unit.
    Penalties beyond the last unit are moot."""
    if isinstance(penalties, bool) or not isinstance(penalties, int) or penalties < 0:
        raise InputError("penalties", f"must be a non-negative integer, not {penalties!r}")
    if choices is not None and len(choices) > penalties:
        raise InputError("choices", f"{len(choices)} picks for {penalties} penalties")
    state = list(units)
    paid: list[RetreatLoss] = []
    for i in range(penalties):
        if not state:
            break
        allowed = retreat_loss_candidates(state)
        pick = choices[i] if choices is not None and i < len(choices) else allowed[0].id
        if pick not in [u.id for u in state]:
            raise InputError("choices", f"unit {pick!r} is not in the retreating stack")
        if pick not in [u.id for u in allowed]:
            raise IllegalOrder("EUR-16", f"{pick} may not pay the ZOC penalty while a "
                               f"division can be reduced ({', '.join(u.id for u in allowed)})")
        j = next(k for k, u in enumerate(state) if u.id == pick)
        u = state[j]
        if u.full_division and u.has_cadre_side:
            state[j] = u.reduced()
            paid.append(RetreatLoss(pick, "reduce"))
        else:
            del state[j]
            paid.append(RetreatLoss(pick, "eliminate"))
    return tuple(state), tuple(paid)


# --- with a map (core/retreat supplies the legal paths and their ZOC counts) --------------


def legal_retreats(m: MapData, start: HexRef, side: Side, result: CrtResult | str,
                   zoc: ZocField) -> list[RetreatOption]:
    """EUR-15/EUR-16 The legal retreats the result demands of ``side`` from ``start``, from the
    map layer's retreat search (each hex farther away; through enemy ZOC allowed, friendly units
    negating it), cheapest in ZOC first. Empty when no retreat is demanded or none is legal (a
    stack that cannot retreat follows the original Europa rules, EXTERNAL)."""
    n = retreat_hexes(side, result)
    if n == 0:
        return []
    return retreat_options(m, start, n, zoc, europa_revised_retreat())


@dataclass(frozen=True, slots=True)
class Retreat:
    """A retreat made: the path, the ZOC hexes entered, and the penalties paid."""

    path: tuple[str, ...]
    zoc_entered: int
    losses: tuple[RetreatLoss, ...]
    units_after: tuple[Combatant, ...]


def retreat_along(units: Sequence[Combatant], option: RetreatOption,
                  choices: Sequence[str] | None = None) -> Retreat:
    """EUR-16 Retreat ``units`` along a legal ``option`` (from :func:`legal_retreats`) and pay
    one penalty per enemy-ZOC hex it enters."""
    after, paid = retreat_losses(units, zoc_penalty_count(option.zoc_entered), choices)
    return Retreat(option.path, option.zoc_entered, paid, after)
