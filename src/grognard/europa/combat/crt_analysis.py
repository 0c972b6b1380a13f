"""Europa revised CRT analysis: exact odds via the one resolve function, and vectorised Monte
Carlo over the same table (EUR-09, EUR-11, EUR-15).

Exact: ``Distribution.of("2d6").map(...)`` of :func:`~grognard.europa.combat.crt.crt_result` (or of
:func:`~grognard.europa.combat.crt.resolve_setup` for a whole attack, over every barrage roll too).
Monte Carlo: the CRT's integer code matrix indexed by sampled, modified, clamped rolls.

>>> s = column_stats(drms=(0,))
>>> [x for x in s if x.column == "7-1"][0].p_attacker_loss
Fraction(1, 6)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from grognard.core.dice import DiceStream
from grognard.core.errors import InputError
from grognard.core.exact import exact_json, ratio_str
from grognard.core.inputs import open_output
from grognard.core.tables import Table, TableSet, load_tables
from grognard.europa.combat.attack import CRT_TABLE, Attack
from grognard.europa.combat.bombardment import barrage_strength
from grognard.europa.combat.crt import (
    RESULT_EFFECTS,
    CrtResult,
    combat_setup,
    crt_result,
)
from grognard.europa.combat.odds import RESULT_ORDER, TWO_D6
from grognard.europa.combat.odds import AttackOdds as AttackOdds  # moved there (issue 22)
from grognard.europa.combat.odds import attack_odds as attack_odds

DRMS = (-1, 0, 1, 2)
ATTACKER_LOSS = frozenset({CrtResult.A1, CrtResult.A2, CrtResult.X1, CrtResult.AE})
DISLODGED = frozenset({CrtResult.DR, CrtResult.D2})


def result_distribution(column: str, drm: int, table: Table | None = None
                        ) -> dict[CrtResult, Fraction]:
    """Exact distribution of the CRT result in ``column`` with ``drm`` (EUR-09)."""
    t = table if table is not None else load_tables().get(CRT_TABLE)
    return TWO_D6.map(lambda r: crt_result(column, drm, r, t))


@dataclass(frozen=True, slots=True)
class ColumnStats:
    """One CRT column under one DRM: the designer's numbers (losses in L)."""

    column: str
    drm: int
    p_attacker_loss: Fraction
    e_attacker_loss: Fraction
    e_defender_loss: Fraction
    p_defender_dislodged: Fraction
    probabilities: dict[CrtResult, Fraction]

    def to_json(self) -> dict[str, Any]:
        return {
            "column": self.column,
            "drm": self.drm,
            "p_attacker_loss": ratio_str(self.p_attacker_loss),
            "e_attacker_loss_l": exact_json(self.e_attacker_loss),
            "e_defender_loss_l": exact_json(self.e_defender_loss),
            "p_defender_dislodged": ratio_str(self.p_defender_dislodged),
        }


def stats_of(column: str, drm: int, dist: dict[CrtResult, Fraction]) -> ColumnStats:
    return ColumnStats(
        column, drm,
        sum((p for r, p in dist.items() if r in ATTACKER_LOSS), Fraction(0)),
        sum((p * RESULT_EFFECTS[r][0] for r, p in dist.items()), Fraction(0)),
        sum((p * RESULT_EFFECTS[r][1] for r, p in dist.items()), Fraction(0)),
        sum((p for r, p in dist.items() if r in DISLODGED), Fraction(0)),
        dist,
    )


def column_stats(table: Table | None = None, drms: Sequence[int] = DRMS) -> list[ColumnStats]:
    """Per column and DRM: P(attacker loss), E[attacker loss] and E[defender loss] in L, and
    P(defender dislodged) = P(DR or D2), exactly."""
    t = table if table is not None else load_tables().get(CRT_TABLE)
    return [stats_of(c, d, result_distribution(c, d, t)) for c in t.columns for d in drms]


# --- Monte Carlo over the same table -------------------------------------------------------


def _row_index(table: Table) -> npt.NDArray[np.int64]:
    """Map a modified roll 2..12 to the table's row index."""
    keys = list(table.rows)
    out = np.zeros(13, dtype=np.int64)
    for roll in range(2, 13):
        if roll not in keys:
            raise InputError("table", f"CRT has no row {roll}")
        out[roll] = keys.index(roll)
    return out


