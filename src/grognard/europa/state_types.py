"""The Europa state and event payloads, declared (issue 22 item 2).

The state stays the plain JSON dict it always was (saved and hashed as canonical JSON by
``engine/state.py``): these ``TypedDict`` s only say what it holds, at no cost at run time.
``initial_state`` (play/system.py) returns a :class:`EuropaState`;
tests/engine/test_state_types.py replays the refactor oracle's Europa games and checks every
sampled state and every event's payload against these declarations, so they stay true.

Each top-level key says what it holds, the rule it serves and when it is reset: *phase* (a
record keyed by ``[turn, phase]`` starts afresh when the key moves on), *player turn*, *game
turn*, *command* (set and cleared by the commands of one exchange) or *never*. Records built by
a typed object of their own (a combat's pending model, a surprise plan) are declared as that
object's JSON and named here.

No ``from __future__ import annotations`` here: Python 3.11 then counts ``NotRequired`` keys
as required in ``__required_keys__``.
"""

from typing import Any, NotRequired, TypedDict, final

from grognard.engine.state_types import GenericPhaseEnded, GenericUnit, Obj, TableRolled

#: An exact number in the state: a whole number, or an exact string ("721.4", "1/2").
Exact = int | str


class EuropaUnit(GenericUnit):
    """A ground unit (``state["units"][id]``): the generic fields (engine/state_types.py)
    plus what Europa combat, supply and surprise need."""

    re_size: Exact  # its size in REs (EUR-09 stacking and losses; "1/2" exact)
    divisional: bool  # a divisional unit (EUR-19, EUR-33)
    cadre: bool  # a cadre (EUR-09, EUR-13)
    armor: str  # AECA / ATEC class: "armor", "mech", "none" ... (EUR-09)
    zoc_class: int  # its ZOC class (full, reduced, none)
    supply: str  # EUR-30: "in", "oos" ... (the supply phase marks it)
    attacked_turn: NotRequired[int]  # the game turn it last attacked (EUR-33 replacements)
    exploited_turn: NotRequired[int]  # the game turn it last exploited (EUR-33, SUR-21)
    isolated: NotRequired[bool]  # EUR-31/EUR-32: isolated at the last supply phase
    mp_markers: NotRequired[int]  # surprise MP markers on it (SUR-16..SUR-18)
    unfuelled_turn: NotRequired[int]  # EUR-37: the game turn it moved unfuelled (logistics)


class AirUnit(TypedDict):
    """An air unit (``state["air_units"][id]``, EUR-23 and the air rules)."""

    side: str
    nationality: str
    base: str  # the hex of its airbase
    type: str  # F, A, B, T ... (the air unit type)
    status: str  # operative / inoperative / aborted ...
    range: int
    tactical: int  # tactical (bombing) strength
    strategic: int  # strategic bombing strength
    air_combat: int  # air-to-air strength
    guards: bool  # guards air (Soviet)
    flown: int | None  # the game turn it last flew (None: not yet)
    wing: NotRequired[str]  # its counter's name (when the scenario gives one)


class Attacked(TypedDict):
    """The units and hexes that attacked / were attacked in the combat phase ``key``."""

    key: list[int]  # [turn, phase]
    units: list[str]
    hexes: list[str]


class CombatPending(TypedDict):
    """A combat resolved, its losses, retreats or advance still owed (EUR-09..EUR-15)."""

    number: int
    defender_hex: str
    attackers: list[str]
    players: dict[str, str | None]  # attacker / defender -> player (None: no defender left)
    result: str  # the CRT result (EUR-15)
    model: Obj  # the combat model (units, terrain, readings) the losses are taken from
    requirements: list[Obj]  # losses owed per side (EUR-12)
    retreats: list[Obj]  # retreats owed per side
    advance: NotRequired[Obj]  # the advance owed (hex, units)


class CombatState(TypedDict):
    """``state["combat"]`` (EUR-09..EUR-15)."""

    count: int  # combats resolved so far (numbers each one; never reset)
    pending: CombatPending | None  # a combat awaiting losses, retreats, advance (command)
    attacked: NotRequired[Attacked]  # who attacked this combat phase (phase)


