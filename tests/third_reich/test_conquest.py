"""TR-22..TR-26: conquest of minors and regions, second conquests, minor allies, Vichy."""

from __future__ import annotations

import pytest

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.third_reich.conquest.conquest import (
    axis_minors_join,
    conquer,
    draw_vichy_rolls,
    form_vichy,
    minor_conquered,
    minor_joins,
    region_conquered,
)
from grognard.third_reich.economy.economy import Economy, at_turn, declare_war, new_campaign
from grognard.third_reich.economy.readings import StrategicReadings, VichyAlignment
from grognard.third_reich.economy.year_start import year_start
from grognard.third_reich.turn.powers import Power


def test_tr22_capital_held_through_enemy_next_player_turn():
    """Seed 002 "Conquests...": hold the capital through the end of the enemy's next player
    turn; the minor gets a chance to recapture it."""
    hist = [("axis", "axis"), ("ussr", "axis"), ("allies", "axis")]
    assert minor_conquered(hist, "axis", "allies") == 2
    retaken = [("axis", "axis"), ("allies", "allies"), ("axis", "axis"), ("allies", "axis")]
    assert minor_conquered(retaken, "axis", "allies") == 3
    assert minor_conquered([("axis", "axis")], "axis", "allies") is None


def test_tr22_region_needs_every_city():
    assert region_conquered({"damascus": "uk", "beirut": "uk"}, "uk")
    assert not region_conquered({"damascus": "uk", "beirut": "vichy"}, "uk")
    with pytest.raises(InputError):
        region_conquered({}, "uk")


def test_tr11_conquest_goes_to_pending_base():
    e, rec = conquer(new_campaign(), "poland", "germany")
    assert rec.gained == 20 and e.balance("germany.pending") == 20
    assert e.conquests["poland"] is Power.GERMANY
    assert e.ledger.entries[-1].rule == "TR-11"


def test_tr23_second_conquest_first_loses_new_gains_nothing():
    """Seed 002: 'If any region is conquered for a second time, the original conquering power
    loses those BRPs from its economic base, but the new conqueror does not receive them.'"""
    e = declare_war(new_campaign(), "ussr", on_germany=True)
    e, _ = conquer(e, "baltic_states", "ussr")
    e, rec = conquer(e, "baltic_states", "germany")
    assert (rec.gained, rec.lost_by, rec.lost, rec.rule) == (0, "ussr", 10, "TR-23")
    assert e.balance("ussr.pending") == 0 and e.balance("germany.pending") == 0
    e, rec3 = conquer(e, "baltic_states", "ussr")
    assert rec3.gained == 0 and e.balance("ussr.pending") == 0


def test_tr24_axis_minors_join_summer_1941_pay_in_spring_1942():
    e = at_turn(new_campaign(), 9)
    e, joined = axis_minors_join(e)
    assert set(joined) == {"hungary", "romania", "bulgaria", "finland"}
    assert e.balance("germany.pending") == 35
    with pytest.raises(IllegalOrder, match="TR-24"):
        axis_minors_join(at_turn(new_campaign(), 8))


def test_tr24_minor_ally_conquered_before_year_start_pays_its_conqueror():
    """Seed 002: only an unconquered minor ally pays its patron; a conquered minor enemy pays
    its conqueror."""
    e = declare_war(at_turn(new_campaign(), 9), "ussr", on_germany=True)
    e, _ = axis_minors_join(e)
    e, rec = conquer(e, "finland", "ussr")
    assert e.balance("germany.pending") == 30 and e.balance("ussr.pending") == 5
    assert rec.lost_by == "germany"


def test_tr24_minor_joins_only_once():
    e = minor_joins(new_campaign(), "greece", "uk")
    assert e.balance("uk.pending") == 10
    with pytest.raises(IllegalOrder):
        minor_joins(e, "greece", "uk")


