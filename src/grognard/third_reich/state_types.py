"""The Third Reich state and event payloads, declared (issue 22 item 2).

The state stays the plain JSON dict it always was (saved and hashed as canonical JSON by
``engine/state.py``): these ``TypedDict`` s only say what it holds, so they cost nothing at run
time. ``initial_state`` returns a :class:`TRState`; tests/engine/test_state_types.py replays
the refactor oracle's games and a whole heuristic campaign and checks every state it samples
and every event's payload against these declarations (no undeclared key, no missing key, the
declared value types), so they stay true.

Each top-level key says what it holds, the rule it serves and when it is reset: *phase* (every
``phase_ended``), *player turn*, *game turn* (the ``phase_ended`` into a new game turn, see
:data:`PER_GAME_TURN`), *command* (set and cleared by the commands of one exchange) or *never*
(kept for the game). Nested records built by a typed object of their own (the economy, the
campaign, the diplomacy) are declared as that object's JSON and named here; their fields are
declared where they are built.

No ``from __future__ import annotations`` here: Python 3.11 then counts ``NotRequired`` keys
as required in ``__required_keys__``.
"""

from typing import Any, NotRequired, TypedDict

from grognard.engine.state_types import GenericUnit, Obj, Position, TableRolled


class TRUnit(GenericUnit):
    """A land, air or naval unit (``state["units"][id]``): the generic fields
    (engine/state_types.py) plus these."""

    power: str  # the major power or minor country it belongs to (``unit_power``)
    supply: NotRequired[str]  # TR-72: "in" / "out" after a supply check


class City(TypedDict):
    """A city of the map (``state["cities"][name]``, TR-22/TR-24)."""

    hex: str
    country: str  # the country it belongs to
    classes: list[str]  # black_city, black_port, capital ...
    owner: str | None  # the country or power controlling it (None: neutral)


class War(TypedDict):
    """A declared war (``state["wars"]``, TR-25)."""

    power: str
    target: str
    turn: int


class Battle(TypedDict):
    """One resolved land combat this game turn (``state["battles"]``, TR-32)."""

    hex: str
    column: str
    result: str
    roll: int


class FrontOption(TypedDict):
    """The option a side declared on a front (TR-03) and the power that leads it."""

    option: str
    power: str


class SrUse(TypedDict):
    """A power's strategic redeployments this game turn (``state["sr"][power]``, TR-68)."""

    power: str
    units: dict[str, str]  # unit id -> where it was redeployed to
    us_initial: int
    used: int


class BuildRecord(TypedDict):
    """What a power built this game turn (``state["built"][power]``, TR-75 build limits)."""

    air_factors: int
    airborne_factors: int
    armor_factors: int
    infantry_factors: int
    naval_fleets: int
    replacements: int


class AttritionLoss(TypedDict):
    """A unit lost to attrition, which replacements may still save (TR-41)."""

    unit: str
    hex: str
    side: str


class FleetOps(TypedDict, total=False):
    """Fleets tapped for naval operations this game turn (TR-54; ``{}`` before any)."""

    game_turn: int
    tapped: list[str]
    used: dict[str, str]


class EconomyJSON(TypedDict):
    """``state["economy"]``: economy/economy.Economy's JSON (TR-10..TR-20, TR-86; read back
    with ``board.economy_of``)."""

    format: str
    turn: int
    year: int
    season: str
    powers: list[str]
    at_war_with_germany: list[str]
    belligerent: list[str]
    conquests: dict[str, str]  # conquered country -> conqueror (TR-22)
    minor_allies: dict[str, str]
    iran_route_open: bool  # TR-86 (issue 23)
    lend_lease_done: list[str]
    captured_cities: list[str]
    spent_territories: list[Any]
    readings: Obj  # the StrategicReadings the folds read
    summary: dict[str, dict[str, int]]  # power -> BRP summary (base, growth ...)
    ledger: Obj  # the BRP ledger (core/ledger.py): balances and entries


class CampaignMinor(TypedDict):
    """A minor country in the campaign record (TR-22)."""

    status: str  # neutral / ally / conquered ...
    side: str | None
    capital: str | None