#: An overrun declared (EUR-18), its move into the target hex owed.
OverrunPending = TypedDict("OverrunPending", {
    "number": int, "units": list[str], "target": str, "from": str})


class OverrunResult(TypedDict):
    number: int
    target: str
    cleared: bool


class OverrunState(TypedDict):
    """``state["overrun"]`` (EUR-18): the overruns of the movement phase ``key``."""

    key: list[int] | None  # [turn, phase] (phase)
    units: list[str]  # units that overran this phase
    hexes: list[str]  # hexes overrun this phase
    pending: OverrunPending | None  # an overrun declared, its move owed (command)
    results: NotRequired[list[OverrunResult]]


class IsolationLoss(TypedDict):
    """Isolation-attrition losses owed (EUR-32)."""

    key: list[int]  # [turn, phase] of the roll
    player: str
    hex: str
    requirement: str  # the loss owed (an exact number)
    units: list[str]


class SupplyState(TypedDict):
    """``state["supply"]`` (EUR-30..EUR-32)."""

    checked: list[int] | None  # [turn, phase] of the last supply check (phase)
    attrition: list[int] | None  # [turn, phase] of the last isolation-attrition roll (phase)
    isolated_hexes: dict[str, list[str]]  # side -> isolated hexes found at the check
    losses: list[IsolationLoss]  # isolation losses owed (command)


class ReplacementsState(TypedDict):
    """``state["replacements"]`` (EUR-33)."""

    pools: dict[str, dict[str, Exact]]  # side -> "infantry"/"armor" -> replacement points
    returned: dict[str, int]  # unit id -> times returned from the pool (never)


class Airbase(TypedDict):
    """An airbase and its state (``state["air"]["airbases"][hex]``; hits and repair, EUR-23)."""

    name: str
    owner: str
    capacity: int
    flyable: int
    hits: int
    active: list[str]
    inactive: list[str]
    last_repair_turn: int | None


class Flight(TypedDict):
    """A mission flown this air phase (EUR-23)."""

    id: str
    kind: str
    target: str
    objective: str | None
    strikers: list[str]
    escorts: list[str]
    answered: bool  # interception answered
    resolved: bool


class AirZone(TypedDict):
    """An air zone placed (its hexes, who placed it, when it expires)."""

    centre: str
    hexes: list[str]
    placed_by: str
    placed_turn: int
    expires_turn: int
    expires_after: str
    rail_break: bool


class AirState(TypedDict, total=False):
    """``state["air"]`` (EUR-23): the air phase ``key``'s progress (fresh at each air phase)
    and the air facts that outlive it (airbases, zones, strategic hits); set by the first air
    event (air/commands.py)."""

    key: list[int] | None  # [turn, phase] of the air phase (None: missions.air_slot's empty one)
    step: str  # the air phase's step (missions, interception, ground support ...)
    missions: list[list[str]]  # [mission id, kind] assigned this phase
    flights: list[Flight]  # missions flown this phase
    flying: bool
    zones: list[AirZone]  # air zones placed
    airbases: dict[str, Airbase]  # hex -> airbase
    strategic_hits: dict[str, int]  # target -> strategic bombing hits
    ground_support: dict[str, Obj]  # hex -> ground support flown there (hits, player, turn)
    log: list[Obj]  # the air events, type and key (never)


class SurpriseTurn(TypedDict):
    """``state["surprise_turn"]``: the surprise turn under way (SUR-15..SUR-21)."""

    turn: int
    player: str
    kind: str
    command: str
    front: list[str]
    judged: NotRequired[bool]  # SUR-18: the bonus supply judged
    moved: NotRequired[list[str]]  # units moved in the surprise turn
    air_used: NotRequired[list[str]]  # air units used in it
    recovered: NotRequired[list[str]]  # air units recovered (bonus air recovery)


class AirfieldStrikes(TypedDict):
    """EUR-45 FitE air surprise: the airfield strikes of the surprise turn."""

    turn: int
    bases: list[str]
    attackers: int


class Reinforcement(TypedDict):
    """A unit still to arrive (EUR-22): its turn, side and unit record."""

    due: int
    side: str
    unit: EuropaUnit  # the unit record it will have (no hex yet)


