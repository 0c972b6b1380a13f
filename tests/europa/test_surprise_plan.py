"""SUR-04..SUR-11: the surprise plan state machine (designate, reduce, move, delay, start).

Source: /work/shared/seeds/000_0eee5b9a7c244d48.txt (Europa rule 47.A.2).
"""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grognard.core.errors import IllegalOrder, InputError
from grognard.europa.surprise.budget import (
    centre_move_effect,
    delay_cost,
    lead_turns,
    planning,
    reduction_refund,
)
from grognard.europa.surprise.front import (
    CentreHex,
    FundingKind,
    FundingSource,
)
from grognard.europa.surprise.general import (
    PlanKey,
    ReductionRefundTo,
    RefundRounding,
    SurpriseReadings,
    surprise_cost,
)
from grognard.europa.surprise.plan import (
    DesignationOrder,
    PlanStatus,
    can_delay,
    can_designate_plan,
    can_move_centre,
    can_reduce_level,
    can_reduce_planning,
    can_start,
    delay,
    designate,
    move_centre,
    reduce_level,
    reduce_planning,
    start,
    view,
)

KEY = PlanKey("axis", "AGC", "europe")


def _plan(level=30, turn=1, target=None, **kw):
    target = turn + lead_turns(level) if target is None else target
    return designate(DesignationOrder(KEY, "2515", level, turn=turn, target_turn=target, **kw))


def test_sur05_tv06_lead_time_one_turn_per_five_srps():
    """SUR-TV06 (DERIVED), seed 000 §47.A.2.a: "at least one turn ahead of time ... for every
    5 SRPs (or portion thereof)"."""
    assert [lead_turns(s) for s in (1, 5, 6, 10, 11, 30)] == [1, 1, 2, 2, 3, 6]


def test_sur05_06_tv04_reduced_planning_five_srp():
    """SUR-TV04, seed 000 §47.A.2.b: "if a 5 SRP/5 SP cost surprise turn could be planned in the
    initial phase and executed in the same turn but in this case 2½ SRPs and 2½ SPs would not be
    placed back on the map"."""
    normal, reduced = planning(5), planning(5, reduced=True)
    assert (normal.lead_turns, reduced.lead_turns) == (1, 0)
    assert (normal.refund_srp, normal.refund_sp) == (Fraction(5, 2), Fraction(5, 2))
    assert (reduced.refund_srp, reduced.refund_sp) == (0, 0)
    assert (reduced.forfeited_srp, reduced.forfeited_sp) == (Fraction(5, 2), Fraction(5, 2))
    # as a plan: designated reduced in the initial phase of turn 4, executed on turn 4
    plan, rec = designate(DesignationOrder(KEY, "2515", 5, turn=4, target_turn=4,
                                           reduced_planning=True))
    assert rec.lead_turns == 0 and plan.earliest_turn == 4
    plan, started = start(plan, 4)
    assert started.forfeited and started.srp_refund == 0 and started.sp_refund == 0
    assert (plan.srp_spent, plan.sp_spent) == (5, 5)


def test_sur05_designation_too_late_is_illegal():
    with pytest.raises(IllegalOrder, match="SUR-05.*at least 2 turn"):
        designate(DesignationOrder(KEY, "2515", 10, turn=1, target_turn=2))
    assert not can_designate_plan(DesignationOrder(KEY, "2515", 10, turn=1, target_turn=2))
    assert can_designate_plan(DesignationOrder(KEY, "2515", 10, turn=1, target_turn=3))
    with pytest.raises(InputError, match="target_turn"):
        designate(DesignationOrder(KEY, "2515", 10, turn=1))


def test_sur05_designation_spends_everything_and_records_it():
    plan, rec = _plan(20)
    assert (rec.srp_spent, rec.sp_spent, rec.re_cap) == (20, 70, 210)
    assert (plan.srp_spent, plan.sp_spent) == (20, 70)
    assert [e.rule for e in plan.ledger.entries] == ["SUR-05", "SUR-05"]
    assert rec.to_json()["earliest_turn"] == 5


def test_sur05_weather_trigger_waits_for_the_weather():
    """Seed 000 §47.A.2.a: "a player could designate the second turn of clear weather after bad
    weather as the turn of surprise"."""
    plan, _ = designate(DesignationOrder(KEY, "2515", 6, turn=1,
                                         weather_trigger="second clear turn after bad weather"))
    assert plan.earliest_turn == 3
    assert not can_start(plan, 2, weather_met=True)      # before the lead time
    assert not can_start(plan, 3, weather_met=False)     # weather not there yet
    plan, rec = delay(plan, 1, weather_wait=True)        # free while waiting on the weather
    assert (rec.srp_cost, rec.sp_cost) == (0, 0)
    assert plan.sp_spent == surprise_cost(6).sp
    plan, started = start(plan, 4, weather_met=True)
    assert started.turn == 4 and plan.status is PlanStatus.STARTED


