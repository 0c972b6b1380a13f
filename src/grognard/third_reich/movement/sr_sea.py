"""TR-69 ("SRs by sea and sea interception") resolved with the dice, zone by zone.

For each zone of a sea SR where the non-phasing player declared interceptions: every port
that may intercept into that zone (TR-56) rolls once (TR-55, :mod:`naval`); the successful
fleets then fight one round of air/naval combat (TR-49, :mod:`airnaval`) against the phasing
escorts at sea in that zone only; the escorts that survive decide whether the SR goes ahead
(TR-59, reading ``sr_escort_survival``). No interception at a point in the phasing player's
uncontested air zone (TR-60).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from grognard.core.dice import DiceStream
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.tables import TableSet
from grognard.third_reich.air_naval.airnaval import HexCombatRecord, HexForces, resolve_hex_combat
from grognard.third_reich.air_naval.naval import (
    InterceptionAttempt,
    InterceptionRoll,
    interception_table,
    resolve_interceptions,
)
from grognard.third_reich.air_naval.naval_ops import (
    DEFAULT_NAVAL_READINGS,
    AirZone,
    NavalReadings,
    naval_interception_possible,
)
from grognard.third_reich.air_naval.sea_zones import SeaZones, may_intercept
from grognard.third_reich.movement.sr import SeaSROrder, SeaSRRecord, sea_sr, verify_sea_sr
from grognard.third_reich.turn.combat_readings import TRCombatReadings
from grognard.third_reich.turn.forces import AirUnit, Fleet

DEFAULT_COMBAT_READINGS = TRCombatReadings()


@dataclass(frozen=True, slots=True)
class ZoneInterception:
    """The non-phasing player's declared interception of one sea SR in one zone."""

    zone: str
    attempts: tuple[InterceptionAttempt, ...]
    point_air_zone: AirZone = AirZone.NONE  # the interception point, seen by the phasing side
    interceptor_air: tuple[AirUnit, ...] = ()
    escort_air: tuple[AirUnit, ...] = ()


@dataclass(frozen=True, slots=True)
class SeaSRResolution:
    """Every roll and combat of one sea SR, and its result."""

    rolls: tuple[InterceptionRoll, ...]
    combats: Mapping[str, HexCombatRecord]
    record: SeaSRRecord

    def to_json(self) -> dict[str, Any]:
        return {
            **self.record.to_json(),
            "interception_rolls": [{"port": r.port, "zone": r.target, "range": r.range_hexes,
                                    "roll": r.roll, "needed": r.needed,
                                    "intercepted": r.intercepted} for r in self.rolls],
            "combat_rolls": {z: list(c.rolls) for z, c in self.combats.items()},
        }


def verify_zone_interceptions(order: SeaSROrder, sea: SeaZones,
                              interceptions: Sequence[ZoneInterception]) -> None:
    """TR-56/TR-60: ports intercept only into their own zone(s), on the route, and never at a
    point in the phasing player's uncontested air zone; one declaration per zone."""
    zones = [i.zone.lower() for i in interceptions]
    if len(set(zones)) != len(zones):
        raise InputError("interceptions", "one declaration per zone")
    route = {z.lower() for z in order.route}
    for i in interceptions:
        if i.zone.lower() not in route:
            raise IllegalOrder("TR-69", f"zone {i.zone} is not on the SR's route")
        if not naval_interception_possible(i.point_air_zone):
            raise IllegalOrder("TR-60", f"the interception point in {i.zone} is in the phasing "
                               "player's uncontested air zone")
        for a in i.attempts:
            if not may_intercept(sea, a.port, i.zone):
                raise IllegalOrder("TR-56", f"fleets in {a.port} cannot intercept into {i.zone}")


def resolve_sea_sr(
    order: SeaSROrder,
    sea: SeaZones,
    interceptions: Sequence[ZoneInterception],
    interception_rolls: Mapping[str, int],
    combat_rolls: Iterator[int],
    tables: TableSet | None = None,
    readings: NavalReadings = DEFAULT_NAVAL_READINGS,
    combat_readings: TRCombatReadings = DEFAULT_COMBAT_READINGS,
) -> SeaSRResolution:
    """TR-69 One sea SR with its interceptions: ``interception_rolls`` one 1D6 per port,
    ``combat_rolls`` the 1D10 rolls of the combats in route order (TR-49 order per zone)."""
    zones = verify_sea_sr(order, sea)
    verify_zone_interceptions(order, sea, interceptions)
    table = interception_table(tables, combat_readings)
    all_rolls: list[InterceptionRoll] = []
    combats: dict[str, HexCombatRecord] = {}
    after: dict[str, tuple[Fleet, ...]] = {}
    by_zone = {i.zone.lower(): i for i in interceptions}
    for z in zones:
        i = by_zone.get(z)
        if i is None or not i.attempts:
            continue
        attempts = tuple(InterceptionAttempt(a.port, a.fleets, z, a.range_hexes)
                         for a in i.attempts)
        rolls, battles = resolve_interceptions(attempts, interception_rolls, table)
        all_rolls.extend(rolls)
        if not battles:
            continue
        rec = resolve_hex_combat(HexForces(i.escort_air, order.escorts[z]),
                                 HexForces(i.interceptor_air, battles[0].fleets),
                                 combat_rolls, 0, tables, combat_readings)
        combats[z] = rec
        after[z] = rec.phasing.fleets
    return SeaSRResolution(tuple(all_rolls), combats, sea_sr(order, sea, after, readings))


def roll_sea_sr(order: SeaSROrder, sea: SeaZones, interceptions: Sequence[ZoneInterception],
                dice: DiceStream, tables: TableSet | None = None,
                readings: NavalReadings = DEFAULT_NAVAL_READINGS,
                combat_readings: TRCombatReadings = DEFAULT_COMBAT_READINGS
                ) -> SeaSRResolution:
    """TR-69 :func:`resolve_sea_sr` with the dice: one 1D6 per intercepting port, then 1D10s."""
    ports = [a.port for i in interceptions for a in i.attempts]
    rolls = {p: dice.roll("1d6").total for p in ports}

    def tens() -> Iterator[int]:
        while True:
            yield dice.roll("1d10").total

    return resolve_sea_sr(order, sea, interceptions, rolls, tens(), tables, readings,
                          combat_readings)