class SurprisePlanSecret(TypedDict):
    """A rule-47 surprise plan while secret (``secrets[side]["surprise"][id]``; SUR-01..)."""

    plan: Obj  # the plan (level, cost, ledger, status ...)
    orders: Obj  # its orders (centre, steps, readings ...)
    candidates: NotRequired[list[Obj]]


class EuropaSecrets(TypedDict):
    """What only one side sees (C-HIDDEN)."""

    surprise: NotRequired[dict[str, SurprisePlanSecret]]


class StartedSurprise(TypedDict):
    """A started surprise, public (SUR-12: its front and level)."""

    side: str
    kind: str
    level: int
    centre: str
    status: str
    front: Obj  # the marked front: centre, ends, hexes, length


class LogisticsOps(TypedDict):
    """A side's operations charged to the stockpile this turn (EUR-37)."""

    turn: int
    moved: list[str]
    owed: Exact  # SPs owed
    air: NotRequired[list[str]]


class Logistics(TypedDict):
    """FitE supply stockpiles (EUR-37..EUR-41)."""

    zone: int  # the supply zone
    special: Exact  # special SPs (exact: a payment may take a fraction)
    sp: dict[str, Exact]  # side -> SPs on hand
    ops: dict[str, LogisticsOps]
    #: EUR-38/EUR-40 the turn-1 receipt already in the stockpile of a game that opens in a
    #: side's initial phase (logistics.initial_logistics; never changed)
    opening_receipt: NotRequired[Obj]


class EuropaState(TypedDict):
    """The whole Europa state (what ``initial_state`` returns and the folds keep)."""

    # --- engine (engine/generic.py, engine/state_types.GenericState) ---
    scenario: str  # the scenario's id (never)
    system: str  # "europa" (never)
    sides: list[str]  # the sides in turn order (never)
    turn: int  # the game turn (EUR-22; phase_ended)
    phase: int  # the index in the revised turn sequence (EUR-22; phase_ended)
    units: dict[str, EuropaUnit]  # every ground unit by id (changed in place by the folds)
    secrets: dict[str, EuropaSecrets]  # per side: its rule-47 surprise plans (SUR-01; C-HIDDEN)
    rolls: list[TableRolled]  # table rolls (``roll_table``; never)
    # --- Europa ---
    air_units: dict[str, AirUnit]  # every air unit by id (EUR-23..; never)
    air: NotRequired[AirState]  # the air phase and the air facts (EUR-23; per air phase)
    combat: CombatState  # combats: count, pending, who attacked (EUR-09..EUR-15)
    overrun: OverrunState  # the movement phase's overruns (EUR-18; phase)
    supply: SupplyState  # supply and isolation (EUR-30..EUR-32; phase)
    replacements: ReplacementsState  # replacement pools (EUR-33; never)
    surprise: dict[str, dict[str, StartedSurprise]]  # side -> started surprises (SUR-01; never)
    surprise_turn: NotRequired[SurpriseTurn]  # the surprise turn under way (SUR-15..SUR-21)
    invasion_surprised: NotRequired[list[str]]  # hexes an invasion surprised (SUR-25)
    fite_airfield_strikes: NotRequired[AirfieldStrikes]  # EUR-45 (FitE air surprise)
    logistics: NotRequired[Logistics]  # FitE supply stockpiles (EUR-37..EUR-41)
    reinforcements: NotRequired[dict[str, Reinforcement]]  # units to arrive (EUR-22)
    held: NotRequired[dict[str, str | None]]  # objective hex -> holder (victory.py; after every event)


# --- event payloads (Event.data), one per kind ----------------------------------------------
AdvancedAfterCombat = TypedDict("AdvancedAfterCombat", {
    "from": dict[str, str], "hex": str, "player": str, "rules": NotRequired[list[str]],
    "units": list[str]})
"""``advanced_after_combat``."""


class AirMissionAssigned(TypedDict):
    """``air_mission_assigned``."""
    escorts: list[str]
    id: str
    key: list[int]
    kind: str
    objective: NotRequired[str]
    player: str
    step: str
    strikers: list[str]
    target: str


class AirMissionsFlown(TypedDict):
    """``air_missions_flown``."""
    key: list[int]
    missions: list[str]
    player: str
    rules: list[str]
    step: str
    units: list[str]


