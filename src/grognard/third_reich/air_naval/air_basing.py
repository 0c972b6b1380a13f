"""TR-29 ("Air unit movement (staging) and stacking"; "Air operations, bases, and ranges").

In the movement phase a phasing air unit may *stage* up to 2x its range from one controlled
friendly city or airbase to another, by air (terrain and sea ignored), even out of supply or
on an attrition/pass front; it then flies missions only from that final *operating* hex,
ranges counted from it, and only if that hex is in supply under the offensive option (TR-43,
:func:`grognard.third_reich.air_naval.airnaval.can_fly_missions`). A unit that cannot end staging in an
in-supply hex is eliminated to the force pool. At most 5 air factors per city/airbase hex,
checked at the end of staging (:func:`grognard.core.stacking.third_reich_air_stacking`).
Non-phasing air never stages. Air units may SR at the end of the turn to an in-supply friendly
city or airbase that a land unit could SR to, never into an uncontested enemy air zone.

>>> from grognard.core.hexgrid import Hex
>>> paris = AirBaseHex(Hex(0, 0), BaseKind.CITY, Side.AXIS)
>>> brest = AirBaseHex(Hex(8, 0), BaseKind.CITY, Side.AXIS)
>>> lw = BasedAir(AirUnit("lw", 5), Side.AXIS, Hex(0, 0))
>>> stage(lw, Hex(8, 0), {b.hex: b for b in (paris, brest)})[1].distance   # 2 x 4 = 8
8
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.core.hexgrid import Hex, distance
from grognard.core.stacking import third_reich_air_stacking
from grognard.core.tables import Table, TableSet, load_tables
from grognard.third_reich.air_naval.air_zones import (
    DEFAULT_READINGS,
    AirZoneAction,
    AirZoneReadings,
    BasedAir,
    verify_air_zone_action,
)
from grognard.third_reich.air_naval.airnaval import can_fly_missions
from grognard.third_reich.turn.forces import AirUnit, Side
from grognard.third_reich.turn.options import Option

RULE = "TR-29"
VALUES_TABLE_ID = "tr_air_values"


def air_values(tables: TableSet | None = None) -> Table:
    """The ``tr_air_values`` table (TR-29/TR-51/TR-53/TR-65 numbers), overridable."""
    return (tables if tables is not None else load_tables()).get(VALUES_TABLE_ID)


def air_value(item: str, table: Table | None = None) -> int:
    """One number of ``tr_air_values`` (``staging_range_multiple``, ``airdrop_range``, ...)."""
    return int((table if table is not None else air_values()).lookup(item))


class BaseKind(StrEnum):
    CITY = "city"
    AIRBASE = "airbase"  # TR-65 marker


@dataclass(frozen=True, slots=True)
class AirBaseHex:
    """A controlled friendly city or airbase hex of ``side`` and whether it is in supply."""

    hex: Hex
    kind: BaseKind
    side: Side
    in_supply: bool = True


Bases = Mapping[Hex, AirBaseHex]


def staging_range(unit: AirUnit, table: Table | None = None) -> int:
    """TR-29 Air units stage up to 2x their range in the movement phase.

    >>> staging_range(AirUnit("a", 5, 4))
    8
    """
    return air_value("staging_range_multiple", table) * unit.range


def _base(bases: Bases, h: Hex, side: Side) -> AirBaseHex | None:
    b = bases.get(h)
    return b if b is not None and b.side is side else None


def verify_stage(air: BasedAir, to: Hex, bases: Bases, *, phasing: bool = True,
                 table: Table | None = None) -> None:
    """TR-29 Staging: phasing air only, from a controlled friendly city/airbase to another
    within 2x range (terrain and sea ignored), ending in an in-supply hex."""
    if not phasing:
        raise IllegalOrder(RULE, f"{air.unit.id}: non-phasing air units never move or stage")
    if _base(bases, air.hex, air.side) is None:
        raise IllegalOrder(RULE, f"{air.unit.id} does not start at a friendly city or airbase")
    dest = _base(bases, to, air.side)
    if dest is None:
        raise IllegalOrder(RULE, f"{tuple(to)} is not a controlled friendly city or airbase")
    d, most = distance(air.hex, to), staging_range(air.unit, table)
    if d > most:
        raise IllegalOrder(RULE, f"{air.unit.id} stages {d} hexes; at most {most} (2x range)")
    if not dest.in_supply:
        raise IllegalOrder(RULE, f"{air.unit.id} must end staging in an in-supply hex")


def can_stage(air: BasedAir, to: Hex, bases: Bases, *, phasing: bool = True,
              table: Table | None = None) -> bool:
    """TR-29 Is this staging move legal?"""
    try:
        verify_stage(air, to, bases, phasing=phasing, table=table)
    except IllegalOrder:
        return False
    return True


@dataclass(frozen=True, slots=True)
class Staged:
    """TR-29: one staging move."""

    unit: str
    from_hex: Hex
    to_hex: Hex
    distance: int
    allowance: int


def stage(air: BasedAir, to: Hex, bases: Bases, *, phasing: bool = True,
          table: Table | None = None) -> tuple[BasedAir, Staged]:
    """TR-29 Stage ``air`` to ``to``: the new operating hex, and the record."""
    verify_stage(air, to, bases, phasing=phasing, table=table)
    return replace(air, hex=to), Staged(air.unit.id, air.hex, to, distance(air.hex, to),
                                        staging_range(air.unit, table))


@dataclass(frozen=True, slots=True)
class AirStackViolation:
    hex: Hex
    factors: int
    limit: int


def air_stacking_violations(air: Sequence[BasedAir]) -> list[AirStackViolation]:
    """TR-29 Hexes holding more than 5 air factors (neutralised factors count too), in order
    of first appearance."""
    limit = third_reich_air_stacking().limit
    totals: dict[Hex, int] = {}
    for a in air:
        totals[a.hex] = totals.get(a.hex, 0) + a.unit.factors
    return [AirStackViolation(h, f, limit) for h, f in totals.items() if f > limit]


def air_stacking_ok(h: Hex, air: Sequence[BasedAir]) -> bool:
    """TR-29 At most 5 air factors in the city or airbase hex ``h``."""
    return all(v.hex != h for v in air_stacking_violations(air))


def stranded(air: BasedAir, bases: Bases, table: Table | None = None) -> bool:
    """TR-29 A unit not at an in-supply friendly base that cannot stage to one is eliminated
    to the force pool."""
    here = _base(bases, air.hex, air.side)
    if here is not None and here.in_supply:
        return False
    most = staging_range(air.unit, table)
    return not any(b.side is air.side and b.in_supply and distance(air.hex, h) <= most
                   for h, b in bases.items())


@dataclass(frozen=True, slots=True)
class StagingEnd:
    """TR-29: the end of staging: air kept and air eliminated to the force pool."""

    air: tuple[BasedAir, ...]
    eliminated: tuple[str, ...]


def end_staging(air: Sequence[BasedAir], bases: Bases, side: Side | str,
                table: Table | None = None) -> StagingEnd:
    """TR-29 End of the phasing side's staging: its units left out of supply with no
    in-supply base in reach are eliminated; then the 5-factor stacking limit must hold."""
    s = parse_enum(Side, side, "side")
    gone = tuple(a.unit.id for a in air if a.side is s and stranded(a, bases, table))
    kept = tuple(a for a in air if a.unit.id not in gone)
    over = [v for v in air_stacking_violations(kept)
            if any(a.side is s and a.hex == v.hex for a in kept)]
    if over:
        v = over[0]
        raise IllegalOrder(RULE, f"{v.factors} air factors in {tuple(v.hex)}; at most "
                           f"{v.limit} per city or airbase")
    return StagingEnd(kept, gone)


def may_fly_missions(air: BasedAir, bases: Bases, option: Option | str) -> bool:
    """TR-29/TR-43 Missions fly only from the operating hex, which must be an in-supply city
    or airbase, under the offensive option."""
    b = _base(bases, air.hex, air.side)
    opt = parse_enum(Option, option, "option")
    return can_fly_missions(b is not None, b is not None and b.in_supply,
                            opt is Option.OFFENSIVE)


def mission_in_range(air: BasedAir, target: Hex) -> bool:
    """TR-29 Mission ranges count from the operating hex (placing a unit on its mission hex
    is not movement; it returns there after the mission)."""
    return air.reaches(target)


def verify_air_sr(air: BasedAir, to: Hex, bases: Bases, path: Sequence[Hex],
                  all_air: Sequence[BasedAir], *, land_sr_reachable: bool = True,
                  readings: AirZoneReadings = DEFAULT_READINGS) -> None:
    """TR-29/TR-30 Air SR at the end of the turn: to an in-supply friendly city or airbase a
    land unit could SR to (``land_sr_reachable``, found by the SR rules), no hex of ``path``
    (destination included) an uncontested enemy air zone; the SRing unit does not contest."""
    if not path or path[-1] != to:
        raise InputError("path", "the SR path must end at the destination")
    dest = _base(bases, to, air.side)
    if dest is None or not dest.in_supply:
        raise IllegalOrder(RULE, f"air SR must end at an in-supply friendly city or airbase, "
                           f"not {tuple(to)}")
    if not land_sr_reachable:
        raise IllegalOrder(RULE, "air SR only to a hex a friendly land unit could SR to")
    others = [a for a in all_air if a.unit.id != air.unit.id]
    verify_air_zone_action(AirZoneAction.AIR_UNIT_LAND_SR, list(path), air.side, others,
                           readings)


def can_air_sr(air: BasedAir, to: Hex, bases: Bases, path: Sequence[Hex],
               all_air: Sequence[BasedAir], *, land_sr_reachable: bool = True,
               readings: AirZoneReadings = DEFAULT_READINGS) -> bool:
    """TR-29 Is this air SR legal?"""
    try:
        verify_air_sr(air, to, bases, path, all_air, land_sr_reachable=land_sr_reachable,
                      readings=readings)
    except IllegalOrder:
        return False
    return True


__all__ = [
    "AirBaseHex", "AirStackViolation", "BaseKind", "Staged", "StagingEnd",
    "air_stacking_ok", "air_stacking_violations", "air_value", "air_values", "can_air_sr",
    "can_stage", "end_staging", "may_fly_missions", "mission_in_range", "stage",
    "staging_range", "stranded", "verify_air_sr", "verify_stage",
]
