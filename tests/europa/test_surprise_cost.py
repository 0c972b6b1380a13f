"""SUR-01..SUR-03, SUR-07, SUR-08, SUR-12..SUR-14: rule 47 vocabulary, cost table, front, limits.

Source: /work/shared/seeds/000_0eee5b9a7c244d48.txt (Europa rule 47, "SURPRISE TURNS").
"""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.tables import load_tables
from grognard.europa.surprise.front import (
    AssaultType,
    Candidate,
    CentreHex,
    FundingKind,
    FundingSource,
    ParticipantRole,
    front_extent,
    funding_valid,
    may_act_in_bonus_phase,
    participant_role,
    select_participants,
    surprise_front,
    valid_centre,
    verify_centre,
)
from grognard.europa.surprise.general import (
    BonusPhase,
    DistanceCapMode,
    Nationality,
    Participation,
    PlanKey,
    SurpriseKind,
    SurpriseReadings,
    bonus_phases,
    can_designate,
    level_for_re,
    may_participate,
    parse_nationality,
    participation_re,
    printed_cost_table,
    surprise_cost,
    turn_with_surprise,
    verify_designate_limit,
)

# Table 1 "Surprise Turn Cost Table" of 47.A.1 as printed (SRP / SP / RE), the regression fixture.
PRINTED = [
    (1, 1, 1), (2, 1, 3), (3, 2, 6), (4, 4, 10), (5, 5, 15), (6, 7, 21), (7, 10, 28),
    (8, 12, 36), (9, 15, 45), (10, 19, 55), (11, 22, 66), (12, 26, 78), (13, 31, 91),
    (14, 35, 105), (15, 40, 120), (16, 46, 136), (17, 51, 153), (18, 57, 171), (19, 64, 190),
    (20, 70, 210), (21, 77, 231), (22, 85, 253), (23, 92, 276), (24, 100, 300), (25, 109, 325),
    (26, 117, 351), (27, 126, 378), (28, 136, 406), (29, 145, 435), (30, 155, 465),
    (31, 166, 496), (32, 176, 528), (33, 187, 561), (34, 199, 595), (35, 210, 630),
    (36, 222, 666), (37, 235, 703), (38, 247, 741), (39, 260, 780), (40, 274, 820),
]


def test_sur03_tv01_sample_rows():
    """SUR-TV01, seed 000 §47.A.1 Table 1: 5/5/15, 10/19/55, 20/70/210, 30/155/465."""
    got = [(c.srp, c.sp, c.re) for c in map(surprise_cost, (5, 10, 20, 30))]
    assert got == [(5, 5, 15), (10, 19, 55), (20, 70, 210), (30, 155, 465)]


@pytest.mark.parametrize(("srp", "sp", "re"), PRINTED)
def test_sur03_all_40_printed_rows_match_closed_form(srp, sp, re):
    """SUR-TV01: all 40 printed rows of Table 1 equal RE = n(n+1)/2, SP = ceil(RE/3)."""
    c = surprise_cost(srp)
    assert (c.level, c.srp, c.sp, c.re) == (srp, srp, sp, re)


def test_sur03_shipped_toml_is_the_printed_table():
    """The published TOML table carries exactly the 40 printed rows."""
    table = load_tables().get("europa_surprise_cost")
    assert str(table.source) == "published"
    rows = printed_cost_table()
    assert [(r.srp, r.sp, r.re) for r in rows.values()] == PRINTED


def test_sur03_sp_rounding_is_ceil_not_floor():
    # rows with n = 1 mod 3 distinguish ceil from floor: level 4 -> 10 REs -> 4 SPs (not 3)
    assert surprise_cost(4).sp == 4
    assert surprise_cost(40).sp == 274


def test_sur03_levels_above_40_follow_the_reading():
    with pytest.raises(InputError, match="level"):
        surprise_cost(41)
    above = SurpriseReadings(surprise_allow_formula_above_40=True)
    c = surprise_cost(41, above)
    assert (c.srp, c.sp, c.re) == (41, 287, 861)


@pytest.mark.parametrize("bad", [0, -3])
def test_sur03_level_below_one_is_refused(bad):
    with pytest.raises(InputError, match="level"):
        surprise_cost(bad)


def test_sur03_level_for_re_is_the_smallest_covering_level():
    assert level_for_re(55).level == 10
    assert level_for_re(56).level == 11
    assert level_for_re(1).level == 1
    assert level_for_re(Fraction(7, 2)).level == 3  # 3.5 REs -> 4 -> level 3 (6 REs)
    assert level_for_re(820).level == 40
    with pytest.raises(InputError, match="re"):
        level_for_re(821)
    with pytest.raises(InputError, match="re"):
        level_for_re(-1)
    with pytest.raises(InputError, match="re"):
        level_for_re(0)


@given(st.integers(min_value=1, max_value=820))
def test_sur03_level_for_re_inverse_property(k):
    n = level_for_re(k).level
    assert surprise_cost(n).re >= k
    assert n == 1 or surprise_cost(n - 1).re < k