AirTransferred = TypedDict("AirTransferred", {"from": str, "to": str, "turn": int, "unit": str})
"""``air_transferred`` (EUR-23 reading, europa/air/transfer.py: the air unit's old and new base
and the game turn, which is its flight)."""


class AirUnitDisplaced(TypedDict):
    """One air unit of ``air_units_displaced``: its new base, or None (eliminated)."""
    to: str | None
    unit: str


class AirUnitsDisplaced(TypedDict):
    """``air_units_displaced`` (EUR-23 reading, europa/air/displacement.py: the air units of
    ``side`` based at ``base``, which an enemy ground unit entered, each to the nearest open
    base in its reach or eliminated; flown in game turn ``turn``)."""
    base: str
    rules: list[str]
    side: str
    turn: int
    units: list[AirUnitDisplaced]


@final  # final: a fold reading this or airbase_repaired tells them apart by their keys
class AirbaseAttacked(TypedDict):
    """``airbase_attacked``."""
    air_status: dict[str, str]
    airbase: Obj
    key: list[int]
    mission: str
    result: Obj
    roll: int | None
    rules: list[str]
    step: str
    strength: int


@final
class AirbaseRepaired(TypedDict):
    """``airbase_repaired``."""
    airbase: Obj
    hits_after: int
    key: list[int]
    step: str


class AirbaseSurpriseResolved(TypedDict):
    """``airbase_surprise_resolved``."""
    attackers: list[str]
    base: str
    cap: int
    date: str
    die: int
    markers: int
    modifiers: Obj
    nations: list[Obj]
    player: str
    rules: list[str]
    surprise_phase: bool


class AirfieldStruck(TypedDict):
    """``airfield_struck``."""
    attackers: list[str]
    base: str
    defenders: list[str]
    due: int
    eliminated: list[str]
    player: str
    pooling: str
    rules: list[str]


class BonusAirRecovered(TypedDict):
    """``bonus_air_recovered``."""
    phasing: bool
    player: str
    restored: list[Any]
    rules: list[Any]
    sp_cost: int


class BonusSupplyJudged(TypedDict):
    """``bonus_supply_judged``."""
    hqs_moved: list[Any]
    in_supply: dict[str, bool]
    out_of_supply: list[Any]
    paths: dict[str, list[str]]
    player: str
    rules: list[str]
    units_to_judge: list[str]


class CombatResolved(TypedDict):
    """``combat_resolved``."""
    armor_strengths: dict[str, int | str]
    attack_strength: int | str
    attacker_eliminated: bool
    attacker_eliminated_units: list[str]
    attacker_loss: int | str
    attacker_may_advance: bool
    attacker_retreat: int
    attackers: list[str]
    barrage: Obj | None  # EUR-06 the barrage's outcome (strength, column, roll, hits ...)
    barrage_dice: list[int]
    barrage_step_loss: dict[str, str] | None  # the unit and action of its step loss
    column: str | None
    defender_hex: str
    defender_loss: int | str
    defender_retreat: int
    defenders: list[str]
    defense_strength: int
    dice: list[int]
    drm: int
    drm_breakdown: dict[str, int]
    hex_cleared: bool
    loss_unit: int | str
    model: Obj
    modified_roll: int | None
    number: int
    odds: str
    player: str
    requirements: list[Obj]
    result: str
    retreats: list[Obj]
    roll: int | None
    rules: NotRequired[list[str]]
    shifts: list[Obj]  # EUR-09: {cause, columns}
    surprise_supply: NotRequired[dict[str, int]]
    weaker_side: str | None


class FighterSweepResolved(TypedDict):
    """``fighter_sweep_resolved``."""
    air_flown: list[Any]
    air_status: dict[str, str]
    key: list[int]
    mission: str
    result: Obj
    rolls: list[int]
    step: str


class StepLossTaken(TypedDict):
    """A bombardment's step loss (EUR-06): the unit, eliminated or reduced to its cadre (then
    its strengths after, air/missions.execute_ground_support)."""
    unit: str
    action: str
    attack: NotRequired[int]
    defense: NotRequired[int]