def _result_index(alphabet: Sequence[Any]) -> npt.NDArray[np.int64]:
    return np.array([RESULT_ORDER.index(CrtResult(str(c))) for c in alphabet], dtype=np.int64)


def monte_carlo_results(column: str, drm: int, n: int, stream: DiceStream,
                        table: Table | None = None) -> dict[CrtResult, int]:
    """Counts of each result over ``n`` sampled combats in one column (vectorised)."""
    t = table if table is not None else load_tables().get(CRT_TABLE)
    codes, alphabet = t.codes()
    col = t.column_index(column)
    rolls = np.clip(stream.sample("2d6", n).astype(np.int64) + drm, 2, 12)
    res = _result_index(alphabet)[codes[_row_index(t)[rolls], col]]
    counts = np.bincount(res, minlength=len(RESULT_ORDER))
    return {r: int(counts[i]) for i, r in enumerate(RESULT_ORDER) if counts[i]}


# --- a whole attack ----------------------------------------------------------------------------


def monte_carlo_attack(attack: Attack, n: int, stream: DiceStream,
                       tables: TableSet | None = None) -> dict[CrtResult, int]:
    """Counts of each result over ``n`` sampled combats of ``attack``: the barrage and CRT
    rolls sampled with numpy and looked up in the same tables (vectorised)."""
    ts = tables if tables is not None else load_tables()
    crt = ts.get(CRT_TABLE)
    codes, alphabet = crt.codes()
    res_idx = _result_index(alphabet)
    rows = _row_index(crt)
    fires = barrage_strength(attack) > 0
    setups = [combat_setup(attack, b if fires else None, ts) for b in range(2, 13)]
    col = np.array([crt.column_index(s.odds.column) if s.odds.column else -1 for s in setups])
    drm = np.array([s.drm for s in setups], dtype=np.int64)
    fixed = np.array([RESULT_ORDER.index(CrtResult.AE) if s.odds.eliminated else
                      RESULT_ORDER.index(CrtResult.NONE) if s.hex_cleared else -1
                      for s in setups], dtype=np.int64)
    b = (stream.sample("2d6", n).astype(np.int64) - 2) if fires else np.full(n, 5, np.int64)
    r = stream.sample("2d6", n).astype(np.int64)
    modified = np.clip(r + drm[b], 2, 12)
    looked = res_idx[codes[rows[modified], np.maximum(col[b], 0)]]
    res = np.where(fixed[b] >= 0, fixed[b], looked)
    counts = np.bincount(res, minlength=len(RESULT_ORDER))
    return {x: int(counts[i]) for i, x in enumerate(RESULT_ORDER) if counts[i]}


def crt_chart(stats: Sequence[ColumnStats], path: Path | str, title: str = "") -> Path:
    """Write a 2x2 PNG chart of the CRT statistics (one line per DRM) for designers.

    matplotlib is imported here, lazily, with the Agg backend (no display needed).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = list(dict.fromkeys(s.column for s in stats))
    drms = sorted({s.drm for s in stats})
    panels = (("P(attacker loss)", "p_attacker_loss"), ("E[attacker loss] (L)", "e_attacker_loss"),
              ("E[defender loss] (L)", "e_defender_loss"),
              ("P(defender dislodged: DR or D2)", "p_defender_dislodged"))
    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharex=True)
    for ax, (label, attr) in zip(axes.ravel(), panels, strict=True):
        for d in drms:
            by_col = {s.column: float(getattr(s, attr)) for s in stats if s.drm == d}
            ax.plot(columns, [by_col[c] for c in columns], marker="o", label=f"DRM {d:+d}")
        ax.set_title(label)
        ax.grid(True, alpha=0.3)
    axes[0][0].legend()
    for ax in axes[1]:
        ax.set_xlabel("odds column")
    fig.suptitle(title or "Europa revised CRT")
    fig.tight_layout()
    try:
        with open_output(path, "--png") as tmp:
            fig.savefig(tmp, dpi=100, format="png")
    finally:
        plt.close(fig)
    return Path(path)
