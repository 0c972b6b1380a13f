"""EF-17/EF-18 Alternative Play Rules: Sequential Activation (``003_bbc0beaac187b5b3.txt``).

An alternative turn structure, as a pure state machine (PokerKit pattern: ``can_x`` /
``verify_x`` / ``x(state, ...) -> (new_state, record)``). A month is a series of Activation
Phases; each phase runs the steps of EF-18:

1. ``roll_weather``: weather is rolled for the phase (the weather table is EXTERNAL: a hook);
2.-3. ``choose_chit``: each player secretly places a chit (HQ strength 0..3 and how many HQs);
   a zero chit when activating nothing. :func:`view` hides the opponent's chit until revealed;
4. ``reveal_and_roll``: chits are revealed; each side rolls 1D6 + the chit bonus (reading
   STRENGTH: +1/+2/+3; STRENGTH_SQUARED: +1/+4/+9); ties re-roll. Both chits zero: the month
   ends;
5. ``activate_hq``: the First Player activates as many of its chosen HQs as the score
   difference (all if fewer), then the Second Player all of its chosen HQs, then the First
   Player the rest;
6. ``end_phase``: supply is tested (EXTERNAL: a hook), blocks that moved by rail in the previous
   phase stand up, paradrops that failed to link up by the end of the following phase are
   reported.

EF-17 also: no Blitz phase (:func:`verify_blitz` always refuses), at most one amphibious
invasion per target hex per phase, surprise disruption is cancelled when the penalised side
becomes First Player (never in the first phase).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex
from grognard.eurofront.model import Side, Turn
from grognard.eurofront.readings import (
    ALL_RULES,
    DEFAULT_READINGS,
    EuroFrontReadings,
    InitiativeBonus,
    OptionalRule,
    OptionalRules,
    SurpriseExemption,
)

RULE = "EF-18"


class Step(StrEnum):
    WEATHER = "weather"
    CHOOSE = "choose"
    REVEAL = "reveal"
    FIRST_INITIAL = "first_initial"
    SECOND = "second"
    FIRST_REST = "first_rest"
    PHASE_END = "phase_end"
    MONTH_OVER = "month_over"


ACTIVATION_STEPS = frozenset({Step.FIRST_INITIAL, Step.SECOND, Step.FIRST_REST})


@dataclass(frozen=True)
class Chit:
    """An HQ Activation chit: the HQ strength class (0 = zero chit) and how many to activate."""

    strength: int
    count: int

    def __post_init__(self) -> None:
        if isinstance(self.strength, bool) or not isinstance(self.strength, int) \
                or not 0 <= self.strength <= 3:
            raise InputError("chit.strength", f"a chit is 0..3, not {self.strength!r}")
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 0:
            raise InputError("chit.count", f"must be a non-negative integer, not {self.count!r}")
        if (self.strength == 0) != (self.count == 0):
            raise InputError("chit.count", "a zero chit activates nothing; a 1..3 chit at "
                             "least one HQ")


@dataclass(frozen=True)
class Initiative:
    """EF-18 step 4-5: the scores, the First Player and how many HQs it activates first."""

    first: str | None  # None on a tie (re-roll)
    score_a: int
    score_b: int
    first_activates: int

    def to_json(self) -> dict[str, Any]:
        return {"first": self.first, "score_a": self.score_a, "score_b": self.score_b,
                "first_activates": self.first_activates}


def initiative_score(roll: int, chit_strength: int,
                     readings: EuroFrontReadings = DEFAULT_READINGS) -> int:
    """EF-18 1D6 + the chit bonus: +strength (STRENGTH) or +strength x strength.

    >>> initiative_score(3, 3), initiative_score(3, 3, EuroFrontReadings(
    ...     ef_initiative_bonus=InitiativeBonus.STRENGTH_SQUARED))
    (6, 12)
    """
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
        raise InputError("roll", f"a 1D6 roll is 1..6, not {roll!r}")
    if isinstance(chit_strength, bool) or not isinstance(chit_strength, int) \
            or not 0 <= chit_strength <= 3:
        raise InputError("chit", f"a chit is 0..3, not {chit_strength!r}")
    mult = chit_strength if readings.ef_initiative_bonus is InitiativeBonus.STRENGTH_SQUARED else 1
    return roll + mult * chit_strength


def initiative(roll_a: int, chit_a: int, roll_b: int, chit_b: int,
               readings: EuroFrontReadings = DEFAULT_READINGS) -> Initiative:
    """EF-18 Who is First Player, and how many HQs it activates before the Second Player.

    EF-TV01: 3 with a 3-chit against 5 with a 1-chit is 6 v 6, a tie (re-roll).

    >>> initiative(3, 3, 5, 1)
    Initiative(first=None, score_a=6, score_b=6, first_activates=0)
    """
    a = _score(roll_a, chit_a, readings, "roll_a", "chit_a")
    b = _score(roll_b, chit_b, readings, "roll_b", "chit_b")
    if a == b:
        return Initiative(None, a, b, 0)
    return Initiative("a" if a > b else "b", a, b, abs(a - b))


def _score(roll: int, chit: int, readings: EuroFrontReadings, rf: str, cf: str) -> int:
    try:
        return initiative_score(roll, chit, readings)
    except InputError as exc:
        raise InputError(rf if exc.field == "roll" else cf, exc.reason) from None


# ------------------------------------------------------------------------------ records


@dataclass(frozen=True)
class WeatherRolled:
    phase: int
    roll: int | None
    weather: str
    rule: str = "EF-17"


@dataclass(frozen=True)
class ChitChosen:
    side: Side
    phase: int
    chit: Chit  # secret: views strip it from the opponent until the reveal
    rule: str = RULE

    def seen_by(self, player: Side) -> dict[str, Any]:
        """EF-18 The event as ``player`` may see it: the chit only for its owner (the reveal
        is a later event, :class:`InitiativeRolled`)."""
        out: dict[str, Any] = {"side": self.side.value, "phase": self.phase, "rule": self.rule}
        if player is self.side:
            out["chit"] = {"strength": self.chit.strength, "count": self.chit.count}
        return out


@dataclass(frozen=True)
class InitiativeRolled:
    phase: int
    chits: tuple[tuple[Side, Chit], ...]
    rolls: tuple[tuple[Side, int], ...]
    scores: tuple[tuple[Side, int], ...]
    first: Side | None
    first_activates: int
    tie: bool
    month_over: bool
    surprise_cancelled: bool
    rule: str = RULE


@dataclass(frozen=True)
class HQActivated:
    phase: int
    side: Side
    hq_id: str
    strength: int
    step: Step
    rule: str = RULE


@dataclass(frozen=True)
class RailMoved:
    phase: int
    block_id: str
    rule: str = "EF-17"


@dataclass(frozen=True)
class AmphibiousInvasion:
    phase: int
    target: Hex
    rule: str = "EF-17"


@dataclass(frozen=True)
class Paradropped:
    phase: int
    block_id: str
    link_up_by: int  # end of this phase
    rule: str = "EF-17"


@dataclass(frozen=True)
class PhaseEnded:
    phase: int
    supply: Any  # what the supply hook returned (EXTERNAL supply rules)
    stood_up: tuple[str, ...]
    failed_link_ups: tuple[str, ...]
    rule: str = "EF-17"


# ------------------------------------------------------------------------------ state


@dataclass(frozen=True)
class ActivationState:
    """One month of sequential activation."""

    month: Turn
    hqs: Mapping[Side, Mapping[str, int]]  # HQ id -> strength points, per side
    phase: int = 1
    step: Step = Step.WEATHER
    chits: Mapping[Side, Chit] = field(default_factory=dict)
    revealed: bool = False
    first: Side | None = None
    remaining: Mapping[Side, int] = field(default_factory=dict)
    first_initial: int = 0
    activated_this_phase: frozenset[str] = frozenset()
    order: tuple[tuple[int, Side, str], ...] = ()  # (phase, side, HQ) in activation order
    weather: str | None = None
    surprised: Side | None = None  # the side penalised by surprise disruption
    rail_moved: Mapping[str, int] = field(default_factory=dict)  # block -> phase it rail-moved
    invasions: frozenset[Hex] = frozenset()
    paradrops: Mapping[str, int] = field(default_factory=dict)  # block -> link-up deadline


def start_month(month: Turn, hqs: Mapping[Side, Mapping[str, int]],
                surprised: Side | None = None, rules: OptionalRules = ALL_RULES,
                ) -> ActivationState:
    """EF-17 A month of Activation Phases (only when sequential activation is in play)."""
    if not rules.on(OptionalRule.SEQUENTIAL_ACTIVATION):
        raise IllegalOrder("EF-17", "sequential activation is not in play (player turns apply)")
    for side in Side:
        for hq, s in hqs.get(side, {}).items():
            if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= 3:
                raise InputError(f"hqs.{side.value}.{hq}", "an HQ has 1..3 strength points")
    return ActivationState(month, {s: dict(hqs.get(s, {})) for s in Side}, surprised=surprised)


def _need_step(state: ActivationState, *steps: Step) -> None:
    if state.step not in steps:
        raise IllegalOrder(RULE, f"not now: the phase is at step {state.step.value}, expected "
                           f"{' or '.join(s.value for s in steps)}")


WeatherHook = Callable[[Turn, int | None], str]


def standard_weather(month: Turn, roll: int | None) -> str:
    """Generic stand-in for the EXTERNAL weather table: in mud months (Mar, Apr, Oct, Nov) a
    1-2 is mud, in snow months (Dec..Feb) a 1-3 is snow; otherwise, and with no roll, clear."""
    if roll is None:
        return "clear"
    if month.month in (3, 4, 10, 11):
        return "mud" if roll <= 2 else "clear"
    if month.month in (12, 1, 2):
        return "snow" if roll <= 3 else "clear"
    return "clear"


def roll_weather(state: ActivationState, roll: int | None,
                 weather: WeatherHook = standard_weather,
                 ) -> tuple[ActivationState, WeatherRolled]:
    """EF-17/EF-18 step 1: weather is rolled in each Activation Phase (hook: EXTERNAL table)."""
    _need_step(state, Step.WEATHER)
    if roll is not None and (isinstance(roll, bool) or not isinstance(roll, int)
                             or not 1 <= roll <= 6):
        raise InputError("weather_roll", f"a 1D6 roll is 1..6, not {roll!r}")
    w = weather(state.month, roll)
    return (dataclasses.replace(state, step=Step.CHOOSE, weather=w),
            WeatherRolled(state.phase, roll, w))


def verify_choose_chit(state: ActivationState, side: Side, chit: Chit) -> None:
    _need_step(state, Step.CHOOSE)
    if side in state.chits:
        raise IllegalOrder(RULE, f"{side.value} has already placed a chit this phase")
    if chit.count:
        have = sum(1 for s in state.hqs.get(side, {}).values() if s == chit.strength)
        if chit.count > have:
            raise IllegalOrder(RULE, f"{side.value} has {have} HQs of strength {chit.strength}, "
                               f"not {chit.count}")


def can_choose_chit(state: ActivationState, side: Side, chit: Chit) -> bool:
    try:
        verify_choose_chit(state, side, chit)
    except IllegalOrder:
        return False
    return True


def choose_chit(state: ActivationState, side: Side, chit: Chit,
                ) -> tuple[ActivationState, ChitChosen]:
    """EF-18 steps 2-3: place a chit face down (a zero chit when activating nothing)."""
    verify_choose_chit(state, side, chit)
    chits = {**state.chits, side: chit}
    step = Step.REVEAL if len(chits) == 2 else Step.CHOOSE
    return dataclasses.replace(state, chits=chits, step=step), ChitChosen(side, state.phase, chit)


def view(state: ActivationState, player: Side) -> dict[str, Any]:
    """EF-18 (C-HIDDEN) What ``player`` may see: the opponent's chit only once revealed."""
    chits: dict[str, Any] = {}
    for side in Side:
        c = state.chits.get(side)
        if c is None:
            chits[side.value] = None
        elif side is player or state.revealed:
            chits[side.value] = {"strength": c.strength, "count": c.count}
        else:
            chits[side.value] = {"placed": True}
    return {
        "month": str(state.month),
        "phase": state.phase,
        "step": state.step.value,
        "weather": state.weather,
        "chits": chits,
        "revealed": state.revealed,
        "first": state.first.value if state.first else None,
        "remaining": {s.value: n for s, n in state.remaining.items()},
        "order": [[p, s.value, hq] for p, s, hq in state.order],
        "surprised": state.surprised.value if state.surprised else None,
    }