class GroundSupportResolved(TypedDict):
    """``ground_support_resolved``."""
    column: NotRequired[str]
    combat_drm: int
    hex: str
    hits: int
    key: list[int]
    mission: str
    player: str
    roll: int | None
    rules: NotRequired[list[str]]
    step: str
    step_loss: StepLossTaken | None
    strength: int
    turn: int


@final  # final: the interception fold tells declined and resolved apart by their keys
class InterceptionDeclined(TypedDict):
    """``interception_declined``."""
    key: list[int]
    mission: str
    player: str
    step: str


@final
class InterceptionResolved(TypedDict):
    """``interception_resolved``."""
    air_flown: list[str]
    air_status: dict[str, str]
    key: list[int]
    mission: str
    player: str
    result: Obj
    rolls: list[int]
    step: str


class InterdictionResolved(TypedDict):
    """``interdiction_resolved``."""
    key: list[int]
    mission: str
    result: Obj
    roll: int
    rules: list[str]
    step: str


class InvasionSurpriseStarted(TypedDict):
    """``invasion_surprise_started``."""
    country: str
    effects: Obj
    player: str
    record: Obj
    turn_record: SurpriseTurn  # the surprise turn it opens (surprise/turn.turn_record)


class IsolationAttritionRolled(TypedDict):
    """``isolation_attrition_rolled``."""
    hexes: list[Obj]
    key: list[int]
    player: str
    rules: list[str]


class IsolationLossesAllocated(TypedDict):
    """``isolation_losses_allocated``."""
    credited: int
    eliminated: list[str]
    excess: int | str
    hex: str
    player: str
    reduced: Obj
    requirement: int | str
    steps: list[dict[str, int | str]]


class LossesAllocated(TypedDict):
    """``losses_allocated``."""
    command: NotRequired[Obj]
    credited: int
    decided_by: NotRequired[str]
    eliminated: list[str]
    excess: int | str
    reduced: Obj
    replacements: dict[str, int | str]
    requirement: int | str
    side: str
    steps: list[Obj]


OverrunDeclared = TypedDict("OverrunDeclared", {
    "entry_cost": int, "exploitation": bool, "from": str, "key": list[int], "leaves_zoc": bool,
    "mechanized": dict[str, bool], "mp": dict[str, int], "number": int, "player": str,
    "sp_cost": Obj, "target": str, "units": list[str], "zoc_to_zoc": bool})
"""``overrun_declared``."""


#: ``phase_ended`` (EUR-22): the generic payload.
PhaseEnded = GenericPhaseEnded


class ReinforcementPlaced(TypedDict):
    """``reinforcement_placed``."""
    due: int
    hex: str
    player: str
    rules: list[str]
    turn: int
    unit: str


class ReinforcementsDelayed(TypedDict):
    """``reinforcements_delayed``."""
    player: str
    rules: list[str]
    to: int
    turn: int
    units: list[str]


class ReplacementTaken(TypedDict):
    """``replacement_taken``."""
    account: str
    action: str
    attack: int
    balance: int
    cadre: bool
    cost: int
    defense: int
    hex: str | None
    player: str
    pool: str
    turn: int
    unit: str


class SpPaid(TypedDict):
    """``sp_paid`` (logistics._charged: every amount is exact_json, a fraction where the
    scenario's SP rounding is exact)."""
    air: NotRequired[list[str]]
    charge: Exact
    exact: Exact
    items: list[dict[str, int | dict[str, str] | str]]
    moved: NotRequired[str]
    owed_after: Exact
    rules: list[str]
    side: str
    sp: Exact
    special: Exact
    what: str


class SpecialSupplyExpired(TypedDict):
    """``special_supply_expired``."""
    lost: Exact  # exact_json of the special SPs left
    rules: list[str]
    side: str


class ReplacementsLost(TypedDict):
    """EUR-28 The replacement points a strategic bombing costs the enemy."""
    side: str
    infantry: Exact


class StrategicBombingResolved(TypedDict):
    """``strategic_bombing_resolved``."""
    hex: str
    key: list[int]
    mission: str
    replacements_lost: ReplacementsLost
    result: Obj
    roll: int
    rules: list[str]
    step: str
    strength: int
    turn: int


class SupplyChecked(TypedDict):
    """``supply_checked``."""
    decided_by: str
    in_supply: list[str]
    isolated: list[str]
    isolated_hexes: list[str]
    key: list[int]
    newly_marked: list[str]
    player: str
    restored: list[str]
    still_out: list[Any]


