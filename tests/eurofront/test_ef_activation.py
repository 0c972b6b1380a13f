"""EF-17/EF-18 Sequential Activation (003_bbc0beaac187b5b3.txt, "Alternative Play Rules -
Sequential Activation Rules")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.hexgrid import Hex
from grognard.eurofront.activation import (
    Chit,
    Step,
    activate_hq,
    amphibious_invasion,
    can_activate_hq,
    can_choose_chit,
    can_move_block,
    choose_chit,
    end_phase,
    initiative,
    initiative_score,
    paradrop,
    player_to_act,
    record_rail_move,
    reveal_and_roll,
    roll_weather,
    start_month,
    surprise_disrupted,
    verify_blitz,
    view,
)
from grognard.eurofront.model import Side, Turn
from grognard.eurofront.rail import strategic_rail_limit
from grognard.eurofront.readings import (
    EuroFrontReadings,
    InitiativeBonus,
    OptionalRule,
    OptionalRules,
)

AX, AL = Side.AXIS, Side.ALLIES
SQUARED = EuroFrontReadings(ef_initiative_bonus=InitiativeBonus.STRENGTH_SQUARED)
HQS = {AX: {"A1": 3, "A2": 3, "A3": 2, "A4": 1}, AL: {"S1": 2, "S2": 2, "S3": 1}}


def test_ef18_tv01_strength_reading_tie_rerolls():
    """EF-TV01 (RULES.md §2): d6 3 with a 3-chit vs d6 5 with a 1-chit (STRENGTH reading):
    6 v 6, tie -> re-roll."""
    r = initiative(3, 3, 5, 1)
    assert (r.score_a, r.score_b, r.first, r.first_activates) == (6, 6, None, 0)


def test_ef18_tv02_strength_squared_reading():
    """EF-TV02 (RULES.md §2): same rolls (STRENGTH_SQUARED reading): 12 v 6, the first player
    activates 6 HQs first."""
    r = initiative(3, 3, 5, 1, SQUARED)
    assert (r.score_a, r.score_b, r.first, r.first_activates) == (12, 6, "a", 6)


def test_ef18_chit_bonus_per_strength_and_zero_chit():
    """'+3 x chit strength ... +2 x ... +1 x'; a zero chit gets +0 (reading)."""
    assert [initiative_score(1, s) for s in range(4)] == [1, 2, 3, 4]
    assert [initiative_score(1, s, SQUARED) for s in range(4)] == [1, 2, 5, 10]
    with pytest.raises(InputError, match="chit_b"):
        initiative(1, 1, 1, 4)
    with pytest.raises(InputError, match="roll_a"):
        initiative(0, 1, 1, 1)


def _phase(state, weather_roll, chit_ax, chit_al, *roll_pairs):
    state, _ = roll_weather(state, weather_roll)
    state, _ = choose_chit(state, AX, chit_ax)
    state, _ = choose_chit(state, AL, chit_al)
    recs = []
    for ra, rl in roll_pairs:
        state, rec = reveal_and_roll(state, {AX: ra, AL: rl})
        recs.append(rec)
    return state, recs


def _activate_all(state, plan):
    for side, hq in plan:
        state, _ = activate_hq(state, side, hq)
    return state


def test_ef18_scripted_month_reproduces_hand_computed_order():
    """Hand-computed month (STRENGTH reading), fixed dice:

    Phase 1: Axis 3-chit x2 rolls 2 -> 5; Allies 2-chit x2 rolls 4 -> 6. Allies First by 1:
    S1, then Axis A1 A2, then Allies S2.
    Phase 2: Axis 1-chit x1, Allies 1-chit x1; 3 v 3 -> 4 v 4 tie, re-roll 5 v 2 -> 6 v 3:
    Axis First by 3 (only one HQ): A4, then Allies S3.
    Phase 3: Axis zero chit, Allies 2-chit x1; 6 v 1 -> 6 v 3: Axis First with nothing: S1.
    Phase 4: both zero -> the month ends.
    """
    s = start_month(Turn(1941, 7), HQS)
    s, recs = _phase(s, 4, Chit(3, 2), Chit(2, 2), (2, 4))
    assert (recs[0].first, recs[0].first_activates) == (AL, 1)
    assert s.step is Step.FIRST_INITIAL
    assert not can_activate_hq(s, AX, "A1")  # not the Axis turn yet
    s = _activate_all(s, [(AL, "S1"), (AX, "A1"), (AX, "A2"), (AL, "S2")])
    assert s.step is Step.PHASE_END
    s, _ = end_phase(s)
    s, recs = _phase(s, 1, Chit(1, 1), Chit(1, 1), (3, 3), (5, 2))
    assert recs[0].tie and recs[0].first is None
    assert (recs[1].first, recs[1].first_activates) == (AX, 1)
    s = _activate_all(s, [(AX, "A4"), (AL, "S3")])
    s, _ = end_phase(s)
    s, recs = _phase(s, 2, Chit(0, 0), Chit(2, 1), (6, 1))
    assert (recs[0].first, recs[0].first_activates) == (AX, 0)
    assert s.step is Step.SECOND
    s = _activate_all(s, [(AL, "S1")])
    s, _ = end_phase(s)
    s, recs = _phase(s, 3, Chit(0, 0), Chit(0, 0), (None, None))
    assert recs[0].month_over and s.step is Step.MONTH_OVER
    assert [(p, side.value, hq) for p, side, hq in s.order] == [
        (1, "allies", "S1"), (1, "axis", "A1"), (1, "axis", "A2"), (1, "allies", "S2"),
        (2, "axis", "A4"), (2, "allies", "S3"),
        (3, "allies", "S1"),
    ]


def test_ef18_both_zero_needs_no_roll():
    s = start_month(Turn(1941, 7), HQS)
    s, _ = roll_weather(s, 5)
    s, _ = choose_chit(s, AX, Chit(0, 0))
    s, _ = choose_chit(s, AL, Chit(0, 0))
    s, rec = reveal_and_roll(s, None)
    assert rec.month_over and rec.rolls == ()


def test_ef18_difference_larger_than_chosen_hqs_activates_all_first():
    """'activates a number of that strength HQs equal to the difference'; if the difference
    exceeds the chosen HQs, all of them go first (reading)."""
    s = start_month(Turn(1941, 7), HQS)
    s, recs = _phase(s, 4, Chit(3, 2), Chit(1, 1), (6, 1))  # 9 v 2
    assert recs[0].first_activates == 2
    s = _activate_all(s, [(AX, "A1"), (AX, "A2")])
    assert s.step is Step.SECOND
    s = _activate_all(s, [(AL, "S3")])
    assert s.step is Step.PHASE_END


def test_ef18_view_hides_opponent_chit_until_reveal():
    """'that is once chosen, placed face down in front of the owning player'."""
    s = start_month(Turn(1941, 7), HQS)
    s, _ = roll_weather(s, 4)
    s, _ = choose_chit(s, AX, Chit(3, 2))
    assert view(s, AX)["chits"] == {"axis": {"strength": 3, "count": 2}, "allies": None}
    assert view(s, AL)["chits"] == {"axis": {"placed": True}, "allies": None}
    s, _ = choose_chit(s, AL, Chit(2, 1))
    assert view(s, AL)["chits"]["axis"] == {"placed": True}
    assert view(s, AX)["chits"]["allies"] == {"placed": True}
    assert "3" not in str(view(s, AL)["chits"]["axis"])
    s, _ = reveal_and_roll(s, {AX: 1, AL: 1})
    assert view(s, AL)["chits"]["axis"] == {"strength": 3, "count": 2}
    assert view(s, AX)["chits"]["allies"] == {"strength": 2, "count": 1}


def test_ef18_chit_checks():
    s = start_month(Turn(1941, 7), HQS)
    with pytest.raises(IllegalOrder, match="EF-18"):
        choose_chit(s, AX, Chit(3, 1))  # weather first
    s, _ = roll_weather(s, 4)
    assert not can_choose_chit(s, AL, Chit(3, 1))  # the Allies have no 3-point HQ
    assert not can_choose_chit(s, AX, Chit(3, 3))
    with pytest.raises(InputError, match="chit.count"):
        Chit(0, 1)
    with pytest.raises(InputError, match="chit.strength"):
        Chit(4, 1)
    s, _ = choose_chit(s, AX, Chit(1, 1))
    with pytest.raises(IllegalOrder, match="already placed"):
        choose_chit(s, AX, Chit(1, 1))


def test_ef18_activation_must_match_chit_and_turn():
    s = start_month(Turn(1941, 7), HQS)
    s, _ = _phase(s, 4, Chit(3, 1), Chit(2, 1), (6, 1))
    with pytest.raises(IllegalOrder, match="strength"):
        activate_hq(s, AX, "A3")
    with pytest.raises(IllegalOrder, match="turn"):
        activate_hq(s, AL, "S1")
    s, rec = activate_hq(s, AX, "A1")
    assert rec.step is Step.FIRST_INITIAL and s.step is Step.SECOND


def test_ef17_weather_rolled_each_phase():
    """'Weather is rolled for (during Mud & Snow possible turns) in each Activation Phase.'"""
    s = start_month(Turn(1941, 11), HQS)
    seen = []
    for roll in (1, 6):
        s, w = roll_weather(s, roll)
        seen.append(w.weather)
        s, _ = choose_chit(s, AX, Chit(1, 1))
        s, _ = choose_chit(s, AL, Chit(1, 1))
        s, _ = reveal_and_roll(s, {AX: 6, AL: 1})
        s = _activate_all(s, [(AX, "A4"), (AL, "S3")])
        s, _ = end_phase(s)
    assert seen == ["mud", "clear"]
    custom, w = roll_weather(start_month(Turn(1941, 7), HQS), 2, lambda m, r: f"w{r}")
    assert w.weather == "w2" and custom.weather == "w2"


def test_ef17_supply_tested_at_end_of_each_phase():
    """'Supply tests are carried out at the end of each Activation Phase' (hook: EXTERNAL)."""
    calls = []
    s = start_month(Turn(1941, 7), HQS)
    for _ in range(2):
        s, _ = _phase(s, 4, Chit(1, 1), Chit(1, 1), (6, 1))
        s = _activate_all(s, [(AX, "A4"), (AL, "S3")])
        s, rec = end_phase(s, supply=lambda st: calls.append(st.phase) or {"oos": []})
        assert rec.supply == {"oos": []}
    assert calls == [1, 2]


def test_ef17_rail_moved_blocks_stand_out_the_next_phase():
    """'Blocks that have been moved via railroad cannot be moved in the following Activation
    Phase, but are stood up at the end of that phase'."""
    s = start_month(Turn(1941, 7), HQS)
    s, _ = _phase(s, 4, Chit(1, 1), Chit(1, 1), (6, 1))
    s, _ = record_rail_move(s, "inf9")
    s = _activate_all(s, [(AX, "A4"), (AL, "S3")])
    s, rec = end_phase(s)
    assert rec.stood_up == ()
    assert not can_move_block(s, "inf9")  # phase 2
    s, _ = _phase(s, 4, Chit(1, 1), Chit(1, 1), (6, 1))
    with pytest.raises(IllegalOrder, match="EF-17"):
        record_rail_move(s, "inf9")
    s = _activate_all(s, [(AX, "A4"), (AL, "S3")])
    s, rec = end_phase(s)
    assert rec.stood_up == ("inf9",)
    assert can_move_block(s, "inf9")  # phase 3