def verify_reveal(state: ActivationState, rolls: Mapping[Side, int] | None) -> None:
    _need_step(state, Step.REVEAL)
    if all(c.strength == 0 for c in state.chits.values()):
        return
    if rolls is None or set(rolls) != set(Side):
        raise InputError("rolls", "one initiative 1D6 per side is needed")


def surprise_exempt(state: ActivationState, first_month: bool,
                    readings: EuroFrontReadings = DEFAULT_READINGS) -> bool:
    """EF-17 Is this the "first Activation Phase", in which surprise disruption is never
    cancelled? Reading ``ef_surprise_exemption``: WAR (default) the war's first phase, phase 1
    of the first month (``first_month``: this month is the war's first); MONTH phase 1 of every
    month.

    >>> july = start_month(Turn(1941, 7), {})
    >>> surprise_exempt(july, first_month=False)
    False
    >>> surprise_exempt(july, first_month=False, readings=EuroFrontReadings(
    ...     ef_surprise_exemption=SurpriseExemption.MONTH))
    True
    """
    if readings.ef_surprise_exemption is SurpriseExemption.MONTH:
        return state.phase == 1
    return first_month and state.phase == 1


def reveal_and_roll(state: ActivationState, rolls: Mapping[Side, int] | None,
                    readings: EuroFrontReadings = DEFAULT_READINGS,
                    exempt: bool | None = None,
                    ) -> tuple[ActivationState, InitiativeRolled]:
    """EF-18 steps 4-5: reveal the chits, roll initiative; ties re-roll; two zero chits end the
    month. Surprise disruption is cancelled when the penalised side becomes First Player, never
    in the first Activation Phase (EF-17): ``exempt`` says whether this phase is that one
    (:func:`surprise_exempt`); None: phase 1 of the month this machine runs."""
    verify_reveal(state, rolls)
    chits = tuple((s, state.chits[s]) for s in Side)
    if all(c.strength == 0 for _, c in chits):
        new = dataclasses.replace(state, revealed=True, step=Step.MONTH_OVER)
        return new, InitiativeRolled(state.phase, chits, (), (), None, 0, False, True, False)
    assert rolls is not None
    scores = {s: _score(rolls[s], state.chits[s].strength, readings, f"rolls.{s.value}",
                        f"chits.{s.value}") for s in Side}
    roll_t = tuple((s, rolls[s]) for s in Side)
    score_t = tuple((s, scores[s]) for s in Side)
    if scores[Side.AXIS] == scores[Side.ALLIES]:
        return (dataclasses.replace(state, revealed=True),
                InitiativeRolled(state.phase, chits, roll_t, score_t, None, 0, True, False, False))
    first = Side.AXIS if scores[Side.AXIS] > scores[Side.ALLIES] else Side.ALLIES
    diff = abs(scores[Side.AXIS] - scores[Side.ALLIES])
    initial = min(diff, state.chits[first].count)
    if exempt is None:
        exempt = state.phase == 1
    cancel = state.surprised is first and not exempt
    new = dataclasses.replace(
        state, revealed=True, first=first, first_initial=initial,
        remaining={s: state.chits[s].count for s in Side},
        surprised=None if cancel else state.surprised, step=Step.FIRST_INITIAL)
    new = _advance(new)
    return new, InitiativeRolled(state.phase, chits, roll_t, score_t, first, initial, False,
                                 False, cancel)


