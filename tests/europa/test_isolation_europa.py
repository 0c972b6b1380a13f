"""EUR-32 Europa revised isolation attrition roll."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from grognard.core.dice import DiceStream, Distribution
from grognard.core.errors import InputError
from grognard.europa.supply.isolation import (
    is_winter,
    isolation_drms,
    isolation_loss_chance,
    isolation_outcome,
    isolation_roll,
)
from grognard.europa.supply.phase import SupplyReadings, WinterDefinition


def test_eur32_all_drms_cumulative():
    """Seed 001 "Attrition DRMs, all are cumulative": -1 adjacent, -1 region, -1 winter,
    +1 home country, +1 path to a friendly major city."""
    d = isolation_drms(adjacent_enemy=True, region="russia", winter=True, home_country=True,
                       major_city_path=True)
    assert d == {"adjacent_enemy": -1, "remote_region": -1, "winter": -1, "home_country": 1,
                 "major_city_path": 1}


def test_eur32_no_winter_drm_in_north_africa():
    assert isolation_drms(region="north_africa", winter=True) == {"remote_region": -1}


def test_eur32_western_europe_is_not_remote():
    assert isolation_drms(region="other") == {}


def test_eur32_six_or_less_takes_50_percent_loss():
    """Seed 001: "On a 6 or less, the stack must fulfill a 50% loss result"."""
    r = isolation_roll(7, strength=12, adjacent_enemy=True)
    assert r.modified_roll == 6 and r.suffers_loss and r.loss == 6


def test_eur32_seven_or_more_no_loss():
    r = isolation_roll(7, strength=12)
    assert r.modified_roll == 7 and not r.suffers_loss and r.loss == 0


def test_eur32_loss_is_exact_half():
    assert isolation_outcome(2, 9) == Fraction(9, 2)


def test_eur32_exact_odds_match_roll_function():
    """The exact odds are the roll function mapped over 2D6 (STYLE.md)."""
    dist = Distribution.of("2d6")
    for flags in ({}, {"adjacent_enemy": True}, {"adjacent_enemy": True, "region": "russia",
                                                  "winter": True}, {"home_country": True}):
        total = sum(isolation_drms(**flags).values())
        expect = sum((p for r, p in dist.probabilities().items()
                      if isolation_roll(r, strength=2, **flags).suffers_loss), Fraction(0))
        assert isolation_loss_chance(total) == expect
    assert isolation_loss_chance(0) == Fraction(15, 36)


def test_eur32_monte_carlo_agrees_with_exact_odds():
    rolls = DiceStream(7, "europa.isolation").sample("2d6", 200_000).astype(np.int64)
    freq = float(np.mean(rolls - 2 <= 6))
    assert abs(freq - float(isolation_loss_chance(-2))) < 0.005


def test_eur32_winter_reading():
    assert is_winter(12) and is_winter(2) and not is_winter(3)
    r = SupplyReadings(isolation_winter_definition=WinterDefinition.WINTER_WEATHER)
    assert is_winter(7, "snow", r) and not is_winter(1, "clear", r)


def test_eur32_bad_input():
    with pytest.raises(InputError):
        isolation_roll(13, strength=1)
    with pytest.raises(InputError):
        isolation_roll(7, strength=-1)
    with pytest.raises(InputError):
        isolation_drms(region="mars")
    with pytest.raises(InputError):
        is_winter(13)


def test_eur32_shares_no_code_with_third_reich_isolation():
    """RULES.md section 6 item 9: only the DRM-table idea is shared."""
    import grognard.europa.supply.isolation as eur

    src = Path(eur.__file__).read_text(encoding="utf-8")
    assert "third_reich" not in src
    assert isolation_roll(7, strength=2).suffers_loss is False  # 3R would eliminate on 7
