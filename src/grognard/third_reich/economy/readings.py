"""The readings (RULES.md config switches) of the 3R strategic layer - the economy, the
conquests and the strategic warfare - with RULES.md's defaults; the economy keeps them with its
ledger (``Economy.readings``).

>>> StrategicReadings().murmansk_timing.value, StrategicReadings().rm_pact_value
('spring', 20)
>>> StrategicReadings.from_mapping({"murmansk_timing": "summer1"}).murmansk_timing.value
'summer1'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from grognard.core.exact import Exact, ceil_q, round_half_up
from grognard.core.readings import Readings


class Rounding(StrEnum):
    FLOOR = "floor"
    CEIL = "ceil"
    HALF_UP = "half_up"

    def apply(self, x: Exact) -> int:
        fx = Fraction(x)
        if self is Rounding.FLOOR:
            return math.floor(fx)
        if self is Rounding.CEIL:
            return ceil_q(fx)
        return round_half_up(fx)


class MurmanskTiming(StrEnum):
    """TR-20: which of the text's two timelines the Murmansk box follows."""

    SPRING = "spring"  # version B: combat in the Allied Spring turn, BRPs arrive for Summer I
    SUMMER1 = "summer1"  # version A: combat in the Allied Summer I combat phase


class VichyAlignment(StrEnum):
    """TR-26: one 50-50 roll per colony, or one for all of French North Africa plus Syria."""

    PER_COLONY = "per_colony"
    NORTH_AFRICA_TOGETHER = "north_africa_together"


class HalfSpendScope(StrEnum):
    """TR-75: what counts toward the half-of-total spending cap."""

    ALL_SPENDING = "all_spending"  # builds, options, DoWs, repairs, SW factors...
    BUILDS_ONLY = "builds_only"


@dataclass(frozen=True)
class StrategicReadings(Readings):
    """Switches of TR-01..TR-26, TR-31, TR-71, TR-75..TR-87 (RULES.md section 1.3 and 6)."""

    growth_rounding: Rounding = Rounding.FLOOR  # TR-10
    ussr_recovery_rounding: Rounding = Rounding.FLOOR  # TR-12
    rm_pact_value: int = 20  # TR-12 / TR-87: 20 (eastern Poland 5) or 25 (eastern Poland 10)
    vichy_annex_value: int = 0  # TR-26: 0 (post-playtest) or 5
    vichy_alignment_granularity: VichyAlignment = VichyAlignment.PER_COLONY  # TR-26
    murmansk_timing: MurmanskTiming = MurmanskTiming.SPRING  # TR-20
    half_spend_scope: HalfSpendScope = HalfSpendScope.ALL_SPENDING  # TR-75
    destroyed_fleet_rebuild_is_repair: bool = True  # TR-76
    weather_effectiveness_drm: int = 0  # TR-06 (values MISSING)
    partial_year_income_rounding: Rounding = Rounding.FLOOR  # TR-04/TR-07 40% (our reading)