def test_sur02_participation_counts_each_category():
    """Seed 000 §47.A.1 a-f: ground REs, HQs, air units / SAF missions / 3 TBF, 4 TF points,
    transports, ships."""
    p = participation_re(Participation(
        ground_re=Fraction(21, 2), hqs=2, air_units=5, saf_bombing_missions=2,
        saf_tbf_points=(7, 3), tf_strength_points=(9, 4), transports=3, ships=4))
    assert p.ground == Fraction(21, 2)
    assert p.air == 5 + 2 + 3 + 1          # 7 TBF -> 3 (ceil), 3 TBF -> 1
    assert p.task_forces == 3 + 1          # 9 points -> 3 (ceil), 4 -> 1
    assert p.total == Fraction(21, 2) + 2 + 11 + 4 + 3 + 4
    assert p.to_json()["total"] == "34.5"
    with pytest.raises(InputError, match="hqs"):
        participation_re(Participation(hqs=-1))
    with pytest.raises(InputError, match=r"tf_strength_points\[0\]"):
        participation_re(Participation(tf_strength_points=(-4,)))


def test_sur01_bonus_phases_local_and_invasion():
    assert bonus_phases(SurpriseKind.LOCAL) == (
        BonusPhase.BONUS_MOVEMENT, BonusPhase.REACTION, BonusPhase.BONUS_COMBAT,
        BonusPhase.BONUS_SUPPLY_AIR)
    assert BonusPhase.REACTION not in bonus_phases(SurpriseKind.INVASION)
    assert BonusPhase.REACTION not in bonus_phases(SurpriseKind.LOCAL, initial=True)
    seq = turn_with_surprise(["initial", "movement", "combat", "exploitation"],
                             SurpriseKind.LOCAL)
    assert seq[:2] == ("initial", "bonus_movement")
    assert seq[-3:] == ("movement", "combat", "exploitation")
    with pytest.raises(InputError, match="regular_phases"):
        turn_with_surprise(["movement"], SurpriseKind.LOCAL)


def test_sur07_centre_hex_validity():
    """Seed 000 §47.A.2.c: in an enemy or friendly ZOC, not behind the enemy front line;
    all-sea only on a straight line between two front-line points."""
    assert valid_centre(CentreHex("2010", in_enemy_zoc=True))
    assert valid_centre(CentreHex("2010", in_friendly_zoc=True))
    assert not valid_centre(CentreHex("2010"))
    assert not valid_centre(CentreHex("2010", in_enemy_zoc=True, behind_enemy_front_line=True))
    assert not valid_centre(CentreHex("2010", in_enemy_zoc=True, all_sea=True))
    assert valid_centre(CentreHex("2010", in_enemy_zoc=True, all_sea=True,
                                  on_line_between_front_points=True))
    with pytest.raises(IllegalOrder, match="SUR-07.*behind the enemy front line"):
        verify_centre(CentreHex("2010", in_enemy_zoc=True, behind_enemy_front_line=True))


def test_sur08_funding_within_level_infantry_mps():
    """Seed 000 §47.A.2.d: funding within as many infantry MPs of the centre as SRPs."""
    depot = FundingSource(FundingKind.DEPOT, 10, 19, "depot", infantry_mps_to_centre=10)
    far = FundingSource(FundingKind.DEPOT, 10, 19, "far depot", infantry_mps_to_centre=11)
    pool = FundingSource(FundingKind.NATIONAL_POOL, 10, 19)
    assert funding_valid([depot], 10)
    assert not funding_valid([far], 10)
    assert funding_valid([pool], 10)
    assert not funding_valid([pool], 10, readings=SurpriseReadings(
        surprise_pool_funds_need_location=True))
    amphib = FundingSource(FundingKind.HQ, 5, 5, within_hq_supply_range=True)
    assert funding_valid([amphib], 5, AssaultType.AMPHIBIOUS)
    assert not funding_valid([FundingSource(FundingKind.HQ, 5, 5)], 5, AssaultType.AIRBORNE)
    port = FundingSource(FundingKind.SUPPLY_UNIT, 5, 5, with_naval_units_in_port=True)
    assert funding_valid([port], 5, AssaultType.AMPHIBIOUS)


def test_sur12_tv05_six_srp_front_reaches_five_hexes_each_side():
    """SUR-TV05, seed 000 §47.A.2.h: "if 6 SRPs were expended, the surprise front would extend
    for five hexes on either side of the centre hex"."""
    ext = front_extent(6)
    assert (ext.hexes_each_side, ext.length) == (5, 11)
    line = [f"{c:02d}10" for c in range(1, 31)]
    front = surprise_front("1510", 6, line)
    assert front.hexes_each_side == 5
    assert front.length == 11
    assert front.ends == ("1010", "2010")
    assert front.hexes == tuple(line[9:20])


