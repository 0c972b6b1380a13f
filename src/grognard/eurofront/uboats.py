"""EF-04..EF-07 Increased U-boat Production affects Allied Shipping (``003_bbc0beaac187b5b3.txt``).

The U-boat programme is a pure function of its history: one :class:`UboatTurn` per monthly turn
(the Axis U-boat PP, the Allied escort PP, who holds Norway, France/Brest, Spain and Gibraltar,
the Allied PP outside the UK) up to and including the turn being resolved.

Order inside a turn (reading): the production phase comes first (this turn's allocations are
recorded), then the U-boat rolls of "the beginning of the season".

* EF-04: a season with >= 5 PP allocated in every turn (a "full season") makes the next season's
  first turn roll the Axis trigger (1D6). On success the Allies roll for shipping losses on every
  lot of 5 PP not resident in the UK, Arctic convoy PP added: once (reading SEASON) or in every
  turn of that season (reading TURN). An allocation under 5 PP ends all benefits from the
  following production phase; a new full season is then needed.
* EF-05: modifiers, each -1 (on the trigger roll by default, reading TRIGGER: success on
  1 + modifiers or less, a natural 6 always fails; or on the Allied loss rolls, LOSS_ROLL):
  escalation (one per 5 PP held above the first 5 for the whole previous season; the allocation
  may rise by at most 5 PP per turn each season), Norway & France (held since the end of the
  previous season), Spain or Gibraltar (held since the previous production phase).
* EF-06: each full season of >= 5 PP escort development cancels one Norway & France or
  Spain/Gibraltar modifier from the next season on. Three consecutive turns in which the escort
  allocation matches the U-boat allocation (>= 5 PP) with no modifier in effect nullify the
  programme for good.
* EF-07: in a turn in which the Allies must roll for shipping losses they lose Air Superiority.

The Allied Atlantic Shipping Losses procedure itself is EXTERNAL: the generic stand-in is one
1D6 per lot, lost on ``BaseRules.shipping_loss_max_roll`` (default 1) or less after modifiers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any

from grognard.core.dice import DiceStream, Distribution
from grognard.core.errors import IllegalOrder, InputError, parse_enum
from grognard.core.inputs import load_json_file
from grognard.eurofront.model import (
    DEFAULT_BASE,
    BaseRules,
    Turn,
    parse_bool,
    parse_int,
)
from grognard.eurofront.readings import (
    ALL_RULES,
    DEFAULT_READINGS,
    EuroFrontReadings,
    NorwayFranceMode,
    OptionalRule,
    OptionalRules,
    UboatDrmTarget,
    UboatRollFrequency,
)

PROGRAM_PP = 5  # the allocation unit: "5 PP per turn"
NULLIFY_TURNS = 3  # "matches the U-boat PP allocation for three turns"
FORMAT = "grognard-ef-uboat-history/1"


class SpainStatus(StrEnum):
    NEUTRAL = "neutral"
    COOPERATING = "cooperating"
    JOINED = "joined"
    SURRENDERED = "surrendered"


@dataclass(frozen=True)
class UboatTurn:
    """One turn of the U-boat/escort history (allocations made in its production phase)."""

    turn: Turn
    uboat_pp: int = 0
    escort_pp: int = 0
    norway: bool = False  # Norway Axis-controlled
    france: bool = False  # France Axis-controlled with Brest in rail supply
    spain: SpainStatus = SpainStatus.NEUTRAL
    gibraltar: bool = False  # Gibraltar Axis
    allied_pp_outside_uk: int = 0  # Allied PP not resident in the UK
    arctic_convoy_pp: int = 0  # Arctic convoy supply to the USSR (also rolls, EF-04)
    trigger_roll: int | None = None  # the Axis trigger roll made this turn, if one was

    def __post_init__(self) -> None:
        for f in ("uboat_pp", "escort_pp", "allied_pp_outside_uk", "arctic_convoy_pp"):
            v = getattr(self, f)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InputError(f"turn {self.turn}.{f}", f"must be a non-negative integer, "
                                 f"not {v!r}")
        if self.trigger_roll is not None and not 1 <= self.trigger_roll <= 6:
            raise InputError(f"turn {self.turn}.trigger_roll", "a 1D6 roll is 1..6")


@dataclass(frozen=True)
class UboatHistory:
    """Consecutive monthly turns, oldest first; the last one is the turn being resolved."""

    turns: tuple[UboatTurn, ...]

    def __post_init__(self) -> None:
        if not self.turns:
            raise InputError("turns", "the history needs at least one turn")
        for a, b in zip(self.turns, self.turns[1:], strict=False):
            if b.turn.ordinal != a.turn.ordinal + 1:
                raise InputError(f"turns[{self.turns.index(b)}].turn",
                                 f"turns must be consecutive months ({a.turn} then {b.turn})")

    @property
    def current(self) -> UboatTurn:
        return self.turns[-1]


@dataclass(frozen=True)
class UboatModifiers:
    """EF-05/EF-06 modifiers in effect in one turn (each worth -1)."""

    escalation: int
    norway_france: int
    spain_gibraltar: int
    cancelled: int  # escort cancellations applied (EF-06)

    @property
    def total(self) -> int:
        return self.escalation + self.norway_france + self.spain_gibraltar - self.cancelled


@dataclass(frozen=True)
class UboatStatus:
    """What the history implies for its last turn, before any die is rolled."""

    turn: Turn
    benefits: bool  # a full season funded and not stopped since
    modifiers: UboatModifiers
    escort_seasons: int  # full seasons of escort development so far (EF-06)
    matched_turns: int  # consecutive matching turns ending now (EF-06)
    nullified: bool
    trigger_due: bool  # the Axis rolls the trigger this turn
    losses_due: bool | None  # loss rolls due this turn (None: depends on this turn's trigger)
    lots: int  # lots of 5 PP outside the UK


@dataclass(frozen=True)
class ShippingRoll:
    lot: int
    roll: int
    modified: int
    lost: bool


@dataclass(frozen=True)
class UboatTurnResolved:
    """The record of one turn's U-boat rolls (EF-04..EF-07)."""

    turn: Turn
    modifiers: int
    trigger_roll: int | None
    trigger_success: bool | None
    shipping_rolls: tuple[ShippingRoll, ...]
    pp_lost: int
    nullified: bool
    air_superiority_lost: bool  # EF-07
    rule: str = "EF-04"

    def to_json(self) -> dict[str, Any]:
        """The ``grognard eurofront uboat --json`` output."""
        return {
            "trigger_roll": self.trigger_roll,
            "modifiers": self.modifiers,
            "shipping_rolls": [
                {"lot": r.lot, "roll": r.roll, "modified": r.modified, "lost": r.lost}
                for r in self.shipping_rolls
            ],
            "nullified": self.nullified,
        }


