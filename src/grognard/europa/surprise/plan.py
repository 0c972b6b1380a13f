"""Europa rule 47.A.2: a local surprise plan as a state machine (SUR-04..SUR-11, SUR-14).

Designate, reduce the planning time, reduce the level, move the centre hex, delay, start. Each
operation follows the PokerKit pattern (``can_x`` / ``verify_x`` / ``x``); ``x`` returns the new
plan and a frozen record carrying every number (the engine's event). A plan keeps a
:class:`~grognard.core.ledger.Ledger` of the SRPs and SPs it has consumed, with the rule and
cause of every posting, in exact arithmetic.

>>> plan, rec = designate(DesignationOrder(PlanKey("axis", "AGC", "europe"), "2515", 30,
...                       turn=1, target_turn=7))
>>> plan, red = reduce_level(plan, 10, turn=7)
>>> red.srp_returned, red.sp_returned
(Fraction(16, 1), Fraction(544, 5))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.exact import exact_json
from grognard.core.ledger import Ledger
from grognard.europa.surprise.budget import (
    REDUCTION_REFUND,
    _plain_json,
    centre_move_effect,
    delay_cost,
    lead_turns,
    round_refund,
)
from grognard.europa.surprise.front import (
    CentreHex,
    FundingKind,
    FundingSource,
    funding_problems,
    verify_centre,
)
from grognard.europa.surprise.general import (
    DEFAULT_READINGS,
    PlanKey,
    ReductionRefundTo,
    SurpriseCost,
    SurpriseKind,
    SurpriseReadings,
    _check_level,
    surprise_cost,
    verify_designate_limit,
)

SRP = "srp"
SP = "sp"

# --------------------------------------------------------------------------------------------
# The plan
# --------------------------------------------------------------------------------------------


class PlanStatus(StrEnum):
    PLANNED = "planned"
    STARTED = "started"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class SurprisePlan:
    """SUR-01/SUR-05 A local surprise plan (hidden from the enemy until the front is marked).

    ``cost_srp`` / ``cost_sp`` are the surprise's standing cost, the base of the SUR-04 half
    refund (the designated SRPs and the current level's SPs); ``ledger`` holds what the plan has
    consumed, account ``srp`` and ``sp`` (spending positive, refunds negative).
    """

    key: PlanKey
    centre: str
    designated_turn: int
    designated_level: int
    level: int
    earliest_turn: int
    target_turn: int | None
    weather_trigger: str | None
    sources: tuple[FundingSource, ...]
    cost_srp: Fraction
    cost_sp: Fraction
    reduced_planning: bool = False
    status: PlanStatus = PlanStatus.PLANNED
    delay_turns: int = 0
    kind: SurpriseKind = SurpriseKind.LOCAL
    ledger: Ledger = field(default_factory=Ledger)

    @property
    def cost(self) -> SurpriseCost:
        """The cost row of the current (effective) level."""
        return surprise_cost(self.level, SurpriseReadings(surprise_allow_formula_above_40=True))

    @property
    def re_cap(self) -> int:
        """SUR-13 At most RE(level) REs may benefit."""
        return self.cost.re

    @property
    def srp_spent(self) -> Fraction:
        return self.ledger.balance(SRP)

    @property
    def sp_spent(self) -> Fraction:
        return self.ledger.balance(SP)

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.key.side, "command": self.key.command, "continent": self.key.continent,
            "kind": self.kind.value, "status": self.status.value, "centre": self.centre,
            "designated_turn": self.designated_turn, "designated_level": self.designated_level,
            "level": self.level, "re_cap": self.re_cap, "earliest_turn": self.earliest_turn,
            "target_turn": self.target_turn, "weather_trigger": self.weather_trigger,
            "reduced_planning": self.reduced_planning, "delay_turns": self.delay_turns,
            "cost_srp": exact_json(self.cost_srp), "cost_sp": exact_json(self.cost_sp),
            "srp_spent": exact_json(self.srp_spent), "sp_spent": exact_json(self.sp_spent),
            "ledger": self.ledger.to_json(),
        }


def view(plan: SurprisePlan, player: str) -> dict[str, Any] | None:
    """Hidden information: the planning side sees its whole plan; the enemy sees nothing until
    the surprise starts (the front is marked, SUR-12), and then only the centre, level and kind.
    """
    if player == plan.key.side:
        return plan.to_json()
    if plan.status is not PlanStatus.STARTED:
        return None
    return {"side": plan.key.side, "kind": plan.kind.value, "centre": plan.centre,
            "level": plan.level, "status": plan.status.value}


@dataclass(frozen=True)
class DesignationOrder:
    """SUR-05 An order to designate a surprise turn (in an initial phase)."""

    key: PlanKey
    centre: str
    level: int
    turn: int
    target_turn: int | None = None
    weather_trigger: str | None = None
    reduced_planning: bool = False
    sources: tuple[FundingSource, ...] = ()
    centre_hex: CentreHex | None = None


@dataclass(frozen=True)
class Designated:
    """Record of SUR-05: a surprise designated and paid for."""

    side: str
    command: str
    centre: str
    level: int
    srp_spent: int
    sp_spent: int
    re_cap: int
    lead_turns: int
    earliest_turn: int
    target_turn: int | None
    weather_trigger: str | None
    reduced_planning: bool
    paid_from: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return _plain_json(self)


def _designation_problems(order: DesignationOrder, active: Sequence[PlanKey],
                          readings: SurpriseReadings) -> None:
    _check_level(order.level, readings)
    verify_designate_limit(order.key, active)
    if order.centre_hex is not None:
        verify_centre(order.centre_hex)
    if order.target_turn is None and order.weather_trigger is None:
        raise InputError("target_turn", "designate a surprise turn or a weather trigger")
    lead = lead_turns(order.level, reduced=order.reduced_planning, readings=readings)
    if order.target_turn is not None and order.target_turn - order.turn < lead:
        raise IllegalOrder("SUR-05", f"a level-{order.level} surprise must be designated at least "
                           f"{lead} turn(s) ahead (turn {order.turn} -> earliest "
                           f"{order.turn + lead}, not {order.target_turn})")
    cost = surprise_cost(order.level, readings)
    if order.sources:
        srp = sum((Fraction(s.srp) for s in order.sources), Fraction(0))
        sp = sum((Fraction(s.sp) for s in order.sources), Fraction(0))
        if srp != cost.srp or sp != cost.sp:
            raise IllegalOrder("SUR-05", f"the sources pay {exact_json(srp)} SRPs and "
                               f"{exact_json(sp)} SPs; a level-{order.level} surprise costs "
                               f"{cost.srp} SRPs and {cost.sp} SPs")
        problems = funding_problems(order.sources, order.level, readings=readings)
        if problems:
            raise IllegalOrder("SUR-08", "; ".join(problems))


def can_designate_plan(order: DesignationOrder, active: Sequence[PlanKey] = (),
                       readings: SurpriseReadings = DEFAULT_READINGS) -> bool:
    """SUR-05 Whether :func:`designate` would accept ``order``."""
    try:
        _designation_problems(order, active, readings)
    except (IllegalOrder, InputError):
        return False
    return True


def verify_designate(order: DesignationOrder, active: Sequence[PlanKey] = (),
                     readings: SurpriseReadings = DEFAULT_READINGS) -> None:
    """SUR-05/07/08/14 Raise the first reason ``order`` is illegal."""
    _designation_problems(order, active, readings)


def designate(order: DesignationOrder, active: Sequence[PlanKey] = (),
              readings: SurpriseReadings = DEFAULT_READINGS) -> tuple[SurprisePlan, Designated]:
    """SUR-05 (47.A.2.a, d) Designate a local surprise: pay every SRP and SP now.

    The turn is at least ``ceil(level/5)`` turns ahead (halved, rounded down, with reduced
    planning); or a weather trigger at the centre sets it (the first qualifying turn from the
    earliest one). One plan per front/command per continent (SUR-14); funding per SUR-08.
    """
    verify_designate(order, active, readings)
    cost = surprise_cost(order.level, readings)
    lead = lead_turns(order.level, reduced=order.reduced_planning, readings=readings)
    paid = tuple(s.label or s.kind.value for s in order.sources) or ("unspecified",)
    ledger = (Ledger()
              .post(SRP, cost.srp, "SUR-05", f"designation of a level-{order.level} surprise")
              .post(SP, cost.sp, "SUR-05", f"designation of a level-{order.level} surprise"))
    plan = SurprisePlan(order.key, order.centre, order.turn, order.level, order.level,
                        order.turn + lead, order.target_turn, order.weather_trigger,
                        order.sources, Fraction(cost.srp), Fraction(cost.sp),
                        order.reduced_planning, ledger=ledger)
    rec = Designated(order.key.side, order.key.command, order.centre, order.level, cost.srp,
                     cost.sp, cost.re, lead, order.turn + lead, order.target_turn,
                     order.weather_trigger, order.reduced_planning, paid)
    return plan, rec


def _verify_planned(plan: SurprisePlan, rule: str) -> None:
    if plan.status is not PlanStatus.PLANNED:
        raise IllegalOrder(rule, f"the surprise plan is {plan.status.value}, not planned")


@dataclass(frozen=True)
class PlanningReduced:
    """Record of SUR-06."""

    lead_turns_before: int
    lead_turns_after: int
    earliest_turn: int
    target_turn: int | None
    refund_forfeited_srp: Fraction
    refund_forfeited_sp: Fraction

    def to_json(self) -> dict[str, Any]:
        return _plain_json(self)


def verify_reduce_planning(plan: SurprisePlan, new_target_turn: int | None = None) -> None:
    """SUR-06 Raise when the plan cannot have its planning time reduced."""
    _verify_planned(plan, "SUR-06")
    if plan.reduced_planning:
        raise IllegalOrder("SUR-06", "the planning time is already reduced")
    lead = lead_turns(plan.designated_level, reduced=True,
                      readings=SurpriseReadings(surprise_allow_formula_above_40=True))
    if new_target_turn is not None and new_target_turn < plan.designated_turn + lead:
        raise IllegalOrder("SUR-06", f"with reduced planning the surprise is at the earliest on "
                           f"turn {plan.designated_turn + lead}, not {new_target_turn}")


def can_reduce_planning(plan: SurprisePlan, new_target_turn: int | None = None) -> bool:
    try:
        verify_reduce_planning(plan, new_target_turn)
    except IllegalOrder:
        return False
    return True


def reduce_planning(plan: SurprisePlan, new_target_turn: int | None = None,
                    readings: SurpriseReadings = DEFAULT_READINGS,
                    ) -> tuple[SurprisePlan, PlanningReduced]:
    """SUR-06 (47.A.2.b) Halve the planning time (rounded down), at any time. No SRPs or SPs
    come back at the start of the surprise (SUR-04)."""
    verify_reduce_planning(plan, new_target_turn)
    before = lead_turns(plan.designated_level, readings=SurpriseReadings(
        surprise_allow_formula_above_40=True))
    after = before // 2
    target = plan.target_turn if new_target_turn is None else new_target_turn
    new = replace(plan, reduced_planning=True, earliest_turn=plan.designated_turn + after,
                  target_turn=target)
    rec = PlanningReduced(before, after, new.earliest_turn, target,
                          round_refund(plan.cost_srp / 2, readings),
                          round_refund(plan.cost_sp / 2, readings))
    return new, rec


def _verify_attack_turn(plan: SurprisePlan, turn: int, rule: str) -> None:
    if turn < plan.earliest_turn:
        raise IllegalOrder(rule, f"turn {turn} is before the surprise's earliest turn "
                           f"{plan.earliest_turn}")
    if plan.target_turn is not None and turn != plan.target_turn:
        raise IllegalOrder(rule, f"turn {turn} is not the designated surprise turn "
                           f"{plan.target_turn}")


@dataclass(frozen=True)
class LevelReduced:
    """Record of SUR-09."""

    from_level: int
    to_level: int
    re_cap: int
    srp_returned: Fraction
    sp_returned: Fraction
    returned_to: str

    def to_json(self) -> dict[str, Any]:
        return _plain_json(self)


def refund_destination(plan: SurprisePlan, readings: SurpriseReadings) -> str:
    """SUR-09 reading ``surprise_reduction_refund_to``: where a reduction's refund goes."""
    mode = readings.surprise_reduction_refund_to
    if mode is ReductionRefundTo.NATIONAL_POOL:
        return "national_pool"
    if mode is ReductionRefundTo.ORIGINAL_AREA:
        return "original_area"
    kinds = {s.kind for s in plan.sources}
    if kinds == {FundingKind.NATIONAL_POOL}:
        return "national_pool"
    if kinds and FundingKind.NATIONAL_POOL not in kinds:
        return "original_area"
    return "sources"


def verify_reduce_level(plan: SurprisePlan, new_level: int, turn: int) -> None:
    """SUR-09 Raise when the level cannot be reduced to ``new_level`` on ``turn``."""
    _verify_planned(plan, "SUR-09")
    if isinstance(new_level, bool) or not isinstance(new_level, int) or new_level < 1:
        raise InputError("new_level", f"a surprise level is at least 1 SRP (got {new_level!r})")
    if new_level >= plan.level:
        raise IllegalOrder("SUR-09", f"the level may only be reduced (now {plan.level}, asked "
                           f"{new_level}); raising it means restarting the designation")
    _verify_attack_turn(plan, turn, "SUR-09")


def can_reduce_level(plan: SurprisePlan, new_level: int, turn: int) -> bool:
    try:
        verify_reduce_level(plan, new_level, turn)
    except (IllegalOrder, InputError):
        return False
    return True


def reduce_level(plan: SurprisePlan, new_level: int, turn: int,
                 readings: SurpriseReadings = DEFAULT_READINGS,
                 ) -> tuple[SurprisePlan, LevelReduced]:
    """SUR-09 (47.A.2.e) On the turn of the attack, lower the level: 80% of the SRP difference
    and of the SP difference come back; the new level's costs and effects apply from now on."""
    verify_reduce_level(plan, new_level, turn)
    any_level = SurpriseReadings(surprise_allow_formula_above_40=True)
    old, new = surprise_cost(plan.level, any_level), surprise_cost(new_level, any_level)
    srp_back = REDUCTION_REFUND * (old.srp - new.srp)
    sp_back = REDUCTION_REFUND * (old.sp - new.sp)
    where = refund_destination(plan, readings)
    cause = f"reduction from level {old.level} to {new.level}: 80% back to {where}"
    ledger = plan.ledger.post(SRP, -srp_back, "SUR-09", cause).post(SP, -sp_back, "SUR-09", cause)
    out = replace(plan, level=new_level, cost_srp=Fraction(new.srp), cost_sp=Fraction(new.sp),
                  ledger=ledger)
    return out, LevelReduced(old.level, new.level, new.re, srp_back, sp_back, where)


@dataclass(frozen=True)
class CentreMoved:
    """Record of SUR-10."""

    from_centre: str
    to_centre: str
    hexes_moved: int
    from_level: int
    effective_level: int
    re_cap: int
    srp_spent: Fraction
    sp_spent: int
    sp_returned: int
    cancelled: bool
    returned_to: str

    def to_json(self) -> dict[str, Any]:
        return _plain_json(self)


def verify_move_centre(plan: SurprisePlan, new_centre: str, hexes_moved: int,
                       centre_hex: CentreHex | None = None) -> None:
    """SUR-10 Raise when the centre cannot move this way."""
    _verify_planned(plan, "SUR-10")
    if isinstance(hexes_moved, bool) or not isinstance(hexes_moved, int) or hexes_moved < 1:
        raise InputError("hexes_moved", f"a moved centre moves at least 1 hex (got {hexes_moved!r})")
    if new_centre == plan.centre:
        raise InputError("new_centre", "the new centre hex is the current one")
    if centre_hex is not None:
        verify_centre(centre_hex)


def can_move_centre(plan: SurprisePlan, new_centre: str, hexes_moved: int,
                    centre_hex: CentreHex | None = None) -> bool:
    try:
        verify_move_centre(plan, new_centre, hexes_moved, centre_hex)
    except (IllegalOrder, InputError):
        return False
    return True


def move_centre(plan: SurprisePlan, new_centre: str, hexes_moved: int,
                centre_hex: CentreHex | None = None,
                ) -> tuple[SurprisePlan, CentreMoved]:
    """SUR-10 (47.A.2.f) Move the centre hex (forced by the enemy or by choice): the effective
    level drops one per hex; the designated SRPs stay spent; the SPs beyond the reduced level's
    come back in full to depots within 20 infantry MPs of the original centre. Moving ``level``
    hexes or more cancels the plan."""
    verify_move_centre(plan, new_centre, hexes_moved, centre_hex)
    any_level = SurpriseReadings(surprise_allow_formula_above_40=True)
    eff = centre_move_effect(plan.level, hexes_moved, srp_spent=0, readings=any_level)
    where = f"depots within 20 infantry MPs of {plan.centre}"
    cause = (f"centre moved {hexes_moved} hexes {plan.centre} -> {new_centre}: level "
             f"{plan.level} -> {eff.effective_level}")
    ledger = plan.ledger.post(SP, -eff.sp_returned, "SUR-10", cause) if eff.sp_returned else \
        plan.ledger
    status = PlanStatus.CANCELLED if eff.cancelled else plan.status
    level = plan.level if eff.cancelled else eff.effective_level
    out = replace(plan, centre=new_centre, level=level, cost_sp=Fraction(eff.sp_spent),
                  status=status, ledger=ledger)
    rec = CentreMoved(plan.centre, new_centre, hexes_moved, plan.level, eff.effective_level,
                      eff.re, plan.cost_srp, eff.sp_spent, eff.sp_returned, eff.cancelled, where)
    return out, rec


@dataclass(frozen=True)
class Delayed:
    """Record of SUR-11."""

    turns: int
    weather_wait: bool
    srp_cost: Fraction
    sp_cost: Fraction
    target_turn: int | None

    def to_json(self) -> dict[str, Any]:
        return _plain_json(self)


def verify_delay(plan: SurprisePlan, turns: int, weather_wait: bool) -> None:
    """SUR-11 Raise when the plan cannot be delayed this way."""
    _verify_planned(plan, "SUR-11")
    if isinstance(turns, bool) or not isinstance(turns, int) or turns < 1:
        raise InputError("turns", f"a delay is at least 1 turn (got {turns!r})")
    if weather_wait and plan.weather_trigger is None:
        raise IllegalOrder("SUR-11", "a free delay needs a designated weather trigger")


def can_delay(plan: SurprisePlan, turns: int = 1, weather_wait: bool = False) -> bool:
    try:
        verify_delay(plan, turns, weather_wait)
    except (IllegalOrder, InputError):
        return False
    return True


def delay(plan: SurprisePlan, turns: int = 1, *, weather_wait: bool = False,
          ) -> tuple[SurprisePlan, Delayed]:
    """SUR-11 (47.A.2.g) Delay the surprise: free while the designated weather has not come;
    otherwise a quarter of the designation SRPs and SPs per turn."""
    verify_delay(plan, turns, weather_wait)
    cost = delay_cost(plan.designated_level, turns, weather_wait=weather_wait,
                      readings=SurpriseReadings(surprise_allow_formula_above_40=True))
    ledger = plan.ledger
    if not weather_wait:
        cause = f"{turns} turn(s) of delay at 1/4 of the designation cost"
        ledger = ledger.post(SRP, cost.srp_cost, "SUR-11", cause).post(SP, cost.sp_cost,
                                                                       "SUR-11", cause)
    target = None if plan.target_turn is None else plan.target_turn + turns
    out = replace(plan, target_turn=target, delay_turns=plan.delay_turns + turns, ledger=ledger)
    return out, Delayed(turns, weather_wait, cost.srp_cost, cost.sp_cost, target)


@dataclass(frozen=True)
class SurpriseStarted:
    """Record of SUR-04: the surprise starts and half of its cost comes back (or not)."""

    turn: int
    level: int
    re_cap: int
    srp_refund: Fraction
    sp_refund: Fraction
    forfeited: bool
    placement: str

    def to_json(self) -> dict[str, Any]:
        return _plain_json(self)


PLACEMENT = ("on friendly units within 5 hexes of the front line, or in supply units, depots "
             "or HQs within 20 hexes of the surprise front")


def verify_start(plan: SurprisePlan, turn: int, weather_met: bool | None = None) -> None:
    """SUR-04/05 Raise when the surprise cannot start on ``turn``."""
    _verify_planned(plan, "SUR-05")
    _verify_attack_turn(plan, turn, "SUR-05")
    if plan.weather_trigger is not None and plan.target_turn is None and not weather_met:
        raise IllegalOrder("SUR-05", f"the designated weather ({plan.weather_trigger}) has not "
                           "occurred at the centre hex")


def can_start(plan: SurprisePlan, turn: int, weather_met: bool | None = None) -> bool:
    try:
        verify_start(plan, turn, weather_met)
    except IllegalOrder:
        return False
    return True


def start(plan: SurprisePlan, turn: int, weather_met: bool | None = None,
          readings: SurpriseReadings = DEFAULT_READINGS,
          ) -> tuple[SurprisePlan, SurpriseStarted]:
    """SUR-04 (47.A.1 note; 47.A.2.d) At the start of the surprise phase half of the standing
    cost (designated SRPs and current-level SPs) comes back onto the map; nothing with reduced
    planning. Delay payments are not refunded."""
    verify_start(plan, turn, weather_met)
    if plan.reduced_planning:
        srp_back, sp_back = Fraction(0), Fraction(0)
        ledger = plan.ledger
    else:
        srp_back = round_refund(plan.cost_srp / 2, readings)
        sp_back = round_refund(plan.cost_sp / 2, readings)
        cause = "start of the surprise phase: half comes back " + PLACEMENT
        ledger = plan.ledger.post(SRP, -srp_back, "SUR-04", cause).post(SP, -sp_back, "SUR-04",
                                                                         cause)
    out = replace(plan, status=PlanStatus.STARTED, target_turn=turn, ledger=ledger)
    return out, SurpriseStarted(turn, plan.level, plan.re_cap, srp_back, sp_back,
                                plan.reduced_planning, PLACEMENT)

