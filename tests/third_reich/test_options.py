"""TR-03, TR-25, TR-31: front options, declarations of war and the price list."""

from __future__ import annotations

import pytest

from grognard.core.errors import InputError
from grognard.third_reich.turn.options import (
    dow_cost,
    option_cost,
    options_cost,
    price,
    unit_cost,
)


def test_tr03_offensive_attrition_pass_costs():
    """Seed 002 "Front options": offensive 10, attrition 5, pass 0."""
    assert option_cost("western", "offensive", 1940) == 10
    assert option_cost("eastern", "attrition", 1942) == 5
    assert option_cost("western", "pass", 1940) == 0


def test_tr03_mediterranean_offensive_5_through_1941():
    """Seed 002 "Front options": Mediterranean offensives cost 5 through 1941 inclusive."""
    assert option_cost("southern", "offensive", 1941) == 5
    assert option_cost("southern", "offensive", 1942) == 10
    assert option_cost("southern", "attrition", 1941) == 5


def test_tr03_total_of_a_turns_options():
    assert options_cost({"western": "offensive", "southern": "offensive",
                         "eastern": "attrition"}, 1941) == 20


def test_tr25_dow_minor_once_per_season_major_15():
    """Seed 002 "Declarations of war against minor powers cost 5 BRPs, but any number..."."""
    assert dow_cost(minors=1) == 5
    assert dow_cost(minors=4) == 5
    assert dow_cost(minors=2, minor_dow_paid_this_season=True) == 0
    assert dow_cost(majors=1) == 15
    assert dow_cost(minors=2, majors=2) == 35


def test_tr31_price_list():
    """Seed 002 "Updated BRP costs"."""
    assert [price(k) for k in ("dow_major", "dow_minor", "offensive", "attrition", "sw_factor",
                               "naval_factor", "air_factor", "airborne_factor", "armor_factor",
                               "replacement_factor", "infantry_factor", "airbase",
                               "fleet_repair_factor", "iran_route")] == [
        15, 5, 10, 5, 3, 3, 3, 3, 2, 2, 1, 2, 3, 15]
    assert unit_cost("armor", 4) == 8 and unit_cost("sw", 9) == 27


def test_tr31_bad_input():
    with pytest.raises(InputError, match="option"):
        option_cost("western", "blitz", 1940)
    with pytest.raises(InputError, match="front"):
        option_cost("pacific", "pass", 1940)
    with pytest.raises(InputError, match="item"):
        price("battleship")
    with pytest.raises(InputError, match="minors"):
        dow_cost(minors=-1)