def test_tr26_vichy_germany_25_free_french_colonies_to_uk():
    """Seed 002 "Post playtest refinements": occupied France 25 to Germany; Syria and French
    North Africa roll 50-50; the UK earns the Free French colonies."""
    e = new_campaign()
    rolls = {"morocco": 1, "algeria": 4, "tunisia": 3, "syria": 6}
    e, rec = form_vichy(e, rolls)
    assert rec.alignment == {"morocco": "vichy", "algeria": "free_french",
                             "tunisia": "vichy", "syria": "free_french"}
    assert e.balance("germany.pending") == 25 and e.balance("uk.pending") == 10
    assert Power.FRANCE not in e.powers
    with pytest.raises(IllegalOrder, match="TR-26"):
        form_vichy(e, rolls)


def test_tr26_vichy_alignment_granularity_reading():
    e = new_campaign(readings=StrategicReadings(
        vichy_alignment_granularity=VichyAlignment.NORTH_AFRICA_TOGETHER))
    e, rec = form_vichy(e, {"north_africa": 5, "syria": 2})
    assert rec.uk_gain == 15
    with pytest.raises(InputError, match="rolls"):
        form_vichy(new_campaign(), {"morocco": 7})


def test_tr26_vichy_annex_worth_nothing_by_default_5_by_reading():
    e, _ = form_vichy(new_campaign(), {"morocco": 1, "algeria": 1, "tunisia": 1, "syria": 1})
    e2, rec = conquer(e, "vichy", "germany")
    assert rec.gained == 0 and e2.balance("germany.pending") == 25
    r5 = Economy(**{**e.__dict__, "readings": StrategicReadings(vichy_annex_value=5)})
    e3, rec3 = conquer(r5, "vichy", "germany")
    assert rec3.gained == 5 and e3.balance("germany.pending") == 30


def test_tr26_liberated_france_denies_germany():
    e, _ = form_vichy(new_campaign(), {"morocco": 1, "algeria": 1, "tunisia": 1, "syria": 1})
    e, rec = conquer(e, "occupied_france", "uk")
    assert rec.gained == 0 and e.balance("germany.pending") == 0


def test_tr26_vichy_rolls_are_seeded():
    s1 = draw_vichy_rolls(Dice(5).stream("vichy"), VichyAlignment.PER_COLONY)
    s2 = draw_vichy_rolls(Dice(5).stream("vichy"), VichyAlignment.PER_COLONY)
    assert s1 == s2 and set(s1) == {"morocco", "algeria", "tunisia", "syria"}


def test_tr26_france_has_no_more_year_start():
    e, _ = form_vichy(at_turn(new_campaign(), 6), {"morocco": 1, "algeria": 1, "tunisia": 1,
                                                   "syria": 1})
    e, rec = year_start(at_turn(e, 8))
    assert "france" not in {p.power for p in rec.powers}


def test_tr22_occupy_changes_give_each_city_its_holder_before_and_after() -> None:
    """TR-22: every city hex holding an active ground unit passes to the unit's side; the
    changes name the holder before and after (what TR-77's losses are computed from); units
    off the map, eliminated or not ground units take nothing."""
    from grognard.third_reich.conquest.control import occupy, occupy_changes

    def unit(h: str | None, side: str, status: str = "active", kind: str = "infantry") -> dict:
        return {"hex": h, "side": side, "status": status, "type": kind}

    s = {"city_hexes": {"C11": ["Warsaw"], "D12": ["Lodz", "Kutno"], "E13": ["Brest"]},
         "control": {"Warsaw": "allies", "Lodz": "allies", "Kutno": "axis", "Brest": "allies"},
         "units": {"a": unit("C11", "axis"), "b": unit("D12", "axis"),
                   "c": unit("E13", "axis", status="eliminated"), "d": unit(None, "axis"),
                   "e": unit("E13", "axis", kind="fighter")}}
    assert occupy_changes(s) == [("Warsaw", "allies", "axis"), ("Lodz", "allies", "axis")]
    assert s["control"] == {"Warsaw": "axis", "Lodz": "axis", "Kutno": "axis", "Brest": "allies"}
    assert occupy(s) == []  # nothing left to change
    s["units"]["f"] = unit("C11", "allies")  # both sides in one hex: the last unit decides
    s["units"]["g"] = unit("C11", "axis")
    assert occupy_changes(s) == [("Warsaw", "axis", "axis"), ("Warsaw", "axis", "axis")]
