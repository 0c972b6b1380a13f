"""EUR-26 (Air phase) Interdiction missions: the D6 test, zone placement, rail breaks, SMP
costs and how long a zone lasts.

The map part lives in the core map layer: :func:`grognard.core.paths.interdiction_zone` (centre
plus the 6 neighbours), the +1 MP entry cost (``core.movement``, ``interdiction=``) and the
1-hex-shorter supply line (``core.supply``, ``SupplyRules.interdiction_shortening``). This
module decides whether a zone is placed and for how long, and adds the SMP cost and rail break.

>>> interdiction_succeeds(3, 3), interdiction_succeeds(3, 4), interdiction_succeeds(15, 6)
(True, False, True)
>>> interdiction_chance(4)
Fraction(2, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from grognard.core.dice import Distribution
from grognard.core.errors import InputError
from grognard.core.mapdata import MapData
from grognard.core.paths import HexRef, hex_index, interdiction_zone, labels
from grognard.core.readings import Readings


class ZoneDuration(StrEnum):
    """EUR-26 reading: the text gives no duration for an interdiction zone."""

    ENEMY_NEXT_PLAYER_TURN = "enemy_next_player_turn"  # RULES.md default
    OWN_NEXT_PLAYER_TURN = "own_next_player_turn"  # removed when the placer's next turn starts


@dataclass(frozen=True)
class InterdictionReadings(Readings):
    """Switches of EUR-26 (RULES.md section 1.2)."""

    #: The mission's tactical rating is divided by this (rounded down) before the D6 test.
    interdiction_rating_divisor: int = 1
    zone_duration: ZoneDuration = ZoneDuration.ENEMY_NEXT_PLAYER_TURN
    #: Extra MP (and SMP) to enter a zone hex.
    zone_entry_cost: int = 1
    #: Hexes a supply line through any number of zones is shortened by.
    supply_shortening: int = 1


def _nonneg(name: str, v: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise InputError(name, f"must be a non-negative integer, not {v!r}")
    return v


def interdiction_target(tactical: int, readings: InterdictionReadings = InterdictionReadings()
                        ) -> int:
    """EUR-26 The D6 number to roll at or under: the tactical strike rating (÷ the divisor)."""
    _nonneg("tactical", tactical)
    if readings.interdiction_rating_divisor < 1:
        raise InputError("readings.interdiction_rating_divisor", "must be at least 1")
    return tactical // readings.interdiction_rating_divisor


def interdiction_succeeds(tactical: int, roll: int,
                          readings: InterdictionReadings = InterdictionReadings()) -> bool:
    """EUR-26 (Air phase) An interdiction mission places its zone on 1D6 <= its tactical
    strike rating."""
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
        raise InputError("roll", f"a D6 roll is 1..6, not {roll!r}")
    return roll <= interdiction_target(tactical, readings)


def interdiction_chance(tactical: int, readings: InterdictionReadings = InterdictionReadings()
                        ) -> Fraction:
    """EUR-26 Exact chance of placing the zone (the same test mapped over 1D6)."""
    odds = Distribution.of("1d6").map(lambda r: interdiction_succeeds(tactical, r, readings))
    return odds.get(True, Fraction(0))


@dataclass(frozen=True, slots=True)
class InterdictionZone:
    """EUR-26 A placed zone: centre, the hexes within 1 of it, its rail break, and the last
    player turn (game turn, player) during which it is in force."""

    centre: str
    hexes: tuple[str, ...]
    rail_break: bool
    placed_turn: int
    placed_by: str
    expires_turn: int
    expires_after: str

    def to_json(self) -> dict[str, object]:
        return {"centre": self.centre, "hexes": list(self.hexes), "rail_break": self.rail_break,
                "placed_turn": self.placed_turn, "placed_by": self.placed_by,
                "expires_turn": self.expires_turn, "expires_after": self.expires_after}


@dataclass(frozen=True, slots=True)
class InterdictionResult:
    """EUR-26 Record of one interdiction mission: the roll, the target number, the zone."""

    tactical: int
    target: int
    roll: int
    zone: InterdictionZone | None

    def to_json(self) -> dict[str, object]:
        return {"rule": "EUR-26", "tactical": self.tactical, "target": self.target,
                "roll": self.roll, "success": self.zone is not None,
                "zone": None if self.zone is None else self.zone.to_json()}


def zone_expiry(turn: int, player: str, players: Sequence[str],
                readings: InterdictionReadings = InterdictionReadings()) -> tuple[int, str]:
    """EUR-26 (reading) The last player turn a zone placed in ``player``'s turn ``turn`` is in
    force: by default the end of the enemy's next player turn; with ``own_next_player_turn`` it
    goes when the placer's next player turn begins (i.e. after the player turn before it).

    >>> zone_expiry(3, "axis", ["axis", "soviet"]), zone_expiry(3, "soviet", ["axis", "soviet"])
    ((3, 'soviet'), (4, 'axis'))
    """
    _nonneg("turn", turn)
    if player not in players:
        raise InputError("player", f"{player!r} is not one of {', '.join(players)}")
    n, i = len(players), list(players).index(player)
    # the enemy's next player turn, or the player turn just before the placer's next one
    enemy_next = readings.zone_duration is ZoneDuration.ENEMY_NEXT_PLAYER_TURN
    j = i + 1 if enemy_next else i + n - 1
    return turn + j // n, players[j % n]


def zone_in_force(zone: InterdictionZone, turn: int, player: str, players: Sequence[str]
                  ) -> bool:
    """EUR-26 Whether ``zone`` is in force during ``player``'s player turn of game turn ``turn``.

    >>> z = InterdictionZone("0101", ("0101",), False, 3, "axis", 3, "soviet")
    >>> [zone_in_force(z, t, p, ["axis", "soviet"]) for t, p in [(3, "soviet"), (4, "axis")]]
    [True, False]
    """
    order = list(players)
    for name, p in (("player", player), ("zone.expires_after", zone.expires_after),
                    ("zone.placed_by", zone.placed_by)):
        if p not in order:
            raise InputError(name, f"{p!r} is not one of {', '.join(order)}")
    now = turn * len(order) + order.index(player)
    start = zone.placed_turn * len(order) + order.index(zone.placed_by)
    end = zone.expires_turn * len(order) + order.index(zone.expires_after)
    return start <= now <= end


def interdiction_mission(m: MapData, centre: HexRef, tactical: int, roll: int, turn: int,
                         player: str, players: Sequence[str],
                         rail: npt.ArrayLike | None = None,
                         readings: InterdictionReadings = InterdictionReadings()
                         ) -> InterdictionResult:
    """EUR-26 (Air phase) Resolve an interdiction mission: on success a zone of radius 1 around
    ``centre`` (from :func:`core.paths.interdiction_zone`); a rail break if the centre hex is on
    a rail line (``rail``: per-hex booleans, the map has no rail layer of its own)."""
    c = hex_index(m, centre, "centre")
    target = interdiction_target(tactical, readings)
    if not interdiction_succeeds(tactical, roll, readings):
        return InterdictionResult(tactical, target, roll, None)
    hexes = np.flatnonzero(interdiction_zone(m, [c]))
    on_rail = False
    if rail is not None:
        r = np.asarray(rail, dtype=bool)
        if r.shape != (m.n,):
            raise InputError("rail", f"needs one flag per hex ({m.n}), got shape {r.shape}")
        on_rail = bool(r[c])
    exp_turn, exp_player = zone_expiry(turn, player, players, readings)
    zone = InterdictionZone(labels(m, [c])[0], tuple(labels(m, hexes)), on_rail, turn,
                            player, exp_turn, exp_player)
    return InterdictionResult(tactical, target, roll, zone)


def zones_mask(m: MapData, zones: Sequence[InterdictionZone]) -> npt.NDArray[np.bool_]:
    """EUR-26 Per-hex mask of all zones, ready for ``core.movement``/``core.supply``
    ``interdiction=`` arguments."""
    if not zones:
        return np.zeros(m.n, dtype=bool)
    return interdiction_zone(m, [z.centre for z in zones])


def interdicted_entry_cost(base_cost: int, in_zone: bool,
                           readings: InterdictionReadings = InterdictionReadings()) -> int:
    """EUR-26 Cost for an enemy unit to enter a hex: +1 MP inside a zone. SMP (strategic
    movement) costs rise by the same amount.

    >>> interdicted_entry_cost(2, True), interdicted_entry_cost(2, False)
    (3, 2)
    """
    _nonneg("base_cost", base_cost)
    return base_cost + (readings.zone_entry_cost if in_zone else 0)


def interdicted_supply_length(normal_length: int, through_zone: bool,
                              readings: InterdictionReadings = InterdictionReadings()) -> int:
    """EUR-26 A supply line traced through any number of zones must be 1 hex shorter than its
    normal (weather-dependent) allowed length.

    >>> interdicted_supply_length(5, True), interdicted_supply_length(5, False)
    (4, 5)
    """
    _nonneg("normal_length", normal_length)
    return max(normal_length - (readings.supply_shortening if through_zone else 0), 0)


def rail_breaks(zones: Sequence[InterdictionZone]) -> tuple[str, ...]:
    """EUR-26 The hexes with a rail break: centres of zones placed on a rail line."""
    return tuple(z.centre for z in zones if z.rail_break)