def test_ef17_surprise_cancelled_when_penalised_side_becomes_first_not_in_phase_one():
    """'Disruption due to Surprise is cancelled when the penalised side becomes the 1st Player
    (never in the first Activation Phase).' Ties in with EF-03's 5-hex rail limit."""
    s = start_month(Turn(1941, 6), HQS, surprised=AL)
    s, recs = _phase(s, 4, Chit(1, 1), Chit(2, 1), (1, 6))  # Allies First in phase 1
    assert recs[0].first is AL and not recs[0].surprise_cancelled
    assert surprise_disrupted(s, AL)
    assert strategic_rail_limit(30, surprise_disrupted(s, AL)) == 5
    s = _activate_all(s, [(AL, "S1"), (AX, "A4")])
    s, _ = end_phase(s)
    s, recs = _phase(s, 4, Chit(1, 1), Chit(2, 1), (6, 1))  # Axis First: still surprised
    assert recs[0].first is AX and surprise_disrupted(s, AL)
    s = _activate_all(s, [(AX, "A4"), (AL, "S1")])
    s, _ = end_phase(s)
    s, recs = _phase(s, 4, Chit(1, 1), Chit(2, 1), (1, 6))  # Allies First in phase 3
    assert recs[0].surprise_cancelled and not surprise_disrupted(s, AL)
    assert strategic_rail_limit(30, surprise_disrupted(s, AL)) == 30


