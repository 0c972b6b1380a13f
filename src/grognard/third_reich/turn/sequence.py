"""TR-02 (Normal turn sequence of play): the phases of a player turn as data the engine runs.

A player turn declares an option per front, runs the per-front steps in one unified sequence
(each front limited by its option), then once for all fronts the build, strategic deployment
and strategic warfare phases. Each Spring adds a Year Start phase per power.

>>> [p.value for p in front_phases("attrition")]
['movement', 'attrition', 'supply']
>>> [p.value for p in front_phases("offensive", "mud")][-1]
'supply'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from grognard.core.errors import InputError
from grognard.third_reich.turn.calendar import Season, Weather
from grognard.third_reich.turn.options import Front, Option, parse_option


class Phase(StrEnum):
    YEAR_START = "year_start"
    DECLARE_OPTIONS = "declare_options"
    MOVEMENT = "movement"
    AIR_MISSIONS = "air_missions"
    INTERCEPTION = "interception"
    COMBAT = "combat"  # air, naval, land in that order
    MECH_MOVEMENT = "mech_movement"
    MECH_COMBAT = "mech_combat"
    ATTRITION = "attrition"
    SUPPLY = "supply"  # supply and isolation attrition
    BUILD = "build"
    STRATEGIC_DEPLOYMENT = "strategic_deployment"
    STRATEGIC_WARFARE = "strategic_warfare"


TAIL: tuple[Phase, ...] = (Phase.BUILD, Phase.STRATEGIC_DEPLOYMENT, Phase.STRATEGIC_WARFARE)


def front_phases(option: Option | str, weather: Weather | str = Weather.CLEAR) -> tuple[Phase, ...]:
    """TR-02: the per-front phases an option allows (mechanized phases in clear weather only)."""
    opt = parse_option(option)
    try:
        w = Weather(weather)
    except ValueError:
        raise InputError("weather", f"{weather!r} is not clear, snow or mud") from None
    if opt is Option.PASS:
        return (Phase.MOVEMENT, Phase.SUPPLY)
    if opt is Option.ATTRITION:
        return (Phase.MOVEMENT, Phase.ATTRITION, Phase.SUPPLY)
    phases = [Phase.MOVEMENT, Phase.AIR_MISSIONS, Phase.INTERCEPTION, Phase.COMBAT]
    if w is Weather.CLEAR:
        phases += [Phase.MECH_MOVEMENT, Phase.MECH_COMBAT]
    phases.append(Phase.SUPPLY)
    return tuple(phases)


@dataclass(frozen=True, slots=True)
class PlayerTurn:
    """TR-02: the sequence of one power's player turn."""

    year_start: bool
    fronts: Mapping[Front, tuple[Phase, ...]]
    tail: tuple[Phase, ...] = TAIL

    def unified(self) -> tuple[Phase, ...]:
        """All phases in play order: per-front steps resolved together, then the tail."""
        order = [Phase.MOVEMENT, Phase.AIR_MISSIONS, Phase.INTERCEPTION, Phase.COMBAT,
                 Phase.MECH_MOVEMENT, Phase.MECH_COMBAT, Phase.ATTRITION, Phase.SUPPLY]
        used = {p for ps in self.fronts.values() for p in ps}
        head = [Phase.YEAR_START] if self.year_start else []
        return (*head, Phase.DECLARE_OPTIONS, *(p for p in order if p in used), *self.tail)


def player_turn(options: Mapping[Front | str, Option | str],
                weather_by_front: Mapping[Front | str, Weather | str] | None = None,
                season: Season | str = Season.SUMMER1) -> PlayerTurn:
    """TR-02 (Normal turn sequence of play): one player turn's phases from its front options."""
    fronts: dict[Front, tuple[Phase, ...]] = {}
    wx = {Front(k): Weather(v) for k, v in (weather_by_front or {}).items()}
    for f, o in options.items():
        try:
            front = Front(f)
        except ValueError:
            raise InputError("front", f"{f!r} is not western, eastern or southern") from None
        fronts[front] = front_phases(o, wx.get(front, Weather.CLEAR))
    return PlayerTurn(year_start=Season(season) is Season.SPRING, fronts=fronts)
