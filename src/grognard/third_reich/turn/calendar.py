"""TR-04..TR-06: the Revised Third Reich calendar, seasons, regions and weather.

Shared vocabulary for the strategic layer and for combat (weather DRMs, winter adds).
Five turns a year (Spring, Summer I, Summer II, Fall, Winter); the campaign's turn 1 is
Fall 1939, turn 3 is Spring 1940 and the game ends after Summer I 1945 (turn 29).

>>> date_of(2)
GameDate(turn=2, year=1939, season=<Season.WINTER: 'winter'>)
>>> turn_number(1941, Season.SPRING), turn_number(1945, Season.SUMMER1)
(8, 29)
>>> weather(Region.EAST, 3), weather(Region.SCANDINAVIA, 3), weather(Region.SCANDINAVIA, 8)
(<Weather.MUD: 'mud'>, <Weather.CLEAR: 'clear'>, <Weather.SNOW: 'snow'>)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from grognard.core.errors import InputError, TableError, member, parse_enum
from grognard.core.mapdata import MapData
from grognard.core.tables import Table, shipped_tables


class Season(StrEnum):
    SPRING = "spring"
    SUMMER1 = "summer1"
    SUMMER2 = "summer2"
    FALL = "fall"
    WINTER = "winter"


class Region(StrEnum):
    """Weather regions of the 3R weather table (TR-05)."""

    SCANDINAVIA = "scandinavia"
    EAST = "east"
    MEDITERRANEAN = "mediterranean"
    EUROPE = "europe"


class Weather(StrEnum):
    CLEAR = "clear"
    SNOW = "snow"
    MUD = "mud"


#: TR-04: the five seasons of a year in play order; the year starts in Spring.
SEASONS: tuple[Season, ...] = (
    Season.SPRING, Season.SUMMER1, Season.SUMMER2, Season.FALL, Season.WINTER,
)
TURNS_PER_YEAR = 5
FIRST_TURN = 1  # Fall 1939
LAST_TURN = 29  # Summer I 1945: the campaign ends after it
FIRST_YEAR = 1939
SPRING_1940 = 3
WEATHER_TABLE_ID = "tr_weather"


@dataclass(frozen=True, slots=True)
class GameDate:
    """A campaign turn with its calendar year and season."""

    turn: int
    year: int
    season: Season

    def to_json(self) -> dict[str, object]:
        return {"turn": self.turn, "year": self.year, "season": str(self.season)}


def _check_turn(turn: int, field: str = "turn") -> int:
    if isinstance(turn, bool) or not isinstance(turn, int):
        raise InputError(field, f"a turn number is an integer, not {turn!r}")
    if turn < FIRST_TURN:
        raise InputError(field, f"campaign turns start at {FIRST_TURN} (Fall 1939), not {turn}")
    if turn > LAST_TURN + TURNS_PER_YEAR:
        raise InputError(field, f"the campaign ends at turn {LAST_TURN} (Summer I 1945), "
                         f"not {turn}")
    return turn


def turn_number(year: int, season: Season | str) -> int:
    """TR-04 (Changes to turns): the campaign turn of ``season`` in ``year``.

    Spring of year Y is turn 3 + 5(Y - 1940); Fall 1939 is turn 1.

    >>> turn_number(1939, "fall"), turn_number(1940, "spring")
    (1, 3)
    """
    s = parse_enum(Season, season, "season")
    turn = 3 + TURNS_PER_YEAR * (year - 1940) + SEASONS.index(s)
    if turn < FIRST_TURN:
        raise InputError("year", f"the campaign starts in Fall 1939; {s.value} {year} is before it")
    return turn


def date_of(turn: int) -> GameDate:
    """TR-04 (Changes to turns): the year and season of a campaign turn (turn 2 = Winter 1939).
    A campaign turn's date is made once (a frozen value, kept by turn number: a turn the check
    refuses is never kept)."""
    if type(turn) is int:
        got = _DATES.get(turn)
        if got is not None:
            return got
    t = _check_turn(turn)
    k = t - SPRING_1940  # 0 = Spring 1940
    year, idx = 1940 + k // TURNS_PER_YEAR, k % TURNS_PER_YEAR
    made = GameDate(t, year, SEASONS[idx])
    if type(turn) is int:
        _DATES[turn] = made
    return made


#: :func:`date_of` of each campaign turn asked so far (at most the campaign's turns)
_DATES: dict[int, GameDate] = {}


def season_of(turn: int) -> Season:
    """TR-04: the season of a campaign turn."""
    return date_of(turn).season


def is_year_start(turn: int) -> bool:
    """TR-04/TR-09: Spring turns open with a Year Start phase (Spring 1940 is the special one)."""
    return season_of(turn) is Season.SPRING


def is_last_turn(turn: int) -> bool:
    """TR-04: the campaign ends after Summer I 1945 (turn 29)."""
    return _check_turn(turn) == LAST_TURN


def weather_table() -> Table:
    return shipped_tables()[WEATHER_TABLE_ID]


def seasonal_weather(region: Region | str, season: Season | str,
                     table: Table | None = None) -> Weather:
    """TR-05 (Weather, regions, and seasons): the weather of a region in a season (no roll)."""
    t = table if table is not None else weather_table()
    try:
        r, s = member(Region, region), member(Season, season)
    except ValueError as exc:
        raise InputError("region" if "Region" in str(exc) else "season", str(exc)) from None
    cell = t.lookup(r.value, s.value)
    try:
        return member(Weather, str(cell))
    except ValueError:
        raise TableError(f"{cell!r} is not a weather", file=t.file, table=t.id,
                         column=s.value, row=r.value) from None


def weather_region(m: MapData, h: int) -> Region:
    """TR-05/TR-73: a hex's 3R weather region: its weather zone or region if either names one
    (scandinavia, east, mediterranean, europe), else ``europe``."""
    for names, arr in ((m.weather_zone_names, m.weather_zone), (m.region_names, m.region)):
        name = names[int(arr[h])]
        if name in _REGION_NAMES:
            return Region(name)
    return Region.EUROPE


_REGION_NAMES = frozenset(r.value for r in Region)


def weather(region: Region | str, turn: int, table: Table | None = None) -> Weather:
    """TR-05 (Weather; Special Spring 1940 Weather): weather in a region on a campaign turn.

    Spring 1940 (turn 3) is clear in Scandinavia; otherwise the seasonal table applies.
    """
    t = table if table is not None else weather_table()
    r = parse_enum(Region, region, "region")
    d = date_of(turn)
    meta = t.meta
    if (meta.get("exception_turn") == d.turn and meta.get("exception_region") == r.value):
        return Weather(str(meta["exception_weather"]))
    return seasonal_weather(r, d.season, t)


def possible_weather(region: Region | str, season: Season | str,
                     table: Table | None = None) -> frozenset[Weather]:
    """TR-05: every weather ``region`` can have in ``season``: the seasonal weather, and the
    Special Spring 1940 weather where the exception names this region and season.

    >>> sorted(w.value for w in possible_weather("scandinavia", "spring"))
    ['clear', 'snow']
    >>> sorted(w.value for w in possible_weather("east", "summer1"))
    ['clear']
    """
    t = table if table is not None else weather_table()
    r, s = parse_enum(Region, region, "region"), parse_enum(Season, season, "season")
    out = {seasonal_weather(r, s, t)}
    meta = t.meta
    turn = meta.get("exception_turn")
    if isinstance(turn, int) and meta.get("exception_region") == r.value and \
            date_of(turn).season is s:
        out.add(Weather(str(meta["exception_weather"])))
    return frozenset(out)


def verify_weather(w: Weather | str, region: Region | str, season: Season | str,
                   table: Table | None = None) -> Weather:
    """TR-05: ``w`` if ``region`` can have it in ``season``; else an :class:`InputError`
    naming the rule (the weather is fixed by region and season, no roll)."""
    x = parse_enum(Weather, w, "weather")
    r, s = parse_enum(Region, region, "region"), parse_enum(Season, season, "season")
    can = possible_weather(r, s, table)
    if x not in can:
        raise InputError("weather", f"TR-05: {r.value} has "
                         f"{' or '.join(sorted(c.value for c in can))} in {s.value}, "
                         f"never {x.value}")
    return x


@dataclass(frozen=True, slots=True)
class WeatherEffects:
    """TR-06: what a weather state allows (effectiveness-roll DRMs are MISSING: default 0)."""

    mech_phases: bool
    armor_ma_halved: bool
    armor_drm_allowed: bool
    defense_add: int
    support_defense_multiple: int
    airdrop_ok: bool
    effectiveness_drm: int


def weather_effects(w: Weather | str, effectiveness_drm: int = 0) -> WeatherEffects:
    """TR-06 (Weather, regions, and seasons): the effects of a weather state.

    ``effectiveness_drm`` is the ``weather_effectiveness_drm`` reading (values MISSING, 0).

    >>> weather_effects("mud").armor_ma_halved, weather_effects("snow").defense_add
    (True, 2)
    """
    try:
        x = Weather(w)
    except ValueError:
        raise InputError("weather", f"{w!r} is not clear, snow or mud") from None
    clear = x is Weather.CLEAR
    return WeatherEffects(
        mech_phases=clear,
        armor_ma_halved=x is Weather.MUD,
        armor_drm_allowed=x is not Weather.MUD,
        defense_add=1 if clear else 2,
        support_defense_multiple=1 if x is Weather.SNOW else 2,
        airdrop_ok=clear,
        effectiveness_drm=0 if clear else effectiveness_drm,
    )
