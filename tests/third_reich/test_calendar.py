"""TR-01, TR-02, TR-04, TR-05, TR-06: calendar, turn order, sequence of play, weather."""

from __future__ import annotations

import pytest

from grognard.core.errors import InputError
from grognard.core.tables import parse_table
from grognard.third_reich.turn.calendar import (
    LAST_TURN,
    Region,
    Season,
    Weather,
    date_of,
    is_last_turn,
    is_year_start,
    seasonal_weather,
    turn_number,
    weather,
    weather_effects,
    weather_table,
)
from grognard.third_reich.turn.powers import Block, Power, teams, turn_order
from grognard.third_reich.turn.sequence import Phase, front_phases, player_turn


def test_tr04_tv11_turn_numbers():
    """TR-TV11, seed 002 "Changes to turns": Spring 1940 is turn 3, Spring 1941 turn 8; the
    campaign ends after Summer I 1945 (turn 29)."""
    assert turn_number(1940, Season.SPRING) == 3
    assert turn_number(1941, Season.SPRING) == 8
    assert turn_number(1945, Season.SUMMER1) == 29 == LAST_TURN
    assert is_last_turn(29) and not is_last_turn(28)


def test_tr04_turn_one_is_fall_1939_and_two_winter_1939():
    assert date_of(1).to_json() == {"turn": 1, "year": 1939, "season": "fall"}
    assert date_of(2).to_json() == {"turn": 2, "year": 1939, "season": "winter"}
    assert date_of(3).to_json() == {"turn": 3, "year": 1940, "season": "spring"}
    assert date_of(7).season is Season.WINTER and date_of(7).year == 1940


def test_tr04_five_turns_a_year_round_trip():
    for t in range(1, 30):
        d = date_of(t)
        assert turn_number(d.year, d.season) == t
    assert [date_of(t).season for t in range(3, 8)] == list(Season)


def test_tr04_year_start_in_spring_only():
    assert [t for t in range(1, 30) if is_year_start(t)] == [3, 8, 13, 18, 23, 28]


def test_tr04_bad_turns_rejected():
    with pytest.raises(InputError, match="turn"):
        date_of(0)
    with pytest.raises(InputError, match="season"):
        turn_number(1940, "autumn")
    with pytest.raises(InputError, match="year"):
        turn_number(1939, Season.SPRING)


@pytest.mark.parametrize(("region", "expected"), [
    ("scandinavia", ["snow", "clear", "clear", "clear", "snow"]),
    ("east", ["mud", "clear", "clear", "clear", "snow"]),
    ("mediterranean", ["clear"] * 5),
    ("europe", ["clear", "clear", "clear", "clear", "snow"]),
])
def test_tr05_seasonal_weather_table(region, expected):
    """Seed 002 "Weather, regions, and seasons": the region x season table."""
    assert [seasonal_weather(region, s).value for s in Season] == expected


def test_tr05_spring_1940_scandinavia_is_clear():
    """Seed 002 "Special Spring 1940 Weather": Scandinavia is clear in Spring 1940 only."""
    assert weather(Region.SCANDINAVIA, 3) is Weather.CLEAR
    assert weather(Region.SCANDINAVIA, 8) is Weather.SNOW
    assert weather(Region.EAST, 3) is Weather.MUD
    assert weather(Region.EUROPE, 2) is Weather.SNOW


def test_tr05_weather_table_replaceable():
    t = weather_table()
    raw = {"id": t.id, "title": "t", "source": "user", "row_key": "region",
           "columns": list(t.columns),
           "rows": [{"key": r, "results": ["clear"] * 5} for r in t.rows]}
    assert weather("east", 7, parse_table(raw)) is Weather.CLEAR


def test_tr05_unknown_region():
    with pytest.raises(InputError, match="region"):
        weather("africa", 3)


def test_tr06_weather_effects():
    clear, snow, mud = (weather_effects(w) for w in ("clear", "snow", "mud"))
    assert clear.mech_phases and not snow.mech_phases and not mud.mech_phases
    assert mud.armor_ma_halved and not mud.armor_drm_allowed and clear.armor_drm_allowed
    assert (clear.defense_add, snow.defense_add, mud.defense_add) == (1, 2, 2)
    assert snow.support_defense_multiple == 1 and clear.support_defense_multiple == 2
    assert clear.airdrop_ok and not snow.airdrop_ok
    assert snow.effectiveness_drm == 0  # TR-06 reading: weather DRMs MISSING -> 0
    assert weather_effects("snow", effectiveness_drm=-1).effectiveness_drm == -1


def test_tr01_fixed_turn_order():
    """Seed 002 "Fixed turn order": Axis, then USSR, then the Western Allies."""
    assert turn_order(3) == (Block.AXIS, Block.USSR, Block.WESTERN_ALLIES)
    assert turn_order(2) == (Block.AXIS, Block.ALLIES)
    with pytest.raises(InputError):
        turn_order(1)


def test_tr01_teams():
    assert teams(3) == ((Power.GERMANY, Power.ITALY), (Power.USSR,),
                        (Power.UK, Power.FRANCE, Power.US))
    assert teams(4)[-2:] == ((Power.UK,), (Power.FRANCE, Power.US))
    assert teams(5)[:3] == ((Power.GERMANY,), (Power.ITALY,), (Power.USSR,))


def test_tr02_option_phases():
    """Seed 002 "Normal turn sequence of play"."""
    assert front_phases("offensive") == (
        Phase.MOVEMENT, Phase.AIR_MISSIONS, Phase.INTERCEPTION, Phase.COMBAT,
        Phase.MECH_MOVEMENT, Phase.MECH_COMBAT, Phase.SUPPLY)
    assert Phase.MECH_MOVEMENT not in front_phases("offensive", "snow")
    assert front_phases("attrition") == (Phase.MOVEMENT, Phase.ATTRITION, Phase.SUPPLY)
    assert front_phases("pass") == (Phase.MOVEMENT, Phase.SUPPLY)


def test_tr02_player_turn_unified_with_tail_and_year_start():
    pt = player_turn({"western": "offensive", "eastern": "attrition"}, {"eastern": "mud"},
                     season="spring")
    seq = pt.unified()
    assert seq[0] is Phase.YEAR_START and seq[1] is Phase.DECLARE_OPTIONS
    assert seq[-3:] == (Phase.BUILD, Phase.STRATEGIC_DEPLOYMENT, Phase.STRATEGIC_WARFARE)
    assert Phase.ATTRITION in seq and Phase.MECH_COMBAT in seq
    assert not player_turn({"western": "pass"}).year_start