def test_sur05_funding_checked_at_designation():
    far = FundingSource(FundingKind.DEPOT, 10, 19, "Brest depot", infantry_mps_to_centre=14)
    with pytest.raises(IllegalOrder, match="SUR-08.*Brest depot"):
        designate(DesignationOrder(KEY, "2515", 10, turn=1, target_turn=3, sources=(far,)))
    short = FundingSource(FundingKind.NATIONAL_POOL, 10, 10)
    with pytest.raises(IllegalOrder, match="SUR-05.*costs 10 SRPs and 19 SPs"):
        designate(DesignationOrder(KEY, "2515", 10, turn=1, target_turn=3, sources=(short,)))
    with pytest.raises(IllegalOrder, match="SUR-07"):
        designate(DesignationOrder(KEY, "2515", 10, turn=1, target_turn=3,
                                   centre_hex=CentreHex("2515")))
    with pytest.raises(IllegalOrder, match="SUR-14"):
        designate(DesignationOrder(KEY, "2515", 10, turn=1, target_turn=3), active=[KEY])


def test_sur09_tv02_reduction_returns_80_percent():
    """SUR-TV02, seed 000 §47.A.2.e: "if a 30/155/465 surprise turn was reduced to a 10/19/55,
    the player would add 16SRPs (80% of the 20 SRP difference) and 108.8 SPs (80% of the 155-19
    SP difference) back to his national pool"."""
    r = reduction_refund(30, 10)
    assert (r.srp_returned, r.sp_returned) == (16, Fraction(544, 5))
    assert (r.level, r.re) == (10, 55)
    pool = FundingSource(FundingKind.NATIONAL_POOL, 30, 155)
    plan, _ = designate(DesignationOrder(KEY, "2515", 30, turn=1, target_turn=7,
                                         sources=(pool,)))
    plan, rec = reduce_level(plan, 10, turn=7)
    assert (rec.srp_returned, rec.sp_returned) == (16, Fraction(544, 5))
    assert rec.returned_to == "national_pool"
    assert rec.to_json()["sp_returned"] == "108.8"
    assert (plan.level, plan.re_cap) == (10, 55)
    assert (plan.srp_spent, plan.sp_spent) == (14, Fraction(231, 5))
    # the start refund is then half of the new level (SUR-04 reading)
    plan, started = start(plan, 7)
    assert (started.srp_refund, started.sp_refund) == (5, Fraction(19, 2))


def test_sur09_reduction_only_downward_and_on_the_attack_turn():
    with pytest.raises(IllegalOrder, match="SUR-09.*only be reduced"):
        reduction_refund(10, 30)
    plan, _ = _plan(30, target=7)
    assert not can_reduce_level(plan, 30, 7)
    assert not can_reduce_level(plan, 10, 6)
    with pytest.raises(IllegalOrder, match="SUR-09.*turn 6"):
        reduce_level(plan, 10, turn=6)
    with pytest.raises(InputError, match="new_level"):
        reduce_level(plan, 0, turn=7)


def test_sur09_refund_destination_reading():
    depot = FundingSource(FundingKind.DEPOT, 30, 155, infantry_mps_to_centre=3)
    plan, _ = designate(DesignationOrder(KEY, "2515", 30, turn=1, target_turn=7,
                                         sources=(depot,)))
    _, rec = reduce_level(plan, 10, turn=7)
    assert rec.returned_to == "original_area"
    pooled = SurpriseReadings(surprise_reduction_refund_to=ReductionRefundTo.NATIONAL_POOL)
    _, rec = reduce_level(plan, 10, turn=7, readings=pooled)
    assert rec.returned_to == "national_pool"


def test_sur10_tv03_moved_centre_acts_as_lower_level():
    """SUR-TV03, seed 000 §47.A.2.f: "if a 20/70/210 surprise turn was planned and the centre hex
    was forced to move 10 hexes, the new surprise turn would effectively be a 10/19/55 surprise
    turn. Only 55 REs could benefit (thus the SP expenditure would be 19) but the designated 20
    SRPs would still have to be spent." (51 SPs returned is derived: 70 - 19)."""
    m = centre_move_effect(20, 10)
    assert (m.effective_level, m.re, m.srp_spent, m.sp_spent, m.sp_returned) == (10, 55, 20, 19, 51)
    plan, _ = _plan(20)
    plan, rec = move_centre(plan, "2525", 10)
    assert (rec.effective_level, rec.re_cap, rec.sp_spent, rec.sp_returned) == (10, 55, 19, 51)
    assert rec.srp_spent == 20
    assert "20 infantry MPs of 2515" in rec.returned_to
    assert (plan.level, plan.centre, plan.re_cap) == (10, "2525", 55)
    assert (plan.srp_spent, plan.sp_spent) == (20, 19)
    # the half refund at the start: the designated SRPs and the reduced level's SPs
    plan, started = start(plan, plan.target_turn)
    assert (started.srp_refund, started.sp_refund) == (10, Fraction(19, 2))