class CampaignJSON(TypedDict):
    """``state["campaign"]``: conquest/campaign.campaign_state (TR-04, TR-22..TR-26)."""

    minors: dict[str, CampaignMinor]
    areas: dict[str, list[str]]  # area -> its hexes (Vichy, eastern Poland ...)
    axis_minors: list[str]
    build_in: dict[str, list[str]]
    capitals: dict[str, str]
    held: Obj  # capitals held and since when (TR-22)
    majors_out: list[str]  # majors out of the war (TR-04)
    player_turns: int
    ribbentrop_molotov: list[str]  # TR-25 the pact's territories
    rm_done: bool
    rm_minors: list[str]
    rm_trigger: str
    us_entry_turn: int
    values: dict[str, int]
    verdict: Obj | None  # the campaign's verdict once the game ends (TR-04)
    vichy: dict[str, str] | None  # Vichy France once formed (TR-24)
    victory: dict[str, int]  # side -> victory points


class DiplomacyJSON(TypedDict):
    """``state["diplomacy"]``: conquest/diplomacy.to_json (TR-25, issue 23)."""

    aligned: dict[str, str]
    annexed: dict[str, str]
    axis_minors: list[str]
    axis_minors_turn: int
    ended: list[Obj]
    minor_dow_paid: dict[str, int]
    minors: list[str]
    out: list[str]
    patrons: dict[str, str]
    sides: dict[str, str]
    territory: dict[str, str]
    us_entry_turn: int
    wars: list[Obj]


class MurmanskResult(TypedDict):
    """A resolved Murmansk convoy (TR-21)."""

    allied_losses: dict[str, int]
    german_losses: dict[str, int]
    brp_hits: int
    brps_delivered: int
    brps_sent: int
    rolls: dict[str, int]
    steps: list[Obj]


class MurmanskBox(TypedDict):
    """``state["murmansk"]``: the year's box as both sides see it
    (strategic/murmansk_box.public_box; TR-20, TR-21)."""

    year: int
    timing: str
    shipments: list[Obj]  # BRPs shipped: sender, brps
    german: dict[str, int] | None  # the German forces committed, once committed
    allied: Obj | None  # the Allied escort, once made
    resolved: bool
    result: MurmanskResult | None
    sw: NotRequired[Obj]


class TRSecrets(TypedDict):
    """What only one side sees (C-HIDDEN)."""

    murmansk: NotRequired[dict[str, int]]  # its Murmansk forces before the reveal (TR-20)


class PendingHexes(TypedDict):
    """Attrition hexes owed to the attacker (TR-38, TR-40)."""

    side: str
    front: str
    n: int  # hexes to take
    candidates: list[str]
    attackers: list[str]


class PendingWithdrawal(TypedDict):
    """The defender's withdrawal owed after hexes taken (TR-40)."""

    side: str
    hexes: list[str]
    withdrawing: dict[str, list[str]]
    advance: Obj


class PendingLosses(TypedDict):
    """Land losses owed from attrition (TR-38, TR-39)."""

    side: str
    front: str
    hexes: int
    owed: Obj  # side -> units it may choose and how many
    candidates: dict[str, list[str]]
    attackers: list[str]


class PendingBattle(TypedDict):
    """A battle's land losses owed (TR-32): its plan, what is owed, the units lost so far."""

    plan: Obj  # combat/battle's plan of the battle (retreat room, advance ...)
    owed: Obj  # side -> {n, units, role, crt_defender}
    lost: list[str]


class AdvanceOwed(TypedDict):
    """An advance after combat owed (TR-32; TR-61/TR-62 for a landing)."""

    side: str
    hex: str
    units: list[str]
    max: int
    invasion: NotRequired[Obj]  # the bridgehead an invasion's landing places (TR-63)


class PendingRetreat(TypedDict):
    """A retreat owed after the losses (TR-32): combat/battle.settle_retreat's choice."""

    side: str
    hex: str
    units: list[str]
    each: dict[str, list[str]]  # unit -> hexes it may retreat to
    options: list[str]
    room: dict[str, int]
    advance: list[str]
    advance_owed: NotRequired[AdvanceOwed]


