"""The EuroFront state and event payloads, declared (issue 22 item 2).

The state stays the plain JSON dict described in prose in :mod:`grognard.eurofront.game_state`
(saved and hashed as canonical JSON by ``engine/state.py``); these ``TypedDict`` s say the same
in types, at no cost at run time. ``initial_state`` (system.py) returns an :class:`EFState`;
tests/engine/test_state_types.py replays the refactor oracle's EuroFront games and checks
every sampled state and every event's payload against these declarations, so they stay true.

Each top-level key says what it holds, the rule it serves and when it is reset: *activation
phase*, *month* (a game turn is a month), *command* (set and cleared by the commands of one
exchange) or *never*.

No ``from __future__ import annotations`` here: Python 3.11 then counts ``NotRequired`` keys
as required in ``__required_keys__``.
"""

from typing import Any, Literal, NotRequired, TypedDict

from grognard.engine.state_types import Obj


class Block(TypedDict):
    """A block (``state["units"][id]``, :func:`grognard.eurofront.blocks.block_from_unit`)."""

    side: str  # axis / allies
    hex: str | None  # where it stands
    hidden: bool  # face down to the opponent (blocks stand upright: C-HIDDEN)
    kind: str  # infantry, armour, mechanised, hq ...
    hq: str | None  # an HQ's class (None: not an HQ)
    steps: int  # its strength now (steps left)
    max: int  # its full strength
    fp: int  # firepower
    mp: int  # movement allowance
    moved: int  # hexes moved in the operation under way (reset when it closes)
    name: str


class DestroyedBlock(Block):
    """A destroyed block (``state["destroyed"][side][id]``, EF-02 delayed rebuild)."""

    face_down: bool  # EF-02: it went face down (rebuilt later)


class Activation(TypedDict):
    """The public part of the activation machine (eurofront/activation.state_to_json without
    ``hqs``, which are derived from the blocks; EF-17, EF-18)."""

    month: str  # "1941-06" (the game turn; month)
    phase: int  # the Activation Phase of the month (1..)
    step: str  # weather, choose, reveal, activation, phase_end ...
    chits: dict[str, list[int]]  # side -> [strength, count] once revealed (EF-18)
    revealed: bool  # both chits revealed (EF-18)
    first: str | None  # the side with the initiative (EF-18)
    remaining: dict[str, int]  # side -> activations left this phase
    first_initial: int
    activated_this_phase: list[str]  # HQs activated this phase
    order: list[list[Any]]  # [phase, side, HQ] in the order activated (EF-17)
    weather: str | None  # this month's weather (None before the roll)
    surprised: str | None  # the side surprised this month (EF-03), or None
    rail_moved: dict[str, int]  # block -> rail moves made this month
    invasions: list[list[int]]  # hexes invaded (axial q, r)
    paradrops: Obj  # paratroop moves made (EF-09)


class Operation(TypedDict):
    """The HQ activation being carried out (``state["operation"]``)."""

    side: str
    hq: str  # the activated HQ
    hex: str  # its hex
    range: int  # its command range
    air: str | None  # the air use chosen (support, disruption ...)
    closing: NotRequired[bool]  # its battles are being fought (operation_ending)
    hq_lost: NotRequired[bool]  # its HQ was destroyed while it ran (game_state.destroy)


class Hits(TypedDict):
    attacker: int
    defender: int


class Owed(TypedDict):
    side: str
    hits: int


class BattleState(TypedDict):
    """The battle being fought (``state["battle"]``)."""

    hex: str
    attacker: str
    defender: str
    round: int
    rounds: int
    stage: str  # fire_defender, fire_attacker, losses, retreat ...
    owed: Owed | None  # step losses owed (take_loss)
    hits: Hits
    retreat: str | None  # the side owing a retreat
    air: int  # air dice of the battle (EF-08)


#: A production programme of the U-boat war: its key in :class:`Production` (EF-04, EF-06).
Programme = Literal["uboat_pp", "escort_pp"]


