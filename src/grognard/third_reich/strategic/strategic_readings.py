"""The readings of the strategic warfare judged against the war state (issue 23); the
strategic layer's other switches are the economy's
(:class:`~grognard.third_reich.economy.readings.StrategicReadings`).

>>> WarReadings().happy_time.value
'us_entry'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from grognard.core.readings import Readings


class HappyTimeTurn(StrEnum):
    """TR-82: the second happy time's turn when the US war does not begin in Spring 1942 (a
    German declaration of war on the US, issue 23; the text: "the Spring 1942 turn
    immediately after US entry")."""

    US_ENTRY = "us_entry"        # the game turn the US-Germany war began (Spring 1942 by date)
    SPRING_1942 = "spring_1942"  # Spring 1942 only, as printed, whenever the US entered


@dataclass(frozen=True)
class WarReadings(Readings):
    """Switches of the strategic layer judged against the war state (issue 23), read from the
    scenario's ``[readings]`` (not kept in the economy's state)."""

    happy_time: HappyTimeTurn = HappyTimeTurn.US_ENTRY  # TR-82