class TRState(TypedDict):
    """The whole Third Reich state (what ``initial_state`` returns and the folds keep)."""

    # --- engine (engine/generic.py, engine/state_types.GenericState) ---
    scenario: str  # the scenario's id (never)
    system: str  # "third_reich" (never)
    sides: list[str]  # the sides in turn order (TR-01; never)
    turn: int  # the game turn, 1 = the scenario's first (TR-02; phase_ended)
    phase: int  # index in the turn sequence (TR-02; phase_ended)
    units: dict[str, TRUnit]  # every unit by id (changed in place by the folds)
    secrets: dict[str, TRSecrets]  # per side, what only it sees (C-HIDDEN; TR-20 Murmansk counts)
    rolls: list[TableRolled]  # table rolls (``roll_table``; never)
    # --- the war (set up in play/system.initial_state) ---
    economy: EconomyJSON  # BRPs, ledger, conquests (TR-10..TR-20; its turn opened every game turn)
    power_sides: dict[str, str]  # power or minor -> side (TR-22, TR-25; never, TR-22 hands minors over)
    control: dict[str, str]  # city -> controlling side (TR-22, TR-77; after every event)
    front_weather: dict[str, str]  # front -> weather this turn (TR-02)
    options: dict[str, dict[str, FrontOption]]  # side -> front -> option declared (TR-03; game turn)
    options_powers: dict[str, dict[str, str]]  # power -> front -> option (TR-03; game turn)
    built: dict[str, BuildRecord]  # power -> what it built this turn (TR-75; game turn)
    wars: list[War]  # the wars declared (TR-25; never)
    dow_minor_paid: dict[str, int]  # power -> BRPs paid for minor DoWs this turn (TR-25; never)
    diplomacy: DiplomacyJSON  # alignments, wars, territory (TR-25, issue 23; never)
    campaign: CampaignJSON  # minors, areas, held capitals, verdict (TR-04, TR-22..TR-26; never)
    cities: dict[str, City]  # the map's cities and their owners (TR-22, TR-24; never)
    city_hexes: dict[str, list[str]]  # country -> its city hexes (TR-40, TR-22; never)
    sw_boxes: dict[str, dict[str, int]]  # power -> factors in the SW box (TR-79..TR-82; never)
    sw_fought: dict[str, int]  # SW round kind -> the game turn it was last fought (TR-80; never)
    sw_conversions: NotRequired[dict[str, int]]  # power -> units owed to forced conversion (TR-81; until converted)
    murmansk: MurmanskBox | None  # the year's Murmansk box, public part (TR-20, TR-21; each year)
    # --- per phase (play/orders/end_phase.fold_phase_ended) ---
    attacked: list[str]  # units that attacked this phase (TR-32; phase)
    attacked_hexes: list[str]  # hexes attacked this phase (TR-32; phase)
    moved: list[str]  # units moved this phase (TR-26..TR-29; phase)
    supply_checked: bool  # this phase's supply check is made (TR-72; phase)
    # --- per player turn ---
    neutralized: NotRequired[dict[str, int]]  # air neutralised by counter air (TR-44; player turn)
    counter_air: NotRequired[dict[str, str]]  # counter-air missions flown (TR-44; player turn)
    bridgeheads: list[str]  # bridgehead hexes (TR-63; unthreatened ones removed at a player turn)
    bridgehead_owners: NotRequired[dict[str, list[str]]]  # power -> its bridgehead hexes (TR-63; likewise)
    # --- per game turn ---
    attrition_done: list[str]  # fronts whose attrition is resolved (TR-38; game turn)
    attrition_losses: list[AttritionLoss]  # attrition losses replacements may save (TR-41; game turn)
    saved: dict[str, int]  # power/kind -> attrition losses saved (TR-41; game turn)
    air_used: list[str]  # air units flown this turn (TR-29, TR-35, TR-51; game turn)
    air_landed: list[str]  # airborne units landed this turn (TR-51, TR-52; game turn)
    fleets_used: list[str]  # fleets used this turn (TR-35, TR-54; game turn)
    fleet_ops: FleetOps  # fleets tapped for naval operations (TR-54; game turn: {})
    sr: dict[str, SrUse]  # power -> strategic redeployments this turn (TR-68; game turn)
    invaded: NotRequired[list[str]]  # powers that invaded this turn (TR-62; game turn)
    invaded_hexes: NotRequired[list[str]]  # beaches invaded this turn (TR-62; game turn)
    battles: list[Battle]  # land combats resolved (TR-32; never: the battle record)
    # --- owed to a player (set by one command, cleared by its answer) ---
    pending_hexes: PendingHexes | None  # attrition hexes owed (TR-38, TR-40; take_hexes, game turn)
    pending_withdrawal: PendingWithdrawal | None  # the withdrawal owed (TR-40; withdraw)
    pending_losses: PendingLosses | None  # attrition losses owed (TR-38, TR-39; remove_losses)
    pending_battle: NotRequired[PendingBattle]  # a battle's losses owed (TR-32; land_losses)
    pending_retreat: NotRequired[PendingRetreat]  # a retreat owed after the losses (TR-32; retreat)
    pending_advance: NotRequired[AdvanceOwed]  # an advance after combat owed (TR-32; advance)
    pending_reaction: NotRequired["ReactionOwed"]  # the defender's reaction owed: the reaction_owed payload (TR-35, TR-55)