def player_to_act(state: ActivationState) -> Side | None:
    """EF-18 step 5: the side whose HQ activates next (None outside the activation steps)."""
    if state.first is None:
        return None
    if state.step is Step.SECOND:
        return state.first.opponent
    if state.step in (Step.FIRST_INITIAL, Step.FIRST_REST):
        return state.first
    return None


def _advance(state: ActivationState) -> ActivationState:
    """Skip activation steps with nothing left to activate."""
    assert state.first is not None
    first, second = state.first, state.first.opponent
    step = state.step
    if step is Step.FIRST_INITIAL and state.first_initial == 0:
        step = Step.SECOND
    if step is Step.SECOND and state.remaining.get(second, 0) == 0:
        step = Step.FIRST_REST
    if step is Step.FIRST_REST and state.remaining.get(first, 0) == 0:
        step = Step.PHASE_END
    return dataclasses.replace(state, step=step)


def verify_activate_hq(state: ActivationState, side: Side, hq_id: str) -> None:
    """EF-18 step 5: it is ``side``'s turn to activate, and the HQ matches its chit."""
    if state.step not in ACTIVATION_STEPS:
        raise IllegalOrder(RULE, f"no HQ activation now (step {state.step.value})")
    who = player_to_act(state)
    if side is not who:
        assert who is not None
        raise IllegalOrder(RULE, f"it is {who.value}'s turn to activate")
    strength = state.hqs.get(side, {}).get(hq_id)
    if strength is None:
        raise InputError("hq_id", f"{side.value} has no HQ {hq_id!r}")
    if strength != state.chits[side].strength:
        raise IllegalOrder(RULE, f"HQ {hq_id} has {strength} strength points; the chit is for "
                           f"{state.chits[side].strength}")
    if hq_id in state.activated_this_phase:
        raise IllegalOrder(RULE, f"HQ {hq_id} has already activated this phase")


