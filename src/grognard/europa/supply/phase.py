"""Europa revised supply phase (EUR-30) and defensive supply (EUR-36); the readings of the
supply, isolation, replacement and logistics rows (EUR-30..EUR-45).

The supply phase comes at the end of the phasing player's turn. Paths are traced by the map
layer (:func:`grognard.core.supply.trace_supply`); the original Europa path rules and supply
sources are EXTERNAL, so the caller passes the sources, the length limit and the
:class:`~grognard.core.supply.SupplyRules` (default :func:`europa_revised_supply`).

>>> from grognard.core.mapgen import map_from_rows
>>> from grognard.core.paths import Forces
>>> from grognard.core.zoc import europa_revised_zoc, zoc_field
>>> m = map_from_rows(["ccccc"])
>>> f = Forces.build(m, ["0101", "0501"], ["axis", "allies"])
>>> z = zoc_field(m, f, "axis", europa_revised_zoc())
>>> r = supply_phase(m, ["0101"], z, ["0301"], max_length=1, was_out=[True], ids=["a"])
>>> r.isolated, r.newly_marked, r.still_out
((), (), ('a',))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from grognard.core.errors import InputError, parse_enum
from grognard.core.exact import exact_json
from grognard.core.mapdata import MapData
from grognard.core.mapgen import map_from_rows
from grognard.core.paths import Forces, HexRef, hex_index, labels
from grognard.core.readings import Readings
from grognard.core.supply import (
    SupplyRules,
    europa_revised_supply,
    supply_phase_marks,
    trace_supply,
)
from grognard.core.units import MECHANIZED_TYPES, SupplyState, UnitType
from grognard.core.zoc import ZocField, europa_revised_zoc, zoc_field


class HalfRounding(StrEnum):
    """EUR-37 ``sp_half_rounding``: how a total with a half SP is paid."""

    UP = "up"  # default: the exact total rounded up
    EXACT = "exact"  # pay the half point


class WinterDefinition(StrEnum):
    """EUR-32 ``isolation_winter_definition``: what "winter season" means."""

    WINTER_MONTHS = "winter_months"  # default: the game's winter months (Dec, Jan, Feb)
    WINTER_WEATHER = "winter_weather"  # a turn whose weather is snow or winter


class WeatherZoneChoice(StrEnum):
    """EUR-41 ``supply_weather_zone``: whose weather reduces a side's receipt."""

    FRONT_MAJORITY = "front_majority"  # default: the zone holding most of the side's front
    GIVEN = "given"  # the caller names the weather


class ReceiptRounding(StrEnum):
    """EUR-41 ``supply_weather_rounding``."""

    FLOOR = "floor"  # default
    EXACT = "exact"
    HALF_UP = "half_up"


class SingleStepReturn(StrEnum):
    """EUR-33 ``single_step_return_cost``: REs to bring back a single-step unit."""

    ONE = "one"  # default: "in the same manner" as a cadre
    RE_SIZE = "re_size"


class AirSurprisePooling(StrEnum):
    """EUR-45 ``fite_air_surprise_pooling``: where floor(attackers / 2) is taken."""

    PER_AIRFIELD = "per_airfield"  # default
    POOLED = "pooled"  # over all airfields struck


@dataclass(frozen=True)
class SupplyReadings(Readings):
    """The switches RULES.md names for EUR-30..EUR-45, with its default readings."""

    breakout_factor_games: bool = False  # EUR-31: FitE/SE count factors: excess - 1 factors
    isolation_winter_definition: WinterDefinition = WinterDefinition.WINTER_MONTHS
    single_step_return_cost: SingleStepReturn = SingleStepReturn.ONE
    sp_half_rounding: HalfRounding = HalfRounding.UP
    supply_weather_zone: WeatherZoneChoice = WeatherZoneChoice.FRONT_MAJORITY
    supply_weather_rounding: ReceiptRounding = ReceiptRounding.FLOOR
    fite_air_surprise_pooling: AirSurprisePooling = AirSurprisePooling.PER_AIRFIELD


DEFAULT_READINGS = SupplyReadings()


def count_arg(name: str, v: int) -> int:
    """A non-negative whole-number input (counts, MAs, zones), or an InputError naming it."""
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise InputError(name, f"must be a non-negative integer, not {v!r}")
    return v


# ---------------------------------------------------------------- EUR-30 supply phase