#: The keys ``fold_phase_ended`` (play/orders/end_phase.py) resets at every phase's end, and
#: their empty values (every unit's ``mp_spent`` too). tests/engine/test_state_types.py folds
#: phase ends into a state whose every key is dirty and checks these lists are exactly what
#: the fold resets.
PER_PHASE: dict[str, Any] = {"attacked": [], "attacked_hexes": [], "moved": [],
                             "supply_checked": False}
#: The keys it drops at a player turn's end (TR-44: neutralised air recovers).
PER_PLAYER_TURN: frozenset[str] = frozenset({"neutralized", "counter_air"})
#: The keys it resets when a new game turn starts (besides opening the economy's turn).
PER_GAME_TURN: dict[str, Any] = {
    "options": {}, "built": {}, "attrition_done": [], "options_powers": {},
    "pending_hexes": None, "attrition_losses": [], "saved": {},
    "air_used": [], "fleets_used": [], "sr": {}, "air_landed": [], "fleet_ops": {}}
#: The keys it drops when a new game turn starts (TR-62: the turn's invasions).
DROPPED_PER_GAME_TURN: frozenset[str] = frozenset({"invaded", "invaded_hexes"})


# --- event payloads (Event.data), one per kind ----------------------------------------------
AirStaged = TypedDict("AirStaged", {
    "allowance": int, "distance": int, "from": str, "side": str, "to": str, "unit": str})
"""``air_staged`` (TR-29)."""


class AttritionLossesRemoved(TypedDict):
    """``attrition_losses_removed``."""
    n: int
    rule: str
    side: str
    units: list[str]


class AttritionResolved(TypedDict):
    """``attrition_resolved``."""
    attacker_units: int
    column: str | None
    contact_units: list[str]
    defender_units: int
    dice: list[int]
    eliminated: list[Any]
    factors: int
    front: str
    hex_candidates: list[str]
    hex_units: NotRequired[dict[str, list[str]]]
    hexes: int
    losses_owed: NotRequired[Obj]
    result: str
    roll: int | None
    side: str


class ForcedRetreat(TypedDict):
    """Why the engine made a retreat itself (TR-32: the only legal one; combat/battle.py
    ``settle_retreat``), in a settled battle's payload."""
    side: str
    why: str