def _seasons(history: UboatHistory, base: BaseRules) -> dict[int, list[UboatTurn]]:
    out: dict[int, list[UboatTurn]] = {}
    for t in history.turns:
        out.setdefault(t.turn.season_index(base), []).append(t)
    return out


def _full_season(turns: list[UboatTurn], base: BaseRules) -> bool:
    """Does the history hold all six turns of this season?"""
    return len(turns) == 6 and turns[0].turn.starts_season(base)


def held_units(turns: list[UboatTurn], base: BaseRules = DEFAULT_BASE) -> int:
    """EF-04/05 Lots of 5 PP the Axis held for a full season (0 when not held every turn)."""
    if not _full_season(turns, base):
        return 0
    return min(t.uboat_pp for t in turns) // PROGRAM_PP


def _escort_full(turns: list[UboatTurn], base: BaseRules) -> bool:
    return _full_season(turns, base) and all(t.escort_pp >= PROGRAM_PP for t in turns)


def verify_uboat_history(history: UboatHistory, base: BaseRules = DEFAULT_BASE) -> None:
    """EF-05 "The increase can only be 5 PP/turn each Season": each turn's U-boat allocation is
    at most 5 PP above the level held through the whole previous season."""
    seasons = _seasons(history, base)
    for idx, turns in seasons.items():
        prev = held_units(seasons.get(idx - 1, []), base)
        cap = PROGRAM_PP * (prev + 1)
        for t in turns:
            if t.uboat_pp > cap:
                raise IllegalOrder("EF-05", f"turn {t.turn}: U-boat allocation {t.uboat_pp} PP "
                                   f"exceeds {cap} PP (at most 5 PP more per turn than the "
                                   "previous season's level)")