@dataclass(frozen=True)
class SupplyPhase:
    """EUR-30 record of one supply phase: unit ids by outcome, and the isolated hexes."""

    isolated: tuple[str, ...]
    isolated_hexes: tuple[str, ...]
    newly_marked: tuple[str, ...]
    restored: tuple[str, ...]
    still_out: tuple[str, ...]
    in_supply: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "isolated": list(self.isolated),
            "isolated_hexes": list(self.isolated_hexes),
            "newly_marked": list(self.newly_marked),
            "restored": list(self.restored),
            "still_out": list(self.still_out),
            "in_supply": list(self.in_supply),
        }


def supply_phase(
    m: MapData,
    units: Sequence[HexRef],
    zoc: ZocField,
    sources: Sequence[HexRef],
    *,
    max_length: int | None,
    was_out: Sequence[bool],
    ids: Sequence[str] | None = None,
    defensive: Sequence[bool] | None = None,
    rules: SupplyRules | None = None,
    interdiction: npt.ArrayLike | None = None,
) -> SupplyPhase:
    """EUR-30 (Supply phase) The phasing side's supply phase at the end of its player turn.

    Units already marked OOS that are still out of supply and cannot trace a path of any
    length (enemy units and unnegated enemy ZOCs still block it) are isolated; OOS markers
    come off units back in supply; newly OOS units are marked and are not isolated until the
    next game turn. ``defensive`` flags units in defensive supply through an extended truck
    (EUR-35/36): they count as supplied here (they never deteriorate further nor suffer
    isolation attrition). Sources and the length limit come from the original rules
    (EXTERNAL); pass them in. Only the phasing side's units are checked (EUR-30: non-phasing
    units are checked after their own turn).
    """
    r = rules if rules is not None else europa_revised_supply()
    n = len(units)
    was = np.asarray(list(was_out), dtype=bool)
    if was.shape != (n,):
        raise InputError("was_out", f"{len(was)} flags for {n} units")
    uid = tuple(ids) if ids is not None else tuple(f"u{i}" for i in range(n))
    if len(uid) != n:
        raise InputError("ids", f"{len(uid)} ids for {n} units")
    dfs = np.zeros(n, dtype=bool) if defensive is None else np.asarray(list(defensive), bool)
    if dfs.shape != (n,):
        raise InputError("defensive", f"{len(dfs)} flags for {n} units")
    zones = None if interdiction is None else np.asarray(interdiction, dtype=bool)
    traced = trace_supply(m, units, zoc, sources, max_length=max_length, rules=r,
                          interdiction=zones)
    any_len = trace_supply(m, units, zoc, sources, max_length=None, rules=r)
    ins = traced.in_supply | dfs
    marks = supply_phase_marks(was, ins, any_len.in_supply | dfs)

    def pick(mask: npt.NDArray[np.bool_]) -> tuple[str, ...]:
        return tuple(uid[i] for i in np.nonzero(mask)[0].tolist())

    iso_hexes = labels(m, sorted({int(h) for h in traced.unit_hex[marks.isolated]}))
    return SupplyPhase(
        isolated=pick(marks.isolated),
        isolated_hexes=tuple(iso_hexes),
        newly_marked=pick(marks.newly_out),
        restored=pick(marks.restored),
        still_out=pick(was & ~ins & ~marks.isolated),
        in_supply=pick(ins),
    )


