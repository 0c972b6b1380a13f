"""TR-30 ("Air zones and contested air zones"; "Naval interception and enemy air zones").

Every hex within range of a side's air units (counted from their operating hex, after
staging) is in that side's air zone; the zone's strength in a hex is the total un-neutralised
air factors that reach it. A hex reached by one side only is that side's *uncontested* zone;
a side *contests* an enemy zone when it reaches the hex with at least as many factors (equal
totals contest it for both). Neutralised air (TR-44 counter-air) does not count.

Ranges are plain hex distances (``core.hexgrid.distance``) from each unit's hex with the
unit's own ``range`` (5-4 air fleets: 4): the 3R4 map and its range details are EXTERNAL, so
this is the generic mechanism, configured by the units' ranges and positions.

>>> from grognard.core.hexgrid import Hex
>>> it = BasedAir(AirUnit("it", 5), Side.AXIS, Hex(0, 0))
>>> uk = BasedAir(AirUnit("uk", 5), Side.ALLIES, Hex(6, 0))
>>> air_zone_status(Hex(3, 0), Side.ALLIES, [it, uk]).uncontested_enemy   # 5 v 5: contested
False
>>> air_zone_status(Hex(1, 0), Side.ALLIES, [it, uk]).uncontested_enemy   # Axis only
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.core.hexgrid import Hex, distance
from grognard.core.mapdata import MapData
from grognard.core.paths import hex_index
from grognard.core.readings import Readings
from grognard.engine.scenario import load_scenario
from grognard.third_reich.air_naval.airnaval import CounterAir
from grognard.third_reich.scenario_schema import third_reich_rules
from grognard.third_reich.turn.forces import AirUnit, Side

RULE = "TR-30"


class LandSrScope(StrEnum):
    """TR-30 reading: which land SRs the air-zone contest test applies to."""

    ALL_UNITS = "all_units"  # the SR-by-land section: every SRing unit (default, stricter)
    AIR_UNITS = "air_units"  # the air-zones section's list: land SR of an air unit only


@dataclass(frozen=True)
class AirZoneReadings(Readings):
    """RULES.md switches of TR-30. ``land_sr_contest_scope``: the air-zones section names only
    "land SR of an air unit", the SR section applies the test to every SR by land; default
    reading: every land SR."""

    land_sr_contest_scope: LandSrScope = LandSrScope.ALL_UNITS


DEFAULT_READINGS = AirZoneReadings()


class AirZoneAction(StrEnum):
    """TR-30: actions forbidden into (or through) an uncontested enemy air zone."""

    AIRBORNE_DROP = "airborne_drop"  # TR-51: the landing hex
    AIRBORNE_SR = "airborne_sr"  # TR-53: every hex passed through
    AMPHIBIOUS_ASSAULT = "amphibious_assault"  # TR-61: the offshore hex and the beach
    SEA_SR = "sea_sr"  # TR-69: both ports
    AIR_UNIT_LAND_SR = "air_unit_land_sr"  # every hex traversed, destination included
    LAND_SR = "land_sr"  # TR-68: every hex traversed (reading: all units)
    NAVAL_BUILD = "naval_build"  # TR-64: the build port


@dataclass(frozen=True, slots=True)
class BasedAir:
    """An air unit of ``side`` at its operating hex; ``neutralized`` factors (TR-44) do not
    count in air zones this player turn."""

    unit: AirUnit
    side: Side
    hex: Hex
    neutralized: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.neutralized <= self.unit.factors:
            raise InputError("neutralized", f"air unit {self.unit.id}: must be 0.."
                             f"{self.unit.factors}, not {self.neutralized}")

    @property
    def active_factors(self) -> int:
        return self.unit.factors - self.neutralized

    def reaches(self, target: Hex) -> bool:
        """The unit's range (from its operating hex) covers ``target``."""
        return distance(self.hex, target) <= self.unit.range

    @classmethod
    def from_json(cls, raw: Mapping[str, Any], where: str = "air",
                  hex_of: Any = None) -> BasedAir:
        """``{"id", "side", "factors", "range", "hex", "neutralized"}``; ``hex_of`` turns the
        ``hex`` value (a label or place name) into a ``Hex``."""
        if not isinstance(raw, Mapping):
            raise InputError(where, "expected an object")
        if "hex" not in raw:
            raise InputError(f"{where}.hex", "is required")
        h = hex_of(raw["hex"]) if hex_of is not None else raw["hex"]
        if not isinstance(h, Hex):
            if isinstance(h, list | tuple) and len(h) == 2:
                h = Hex(int(h[0]), int(h[1]))
            else:
                raise InputError(f"{where}.hex", f"{raw['hex']!r} is not a hex")
        neut = raw.get("neutralized", 0)
        if isinstance(neut, bool) or not isinstance(neut, int):
            raise InputError(f"{where}.neutralized", "expected an integer")
        return cls(AirUnit.from_json(raw, where), parse_enum(Side, raw.get("side"), f"{where}.side"),
                   h, neut)