def test_sur12_front_counts_along_a_curved_line_and_stops_at_its_ends():
    # a curving front line given by the map layer; counting follows the line, not distance
    line = ["a", "b", "c", "d", "e"]
    front = surprise_front("b", 4, line)
    assert front.hexes == ("a", "b", "c", "d", "e")
    assert front.ends == ("a", "e")
    with pytest.raises(InputError, match="centre"):
        surprise_front("z", 4, line)
    with pytest.raises(InputError, match="front_line"):
        surprise_front("a", 2, ["a", "b", "a"])


def test_sur13_participant_roles_and_re_cap():
    """Seed 000 §47.A.2.h: units within 5 hexes must count if possible; 5-20 may; naval units
    that end within 5 hexes or fight there may."""
    near = Candidate("pz1", 3, hexes_from_front=2)
    mid = Candidate("inf2", 2, hexes_from_front=12)
    far = Candidate("inf3", 1, hexes_from_front=21)
    ship = Candidate("tf", 1, naval=True, naval_combat_within_5=True)
    idle_ship = Candidate("tf2", 1, naval=True)
    loaded = Candidate("mar", 1, loaded_on_participating_naval=True)
    assert participant_role(near) is ParticipantRole.MANDATORY
    assert participant_role(mid) is ParticipantRole.OPTIONAL
    assert participant_role(far) is ParticipantRole.INELIGIBLE
    assert participant_role(ship) is ParticipantRole.OPTIONAL
    assert participant_role(idle_ship) is ParticipantRole.INELIGIBLE
    assert participant_role(loaded) is ParticipantRole.MANDATORY
    cands = [near, mid, far, ship, loaded]
    got = select_participants(cands, ["pz1", "mar", "inf2"], 3)   # cap RE(3) = 6
    assert got.re_total == 6 and got.cap == 6
    with pytest.raises(IllegalOrder, match="SUR-13.*must be counted"):
        select_participants(cands, ["inf2"], 3)          # pz1 left out with room for it
    with pytest.raises(IllegalOrder, match="SUR-13.*at most 6"):
        select_participants(cands, ["pz1", "mar", "inf2", "tf"], 3)
    with pytest.raises(IllegalOrder, match="SUR-13.*too far"):
        select_participants(cands, ["inf3"], 3)
    # "if possible": when the cap is full, a mandatory unit may be left out
    assert may_act_in_bonus_phase("pz1", select_participants(cands, ["pz1", "mar", "inf2"], 3))
    assert not may_act_in_bonus_phase("tf", select_participants(cands, ["pz1", "mar", "inf2"], 3))
    got = select_participants([Candidate("a", 3, hexes_from_front=1),
                               Candidate("b", 3, hexes_from_front=1)], ["a"], 2)
    assert got.left_out == ("b",)


def test_sur13_optional_units_do_not_displace_units_that_must_count():
    """SUR-13, seed 000 §47.A.2.h: "All friendly units within five hexes of the front lines ...
    **must** be counted in the total allowable REs participating in the surprise turn (if
    possible)." and "Any friendly ground or air unit more than five and up to 20 hexes from the
    front lines may also be marked". Filling the cap with a unit 12 hexes away while a unit 1 hex
    away is left out is not allowed: counting the near unit was possible."""
    a = Candidate("a", 3, hexes_from_front=1)
    b = Candidate("b", 3, hexes_from_front=1)
    m = Candidate("m", 3, hexes_from_front=12)
    with pytest.raises(IllegalOrder, match="SUR-13.*b is within 5 hexes"):
        select_participants([a, b, m], ["a", "m"], 3)          # cap RE(3) = 6
    assert select_participants([a, b, m], ["a", "b"], 3).left_out == ()


def test_sur14_one_plan_per_front_command_continent():
    """Seed 000 §47.A.3: only one surprise turn per front/command per continent."""
    agc = PlanKey("axis", "AGC", "europe")
    assert can_designate(agc, [PlanKey("axis", "AGN", "europe")])
    assert can_designate(agc, [PlanKey("axis", "AGC", "africa")])
    assert not can_designate(agc, [agc])
    with pytest.raises(IllegalOrder, match="SUR-14"):
        verify_designate_limit(agc, [agc])


def test_sur14_minor_allies_and_italians_for_germany():
    """Seed 000 §47.A.3: minor allies count; Germany may also include Italian units."""
    assert may_participate(Nationality.GERMAN, Nationality.ITALIAN)
    assert may_participate(Nationality.SOVIET, Nationality.MINOR, minor_ally=True)
    assert not may_participate(Nationality.SOVIET, Nationality.MINOR)
    assert not may_participate(Nationality.ITALIAN, Nationality.GERMAN)
    assert not may_participate(Nationality.US, Nationality.COMMONWEALTH)


def test_readings_defaults_and_round_trip():
    r = SurpriseReadings()
    assert r.surprise_distance_cap_mode is DistanceCapMode.PENALTY_CAP
    assert r.surprise_marker_mp_each == 1
    assert SurpriseReadings.from_mapping(r.to_mapping()) == r
    with pytest.raises(InputError, match="readings.nope"):
        SurpriseReadings.from_mapping({"nope": 1})
    with pytest.raises(InputError, match="unknown nationality"):
        parse_nationality("martian")