def test_ef17_one_invasion_per_hex_per_phase_and_no_blitz():
    """'A maximum of one amphibious invasion per target hex per Activation Phase'; 'There is no
    Blitz phase'."""
    s = start_month(Turn(1941, 7), HQS)
    s, _ = _phase(s, 4, Chit(1, 1), Chit(1, 1), (6, 1))
    s, _ = amphibious_invasion(s, Hex(3, 3))
    with pytest.raises(IllegalOrder, match="EF-17"):
        amphibious_invasion(s, Hex(3, 3))
    s, _ = amphibious_invasion(s, Hex(4, 3))
    with pytest.raises(IllegalOrder, match="Blitz"):
        verify_blitz(s)
    s = _activate_all(s, [(AX, "A4"), (AL, "S3")])
    s, _ = end_phase(s)
    s, _ = _phase(s, 4, Chit(1, 1), Chit(1, 1), (6, 1))
    s, _ = amphibious_invasion(s, Hex(3, 3))  # a new phase


def test_ef17_paradrop_link_up_by_end_of_following_phase():
    """'Paradrop Link up must take place by the end of the following Activation Phase'."""
    s = start_month(Turn(1941, 7), HQS)
    s, _ = _phase(s, 4, Chit(1, 1), Chit(1, 1), (6, 1))
    s, rec = paradrop(s, "para1")
    assert rec.link_up_by == 2
    s = _activate_all(s, [(AX, "A4"), (AL, "S3")])
    s, ended = end_phase(s, linked_up=lambda b: False)
    assert ended.failed_link_ups == ()
    s, _ = _phase(s, 4, Chit(1, 1), Chit(1, 1), (6, 1))
    s = _activate_all(s, [(AX, "A4"), (AL, "S3")])
    _, ended = end_phase(s, linked_up=lambda b: False)
    assert ended.failed_link_ups == ("para1",)
    _, ok = end_phase(s, linked_up=lambda b: True)
    assert ok.failed_link_ups == ()


