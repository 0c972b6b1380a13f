"""Europa revised isolation attrition roll (EUR-32, "Isolation Attrition").

Each isolated hex (EUR-30) rolls 2D6 with the cumulative DRMs of the published table
``europa_supply_isolation_drms``. Modified 6 or less: the stack fulfils a 50% loss result
(L = 50% of its own strength, the EUR-11 basis), allocated normally; 7 or more: no loss this
game turn. No replacements are earned for over-fulfilling it: the units are OOS (EUR-14).

This is Europa's own rule: it shares nothing with Third Reich isolation (TR-73, 7 or less
eliminates) except the idea of a DRM table (RULES.md section 6 item 9).

>>> isolation_roll(7, adjacent_enemy=True, region="russia", strength=12).to_json()["loss"]
6
>>> from grognard.core.exact import ratio_str
>>> ratio_str(isolation_loss_chance(0))
'5/12'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from grognard.core.dice import Distribution
from grognard.core.errors import InputError, TableError, parse_enum
from grognard.core.exact import exact_json
from grognard.core.tables import Table, TableSet, load_tables
from grognard.europa.combat.losses import loss_requirement
from grognard.europa.supply.phase import DEFAULT_READINGS, SupplyReadings, WinterDefinition

ISOLATION_DRM_TABLE = "europa_supply_isolation_drms"
ROLL_MIN, ROLL_MAX = 2, 12


class Region(StrEnum):
    """EUR-32 regions the DRMs name (others: ``other``)."""

    EASTERN_EUROPE = "eastern_europe"
    RUSSIA = "russia"
    SCANDINAVIA = "scandinavia"
    NORTH_AFRICA = "north_africa"
    OTHER = "other"


#: EUR-32 The region of each country a Europa map names (map ``country`` data); a country not
#: listed is in no region the DRMs name.
REGION_OF_COUNTRY: dict[str, Region] = {
    "ussr": Region.RUSSIA,
    **dict.fromkeys(("poland", "general_government", "lithuania", "latvia", "estonia",
                     "romania", "hungary", "slovakia", "bulgaria", "yugoslavia", "greece",
                     "albania", "czechoslovakia", "bessarabia"), Region.EASTERN_EUROPE),
    **dict.fromkeys(("finland", "sweden", "norway", "denmark"), Region.SCANDINAVIA),
    **dict.fromkeys(("libya", "egypt", "tunisia", "algeria", "morocco"), Region.NORTH_AFRICA),
}

#: EUR-32 "within the unit's home country": the map country of each unit nationality.
HOME_COUNTRY: dict[str, str] = {
    "soviet": "ussr", "german": "germany", "romanian": "romania", "hungarian": "hungary",
    "finnish": "finland", "slovak": "slovakia", "bulgarian": "bulgaria", "italian": "italy",
    "swedish": "sweden", "british": "britain", "french": "france", "polish": "poland",
}


def region_of(country: str) -> Region:
    """EUR-32 The DRM region of a map country (``other`` for any other or none)."""
    return REGION_OF_COUNTRY.get(country, Region.OTHER)


def isolation_table(tables: TableSet | None = None) -> Table:
    return (tables if tables is not None else load_tables()).get(ISOLATION_DRM_TABLE)


def _drm(t: Table, key: str) -> int:
    v = t.lookup(key, "drm")
    if isinstance(v, bool) or not isinstance(v, int):
        raise TableError("a DRM must be an integer", table=t.id, row=key)
    return v


def is_winter(month: int | None, weather: str | None = None,
              readings: SupplyReadings = DEFAULT_READINGS, table: Table | None = None) -> bool:
    """EUR-32 "winter season" under ``isolation_winter_definition``: the game's winter
    months (table meta ``winter_months``, default Dec-Feb) or a snow/winter weather turn.

    >>> is_winter(1), is_winter(6), is_winter(6, "snow", SupplyReadings(
    ...     isolation_winter_definition=WinterDefinition.WINTER_WEATHER))
    (True, False, True)
    """
    t = table if table is not None else isolation_table()
    if readings.isolation_winter_definition == WinterDefinition.WINTER_WEATHER:
        return weather is not None and weather.lower() in t.meta.get("winter_weathers", [])
    if month is None:
        return False
    if isinstance(month, bool) or not isinstance(month, int) or not 1 <= month <= 12:
        raise InputError("month", f"a month is 1..12, not {month!r}")
    return month in t.meta.get("winter_months", [12, 1, 2])


def drm_range(table: Table | None = None) -> tuple[int, int]:
    """EUR-32 the lowest and highest total DRM (all cumulative, so every negative DRM together
    and every positive one together).

    >>> drm_range()
    (-3, 2)
    """
    t = table if table is not None else isolation_table()
    drms = [_drm(t, str(k)) for k in t.row_keys]
    return sum(d for d in drms if d < 0), sum(d for d in drms if d > 0)


def check_total_drm(total_drm: int, table: Table | None = None, what: str = "drm") -> int:
    """EUR-32 refuse a total DRM no isolated hex can have."""
    lo, hi = drm_range(table)
    if isinstance(total_drm, bool) or not isinstance(total_drm, int) or \
            not lo <= total_drm <= hi:
        raise InputError(what, f"the isolation DRMs total {lo:+d}..{hi:+d}, not {total_drm!r}")
    return total_drm


def check_modified_roll(modified_roll: int, table: Table | None = None) -> int:
    """EUR-32 refuse a modified attrition roll outside 2D6 plus the DRMs' range."""
    lo, hi = drm_range(table)
    if isinstance(modified_roll, bool) or not isinstance(modified_roll, int) or \
            not ROLL_MIN + lo <= modified_roll <= ROLL_MAX + hi:
        raise InputError("modified_roll", f"a modified attrition roll is 2D6 {lo:+d}..{hi:+d}, "
                         f"so {ROLL_MIN + lo}..{ROLL_MAX + hi}, not {modified_roll!r}")
    return modified_roll


