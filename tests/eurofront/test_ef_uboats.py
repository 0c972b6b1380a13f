"""EF-04..EF-07 Increased U-boat Production affects Allied Shipping
(003_bbc0beaac187b5b3.txt, "Increased U-boat Production affects Allied Shipping")."""

from fractions import Fraction

import pytest

from grognard.core.dice import DiceStream
from grognard.core.errors import IllegalOrder, InputError
from grognard.eurofront.model import Turn
from grognard.eurofront.readings import (
    EuroFrontReadings,
    NorwayFranceMode,
    OptionalRule,
    OptionalRules,
    UboatDrmTarget,
    UboatRollFrequency,
)
from grognard.eurofront.uboats import (
    SpainStatus,
    UboatHistory,
    UboatTurn,
    allied_air_superiority,
    history_from_json,
    roll_uboat_turn,
    trigger_probability,
    trigger_succeeds,
    uboat_program_step,
    uboat_status,
)

APR_1940 = Turn(1940, 4)
TURN = EuroFrontReadings(ef_uboat_roll_frequency=UboatRollFrequency.TURN)


def hist(pps, start=APR_1940, **per_turn):
    """A history from ``start``; ``per_turn`` values are scalars or per-turn lists."""
    turns = []
    for i, pp in enumerate(pps):
        kw = {k: (v[i] if isinstance(v, list) else v) for k, v in per_turn.items()}
        kw.setdefault("allied_pp_outside_uk", 23)
        turns.append(UboatTurn(start.next(i), uboat_pp=pp, **kw))
    return UboatHistory(tuple(turns))


def test_ef04_first_full_season_has_no_effect():
    """'There is no initial effect': a funded Summer (Apr..Sep) rolls nothing in Sep."""
    s = uboat_status(hist([5] * 6))
    assert s.turn == Turn(1940, 9)
    assert (s.benefits, s.trigger_due, s.losses_due) == (False, False, False)


def test_ef04_trigger_at_start_of_following_season_on_a_one():
    """'at the beginning of the following season the Axis player rolls 1D6 and on a 1 result
    the Allied player must roll for shipping losses on every 5 PP not resident in the UK'."""
    h = hist([5] * 7)
    s = uboat_status(h)
    assert s.turn == Turn(1940, 10) and s.trigger_due and s.lots == 4  # 23 PP -> 4 lots
    hit = uboat_program_step(h, 1, [1, 2, 6, 1])
    assert hit.trigger_success is True
    assert [r.lost for r in hit.shipping_rolls] == [True, False, False, True]
    assert hit.pp_lost == 10
    miss = uboat_program_step(h, 2, [])
    assert miss.trigger_success is False and miss.shipping_rolls == ()


def test_ef04_arctic_convoys_count_as_pp_outside_the_uk():
    """'This incudes any Arctic convoy supply to the Soviet Union': every lot rolls."""
    h = hist([5] * 7, allied_pp_outside_uk=[0] * 6 + [35])
    assert uboat_status(h).lots == 7
    convoys = hist([5] * 7, allied_pp_outside_uk=18, arctic_convoy_pp=7)
    assert uboat_status(convoys).lots == 5  # (18 + 7) // 5


def test_ef04_partial_first_season_does_not_count():
    """Allocation must be held for a full season: starting in May gives no roll in October."""
    h = hist([0, 5, 5, 5, 5, 5, 5])
    assert uboat_status(h).trigger_due is False


def test_ef04_rule_off_means_no_uboat_effect():
    """EF-01: with the rule off, the same history rolls nothing."""
    off = OptionalRules.all().without(OptionalRule.ENHANCED_UBOATS)
    s = uboat_status(hist([5] * 7), rules=off)
    assert (s.trigger_due, s.losses_due, s.benefits) == (False, False, False)


def test_ef04_roll_frequency_season_vs_turn():
    """EF-04 reading: loss rolls once per season (SEASON) or every turn of it (TURN)."""
    pps = [5] * 8
    trig = [None] * 6 + [1, None]
    h = hist(pps, trigger_roll=trig)
    assert uboat_status(h).losses_due is False
    assert uboat_status(h, TURN).losses_due is True
    failed = hist(pps, trigger_roll=[None] * 6 + [4, None])
    assert uboat_status(failed, TURN).losses_due is False


def test_ef04_turn_reading_needs_the_recorded_trigger_roll():
    with pytest.raises(InputError, match="trigger_roll"):
        uboat_status(hist([5] * 8), TURN)


