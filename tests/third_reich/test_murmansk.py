"""TR-20, TR-21: the Murmansk box, its combat sequence and per-player views."""

from __future__ import annotations

import pytest

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder, InputError
from grognard.third_reich.economy.readings import MurmanskTiming
from grognard.third_reich.strategic.murmansk import (
    AlliedAssets,
    GermanAssets,
    MurmanskBox,
    MurmanskRolls,
    commit_allied,
    commit_german,
    draw_rolls,
    murmansk_combat,
    place_shipment,
    resolve,
    view,
)


def test_tr21_nothing_german_everything_arrives():
    r = murmansk_combat(GermanAssets(), AlliedAssets(naval=9), 40, MurmanskRolls())
    assert r.brps_delivered == 40 and r.brp_hits == 0


def test_tr21_full_sequence_version_a():
    """TR-21: air v fleets (fleets reply 1/3), air at BRPs; fleets exchange, German fleets at
    BRPs; ASW v subs (subs reply 1/2, 0.6 rule); subs at BRPs with 2x."""
    g = GermanAssets(air=5, naval=9, subs=6)
    a = AlliedAssets(naval=9, asw=4)
    rolls = MurmanskRolls(
        air_vs_fleets=10,  # 5 x 0.6 = 3 -> fleets 9 -> 6
        fleets_vs_air=10,  # 6/3 = 2 factors x 0.6 = 1.2 -> 1 -> air 5 -> 4
        air_vs_brps=6,  # 4 x 0.4 = 1.6 -> 1
        naval_vs_fleets=6,  # 9 x 0.4 = 3.6 -> 3 -> fleets 6 -> 3
        fleets_vs_naval=9,  # 6 (before, simultaneous) x 0.6 = 3.6 -> 3 -> naval 9 -> 6
        naval_vs_brps=3,  # 6 x 0.2 = 1.2 -> 1
        asw_vs_subs=9,  # 4 x 0.6 = 2.4 -> 2 -> subs 6 -> 4
        subs_vs_asw=9,  # ceil(6/2) = 3 x 0.6 = 1.8 -> 2 (0.6 rule) -> asw 4 -> 2
        subs_vs_brps=10,  # 2 x 4 = 8 x 0.6 = 4.8 -> 4
    )
    r = murmansk_combat(g, a, 40, rolls)
    assert r.brp_hits == 2 + 1 + 4 and r.brps_delivered == 33
    assert r.german_losses == GermanAssets(air=1, naval=3, subs=2)
    assert r.allied_losses == AlliedAssets(naval=6, asw=2)
    assert [s["step"] for s in r.steps] == [
        "air_vs_fleets", "fleets_vs_air", "air_vs_brps", "naval_vs_fleets", "fleets_vs_naval",
        "naval_vs_brps", "asw_vs_subs", "subs_vs_asw", "subs_vs_brps"]


def test_tr21_hits_cannot_exceed_shipment():
    r = murmansk_combat(GermanAssets(subs=40), AlliedAssets(), 20, MurmanskRolls(subs_vs_brps=10))
    assert r.brp_hits == 20 and r.brps_delivered == 0


def test_tr21_missing_roll_named():
    with pytest.raises(InputError, match="rolls.subs_vs_brps"):
        murmansk_combat(GermanAssets(subs=1), AlliedAssets(), 20, MurmanskRolls())


def test_tr20_spring_timeline_allies_first_axis_view_hides_escorts():
    box = MurmanskBox(MurmanskTiming.SPRING)
    box = place_shipment(box, "uk")
    box = place_shipment(box, "us")
    with pytest.raises(IllegalOrder, match="TR-20"):
        commit_german(box, GermanAssets(subs=3))
    box = commit_allied(box, AlliedAssets(naval=9, asw=3))
    assert view(box, "axis")["allied"] == {"naval": None, "asw": None, "present": True}
    box = commit_german(box, GermanAssets(subs=3))
    assert view(box, "allies")["german"]["subs"] == 3  # face up in the Spring timeline
    box, res = resolve(box, draw_rolls(Dice(1).stream("murmansk")))
    assert view(box, "axis")["allied"] == {"naval": 9, "asw": 3}
    assert res.brps_sent == 40


