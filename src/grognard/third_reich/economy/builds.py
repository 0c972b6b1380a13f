"""TR-71, TR-75, TR-76 ("Changes to replacements"; "Build limits"): replacement recovery, unit
purchase caps, and fleet repairs.

>>> [recovery_cost("armor", s) for s in (2, 3, 4, 5)]
[0, 2, 4, 6]
>>> [repair_cost(f) for f in (7, 5, 3, 0)]
[6, 12, 18, 27]
>>> [repair_turns(m) for m in (1, 2, 3, 4, 5, 6, 7, 9)]
[2, 2, 3, 3, 4, 4, 5, 5]
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.third_reich.economy.economy import Economy, Spent, spend
from grognard.third_reich.economy.readings import StrategicReadings
from grognard.third_reich.turn.options import UnitKind, price, unit_cost
from grognard.third_reich.turn.powers import Power, parse_power

FULL_FLEET = 9
RECOVERY_FREE_COST = 4  # TR-71: recovery pays (build cost - 4)


def _count(v: int, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise InputError(name, f"expected a whole number >= 0, not {v!r}")
    return v


# --- TR-71 replacements -----------------------------------------------------------------


class LossCause(StrEnum):
    """TR-71: how the unit to be recovered was eliminated."""

    ENEMY_ATTRITION = "enemy_attrition"
    ATTACKER_CRT_LOSS = "attacker_crt_loss"
    DEFENDER_CRT_LOSS = "defender_crt_loss"
    ISOLATION = "isolation"


#: TR-71: replacements that may be spent per player turn (the USSR has none).
REPLACEMENT_LIMITS: dict[Power, int] = {
    Power.US: 5, Power.GERMANY: 5, Power.UK: 4, Power.FRANCE: 3, Power.ITALY: 3, Power.USSR: 0,
}


def recovery_cost_for_build_cost(build_cost: int) -> int:
    """TR-71/TR-41: a recovered unit costing more than 4 BRPs pays the difference.

    >>> recovery_cost_for_build_cost(6), recovery_cost_for_build_cost(3)
    (2, 0)
    """
    return max(0, _count(build_cost, "build_cost") - RECOVERY_FREE_COST)


def recovery_cost(kind: UnitKind | str, strength: int) -> int:
    """TR-71 (Changes to replacements): BRPs to recover an eliminated unit with a replacement.

    Infantry and 2-5 armor are free; 3-, 4-, 5-strength armor pay 2, 4, 6; airborne units
    cannot be recovered.
    """
    try:
        k = UnitKind(kind)
    except ValueError:
        raise InputError("kind", f"{kind!r} is not a unit kind") from None
    s = _count(strength, "strength")
    if k is UnitKind.AIRBORNE:
        raise IllegalOrder("TR-71", "airborne units cannot be recovered by replacements")
    if k not in (UnitKind.INFANTRY, UnitKind.ARMOR):
        raise IllegalOrder("TR-71", f"only ground units are recovered, not {k.value}")
    return recovery_cost_for_build_cost(unit_cost(k, s))


def verify_recovery(power: Power | str, kind: UnitKind | str, cause: LossCause | str,
                    used_this_player_turn: int) -> None:
    """TR-71: eligibility of a recovery (raises :class:`IllegalOrder`)."""
    p = parse_power(str(power))
    c = parse_enum(LossCause, cause, "cause")
    if p is Power.USSR:
        raise IllegalOrder("TR-71", "the USSR has no replacements")
    if c in (LossCause.DEFENDER_CRT_LOSS, LossCause.ISOLATION):
        raise IllegalOrder("TR-71", f"units lost to {c.value.replace('_', ' ')} are never "
                           "recovered")
    if UnitKind(kind) is UnitKind.AIRBORNE:
        raise IllegalOrder("TR-71", "airborne units cannot be recovered by replacements")
    limit = REPLACEMENT_LIMITS[p]
    if _count(used_this_player_turn, "used_this_player_turn") >= limit:
        raise IllegalOrder("TR-71", f"{p.value} may recover at most {limit} units per player "
                           "turn")


def recover_unit(econ: Economy, power: Power | str, kind: UnitKind | str, strength: int,
                 cause: LossCause | str, used_this_player_turn: int) -> tuple[Economy, int]:
    """TR-71: spend a replacement to recover a just-eliminated unit, paying any armor surcharge."""
    verify_recovery(power, kind, cause, used_this_player_turn)
    cost = recovery_cost(kind, strength)
    if cost:
        econ, _ = spend(econ, power, cost, "TR-71", f"recover a {strength}-strength {kind}")
    return econ, cost


# --- TR-75 unit purchase caps -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Basket:
    """What a power buys in one game turn (including buying back losses)."""

    infantry_factors: int = 0
    armor_factors: int = 0
    air_factors: int = 0
    airborne_factors: int = 0
    naval_fleets: int = 0  # 9-factor fleets bought from the force pool
    replacements: int = 0  # replacement units (2 BRPs each)

    def cost(self) -> int:
        """TR-31: total BRPs."""
        return (unit_cost(UnitKind.INFANTRY, self.infantry_factors)
                + unit_cost(UnitKind.ARMOR, self.armor_factors)
                + unit_cost(UnitKind.AIR, self.air_factors)
                + unit_cost(UnitKind.AIRBORNE, self.airborne_factors)
                + unit_cost(UnitKind.NAVAL, FULL_FLEET * self.naval_fleets)
                + self.replacements * price("replacement_factor"))

    def to_json(self) -> dict[str, Any]:
        return {"infantry_factors": self.infantry_factors, "armor_factors": self.armor_factors,
                "air_factors": self.air_factors, "airborne_factors": self.airborne_factors,
                "naval_fleets": self.naval_fleets, "replacements": self.replacements,
                "cost": self.cost()}


def air_factor_cap(power: Power | str, year: int) -> int:
    """TR-75: air factors a power may buy per game turn.

    One 5-4 air fleet (5) for Germany, the UK, the USSR and the US in 1942-43; 10 (two 5-4s)
    for the US in 1944-45; 2 for France and Italy.
    """
    p = parse_power(str(power))
    if p in (Power.FRANCE, Power.ITALY):
        return 2
    if p is Power.US and year >= 1944:
        return 10
    return 5


def verify_purchase(power: Power | str, year: int, basket: Basket) -> None:
    """TR-75 (Build limits): at most one 9-factor fleet per turn and the air cap."""
    p = parse_power(str(power))
    for name in ("infantry_factors", "armor_factors", "air_factors", "airborne_factors",
                 "naval_fleets", "replacements"):
        _count(getattr(basket, name), name)
    if basket.naval_fleets > 1:
        raise IllegalOrder("TR-75", "at most one 9-factor fleet may be bought per game turn")
    cap = air_factor_cap(p, year)
    if basket.air_factors > cap:
        raise IllegalOrder("TR-75", f"{p.value} may buy at most {cap} air factors per game "
                           f"turn in {year}")


def buy(econ: Economy, power: Power | str, basket: Basket) -> tuple[Economy, Spent]:
    """TR-75/TR-31: pay for a turn's purchases (unit caps and the half-of-total cap)."""
    verify_purchase(power, econ.year, basket)
    return spend(econ, power, basket.cost(), "TR-75", f"builds: {basket.to_json()}")


