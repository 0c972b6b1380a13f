"""TR-50 / TR-79 ("Air and naval combat tables"; "Strategic Warfare"): the 1D10 effectiveness fire.

Every air, naval and strategic-warfare fire in Revised Third Reich is one 1D10 roll on the
New3RAirNaval table: hits = factors x multiplier(roll), rounded down, except that some firers
(non-phasing air under 5 factors, subs and bombers firing at half factors) round a fraction of
0.6 or more up (the "0.6 rule", :func:`grognard.core.exact.round06`). The multiplier table is
a reconstruction (RULES.md section 3c) shipped as ``tr_new3r_airnaval.toml``; pass another
:class:`~grognard.core.tables.Table` with the same shape to use the published one.

One pure function of the inputs and the roll (:func:`effectiveness_hits`); exact odds are that
function over the 1D10 distribution (:func:`effectiveness_odds`); Monte Carlo is the same table
vectorised over sampled rolls (:func:`effectiveness_hits_sampled`).

>>> [effectiveness_hits(15, r) for r in range(1, 11)]
[0, 0, 3, 3, 3, 6, 6, 6, 9, 9]
>>> effectiveness_hits(3, 9, round06=True), effectiveness_hits(3, 9)
(2, 1)
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from grognard.core.dice import Distribution, clamp_roll
from grognard.core.errors import InputError, TableError
from grognard.core.exact import Exact
from grognard.core.exact import round06 as round_06
from grognard.core.tables import Table, shipped_tables

TABLE_ID = "tr_new3r_airnaval"
ROLL_MIN = 1
ROLL_MAX = 10


def airnaval_table() -> Table:
    """The shipped (reconstructed) New3RAirNaval table."""
    return shipped_tables()[TABLE_ID]


def multiplier(roll: int, table: Table | None = None) -> Fraction:
    """TR-50: the hit multiplier of a modified roll already clamped to 1..10.

    >>> multiplier(1), multiplier(5), multiplier(10)
    (Fraction(0, 1), Fraction(1, 5), Fraction(3, 5))
    """
    t = table if table is not None else airnaval_table()
    cell = t.lookup(roll, t.columns[0])
    try:
        value = Fraction(str(cell))
    except (ValueError, ZeroDivisionError):
        raise TableError(f"multiplier {cell!r} is not an exact number", file=t.file,
                         table=t.id, row=roll) from None
    if value < 0:
        raise TableError("multiplier must not be negative", file=t.file, table=t.id, row=roll)
    return value


def _check(factors: Exact, roll: int) -> Fraction:
    if isinstance(roll, bool) or not isinstance(roll, int) or not ROLL_MIN <= roll <= ROLL_MAX:
        raise InputError("roll", f"a 1D10 roll is 1..10, not {roll!r}")
    f = Fraction(factors)
    if f < 0:
        raise InputError("factors", f"firing factors cannot be negative ({factors})")
    return f


def raw_hits(factors: Exact, roll: int, drm: int = 0, table: Table | None = None) -> Fraction:
    """TR-50: the unrounded hits, factors x multiplier(roll + drm clamped to 1..10)."""
    f = _check(factors, roll)
    return f * multiplier(clamp_roll(roll, drm, ROLL_MIN, ROLL_MAX), table)


def effectiveness_hits(
    factors: Exact,
    roll: int,
    drm: int = 0,
    round06: bool = False,
    table: Table | None = None,
) -> int:
    """TR-50/TR-79 (Air and naval combat tables): hits of ``factors`` firing with a 1D10 ``roll``.

    ``drm`` moves the roll before clamping to 1..10. Hits round down, or by the 0.6 rule
    (a fraction of 0.6 or more rounds up) when ``round06`` is set.

    >>> effectiveness_hits(5, 10, drm=1), effectiveness_hits(5, 1, drm=-3)
    (3, 0)
    """
    h = raw_hits(factors, roll, drm, table)
    return round_06(h) if round06 else math.floor(h)


def effectiveness_odds(
    factors: Exact, drm: int = 0, round06: bool = False, table: Table | None = None
) -> dict[int, Fraction]:
    """TR-50: exact distribution of hits (the same function over the 1D10 distribution).

    >>> effectiveness_odds(15)[9]
    Fraction(1, 5)
    """
    dist = Distribution.of("1d10").map(
        lambda r: effectiveness_hits(factors, r, drm, round06, table)
    )
    return dict(sorted(dist.items()))


def effectiveness_hits_sampled(
    factors: Exact,
    rolls: npt.NDArray[np.integer],
    drm: int = 0,
    round06: bool = False,
    table: Table | None = None,
) -> npt.NDArray[np.int64]:
    """TR-50: vectorised hits for an array of natural rolls (Monte Carlo)."""
    lookup = np.array(
        [effectiveness_hits(factors, r, 0, round06, table) for r in range(ROLL_MIN, ROLL_MAX + 1)],
        dtype=np.int64,
    )
    arr = np.asarray(rolls, dtype=np.int64)
    if arr.size and (arr.min() < ROLL_MIN or arr.max() > ROLL_MAX):
        raise InputError("rolls", "1D10 rolls are 1..10")
    idx = np.clip(arr + drm, ROLL_MIN, ROLL_MAX) - ROLL_MIN
    out: npt.NDArray[np.int64] = lookup[idx]
    return out