def can_activate_hq(state: ActivationState, side: Side, hq_id: str) -> bool:
    try:
        verify_activate_hq(state, side, hq_id)
    except (IllegalOrder, InputError):
        return False
    return True


def activate_hq(state: ActivationState, side: Side, hq_id: str,
                ) -> tuple[ActivationState, HQActivated]:
    """EF-18 step 5: activate one HQ of the chosen strength."""
    verify_activate_hq(state, side, hq_id)
    remaining = {**state.remaining, side: state.remaining[side] - 1}
    initial = state.first_initial
    step = state.step
    if step is Step.FIRST_INITIAL:
        initial -= 1
        if initial == 0:
            step = Step.SECOND
    new = dataclasses.replace(
        state, remaining=remaining, first_initial=initial, step=step,
        activated_this_phase=state.activated_this_phase | {hq_id},
        order=(*state.order, (state.phase, side, hq_id)))
    return _advance(new), HQActivated(state.phase, side, hq_id, state.hqs[side][hq_id],
                                      state.step)


def can_move_block(state: ActivationState, block_id: str) -> bool:
    """EF-17 A block that moved by rail cannot move in the following Activation Phase."""
    return state.rail_moved.get(block_id) != state.phase - 1


def record_rail_move(state: ActivationState, block_id: str,
                     ) -> tuple[ActivationState, RailMoved]:
    """EF-17 Note a rail move: the block stands out the next phase."""
    if state.step not in ACTIVATION_STEPS:
        raise IllegalOrder("EF-17", "blocks move during HQ activations")
    if not can_move_block(state, block_id):
        raise IllegalOrder("EF-17", f"block {block_id} moved by rail last phase; it cannot move "
                           "until it stands up at the end of this phase")
    return (dataclasses.replace(state, rail_moved={**state.rail_moved, block_id: state.phase}),
            RailMoved(state.phase, block_id))


