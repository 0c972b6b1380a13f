"""Europa revised Break Out (EUR-31, "Isolation Attrition").

Before the isolation attrition rolls each isolated hex may declare Break Out (voluntary, hex
by hex). Every unit of the stack, cadres included, is eliminated; the owner gains
**infantry** replacements (even for armor: the equipment is lost). The hex still rolls
(RULES.md reading: breakout hexes roll too): the RE series earns
floor((strength removed - required 50% loss) / 3) - 1 REs (with no required loss on a
modified 7 or more), never negative. Under ``breakout_factor_games`` (FitE/SE count factors)
the excess - 1 factors are earned instead. The seed's "unfulfilled" reads "overfulfilled"
(RULES.md section 6 item 15).

>>> breakout_replacements(12, 0), breakout_replacements(12, 6), breakout_replacements(3, 0)
(3, 1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grognard.core.dice import DiceStream, Distribution, Roll
from grognard.core.errors import InputError
from grognard.core.exact import exact_json, floor_q
from grognard.core.tables import Table
from grognard.europa.supply.isolation import (
    IsolationRoll,
    Region,
    check_modified_roll,
    check_total_drm,
    isolation_outcome,
    isolation_roll,
    isolation_table,
)
from grognard.europa.supply.phase import DEFAULT_READINGS, SupplyReadings


def breakout_replacements(total: Fraction | int, required_loss: Fraction | int = 0,
                          readings: SupplyReadings = DEFAULT_READINGS) -> int:
    """EUR-31 (Break Out) Infantry replacements for a broken-out stack of strength ``total``
    against the attrition roll's ``required_loss`` (0 on a modified 7+):
    floor((total - required) / 3) - 1 REs, or (total - required) - 1 factors under
    ``breakout_factor_games``; never negative.

    >>> breakout_replacements(12, 6, SupplyReadings(breakout_factor_games=True))
    5
    """
    t, req = Fraction(total), Fraction(required_loss)
    if t < 0:
        raise InputError("total", "must not be negative")
    if req < 0:
        raise InputError("required_loss", "must not be negative")
    if req > t:
        raise InputError("required_loss", f"{exact_json(req)} exceeds the stack's "
                         f"{exact_json(t)}")
    excess = t - req
    earned = floor_q(excess) - 1 if readings.breakout_factor_games else floor_q(excess / 3) - 1
    return max(0, earned)


@dataclass(frozen=True)
class BreakOut:
    """EUR-31 record of one hex's Break Out: every unit eliminated, infantry replacements."""

    hex: str
    units: tuple[str, ...]
    total: Fraction
    modified_roll: int
    required_loss: Fraction
    infantry_replacements: int
    series: str

    def to_json(self) -> dict[str, Any]:
        return {"hex": self.hex, "units": list(self.units), "total": exact_json(self.total),
                "modified_roll": self.modified_roll,
                "required_loss": exact_json(self.required_loss),
                "infantry_replacements": self.infantry_replacements, "series": self.series,
                "eliminated": list(self.units)}


def break_out(hex_label: str, units: tuple[str, ...] | list[str], total: Fraction | int,
              modified_roll: int, readings: SupplyReadings = DEFAULT_READINGS,
              table: Table | None = None) -> BreakOut:
    """EUR-31 (Break Out) Resolve a declared Break Out with the hex's modified attrition roll
    (EUR-32): the units are removed whatever the roll; the required 50% loss (if the roll is
    6 or less) is met first, the rest earns infantry replacements.

    >>> break_out("1010", ["a", "b"], 12, 5).infantry_replacements
    1
    """
    if not units:
        raise InputError("units", "a Break Out needs at least one unit")
    t = table if table is not None else isolation_table()
    check_modified_roll(modified_roll, t)
    req = isolation_outcome(modified_roll, Fraction(total), t)
    earned = breakout_replacements(total, req, readings)
    series = "factor" if readings.breakout_factor_games else "re"
    return BreakOut(hex_label, tuple(units), Fraction(total), modified_roll, req, earned,
                    series)


def breakout_odds(total: Fraction | int, total_drm: int,
                  readings: SupplyReadings = DEFAULT_READINGS,
                  table: Table | None = None) -> dict[int, Fraction]:
    """EUR-31 exact distribution of the infantry replacements a Break Out earns, over the
    2D6 attrition roll with ``total_drm`` (the same function the roll is resolved with).

    >>> {k: str(v) for k, v in breakout_odds(12, 0).items()}
    {1: '5/12', 3: '7/12'}
    """
    t = table if table is not None else isolation_table()
    check_total_drm(total_drm, t)
    return dict(sorted(Distribution.of("2d6").map(
        lambda r: breakout_replacements(total, isolation_outcome(r + total_drm,
                                                                 Fraction(total), t),
                                        readings)).items()))


@dataclass(frozen=True)
class IsolatedHex:
    """EUR-30..EUR-32 one isolated hex going into isolation attrition: its units, their
    strength (EUR-11 basis), the DRM conditions and whether the owner declares Break Out."""

    hex: str
    units: tuple[str, ...]
    strength: Fraction | int
    adjacent_enemy: bool = False
    region: Region | str = Region.OTHER
    winter: bool = False
    home_country: bool = False
    major_city_path: bool = False
    break_out: bool = False


@dataclass(frozen=True)
class AttritionRecord:
    """EUR-31/EUR-32 the event of one hex's isolation attrition: the dice, the roll record,
    and the Break Out (if declared)."""

    hex: str
    dice: Roll
    roll: IsolationRoll
    break_out: BreakOut | None

    def to_json(self) -> dict[str, Any]:
        return {"hex": self.hex, "dice": self.dice.to_json(), "roll": self.roll.to_json(),
                "break_out": None if self.break_out is None else self.break_out.to_json()}


def isolation_attrition(hexes: Sequence[IsolatedHex], dice: DiceStream,
                        readings: SupplyReadings = DEFAULT_READINGS,
                        table: Table | None = None) -> tuple[AttritionRecord, ...]:
    """EUR-31/EUR-32 (Isolation Attrition) Break Outs are declared first (``break_out`` on
    each hex, voluntary, hex by hex); then every isolated hex rolls 2D6 from ``dice`` (the
    stream ``europa.isolation``), breakout hexes too (RULES.md reading). A hex on 6 or less
    must allocate the 50% loss (the record's ``roll.loss``); a broken-out hex is removed and
    earns infantry replacements."""
    t = table if table is not None else isolation_table()
    seen: set[str] = set()
    out: list[AttritionRecord] = []
    for h in hexes:
        if h.hex in seen:
            raise InputError("hexes", f"hex {h.hex} listed twice")
        seen.add(h.hex)
        rolled = dice.roll("2d6")
        r = isolation_roll(rolled.total, strength=h.strength, adjacent_enemy=h.adjacent_enemy,
                           region=h.region, winter=h.winter, home_country=h.home_country,
                           major_city_path=h.major_city_path, table=t)
        bo = (break_out(h.hex, h.units, h.strength, r.modified_roll, readings, t)
              if h.break_out else None)
        out.append(AttritionRecord(h.hex, rolled, r, bo))
    return tuple(out)


__all__ = [
    "AttritionRecord", "BreakOut", "IsolatedHex", "break_out", "breakout_odds",
    "breakout_replacements", "isolation_attrition",
]