def test_sur10_moving_the_level_or_more_cancels():
    plan, _ = _plan(5)
    plan, rec = move_centre(plan, "3000", 5)
    assert rec.cancelled and plan.status is PlanStatus.CANCELLED
    assert rec.sp_returned == 5 and plan.sp_spent == 0 and plan.srp_spent == 5
    assert not can_start(plan, plan.target_turn)
    assert not can_move_centre(plan, "3001", 1)
    with pytest.raises(InputError, match="hexes"):
        centre_move_effect(5, -1)


def test_sur11_tv08_delay_costs_a_quarter_per_turn():
    """SUR-TV08 (DERIVED), seed 000 §47.A.2.g: "each turn of delay costs an additional ¼ of the
    SRPs and SPs that were expended when the turn was designated" - 20/70 -> +5 SRP, +17.5 SP."""
    d = delay_cost(20, 1)
    assert (d.srp_cost, d.sp_cost) == (5, Fraction(35, 2))
    assert delay_cost(20, 2).sp_cost == 35
    assert delay_cost(20, 3, weather_wait=True).sp_cost == 0
    plan, _ = _plan(20, target=5)
    plan, rec = delay(plan, 1)
    assert plan.target_turn == 6 and plan.delay_turns == 1
    assert (plan.srp_spent, plan.sp_spent) == (25, Fraction(175, 2))
    assert rec.to_json()["sp_cost"] == "17.5"
    assert not can_delay(plan, 1, weather_wait=True)   # no weather trigger designated
    # delay payments are not part of the half refund
    plan, started = start(plan, 6)
    assert (started.srp_refund, started.sp_refund) == (10, 35)


def test_sur04_start_refunds_half_and_rounding_reading():
    plan, _ = _plan(5, target=2)
    _, started = start(plan, 2)
    assert (started.srp_refund, started.sp_refund) == (Fraction(5, 2), Fraction(5, 2))
    floor = SurpriseReadings(surprise_refund_integer_rounding=RefundRounding.FLOOR)
    _, started = start(plan, 2, readings=floor)
    assert (started.srp_refund, started.sp_refund) == (2, 2)
    with pytest.raises(IllegalOrder, match="SUR-05"):
        start(plan, 3)


def test_sur06_reduce_planning_at_any_time():
    plan, _ = _plan(30, target=7)               # lead 6
    assert can_reduce_planning(plan, 4)
    assert not can_reduce_planning(plan, 3)      # 1 + floor(6/2) = 4
    plan, rec = reduce_planning(plan, 4)
    assert (rec.lead_turns_before, rec.lead_turns_after, rec.earliest_turn) == (6, 3, 4)
    assert rec.refund_forfeited_sp == Fraction(155, 2)
    assert not can_reduce_planning(plan)
    plan, started = start(plan, 4)
    assert started.forfeited and started.sp_refund == 0


def test_state_is_never_partially_changed_by_an_illegal_order():
    plan, _ = _plan(10)
    before = plan
    with pytest.raises(IllegalOrder):
        reduce_level(plan, 20, turn=plan.target_turn)
    assert plan == before


def test_hidden_plan_view():
    plan, _ = _plan(10)
    assert view(plan, "allies") is None
    assert view(plan, "axis")["level"] == 10
    plan, _ = start(plan, plan.target_turn)
    assert view(plan, "allies") == {"side": "axis", "kind": "local", "centre": "2515",
                                    "level": 10, "status": "started"}


@given(st.integers(1, 40), st.data())
def test_sur09_ledger_conserves_points(level, data):
    """Property: what the ledger shows spent = designation - refunds, exactly."""
    plan, _ = _plan(level)
    if level > 1:
        new = data.draw(st.integers(1, level - 1))
        plan, rec = reduce_level(plan, new, turn=plan.target_turn)
        c = surprise_cost(level)
        assert plan.srp_spent == c.srp - rec.srp_returned
        assert plan.sp_spent == c.sp - rec.sp_returned
    total = sum((e.amount for e in plan.ledger.entries if e.account == "sp"), Fraction(0))
    assert total == plan.sp_spent


def test_sur04_sur10_refund_placement():
    """Seed 000 §47.A.1 note: "placed on a friendly unit within 5 hexes of the front or in depots
    or HQs within 20 hexes of the surprise front"; §47.A.2.f: "placed in depots within 20 infantry
    MPs of the original centre hex"."""
    from grognard.europa.surprise.budget import (
        RefundHolder,
        moved_centre_refund_placement_ok,
        start_refund_placement_ok,
    )

    assert start_refund_placement_ok(RefundHolder.FRIENDLY_UNIT, 5)
    assert not start_refund_placement_ok(RefundHolder.FRIENDLY_UNIT, 6)
    assert start_refund_placement_ok(RefundHolder.HQ, 20)
    assert not start_refund_placement_ok(RefundHolder.SUPPLY_UNIT, 21)
    assert moved_centre_refund_placement_ok(RefundHolder.DEPOT, 20)
    assert not moved_centre_refund_placement_ok(RefundHolder.DEPOT, 21)
    assert not moved_centre_refund_placement_ok(RefundHolder.FRIENDLY_UNIT, 3)
    with pytest.raises(InputError, match="hexes_from_front"):
        start_refund_placement_ok(RefundHolder.DEPOT, -1)