def verify_amphibious_invasion(state: ActivationState, target: Hex) -> None:
    """EF-17 At most one amphibious invasion per target hex per Activation Phase."""
    if state.step not in ACTIVATION_STEPS:
        raise IllegalOrder("EF-17", "invasions happen during HQ activations")
    if target in state.invasions:
        raise IllegalOrder("EF-17", f"hex {tuple(target)} has already been invaded this phase")


def amphibious_invasion(state: ActivationState, target: Hex,
                        ) -> tuple[ActivationState, AmphibiousInvasion]:
    verify_amphibious_invasion(state, target)
    return (dataclasses.replace(state, invasions=state.invasions | {target}),
            AmphibiousInvasion(state.phase, target))


def paradrop(state: ActivationState, block_id: str) -> tuple[ActivationState, Paradropped]:
    """EF-17 A paradrop must link up by the end of the following Activation Phase."""
    if state.step not in ACTIVATION_STEPS:
        raise IllegalOrder("EF-17", "paradrops happen during HQ activations")
    deadline = state.phase + 1
    return (dataclasses.replace(state, paradrops={**state.paradrops, block_id: deadline}),
            Paradropped(state.phase, block_id, deadline))


def verify_blitz(state: ActivationState) -> None:
    """EF-17 There is no Blitz phase (multiple HQ activations replace it)."""
    raise IllegalOrder("EF-17", "there is no Blitz phase under sequential activation")


