"""Europa revised terrain effects (EUR-10) from the configurable generic TEC stand-in.

Seed: 001_20f3acfdeb9925e5.txt, "Terrain effects on combat".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grognard.core.errors import InputError
from grognard.core.tables import load_tables
from grognard.europa.combat.attack import Combatant, attack_from_json
from grognard.europa.combat.crt import combat_setup
from grognard.europa.combat.terrain import (
    Halving,
    crossing_multiplier,
    hex_effects,
    hexside_halving,
)


def test_eur10_terrain_table_is_a_reconstructed_stand_in():
    t = load_tables().get("europa_terrain_effects")
    assert str(t.source) == "reconstructed" and "STAND-IN" in t.meta["note"]


def test_eur10_effects_combine_features():
    e = hex_effects("woods", fortified=True, major_city=True)
    assert e.defense_add == 1 and e.defense_multiplier == 2 and not e.armor_odds_allowed
    assert e.bombard_left == 1


def test_eur10_frozen_river_reading():
    """Generic stand-in: a frozen river has no effect; a frozen major river acts as a river."""
    assert hexside_halving(("frozen_river",)) == Halving.NONE
    assert hexside_halving(("frozen_major_river",)) == Halving.MECHANIZED
    mech = Combatant("m", attack=8, type="motorized")
    assert crossing_multiplier(mech, ("frozen_major_river",)) == 1 / 2


def test_eur10_unknown_terrain_rejected():
    with pytest.raises(InputError, match="terrain"):
        hex_effects("lava")
    with pytest.raises(InputError, match="terrain"):
        hex_effects("fortified")


def test_eur10_user_table_replaces_the_stand_in(tmp_path: Path):
    """A user's TEC with the same id replaces the stand-in (here: woods gives +2 and a shift)."""
    (tmp_path / "tec.toml").write_text(
        'id = "europa_terrain_effects"\ntitle = "my TEC"\nsource = "user"\nrow_key = "terrain"\n'
        'columns = ["defense_add", "left_shifts", "negates_armor", "bombard_left", '
        '"no_bombard_drm", "defense_multiplier"]\n'
        '[[rows]]\nkey = "woods"\nresults = [2, 1, 1, 0, 0, 1]\n', encoding="utf-8")
    ts = load_tables(tmp_path)
    a = attack_from_json({"attackers": [{"id": "a", "attack": 24}],
                          "defenders": [{"id": "d", "defense": 6}], "terrain": "woods"}, ts)
    s = combat_setup(a, tables=ts)
    assert s.defense_strength == 8 and s.odds.column == "2-1"
