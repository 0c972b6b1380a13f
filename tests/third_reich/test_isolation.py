"""TR-72..TR-74: breakout, isolation attrition and USSR supply sources."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grognard.core.errors import InputError
from grognard.core.tables import load_tables
from grognard.third_reich.supply.isolation import (
    SupplyCheckPhase,
    UssrSupplyTier,
    breakout,
    isolation_drms,
    isolation_elimination_chance,
    isolation_roll,
    supply_check_phase,
    ussr_supply_sources,
)
from grognard.third_reich.turn.calendar import Region, Season, Weather
from grognard.third_reich.turn.combat_readings import TRCombatReadings
from grognard.third_reich.turn.forces import GroundKind, GroundUnit, Side


def test_tr73_tv20_isolation_vectors() -> None:
    """RULES.md TR-TV20: roll 9 in snow, east, adjacent enemy, city path → 6 eliminated;
    roll 7 in summer at home → 9 survives; roll 8 east at home → 8 survives."""
    a = isolation_roll(9, Weather.SNOW, Season.WINTER, Region.EAST, adjacent_enemy=True,
                       city_path=True)
    assert (a.modified_roll, a.eliminated) == (6, True)
    b = isolation_roll(7, Weather.CLEAR, Season.SUMMER1, Region.EUROPE, home_country=True)
    assert (b.modified_roll, b.eliminated) == (9, False)
    c = isolation_roll(8, Weather.CLEAR, Season.FALL, Region.EAST, home_country=True)
    assert (c.modified_roll, c.eliminated) == (8, False)


def test_tr73_every_drm() -> None:
    """Seed 002 "isolation attrition DRMs, all are cumulative"."""
    d = isolation_drms(Weather.MUD, Season.SPRING, Region.EAST, True, True, True)
    assert d == {"mud": -1, "remote_region": -1, "adjacent_enemy": -1, "home_country": 1,
                 "city_path": 1}
    assert isolation_drms(Weather.SNOW, Season.WINTER, Region.EUROPE) == {"snow": -2}
    assert isolation_drms(Weather.CLEAR, Season.SUMMER2, Region.SCANDINAVIA) == {
        "summer": 1, "remote_region": -1}
    assert isolation_drms(Weather.CLEAR, Season.FALL, Region.MEDITERRANEAN) == {
        "remote_region": -1}
    islands = TRCombatReadings(isolation_mediterranean_remote=False)
    assert isolation_drms(Weather.CLEAR, Season.FALL, Region.MEDITERRANEAN,
                          readings=islands) == {}


def test_tr73_threshold_seven_eliminates_eight_survives() -> None:
    assert isolation_roll(7, Weather.CLEAR, Season.FALL, Region.EUROPE).eliminated
    assert not isolation_roll(8, Weather.CLEAR, Season.FALL, Region.EUROPE).eliminated


def test_tr73_exact_chance() -> None:
    assert isolation_elimination_chance(0) == Fraction(21, 36)
    assert isolation_elimination_chance(-4) == Fraction(35, 36)
    assert isolation_elimination_chance(6) == 0


def test_tr73_drm_table_is_published() -> None:
    t = load_tables().get("tr_isolation_drms")
    assert str(t.source) == "published" and t.lookup("snow", "drm") == -2


def test_tr73_bad_roll() -> None:
    with pytest.raises(InputError, match="roll"):
        isolation_roll(1, Weather.CLEAR, Season.FALL, Region.EUROPE)
    with pytest.raises(InputError, match="weather"):
        isolation_roll(7, "fog", Season.FALL, Region.EUROPE)  # type: ignore[arg-type]


def test_tr72_breakout_eliminates_by_choice() -> None:
    u = GroundUnit("a", "german", Side.AXIS, GroundKind.INFANTRY, 3)
    b = breakout("M10", [u])
    assert b.units == ("a",)
    with pytest.raises(InputError):
        breakout("M10", [])


def test_tr72_supply_check_timing() -> None:
    assert supply_check_phase("offensive", Weather.CLEAR) is \
        SupplyCheckPhase.AFTER_MECHANIZED_COMBAT
    assert supply_check_phase("offensive", Weather.SNOW) is SupplyCheckPhase.AFTER_COMBAT
    assert supply_check_phase("attrition", Weather.CLEAR) is SupplyCheckPhase.AFTER_ATTRITION
    assert supply_check_phase("pass", Weather.CLEAR) is SupplyCheckPhase.AFTER_MOVEMENT
    with pytest.raises(InputError, match="option"):
        supply_check_phase("retreat", Weather.CLEAR)


def test_tr74_ussr_supply_fallback_chain() -> None:
    """Seed 002 "USSR supply sources"."""
    rvc = [("Leningrad", True), ("Stalingrad", False)]
    assert ussr_supply_sources(True, rvc, []).sources == ("Moscow",)
    s = ussr_supply_sources(False, rvc, [("Archangel", True)])
    assert s.tier is UssrSupplyTier.RED_VICTORY_CITIES and s.sources == ("Leningrad",)
    s = ussr_supply_sources(False, [("Leningrad", False)], [("Archangel", True),
                                                             ("Murmansk", False)])
    assert s.tier is UssrSupplyTier.CITIES_AND_PORTS and s.sources == ("Archangel",)
