"""TR-54, TR-57..TR-60 ("Details of possible naval operations and mechanics").

Each fleet performs **one operation type per game turn** (transport, bombardment, SR escort,
invasion); fleets meant to intercept stay inactive in a friendly port during their own player
turn, and an interception does not tap them (TR-55). A fleet transports floor(factors/2)
ground factors to a friendly port or bridgehead of the same zone (TR-57), bombards with a
third of its factors (TR-58) and, as SR escort, keeps sea SRs going while at least 9 naval
factors survive (TR-59). Hexes in the phasing player's uncontested air zone cannot be
subject to naval interception (TR-60).

Air-zone status is an explicit input (:class:`AirZone`, seen from the side acting); TR-30
computes it (:mod:`grognard.third_reich.air_naval.air_zones`; :func:`air_zone_of` converts its status).

>>> transport_capacity(Fleet("f", 9)), bombardment_support(Fleet("f", 9))
(4, 3)
>>> escort_holds([Fleet("a", 5), Fleet("b", 4)]), escort_holds([Fleet("a", 8)])
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.core.exact import Exact, exact_json
from grognard.core.readings import Readings
from grognard.third_reich.air_naval.air_zones import AirZoneStatus
from grognard.third_reich.air_naval.support import naval_support
from grognard.third_reich.state_types import FleetOps as FleetOpsJSON
from grognard.third_reich.state_types import TRState
from grognard.third_reich.turn.combat_readings import TRCombatReadings
from grognard.third_reich.turn.forces import Fleet, GroundUnit

ESCORT_FACTORS = 9
FLEET_CAPACITY_DIVISOR = 2


class NavalOp(StrEnum):
    """TR-54: the naval operation types."""

    TRANSPORT = "transport"
    BOMBARDMENT = "bombardment"
    SR_ESCORT = "sr_escort"
    INVASION = "invasion"
    INTERCEPTION = "interception"



def fleet_ops(state: TRState) -> FleetOps:
    """TR-54: the fleets' operations this game turn as the state keeps them."""
    raw = state["fleet_ops"]
    return FleetOps(int(raw.get("game_turn", state["turn"])),
                    {k: NavalOp(v) for k, v in raw.get("used", {}).items()},
                    frozenset(raw.get("tapped", [])))

class EscortSurvival(StrEnum):
    """RULES.md §6 item 11 (TR-59 vs TR-69): what must survive on SR escort."""

    FACTORS9 = "factors9"  # at least 9 naval factors in total (default, TR-59)
    FLEET9 = "fleet9"  # at least one fleet of strength 9 (TR-69 wording)


class RemovalCheck(StrEnum):
    """RULES.md §6 item 12 (TR-61 vs TR-63): when an unthreatened bridgehead is removed."""

    START = "start"  # at the start of a friendly turn (default, the Bridgeheads section)
    END = "end"  # at the end of a subsequent friendly turn (the amphibious section)


@dataclass(frozen=True)
class NavalReadings(Readings):
    """Switches of the naval/amphibious/SR rows with the RULES.md defaults."""

    sr_escort_survival: EscortSurvival = EscortSurvival.FACTORS9
    bridgehead_removal_check: RemovalCheck = RemovalCheck.START
    # Reconstructed data ids (replaceable with --tables)
    tr_sea_zone_ports_table: str = "tr_sea_zones_ports"
    tr_sea_zone_junctions_table: str = "tr_sea_zones_junctions"
    tr_sr_limits_table: str = "tr_naval_sr_limits"


DEFAULT_NAVAL_READINGS = NavalReadings()
DEFAULT_COMBAT_READINGS = TRCombatReadings()


class AirZone(StrEnum):
    """TR-30 air-zone status of one hex, seen from the side that acts there."""

    NONE = "none"  # no air of either side in range
    FRIENDLY = "friendly"  # uncontested friendly air zone
    CONTESTED = "contested"  # both in range, neither uncontested
    ENEMY = "enemy"  # uncontested enemy air zone

    @property
    def uncontested_enemy(self) -> bool:
        return self is AirZone.ENEMY


def parse_air_zone(value: Any, field_name: str = "air_zone") -> AirZone:
    """TR-30 An :class:`AirZone` from its name; otherwise an InputError naming the field."""
    return parse_enum(AirZone, value, field_name)


def air_zone_of(status: AirZoneStatus) -> AirZone:
    """TR-30 The :class:`AirZone` of a :class:`~grognard.third_reich.air_naval.air_zones.AirZoneStatus`
    (computed from based air units by :func:`~grognard.third_reich.air_naval.air_zones.air_zone_status`).
    """
    if status.uncontested_enemy:
        return AirZone.ENEMY
    if status.uncontested_friendly:
        return AirZone.FRIENDLY
    if status.contested:
        return AirZone.CONTESTED
    return AirZone.NONE


# ---------------------------------------------------------------- TR-54 one op per game turn