def _other(side: Side) -> Side:
    return Side.ALLIES if side is Side.AXIS else Side.AXIS


def air_zone_strength(target: Hex, side: Side | str, air: Iterable[BasedAir]) -> int:
    """TR-30 The strength of ``side``'s air zone in ``target``: the un-neutralised air factors
    of that side whose range reaches it.

    >>> air_zone_strength(Hex(2, 0), "axis", [BasedAir(AirUnit("a", 5), Side.AXIS, Hex(0, 0))])
    5
    """
    s = parse_enum(Side, side, "side")
    return sum(a.active_factors for a in air if a.side is s and a.reaches(target))


@dataclass(frozen=True, slots=True)
class AirZoneStatus:
    """TR-30: both sides' air zone strengths in one hex, seen from ``side``."""

    side: Side
    friendly: int
    enemy: int

    @property
    def uncontested_enemy(self) -> bool:
        """In the enemy's air zone and not contested (fewer friendly factors reach it)."""
        return self.enemy > 0 and self.friendly < self.enemy

    @property
    def uncontested_friendly(self) -> bool:
        return self.friendly > 0 and self.enemy < self.friendly

    @property
    def contested(self) -> bool:
        """Both sides reach it; equal totals contest it for both."""
        return self.friendly > 0 and self.enemy > 0

    def to_json(self) -> dict[str, Any]:
        return {"side": str(self.side), "friendly": self.friendly, "enemy": self.enemy,
                "contested": self.contested, "uncontested_enemy": self.uncontested_enemy,
                "uncontested_friendly": self.uncontested_friendly}


def air_zone_status(target: Hex, side: Side | str, air: Sequence[BasedAir]) -> AirZoneStatus:
    """TR-30 The air zone strengths of ``side`` and its enemy in ``target``."""
    s = parse_enum(Side, side, "side")
    return AirZoneStatus(s, air_zone_strength(target, s, air),
                         air_zone_strength(target, _other(s), air))


def is_uncontested_enemy(target: Hex, side: Side | str, air: Sequence[BasedAir]) -> bool:
    """TR-30 Is ``target`` an uncontested enemy air zone for ``side``?"""
    return air_zone_status(target, side, air).uncontested_enemy


