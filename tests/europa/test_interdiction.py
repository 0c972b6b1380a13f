"""EUR-26 interdiction missions (001_20f3acfdeb9925e5.txt, "Air phase": "Interdiction missions
use the tactical strike rating as the chance on D6 to place an interdiction zone ...")."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from grognard.core.errors import InputError
from grognard.core.mapgen import map_from_rows
from grognard.core.paths import hex_index
from grognard.europa.air.interdiction import (
    InterdictionReadings,
    InterdictionZone,
    ZoneDuration,
    interdicted_entry_cost,
    interdicted_supply_length,
    interdiction_chance,
    interdiction_mission,
    interdiction_succeeds,
    interdiction_target,
    rail_breaks,
    zone_expiry,
    zone_in_force,
    zones_mask,
)

PLAYERS = ["axis", "soviet"]


@pytest.fixture
def m():
    return map_from_rows(["ccccc"] * 5)


def test_eur26_d6_at_or_under_tactical_rating():
    """Seed: "use the tactical strike rating as the chance on D6"."""
    assert [interdiction_succeeds(3, r) for r in range(1, 7)] == [True] * 3 + [False] * 3
    assert interdiction_chance(3) == Fraction(1, 2)
    assert interdiction_chance(0) == 0


def test_eur26_ratings_of_six_or_more_always_succeed_by_default():
    """RULES.md EUR-26: wing ratings 3-15 make the test automatic for most wings (default
    divisor 1)."""
    assert interdiction_chance(6) == 1 and interdiction_chance(15) == 1


def test_eur26_rating_divisor_switch():
    r = InterdictionReadings(interdiction_rating_divisor=3)
    assert interdiction_target(15, r) == 5 and interdiction_chance(15, r) == Fraction(5, 6)
    assert interdiction_chance(6, r) == Fraction(1, 3)
    with pytest.raises(InputError):
        interdiction_target(6, InterdictionReadings(interdiction_rating_divisor=0))
    with pytest.raises(InputError):
        interdiction_succeeds(3, 7)


def test_eur26_zone_covers_one_hex_radius_and_breaks_rail(m):
    rail = np.zeros(m.n, dtype=bool)
    rail[hex_index(m, "0303")] = True
    res = interdiction_mission(m, "0303", tactical=6, roll=6, turn=2, player="axis",
                               players=PLAYERS, rail=rail)
    z = res.zone
    assert z is not None and z.centre == "0303" and len(z.hexes) == 7
    assert z.rail_break and rail_breaks([z]) == ("0303",)
    assert res.to_json()["success"] is True
    off_rail = interdiction_mission(m, "0202", 6, 1, 2, "axis", PLAYERS, rail=rail).zone
    assert off_rail is not None and not off_rail.rail_break
    assert rail_breaks([off_rail]) == ()
    mask = zones_mask(m, [z])
    assert mask.sum() == 7 and mask[hex_index(m, "0303")]


def test_eur26_failed_roll_places_no_zone(m):
    res = interdiction_mission(m, "0303", tactical=3, roll=4, turn=2, player="axis",
                               players=PLAYERS)
    assert res.zone is None and res.target == 3 and res.to_json()["zone"] is None
    with pytest.raises(InputError):
        interdiction_mission(m, "0303", 3, 1, 2, "axis", PLAYERS, rail=[True])


def test_eur26_plus_one_mp_and_smp_to_enter():
    """Seed: "costs +1 MP to enter for enemy units in a 1 hex radius. SMP costs are also
    increased by the same amount"."""
    assert interdicted_entry_cost(1, True) == 2 and interdicted_entry_cost(1, False) == 1
    assert interdicted_entry_cost(4, True) == 5  # SMP cost, same +1


def test_eur26_supply_line_one_hex_shorter():
    """Seed: "Supply lines traced through any number of interdiction zones must be 1 hex
    shorter than their normal allowed length"."""
    assert interdicted_supply_length(5, True) == 4
    assert interdicted_supply_length(5, False) == 5
    assert interdicted_supply_length(0, True) == 0


def test_eur26_zone_lasts_until_end_of_enemy_next_player_turn():
    """RULES.md EUR-26 reading: until the end of the enemy's next player turn."""
    assert zone_expiry(4, "axis", PLAYERS) == (4, "soviet")
    assert zone_expiry(4, "soviet", PLAYERS) == (5, "axis")
    z = InterdictionZone("0303", ("0303",), False, 4, "soviet", 5, "axis")
    assert [zone_in_force(z, t, p, PLAYERS) for t, p in
            [(4, "axis"), (4, "soviet"), (5, "axis"), (5, "soviet")]] == [
        False, True, True, False]


def test_eur26_zone_duration_switch():
    own = InterdictionReadings(zone_duration=ZoneDuration.OWN_NEXT_PLAYER_TURN)
    assert zone_expiry(4, "axis", PLAYERS, own) == (4, "soviet")
    assert zone_expiry(4, "axis", ["axis", "allies", "soviet"], own) == (4, "soviet")
    assert zone_expiry(4, "axis", ["axis", "allies", "soviet"]) == (4, "allies")
    with pytest.raises(InputError):
        zone_expiry(4, "italy", PLAYERS)


def test_eur26_placed_zone_feeds_core_movement(m):
    """The map layer (core.movement ``interdiction=``) charges +1 MP inside a placed zone."""
    from grognard.core.movement import europa_revised_movement, movement_range

    z = interdiction_mission(m, "0303", 6, 1, 1, "axis", PLAYERS).zone
    assert z is not None
    rules = europa_revised_movement()
    free = movement_range(m, "0103", 2, "foot", None, rules)
    slowed = movement_range(m, "0103", 2, "foot", None, rules, interdiction=zones_mask(m, [z]))
    target = hex_index(m, "0303")
    assert target in free.hexes.tolist() and target not in slowed.hexes.tolist()
