"""TR-04..TR-06: the Revised Third Reich calendar, seasons, regions and weather.

Shared vocabulary for the strategic layer and for combat (weather DRMs, winter adds).
The strategic-layer issue fills in turn numbering and the weather table.
"""

from __future__ import annotations

from enum import StrEnum


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