# --- TR-76 fleet repair -----------------------------------------------------------------


def repair_cost(factors_now: int) -> int:
    """TR-76: repair to the full 9 factors only, 3 BRPs per missing factor."""
    f = _count(factors_now, "factors_now")
    if f >= FULL_FLEET:
        raise IllegalOrder("TR-76", "only a fleet below 9 factors can be repaired")
    return (FULL_FLEET - f) * price("fleet_repair_factor")


def repair_turns(missing: int) -> int:
    """TR-76: game turns a repair takes: 1-2 -> 2, 3-4 -> 3, 5-6 -> 4, 7+ -> 1 year (5)."""
    m = _count(missing, "missing")
    if not 1 <= m <= FULL_FLEET:
        raise InputError("missing", f"a fleet misses 1..9 factors, not {m}")
    if m <= 2:
        return 2
    if m <= 4:
        return 3
    if m <= 6:
        return 4
    return 5


@dataclass(frozen=True, slots=True)
class RepairStarted:
    power: str
    factors_before: int
    cost: int
    turns: int
    completes_turn: int

    def to_json(self) -> dict[str, Any]:
        return {"power": self.power, "factors_before": self.factors_before, "cost": self.cost,
                "turns": self.turns, "completes_turn": self.completes_turn}


def verify_start_repair(power: Power | str, factors_now: int, repairs_started_this_turn: int,
                        fleet_bought_this_turn: bool,
                        readings: StrategicReadings | None = None) -> None:
    """TR-76: one repair start per game turn, none in a turn a new fleet is bought."""
    parse_power(str(power))
    r = readings or StrategicReadings()
    if _count(factors_now, "factors_now") == 0 and not r.destroyed_fleet_rebuild_is_repair:
        raise IllegalOrder("TR-76", "under this reading a destroyed fleet is bought from the "
                           "force pool, not repaired")
    if _count(repairs_started_this_turn, "repairs_started_this_turn") >= 1:
        raise IllegalOrder("TR-76", "a power may start at most one fleet repair per game turn")
    if fleet_bought_this_turn:
        raise IllegalOrder("TR-76", "no repair may start in a turn a new fleet is bought")
    repair_cost(factors_now)


def start_repair(econ: Economy, power: Power | str, factors_now: int,
                 repairs_started_this_turn: int = 0,
                 fleet_bought_this_turn: bool = False) -> tuple[Economy, RepairStarted]:
    """TR-76 (Build limits): pay for a full repair; the fleet is back after the repair time."""
    verify_start_repair(power, factors_now, repairs_started_this_turn, fleet_bought_this_turn,
                        econ.readings)
    cost = repair_cost(factors_now)
    turns = repair_turns(FULL_FLEET - factors_now)
    e, _ = spend(econ, power, cost, "TR-76", f"repair a {factors_now}-factor fleet to 9")
    return e, RepairStarted(parse_power(str(power)).value, factors_now, cost, turns,
                            econ.turn + turns)
