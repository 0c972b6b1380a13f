"""TR-72..TR-74 ("Supply and isolation attrition"; "USSR supply sources").

Units out of supply at the end of their own final combat phase (or after attrition) may
break out, i.e. choose elimination back to the force pool (TR-72). Every other
out-of-supply hex rolls 2D6 with cumulative DRMs (published table ``tr_isolation_drms``):
modified 8 or more, no loss; 7 or less, every unit in the hex is eliminated (TR-73).
The USSR traces to Moscow, then to any red victory city of the pre-war USSR, then to any
port or city there (TR-74).

These functions take explicit inputs (weather, season, region, adjacency, home country,
path to a friendly city) so that the map layer can feed them.

>>> isolation_roll(9, Weather.SNOW, Season.WINTER, Region.EAST, adjacent_enemy=True,
...                city_path=True).modified_roll
6
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from grognard.core.dice import Distribution
from grognard.core.errors import InputError, TableError
from grognard.core.tables import Table, TableSet, load_tables
from grognard.third_reich.turn.calendar import Region, Season, Weather, verify_weather
from grognard.third_reich.turn.combat_readings import TRCombatReadings
from grognard.third_reich.turn.forces import GroundUnit, as_enum

DEFAULT_READINGS = TRCombatReadings()
ELIMINATED_AT_OR_BELOW = 7
ROLL_MIN = 2
ROLL_MAX = 12


def isolation_table(tables: TableSet | None = None,
                    readings: TRCombatReadings = DEFAULT_READINGS) -> Table:
    ts = tables if tables is not None else load_tables()
    return ts.get(readings.tr_isolation_table)


def _drm(table: Table, key: str) -> int:
    v = table.lookup(key, "drm")
    if isinstance(v, bool) or not isinstance(v, int):
        raise TableError("a DRM must be an integer", table=table.id, row=key)
    return v


def remote_region(region: Region, readings: TRCombatReadings = DEFAULT_READINGS) -> bool:
    """TR-73: Eastern Europe/Russia, Scandinavia, North Africa or the Middle East take -1.

    The Mediterranean weather region (North Africa, the Middle East and the Med islands)
    counts when ``isolation_mediterranean_remote`` (default); the rest of Europe never.
    """
    r = as_enum(Region, region, "region")
    if r in (Region.EAST, Region.SCANDINAVIA):
        return True
    return r is Region.MEDITERRANEAN and readings.isolation_mediterranean_remote


def isolation_drms(
    weather: Weather,
    season: Season,
    region: Region,
    adjacent_enemy: bool = False,
    home_country: bool = False,
    city_path: bool = False,
    table: Table | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
    weather_table: Table | None = None,
) -> dict[str, int]:
    """TR-73: every isolation DRM that applies, by condition (all cumulative).

    The weather must be one the region can have in that season (TR-05, ``weather_table``,
    by default the shipped one): snow in a European summer is refused.

    >>> isolation_drms(Weather.CLEAR, Season.SUMMER1, Region.EUROPE, home_country=True)
    {'summer': 1, 'home_country': 1}
    """
    t = table if table is not None else isolation_table(readings=readings)
    w, s = as_enum(Weather, weather, "weather"), as_enum(Season, season, "season")
    verify_weather(w, as_enum(Region, region, "region"), s, weather_table)
    out: dict[str, int] = {}
    if w is Weather.SNOW:
        out["snow"] = _drm(t, "snow")
    elif w is Weather.MUD:
        out["mud"] = _drm(t, "mud")
    if s in (Season.SUMMER1, Season.SUMMER2):
        out["summer"] = _drm(t, "summer")
    if remote_region(region, readings):
        out["remote_region"] = _drm(t, "remote_region")
    if adjacent_enemy:
        out["adjacent_enemy"] = _drm(t, "adjacent_enemy")
    if home_country:
        out["home_country"] = _drm(t, "home_country")
    if city_path:
        out["city_path"] = _drm(t, "city_path")
    return out


@dataclass(frozen=True, slots=True)
class IsolationRoll:
    """TR-73: the record of one hex's isolation attrition roll."""

    roll: int
    drms: dict[str, int]
    modified_roll: int
    eliminated: bool

    def to_json(self) -> dict[str, Any]:
        return {"modified_roll": self.modified_roll, "eliminated": self.eliminated,
                "drms": dict(self.drms), "roll": self.roll}