@dataclass(frozen=True, slots=True)
class FleetOps:
    """TR-54 state: what each fleet did this game turn.

    ``used`` maps a fleet to the operation type it performed this game turn (interception
    excluded: it never taps, TR-55); ``tapped`` are the fleets that operated in their owner's
    current or latest player turn and so cannot intercept until their owner's next turn.
    """

    game_turn: int = 1
    used: Mapping[str, NavalOp] = field(default_factory=dict)
    tapped: frozenset[str] = frozenset()

    def to_json(self) -> FleetOpsJSON:
        return {"game_turn": self.game_turn,
                "used": {k: str(v) for k, v in sorted(self.used.items())},
                "tapped": sorted(self.tapped)}


@dataclass(frozen=True, slots=True)
class FleetOperationRecord:
    fleet: str
    op: NavalOp
    game_turn: int
    tapped: bool


def _why_not(state: FleetOps, fleet_id: str, op: NavalOp) -> str | None:
    if op is NavalOp.INTERCEPTION:
        if fleet_id in state.tapped:
            return (f"fleet {fleet_id} operated in its own player turn; only fleets left "
                    "inactive in a friendly port may intercept")
        return None
    done = state.used.get(fleet_id)
    if done is not None and done is not op:
        return (f"fleet {fleet_id} already performed {done} this game turn; one operation "
                "type per game turn")
    return None


def fleet_operation_allowed(state: FleetOps, fleet_id: str, op: NavalOp | str) -> bool:
    """TR-54 (Details of possible naval operations) May ``fleet_id`` perform ``op`` now?"""
    return _why_not(state, fleet_id, parse_enum(NavalOp, op, "op")) is None


def verify_fleet_operation(state: FleetOps, fleet_id: str, op: NavalOp | str) -> None:
    """TR-54: raise :class:`IllegalOrder` if the fleet may not perform ``op``."""
    reason = _why_not(state, fleet_id, parse_enum(NavalOp, op, "op"))
    if reason is not None:
        raise IllegalOrder("TR-54", reason)


def perform_operation(state: FleetOps, fleet_id: str, op: NavalOp | str
                      ) -> tuple[FleetOps, FleetOperationRecord]:
    """TR-54: record the operation; every type but interception taps the fleet."""
    kind = parse_enum(NavalOp, op, "op")
    verify_fleet_operation(state, fleet_id, kind)
    if kind is NavalOp.INTERCEPTION:
        return state, FleetOperationRecord(fleet_id, kind, state.game_turn, False)
    used = dict(state.used)
    used[fleet_id] = kind
    new = FleetOps(state.game_turn, used, state.tapped | {fleet_id})
    return new, FleetOperationRecord(fleet_id, kind, state.game_turn, True)


def start_game_turn(state: FleetOps, game_turn: int) -> FleetOps:
    """TR-54: a new game turn: every fleet may choose an operation type again."""
    if game_turn <= state.game_turn:
        raise InputError("game_turn", f"game turn {game_turn} does not follow {state.game_turn}")
    return FleetOps(game_turn, {}, state.tapped)


def start_player_turn(state: FleetOps, own_fleets: Sequence[str]) -> FleetOps:
    """TR-54/TR-59: at the start of its owner's player turn a fleet is untapped (escorts return)."""
    return FleetOps(state.game_turn, state.used, state.tapped - frozenset(own_fleets))


# ---------------------------------------------------------------- TR-57 transport


def transport_capacity(fleet: Fleet) -> int:
    """TR-57 (Naval transport operation) floor(fleet factors / 2) ground factors.

    >>> transport_capacity(Fleet("f", 9)), transport_capacity(Fleet("f", 3))
    (4, 1)
    """
    return fleet.factors // FLEET_CAPACITY_DIVISOR


@dataclass(frozen=True, slots=True)
class TransportOrder:
    """One naval transport: fleets and ground units from one friendly port to another
    friendly port (or an existing bridgehead) of the same zone."""

    fleets: tuple[Fleet, ...]
    units: tuple[GroundUnit, ...]
    origin_zones: frozenset[str]
    destination_zones: frozenset[str]
    destination_friendly: bool = True
    destination_is_port: bool = True
    destination_is_bridgehead: bool = False
    units_moved_by_land: tuple[str, ...] = ()
    destination_air_zone: AirZone = AirZone.NONE


@dataclass(frozen=True, slots=True)
class TransportRecord:
    capacity: int
    cargo: int
    zone: str
    units_still_arriving: tuple[str, ...]
    naval_interception_possible: bool
    air_interception_possible: bool

    def to_json(self) -> dict[str, Any]:
        return {"capacity": self.capacity, "cargo": self.cargo, "zone": self.zone,
                "units_still_arriving": list(self.units_still_arriving),
                "naval_interception_possible": self.naval_interception_possible,
                "air_interception_possible": self.air_interception_possible}


