"""EUR-27 (Air phase) Attacks on airbases.

Airbase attacks roll on the 2D6 bombardment table (EUR-05 facility hits, table
``europa_revised_bombardment``, a RECONSTRUCTION). Every hit damages the base, and each hit
also turns one active air unit there inactive, chosen at random. Hits never eliminate air units.
The owner repairs one hit per turn after his own air phase, and each hit outstanding reduces
by one the number of air units that may fly from the base.

>>> b = Airbase("Minsk", capacity=3, active=("a", "b", "c"))
>>> b2, rec = airbase_attack(b, 2, picks=[0, 1])
>>> b2.hits, b2.active, b2.inactive, flyable_units(b2)
(2, ('b',), ('a', 'c'), 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from grognard.core.dice import DiceStream, Distribution
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.tables import Table
from grognard.europa.combat.bombardment import (
    bombardment_column,
    bombardment_hits,
    bombardment_table,
)

#: Facility attacks: the RE shift of EUR-04 is about units in the hex; by default an airbase is
#: attacked on its unshifted column (3 REs = no RE shift). Pass the hex's REs to apply it.
NO_RE_SHIFT = Fraction(3)


@dataclass(frozen=True, slots=True)
class Airbase:
    """An airbase: capacity, hits outstanding, active and inactive air units based there."""

    name: str
    capacity: int
    hits: int = 0
    active: tuple[str, ...] = ()
    inactive: tuple[str, ...] = ()
    last_repair_turn: int | None = None

    def __post_init__(self) -> None:
        for field_name in ("capacity", "hits"):
            v = getattr(self, field_name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InputError(field_name, f"must be a non-negative integer, not {v!r}")
        units = self.active + self.inactive
        if len(set(units)) != len(units):
            raise InputError("units", "an air unit is listed twice at the base")

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "capacity": self.capacity, "hits": self.hits,
                "active": list(self.active), "inactive": list(self.inactive),
                "flyable": flyable_units(self)}


def airbase_hits(strength: int, roll: int, drm: int = 0, hex_re: Fraction = NO_RE_SHIFT,
                 mountain_fort_city: bool = False, table: Table | None = None) -> int:
    """EUR-27 Hits (0, 1, 2) an airbase attack of ``strength`` tactical points scores on 2D6."""
    t = table if table is not None else bombardment_table()
    col = bombardment_column(strength, hex_re, mountain_fort_city, t)
    return bombardment_hits(col, drm, roll, t)


def airbase_hit_odds(strength: int, drm: int = 0, hex_re: Fraction = NO_RE_SHIFT,
                     mountain_fort_city: bool = False, table: Table | None = None
                     ) -> dict[int, Fraction]:
    """EUR-27 Exact odds of 0, 1 and 2 hits (the same function mapped over 2D6)."""
    t = table if table is not None else bombardment_table()
    return Distribution.of("2d6").map(
        lambda r: airbase_hits(strength, r, drm, hex_re, mountain_fort_city, t))


def flyable_units(base: Airbase) -> int:
    """EUR-27 Air units that may fly from the base: its capacity less the hits outstanding."""
    return max(base.capacity - base.hits, 0)


@dataclass(frozen=True, slots=True)
class AirbaseAttacked:
    """EUR-27 Record: hits scored, the random picks, the units made inactive."""

    rule: str
    base: str
    hits: int
    picks: tuple[int, ...]
    made_inactive: tuple[str, ...]
    base_hits_after: int
    eliminated: tuple[str, ...] = ()  # always empty: airbase hits never eliminate air units

    def to_json(self) -> dict[str, object]:
        return {"rule": self.rule, "base": self.base, "hits": self.hits,
                "picks": list(self.picks), "made_inactive": list(self.made_inactive),
                "base_hits_after": self.base_hits_after, "eliminated": list(self.eliminated)}


def picks_needed(base: Airbase, hits: int) -> int:
    """EUR-27 How many random picks ``hits`` hits need: one per hit while active units remain."""
    return min(hits, len(base.active))


def random_picks(base: Airbase, hits: int, stream: DiceStream) -> tuple[int, ...]:
    """EUR-27 Draw the random picks (an index into the active units left) from ``stream``."""
    n = len(base.active)
    return tuple(stream.choice(n - k) for k in range(picks_needed(base, hits)))


def verify_airbase_attack(base: Airbase, hits: int, picks: Sequence[int]) -> None:
    """EUR-27 ``hits`` is 0 or more; one pick per affected unit, each an index into the active
    units still left at that point."""
    if isinstance(hits, bool) or not isinstance(hits, int) or hits < 0:
        raise InputError("hits", f"must be a non-negative integer, not {hits!r}")
    need = picks_needed(base, hits)
    if len(picks) != need:
        raise InputError("picks", f"{need} random picks are needed, {len(picks)} given")
    for k, p in enumerate(picks):
        left = len(base.active) - k
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < left:
            raise InputError(f"picks[{k}]", f"must be 0..{left - 1}, not {p!r}")


def airbase_attack(base: Airbase, hits: int, picks: Sequence[int]) -> tuple[Airbase,
                                                                              AirbaseAttacked]:
    """EUR-27 (Air phase) Apply ``hits`` to ``base``: the base takes every hit, and each hit
    turns one random active unit inactive (``picks``, from :func:`random_picks`). No unit is
    ever eliminated."""
    verify_airbase_attack(base, hits, picks)
    active = list(base.active)
    moved = [active.pop(p) for p in picks]
    new = replace(base, hits=base.hits + hits, active=tuple(active),
                  inactive=base.inactive + tuple(moved))
    return new, AirbaseAttacked("EUR-27", base.name, hits, tuple(picks), tuple(moved), new.hits)


@dataclass(frozen=True, slots=True)
class AirbaseRepaired:
    rule: str
    base: str
    turn: int
    hits_after: int


def verify_repair_airbase(base: Airbase, turn: int) -> None:
    """EUR-27 One hit may be repaired per turn, after the owner's air phase."""
    if base.hits == 0:
        raise IllegalOrder("EUR-27", f"{base.name} has no hits to repair")
    if base.last_repair_turn == turn:
        raise IllegalOrder("EUR-27", f"{base.name} was already repaired in turn {turn}")


def can_repair_airbase(base: Airbase, turn: int) -> bool:
    try:
        verify_repair_airbase(base, turn)
    except IllegalOrder:
        return False
    return True


def repair_airbase(base: Airbase, turn: int) -> tuple[Airbase, AirbaseRepaired]:
    """EUR-27 Repair one hit (once per turn, after the owner's air phase)."""
    verify_repair_airbase(base, turn)
    new = replace(base, hits=base.hits - 1, last_repair_turn=turn)
    return new, AirbaseRepaired("EUR-27", base.name, turn, new.hits)