class BattleResolved(TypedDict):
    """``battle_resolved``."""
    advance_owed: NotRequired[Obj]
    advanced: list[Any]
    air_naval: Obj
    attacker_losses: int
    attackers: list[str]
    column: str
    defender_losses: int
    defenders: list[str]
    defense: int
    dice: list[int]
    drm: int
    eliminated: list[str]
    forced: NotRequired[dict[str, str]]
    forced_retreat: NotRequired[ForcedRetreat]  # settle_retreat's (missing until session 14)
    front: str
    hex: str
    losses_owed: NotRequired[Obj]
    odds: str
    plan: NotRequired[Obj]
    result: str
    retreat: Obj | None
    retreat_choice: NotRequired[Obj]
    retreats: Obj
    roll: int
    rules: list[str]
    shifts: int
    side: str
    support: int
    support_detail: dict[str, int]
    weather: str


class CampaignEnded(TypedDict):
    """``campaign_ended``."""
    reason: str
    rule: str
    summary: str
    thresholds: dict[str, int]
    victory_locations: dict[str, int]
    winner: str


class CounterAirFlown(TypedDict):
    """``counter_air_flown``."""
    air: list[str]
    hits_on_nonphasing: int
    hits_on_phasing: int
    losses: dict[str, int]
    neutralized: dict[str, int]
    rolls: list[int]
    sent: int
    side: str
    target: str
    target_factors: int
    targets: list[str]


class HexesTaken(TypedDict):
    """``hexes_taken``."""
    advance: Obj
    hexes: list[str]
    side: str
    withdrawing: dict[str, list[str]]


class Invaded(TypedDict):
    """``invaded``."""
    advance_max: int
    advanced: list[str]
    attacker_losses: int | None
    automatic: bool
    beach: str
    bridgehead: Obj
    column: str | None
    defender_losses: int | None
    defenders: list[Any]
    defense: int
    dice: list[Any]
    drm: int
    eliminated: list[Any]
    flown: list[Any]
    ground_attack: int
    groups: list[Obj]
    interceptions: list[dict[str, list[Any] | str]]
    losses: Obj
    must_advance: list[str]
    odds: str | None
    result: str | None
    retreat: Obj | None
    retreats: Obj
    roll: int | None
    rules: list[str]
    shifts: int | None
    side: str
    succeeded: bool
    support: int | None
    turned_back: list[Any]
    weather: str
    # declared from the code (combat/invasion.execute_invade's settlement; not met in the
    # sampled games): the losses owed and the battle plan, or the retreat owed, the landing
    # owed, why the engine chose a loss or a retreat, an invasion called off
    losses_owed: NotRequired[Obj]
    plan: NotRequired[Obj]
    retreat_choice: NotRequired[Obj]
    advance_owed: NotRequired[Obj]
    forced: NotRequired[dict[str, str]]
    forced_retreat: NotRequired[ForcedRetreat]
    called_off: NotRequired[bool]


class IranDelivered(TypedDict):
    """``iran_delivered``."""
    amount: int
    rule: str


class IranRouteOpened(TypedDict):
    """``iran_route_opened``."""
    cost: int
    rule: str


class LandLossesChosen(TypedDict):
    """``land_losses_chosen``."""
    advance_owed: NotRequired[Obj]
    advanced: NotRequired[list[Any]]
    forced_retreat: NotRequired[ForcedRetreat]  # the settlement's, as in battle_resolved
    hex: str
    n: int
    retreat_choice: NotRequired[Obj]
    retreats: NotRequired[Obj]
    role: str
    rule: str
    side: str
    units: list[str]


class LendLeaseSent(TypedDict):
    """``lend_lease_sent``."""
    amount: int
    arrives: str
    receiver: str
    route: str
    rule: str
    sender: str
    sr_used: int


class MinorActivated(TypedDict):
    """``minor_activated``."""
    minor: str
    placements: dict[str, str]
    rule: str
    side: str


class MinorConquered(TypedDict):
    """``minor_conquered``."""
    minor: str
    power: str
    rule: str
    side: str
    value: int


class MurmanskCommitted(TypedDict):
    """``murmansk_committed``."""
    german: dict[str, int]
    side: str
    year: int


class MurmanskEscorted(TypedDict):
    """``murmansk_escorted``."""
    allied: dict[str, int]
    side: str
    year: int


