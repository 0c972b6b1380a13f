"""The readings (ambiguity switches) of Revised Third Reich combat resolution.

One frozen value for the whole combat area (TR-32..TR-50, TR-55, TR-72..TR-74), with the
RULES.md default of every switch. Pass it explicitly to the rule functions that need it.

>>> r = TRCombatReadings()
>>> r.tr_odds_rounding, r.tr_attrition_column_bounds[:3]
(<OddsRounding.DOWN: 'down'>, (5, 25, 45))
>>> TRCombatReadings.from_mapping({"tr_shifts_cumulative": False}).tr_shifts_cumulative
False
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from grognard.core.readings import Readings


class OddsRounding(StrEnum):
    """TR-32 ``tr_odds_rounding``: how attack/defense falls to a CRT column."""

    DOWN = "down"  # the highest column not above the ratio (defender's favour)
    NEAREST = "nearest"  # the nearest column by ratio, ties going down


class NavalThirdRounding(StrEnum):
    """TR-35 ``naval_support_rounding``: a third of a fleet's factors."""

    FLOOR = "floor"
    EXACT = "exact"  # keep the Fraction (e.g. 8/3)


class RetreatImpossible(StrEnum):
    """TR-32 ``tr_retreat_impossible``: what a side that must retreat but cannot suffers."""

    EXTRA_LOSS = "extra_loss"  # the text: lose 1 more unit and stay (default)
    ELIMINATED = "eliminated"  # 3R4 style: every unit that cannot retreat is eliminated


class Round06Scope(StrEnum):
    """TR-46 ``nonphasing_round06_scope``."""

    SMALL_UNITS = "small_units"  # TR-50: non-phasing air with fewer than 5 factors (default)
    ALL = "all"  # the air-to-air passage: all non-phasing air factors


class NeutralizeGranularity(StrEnum):
    """TR-44 ``counterair_neutralize_granularity``."""

    FACTOR = "factor"
    WHOLE_UNIT = "whole_unit"


@dataclass(frozen=True)
class TRCombatReadings(Readings):
    """Switches of 3R combat with the RULES.md / TABLES.md defaults."""

    # TR-32: land CRT
    tr_crt_table: str = "tr_new3r_land_crt"
    tr_odds_rounding: OddsRounding = OddsRounding.DOWN
    tr_min_declared_odds: str = "1-2"
    tr_retreat_impossible: RetreatImpossible = RetreatImpossible.EXTRA_LOSS
    # TR-33 / TR-84: Russian winter
    russian_winter_voids_fort_doubling: bool = False
    # Hex add in a mixed stack under Russian winter: kept if any defender is unaffected
    # (a Finnish or non-Axis unit); voided only when every defender is affected.
    russian_winter_mixed_stack_keeps_add: bool = True
    # TR-34: shifts are cumulative (mountain + river = 2L)
    tr_shifts_cumulative: bool = True
    # TR-35: a third of a fleet
    naval_support_rounding: NavalThirdRounding = NavalThirdRounding.FLOOR
    # TR-38: lower bounds of the seven attrition columns (TABLES.md: 20-factor bands)
    tr_attrition_column_bounds: tuple[int, ...] = (5, 25, 45, 65, 85, 105, 125)
    tr_attrition_table: str = "tr_new3r_attrition"
    # TR-44 / TR-46 / TR-50
    counterair_neutralize_granularity: NeutralizeGranularity = NeutralizeGranularity.FACTOR
    nonphasing_round06_scope: Round06Scope = Round06Scope.SMALL_UNITS
    tr_air_table: str = "tr_new3r_airnaval"
    tr_naval_table: str = "tr_new3r_airnaval"
    # TR-55: range 0 (target in the port's own hex) counts in the first band
    tr_interception_table: str = "tr_interception"
    # TR-73: the Mediterranean weather region (North Africa, Middle East, Med islands)
    # takes the -1 regional isolation DRM (islands included; set False to exempt them)
    isolation_mediterranean_remote: bool = True
    tr_isolation_table: str = "tr_isolation_drms"