def test_tr20_summer1_timeline_allies_see_subs_present_not_count():
    box = MurmanskBox(MurmanskTiming.SUMMER1)
    box = place_shipment(box, "uk")
    with pytest.raises(IllegalOrder, match="TR-20"):
        commit_allied(box, AlliedAssets(asw=3))
    box = commit_german(box, GermanAssets(air=5, subs=7))
    seen = view(box, "allies")["german"]
    assert seen == {"air": 5, "naval": 0, "subs": None, "subs_present": True}
    assert view(box, "axis")["german"]["subs"] == 7
    box = commit_allied(box, AlliedAssets(asw=3))
    box, _ = resolve(box, draw_rolls(Dice(2).stream("murmansk")))
    assert view(box, "allies")["german"]["subs"] == 7
    with pytest.raises(IllegalOrder, match="TR-21"):
        resolve(box, MurmanskRolls())


def test_tr19_box_takes_20_per_power_once():
    box = place_shipment(MurmanskBox(), "uk")
    with pytest.raises(IllegalOrder, match="TR-19"):
        place_shipment(box, "uk")
    with pytest.raises(IllegalOrder, match="TR-19"):
        place_shipment(box, "us", 10)
    with pytest.raises(IllegalOrder, match="TR-19"):
        place_shipment(box, "ussr")
    with pytest.raises(InputError, match="player"):
        view(box, "neutral")


def test_tr21_seeded_rolls_replay():
    a = draw_rolls(Dice(9).stream("murmansk"))
    assert a == draw_rolls(Dice(9).stream("murmansk"))
    assert all(1 <= v <= 10 for v in a.to_json().values())


def test_tr21_fleets_reply_with_a_third_read_as_floor_like_tr47():
    """TR-21 / TR-47: "western fleets may fire at German air using 1/3 factors" (002 "The
    Murmansk box and interception of lend lease to the USSR"). A third of a fleet's factors is
    read as floor(factors / 3) (RULES.md TR-35 ``naval_support_rounding``), the same third the
    air-naval step (TR-47, :func:`airnaval.air_naval`) fires with: 10 factors fire as 3, and
    3 x 0.6 = 1.8 -> 1 hit, not 10/3 x 0.6 = 2."""
    from grognard.third_reich.turn.combat_readings import NavalThirdRounding, TRCombatReadings

    rolls = MurmanskRolls(air_vs_fleets=1, fleets_vs_air=9, air_vs_brps=1)
    r = murmansk_combat(GermanAssets(air=5), AlliedAssets(naval=10), 20, rolls)
    step = r.steps[1]
    assert step["step"] == "fleets_vs_air"
    assert step["factors"] == 3 and step["hits"] == 1
    assert r.german_losses == GermanAssets(air=1)
    exact = TRCombatReadings(naval_support_rounding=NavalThirdRounding.EXACT)
    r2 = murmansk_combat(GermanAssets(air=5), AlliedAssets(naval=10), 20, rolls,
                         readings=exact)
    # TR-47: one air fleet fired, so only one 9-factor fleet fires back: 9/3 = 3 either way
    assert r2.steps[1]["factors"] == 3 and r2.steps[1]["hits"] == 1
    r3 = murmansk_combat(GermanAssets(air=10), AlliedAssets(naval=10), 20, rolls,
                         readings=exact)
    assert r3.steps[1]["factors"] == "10/3"


def test_tr47_tr21_no_more_fleets_fire_at_the_air_than_air_fleets_fired_on_them():
    """Issue 12: the Murmansk box applies TR-47's limit: 18 fleet factors (two 9-factor
    fleets) against one 5-4 air fleet reply with one fleet's third (3), not 6."""
    rolls = MurmanskRolls(air_vs_fleets=1, fleets_vs_air=10, air_vs_brps=1)
    r = murmansk_combat(GermanAssets(air=5), AlliedAssets(naval=18), 20, rolls)
    assert r.steps[1]["factors"] == 3 and r.steps[1]["hits"] == 1
    r2 = murmansk_combat(GermanAssets(air=10), AlliedAssets(naval=18), 20, rolls)
    assert r2.steps[1]["factors"] == 6


def test_tr50_tr21_nonphasing_german_air_under_5_factors_rounds_0_6_up():
    """Issue 12: the German air in the box is non-phasing; a unit under 5 factors rounds a
    fraction of 0.6 or more up (TR-50): 3 factors x 0.6 = 1.8 -> 2; 5 factors x 0.4 = 2."""
    rolls = MurmanskRolls(air_vs_brps=9)
    r = murmansk_combat(GermanAssets(air=3), AlliedAssets(), 20, rolls)
    assert r.brp_hits == 2
    r5 = murmansk_combat(GermanAssets(air=8), AlliedAssets(), 20, MurmanskRolls(air_vs_brps=9))
    assert r5.brp_hits == 3 + 2  # 5 x 0.6 = 3 pooled; the 3-factor unit 1.8 -> 2