class MurmanskResolved(TypedDict):
    """``murmansk_resolved``."""
    allied: dict[str, int]
    german: dict[str, int]
    result: Obj
    side: str
    sw: Obj


class MurmanskShipped(TypedDict):
    """``murmansk_shipped``."""
    brps: int
    sender: str
    side: str


NavalTransported = TypedDict("NavalTransported", {
    "air_interception_possible": bool, "arrived": bool, "capacity": int, "cargo": int,
    "fleets": list[str], "flown": NotRequired[list[str]], "from": str, "interception": Obj,
    "naval_interception_possible": bool, "rules": NotRequired[list[str]], "side": str, "to": str,
    "units": list[str], "units_still_arriving": list[str], "zone": str})
"""``naval_transported`` (TR-54..TR-57)."""


class OptionsDeclared(TypedDict):
    """``options_declared``."""
    cost: int
    options: dict[str, str]
    power: str
    side: str


PhaseEnded = TypedDict("PhaseEnded", {
    "from": Position, "to": Position, "player_turn_ended": NotRequired[bool],
    "bridgeheads_removed": NotRequired[dict[str, list[str]]], "campaign": NotRequired[Obj],
    "murmansk_received": NotRequired[int]})
"""``phase_ended`` (TR-02; fold: play/orders/end_phase.fold_phase_ended, see :data:`PER_PHASE`)."""


class PlayerTurnClosed(TypedDict):
    """``player_turn_closed``."""
    held: Obj
    player_turns: int


class ReactionMade(TypedDict):
    """``reaction_made``."""
    args: dict[str, list[str]]
    kind: str
    reaction: str
    side: str


class ReactionOwed(TypedDict):
    """``reaction_owed``."""
    args: Obj
    defender: str
    kind: str
    options: list[Obj]
    player: str
    prompt: str
    reaction: str
    rule: str


class Retreated(TypedDict):
    """``retreated``."""
    advance_owed: NotRequired[Obj]
    advanced: list[Any]
    hex: str
    moves: dict[str, str]
    side: str
    to: dict[str, str] | str
    units: list[str]


class RibbentropMolotov(TypedDict):
    """``ribbentrop_molotov``."""
    rule: str
    side: str
    territories: list[str]


SrMade = TypedDict("SrMade", {
    "budget": int, "from": str, "kind": str, "links": NotRequired[list[int]], "path": list[str],
    "power": str, "rules": NotRequired[list[str]], "side": str, "to": str, "unit": str,
    "used": int})
"""``sr_made`` (TR-68)."""


class SupplyChecked(TypedDict):
    """``supply_checked``."""
    breakout: list[str]
    eliminated: list[str]
    hexes: list[Obj]
    out_of_supply: list[str]
    rolls: list[Obj]
    side: str
    ussr_sources: Obj | None


class SwFactorsBought(TypedDict):
    """``sw_factors_bought``."""
    category: str
    cost: int
    factors: int
    power: str
    rule: str


class SwRoundFought(TypedDict):
    """``sw_round_fought``."""
    attacker: str
    bombers: NotRequired[dict[str, int]]
    kind: str
    losses: Obj
    losses_first: NotRequired[str]
    record: Obj
    round: Obj
    rule: str
    target: str


class UnitBuilt(TypedDict):
    """``unit_built``."""
    cost: int
    hex: str
    power: str
    rule: str
    unit: str


UnitMoved = TypedDict("UnitMoved", {
    "captures": NotRequired[list[Obj]], "from": str, "mp": int, "path": list[str], "phase": str,
    "rules": NotRequired[list[str]], "unit": str})
"""``unit_moved`` (TR-26..TR-28)."""


class UnitsAdvanced(TypedDict):
    """``units_advanced``."""
    hex: str
    rule: str
    side: str
    units: list[str]


class UnitsBought(TypedDict):
    """``units_bought``."""
    basket: dict[str, int]
    cost: int
    power: str


class UsEntered(TypedDict):
    """``us_entered``."""
    rule: str


class VichyFormed(TypedDict):
    """``vichy_formed``."""
    rolls: dict[str, int]
    rule: str


