"""TR-35 ("Air and naval support of ground combat"): air and naval support and its caps.

The phasing player's remaining air factors in the target hex and a third of the factors of
adjacent fleets add to a ground attack, capped at min(2 x final defense, 2 x ground attack)
(1 x final defense in snow). At most one (9-factor) fleet bombards for any one attack.

>>> support_cap(6, 10, snow=False), support_cap(6, 2, snow=False), support_cap(6, 10, snow=True)
(12, 4, 6)
>>> naval_support(Fleet("f", 9))
3
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import Exact, exact_json
from grognard.third_reich.turn.calendar import Weather
from grognard.third_reich.turn.combat_readings import NavalThirdRounding, TRCombatReadings
from grognard.third_reich.turn.forces import AirUnit, Fleet, as_enum

DEFAULT_READINGS = TRCombatReadings()
MAX_FLEETS_PER_ATTACK = 1


def support_cap(final_defense: int, ground_attack: int, snow: bool) -> int:
    """TR-35: the most support an attack may use: min(2x defense, 2x ground); 1x defense in snow."""
    if final_defense < 0:
        raise InputError("final_defense", "cannot be negative")
    if ground_attack < 0:
        raise InputError("ground_attack", "cannot be negative")
    return min((1 if snow else 2) * final_defense, 2 * ground_attack)


def naval_third(factors: int, readings: TRCombatReadings = DEFAULT_READINGS) -> Exact:
    """A third of a fleet's factors (TR-35/47/58), floor by default (``naval_support_rounding``)."""
    if factors < 0:
        raise InputError("factors", "naval factors cannot be negative")
    third = Fraction(factors, 3)
    if readings.naval_support_rounding is NavalThirdRounding.FLOOR:
        return factors // 3
    return third


def naval_support(
    fleet: Fleet, invasion: bool = False, readings: TRCombatReadings = DEFAULT_READINGS
) -> Exact:
    """TR-35/TR-58 Naval bombardment support: a third of the fleet's factors.

    Invasion support (TR-61) uses a third of the fleet's *printed* strength.
    """
    return naval_third(fleet.printed if invasion else fleet.factors, readings)


def verify_support_fleets(fleets: Sequence[Fleet]) -> None:
    """TR-35: no more than one 9-factor fleet may bombard in support of any one attack."""
    if len(fleets) > MAX_FLEETS_PER_ATTACK:
        raise IllegalOrder("TR-35", f"{len(fleets)} fleets declared in support of one attack; "
                           "at most one fleet may provide naval bombardment")


@dataclass(frozen=True, slots=True)
class Support:
    """The support an attack actually uses."""

    air: int
    naval: Exact
    offered: Exact
    cap: int
    used: Exact

    def to_json(self) -> dict[str, object]:
        return {"air": self.air, "naval": exact_json(self.naval),
                "offered": exact_json(self.offered), "cap": self.cap,
                "used": exact_json(self.used)}


def combat_support(
    air: Sequence[AirUnit],
    fleets: Sequence[Fleet],
    final_defense: int,
    ground_attack: int,
    weather: Weather,
    invasion: bool = False,
    readings: TRCombatReadings = DEFAULT_READINGS,
) -> Support:
    """TR-35 (Air and naval support of ground combat): the capped support of one attack.

    ``air`` are the phasing air units remaining in the target hex after air/naval combat;
    ``fleets`` the fleets bombarding from an adjacent all-sea hex (at most one).

    >>> combat_support([AirUnit("a", 5), AirUnit("b", 5)], [Fleet("f", 9)], 6, 10,
    ...                Weather.CLEAR).used
    12
    """
    verify_support_fleets(fleets)
    air_f = sum(a.factors for a in air)
    naval_f: Exact = sum((naval_support(f, invasion, readings) for f in fleets), start=0)
    offered = air_f + naval_f
    cap = support_cap(final_defense, ground_attack, as_enum(Weather, weather, "weather") is Weather.SNOW)
    return Support(air_f, naval_f, offered, cap, min(offered, cap))
