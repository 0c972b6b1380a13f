"""What the orders of several sections read from the position and post to it: the air units
and fleets as the rule modules see them (building, air staging and SR, counter air, support,
the Murmansk box), and the BRP payments of a side's orders (options, declarations of war).

A position module like :mod:`~grognard.third_reich.board`: it sits above the sections' rule
modules it converts to (``turn.forces``, ``air_naval.air_zones``) and below every
section's ``orders/`` and ``play/`` (docs/ARCHITECTURE.md, "third_reich").
"""

from __future__ import annotations

from typing import cast

from grognard.engine.context import Context
from grognard.third_reich.air_naval.air_zones import BasedAir
from grognard.third_reich.board import axis_side_of, economy_of, open_turn, position_cached
from grognard.third_reich.economy.economy import Economy, economy_json, spend, verify_spend
from grognard.third_reich.state_types import EconomyJSON, TRState, TRUnit
from grognard.third_reich.turn.forces import AirUnit, Side

#: The unit types that are air units (TR-29..TR-30, TR-43..TR-50).
AIR_TYPES = frozenset({"air", "bomber", "interceptor"})
#: The unit types that are fleets (TR-47..TR-60).
FLEET_TYPES = frozenset({"naval"})
#: An air unit's mission range when its ``movement`` field is 0 (the 3R 4 hexes).
DEFAULT_AIR_RANGE = 4


def side_of(ctx: Context, side: str) -> Side:
    """The rule modules' :class:`Side` of a player (the scenario's Axis side, else Allies)."""
    return Side.AXIS if side == axis_side_of(ctx) else Side.ALLIES


def air_unit(uid: str, u: TRUnit) -> AirUnit:
    """A state unit of an air type as the rule modules' :class:`AirUnit`."""
    rng = int(u.get("movement") or 0) or DEFAULT_AIR_RANGE
    return AirUnit(uid, int(u["attack"]), rng)


def neutralized(state: TRState, uid: str) -> int:
    """TR-44: the factors of air unit ``uid`` neutralised by counter air this player turn."""
    return int(state.get("neutralized", {}).get(uid, 0))


def based_air(ctx: Context, state: TRState) -> list[BasedAir]:
    """Every active air unit on the map as :class:`BasedAir` (operating hex = its hex), with
    its un-neutralised factors only (TR-44: neutralised factors contest no air zone); once
    per position."""
    m = ctx.scenario.map
    return position_cached(ctx, state, "tr.based_air", lambda: [
        BasedAir(air_unit(uid, u), side_of(ctx, u["side"]), m.layout.from_label(cast(str, u["hex"])),
                 neutralized(state, uid))
        for uid, u in sorted((uid, u) for uid, u in state["units"].items()
                             if u["type"] in AIR_TYPES and u["status"] == "active"
                             and u["hex"] is not None)])


def turn_economy(state: TRState, side: str) -> Economy:
    """TR-75: the economy as ``side`` spends from it now: its powers' player turn opened (the
    half-of-total cap set) unless the side has declared its options this turn already."""
    econ = economy_of(state)
    return econ if side in state["options"] else open_turn(econ, state, side)


def verify_payment(state: TRState, side: str, power: str, cost: int, rule: str) -> None:
    """TR-75: ``power`` of ``side`` may pay ``cost`` BRPs now (IllegalOrder citing ``rule``)."""
    verify_spend(turn_economy(state, side), power, cost, rule)


def pay(state: TRState, side: str, power: str, cost: int, rule: str, cause: str) -> Economy:
    """TR-75: the economy after ``power`` of ``side`` pays ``cost`` BRPs (not a build) for
    ``cause``, posted to the ledger under ``rule``."""
    econ, _ = spend(turn_economy(state, side), power, cost, rule, cause, build=False)
    return econ


def paid_json(state: TRState, side: str, power: str, cost: int, rule: str,
              cause: str) -> EconomyJSON:
    """:func:`pay`'s economy as the state keeps it (``economy_json``: read back unparsed)."""
    return economy_json(pay(state, side, power, cost, rule, cause))


__all__ = ["AIR_TYPES", "DEFAULT_AIR_RANGE", "FLEET_TYPES", "air_unit", "based_air", "neutralized",
           "paid_json", "pay", "side_of", "turn_economy", "verify_payment"]
