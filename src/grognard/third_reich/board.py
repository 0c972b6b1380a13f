"""Shared helpers of the ``third_reich`` engine system (state reading, forces, fronts).

The command modules (:mod:`~grognard.third_reich.play.system`, ``system_*``) read the JSON state
through these: the units on the map as :class:`~grognard.core.paths.Forces`, a unit as a
:class:`~grognard.third_reich.turn.forces.GroundUnit`, the front and the phase of a hex/state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

import numpy as np

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import distance
from grognard.core.mapdata import HexsideFeature, MapData
from grognard.core.memo import IdentityMemo
from grognard.core.paths import Forces, edge_tables, hex_index
from grognard.core.units import GROUND_TYPES
from grognard.core.zoc import ZocField, third_reich_zoc, zoc_field
from grognard.engine.context import Context
from grognard.engine.events import Event, writes_units
from grognard.engine.phases import TurnSequence
from grognard.engine.state import JSON
from grognard.third_reich.air_naval.naval_ops import RemovalCheck
from grognard.third_reich.combat.amphibious import STACKING_LIMIT
from grognard.third_reich.combat.bridgeheads import Bridgeheads, bridgehead_upkeep, stacking_limit
from grognard.third_reich.economy.economy import Economy, begin_player_turn
from grognard.third_reich.state_types import TRState, TRUnit
from grognard.third_reich.turn.forces import GroundKind, GroundUnit, Side
from grognard.third_reich.turn.options import Front

NAME = "third_reich"
T = TypeVar("T")

NATIONALITY_POWER: Mapping[str, str] = {
    "german": "germany", "germany": "germany", "italian": "italy", "italy": "italy",
    "soviet": "ussr", "russian": "ussr", "ussr": "ussr", "british": "uk", "uk": "uk",
    "french": "france", "france": "france", "american": "us", "us": "us",
    "polish": "poland", "poland": "poland",
}
AXIS_POWERS = ("germany", "italy")
BLOCK = HexsideFeature.SEA | HexsideFeature.LAKE | HexsideFeature.IMPASSABLE


def unit_power(nationality: str) -> str:
    """The power (or minor country) a unit's nationality belongs to."""
    n = nationality.strip().lower()
    return NATIONALITY_POWER.get(n, n)


_ECON_MEMO: IdentityMemo[Any, Economy] = IdentityMemo()


def economy_of(state: TRState) -> Economy:
    """The state's economy. Folds replace ``state["economy"]`` with a new object on every
    change, so the parsed (immutable) economy is remembered by the identity of that object."""
    return _ECON_MEMO.get(state["economy"], Economy.from_json)


@writes_units()
def current_facts(state: TRState, ev: Event) -> JSON:
    """After every event: the state keeps current facts only - the BRP ledger's balances stay
    in ``state["economy"]``, its postings (the history) live in the events, which re-fold to
    them (:func:`grognard.third_reich.play.history.ledger_history`)."""
    led = state.get("economy", {}).get("ledger")
    if led and led.get("entries"):
        state["economy"] = {**state["economy"], "ledger": {**led, "entries": []}}
    return state


def powers_of_side(state: TRState, side: str) -> list[str]:
    return [p for p, sd in state["power_sides"].items() if sd == side]


def payer(state: TRState, side: str, power: Any) -> str:
    """TR-01/TR-03: the power of ``side`` that pays an order (``power`` as named, or None:
    the side's first power with a BRP economy)."""
    powers = powers_of_side(state, side)
    econ_powers = {p.value for p in economy_of(state).powers}
    if power is None:
        payable = [p for p in powers if p in econ_powers]
        if not payable:
            raise IllegalOrder("TR-03", f"{side} has no power with a BRP economy")
        return payable[0]
    if not isinstance(power, str) or power not in powers:
        raise IllegalOrder("TR-01", f"{power!r} is not a power of {side}")
    if power not in econ_powers:
        raise IllegalOrder("TR-03", f"{power} has no BRP economy in this game")
    return power


def payers(state: TRState, side: str) -> list[str]:
    """The powers of ``side`` with a BRP economy (the enumerators' paying powers)."""
    econ = {p.value for p in economy_of(state).powers}
    return [p for p in powers_of_side(state, side) if p in econ]


def open_turn(econ: Economy, state: TRState, side: str) -> Economy:
    """TR-75: the player turn of each of ``side``'s powers opens (its spending cap is set)."""
    for p in powers_of_side(state, side):
        if p in {x.value for x in econ.powers}:
            econ = begin_player_turn(econ, p)
    return econ


def order_hex(m: MapData, label: Any, field: str, rule: str) -> int:
    """The hex an order names, as a map index; a hex off the map is an :class:`IllegalOrder`
    citing ``rule`` (the order is well-formed but the rules cannot carry it out there)."""
    try:
        return hex_index(m, label, field)
    except InputError as exc:
        raise IllegalOrder(rule, exc.reason) from None


