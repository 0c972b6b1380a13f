"""TR-33 / TR-84 ("Units are not doubled on defense…"; "Russian winter"): hex defense strength.

No doubling on defense: the hex defends with the sum of its units' factors plus a weather
add (+1 clear, +2 snow or mud). In a fortified hex the add goes to the single strongest unit,
which is then doubled; the others count their plain factor. Under the Russian winter (the
first winter turn after Germany and the USSR are at war, inside the USSR, the Baltic States or
eastern Poland) non-Finnish Axis units get no add at all.

>>> from grognard.third_reich.turn.forces import GroundUnit, GroundKind, Side
>>> a = GroundUnit("a", "german", Side.AXIS, GroundKind.INFANTRY, 3)
>>> b = GroundUnit("b", "german", Side.AXIS, GroundKind.INFANTRY, 2)
>>> hex_defense([a, b], Weather.CLEAR, fortified=True).total
10
>>> hex_defense([a, b], Weather.SNOW, fortified=True).total
12
>>> hex_defense([a, b], Weather.SNOW, russian_winter=True).total
5
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grognard.core.errors import InputError
from grognard.third_reich.turn.calendar import Season, Weather
from grognard.third_reich.turn.combat_readings import TRCombatReadings
from grognard.third_reich.turn.forces import GroundKind, GroundUnit, Side, as_enum

DEFAULT_READINGS = TRCombatReadings()


def weather_add(weather: Weather) -> int:
    """TR-33: the hex defense add, +1 in clear, +2 in snow or mud.

    >>> weather_add(Weather.CLEAR), weather_add(Weather.MUD)
    (1, 2)
    """
    return 1 if as_enum(Weather, weather, "weather") is Weather.CLEAR else 2


def russian_winter_affects(unit: GroundUnit) -> bool:
    """TR-84: the Russian winter strips the add from non-Finnish Axis units (Finns unaffected)."""
    return unit.side is Side.AXIS and not unit.is_finnish


_SEASON_ORDER = (Season.SPRING, Season.SUMMER1, Season.SUMMER2, Season.FALL, Season.WINTER)


def russian_winter_applies(
    year: int,
    season: Season,
    war_year: int,
    war_season: Season,
    in_russian_winter_area: bool,
) -> bool:
    """TR-84 (Russian winter) Is this the Russian-winter turn for a hex?

    True on the first Winter turn at or after the turn Germany and the USSR went to war
    (``war_year``/``war_season``; a war begun in a Winter turn makes that Winter the first),
    for a hex inside the USSR, the Baltic States or eastern Poland. The USSR may not defer it.

    >>> russian_winter_applies(1941, Season.WINTER, 1941, Season.SUMMER1, True)
    True
    >>> russian_winter_applies(1942, Season.WINTER, 1941, Season.SUMMER1, True)
    False
    """
    s = as_enum(Season, season, "season")
    ws = as_enum(Season, war_season, "war_season")
    if not in_russian_winter_area or s is not Season.WINTER:
        return False
    if (year, _SEASON_ORDER.index(s)) < (war_year, _SEASON_ORDER.index(ws)):
        return False
    return year == war_year


@dataclass(frozen=True, slots=True)
class HexDefense:
    """The final defense strength of a hex and how it was made up."""

    total: int
    base: int  # sum of the printed factors (replacement units count 1)
    add: int  # the weather add actually applied (0 when voided by the Russian winter)
    fortified: bool
    doubled_unit: str | None  # the strongest unit doubled in a fortified hex
    russian_winter: bool

    def to_json(self) -> dict[str, object]:
        return {"total": self.total, "base": self.base, "add": self.add,
                "fortified": self.fortified, "doubled_unit": self.doubled_unit,
                "russian_winter": self.russian_winter}


def defense_factor(unit: GroundUnit) -> int:
    """A unit's defense factor (TR-71: a replacement unit defends with 1)."""
    return 1 if unit.kind is GroundKind.REPLACEMENT else unit.factors


def hex_defense(
    units: Sequence[GroundUnit],
    weather: Weather,
    fortified: bool = False,
    russian_winter: bool = False,
    readings: TRCombatReadings = DEFAULT_READINGS,
) -> HexDefense:
    """TR-33 (Changes to land combat) Hex defense = Σ factors + weather add; fortified doubling.

    ``russian_winter`` says the hex lies in the USSR, the Baltic States or eastern Poland on the
    first winter turn of the German-Soviet war (TR-84). The add is then voided for
    non-Finnish Axis units; in a mixed stack it is kept while any unaffected unit defends
    (reading ``russian_winter_mixed_stack_keeps_add``). A fortified hex still doubles its
    strongest unit under the Russian winter unless ``russian_winter_voids_fort_doubling``.
    """
    if not units:
        raise InputError("defenders", "a hex defense needs at least one defending unit")
    w = as_enum(Weather, weather, "weather")
    factors = [defense_factor(u) for u in units]
    base = sum(factors)
    add = weather_add(w)
    winter_hit = False
    if russian_winter:
        affected = [russian_winter_affects(u) for u in units]
        if readings.russian_winter_mixed_stack_keeps_add:
            winter_hit = all(affected)
        else:
            winter_hit = any(affected)
        if winter_hit:
            add = 0
    if not fortified:
        return HexDefense(base + add, base, add, False, None, winter_hit)
    if winter_hit and readings.russian_winter_voids_fort_doubling:
        return HexDefense(base, base, 0, True, None, True)
    strongest = max(range(len(units)), key=lambda i: factors[i])
    total = 2 * (factors[strongest] + add) + (base - factors[strongest])
    return HexDefense(total, base, add, True, units[strongest].id, winter_hit)