class WarDeclared(TypedDict):
    """``war_declared``."""
    cost: int
    majors: list[str]
    minors: list[str]
    power: str
    side: str
    war: Obj


class Withdrawn(TypedDict):
    """``withdrawn``."""
    advance: Obj
    chosen: list[str]
    cut_off: NotRequired[dict[str, str]]  # TR-40: cut-off units withdrawn too (not met in the sampled games)
    cut_off_candidates: NotRequired[list[str]]  # the units the loss would cut off
    eliminated: list[str]
    forced: NotRequired[dict[str, str]]
    hexes: list[str]
    retreats: dict[str, str]
    side: str


class YearStarted(TypedDict):
    """``year_started``."""
    record: Obj
    rules: list[str]


Airdropped = TypedDict("Airdropped", {
    "side": str, "unit": str, "from": str, "to": str, "rolls": list[int], "interceptors": int,
    "escorts": int, "hits_on_airborne": int, "factors_after": int, "outcome": str,
    "air_losses": Any, "flown": list[str]})
"""``airdropped`` (TR-51; combat/airdrops.py): not met in the sampled games, declared from the code."""


class AttritionLossesSaved(TypedDict):
    """``attrition_losses_saved`` (TR-41): not met in the sampled games, declared from the code."""
    side: str
    saves: list[Obj]


class MajorSurrendered(TypedDict):
    """``major_surrendered`` (TR-04): not met in the sampled games, declared from the code."""
    power: str
    capital_held_by: str | None
    rule: str


class SwUnitConverted(TypedDict):
    """``sw_unit_converted`` (TR-81): not met in the sampled games, declared from the code."""
    power: str
    unit: str
    rule: str


#: ``sea_sr_made`` (TR-59, movement/sea_srs.py) carries its SR and sea-combat records' own JSON
#: beside side, unit, from, to, route, escorts, interceptors, losses and rules: an open record.
SeaSrMade = Obj


#: Every event kind of the system -> its payload's declared type (``Event.data``).
EVENTS: dict[str, Any] = {
    "air_staged": AirStaged,
    "airdropped": Airdropped,
    "attrition_losses_removed": AttritionLossesRemoved,
    "attrition_losses_saved": AttritionLossesSaved,
    "attrition_resolved": AttritionResolved,
    "battle_resolved": BattleResolved,
    "campaign_ended": CampaignEnded,
    "counter_air_flown": CounterAirFlown,
    "hexes_taken": HexesTaken,
    "invaded": Invaded,
    "iran_delivered": IranDelivered,
    "iran_route_opened": IranRouteOpened,
    "land_losses_chosen": LandLossesChosen,
    "lend_lease_sent": LendLeaseSent,
    "major_surrendered": MajorSurrendered,
    "minor_activated": MinorActivated,
    "minor_conquered": MinorConquered,
    "murmansk_committed": MurmanskCommitted,
    "murmansk_escorted": MurmanskEscorted,
    "murmansk_resolved": MurmanskResolved,
    "murmansk_shipped": MurmanskShipped,
    "naval_transported": NavalTransported,
    "options_declared": OptionsDeclared,
    "phase_ended": PhaseEnded,
    "player_turn_closed": PlayerTurnClosed,
    "reaction_made": ReactionMade,
    "reaction_owed": ReactionOwed,
    "retreated": Retreated,
    "ribbentrop_molotov": RibbentropMolotov,
    "sea_sr_made": SeaSrMade,
    "sr_made": SrMade,
    "supply_checked": SupplyChecked,
    "sw_factors_bought": SwFactorsBought,
    "sw_round_fought": SwRoundFought,
    "sw_unit_converted": SwUnitConverted,
    "unit_built": UnitBuilt,
    "unit_moved": UnitMoved,
    "units_advanced": UnitsAdvanced,
    "units_bought": UnitsBought,
    "us_entered": UsEntered,
    "vichy_formed": VichyFormed,
    "war_declared": WarDeclared,
    "withdrawn": Withdrawn,
    "year_started": YearStarted,
}