#: The fronts' names (TR-02).
_FRONTS = frozenset(f.value for f in Front)
_WESTERN = Front.WESTERN.value


def hex_front(m: MapData, h: int) -> str:
    """TR-02: the front of hex ``h`` (its region when that names a front, else western)."""
    name = m.region_names[int(m.region[h])]
    return name if name in _FRONTS else _WESTERN


_FRONT_MASKS: list[tuple[MapData, dict[str, np.ndarray]]] = []


def front_mask(m: MapData, front: str) -> np.ndarray:
    """The hexes of ``front`` (TR-02), once per map: the map's regions never change."""
    masks = next((made for made_for, made in _FRONT_MASKS if made_for is m), None)
    if masks is None:
        fronts = np.array([hex_front(m, i) for i in range(m.n)], dtype=object)
        masks = {f.value: np.asarray(fronts == f.value, dtype=bool) for f in Front}
        for mask in masks.values():
            mask.setflags(write=False)  # shared by every caller
        _FRONT_MASKS.insert(0, (m, masks))
        del _FRONT_MASKS[4:]
    return masks[front] if front in masks else np.zeros(m.n, dtype=bool)


def on_map_ground(u: TRUnit) -> bool:
    return u["status"] == "active" and u["hex"] is not None and u["type"] in GROUND_TYPES


def position_cached(ctx: Context, state: TRState, key: str, make: Callable[[], T]) -> T:
    """``make()`` once per position: :meth:`Context.cached` for facts of ``state`` itself.

    The engine clears the context's cache after every command; the state the value was made
    from is kept with it, so a value is never served for another state object (a rule that
    builds a hypothetical position with ``thaw`` gets its own facts)."""
    return kept_with(ctx, state, key, make)


def kept_with(ctx: Context, source: object, key: str, make: Callable[[], T]) -> T:
    """``make()`` cached under ``key`` with the object it was made from (served only for it)."""
    return ctx.cached_for(source, key, make)


def units_cached(ctx: Context, state: TRState, key: str, make: Callable[[], T]) -> T:
    """``make()`` once per placement of the units: :func:`position_cached` for facts that
    depend on ``state["units"]`` alone (forces, ZOC fields). Kept with the units mapping, so a
    position that differs only in its phase or marks (the idle-phase scan's opened phases)
    shares them."""
    return kept_with(ctx, state["units"], key, make)


def ground_by_hex(ctx: Context, state: TRState) -> Mapping[str, tuple[str, ...]]:
    """The ground units on the map by hex, each hex's ids in sorted order (once per placement:
    :func:`units_cached`), so a rule asking who stands in a hex does not scan every unit."""
    def make() -> dict[str, tuple[str, ...]]:
        by_hex: dict[str, list[str]] = {}
        units = state["units"]
        for uid in sorted(uid for uid, u in units.items() if on_map_ground(u)):
            by_hex.setdefault(cast(str, units[uid]["hex"]), []).append(uid)
        return {h: tuple(ids) for h, ids in by_hex.items()}
    return units_cached(ctx, state, "tr.ground_by_hex", make)


def placement_key(ctx: Context, state: TRState) -> tuple[tuple[Any, ...], ...]:
    """Everything facts about the ground units on the map are made from - each one's id,
    hex, side, type, nationality, factors, movement and power - as one value (once per
    position): the key of the facts :meth:`Context.keyed` keeps across commands."""
    return units_cached(ctx, state, "tr.placement", lambda: tuple(filter(None, ctx.unit_index(
        state, "tr.placement.index", PLACEMENT_FIELDS, _placement_entry).values())))


#: The unit fields :func:`placement_key` reads.
PLACEMENT_FIELDS = frozenset({"status", "hex", "side", "type", "nationality", "attack",
                               "movement", "power"})


def _placement_entry(uid: str, u: TRUnit) -> tuple[Any, ...] | None:
    """A unit's entry in :func:`placement_key` (None: not a ground unit on the map)."""
    if u["status"] == "active" and u["hex"] is not None and u["type"] in GROUND_TYPES:
        return (uid, u["hex"], u["side"], u["type"], u["nationality"], u["attack"],
                u["movement"], u.get("power"))
    return None


def forces_of_state(ctx: Context, state: TRState) -> Forces:
    """The ground units on the map as :class:`Forces` (once per position; kept across
    commands while the placement is the same, :func:`placement_key`: shared, never changed)."""
    def make() -> Forces:
        # the placement's entries are the ground units on the map (uid, hex, side, ...): by id
        m = ctx.scenario.map
        entries = sorted(placement_key(ctx, state))
        at = m.label_indices
        hexes = [at.get(e[1]) for e in entries]
        return Forces.build(m, np.array(hexes, dtype=np.int32) if None not in hexes else
                            [e[1] for e in entries], [e[2] for e in entries],
                            ids=[e[0] for e in entries], side_names=list(ctx.scenario.sides))
    return units_cached(ctx, state, "tr.forces",
                        lambda: ctx.keyed("tr.forces", placement_key(ctx, state), make))


