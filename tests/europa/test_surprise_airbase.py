"""SUR-22..SUR-26: airbase surprise and invasion surprise.

Source: /work/shared/seeds/000_0eee5b9a7c244d48.txt (Europa rule 47.A.5.a, Table 3; 47.B).
"""

import datetime as dt
from collections import Counter

import pytest

from grognard.core.dice import DiceStream
from grognard.core.errors import IllegalOrder, InputError
from grognard.core.tables import load_tables
from grognard.europa.surprise.airbase import (
    AirPhase,
    BaseAirUnit,
    MissionKind,
    NationOnBase,
    affected_count,
    air_mission_order,
    airbase_modifier,
    airbase_odds,
    airbase_result,
    airbase_surprise,
    airbase_surprise_applies,
    all_guards_or_non_soviet_major,
    resolve_airbase,
    select_affected,
    verify_interceptions,
)
from grognard.europa.surprise.effects import Result
from grognard.europa.surprise.general import (
    AirbaseSelection,
    AirStatus,
    Nationality,
    SurpriseReadings,
)
from grognard.europa.surprise.invasion import (
    InvasionHistory,
    InvasionTrigger,
    Mobilization,
    invasion_effects,
    invasion_surprise,
    invasion_surprise_due,
)

CHOICE = SurpriseReadings(airbase_surprise_selection=AirbaseSelection.DEFENDER_CHOICE)
EXAMPLE = (BaseAirUnit("operative", AirStatus.OPERATIVE),
           BaseAirUnit("inoperative", AirStatus.INOPERATIVE),
           BaseAirUnit("extended", AirStatus.X))


def test_sur22_tv07_two_fighters_affect_two():
    """SUR-TV07, seed 000 §47.A.5.a airbase surprise example: "Three Soviet fighters are on a
    3-capacity airbase ... Two Me 109Fs attack the airbase. Two Soviet air units would be affected
    by the die roll as there is no CAP or '+# MP' marker on the airbase"."""
    assert affected_count(attackers=2, markers=0, cap=0, present=3) == 2


def test_sur24_tv07_failure_and_success_results():
    """SUR-TV07b/c, seed 000 §47.A.5.a example: "A 'Failure' is rolled and the Soviet player
    intercepts with the operative fighter. The inoperative fighter has an 'X' marker placed on it
    ... If a 'Success' had been rolled, the inoperative fighter would have had an 'X' marker placed
    on it and the operative fighter would have been made inoperative. The 'X' fighter would not
    change as it is still unaffected." (DEFENDER_CHOICE picks the operative and inoperative one.)"""
    chosen = select_affected(EXAMPLE, 2, CHOICE, chosen=["operative", "inoperative"])
    fail = resolve_airbase(Result.F, EXAMPLE, chosen)
    assert [(u.after.value, u.available) for u in fail.units] == [
        ("operative", True), ("X", False), ("X", True)]
    success = resolve_airbase(Result.S, EXAMPLE, chosen)
    assert [u.after.value for u in success.units] == ["inoperative", "X", "X"]
    assert success.affected == 2 and not success.units[0].available
    assert not success.units[2].affected


def test_sur24_status_ladder_all_results():
    """Seed 000 Table 3: F* nothing; F inoperative->X, X->damaged; S +1; S* +2."""
    ladder = {r: [airbase_result(s, r).value for s in (AirStatus.OPERATIVE,
                                                        AirStatus.INOPERATIVE, AirStatus.X)]
              for r in Result}
    assert ladder == {
        Result.F_STAR: ["operative", "inoperative", "X"],
        Result.F: ["operative", "X", "damaged"],
        Result.S: ["inoperative", "X", "damaged"],
        Result.S_STAR: ["X", "damaged", "aborted"],
    }
    assert airbase_result(AirStatus.DAMAGED, Result.S_STAR) is AirStatus.DAMAGED
    assert str(load_tables().get("europa_surprise_airbase").source) == "published"


def test_sur22_affected_count_bounds():
    assert affected_count(2, 1, 0, 5) == 3     # markers add
    assert affected_count(2, 0, 3, 5) == 0     # CAP subtracts, never below 0
    assert affected_count(6, 2, 1, 4) == 4     # never more than present
    with pytest.raises(InputError, match="cap"):
        affected_count(1, 0, -1, 3)


def test_sur22_random_selection_is_seeded_and_fair():
    picks = Counter()
    stream = DiceStream(3, "airbase")
    for _ in range(3000):
        picks.update(select_affected(EXAMPLE, 2, stream=stream))
    assert set(picks) == {"operative", "inoperative", "extended"}
    assert all(1800 <= v <= 2200 for v in picks.values())   # each picked 2/3 of the time
    a = select_affected(EXAMPLE, 2, stream=DiceStream(9, "x"))
    assert a == select_affected(EXAMPLE, 2, stream=DiceStream(9, "x"))
    with pytest.raises(InputError, match="stream"):
        select_affected(EXAMPLE, 2)