def test_ef04_stopping_ends_benefits_from_following_production_phase():
    """'Should the Axis Player stop all PP allocation (less than 5 PP) ... the following
    production phase all benefits end.'"""
    trig = [None] * 6 + [1, None, None]
    nov = hist([5] * 7 + [0], trigger_roll=trig[:8])
    assert uboat_status(nov, TURN).losses_due is True  # stopped in Nov: Nov still suffers
    dec = hist([5] * 7 + [0, 5], trigger_roll=trig)
    assert uboat_status(dec, TURN).losses_due is False and not uboat_status(dec, TURN).benefits


def test_ef04_restart_needs_a_new_full_season():
    """After a stop, the next season's start has no trigger."""
    pps = [5] * 7 + [0] + [5] * 5  # Summer funded, Winter broken in Nov, Apr 1941 next
    h = hist(pps, trigger_roll=[None] * 6 + [3] + [None] * 6)
    assert h.current.turn == Turn(1941, 4)
    assert uboat_status(h).trigger_due is False


def test_ef05_tv04_trigger_with_two_modifiers_succeeds_on_1_to_3():
    """EF-TV04 (RULES.md §2): trigger roll with 2 active modifiers (TRIGGER reading) succeeds
    on 1-3."""
    assert [r for r in range(1, 7) if trigger_succeeds(r, 2)] == [1, 2, 3]
    # the same through a history: Norway & France held since Sep, Spain cooperating since Sep
    h = hist([5] * 7, start=Turn(1940, 4), norway=True, france=True,
             spain=SpainStatus.COOPERATING)
    s = uboat_status(h)
    assert (s.modifiers.norway_france, s.modifiers.spain_gibraltar, s.modifiers.total) == (1, 1, 2)
    assert uboat_program_step(h, 3, [1] * 4).trigger_success is True
    assert uboat_program_step(h, 4, []).trigger_success is False


def test_ef05_natural_six_always_fails():
    assert not trigger_succeeds(6, 10)
    assert trigger_probability(10) == Fraction(5, 6)


def test_ef05_escalation_needs_a_full_season_at_10pp():
    """'an additional 5 PP (i.e. at least 10 PP each turn) ... for a full Season ... -1 from the
    start of the following Season'."""
    h = hist([5] * 6 + [10] * 6 + [10])  # Summer 5, Winter 10, Apr 1941
    assert uboat_status(h).modifiers.escalation == 1
    h2 = hist([5] * 6 + [10] * 5 + [5] + [10])  # Winter dipped to 5 in March
    assert uboat_status(h2).modifiers.escalation == 0
    assert uboat_status(hist([5] * 7)).modifiers.escalation == 0


def test_ef05_increase_is_at_most_5pp_per_season():
    """'The increase can only be 5 PP/turn each Season.'"""
    with pytest.raises(IllegalOrder, match="EF-05"):
        uboat_status(hist([10]))
    with pytest.raises(IllegalOrder, match="EF-05"):
        uboat_status(hist([5] * 6 + [15]))
    assert uboat_status(hist([5] * 6 + [10] * 6 + [15])).modifiers.escalation == 1


def test_ef05_norway_and_france_from_start_of_following_season():
    """'If either Norway and France ... Axis controlled then deduct -1 ... from the start of the
    following Season' (reading BOTH; EITHER under the switch)."""
    both_from_sep = hist([5] * 7, norway=True, france=[False] * 5 + [True, True])
    assert uboat_status(both_from_sep).modifiers.norway_france == 1
    both_from_oct = hist([5] * 7, norway=True, france=[False] * 6 + [True])
    assert uboat_status(both_from_oct).modifiers.norway_france == 0
    norway_only = hist([5] * 7, norway=True)
    assert uboat_status(norway_only).modifiers.norway_france == 0
    either = EuroFrontReadings(ef_norway_france_mode=NorwayFranceMode.EITHER)
    assert uboat_status(norway_only, either).modifiers.norway_france == 1


def test_ef05_spain_or_gibraltar_from_next_production_phase():
    """'If Spain is cooperating ... or Gibraltar is Axis then deduct -1 ... from the next
    Production Phase'; Spain or Gibraltar is one modifier."""
    now = hist([5] * 7, gibraltar=[False] * 6 + [True])
    assert uboat_status(now).modifiers.spain_gibraltar == 0
    since_sep = hist([5] * 7, gibraltar=[False] * 5 + [True, True])
    assert uboat_status(since_sep).modifiers.spain_gibraltar == 1
    both = hist([5] * 7, gibraltar=True, spain=SpainStatus.JOINED)
    assert uboat_status(both).modifiers.spain_gibraltar == 1


