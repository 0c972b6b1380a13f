"""EUR-22 (Revised Sequence of Play): the Europa revised player turn as data.

A player turn is Initial, Movement, Air, Combat, Exploitation, Supply, Replacement. The list
below is what a Europa engine system runs: :func:`turn_phases` gives engine
:class:`~grognard.engine.phases.Phase` values for the players in turn order, and
:func:`turn_sequence` wraps them in a :class:`~grognard.engine.phases.TurnSequence`.

>>> [p.value for p in player_turn_phases()]
['initial', 'movement', 'air', 'combat', 'exploitation', 'supply', 'replacement']
>>> [(p.name, p.player) for p in turn_phases(["axis", "soviet"])][:3]
[('initial', 'axis'), ('movement', 'axis'), ('air', 'axis')]
>>> len(turn_sequence(["axis", "soviet"]).phases)
14
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.engine.phases import Phase, TurnSequence


class PlayerPhase(StrEnum):
    """EUR-22 The phases of one Europa revised player turn, in order."""

    INITIAL = "initial"
    MOVEMENT = "movement"
    AIR = "air"
    COMBAT = "combat"
    EXPLOITATION = "exploitation"
    SUPPLY = "supply"
    REPLACEMENT = "replacement"


PLAYER_TURN: tuple[PlayerPhase, ...] = tuple(PlayerPhase)


@dataclass(frozen=True, slots=True)
class PhaseActivities:
    """What a phase does (EUR-22), as data: the activities performed in it."""

    phase: PlayerPhase
    activities: tuple[str, ...]


#: EUR-22 What happens in each phase. The initial phase receives replacement points (not spent
#: until the replacement phase) and supply points, and has no supply check; the supply check is
#: the end-of-turn supply phase (EUR-30).
ACTIVITIES: Mapping[PlayerPhase, tuple[str, ...]] = {
    PlayerPhase.INITIAL: ("reinforcements", "withdrawals", "upgrades",
                          "receive_replacement_points", "receive_supply_points"),
    PlayerPhase.MOVEMENT: ("move", "overrun"),
    PlayerPhase.AIR: ("air_missions", "air_transfer", "fighter_sweep", "interception",
                      "ground_support", "interdiction", "airbase_attack", "strategic_bombing",
                      "airbase_repair"),
    PlayerPhase.COMBAT: ("barrage", "attack"),
    PlayerPhase.EXPLOITATION: ("exploitation_move", "overrun"),
    PlayerPhase.SUPPLY: ("supply_check", "isolation_attrition", "breakout", "mark_out_of_supply"),
    PlayerPhase.REPLACEMENT: ("spend_replacements",),
}

#: Engine command kinds allowed in each phase: the generic ``move``/``roll_table``, the Europa
#: system's combat (``attack``, ``allocate_losses``, ``retreat``) and rule-47 plan commands, and
#: the air commands (EUR-23..EUR-28). ``end_phase`` is always allowed. Extend per scenario with
#: ``turn_phases(players, extra=...)``.
SURPRISE_COMMANDS = ("designate_surprise", "reduce_surprise", "move_surprise_centre",
                     "delay_surprise", "start_surprise")
AIR_COMMANDS = ("air_mission", "air_transfer", "fly_missions", "fighter_sweep", "intercept",
                "ground_support", "interdiction", "airbase_attack", "strategic_bombing",
                "airbase_repair")
COMMANDS: Mapping[PlayerPhase, tuple[str, ...]] = {
    PlayerPhase.INITIAL: (*SURPRISE_COMMANDS, "roll_table"),
    PlayerPhase.MOVEMENT: ("move", "roll_table"),
    PlayerPhase.AIR: (*AIR_COMMANDS, "roll_table"),
    PlayerPhase.COMBAT: ("attack", "allocate_losses", "retreat", "roll_table"),
    PlayerPhase.EXPLOITATION: ("move", "roll_table"),
    PlayerPhase.SUPPLY: ("roll_table",),
    PlayerPhase.REPLACEMENT: ("roll_table",),
}


def player_turn_phases() -> tuple[PlayerPhase, ...]:
    """EUR-22 (Revised Sequence of Play) Initial, Movement, Air, Combat, Exploitation, Supply,
    Replacement."""
    return PLAYER_TURN


def phase_activities(phase: PlayerPhase | str) -> PhaseActivities:
    """EUR-22 The activities of ``phase``.

    >>> "receive_supply_points" in phase_activities("initial").activities
    True
    >>> "supply_check" in phase_activities("initial").activities
    False
    """
    p = parse_enum(PlayerPhase, phase, "phase")
    return PhaseActivities(p, ACTIVITIES[p])


def phase_of(activity: str) -> PlayerPhase:
    """EUR-22 The phase in which ``activity`` happens (e.g. replacements are spent in the
    replacement phase, after combat, exploitation and the supply phase).

    >>> phase_of("spend_replacements").value, phase_of("receive_replacement_points").value
    ('replacement', 'initial')
    """
    for p in PLAYER_TURN:
        if activity in ACTIVITIES[p]:
            return p
    raise InputError("activity", f"{activity!r} is not an activity of the revised turn")


def verify_activity(phase: PlayerPhase | str, activity: str) -> None:
    """EUR-22 Raise :class:`IllegalOrder` unless ``activity`` belongs to ``phase``."""
    p = parse_enum(PlayerPhase, phase, "phase")
    home = phase_of(activity)
    if home is not p:
        raise IllegalOrder("EUR-22", f"{activity} happens in the {home.value} phase, "
                                     f"not the {p.value} phase")


def can_activity(phase: PlayerPhase | str, activity: str) -> bool:
    """EUR-22 Whether ``activity`` may be performed in ``phase``."""
    try:
        verify_activity(phase, activity)
    except (IllegalOrder, InputError):
        return False
    return True


def turn_phases(players: Sequence[str],
                extra: Mapping[PlayerPhase | str, Sequence[str]] | None = None
                ) -> tuple[Phase, ...]:
    """EUR-22 Engine phases of one game turn: each player's revised player turn, in the order
    ``players`` are given (the phasing player acts in every phase; the non-phasing player's
    interceptions happen inside the phasing player's air phase, EUR-23/EUR-25). ``extra`` adds
    command kinds to phases (e.g. a system's own commands)."""
    if isinstance(players, str) or not players:
        raise InputError("players", "give the players in turn order")
    if len(set(players)) != len(players):
        raise InputError("players", "a player appears twice")
    cmds = {p: set(COMMANDS[p]) for p in PLAYER_TURN}
    for k, more in (extra or {}).items():
        if isinstance(more, str):
            raise InputError("extra", "give a list of command kinds per phase")
        cmds[parse_enum(PlayerPhase, k, "extra")] |= set(more)
    return tuple(Phase(p.value, player, frozenset(cmds[p]))
                 for player in players for p in PLAYER_TURN)


def turn_sequence(players: Sequence[str],
                  extra: Mapping[PlayerPhase | str, Sequence[str]] | None = None
                  ) -> TurnSequence:
    """EUR-22 :func:`turn_phases` as a :class:`TurnSequence` the engine can run."""
    return TurnSequence(turn_phases(players, extra))