def isolation_roll(
    roll: int,
    weather: Weather,
    season: Season,
    region: Region,
    adjacent_enemy: bool = False,
    home_country: bool = False,
    city_path: bool = False,
    table: Table | None = None,
    readings: TRCombatReadings = DEFAULT_READINGS,
    weather_table: Table | None = None,
) -> IsolationRoll:
    """TR-73 (Supply and isolation attrition) One out-of-supply hex: 7 or less eliminates all.

    >>> isolation_roll(7, Weather.CLEAR, Season.SUMMER1, Region.EUROPE,
    ...                home_country=True).eliminated
    False
    """
    if isinstance(roll, bool) or not isinstance(roll, int) or not ROLL_MIN <= roll <= ROLL_MAX:
        raise InputError("roll", f"a 2D6 roll is 2..12, not {roll!r}")
    drms = isolation_drms(weather, season, region, adjacent_enemy, home_country, city_path,
                          table, readings, weather_table)
    modified = roll + sum(drms.values())
    return IsolationRoll(roll, drms, modified, modified <= ELIMINATED_AT_OR_BELOW)


def isolation_elimination_chance(total_drm: int) -> Fraction:
    """TR-73: exact chance that a hex with ``total_drm`` is eliminated (2D6 + DRM ≤ 7).

    >>> from grognard.core.exact import ratio_str
    >>> ratio_str(isolation_elimination_chance(0)), ratio_str(isolation_elimination_chance(-4))
    ('7/12', '35/36')
    """
    dist = Distribution.of("2d6").map(lambda r: r + total_drm <= ELIMINATED_AT_OR_BELOW)
    return dist.get(True, Fraction(0))


@dataclass(frozen=True, slots=True)
class Breakout:
    """TR-72: units that chose breakout, eliminated at once to their force pool."""

    hex: str
    units: tuple[str, ...]


def breakout(hex_id: str, units: Sequence[GroundUnit]) -> Breakout:
    """TR-72 (Supply and isolation attrition) Breakout: out-of-supply units choose elimination.

    They return to their force pool immediately and this hex does not roll (TR-73).
    """
    if not units:
        raise InputError("units", "breakout needs at least one out-of-supply unit")
    return Breakout(hex_id, tuple(u.id for u in units))


class SupplyCheckPhase(StrEnum):
    """TR-72: when a player's out-of-supply units are checked."""

    AFTER_MECHANIZED_COMBAT = "after_mechanized_combat"  # offensive, clear weather
    AFTER_COMBAT = "after_combat"  # offensive, snow or mud
    AFTER_ATTRITION = "after_attrition"
    AFTER_MOVEMENT = "after_movement"  # pass option


def supply_check_phase(option: str, weather: Weather) -> SupplyCheckPhase:
    """TR-72: the phase after which the player's out-of-supply units are checked.

    >>> supply_check_phase("offensive", Weather.CLEAR), supply_check_phase("pass", Weather.MUD)
    (<SupplyCheckPhase.AFTER_MECHANIZED_COMBAT: 'after_mechanized_combat'>, \
<SupplyCheckPhase.AFTER_MOVEMENT: 'after_movement'>)
    """
    o = option.strip().lower()
    if o == "offensive":
        clear = as_enum(Weather, weather, "weather") is Weather.CLEAR
        return (SupplyCheckPhase.AFTER_MECHANIZED_COMBAT if clear
                else SupplyCheckPhase.AFTER_COMBAT)
    if o == "attrition":
        return SupplyCheckPhase.AFTER_ATTRITION
    if o == "pass":
        return SupplyCheckPhase.AFTER_MOVEMENT
    raise InputError("option", f"{option!r} is not one of offensive, attrition, pass")


# ---------------------------------------------------------------- TR-74 USSR supply sources


class UssrSupplyTier(StrEnum):
    MOSCOW = "moscow"
    RED_VICTORY_CITIES = "red_victory_cities"
    CITIES_AND_PORTS = "cities_and_ports"


@dataclass(frozen=True, slots=True)
class UssrSupply:
    tier: UssrSupplyTier
    sources: tuple[str, ...]


def ussr_supply_sources(
    moscow_soviet: bool,
    red_victory_cities: Sequence[tuple[str, bool]],
    cities_and_ports: Sequence[tuple[str, bool]],
    moscow: str = "Moscow",
) -> UssrSupply:
    """TR-74 (USSR supply sources) Moscow; else the Soviet-held red victory cities of the
    pre-war USSR; once all of those are Axis-held, its Soviet-held ports and cities.

    Cities are ``(name, soviet_controlled)`` pairs of the pre-war USSR.

    >>> ussr_supply_sources(False, [("Leningrad", True), ("Kiev", False)], []).sources
    ('Leningrad',)
    >>> ussr_supply_sources(False, [("Leningrad", False)], [("Archangel", True)]).tier
    <UssrSupplyTier.CITIES_AND_PORTS: 'cities_and_ports'>
    """
    if moscow_soviet:
        return UssrSupply(UssrSupplyTier.MOSCOW, (moscow,))
    held = tuple(name for name, soviet in red_victory_cities if soviet)
    if held:
        return UssrSupply(UssrSupplyTier.RED_VICTORY_CITIES, held)
    return UssrSupply(UssrSupplyTier.CITIES_AND_PORTS,
                      tuple(name for name, soviet in cities_and_ports if soviet))