class Production(TypedDict):
    """The month-end production phase (``state["production"]``, PROD)."""

    done: list[str]  # sides done
    uboat_pp: int | None  # EF-04: PP allocated to U-boats
    escort_pp: int | None  # EF-06: PP allocated to escorts


class Apd(TypedDict):
    """Airpower Disrupted markers and disrupted HQs (EF-11..EF-16)."""

    markers: dict[str, list[str]]  # hex -> markers
    hq_disrupted: list[str]  # HQs disrupted (EF-15)


class UboatMonth(TypedDict):
    """A month of the U-boat war (EF-04..EF-07)."""

    turn: str  # the month
    uboat_pp: int
    escort_pp: int
    allied_pp: int


class Config(TypedDict):
    """Readings the folds need (fixed at the start)."""

    hq_activations: int


class EFState(TypedDict):
    """The whole EuroFront state (what ``initial_state`` returns and the folds keep)."""

    scenario: str  # the scenario's id (never)
    system: str  # "eurofront" (never)
    sides: list[str]  # axis, allies (never)
    turn: int  # the game turn (month_started)
    phase: int  # the index in the sequence (the activation events move it)
    secrets: dict[str, Obj]  # side -> its chit until revealed (EF-18; C-HIDDEN)
    units: dict[str, Block]  # every block on the map by id
    destroyed: dict[str, dict[str, DestroyedBlock]]  # side -> destroyed blocks (EF-02; never)
    activation: Activation  # the activation machine (EF-17, EF-18; month / phase)
    control: dict[str, str]  # hex -> side (after every move and battle)
    pp: dict[str, int]  # side -> production points on hand (PROD; never)
    operation: Operation | None  # the HQ activation under way (EF-17; command)
    battle: BattleState | None  # the battle being fought (command)
    battle_queue: list[str]  # hexes of the battles to come (operation)
    production: Production | None  # the production phase (PROD; None outside it)
    hq_uses: dict[str, int]  # HQ -> activations this month (EF-17; month)
    apd: Apd  # Airpower Disruption (EF-11..EF-16; markers removed per EF-14)
    uboats: list[UboatMonth]  # the U-boat history (EF-04..EF-07; never)
    strategic_moves: dict[str, int]  # side -> Strategic Moves left (EF-09; month)
    air_superiority_lost: bool  # the Allies lack Air Superiority (EF-07; month)
    config: Config  # readings the folds need (never)


# --- event payloads (Event.data), one per kind ----------------------------------------------
class ActivationPhaseEnded(TypedDict):
    """``activation_phase_ended``."""
    face_down: list[str]
    failed_link_ups: list[Any]
    out_of_supply: dict[str, int]
    phase: int
    stood_up: list[str]


class ApdMarkerRemoved(TypedDict):
    """``apd_marker_removed``."""
    hex: str
    side: str


class ApdResolved(TypedDict):
    """``apd_resolved``."""
    battle_hq_in_range: bool
    difference: int
    effective: bool
    enemy_markers_removed: int
    hq: str
    own_hq_disrupted: bool
    results: list[str]
    rolls: list[int]
    rules: list[str]
    side: str
    target: str


class BattleEnded(TypedDict):
    """``battle_ended``."""
    hex: str
    winner: str


class BattleFire(TypedDict):
    """``battle_fire``."""
    air_rolls: list[int]
    hex: str
    hits: int
    role: Literal["attacker", "defender"]
    rolls: dict[str, list[int]]
    round: int
    side: str


class BattleStarted(TypedDict):
    """``battle_started``."""
    air_dice: int
    attacker: str
    blocks: Obj
    defender: str
    hex: str
    rounds: int
    rules: list[str]


BlockMoved = TypedDict("BlockMoved", {
    "block": str, "from": str, "phase": int, "side": str, "to": str})
"""``block_moved``."""


BlockRetreated = TypedDict("BlockRetreated", {
    "block": str, "from": str, "side": str, "to": str})
"""``block_retreated``."""