def test_ef05_loss_roll_reading_moves_the_modifiers():
    """EF-05 reading LOSS_ROLL: the trigger needs a 1; the loss rolls take the -1s."""
    r = EuroFrontReadings(ef_uboat_drm_target=UboatDrmTarget.LOSS_ROLL)
    h = hist([5] * 7, norway=True, france=True, gibraltar=True)
    assert uboat_program_step(h, 2, [], r).trigger_success is False
    hit = uboat_program_step(h, 1, [3, 4, 5, 6], r)
    assert [(x.modified, x.lost) for x in hit.shipping_rolls] == [
        (1, True), (2, False), (3, False), (4, False)]
    default = uboat_program_step(h, 1, [3, 4, 5, 6])
    assert [x.modified for x in default.shipping_rolls] == [3, 4, 5, 6]


def test_ef06_escort_season_cancels_one_modifier():
    """'Enhanced Escort Development. This costs 5 PP per turn for a full season before it
    counters any one modifier'."""
    h = hist([5] * 7, norway=True, france=True, gibraltar=True, escort_pp=5)
    m = uboat_status(h).modifiers
    assert (m.norway_france, m.spain_gibraltar, m.cancelled, m.total) == (1, 1, 1, 1)
    short = hist([5] * 7, norway=True, france=True, escort_pp=[0] + [5] * 6)
    assert uboat_status(short).modifiers.cancelled == 0


def test_ef06_escort_cannot_cancel_escalation():
    h = hist([5] * 6 + [10] * 6 + [10], escort_pp=5)
    m = uboat_status(h).modifiers
    assert (m.escalation, m.cancelled, m.total) == (1, 0, 1)


def test_ef06_three_matched_turns_nullify_for_good():
    """'It can nullify totally ... if there are no Axis modifiers in effect if it matches the
    U-boat PP allocation for three turns.'"""
    h = hist([5] * 7, escort_pp=[5, 5, 5, 0, 0, 0, 0])
    s = uboat_status(h)
    assert s.nullified and not s.trigger_due
    two = hist([5] * 7, escort_pp=[5, 5, 0, 5, 5, 0, 0])
    assert not uboat_status(two).nullified and uboat_status(two).trigger_due
    under = hist([5] * 6 + [10] * 4, escort_pp=[0] * 6 + [5] * 4)
    assert not uboat_status(under).nullified


def test_ef06_no_nullification_while_a_modifier_is_in_effect():
    h = hist([0] + [5] * 7, start=Turn(1940, 3), norway=True, france=True,
             escort_pp=[0, 5, 5, 5, 5, 5, 5, 0])
    assert not uboat_status(h).nullified


def test_ef07_shipping_losses_remove_air_superiority():
    """'If the Allies are subject to Allied Atlantic Shipping Losses in a turn then they do not
    have Air Superiority (Rule 13.3).'"""
    h = hist([5] * 7)
    assert uboat_program_step(h, 1, [6] * 4).air_superiority_lost is True
    assert uboat_program_step(h, 5, []).air_superiority_lost is False
    assert allied_air_superiority(True, True) is False
    assert allied_air_superiority(True, False) is True
    assert allied_air_superiority(True, True, OptionalRules.none()) is True


def test_ef04_seeded_rolls_are_reproducible_and_match_explicit_rolls():
    h = hist([5] * 7, norway=True, france=True, spain=SpainStatus.COOPERATING)
    a = roll_uboat_turn(h, DiceStream(11, "uboat"))
    b = roll_uboat_turn(h, DiceStream(11, "uboat"))
    assert a == b
    again = uboat_program_step(h, a.trigger_roll, [r.roll for r in a.shipping_rolls])
    assert again == a


def test_ef04_bad_rolls_and_fields_are_named():
    h = hist([5] * 7)
    with pytest.raises(InputError, match="trigger_roll"):
        uboat_program_step(h, None, [])
    with pytest.raises(InputError, match="shipping_rolls"):
        uboat_program_step(h, 1, [1])
    with pytest.raises(InputError, match="trigger_roll"):
        uboat_program_step(h, 7, [])
    with pytest.raises(InputError, match=r"turns\[0\].uboat_pp"):
        history_from_json({"turns": [{"turn": "1940-04", "uboat_pp": -5}]})
    with pytest.raises(InputError, match=r"turns\[1\].turn"):
        history_from_json({"turns": [{"turn": "1940-04"}, {"turn": "1940-06"}]})
    with pytest.raises(InputError, match=r"turns\[0\].spain"):
        history_from_json({"turns": [{"turn": "1940-04", "spain": "maybe"}]})