def supply_phase_from_json(raw: Mapping[str, Any]) -> SupplyPhase:
    """EUR-30 run :func:`supply_phase` from a JSON document (docs/formats/europa_supply.md):
    ``rows`` (a hand-drawn map, :func:`grognard.core.mapgen.map_from_rows`), optional
    ``hexsides`` (``{"0101-0201": "river"}``), ``side`` (the phasing side), ``units`` (each
    ``id``, ``hex``, ``side``, optional ``was_out``/``defensive``), ``sources``,
    ``max_length`` (``null`` = any length) and optional ``interdiction`` hexes."""
    if not isinstance(raw, Mapping):
        raise InputError("supply_phase", "expected a JSON object")
    rows = raw.get("rows")
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        raise InputError("rows", "expected a list of map row strings")
    sides: dict[tuple[str, str], str] = {}
    for key, feat in (raw.get("hexsides") or {}).items():
        a, sep, b = str(key).partition("-")
        if not sep:
            raise InputError("hexsides", f"expected 'AAAA-BBBB', not {key!r}")
        sides[(a, b)] = str(feat)
    m = map_from_rows(rows, hexsides=sides)
    side = raw.get("side")
    if not isinstance(side, str) or not side:
        raise InputError("side", "name the phasing side")
    units = raw.get("units")
    if not isinstance(units, list) or not units:
        raise InputError("units", "expected a non-empty list of units")
    for i, u in enumerate(units):
        if not isinstance(u, Mapping) or "hex" not in u or "side" not in u:
            raise InputError(f"units[{i}]", "each unit needs 'hex' and 'side'")
    names = sorted({str(u["side"]) for u in units} | {side})
    forces = Forces.build(m, [str(u["hex"]) for u in units], [str(u["side"]) for u in units],
                          side_names=names)
    zoc = zoc_field(m, forces, side, europa_revised_zoc())
    own = [u for u in units if str(u["side"]) == side]
    if not own:
        raise InputError("units", f"no unit of the phasing side {side!r}")
    max_length = raw.get("max_length")
    if max_length is not None and (isinstance(max_length, bool)
                                   or not isinstance(max_length, int)):
        raise InputError("max_length", "expected an integer or null")
    zones = None
    if raw.get("interdiction"):
        zones = np.zeros(m.n, dtype=bool)
        for h in raw["interdiction"]:
            zones[hex_index(m, str(h), "interdiction")] = True
    return supply_phase(
        m, [str(u["hex"]) for u in own], zoc, [str(h) for h in raw.get("sources", [])],
        max_length=max_length, was_out=[bool(u.get("was_out", False)) for u in own],
        ids=[str(u.get("id", f"u{i}")) for i, u in enumerate(own)],
        defensive=[bool(u.get("defensive", False)) for u in own], interdiction=zones)


# ---------------------------------------------------------------- EUR-36 defensive supply


@dataclass(frozen=True)
class SupplyEffects:
    """EUR-36 what a supply state does to one unit."""

    attack: Fraction
    defense: Fraction
    movement: Fraction
    may_exploit: bool
    may_bombard: bool
    isolation_attrition: bool

    def to_json(self) -> dict[str, Any]:
        return {"attack": exact_json(self.attack), "defense": exact_json(self.defense),
                "movement": exact_json(self.movement), "may_exploit": self.may_exploit,
                "may_bombard": self.may_bombard,
                "isolation_attrition": self.isolation_attrition}


def apply_defensive_supply(unit_type: UnitType | str, attack: int, defense: int,
                           movement: int, supply: SupplyState | str = SupplyState.DEFENSIVE
                           ) -> SupplyEffects:
    """EUR-36 (Defensive supply) As the original first-turn OOS state: attack halved,
    motorized (mechanized-type) MA halved, full defense; no mechanized (exploitation)
    movement; artillery cannot bombard and gives only 1 defense; never isolation attrition.
    ``supply=in`` returns the unit unchanged (for comparison).

    >>> apply_defensive_supply("armor", 10, 8, 10).to_json()["movement"]
    5
    >>> apply_defensive_supply("artillery", 4, 5, 6).defense
    Fraction(1, 1)
    """
    t = parse_enum(UnitType, unit_type, "unit_type")
    s = parse_enum(SupplyState, supply, "supply")
    for name, v in (("attack", attack), ("defense", defense), ("movement", movement)):
        count_arg(name, v)
    if s == SupplyState.IN:
        return SupplyEffects(Fraction(attack), Fraction(defense), Fraction(movement), True,
                             True, False)
    if s == SupplyState.OUT:
        raise InputError("supply", "EUR-36 covers defensive supply; OOS effects are the "
                         "original rules' (EXTERNAL)")
    mech = t in MECHANIZED_TYPES
    return SupplyEffects(
        attack=Fraction(attack, 2),
        defense=Fraction(1) if t == UnitType.ARTILLERY else Fraction(defense),
        movement=Fraction(movement, 2) if mech else Fraction(movement),
        may_exploit=not mech,
        may_bombard=t != UnitType.ARTILLERY,
        isolation_attrition=False,
    )


__all__ = [
    "DEFAULT_READINGS", "AirSurprisePooling", "HalfRounding", "ReceiptRounding",
    "SingleStepReturn", "SupplyEffects", "SupplyPhase", "SupplyReadings", "WeatherZoneChoice",
    "WinterDefinition", "apply_defensive_supply", "count_arg", "supply_phase", "supply_phase_from_json",
]