class ChitPlaced(TypedDict):
    """``chit_placed``."""
    count: int
    side: str
    strength: int


class ChitsRevealed(TypedDict):
    """``chits_revealed``."""
    chits: dict[str, list[int]]
    last: str


class HqActivated(TypedDict):
    """``hq_activated``."""
    hex: str
    hq: str
    phase: int
    range: int
    side: str
    step: str
    strength: int


class InitiativeRolled(TypedDict):
    """``initiative_rolled``."""
    bonus: str
    chits: dict[str, list[int]]
    first: str | None
    first_activates: int
    income: dict[str, int] | None
    month_over: bool
    phase: int
    rolls: dict[str, int]
    scores: dict[str, int]
    surprise_cancelled: bool
    tie: bool


class LossesForced(TypedDict):
    """``losses_forced``."""
    blocks: list[str]
    face_down: list[str]
    hex: str
    side: str


class MonthStarted(TypedDict):
    """``month_started``."""
    apd_removed: list[Any]
    face_up: list[str]
    month: str
    rules: list[str]
    strategic_moves: int
    uboat: Obj


class OperationClosed(TypedDict):
    """``operation_closed``."""
    hq: str
    side: str


class OperationEnding(TypedDict):
    """``operation_ending``."""
    battles: list[str]
    hq: str
    side: str


ParaMoved = TypedDict("ParaMoved", {
    "block": str, "cost": int, "from": str, "phase": int, "side": str, "to": str})
"""``para_moved``."""


class ProductionEnded(TypedDict):
    """``production_ended``."""
    side: str


class ProgrammeAllocated(TypedDict):
    """``programme_allocated``."""
    pp: int
    programme: Programme
    rules: list[str]
    side: str


RailMoved = TypedDict("RailMoved", {
    "block": str, "from": str, "limit": int, "phase": int, "rules": list[str], "side": str,
    "to": str})
"""``rail_moved``."""


class RetreatOrdered(TypedDict):
    """``retreat_ordered``."""
    hex: str
    side: str


class StepBuilt(TypedDict):
    """``step_built``."""
    block: str
    cost: int
    side: str


class StepLost(TypedDict):
    """``step_lost``."""
    block: str
    face_down: bool
    hex: str
    side: str
    steps: int


class WeatherRolled(TypedDict):
    """``weather_rolled``."""
    phase: int
    roll: int
    weather: str


class BlockEliminated(TypedDict):
    """``block_eliminated`` (EF-02; operations.py): not met in the sampled games, declared
    from the code."""

    block: str
    hex: str
    reason: str
    face_down: bool


class BlockRebuilt(TypedDict):
    """``block_rebuilt`` (EF-02, PROD): not met in the sampled games, declared from the code."""

    block: str
    side: str
    at: str
    cost: int


#: Every event kind of the system -> its payload's declared type (``Event.data``).
EVENTS: dict[str, Any] = {
    "activation_phase_ended": ActivationPhaseEnded,
    "apd_marker_removed": ApdMarkerRemoved,
    "apd_resolved": ApdResolved,
    "battle_ended": BattleEnded,
    "battle_fire": BattleFire,
    "battle_started": BattleStarted,
    "block_eliminated": BlockEliminated,
    "block_moved": BlockMoved,
    "block_rebuilt": BlockRebuilt,
    "block_retreated": BlockRetreated,
    "chit_placed": ChitPlaced,
    "chits_revealed": ChitsRevealed,
    "hq_activated": HqActivated,
    "initiative_rolled": InitiativeRolled,
    "losses_forced": LossesForced,
    "month_started": MonthStarted,
    "operation_closed": OperationClosed,
    "operation_ending": OperationEnding,
    "para_moved": ParaMoved,
    "production_ended": ProductionEnded,
    "programme_allocated": ProgrammeAllocated,
    "rail_moved": RailMoved,
    "retreat_ordered": RetreatOrdered,
    "step_built": StepBuilt,
    "step_lost": StepLost,
    "weather_rolled": WeatherRolled,
}

