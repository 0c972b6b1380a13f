"""``build_unit`` (TR-31/TR-64/TR-75): a power buys one unit of the force pool and places it
on the map.

``{"unit": ID, "hex": LABEL}``: the unit waits in the ``force_pool`` box (or was eliminated);
a unit flagged ``available_YYYY`` joins the pool in that year (TR-85: the UK 4-5 tank corps in
1941, the US forces in 1942). It costs its factors at the TR-31 price (infantry 1, armor 2, air
3, airborne 2, naval 3 per factor), within the power's per-turn caps (TR-75: one 9-factor
fleet, the air cap, half of the BRPs on hand) and is placed at a legal build location (TR-64:
a friendly-controlled hex of the power's home country; air in a city, fleets in a port; no
ground unit next to enemy ground units except in an occupied home city; at most 2 ground
units a hex). The payment goes into the turn's ``built`` basket with the ``build`` command's.

Event ``unit_built`` ``{unit, power, hex, cost, rule}``: docs/formats/tr_engine.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import ClassVar, cast

import msgspec

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.mapdata import WATER_TERRAIN, CityClass, MapData
from grognard.core.memo import IdentityMemo
from grognard.core.units import GROUND_TYPES
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold, named_unit, writes_units
from grognard.engine.orders import Order, Words, hex_name
from grognard.engine.state import JSON
from grognard.engine.system import Places
from grognard.third_reich.air_naval.air_zones import is_uncontested_enemy
from grognard.third_reich.board import axis_side_of, economy_of, hex_stacking_limit, order_hex
from grognard.third_reich.economy.build_locations import BuildSite, build_location_problem
from grognard.third_reich.economy.builds import Basket, verify_purchase
from grognard.third_reich.economy.economy import (
    begin_player_turn,
    economy_json,
    player_turn_open,
    spend,
    verify_spend,
)
from grognard.third_reich.state import based_air
from grognard.third_reich.state_types import BuildRecord, TRState, TRUnit, UnitBuilt
from grognard.third_reich.turn.forces import Side
from grognard.third_reich.turn.options import UnitKind, unit_cost
from grognard.third_reich.turn.powers import Power
from grognard.third_reich.words import label_of, named_units, unit_name

POOL = "force_pool"
KINDS = {"infantry": UnitKind.INFANTRY, "armor": UnitKind.ARMOR, "air": UnitKind.AIR,
         "airborne": UnitKind.AIRBORNE, "naval": UnitKind.NAVAL}
BASKET_FIELD = {UnitKind.INFANTRY: "infantry_factors", UnitKind.ARMOR: "armor_factors",
                UnitKind.AIR: "air_factors", UnitKind.AIRBORNE: "airborne_factors",
                UnitKind.NAVAL: "naval_fleets"}
PORTS = frozenset({CityClass.RED_PORT, CityClass.BLACK_PORT})


def available_year(ctx: Context, uid: str) -> int:
    """TR-85: the year a pool unit becomes buildable (``available_YYYY`` flag; else 1939)."""
    years = [int(f.split("_", 1)[1]) for f in ctx.scenario.unit(uid).flags
             if f.startswith("available_") and f.split("_", 1)[1].isdigit()]
    return max(years, default=1939)


def buildable(state: TRState, uid: str) -> bool:
    u = state["units"][uid]
    return (u["status"] == "eliminated" or (u["status"] == "active" and u["hex"] is None
                                            and u.get("box") == POOL)) and u["type"] in KINDS


def unit_price(u: JSON) -> int:
    """TR-31: the unit's build cost (its factors at the price list's rate)."""
    return unit_cost(KINDS[u["type"]], int(u["attack"]))


def _basket(state: TRState, power: str, u: TRUnit) -> Basket:
    before = cast("dict[str, int]", dict(state["built"].get(power, {})))
    kind = KINDS[u["type"]]
    f = BASKET_FIELD[kind]
    before[f] = int(before.get(f, 0)) + (1 if kind is UnitKind.NAVAL else int(u["attack"]))
    fields = ("infantry_factors", "armor_factors", "air_factors", "airborne_factors",
              "naval_fleets", "replacements")
    return Basket(**{k: int(before.get(k, 0)) for k in fields})


def _homes(ctx: Context, state: TRState, power: str) -> set[str]:
    """TR-64: the countries ``power`` builds in: its home countries, or the scenario's
    ``build_in`` (the US, whose home is off the map, builds in the UK)."""
    given = state.get("campaign", {}).get("build_in", {}).get(power)
    return set(given) if given else set(ctx.scenario.home_countries.get(power, ()))


def on_map_ground(ctx: Context, state: TRState) -> list[tuple[str, str]]:
    return ctx.cached("tr.build.ground", lambda: [
        (u["hex"], u["side"]) for u in state["units"].values()
        if u["status"] == "active" and u["hex"] is not None and u["type"] in GROUND_TYPES])


def _near(ctx: Context, state: TRState, side: str) -> tuple[set[str], set[str], set[str]]:
    """Hexes with a friendly ground unit, with an enemy one, and next to an enemy one (the
    last kept across commands while the enemy-held hexes are the same: a side's own builds
    and moves do not change it)."""
    def make() -> tuple[set[str], set[str], set[str]]:
        mine: set[str] = set()
        enemy: set[str] = set()
        for hx, sd in on_map_ground(ctx, state):
            (mine if sd == side else enemy).add(hx)
        held = frozenset(enemy)
        return mine, enemy, ctx.keyed(f"tr.build.adj.{side}", held, lambda: _adjacent(ctx, held))
    out: tuple[set[str], set[str], set[str]] = ctx.cached(f"tr.build.near.{side}", make)
    return out


def _adjacent(ctx: Context, hexes: Iterable[str]) -> set[str]:
    """The map hexes next to any of ``hexes`` (shared: callers must not change it)."""
    m = ctx.scenario.map
    around = _NEIGHBOURS.get(m, lambda _m: {})  # label -> its neighbours' labels, as asked
    adj: set[str] = set()
    for hx in hexes:
        got = around.get(hx)
        if got is None:
            i = m.index(m.layout.from_label(hx))
            got = around[hx] = tuple(m.label(int(j)) for j in m.neighbor_indices(i))
        adj.update(got)
    return adj


_NEIGHBOURS: IdentityMemo[MapData, dict[str, tuple[str, ...]]] = IdentityMemo(4)


def _site(ctx: Context, state: TRState, power: str, side: str, label: str) -> BuildSite:
    """The TR-64 facts about ``label`` for ``side``, except its air zone (left False: see
    :func:`_location_problem`)."""
    m = ctx.scenario.map
    i = order_hex(m, label, "args.hex", "TR-64")
    h = m.hex(i)
    cities = m.cities_at(h)
    homes = _homes(ctx, state, power)
    city_ok = all(state["control"].get(c.name) == side for c in cities)
    mine, enemy, adj = _near(ctx, state, side)
    return BuildSite(
        home_country=m.country_of(h) in homes and m.terrain_of(h) not in WATER_TERRAIN,
        controlled=city_ok and label not in enemy,
        city=bool(cities),
        port=any(c.classes & PORTS for c in cities),
        friendly_ground=label in mine,
        adjacent_enemy_ground=label in adj,
        in_enemy_zoc=label in adj,
    )


def _location_problem(ctx: Context, state: TRState, kind: UnitKind, power: str, side: str,
                      label: str) -> str:
    """TR-64: why ``kind`` may not be built in ``label`` ("" if it may). The TR-30 air zone
    (every air unit on the map) is read only when it decides the answer: most builds are in
    cities, where it decides nothing for ground and air units."""
    site = _site(ctx, state, power, side, label)
    calm = build_location_problem(kind, site)
    contested = build_location_problem(kind, replace(site, uncontested_enemy_air_zone=True))
    if calm == contested:
        return calm
    m = ctx.scenario.map
    s = Side.AXIS if side == axis_side_of(ctx) else Side.ALLIES
    air = ctx.cached("tr.build.air", lambda: based_air(ctx, state))
    h = m.hex(order_hex(m, label, "args.hex", "TR-64"))
    return contested if is_uncontested_enemy(h, s, air) else calm


def _args(cmd: Command) -> tuple[str, str]:
    uid, label = cmd.args.get("unit"), cmd.args.get("hex")
    if not isinstance(uid, str) or not uid:
        raise InputError("args.unit", "name the force-pool unit to build")
    if not isinstance(label, str) or not label:
        raise InputError("args.hex", "name the hex to place it in")
    return uid, label


def verify_build_unit(ctx: Context, state: TRState, cmd: Command) -> None:
    uid, label = _args(cmd)
    _verify_unit(ctx, state, cmd.player, uid)
    _verify_place(ctx, state, cmd.player, uid, label)


def _verify_unit(ctx: Context, state: TRState, player: str, uid: str) -> None:
    """TR-75/TR-85: the unit may be bought now (pool, year, caps, BRPs)."""
    u = state["units"].get(uid)
    if u is None:
        raise InputError("args.unit", f"no unit {uid!r}")
    if u["side"] != player:
        raise IllegalOrder("TR-75", f"{uid} is not {player}'s")
    power = u.get("power", "")
    econ = economy_of(state)
    if power not in {p.value for p in econ.powers}:
        raise IllegalOrder("TR-75", f"{power} has no BRPs to build with")
    if not buildable(state, uid):
        raise IllegalOrder("TR-75", f"{uid} is not in the force pool")
    year = available_year(ctx, uid)
    if year > econ.year:
        raise IllegalOrder("TR-85", f"{uid} joins the {power} force pool in {year}")
    verify_purchase(power, econ.year, _basket(state, power, u))
    e = econ if _open(econ, power) else begin_player_turn(econ, power)
    verify_spend(e, power, unit_price(u), "TR-75")


def _verify_place(ctx: Context, state: TRState, player: str, uid: str, label: str) -> None:
    """TR-64/TR-29/stacking: ``label`` is a legal build location for the unit."""
    u = state["units"][uid]
    power = u["power"]
    kind = KINDS[u["type"]]
    why = _location_problem(ctx, state, kind, power, player, label)
    if why:
        raise IllegalOrder("TR-64", f"{uid} cannot be built in {label}: {why}")
    if u["type"] in GROUND_TYPES:
        here = sum(1 for v in state["units"].values() if v["status"] == "active"
                   and v["hex"] == label and v["type"] in GROUND_TYPES)
        if here + 1 > hex_stacking_limit(state, label):
            raise IllegalOrder("TR-64", f"{label} already holds {here} ground units "
                               "(stacking limit)")
    if u["type"] == "air":
        factors = sum(int(v["attack"]) for v in state["units"].values()
                      if v["status"] == "active" and v["hex"] == label and v["type"] == "air")
        if factors + int(u["attack"]) > 5:
            raise IllegalOrder("TR-29", f"{label} would hold more than 5 air factors")


def _open(econ: object, power: str) -> bool:

    return player_turn_open(econ, Power(power))  # type: ignore[arg-type]


def execute_build_unit(ctx: Context, state: TRState, cmd: Command, dice: Dice) -> list[Event]:
    uid, label = _args(cmd)
    u = state["units"][uid]
    return [Event("unit_built", {"unit": uid, "power": u["power"], "hex": label,
                                 "cost": unit_price(u), "rule": "TR-75"})]


@writes_units(named_unit)
def fold_unit_built(state: TRState, ev: Event) -> TRState:
    d = cast(UnitBuilt, ev.data)
    econ = economy_of(state)
    if not _open(econ, d["power"]):
        econ = begin_player_turn(econ, d["power"])
    u = state["units"][d["unit"]]
    econ, _ = spend(econ, d["power"], d["cost"], "TR-75", f"build {d['unit']} in {d['hex']}")
    state["economy"] = economy_json(econ)
    basket = _basket(state, d["power"], u)
    state["built"][d["power"]] = cast(BuildRecord, {k: v for k, v in basket.to_json().items()
                                                    if k != "cost"})
    u["status"], u["hex"], u["box"] = "active", d["hex"], None
    u["mp_spent"] = 0
    return state


def _city_hexes(ctx: Context, state: TRState, power: str) -> list[str]:
    homes = _homes(ctx, state, power)
    m = ctx.scenario.map
    return sorted(m.layout.to_label(m.hex(h)) for h, cs in m.cities.items()
                  if cs and m.country_of(m.hex(h)) in homes)


def legal_build_unit(ctx: Context, state: TRState, player: str) -> Iterable[Command]:
    """One command per kind of buildable pool unit (identical counters: one stands for all)
    and legal city hex of its home countries. Ground units may also be built in the other
    legal hexes of the home country (verify accepts them); the list names the cities only,
    so that it stays short on a map of Europe."""
    econ = economy_of(state)
    powers = {p.value for p in econ.powers}
    seen: set[tuple[str, str, int]] = set()
    out: list[Command] = []
    for uid, u in sorted(state["units"].items()):
        if u["side"] != player or u.get("power") not in powers or not buildable(state, uid):
            continue
        key = (u["power"], u["type"], int(u["attack"]))
        if key in seen:
            continue  # identical counters: one stands for all
        seen.add(key)
        try:
            _verify_unit(ctx, state, player, uid)
        except (IllegalOrder, InputError):
            continue
        for label in _city_hexes(ctx, state, u["power"]):
            try:
                _verify_place(ctx, state, player, uid, label)
            except (IllegalOrder, InputError):
                continue
            out.append(Command("build_unit", player, {"unit": uid, "hex": label}))
    return out


class BuildUnitArgs(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``unit``: the force-pool unit bought; ``hex``: where it is placed."""

    unit: str
    hex: str