def norway_france_held(t: UboatTurn, readings: EuroFrontReadings = DEFAULT_READINGS) -> bool:
    """EF-05 item 2: Norway and France (Brest in rail supply) Axis; EITHER under the switch."""
    if readings.ef_norway_france_mode is NorwayFranceMode.EITHER:
        return t.norway or t.france
    return t.norway and t.france


def spain_gibraltar_held(t: UboatTurn) -> bool:
    """EF-05 item 3: Spain cooperating/joined/surrendered, or Gibraltar Axis."""
    return t.spain is not SpainStatus.NEUTRAL or t.gibraltar


def uboat_status(history: UboatHistory, readings: EuroFrontReadings = DEFAULT_READINGS,
                 base: BaseRules = DEFAULT_BASE, rules: OptionalRules = ALL_RULES,
                 ) -> UboatStatus:
    """EF-04..EF-06 The U-boat programme's state in the history's last turn.

    >>> h = UboatHistory(tuple(UboatTurn(Turn(1940, m), uboat_pp=5, allied_pp_outside_uk=20)
    ...                        for m in range(4, 11)))
    >>> s = uboat_status(h)
    >>> s.trigger_due, s.lots, s.modifiers.total
    (True, 4, 0)
    """
    verify_uboat_history(history, base)
    turns = history.turns
    now = history.current
    seasons = _seasons(history, base)
    sidx = now.turn.season_index(base)
    this_season = seasons[sidx]
    prev_season = seasons.get(sidx - 1, [])
    prev_units = held_units(prev_season, base)
    # "less than 5 PP ... the following production phase all benefits end"
    stopped = any(t.uboat_pp < PROGRAM_PP for t in this_season[:-1])
    on = rules.on(OptionalRule.ENHANCED_UBOATS)
    benefits = on and prev_units >= 1 and not stopped
    escalation = max(0, prev_units - 1) if benefits else 0

    i_now = len(turns) - 1

    def nf_effective(i: int) -> bool:
        t = turns[i]
        s = t.turn.season_index(base)
        start = next((j for j in range(i, -1, -1) if turns[j].turn.season_index(base) < s), None)
        if start is None:
            return False
        return all(norway_france_held(turns[j], readings) for j in range(start, i + 1))

    def sg_effective(i: int) -> bool:
        return i >= 1 and spain_gibraltar_held(turns[i - 1]) and spain_gibraltar_held(turns[i])

    def cancellations(i: int) -> int:
        s = turns[i].turn.season_index(base)
        return sum(1 for k, ts in seasons.items() if k < s and _escort_full(ts, base))

    def mods(i: int, esc: int) -> UboatModifiers:
        nf, sg = int(nf_effective(i)), int(sg_effective(i))
        return UboatModifiers(esc, nf, sg, min(nf + sg, cancellations(i)))

    # EF-06 nullification: three consecutive matching turns with no modifier in effect
    nullified = False
    run = 0
    for i, t in enumerate(turns):
        if nullified:
            break
        esc_i = _escalation_at(history, i, base) if on else 0
        matched = (t.uboat_pp >= PROGRAM_PP and t.escort_pp >= t.uboat_pp
                   and mods(i, esc_i).total == 0)
        run = run + 1 if matched else 0
        if run >= NULLIFY_TURNS:
            nullified = True
    if not on:
        nullified = False
    modifiers = mods(i_now, escalation)
    lots = (now.allied_pp_outside_uk + now.arctic_convoy_pp) // base.shipping_lot_pp
    trigger_due = benefits and not nullified and now.turn.starts_season(base)
    if not benefits or nullified:
        losses_due: bool | None = False
    elif trigger_due:
        losses_due = None
    elif readings.ef_uboat_roll_frequency is UboatRollFrequency.TURN:
        first = this_season[0]
        if first.trigger_roll is None:
            raise InputError(f"turn {first.turn}.trigger_roll",
                             "the season's trigger roll is needed (reading TURN)")
        season_mods = mods(turns.index(first), escalation)
        losses_due = trigger_succeeds(first.trigger_roll, season_mods.total, readings)
    else:
        losses_due = False
    return UboatStatus(now.turn, benefits, modifiers, cancellations(i_now), run if not nullified
                       else NULLIFY_TURNS, nullified, trigger_due, losses_due, lots)


