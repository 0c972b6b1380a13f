"""Exact outcome distributions of the Revised Third Reich combat tables, for designers.

Every figure here is the rule function itself mapped over the exact die distribution
(:meth:`grognard.core.dice.Distribution.map`), so the analysis can never disagree with play:

* :func:`land_crt_distributions`: each land CRT column's result chances and expected unit
  losses under a DRM (TR-32, TR-36);
* :func:`attrition_expectations`: each attrition column's expected units lost and hexes won in
  36ths, set against the text's printed values (TR-42);
* :func:`fire_distribution`: the hits of an air/naval fire (TR-50).

A Monte Carlo check (:func:`land_crt_monte_carlo`) vectorises the same table with numpy.

>>> rows = attrition_expectations()
>>> rows[3]["def"], rows[3]["att"], rows[3]["hex"]
('144/36', '69/36', '72/36')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from grognard.core.dice import DiceStream
from grognard.core.exact import exact_json, ratio_str
from grognard.core.tables import Table
from grognard.third_reich.air_naval.effectiveness import effectiveness_odds
from grognard.third_reich.combat.attrition import (
    PUBLISHED_EXPECTATIONS,
    attrition_expectation,
    attrition_table,
)
from grognard.third_reich.combat.combat import (
    column_odds,
    crt_table,
    expected_losses,
    sample_land_results,
)

DENOMINATOR = 36


def in_36ths(x: Fraction) -> str:
    """An expectation over 2D6 as ``"n/36"`` (never reduced)."""
    n = x * DENOMINATOR
    if n.denominator != 1:
        return ratio_str(x)
    return f"{n.numerator}/{DENOMINATOR}"


@dataclass(frozen=True, slots=True)
class CrtColumnStats:
    column: str
    drm: int
    probabilities: dict[str, Fraction]
    attacker_units: Fraction
    defender_units: Fraction

    def to_json(self) -> dict[str, Any]:
        return {"column": self.column, "drm": self.drm,
                "probabilities": {k: ratio_str(v) for k, v in self.probabilities.items()},
                "attacker_units": exact_json(self.attacker_units),
                "defender_units": exact_json(self.defender_units)}


def land_crt_distributions(drm: int = 0, table: Table | None = None) -> list[CrtColumnStats]:
    """TR-32: exact result chances and expected unit losses of every CRT column under ``drm``."""
    t = table if table is not None else crt_table()
    out = []
    for col in t.columns:
        att, dfn = expected_losses(col, drm, t)
        out.append(CrtColumnStats(col, drm, column_odds(col, drm, t), att, dfn))
    return out


def attrition_expectations(table: Table | None = None) -> list[dict[str, str]]:
    """TR-42: per column, expected defender and attacker units lost and hexes won, in 36ths."""
    t = table if table is not None else attrition_table()
    rows = []
    for col in t.columns:
        e = attrition_expectation(col, t)
        rows.append({"def": in_36ths(e.defender), "att": in_36ths(e.attacker),
                     "hex": in_36ths(e.hexes)})
    return rows


def attrition_comparison(table: Table | None = None) -> list[dict[str, Any]]:
    """TR-42: the exact expectations next to the printed ones (designer's view).

    The printed Def of column 6 (7.16) is 258/36 truncated; the printed Diff of column 4 (2.17)
    disagrees with its own Def − Att (2.08): the text's inconsistency.
    """
    t = table if table is not None else attrition_table()
    out = []
    for i, col in enumerate(t.columns):
        e = attrition_expectation(col, t)
        printed = {k: v[i] for k, v in PUBLISHED_EXPECTATIONS.items()} if i < 7 else {}
        out.append({"column": col, "def": e.defender, "att": e.attacker, "hex": e.hexes,
                    "diff": e.difference, "printed": printed})
    return out


def fire_distribution(factors: int, drm: int = 0, round06: bool = False,
                      table: Table | None = None) -> dict[int, Fraction]:
    """TR-50: exact distribution of hits of one 1D10 fire."""
    return effectiveness_odds(factors, drm, round06, table)


def land_crt_monte_carlo(column: str, drm: int, n: int, seed: int,
                         table: Table | None = None) -> dict[str, float]:
    """TR-32: sampled result frequencies of a column (same table, numpy over sampled rolls)."""
    t = table if table is not None else crt_table()
    rolls = DiceStream(seed, "tr-crt-montecarlo").sample("2d6", n)
    codes = sample_land_results(column, drm, rolls, t)
    _, alphabet = t.codes()
    counts = np.bincount(codes, minlength=len(alphabet))
    return {str(alphabet[i]): float(counts[i]) / n for i in range(len(alphabet)) if counts[i]}