def test_sur22_defender_choice_must_be_exact_and_eligible():
    with pytest.raises(IllegalOrder, match="SUR-22.*exactly 2"):
        select_affected(EXAMPLE, 2, CHOICE, chosen=["operative"])
    damaged = (*EXAMPLE, BaseAirUnit("wreck", AirStatus.DAMAGED))
    with pytest.raises(IllegalOrder, match="SUR-22"):
        select_affected(damaged, 1, CHOICE, chosen=["wreck"])


def test_sur22_two_nations_share_one_roll():
    """Seed 000 §47.A.5.a: "If two nations air units are on the same airbase but have different
    numbers of '+#MP' markers on them, each nations air units use the same initial roll but may
    have different effects applied to them depending on the modified result"."""
    soviet = NationOnBase(Nationality.SOVIET, (BaseAirUnit("s1", AirStatus.OPERATIVE),
                                               BaseAirUnit("s2", AirStatus.OPERATIVE)),
                          markers=1, modifier=2)
    british = NationOnBase(Nationality.COMMONWEALTH,
                           (BaseAirUnit("b1", AirStatus.OPERATIVE),), markers=0, modifier=-1)
    rec = airbase_surprise(4, 1, [soviet, british], stream=DiceStream(1, "ab"))
    s, b = rec.nations
    assert (s.modified_roll, s.outcome.result) == (6, Result.S)
    assert (b.modified_roll, b.outcome.result) == (3, Result.F)
    assert s.outcome.affected == 2 and b.outcome.affected == 1
    assert [u.after for u in s.outcome.units] == [AirStatus.INOPERATIVE] * 2
    assert rec.to_json()["die"] == 4
    with pytest.raises(InputError, match="die"):
        airbase_surprise(0, 1, [soviet])


def test_sur24_modifiers_with_city_and_date_exceptions():
    """Seed 000 Table 3 modifiers; * not in Leningrad, Baku or Moscow."""
    d41 = dt.date(1941, 6, 22)
    m = airbase_modifier(date=d41, surprise_phase=True, invasion=True, temporary_airfield=True)
    assert m.modifier == 4
    assert airbase_modifier(date=d41, surprise_phase=True, invasion=True, temporary_airfield=True,
                            city="Leningrad").modifier == 2
    assert airbase_modifier(date=dt.date(1942, 6, 1), surprise_phase=True).modifier == 1
    assert airbase_modifier(date=dt.date(1942, 5, 31), surprise_phase=True).modifier == 2
    assert airbase_modifier(date=d41, nationality=Nationality.GERMAN,
                            all_guards_or_major=True).modifier == -1
    assert [x.value for x in m.modifiers] == [1, 1, 1, 1]


def test_sur24_guards_or_major_and_soviet_normal_after_march_43():
    d = dt.date(1942, 1, 1)
    assert all_guards_or_non_soviet_major([(Nationality.GERMAN, False)], d)
    assert all_guards_or_non_soviet_major([(Nationality.SOVIET, True)], d)
    assert not all_guards_or_non_soviet_major([(Nationality.SOVIET, False)], d)
    assert not all_guards_or_non_soviet_major([(Nationality.MINOR, False)], d)
    assert all_guards_or_non_soviet_major([(Nationality.SOVIET, False)], dt.date(1943, 3, 1))


def test_sur22_when_airbase_surprise_applies():
    """Seed 000 §47.A.5.a: in any non-initial phase of a turn containing a surprise turn."""
    assert airbase_surprise_applies(AirPhase.SURPRISE, turn_has_surprise=True)
    assert airbase_surprise_applies(AirPhase.OTHER, turn_has_surprise=True)
    assert not airbase_surprise_applies(AirPhase.INITIAL, turn_has_surprise=True)
    assert not airbase_surprise_applies(AirPhase.OTHER, turn_has_surprise=False)
    assert airbase_surprise_applies(AirPhase.OTHER, turn_has_surprise=False,
                                    soviet_airbase_rule=True, date=dt.date(1942, 1, 1))
    assert not airbase_surprise_applies(AirPhase.OTHER, turn_has_surprise=False,
                                        soviet_airbase_rule=True, date=dt.date(1943, 3, 1))