def air_zone_field(m: MapData, side: Side | str, air: Sequence[BasedAir]
                   ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """TR-30 Friendly and enemy air zone strengths of every hex of the map (vectorised: one
    distance matrix of units x hexes)."""
    s = parse_enum(Side, side, "side")
    out = (np.zeros(m.n, dtype=np.int64), np.zeros(m.n, dtype=np.int64))
    if not air:
        return out
    q = np.array([a.hex.q for a in air])[:, None]
    r = np.array([a.hex.r for a in air])[:, None]
    dq, dr = m.q[None, :] - q, m.r[None, :] - r
    dist = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    reach = dist <= np.array([a.unit.range for a in air])[:, None]
    fac = np.array([a.active_factors for a in air], dtype=np.int64)[:, None]
    mine = np.array([a.side is s for a in air])[:, None]
    return ((reach & mine) * fac).sum(axis=0), ((reach & ~mine) * fac).sum(axis=0)


def _checked_hexes(action: AirZoneAction, hexes: Sequence[Hex]) -> Sequence[Hex]:
    if not hexes:
        raise InputError("hexes", f"{action.value} needs at least one hex")
    if action is AirZoneAction.AMPHIBIOUS_ASSAULT and len(hexes) != 2:
        raise InputError("hexes", "amphibious assault: give the offshore hex and the beach hex")
    if action is AirZoneAction.SEA_SR and len(hexes) != 2:
        raise InputError("hexes", "sea SR: give the port of departure and the destination port")
    return hexes


def air_zone_blocks(action: AirZoneAction | str, hexes: Sequence[Hex], side: Side | str,
                    air: Sequence[BasedAir], readings: AirZoneReadings = DEFAULT_READINGS,
                    ) -> list[Hex]:
    """TR-30 The hexes among ``hexes`` that stop ``action``: those in an uncontested enemy air
    zone. ``hexes`` are the landing hex (drop), the offshore and beach hexes (amphibious),
    both ports (sea SR), the build port, or every hex traversed (land/airborne SR). Air units
    that are themselves SRing do not contest (leave them out of ``air``). Land SR of a
    ground unit is exempt under ``land_sr_contest_scope = air_units``."""
    act = parse_enum(AirZoneAction, action, "action")
    hs = _checked_hexes(act, hexes)
    if act is AirZoneAction.LAND_SR and readings.land_sr_contest_scope is LandSrScope.AIR_UNITS:
        return []
    return [h for h in hs if is_uncontested_enemy(h, side, air)]


def can_air_zone_action(action: AirZoneAction | str, hexes: Sequence[Hex], side: Side | str,
                        air: Sequence[BasedAir],
                        readings: AirZoneReadings = DEFAULT_READINGS) -> bool:
    """TR-30 Is ``action`` allowed as far as air zones go?"""
    return not air_zone_blocks(action, hexes, side, air, readings)


def verify_air_zone_action(action: AirZoneAction | str, hexes: Sequence[Hex], side: Side | str,
                           air: Sequence[BasedAir],
                           readings: AirZoneReadings = DEFAULT_READINGS) -> None:
    """TR-30 Raise :class:`IllegalOrder` if an uncontested enemy air zone forbids ``action``."""
    blocked = air_zone_blocks(action, hexes, side, air, readings)
    if blocked:
        st = air_zone_status(blocked[0], side, air)
        raise IllegalOrder(RULE, f"{parse_enum(AirZoneAction, action, 'action').value}: "
                           f"{tuple(blocked[0])} is an uncontested enemy air zone "
                           f"({st.friendly} friendly v {st.enemy} enemy factors)")


def apply_counter_air(air: Sequence[BasedAir], sender: str, target: str,
                      result: CounterAir) -> tuple[BasedAir, ...]:
    """TR-44/TR-30 The air after a counter-air mission: the target loses the factors hit and
    has ``result.neutralized`` of the rest neutralised (they stop contesting air zones); the
    sender loses the factors hit. Partial neutralisations add up over several missions."""
    ids = [a.unit.id for a in air]
    for name, uid in (("sender", sender), ("target", target)):
        if uid not in ids:
            raise InputError(name, f"no air unit {uid!r}")
    out = []
    for a in air:
        if a.unit.id == target:
            left = a.unit.factors - result.combat.hits_on_nonphasing
            neut = min(left, a.neutralized + result.neutralized)
            a = replace(a, unit=replace(a.unit, factors=left), neutralized=neut)
        elif a.unit.id == sender:
            left = a.unit.factors - result.combat.hits_on_phasing
            a = replace(a, unit=replace(a.unit, factors=left),
                        neutralized=min(a.neutralized, left))
        out.append(a)
    return tuple(out)


@dataclass(frozen=True, eq=False)
class AirZoneMap:
    """A map with named places and air situations (``data/scenarios/tr-air-zones.toml``)."""

    map: MapData
    places: Mapping[str, Hex]
    situations: Mapping[str, tuple[BasedAir, ...]]
    titles: Mapping[str, str]

    def hex_of(self, ref: Any, field_name: str = "hex") -> Hex:
        """A place name ("Lorient") or a hex label ("I8") as a ``Hex``."""
        if isinstance(ref, Hex):
            return ref
        if isinstance(ref, str) and ref in self.places:
            return self.places[ref]
        if isinstance(ref, str):
            for name, h in self.places.items():
                if name.lower() == ref.lower():
                    return h
        return self.map.hex(hex_index(self.map, ref, field_name))

    def label(self, h: Hex) -> str:
        return self.map.layout.to_label(h)

    def situation(self, sid: str) -> tuple[BasedAir, ...]:
        if sid not in self.situations:
            raise InputError("situation", f"no air situation {sid!r} (known: "
                             f"{', '.join(self.situations)})")
        return self.situations[sid]


def air_zone_report(zmap: AirZoneMap, situation: str, side: Side | str,
                    places: Sequence[str] = (), neutralized: Mapping[str, int] | None = None,
                    ) -> dict[str, Any]:
    """TR-30 Air zone strengths of ``side`` and its enemy at ``places`` (names or labels;
    default every named place) in one situation, after neutralising ``neutralized`` factors
    per air unit id (TR-44 counter-air). The JSON of ``grognard 3r air-zone``."""
    s = parse_enum(Side, side, "side")
    air = list(zmap.situation(situation))
    ids = {a.unit.id for a in air}
    for uid, n in (neutralized or {}).items():
        if uid not in ids:
            raise InputError("neutralize", f"no air unit {uid!r} in {situation}")
        air = [replace(a, neutralized=n) if a.unit.id == uid else a for a in air]
    names = {h: n for n, h in zmap.places.items()}
    targets = [zmap.hex_of(p, "hex") for p in places] or list(zmap.places.values())
    rows = []
    for h in targets:
        st = air_zone_status(h, s, air)
        rows.append({"hex": zmap.label(h), "place": names.get(h, ""), **st.to_json()})
    return {
        "situation": situation,
        "title": zmap.titles[situation],
        "side": str(s),
        "air": [{"id": a.unit.id, "side": str(a.side), "factors": a.unit.factors,
                 "range": a.unit.range, "hex": zmap.label(a.hex), "place": names.get(a.hex, ""),
                 "neutralized": a.neutralized} for a in air],
        "hexes": rows,
    }


def load_air_zone_map(path: str | Path = "tr-air-zones") -> AirZoneMap:
    """TR-30 Load a scenario's map, its cities as named places, and its ``[[air_situations]]``
    (each ``id``, ``title`` and ``[[air_situations.air]]`` units: ``id``, ``side``,
    ``factors``, ``range``, ``hex`` = place name or label, ``neutralized``). A bare name is a
    shipped scenario."""
    scen = load_scenario(path)
    m = scen.map
    places = {c.name: m.hex(i) for i, cs in m.cities.items() for c in cs}
    partial = AirZoneMap(m, places, {}, {})
    sits: dict[str, tuple[BasedAir, ...]] = {}
    titles: dict[str, str] = {}
    for i, s in enumerate(third_reich_rules(scen).air_situations):
        where = f"air_situations[{i}]"
        if not isinstance(s, Mapping) or "id" not in s:
            raise InputError(f"{where}.id", "is required")
        sid = str(s["id"])
        sits[sid] = tuple(BasedAir.from_json(a, f"{where}.air[{j}]", partial.hex_of)
                          for j, a in enumerate(s.get("air", [])))
        titles[sid] = str(s.get("title", sid))
    return AirZoneMap(m, places, sits, titles)


__all__ = [
    "AirZoneAction",
    "AirZoneMap",
    "AirZoneReadings",
    "AirZoneStatus",
    "BasedAir",
    "LandSrScope",
    "air_zone_blocks",
    "air_zone_field",
    "air_zone_report",
    "air_zone_status",
    "air_zone_strength",
    "apply_counter_air",
    "can_air_zone_action",
    "is_uncontested_enemy",
    "load_air_zone_map",
    "verify_air_zone_action",
]