def side_zoc(ctx: Context, state: TRState, side: str) -> ZocField:
    """TR-27 The enemy ZOC field as ``side`` sees it (once per position)."""
    return units_cached(ctx, state, f"tr.zoc.{side}", lambda: zoc_field(
        ctx.scenario.map, forces_of_state(ctx, state), side, third_reich_zoc()))


def ground_unit_of(uid: str, u: Mapping[str, Any], axis_side: str) -> GroundUnit:
    """The unit record (a :class:`TRUnit`, or the fields of one a placement entry keeps:
    type, side, nationality, attack, movement) as a :class:`GroundUnit`."""
    # a frozen value made from six fields of the record: the last ones made are kept by them
    key = (uid, u["type"], u["side"] == axis_side, u["nationality"], u["attack"],
           u["movement"])
    got = _GROUND_UNITS.get(key)
    if got is not None:
        return got
    kind = _GROUND_KINDS.get(u["type"], GroundKind.INFANTRY)
    side = Side.AXIS if u["side"] == axis_side else Side.ALLIES
    made = GroundUnit(uid, u["nationality"], side, kind, int(u["attack"]), int(u["movement"]))
    if len(_GROUND_UNITS) >= 4096:
        _GROUND_UNITS.clear()
    _GROUND_UNITS[key] = made
    return made


_GROUND_KINDS = {"armor": GroundKind.ARMOR, "airborne": GroundKind.AIRBORNE,
                 "replacement": GroundKind.REPLACEMENT}
#: :func:`ground_unit_of`'s values by the record fields they are made from
_GROUND_UNITS: dict[tuple[Any, ...], GroundUnit] = {}


def axis_side_of(ctx: Context) -> str:
    return "axis" if "axis" in ctx.scenario.sides else ctx.scenario.sides[0]


def sequence_of(ctx: Context) -> TurnSequence:
    return ctx.turn_sequence


def phase_name(ctx: Context, state: TRState) -> str:
    return sequence_of(ctx).phases[int(state["phase"])].name


def eliminate_units(s: TRState, ids: list[str]) -> None:
    for uid in ids:
        s["units"][uid]["status"] = "eliminated"
        s["units"][uid]["hex"] = None


def adjacent_any(m: MapData, label: str, others: set[str]) -> bool:
    """Whether a hex of ``others`` is at hex distance 1 from ``label``. For a hex of the map
    its six neighbours are looked up in ``others`` (the map's neighbour table holds every hex
    of the map at distance 1); only a label that is no map hex's is measured."""
    if not others:
        return False
    h = m.label_indices.get(label)
    if h is not None:
        if any(nb >= 0 and m.label(nb) in others for nb in edge_tables(m).nbr[h].tolist()):
            return True
        labels = m.label_indices
        if all(o in labels for o in others):  # every other hex is on the map: none is next
            return False
    a = m.layout.from_label(label)
    return any(distance(a, m.layout.from_label(o)) == 1 for o in others)


def side_bridgeheads(state: TRState, side: str) -> list[str]:
    """TR-63: the bridgehead hexes of ``side``'s powers (supply sources, TR-72)."""
    owners: Mapping[str, list[str]] = state.get("bridgehead_owners", {})
    return sorted(h for power, hexes in owners.items()
                  if state["power_sides"].get(power) == side for h in hexes)


def hex_stacking_limit(state: TRState, label: str) -> int:
    """TR-63 / TR-28: 4 ground units in a bridgehead hex, 2 elsewhere."""
    owners = state.get("bridgehead_owners", {})
    if isinstance(owners, dict) and not owners:  # no bridgehead anywhere (most positions)
        return STACKING_LIMIT
    heads = Bridgeheads.from_json(owners)
    return stacking_limit(heads, label)


def bridgehead_removals(ctx: Context, state: TRState, side: str) -> dict[str, list[str]]:
    """TR-63 (reading ``bridgehead_removal_check = start``): the bridgeheads of ``side``'s
    powers that go at the start of its player turn - those with no enemy unit adjacent."""
    owners: Mapping[str, list[str]] = state.get("bridgehead_owners", {})
    heads = Bridgeheads.from_json(owners)
    m = ctx.scenario.map
    enemy = cast("set[str]", {u["hex"] for u in state["units"].values()
                              if on_map_ground(u) and u["side"] != side})
    out: dict[str, list[str]] = {}
    for power, hexes in sorted(owners.items()):
        if state["power_sides"].get(power) != side or not hexes:
            continue
        adjacent = {h: adjacent_any(m, h, enemy) for h in hexes}
        _, rec = bridgehead_upkeep(heads, power, RemovalCheck.START, adjacent)
        if rec.removed:
            out[power] = list(rec.removed)
    return out