def _escalation_at(history: UboatHistory, i: int, base: BaseRules) -> int:
    sub = UboatHistory(history.turns[: i + 1])
    seasons = _seasons(sub, base)
    now = sub.current
    sidx = now.turn.season_index(base)
    prev_units = held_units(seasons.get(sidx - 1, []), base)
    stopped = any(t.uboat_pp < PROGRAM_PP for t in seasons[sidx][:-1])
    return max(0, prev_units - 1) if prev_units >= 1 and not stopped else 0


def trigger_succeeds(roll: int, modifiers: int,
                     readings: EuroFrontReadings = DEFAULT_READINGS) -> bool:
    """EF-04/EF-05 The Axis trigger roll: a '1' succeeds; under TRIGGER each modifier widens it.

    EF-TV04: with two modifiers (TRIGGER reading) the roll succeeds on 1-3. A natural 6 always
    fails.

    >>> [r for r in range(1, 7) if trigger_succeeds(r, 2)]
    [1, 2, 3]
    >>> [r for r in range(1, 7) if trigger_succeeds(r, 9)]
    [1, 2, 3, 4, 5]
    """
    _check_d6(roll, "trigger_roll")
    if readings.ef_uboat_drm_target is UboatDrmTarget.LOSS_ROLL:
        return roll == 1
    return roll != 6 and roll - modifiers <= 1


def shipping_loss(roll: int, modifiers: int, readings: EuroFrontReadings = DEFAULT_READINGS,
                  base: BaseRules = DEFAULT_BASE) -> tuple[int, bool]:
    """EF-04/EF-05 One Allied Atlantic Shipping Losses roll for a 5-PP lot (generic stand-in for
    the EXTERNAL procedure): (modified roll, lot lost)."""
    _check_d6(roll, "shipping_roll")
    drm = modifiers if readings.ef_uboat_drm_target is UboatDrmTarget.LOSS_ROLL else 0
    modified = roll - drm
    return modified, modified <= base.shipping_loss_max_roll


def trigger_probability(modifiers: int,
                        readings: EuroFrontReadings = DEFAULT_READINGS) -> Fraction:
    """EF-04 Exact chance the trigger succeeds (the same function over the 1D6 distribution).

    >>> trigger_probability(0), trigger_probability(2)
    (Fraction(1, 6), Fraction(1, 2))
    """
    return Distribution.of("1d6").map(lambda r: trigger_succeeds(r, modifiers, readings)).get(
        True, Fraction(0))


def _check_d6(roll: int, field: str) -> None:
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
        raise InputError(field, f"a 1D6 roll is 1..6, not {roll!r}")


def uboat_program_step(history: UboatHistory, trigger_roll: int | None,
                       shipping_rolls: Sequence[int],
                       readings: EuroFrontReadings = DEFAULT_READINGS,
                       base: BaseRules = DEFAULT_BASE, rules: OptionalRules = ALL_RULES,
                       ) -> UboatTurnResolved:
    """EF-04..EF-07 Resolve the history's last turn with the given rolls.

    ``trigger_roll`` must be given exactly when the trigger is due; ``shipping_rolls`` must hold
    one roll per lot when loss rolls are due, none otherwise.
    """
    st = uboat_status(history, readings, base, rules)
    success: bool | None = None
    if st.trigger_due:
        if trigger_roll is None:
            raise InputError("trigger_roll", f"the trigger roll is due in {st.turn}")
        success = trigger_succeeds(trigger_roll, st.modifiers.total, readings)
        due = success
    else:
        if trigger_roll is not None:
            raise InputError("trigger_roll", f"no trigger roll is due in {st.turn}")
        due = bool(st.losses_due)
    rolls: list[ShippingRoll] = []
    if due:
        if len(shipping_rolls) != st.lots:
            raise InputError("shipping_rolls", f"{st.lots} rolls needed (one per "
                             f"{base.shipping_lot_pp} PP outside the UK), got {len(shipping_rolls)}")
        for i, r in enumerate(shipping_rolls, start=1):
            modified, lost = shipping_loss(r, st.modifiers.total, readings, base)
            rolls.append(ShippingRoll(i, r, modified, lost))
    elif shipping_rolls:
        raise InputError("shipping_rolls", f"no shipping-loss rolls are due in {st.turn}")
    lost_pp = sum(base.shipping_lot_pp for r in rolls if r.lost)
    return UboatTurnResolved(st.turn, st.modifiers.total, trigger_roll if st.trigger_due else None,
                             success, tuple(rolls), lost_pp, st.nullified,
                             air_superiority_lost=due)