SupplyHook = Callable[[ActivationState], Any]


def end_phase(state: ActivationState, supply: SupplyHook = lambda s: None,
              linked_up: Callable[[str], bool] = lambda block_id: True,
              ) -> tuple[ActivationState, PhaseEnded]:
    """EF-17 End of an Activation Phase: supply test (hook), rail-moved blocks of the previous
    phase stand up, paradrops past their deadline without link-up are reported; next phase."""
    _need_step(state, Step.PHASE_END)
    report = supply(state)
    stood = tuple(sorted(b for b, p in state.rail_moved.items() if p == state.phase - 1))
    rail = {b: p for b, p in state.rail_moved.items() if p >= state.phase}
    failed = tuple(sorted(b for b, d in state.paradrops.items()
                          if d == state.phase and not linked_up(b)))
    paras = {b: d for b, d in state.paradrops.items() if d > state.phase}
    new = dataclasses.replace(
        state, phase=state.phase + 1, step=Step.WEATHER, chits={}, revealed=False, first=None,
        remaining={}, first_initial=0, activated_this_phase=frozenset(), weather=None,
        rail_moved=rail, invasions=frozenset(), paradrops=paras)
    return new, PhaseEnded(state.phase, report, stood, failed)


def surprise_disrupted(state: ActivationState, side: Side) -> bool:
    """EF-17/EF-03 Is ``side`` still under surprise disruption (and so the 5-hex rail limit)?"""
    return state.surprised is side


# ------------------------------------------------------------------------------ JSON


def state_to_json(state: ActivationState) -> dict[str, Any]:
    """The full (referee's) state as JSON, for saving or an engine's state store.

    Use :func:`view` for what a player may see.
    """
    return {
        "month": str(state.month),
        "hqs": {s.value: dict(state.hqs.get(s, {})) for s in Side},
        "phase": state.phase,
        "step": state.step.value,
        "chits": {s.value: [c.strength, c.count] for s, c in state.chits.items()},
        "revealed": state.revealed,
        "first": state.first.value if state.first else None,
        "remaining": {s.value: n for s, n in state.remaining.items()},
        "first_initial": state.first_initial,
        "activated_this_phase": sorted(state.activated_this_phase),
        "order": [[p, s.value, hq] for p, s, hq in state.order],
        "weather": state.weather,
        "surprised": state.surprised.value if state.surprised else None,
        "rail_moved": dict(state.rail_moved),
        "invasions": sorted([h.q, h.r] for h in state.invasions),
        "paradrops": dict(state.paradrops),
    }


def state_from_json(raw: Mapping[str, Any]) -> ActivationState:
    """Inverse of :func:`state_to_json`; bad fields raise :class:`InputError` naming them."""
    try:
        return ActivationState(
            month=Turn.parse(raw["month"], "month"),
            hqs={Side(s): dict(v) for s, v in raw["hqs"].items()},
            phase=int(raw["phase"]),
            step=Step(raw["step"]),
            chits={Side(s): Chit(int(c[0]), int(c[1])) for s, c in raw["chits"].items()},
            revealed=bool(raw["revealed"]),
            first=Side(raw["first"]) if raw["first"] else None,
            remaining={Side(s): int(n) for s, n in raw["remaining"].items()},
            first_initial=int(raw["first_initial"]),
            activated_this_phase=frozenset(raw["activated_this_phase"]),
            order=tuple((int(p), Side(s), str(h)) for p, s, h in raw["order"]),
            weather=raw["weather"],
            surprised=Side(raw["surprised"]) if raw["surprised"] else None,
            rail_moved={str(b): int(p) for b, p in raw["rail_moved"].items()},
            invasions=frozenset(Hex(int(q), int(r)) for q, r in raw["invasions"]),
            paradrops={str(b): int(p) for b, p in raw["paradrops"].items()},
        )
    except KeyError as exc:
        raise InputError(f"activation.{exc.args[0]}", "missing") from None
    except (TypeError, ValueError) as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError("activation", f"malformed state: {exc}") from None
