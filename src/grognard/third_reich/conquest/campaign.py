"""The Revised Third Reich campaign as data: minors, neutrals, Ribbentrop-Molotov, victory.

A scenario's ``[third_reich.campaign]`` table (all keys optional)::

    [third_reich.campaign]
    neutral = ["belgium", "netherlands", "denmark", ...]   # minors not at war at the start
    axis_minors = ["hungary", "romania", "bulgaria", "finland"]  # TR-24: join Germany in 1941
    ribbentrop_molotov = ["eastern_poland", "baltic_states", "bessarabia"]  # TR-87 / TR-TV09
    rm_trigger = "poland"         # the minor whose conquest starts the R-M annexations
    us_entry_turn = 13            # TR-86: the US enters in 1942 (Spring 1942 = turn 13)
    economy = { germany = { base = 150, brp = 150 } }  # override TR-86 starting values
    [third_reich.campaign.victory]
    axis = 24                     # the Axis wins holding at least this many victory cities
    allies = 16                   # the Allies win when the Axis holds at most this many

The table is typed and checked once, when the scenario is parsed
(:class:`grognard.third_reich.scenario_schema.CampaignSection`: unknown keys, wrong types and
names that are not the scenario's minors, majors, areas, sides or cities are refused with the
file, field and line); the readers here, in ``campaign_events`` and ``diplomacy`` take that
typed value (``third_reich_rules(scenario).section.campaign``): no key is read untyped.

Minor countries are the countries of ``[home_countries]`` entries that are not major powers
(``poland = ["poland", "eastern_poland"]``); their capital is the map city with the ``capital``
class in their first country. The victory rules of 3R4 are EXTERNAL (TR-04): grognard's
documented default counts the victory locations (capitals, red victory cities, red ports) the
Axis controls at the end of Summer I 1945 against the scenario's thresholds; the defaults
are half (Axis win) and a quarter (Allied win) of the map's victory locations, a draw between.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grognard.core.errors import InputError
from grognard.core.mapdata import CityClass
from grognard.engine.scenario import Scenario
from grognard.engine.state import JSON
from grognard.third_reich.conquest.control import VICTORY_CLASSES, city_facts, city_hexes
from grognard.third_reich.economy.start_values import territory_value
from grognard.third_reich.scenario_schema import (
    DEFAULT_RM,
    DEFAULT_US_ENTRY_TURN,
    third_reich_rules,
)
from grognard.third_reich.state_types import TRState
from grognard.third_reich.turn.calendar import Season, date_of
from grognard.third_reich.turn.powers import Power

MAJORS = frozenset(p.value for p in Power)
AXIS_MINORS_JOIN_TURN = 9  # TR-24: Summer I 1941
VICTORY_RULE = "TR-04"


def country_owners(scenario: Scenario) -> dict[str, str]:
    """Map country -> the power or minor whose home country it is."""
    out: dict[str, str] = {}
    for owner, countries in scenario.home_countries.items():
        for c in countries:
            out[c] = owner
    return out


def capitals(scenario: Scenario) -> dict[str, str]:
    """Power or minor -> the name of its capital city (the capital in its home countries)."""
    owners = country_owners(scenario)
    out: dict[str, str] = {}
    for cities in scenario.map.cities.values():
        for c in cities:
            if CityClass.CAPITAL in c.classes and c.country in owners:
                out.setdefault(owners[c.country], c.name)
    return out


def map_areas(scenario: Scenario) -> dict[str, list[str]]:
    """The map's named areas (``[third_reich.areas]``: eastern Poland, Bessarabia, the Baltic
    States, the Vichy zone) as hex labels; {} when the map has none."""
    return {k: list(v) for k, v in third_reich_rules(scenario).section.areas.items()}


def territory_brps(camp: Mapping[str, Any], name: str) -> int:
    """TR-87: a minor's BRP value: the scenario's ``values``, else the TR-87 table, else 0."""
    if name in camp.get("values", {}):
        return int(camp["values"][name])
    try:
        return territory_value(name)
    except InputError:
        return 0


def victory_thresholds(scenario: Scenario, n_locations: int) -> dict[str, int]:
    """TR-04 (3R4 levels EXTERNAL): Axis-held victory locations for an Axis / Allied win
    (the scenario's ``victory``, else half / a quarter of the map's ``n_locations``)."""
    v = third_reich_rules(scenario).section.campaign.victory
    axis = -(-n_locations // 2) if v.axis is None else v.axis
    allies = n_locations // 4 if v.allies is None else v.allies
    if allies >= axis:  # only with a default level: two given levels are checked at load
        raise InputError("third_reich.campaign.victory", "allies must be below axis")
    return {"axis": axis, "allies": allies}


def campaign_state(scenario: Scenario, power_sides: Mapping[str, str]) -> JSON:
    """The campaign part of the start state (``state["campaign"]`` and the city tables)."""
    camp = third_reich_rules(scenario).section.campaign
    owners = country_owners(scenario)
    caps = capitals(scenario)
    neutral = set(camp.neutral)
    axis_minors = list(camp.axis_minors)
    minors: dict[str, JSON] = {}
    for owner in scenario.home_countries:
        if owner in MAJORS:
            continue
        is_neutral = owner in neutral or owner in axis_minors
        minors[owner] = {"capital": caps.get(owner),
                         "side": None if is_neutral else power_sides.get(owner),
                         "status": "neutral" if is_neutral else "at_war"}
    facts = city_facts(scenario.map)
    for f in facts.values():
        f["owner"] = owners.get(f["country"])
    n_vl = sum(1 for f in facts.values() if VICTORY_CLASSES & {CityClass(c) for c in f["classes"]})
    rm = list(camp.ribbentrop_molotov)
    areas = map_areas(scenario)
    return {
        "city_hexes": city_hexes(scenario.map),
        "cities": facts,
        "campaign": {
            "minors": minors,
            "majors_out": [],
            "capitals": caps,
            "held": {},
            "player_turns": 0,
            "axis_minors": axis_minors,
            "ribbentrop_molotov": rm,
            "rm_minors": list(camp.rm_minors),
            "areas": {k: v for k, v in areas.items() if k in rm or k == "vichy"},
            "values": dict(camp.values),
            "build_in": {k: list(v) for k, v in camp.build_in.items()},
            "rm_trigger": camp.rm_trigger,
            "rm_done": False,
            "us_entry_turn": camp.us_entry_turn,
            "vichy": None,
            "victory": victory_thresholds(scenario, n_vl),
            "verdict": None,
        },
    }


SEASON_LABELS = {Season.SPRING: "Spring", Season.SUMMER1: "Summer I",
                 Season.SUMMER2: "Summer II", Season.FALL: "Fall", Season.WINTER: "Winter"}


def date_label(turn: int) -> str:
    """TR-04: a campaign turn as the rules write it ("Fall 1939", "Summer I 1945").

    >>> date_label(1), date_label(29)
    ('Fall 1939', 'Summer I 1945')
    """
    d = date_of(turn)
    return f"{SEASON_LABELS[d.season]} {d.year}"


def victory_count(state: TRState) -> dict[str, int]:
    """Victory locations (capitals, red victory cities, red ports) controlled per side."""
    out: dict[str, int] = {}
    for name, f in state.get("cities", {}).items():
        if not set(f["classes"]) & {c.value for c in VICTORY_CLASSES}:
            continue
        side = state["control"].get(name)
        if side is not None:
            out[side] = out.get(side, 0) + 1
    return out


def verdict(state: TRState, axis_side: str) -> dict[str, Any]:
    """TR-04: the end-of-campaign verdict from controlled victory locations (default levels)."""
    count = victory_count(state)
    axis = count.get(axis_side, 0)
    th = state["campaign"]["victory"]
    if axis >= th["axis"]:
        winner = axis_side
    elif axis <= th["allies"]:
        winner = "allies"
    else:
        winner = "draw"
    return {"winner": winner, "reason": "victory locations at the end of the campaign",
            "rule": VICTORY_RULE, "victory_locations": dict(sorted(count.items())),
            "thresholds": dict(th),
            "summary": f"{'a draw' if winner == 'draw' else winner + ' win'}: the Axis holds "
                       f"{axis} victory locations after {date_label(int(state['turn']))} (Axis wins at {th['axis']}, Allies at {th['allies']} or "
                       "fewer)"}


__all__ = [
    "AXIS_MINORS_JOIN_TURN",
    "DEFAULT_RM",
    "DEFAULT_US_ENTRY_TURN",
    "MAJORS",
    "campaign_state",
    "capitals",
    "country_owners",
    "date_label",
    "map_areas",
    "territory_brps",
    "verdict",
    "victory_count",
    "victory_thresholds",
]