class SupplyReceived(TypedDict):
    """``supply_received``."""
    base: int
    increment: int
    rates: str
    received: int
    reduction: int | str
    rules: list[str]
    side: str
    sp_after: int | str
    sp_before: int | str
    turn: int
    turn_weather: str
    weather: str
    zone: int


SupplyZoneEntered = TypedDict("SupplyZoneEntered", {
    "factor": str, "from": int, "hexes": list[str], "rules": list[str], "side": str,
    "sp_after": int | str, "sp_before": int | str, "to": int})
"""``supply_zone_entered``."""


@final  # final: fold_surprise tells a plan's step and its start apart by their keys
class SurprisePlanned(TypedDict):
    """``surprise_planned``."""
    command: str
    op: str
    orders: Obj
    plan: Obj
    player: str
    record: Obj
    rules: list[str]


@final
class SurpriseStarted(TypedDict):
    """``surprise_started``."""
    candidates: list[dict[str, int | str]]
    command: str
    effects: Obj
    op: str
    orders: Obj
    plan: Obj
    player: str
    public: StartedSurprise  # what the enemy sees (SUR-12), kept in state["surprise"]
    record: Obj
    rules: list[str]
    turn_record: SurpriseTurn  # the surprise turn it opens (surprise/turn.turn_record)


UnitMoved = TypedDict("UnitMoved", {
    "exploitation": NotRequired[bool], "from": str, "marker_mp": NotRequired[int], "mp": int,
    "path": list[str], "rules": NotRequired[list[str]], "unfuelled": NotRequired[bool],
    "unit": str})
"""``unit_moved`` (``unfuelled``: EUR-37, a FitE division moved on no SPs, play/turn.py)."""


UnitsRetreated = TypedDict("UnitsRetreated", {
    "command": NotRequired[Obj], "decided_by": NotRequired[str], "eliminated": list[str],
    "from": str, "losses": list[dict[str, str]], "path": list[str], "reduced": Obj, "side": str,
    "units": list[str], "zoc_entered": int})
"""``units_retreated``."""


#: Every event kind of the system -> its payload's declared type (``Event.data``).
EVENTS: dict[str, Any] = {
    "advanced_after_combat": AdvancedAfterCombat,
    "air_mission_assigned": AirMissionAssigned,
    "air_missions_flown": AirMissionsFlown,
    "air_transferred": AirTransferred,
    "air_units_displaced": AirUnitsDisplaced,
    "airbase_attacked": AirbaseAttacked,
    "airbase_repaired": AirbaseRepaired,
    "airbase_surprise_resolved": AirbaseSurpriseResolved,
    "airfield_struck": AirfieldStruck,
    "bonus_air_recovered": BonusAirRecovered,
    "bonus_supply_judged": BonusSupplyJudged,
    "combat_resolved": CombatResolved,
    "fighter_sweep_resolved": FighterSweepResolved,
    "ground_support_resolved": GroundSupportResolved,
    "interception_declined": InterceptionDeclined,
    "interception_resolved": InterceptionResolved,
    "interdiction_resolved": InterdictionResolved,
    "invasion_surprise_started": InvasionSurpriseStarted,
    "isolation_attrition_rolled": IsolationAttritionRolled,
    "isolation_losses_allocated": IsolationLossesAllocated,
    "losses_allocated": LossesAllocated,
    "overrun_declared": OverrunDeclared,
    "phase_ended": PhaseEnded,
    "reinforcement_placed": ReinforcementPlaced,
    "reinforcements_delayed": ReinforcementsDelayed,
    "replacement_taken": ReplacementTaken,
    "sp_paid": SpPaid,
    "special_supply_expired": SpecialSupplyExpired,
    "strategic_bombing_resolved": StrategicBombingResolved,
    "supply_checked": SupplyChecked,
    "supply_received": SupplyReceived,
    "supply_zone_entered": SupplyZoneEntered,
    "surprise_planned": SurprisePlanned,
    "surprise_started": SurpriseStarted,
    "table_rolled": TableRolled,
    "unit_moved": UnitMoved,
    "units_retreated": UnitsRetreated,
}