def verify_transport(order: TransportOrder) -> str:
    """TR-57: check a transport order; returns the common zone used."""
    if not order.fleets:
        raise IllegalOrder("TR-57", "a transport needs at least one fleet")
    if not order.units:
        raise IllegalOrder("TR-57", "a transport carries at least one ground unit")
    if not order.destination_friendly:
        raise IllegalOrder("TR-57", "the destination must be friendly controlled")
    if not (order.destination_is_port or order.destination_is_bridgehead):
        raise IllegalOrder("TR-57", "the destination must be a port or an existing bridgehead")
    common = sorted(order.origin_zones & order.destination_zones)
    if not common:
        raise IllegalOrder("TR-57", "origin and destination are not in the same zone; movement "
                           "to another zone is sea SR (TR-69), not transport")
    moved = sorted(set(order.units_moved_by_land) & {u.id for u in order.units})
    if moved:
        raise IllegalOrder("TR-57", f"unit(s) {', '.join(moved)} moved by land this turn")
    cap = sum(transport_capacity(f) for f in order.fleets)
    cargo = sum(u.factors for u in order.units)
    if cargo > cap:
        raise IllegalOrder("TR-57", f"{cargo} ground factors exceed the capacity {cap} "
                           "(half the fleet factors, rounded down)")
    return common[0]


def transport(order: TransportOrder) -> TransportRecord:
    """TR-57 (Naval transport operation) Move the units; they are still arriving in combat.

    Transport into an uncontested enemy air zone is allowed, but open to air and naval
    interception; in the phasing player's uncontested air zone naval interception is
    impossible (TR-60).
    """
    zone = verify_transport(order)
    return TransportRecord(
        capacity=sum(transport_capacity(f) for f in order.fleets),
        cargo=sum(u.factors for u in order.units),
        zone=zone,
        units_still_arriving=tuple(u.id for u in order.units),
        naval_interception_possible=naval_interception_possible(order.destination_air_zone),
        air_interception_possible=order.destination_air_zone in (AirZone.CONTESTED,
                                                                   AirZone.ENEMY),
    )


# ---------------------------------------------------------------- TR-58 bombardment


def bombardment_support(fleet: Fleet,
                        readings: TRCombatReadings = DEFAULT_COMBAT_READINGS) -> Exact:
    """TR-58 (Naval bombardment operation) A third of the fleet's current factors.

    >>> bombardment_support(Fleet("f", 9)), bombardment_support(Fleet("f", 8))
    (3, 2)
    """
    return naval_support(fleet, invasion=False, readings=readings)


def verify_bombardment(fleet_zones: frozenset[str], sea_hex_zone: str, sea_hex_all_sea: bool,
                       target_adjacent: bool, target_enemy_occupied: bool,
                       target_coastal: bool) -> None:
    """TR-58: the fleet moves to an all-sea hex of its zone next to an enemy-held coastal hex."""
    if sea_hex_zone not in fleet_zones:
        raise IllegalOrder("TR-58", f"bombardment hex is in zone {sea_hex_zone}, not the zone "
                           "of the fleet's port")
    if not sea_hex_all_sea:
        raise IllegalOrder("TR-58", "the fleet bombards from an all-sea hex")
    if not (target_adjacent and target_coastal):
        raise IllegalOrder("TR-58", "the target must be a coastal hex adjacent to the fleet")
    if not target_enemy_occupied:
        raise IllegalOrder("TR-58", "the target must be enemy occupied and attacked")


@dataclass(frozen=True, slots=True)
class BombardmentRecord:
    fleet: str
    factors: int
    support: Exact

    def to_json(self) -> dict[str, Any]:
        return {"fleet": self.fleet, "factors": self.factors,
                "support": exact_json(self.support)}


def bombard(fleet_after_interception: Fleet,
            readings: TRCombatReadings = DEFAULT_COMBAT_READINGS) -> BombardmentRecord:
    """TR-58: the support a fleet still adds after interceptions (capped later by TR-35)."""
    f = fleet_after_interception
    return BombardmentRecord(f.id, f.factors, bombardment_support(f, readings))


# ---------------------------------------------------------------- TR-59 SR escort


def escort_holds(escorts_after_combat: Sequence[Fleet],
                 readings: NavalReadings = DEFAULT_NAVAL_READINGS) -> bool:
    """TR-59 (Naval escort of SRs by sea) Do the sea SRs go ahead after the escort's combat?

    Default (``sr_escort_survival = factors9``): at least 9 naval factors remain on escort;
    ``fleet9`` (TR-69 wording): at least one fleet of strength 9 remains.

    >>> escort_holds([Fleet("a", 5), Fleet("b", 4)], NavalReadings(EscortSurvival.FLEET9))
    False
    """
    if readings.sr_escort_survival is EscortSurvival.FLEET9:
        return any(f.factors >= ESCORT_FACTORS for f in escorts_after_combat)
    return sum(f.factors for f in escorts_after_combat) >= ESCORT_FACTORS


# ---------------------------------------------------------------- TR-60 air zones


def naval_interception_possible(phasing_air_zone: AirZone | str) -> bool:
    """TR-60 (Naval interception and enemy air zones) Can enemy fleets intercept at a hex?

    ``phasing_air_zone`` is the hex's air-zone status seen from the phasing side: its own
    uncontested zone (``friendly``) excludes naval interception; any other status allows it.
    """
    return parse_air_zone(phasing_air_zone, "phasing_air_zone") is not AirZone.FRIENDLY
