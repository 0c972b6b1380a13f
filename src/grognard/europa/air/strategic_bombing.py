"""EUR-28 (Air phase) Strategic bombing changes.

Strategic missions roll the 2D6 bombardment table (``europa_revised_bombardment``, a
RECONSTRUCTION) with the wings' strategic ratings (EUR-01). The revised effects:

* every rail marshalling-yard attack also removes 1 enemy supply point per hit from the enemy's
  supply track, subject to the same per-target effective-hit limit as the rail mission (that
  limit is EXTERNAL: pass it as ``hit_limit``);
* hits on factories and Soviet supply cities cut Russian replacements by 1 per 2 hits (the
  original: 1 per 3); reading: odd hits carry over within the turn (``prior_hits``);
* in games with explicit supply units (e.g. Western Desert) only "2" results remove a supply
  step; "1" results do nothing.

Port, rail-capacity and Russian-replacement missions keep their original effects (EXTERNAL):
their effective hits are reported and nothing more.

>>> strategic_bombing("marshalling_yard", [2, 1]).supply_points_lost
3
>>> strategic_bombing("marshalling_yard", [2, 1], explicit_supply_units=True).supply_steps_lost
1
>>> strategic_bombing("factory", [1, 2]).replacement_points_lost
1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from grognard.core.dice import Distribution
from grognard.core.errors import InputError, parse_enum
from grognard.core.readings import Readings
from grognard.core.tables import Table
from grognard.europa.combat.bombardment import (
    bombardment_column,
    bombardment_hits,
    bombardment_table,
)

NO_RE_SHIFT = Fraction(3)


class StrategicTarget(StrEnum):
    """EUR-28 Strategic bombing targets."""

    PORT = "port"
    RAIL_CAPACITY = "rail_capacity"
    MARSHALLING_YARD = "marshalling_yard"
    FACTORY = "factory"
    SOVIET_SUPPLY_CITY = "soviet_supply_city"
    RUSSIAN_REPLACEMENTS = "russian_replacements"


REPLACEMENT_TARGETS = frozenset({StrategicTarget.FACTORY, StrategicTarget.SOVIET_SUPPLY_CITY})
LIMITED_TARGETS = frozenset({StrategicTarget.MARSHALLING_YARD, StrategicTarget.RAIL_CAPACITY})


@dataclass(frozen=True)
class StrategicBombingReadings(Readings):
    """Switches of EUR-28 (RULES.md section 1.2)."""

    #: Hits on factories / Soviet supply cities per Russian replacement point lost (original 3).
    hits_per_replacement_point: int = 2
    #: Odd hits accumulate within the turn (floor of the running total) — RULES.md default.
    carry_odd_hits: bool = True


def strategic_hits(strength: int, roll: int, drm: int = 0, hex_re: Fraction = NO_RE_SHIFT,
                   mountain_fort_city: bool = False, table: Table | None = None) -> int:
    """EUR-28 Hits (0, 1, 2) of a strategic mission of ``strength`` strategic points on 2D6."""
    t = table if table is not None else bombardment_table()
    return bombardment_hits(bombardment_column(strength, hex_re, mountain_fort_city, t), drm,
                            roll, t)


def strategic_hit_odds(strength: int, drm: int = 0, hex_re: Fraction = NO_RE_SHIFT,
                       mountain_fort_city: bool = False, table: Table | None = None
                       ) -> dict[int, Fraction]:
    """EUR-28 Exact odds of 0, 1, 2 hits (the same function mapped over 2D6)."""
    t = table if table is not None else bombardment_table()
    return Distribution.of("2d6").map(
        lambda r: strategic_hits(strength, r, drm, hex_re, mountain_fort_city, t))


@dataclass(frozen=True, slots=True)
class StrategicEffect:
    """EUR-28 Effects of the strategic results against one target this turn."""

    target: StrategicTarget
    results: tuple[int, ...]
    hits: int
    effective_hits: int
    supply_points_lost: int
    replacement_points_lost: int
    supply_steps_lost: int
    hits_carried: int

    def to_json(self) -> dict[str, object]:
        return {"rule": "EUR-28", "target": self.target.value, "results": list(self.results),
                "hits": self.hits, "effective_hits": self.effective_hits,
                "supply_points_lost": self.supply_points_lost,
                "replacement_points_lost": self.replacement_points_lost,
                "supply_steps_lost": self.supply_steps_lost,
                "hits_carried": self.hits_carried}


def _count(name: str, v: int | None) -> None:
    if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
        raise InputError(name, f"must be a non-negative integer, not {v!r}")


def strategic_bombing(target: StrategicTarget | str, results: Sequence[int],
                      explicit_supply_units: bool = False, hit_limit: int | None = None,
                      prior_hits: int = 0,
                      readings: StrategicBombingReadings = StrategicBombingReadings()
                      ) -> StrategicEffect:
    """EUR-28 (Air phase) Apply this turn's bombardment ``results`` (0/1/2 each) to a target.

    ``hit_limit`` is the original rail mission's per-target limit on effective hits (EXTERNAL;
    None = no limit). ``prior_hits`` are hits already recorded this turn against replacement
    targets (odd hits carry, RULES.md reading).
    """
    tgt = parse_enum(StrategicTarget, target, "target")
    for k, r in enumerate(results):
        if r not in (0, 1, 2) or isinstance(r, bool):
            raise InputError(f"results[{k}]", f"a bombardment result is 0, 1 or 2, not {r!r}")
    _count("hit_limit", hit_limit)
    _count("prior_hits", prior_hits)
    k = readings.hits_per_replacement_point
    if k < 1:
        raise InputError("readings.hits_per_replacement_point", "must be at least 1")
    hits = sum(results)
    limited = tgt in LIMITED_TARGETS and hit_limit is not None
    effective = min(hits, hit_limit) if limited and hit_limit is not None else hits
    sp = steps = rp = carried = 0
    if tgt is StrategicTarget.MARSHALLING_YARD:
        if explicit_supply_units:
            twos = sum(1 for r in results if r == 2)
            steps = min(twos, hit_limit) if hit_limit is not None else twos
        else:
            sp = effective
    if tgt in REPLACEMENT_TARGETS:
        if readings.carry_odd_hits:
            rp = (prior_hits + hits) // k - prior_hits // k
            carried = (prior_hits + hits) % k
        else:
            rp = hits // k
    return StrategicEffect(tgt, tuple(results), hits, effective, sp, rp, steps, carried)


def replacement_points_lost(total_hits: int,
                            readings: StrategicBombingReadings = StrategicBombingReadings()
                            ) -> int:
    """EUR-28 Russian replacement points lost to ``total_hits`` on factories and Soviet supply
    cities in a turn: 1 per 2 hits (the original rules: 1 per 3).

    >>> [replacement_points_lost(h) for h in range(6)]
    [0, 0, 1, 1, 2, 2]
    """
    _count("total_hits", total_hits)
    return total_hits // readings.hits_per_replacement_point