class BuildUnit(Order[BuildUnitArgs]):
    """TR-31/TR-64/TR-75 Buy a force-pool unit and place it at a legal build location."""

    kind = "build_unit"
    rule = "TR-75"
    Args = BuildUnitArgs
    help = "TR-31/TR-64/TR-75 Buy a force-pool unit and place it at a legal build location."
    example: ClassVar[Mapping[str, object]] = {"unit": "ger-inf20", "hex": "D11"}
    folds: ClassVar[Mapping[str, Fold]] = {"unit_built": fold_unit_built}

    def verify(self, ctx: Context, state: TRState, cmd: Command, args: BuildUnitArgs) -> None:
        verify_build_unit(ctx, state, cmd)

    def execute(self, ctx: Context, state: TRState, cmd: Command, args: BuildUnitArgs,
                dice: Dice) -> list[Event]:
        return execute_build_unit(ctx, state, cmd, dice)

    def legal(self, ctx: Context, state: TRState, player: str) -> Iterable[Command]:
        return legal_build_unit(ctx, state, player)

    def describe(self, ctx: Context, state: TRState, cmd: Command) -> Words:
        """The order in the rules' words (``text`` for the log, ``short`` for a button)."""
        a = cmd.args
        return Words(f"Place {unit_name(state, a.get('unit'))} in {hex_name(ctx, a.get('hex'))}",
                     f"place in {a.get('hex')}")

    def places(self, cmd: Command) -> Places:
        """Where the order acts on the map: the hex it targets, where it ends, its path, units."""
        return Places(None, label_of(cmd, "hex"), (), named_units(cmd, "unit"))


__all__ = ["BuildUnit", "BuildUnitArgs", "available_year", "buildable", "execute_build_unit",
           "fold_unit_built", "legal_build_unit", "unit_price", "verify_build_unit"]