def test_sur23_sequencing_and_interception_priority():
    """Seed 000 §47.A.5.a: all airbase surprise attacks (and escorts) fly at the same time before
    the defender flies any mission; interceptors go first to the airbase attackers."""
    missions = [("cap", MissionKind.DEFENDER), ("ju88", MissionKind.AIRBASE_SURPRISE_ATTACK),
                ("me109", MissionKind.ESCORT), ("he111", MissionKind.OTHER)]
    assert air_mission_order(AirPhase.SURPRISE, missions) == (
        ("ju88", "me109"), ("cap",), ("he111",))
    assert air_mission_order(AirPhase.OTHER, missions) == (("cap", "ju88", "me109", "he111"),)
    verify_interceptions([("i16", "ju88"), ("lagg", "he111")], ["ju88"])
    verify_interceptions([("i16", "ju88")], ["ju88", "do17"])  # no other interception yet
    with pytest.raises(IllegalOrder, match="SUR-23.*do17"):
        verify_interceptions([("i16", "ju88"), ("lagg", "he111")], ["ju88", "do17"])


def test_sur23_worked_examples_surprise_phase_and_other_phases():
    """SUR-23, seed 000 §47.A.5.a examples. Surprise phase: "an attacking bomber would roll on
    the table first. If a defending fighter was usable after this, the normal sequence of play
    would occur and it could intercept the bomber before it rolled for the airbase bombing
    mission." Other phases: "a fighter could intercept a bomber before it made the airbase
    surprise die roll if it was the initial movement or exploitation phase." """
    missions = [("i16", MissionKind.DEFENDER), ("ju88", MissionKind.AIRBASE_SURPRISE_ATTACK)]
    surprise = air_mission_order(AirPhase.SURPRISE, missions)
    assert surprise == (("ju88",), ("i16",))    # the surprise roll first, then the fighter
    other = air_mission_order(AirPhase.OTHER, missions)
    assert other == (("i16", "ju88"),)          # normal sequence: it may intercept first


def test_sur25_invasion_triggers_once_per_country():
    """Seed 000 §47.B 1-3."""
    h = InvasionHistory()
    assert invasion_surprise_due(h, "ussr", InvasionTrigger.BORDER_ATTACK, 1941)
    assert not invasion_surprise_due(h, "ussr", InvasionTrigger.BORDER_ATTACK, 1942)
    assert invasion_surprise_due(h, "usa", InvasionTrigger.WAR_DECLARED, 1943)
    h, rec = invasion_surprise(h, "ussr", InvasionTrigger.BORDER_ATTACK, 1941)
    assert rec.fires
    h2, rec = invasion_surprise(h, "ussr", InvasionTrigger.WAR_DECLARED, 1941)
    assert not rec.fires and h2 == h and "already" in rec.reason


def test_sur25_colonies_inherit_the_flag():
    """Seed 000 §47.B note 4: "If a major country has previously experienced invasion surprise,
    its colonies are also assumed to have suffered invasion surprise"."""
    h = InvasionHistory(colonies={"syria": "france", "libya": "italy"})
    assert invasion_surprise_due(h, "syria", InvasionTrigger.COLONY_BORDER_ATTACK, 1940)
    h, _ = invasion_surprise(h, "france", InvasionTrigger.BORDER_ATTACK, 1940)
    assert not invasion_surprise_due(h, "syria", InvasionTrigger.COLONY_BORDER_ATTACK, 1941)
    _, rec = invasion_surprise(h, "syria", InvasionTrigger.COLONY_BORDER_ATTACK, 1941)
    assert "through its major country france" in rec.reason
    assert invasion_surprise_due(h, "libya", InvasionTrigger.COLONY_BORDER_ATTACK, 1941)
    assert not invasion_surprise_due(h, "libya", InvasionTrigger.COLONY_BORDER_ATTACK, 1942)
    with pytest.raises(InputError, match="country"):
        invasion_surprise_due(h, "poland", InvasionTrigger.COLONY_BORDER_ATTACK, 1939)


def test_sur26_invasion_effects_by_mobilization():
    """Seed 000 §47.B: devastating with no mobilization, significant with partial, some with
    full; plus the cross-effects on the other rules."""
    assert invasion_effects(Mobilization.NONE).severity.value == "devastating"
    assert invasion_effects(Mobilization.PARTIAL).severity.value == "significant"
    fx = invasion_effects(Mobilization.FULL)
    assert fx.severity.value == "some"
    assert {r for r, _ in fx.cross_effects} >= {"SUR-15", "SUR-16", "SUR-18", "SUR-21", "SUR-24"}
    with pytest.raises(InputError, match="mobilization"):
        invasion_effects("total")


def test_sur22_airbase_odds_are_the_same_function_over_the_die():
    from fractions import Fraction

    assert airbase_odds(0) == {Result.F_STAR: Fraction(1, 6), Result.F: Fraction(1, 2),
                               Result.S: Fraction(1, 3)}
    odds = airbase_odds(3)   # surprise phase, Soviet 1941, invasion
    assert odds[Result.S_STAR] == Fraction(1, 2)   # modified 7..9 of 4..9
    assert sum(odds.values()) == 1
