"""Rule 47 on the map (europa/surprise_map): the map layer's front and ZOCs feed the rules.

Maps are hand-drawn (``core.mapgen.map_from_rows``); an allied wall of units stands in column
05 (c = 4), so the allied ZOC facing the Axis - the front line - is column 04.
"""

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.core.mapgen import map_from_rows
from grognard.core.paths import Forces
from grognard.europa.surprise.front import ParticipantRole, participant_role, select_participants
from grognard.europa.surprise.map import (
    bonus_supply_rejudgement,
    centre_hex_on_map,
    front_fields,
    marked_front,
    participation_candidates,
    units_near_front,
    valid_centre_on_map,
    verify_centre_on_map,
)


def lab(c, r):
    return f"{c + 1:02d}{r + 1:02d}"


def scene(rows, allied, axis, axis_ids=None):
    m = map_from_rows(rows)
    ids = [f"al{i}" for i in range(len(allied))] + (axis_ids or [f"ax{i}" for i in
                                                                 range(len(axis))])
    f = Forces.build(m, [lab(*a) for a in allied] + [lab(*x) for x in axis],
                     ["allies"] * len(allied) + ["axis"] * len(axis), ids=ids,
                     side_names=["axis", "allies"])
    return m, f


def wall(height=16, axis=None, axis_ids=None):
    return scene(["cccccccc"] * height, [(4, r) for r in range(height)],
                 axis if axis is not None else [(1, r) for r in range(0, height, 3)], axis_ids)


def test_sur12_tv05_six_srp_front_is_eleven_hexes_along_the_map_front():
    """RULES.md SUR-TV05 (000 §47.A.2.h): "if 6 SRPs were expended, the surprise front would
    extend for five hexes on either side of the centre hex" - counted along core.front's line."""
    m, f = wall()
    front = marked_front(m, f, "axis", lab(3, 8), 6)
    assert list(front.hexes) == [lab(3, r) for r in range(3, 14)]
    assert front.length == 11 and front.ends == (lab(3, 3), lab(3, 13))
    assert marked_front(m, f, "axis", lab(3, 8), 1).hexes == (lab(3, 8),)
    with pytest.raises(InputError, match="level"):
        marked_front(m, f, "axis", lab(3, 8), 0)


def test_sur12_front_stops_at_the_line_end_and_counts_from_the_nearest_line_hex():
    m, f = wall()
    assert marked_front(m, f, "axis", lab(3, 1), 4).hexes == tuple(lab(3, r) for r in range(5))
    # a centre off the line (in the Axis rear) counts from its nearest line hex
    line = front_fields(m, f, "axis").front.labels()
    p = front_fields(m, f, "axis").front.position(lab(1, 8))
    assert marked_front(m, f, "axis", lab(1, 8), 2).hexes == tuple(line[p - 1: p + 2])


def test_sur07_centre_must_be_in_a_zoc_and_not_behind_the_enemy_front():
    """000 §47.A.2.c: "The centre hex must be in an enemy or a friendly ZOC. It must not be
    behind the enemy front line"."""
    m, f = wall()
    assert valid_centre_on_map(m, f, "axis", lab(3, 4))  # in the enemy ZOC, on the front
    assert valid_centre_on_map(m, f, "axis", lab(0, 3))  # in a friendly ZOC, own side
    assert not valid_centre_on_map(m, f, "axis", lab(6, 4))  # behind the allied units
    ch = centre_hex_on_map(m, f, "axis", lab(6, 4))
    assert ch.behind_enemy_front_line and ch.label == lab(6, 4)
    with pytest.raises(IllegalOrder, match="SUR-07.*behind the enemy front line"):
        verify_centre_on_map(m, f, "axis", lab(6, 4))
    m2, f2 = wall(axis=[(0, 15)])
    assert not valid_centre_on_map(m2, f2, "axis", lab(1, 2))  # in no ZOC at all
    with pytest.raises(IllegalOrder, match="neither an enemy nor a friendly ZOC"):
        verify_centre_on_map(m2, f2, "axis", lab(1, 2))