def roll_uboat_turn(history: UboatHistory, dice: DiceStream,
                    readings: EuroFrontReadings = DEFAULT_READINGS,
                    base: BaseRules = DEFAULT_BASE, rules: OptionalRules = ALL_RULES,
                    ) -> UboatTurnResolved:
    """EF-04..EF-07 Resolve the last turn drawing the rolls it needs from ``dice``."""
    st = uboat_status(history, readings, base, rules)
    trigger = dice.die(6) if st.trigger_due else None
    due = (trigger_succeeds(trigger, st.modifiers.total, readings) if trigger is not None
           else bool(st.losses_due))
    rolls = [dice.die(6) for _ in range(st.lots)] if due else []
    return uboat_program_step(history, trigger, rolls, readings, base, rules)


def allied_air_superiority(base_superiority: bool, shipping_losses_this_turn: bool,
                           rules: OptionalRules = ALL_RULES) -> bool:
    """EF-07 In a turn the Allies are subject to shipping losses they lack Air Superiority
    (base Rule 13.3, EXTERNAL: its own verdict is ``base_superiority``).

    >>> allied_air_superiority(True, True), allied_air_superiority(True, False)
    (False, True)
    """
    if shipping_losses_this_turn and rules.on(OptionalRule.ENHANCED_UBOATS):
        return False
    return base_superiority


# --------------------------------------------------------------------------- file format


def history_from_json(raw: Mapping[str, Any]) -> tuple[UboatHistory, EuroFrontReadings,
                                                       BaseRules, OptionalRules]:
    """Parse the U-boat history file (docs/formats/eurofront.md), naming bad fields."""
    if not isinstance(raw, Mapping):
        raise InputError("history", "must be a JSON object")
    fmt = raw.get("format", FORMAT)
    if fmt != FORMAT:
        raise InputError("format", f"expected {FORMAT!r}, not {fmt!r}")
    readings = EuroFrontReadings.from_mapping(raw.get("readings", {}), "readings")
    base = BaseRules.from_mapping(raw.get("base", {}), "base")
    rules = (OptionalRules.from_names(raw["rules"], "rules") if "rules" in raw
             else ALL_RULES)
    turns_raw = raw.get("turns")
    if not isinstance(turns_raw, list) or not turns_raw:
        raise InputError("turns", "must be a non-empty list of turn objects")
    turns = []
    for i, t in enumerate(turns_raw):
        w = f"turns[{i}]"
        if not isinstance(t, Mapping):
            raise InputError(w, "must be an object")
        known = {"turn", "uboat_pp", "escort_pp", "norway", "france", "spain", "gibraltar",
                 "allied_pp_outside_uk", "arctic_convoy_pp", "trigger_roll"}
        extra = set(t) - known
        if extra:
            raise InputError(f"{w}.{sorted(extra)[0]}", "unknown field")
        if "turn" not in t:
            raise InputError(f"{w}.turn", "missing")
        tr = t.get("trigger_roll")
        if tr is not None and (isinstance(tr, bool) or not isinstance(tr, int)):
            raise InputError(f"{w}.trigger_roll", "must be an integer 1..6 or null")
        turns.append(UboatTurn(
            turn=Turn.parse(t["turn"], f"{w}.turn"),
            uboat_pp=parse_int(t, "uboat_pp", w, 0),
            escort_pp=parse_int(t, "escort_pp", w, 0),
            norway=parse_bool(t, "norway", w),
            france=parse_bool(t, "france", w),
            spain=parse_enum(SpainStatus, t.get("spain", "neutral"), f"{w}.spain"),
            gibraltar=parse_bool(t, "gibraltar", w),
            allied_pp_outside_uk=parse_int(t, "allied_pp_outside_uk", w, 0),
            arctic_convoy_pp=parse_int(t, "arctic_convoy_pp", w, 0),
            trigger_roll=tr,
        ))
    return UboatHistory(tuple(turns)), readings, base, rules


def load_history(path: Path | str) -> tuple[UboatHistory, EuroFrontReadings, BaseRules,
                                            OptionalRules]:
    raw = load_json_file(path, "U-boat history")
    return history_from_json(raw)