def isolation_drms(
    *,
    adjacent_enemy: bool = False,
    region: Region | str = Region.OTHER,
    winter: bool = False,
    home_country: bool = False,
    major_city_path: bool = False,
    table: Table | None = None,
) -> dict[str, int]:
    """EUR-32 every DRM that applies to an isolated hex, by condition (all cumulative):
    -1 adjacent to an enemy combat unit; -1 Eastern Europe, Russia, Scandinavia or North
    Africa; -1 winter season except in North Africa; +1 home country; +1 path to a friendly
    major city (:func:`grognard.core.supply.path_to_friendly_city` answers that).

    >>> isolation_drms(region="north_africa", winter=True, home_country=True)
    {'remote_region': -1, 'home_country': 1}
    """
    t = table if table is not None else isolation_table()
    reg = parse_enum(Region, region, "region")
    out: dict[str, int] = {}
    if adjacent_enemy:
        out["adjacent_enemy"] = _drm(t, "adjacent_enemy")
    if reg.value in t.meta.get("remote_regions", []):
        out["remote_region"] = _drm(t, "remote_region")
    if winter and reg.value not in t.meta.get("winter_exempt_regions", []):
        out["winter"] = _drm(t, "winter")
    if home_country:
        out["home_country"] = _drm(t, "home_country")
    if major_city_path:
        out["major_city_path"] = _drm(t, "major_city_path")
    return out


@dataclass(frozen=True)
class IsolationRoll:
    """EUR-32 record of one isolated hex's roll."""

    roll: int
    drms: dict[str, int]
    modified_roll: int
    suffers_loss: bool
    strength: Fraction
    loss: Fraction  # the loss requirement to allocate (0 when none)

    def to_json(self) -> dict[str, Any]:
        return {"roll": self.roll, "drms": dict(self.drms), "modified_roll": self.modified_roll,
                "suffers_loss": self.suffers_loss, "strength": exact_json(self.strength),
                "loss": exact_json(self.loss)}


def loss_threshold(table: Table | None = None) -> int:
    t = table if table is not None else isolation_table()
    return int(t.meta.get("loss_at_or_below", 6))


def isolation_outcome(modified_roll: int, strength: Fraction | int,
                      table: Table | None = None) -> Fraction:
    """EUR-32 the loss requirement for a modified roll: 50% of ``strength`` (one EUR-11 loss
    unit) at or below 6, else 0."""
    t = table if table is not None else isolation_table()
    if modified_roll <= loss_threshold(t):
        return loss_requirement(Fraction(strength), int(t.meta.get("loss_results", 1)))
    return Fraction(0)


def isolation_roll(
    roll: int,
    *,
    strength: Fraction | int,
    adjacent_enemy: bool = False,
    region: Region | str = Region.OTHER,
    winter: bool = False,
    home_country: bool = False,
    major_city_path: bool = False,
    table: Table | None = None,
) -> IsolationRoll:
    """EUR-32 (Isolation Attrition) One isolated hex: 2D6 + DRMs; 6 or less, the stack must
    fulfil a 50% loss of its own ``strength`` (EUR-11 basis); 7 or more, no loss.

    >>> isolation_roll(8, strength=10, adjacent_enemy=True, region="russia").loss
    Fraction(5, 1)
    """
    if isinstance(roll, bool) or not isinstance(roll, int) or not ROLL_MIN <= roll <= ROLL_MAX:
        raise InputError("roll", f"a 2D6 roll is 2..12, not {roll!r}")
    s = Fraction(strength)
    if s < 0:
        raise InputError("strength", "must not be negative")
    t = table if table is not None else isolation_table()
    drms = isolation_drms(adjacent_enemy=adjacent_enemy, region=region, winter=winter,
                          home_country=home_country, major_city_path=major_city_path, table=t)
    modified = roll + sum(drms.values())
    loss = isolation_outcome(modified, s, t)
    return IsolationRoll(roll, drms, modified, modified <= loss_threshold(t), s, loss)


def isolation_loss_chance(total_drm: int, table: Table | None = None) -> Fraction:
    """EUR-32 exact chance that a hex with ``total_drm`` must take the 50% loss.

    >>> from grognard.core.exact import ratio_str
    >>> ratio_str(isolation_loss_chance(-3)), ratio_str(isolation_loss_chance(2))
    ('5/6', '1/6')
    """
    t = table if table is not None else isolation_table()
    check_total_drm(total_drm, t)
    lim = loss_threshold(t)
    return Distribution.of("2d6").map(lambda r: r + total_drm <= lim).get(True, Fraction(0))


__all__ = [
    "ISOLATION_DRM_TABLE", "IsolationRoll", "Region", "check_modified_roll", "check_total_drm",
    "drm_range", "is_winter", "isolation_drms",
    "isolation_loss_chance", "isolation_outcome", "isolation_roll", "isolation_table",
    "loss_threshold",
]
