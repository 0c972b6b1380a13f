"""Tests of TR-63 (bridgeheads)."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.third_reich.air_naval.naval_ops import NavalReadings, RemovalCheck
from grognard.third_reich.combat.bridgeheads import (
    Bridgeheads,
    acts_as_port,
    attacks_out_ok,
    bridgehead_upkeep,
    can_place_bridgehead,
    place_bridgehead,
    remove_bridgehead,
    sea_sr_via_bridgehead_ok,
    stacking_limit,
)
from grognard.third_reich.turn.powers import Power


def three() -> Bridgeheads:
    s = Bridgeheads()
    for h in ("A1", "B2", "C3"):
        s, _ = place_bridgehead(s, "uk", h)
    return s


def test_tr63_bridgehead_stacks_four_and_acts_as_port() -> None:
    """002_67ce4e3275b117b3.txt "Bridgeheads": "may now stack up to 4 units in that hex
    instead of 2 units" ... "Bridgeheads act like a friendly controlled port"."""
    s, rec = place_bridgehead(Bridgeheads(), Power.UK, "Salerno")
    assert rec.placed == "Salerno" and rec.count == 1
    assert stacking_limit(s, "Salerno") == 4 and stacking_limit(s, "Naples") == 2
    assert acts_as_port(s, "Salerno", "uk") and not acts_as_port(s, "Salerno", "us")
    assert sea_sr_via_bridgehead_ok(s, "Salerno", "uk", escort_in_zone=True)
    assert not sea_sr_via_bridgehead_ok(s, "Salerno", "uk", escort_in_zone=False)


def test_tr63_only_after_a_successful_invasion() -> None:
    assert not can_place_bridgehead(Bridgeheads(), "uk", "X", invasion_succeeded=False)
    with pytest.raises(IllegalOrder) as e:
        place_bridgehead(Bridgeheads(), "uk", "X", invasion_succeeded=False)
    assert e.value.rule == "TR-63"


def test_tr63_at_most_three_per_power_remove_one_to_place_another() -> None:
    s = three()
    assert not can_place_bridgehead(s, "uk", "D4")
    assert can_place_bridgehead(s, "us", "D4")
    s2, rec = place_bridgehead(s, "uk", "D4", remove="A1")
    assert s2.of("uk") == ("B2", "C3", "D4") and rec.removed == ("A1",)
    with pytest.raises(IllegalOrder, match="no bridgehead at Z9"):
        place_bridgehead(s, "uk", "D4", remove="Z9")
    with pytest.raises(IllegalOrder, match="already holds"):
        place_bridgehead(s, "us", "A1")


def test_tr63_removed_at_start_of_friendly_turn_without_adjacent_enemy() -> None:
    """002_67ce4e3275b117b3.txt: "If at the start of a friendly turn, there are no enemy units
    adjacent to a bridgehead hex, the bridgehead marker is removed"."""
    s = three()
    s2, rec = bridgehead_upkeep(s, "uk", "start", {"A1": True, "B2": False, "C3": True})
    assert s2.of("uk") == ("A1", "C3") and rec.removed == ("B2",)
    assert stacking_limit(s2, "B2") == 2
    same, rec2 = bridgehead_upkeep(s, "uk", RemovalCheck.END, {"A1": False})
    assert same == s and rec2.removed == ()
    with pytest.raises(InputError, match="B2"):
        bridgehead_upkeep(s, "uk", "start", {"A1": True})


def test_tr63_end_reading_checks_at_end_of_friendly_turn() -> None:
    r = NavalReadings(bridgehead_removal_check=RemovalCheck.END)
    s = three()
    same, _ = bridgehead_upkeep(s, "uk", "start", {}, r)
    assert same == s
    s2, rec = bridgehead_upkeep(s, "uk", "end", {"A1": False, "B2": False, "C3": True}, r)
    assert rec.removed == ("A1", "B2") and s2.of("uk") == ("C3",)


def test_tr63_two_attackers_per_hexside() -> None:
    assert attacks_out_ok([2, 2]) and not attacks_out_ok([3, 1])
    with pytest.raises(InputError):
        attacks_out_ok([-1])


def test_tr63_voluntary_removal_and_json_round_trip() -> None:
    s = three()
    s2, _ = remove_bridgehead(s, "uk", "B2")
    assert s2.of("uk") == ("A1", "C3")
    with pytest.raises(IllegalOrder):
        remove_bridgehead(s2, "uk", "B2")
    assert Bridgeheads.from_json(s.to_json()) == s
    with pytest.raises(InputError):
        Bridgeheads.from_json({"narnia": ["A1"]})


def test_tr63_bridgehead_mask_raises_core_stacking_limit_to_four() -> None:
    from grognard.core.mapgen import map_from_rows
    from grognard.core.stacking import stacking_limits, third_reich_stacking
    from grognard.third_reich.combat.bridgeheads import bridgehead_mask

    m = map_from_rows(["ccc"])
    s, _ = place_bridgehead(Bridgeheads(), "us", "0201")
    limits = stacking_limits(m, third_reich_stacking(), bridgehead_mask(m, s))
    assert limits.tolist() == [2, 4, 2]
    with pytest.raises(InputError):
        bridgehead_mask(m, place_bridgehead(Bridgeheads(), "us", "9999")[0])