def test_ef17_rule_off_means_player_turns():
    """EF-01: without the rule there is no sequential activation."""
    off = OptionalRules.all().without(OptionalRule.SEQUENTIAL_ACTIVATION)
    with pytest.raises(IllegalOrder, match="EF-17"):
        start_month(Turn(1941, 7), HQS, rules=off)
    assert start_month(Turn(1941, 7), HQS).phase == 1


def test_ef18_state_is_never_partially_changed():
    s = start_month(Turn(1941, 7), HQS)
    s, _ = _phase(s, 4, Chit(3, 1), Chit(2, 1), (6, 1))
    before = s
    with pytest.raises(IllegalOrder):
        activate_hq(s, AX, "A3")
    assert s == before

BIG = {AX: {f"A{s}{i}": s for s in (1, 2, 3) for i in range(4)},
       AL: {f"L{s}{i}": s for s in (1, 2, 3) for i in range(4)}}


def chits():
    return st.one_of(st.just(Chit(0, 0)),
                     st.builds(Chit, st.integers(1, 3), st.integers(1, 4)))


@settings(max_examples=200, deadline=None)
@given(chits(), chits(), st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)),
                                  min_size=1, max_size=6))
def test_ef18_property_phase_activates_exactly_the_chosen_hqs(ca, cl, rolls):
    """Whatever the chits and dice: the First Player's opening run is min(difference, chosen),
    then the Second Player's chosen HQs, then the First Player's rest; nothing more."""
    s = start_month(Turn(1941, 7), BIG)
    s, _ = roll_weather(s, 3)
    s, _ = choose_chit(s, AX, ca)
    s, _ = choose_chit(s, AL, cl)
    rec = None
    for ra, rl in rolls:
        s, rec = reveal_and_roll(s, {AX: ra, AL: rl})
        if not rec.tie:
            break
    if rec.month_over:
        assert ca.strength == cl.strength == 0
        return
    if rec.tie:
        return
    first = rec.first
    chosen = {AX: ca, AL: cl}
    used = {AX: 0, AL: 0}
    sides = []
    while s.step is not Step.PHASE_END:
        side = player_to_act(s)
        hq = next(h for h, v in BIG[side].items()
                  if v == chosen[side].strength and h not in s.activated_this_phase)
        s, _ = activate_hq(s, side, hq)
        used[side] += 1
        sides.append(side)
    n_first = min(rec.first_activates, chosen[first].count)
    second = first.opponent
    assert sides == ([first] * n_first + [second] * chosen[second].count
                     + [first] * (chosen[first].count - n_first))
    assert used == {AX: ca.count, AL: cl.count}


def test_ef18_chit_event_hidden_from_opponent_and_state_round_trips():
    from grognard.eurofront.activation import state_from_json, state_to_json

    s = start_month(Turn(1941, 7), HQS, surprised=AL)
    s, _ = roll_weather(s, 4)
    s, ev = choose_chit(s, AX, Chit(3, 2))
    assert ev.seen_by(AX)["chit"] == {"strength": 3, "count": 2}
    assert "chit" not in ev.seen_by(AL)
    s, _ = choose_chit(s, AL, Chit(2, 2))
    s, _ = reveal_and_roll(s, {AX: 2, AL: 4})
    s, _ = activate_hq(s, AL, "S1")
    s, _ = record_rail_move(s, "inf9")
    s, _ = amphibious_invasion(s, Hex(2, 3))
    s, _ = paradrop(s, "para1")
    assert state_from_json(state_to_json(s)) == s
    with pytest.raises(InputError, match="activation.phase"):
        state_from_json({k: v for k, v in state_to_json(s).items() if k != "phase"})