def test_sur07_all_sea_centre_on_the_straight_line_across_a_gap():
    """000 §47.A.2.c: an all-sea centre hex must be on a straight line of hexes between two
    points of the front line (gap reading: bridged by the straight hex line)."""
    rows = ["cccccccc"] * 6 + ["~~~~~~~~"] * 3 + ["cccccccc"] * 6
    allied = [(4, r) for r in list(range(6)) + list(range(9, 15))]
    m, f = scene(rows, allied, [(1, 0), (1, 12)])
    assert valid_centre_on_map(m, f, "axis", lab(3, 7))
    assert not valid_centre_on_map(m, f, "axis", lab(0, 7))
    ff = front_fields(m, f, "axis")
    assert ff.front.bridged.sum() >= 3
    assert centre_hex_on_map(m, f, "axis", lab(3, 7), fields=ff).all_sea


def test_sur13_units_within_5_and_20_hexes_of_the_marked_front():
    """000 §47.A.2.h: "All friendly units within five hexes of the front lines ... must be
    counted"; RULES.md SUR-13: optional 6-20 hexes away."""
    rows = ["c" * 30] * 16
    m, f = scene(rows, [(24, r) for r in range(16)], [(21, 8), (14, 8), (1, 8)],
                 ["near", "mid", "far"])
    front = marked_front(m, f, "axis", lab(23, 8), 3)
    assert units_near_front(m, f, "axis", front) == {"near": 2, "mid": 9}
    assert units_near_front(m, f, "axis", front, within=5) == {"near": 2}
    cands = participation_candidates(m, f, "axis", front, {"near": 3, "mid": 3, "far": 3})
    assert [(c.id, participant_role(c)) for c in cands] == [
        ("near", ParticipantRole.MANDATORY), ("mid", ParticipantRole.OPTIONAL)]
    # level 3: at most 6 REs; the mandatory unit must be counted while the cap has room
    with pytest.raises(IllegalOrder, match="SUR-13.*near is within 5 hexes"):
        select_participants(cands, ["mid"], 3)
    assert select_participants(cands, ["near", "mid"], 3).re_total == 6
    with pytest.raises(InputError, match="not on the map"):
        participation_candidates(m, f, "axis", front, {"ghost": 1})


def test_sur21_bonus_supply_rejudgement_traces_the_front_units_with_core_supply():
    """000 §47.A.5.p: moved HQs recalculate their supply range, then supply is judged for all
    units of either side within the surprise front (core.supply.trace_supply)."""
    m, f = wall(axis=[(2, 8), (0, 8)], axis_ids=["pz", "hq"])
    front = marked_front(m, f, "axis", lab(3, 8), 2)
    no_hq = bonus_supply_rejudgement(m, f, front, [], {"allies": [lab(7, 8)]}, max_length=10)
    assert no_hq.judgement.units_to_judge == ("al7", "al8", "al9", "al10", "pz")
    assert no_hq.in_supply == {"al7": True, "al8": True, "al9": True, "al10": True,
                               "pz": False}
    moved = bonus_supply_rejudgement(m, f, front, ["hq"], {"allies": [lab(7, 8)]},
                                     max_length=10)
    assert moved.in_supply["pz"] is True and moved.paths["pz"][-1] == lab(0, 8)
    assert moved.to_json()["hqs_moved"] == ["hq"] and moved.to_json()["out_of_supply"] == []
    short = bonus_supply_rejudgement(m, f, front, ["hq"], {"allies": [lab(7, 8)]},
                                     max_length=1)
    assert short.in_supply["pz"] is False
    with pytest.raises(InputError, match="hqs_moved"):
        bonus_supply_rejudgement(m, f, front, ["nobody"], {}, max_length=1)
