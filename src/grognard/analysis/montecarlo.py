"""Monte Carlo over rules tables, vectorised with numpy.

The outcome of a combat is the table lookup of the modified roll; here that same lookup is
applied to a whole array of sampled rolls at once. Results agree with the exact odds of
:func:`grognard.core.dice.Distribution.map` within sampling error (tests check it).

>>> from grognard.core.tables import load_tables
>>> counts = simulate_column(load_tables().table("europa_revised_crt"), "3-1", 0, 36_000,
...                          DiceStream(1, "mc"))
>>> sum(counts.values())
36000
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from grognard.core.dice import DiceExpr, DiceStream, Distribution
from grognard.core.tables import Cell, Table


def outcome_codes(table: Table, column: str, drm: int, dice: str | None = None
                  ) -> tuple[npt.NDArray[np.int16], tuple[Cell, ...]]:
    """For each equally likely raw outcome of the table's dice, the result code in ``column``
    after ``drm`` and clamping to the table's rows (36 entries for 2D6)."""
    expr = DiceExpr.parse((dice or table.dice or "2d6").lower())
    dist = Distribution.of(expr)
    codes, alphabet = table.codes()
    keys = np.array([int(k) for k in table.rows], dtype=np.int64)
    lo, hi = int(keys.min()), int(keys.max())
    row_of = {int(k): i for i, k in enumerate(table.rows)}
    rolls = np.clip(dist.outcome_lookup().astype(np.int64) + drm, lo, hi)
    col = table.column_index(column)
    per_outcome = np.array([codes[row_of[int(r)], col] for r in rolls], dtype=np.int16)
    return per_outcome, alphabet


def simulate_codes(table: Table, column: str, drm: int, n: int, stream: DiceStream
                   ) -> tuple[npt.NDArray[np.int16], tuple[Cell, ...]]:
    """``n`` sampled result codes (one uniform draw per combat)."""
    per_outcome, alphabet = outcome_codes(table, column, drm)
    return per_outcome[stream.uniform_indices(len(per_outcome), n)], alphabet


def simulate_column(table: Table, column: str, drm: int, n: int, stream: DiceStream
                    ) -> dict[Cell, int]:
    """Counts of each result over ``n`` sampled combats in ``column`` with ``drm``."""
    codes, alphabet = simulate_codes(table, column, drm, n, stream)
    counts = np.bincount(codes, minlength=len(alphabet))
    return {alphabet[i]: int(c) for i, c in enumerate(counts) if c}
