"""Europa revised air wings (EUR-01).

Seed: 001_20f3acfdeb9925e5.txt, "New air wing bombardment ratings -": "Ju-87B or D - 15-3,
Ju-88 or He-111 - 6-15, Do-17 - 6-10, Me-110 - 10-6, Bf-109E or F - 3-0".
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from grognard.core.errors import InputError
from grognard.europa.air.wings import (
    ground_support_strength,
    strategic_strength,
    wing_for,
    wing_table,
    wings_from_units,
)
from grognard.europa.combat.bombardment import bombardment_column


@pytest.mark.parametrize(("kind", "tac", "strat"), [
    ("Ju-87B", 15, 3), ("Ju-87D", 15, 3), ("Ju-88", 6, 15), ("He-111", 6, 15),
    ("Do-17", 6, 10), ("Me-110", 10, 6), ("Bf-109E", 3, 0), ("Bf-109F", 3, 0)])
def test_eur01_listed_wing_ratings(kind, tac, strat):
    """EUR-01: the printed ratings, read as tactical-strategic."""
    w = wing_for(kind)
    assert (w.tactical, w.strategic) == (tac, strat)


def test_eur01_table_is_published_data():
    assert str(wing_table().source) == "published"


def test_eur01_wings_inherit_range_and_air_combat():
    w = wing_for("Me-110", range_hexes=12, air_combat=4)
    assert (w.range_hexes, w.air_combat) == (12, 4)


def test_eur01_three_units_per_wing():
    """EUR-01: consolidate air units into wings, 3 for 1."""
    assert wings_from_units(9) == (3, 0)
    assert wings_from_units(4) == (1, 1)


def test_eur01_unlisted_type_is_missing():
    with pytest.raises(InputError, match="Hs-123"):
        wing_for("Hs-123")


def test_eur01_wings_total_into_one_bombardment():
    """EUR-03: all firing units of a category are totalled: 3 Ju-87 wings = 45."""
    wings = [wing_for("Ju-87B")] * 3
    assert ground_support_strength(wings) == 45
    assert bombardment_column(ground_support_strength(wings), F(4)) == "45-59"
    assert strategic_strength([wing_for("He-111"), wing_for("Do-17")]) == 25
