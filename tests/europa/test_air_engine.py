"""The Europa air phase played with europa-surprise's air units through ``Game.apply``
(EUR-23..EUR-28, EUR-01, EUR-07): missions, the order kept by decisions, the non-phasing
player's interception as its own decision, and the ground-support DRM in the combat."""

from __future__ import annotations

import random

import pytest

from grognard.core.dice import Dice
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.fuzz import choose
from grognard.engine.game import Game


def air_phase(seed: int = 1, moves: dict[str, str] | None = None) -> Game:
    g = Game.new("europa-surprise", seed=seed)
    g.apply(Command("end_phase", "axis"))  # initial
    for unit, to in (moves or {}).items():
        g.apply(Command("move", "axis", {"unit": unit, "to": to}))
    g.apply(Command("end_phase", "axis"))  # movement
    assert g.phase.name == "air" and g.phase.player == "axis"
    return g


def mission(g: Game, mid: str, kind: str, target: str, units: list[str], **extra) -> dict:
    return g.apply(Command("air_mission", "axis", {"id": mid, "kind": kind, "target": target,
                                                   "units": units, **extra}))[0].data


def test_eur23_missions_then_flight_then_interception_then_resolution():
    """EUR-23: once a mission is assigned the axis may only assign more, transfer air units
    (the reading of europa/air/transfer.py) or fly them; flying, the Soviet player owes the
    interception decision; then the axis resolves the mission."""
    g = air_phase()
    d = mission(g, "m1", "ground_support", "0705", ["de-stg2", "de-jg52"])
    assert d["strikers"] == ["de-stg2"] and d["escorts"] == ["de-jg52"]
    assert g.active() == ("axis",) and g.allowed("axis") == {"air_mission", "air_transfer",
                                                              "fly_missions"}
    with pytest.raises(IllegalOrder):
        g.apply(Command("end_phase", "axis"))
    g.apply(Command("fly_missions", "axis"))
    assert {u: g.state["air_units"][u]["flown"] for u in ("de-stg2", "de-jg52")} == \
        {"de-stg2": 1, "de-jg52": 1}
    assert g.active() == ("soviet",) and g.allowed("soviet") == {"intercept"}
    with pytest.raises(IllegalOrder):  # the axis waits for the Soviet decision
        g.apply(Command("ground_support", "axis", {"mission": "m1"}))
    legal = g.legal("soviet", "intercept")
    assert Command("intercept", "soviet", {"mission": "m1", "interceptors": []}) in legal
    g.apply(Command("intercept", "soviet", {"mission": "m1", "interceptors": []}))
    assert g.active() == ("axis",) and g.allowed("axis") == {"ground_support"}
    ev = g.apply(Command("ground_support", "axis", {"mission": "m1"}))[0]
    assert ev.type == "ground_support_resolved" and ev.data["strength"] == 15  # Ju-87B wing
    roll = Dice(1).stream("europa.air.ground_support").roll("2d6").total
    assert ev.data["roll"] == roll
    assert "EUR-01" in ev.data["rules"] and "EUR-03" in ev.data["rules"]
    assert ("EUR-06" in ev.data["rules"]) == (ev.data["hits"] > 0)
    assert g.decisions() == [] and "end_phase" in g.allowed("axis")


def test_eur01_wing_ratings_come_from_the_wing_table():
    """EUR-01: the scenario's Ju-87B and He-111 wings carry the published 15-3 and 6-15."""
    g = Game.new("europa-surprise", seed=1)
    air = g.state["air_units"]
    assert (air["de-stg2"]["tactical"], air["de-stg2"]["strategic"]) == (15, 3)
    assert (air["de-kg53"]["tactical"], air["de-kg53"]["strategic"]) == (6, 15)


def test_eur06_ground_support_hit_is_the_drm_of_this_turns_attack():
    """EUR-06/EUR-22: a ground-support hit marks +1 DRM for the combat phase's attack on the
    hex (the attack reads it from the air phase); seeds are searched for a scoring mission."""
    for seed in range(1, 40):
        g = air_phase(seed, {"de-7pz": "0604"})
        mission(g, "m1", "ground_support", "0705", ["de-stg2"])
        g.apply(Command("fly_missions", "axis"))
        g.apply(Command("intercept", "soviet", {"mission": "m1", "interceptors": []}))
        gs = g.apply(Command("ground_support", "axis", {"mission": "m1"}))[0].data
        if gs["hits"]:
            break
    else:
        pytest.fail("no seed scored a hit")
    from grognard.europa.combat.support import ground_support_result

    assert ground_support_result(g.state, "0705", "axis") == gs["hits"]
    assert ground_support_result(g.state, "0705", "soviet") is None
    g.apply(Command("end_phase", "axis"))
    assert g.phase.name == "combat"
    d = g.apply(Command("attack", "axis", {"attackers": ["de-7pz"],
                                           "defender_hex": "0705"}))[0].data
    assert d["drm_breakdown"]["bombardment"] == 1 and "EUR-06" in d["rules"]
    if gs["hits"] == 2:  # the "2" reduced a defender in the air phase (EUR-06)
        assert gs["step_loss"] is not None


def test_eur07_one_air_bombardment_per_hex_per_player_turn():
    g = air_phase()
    mission(g, "m1", "ground_support", "0705", ["de-stg2"])
    with pytest.raises(IllegalOrder) as e:
        mission(g, "m2", "ground_support", "0705", ["de-kg53"])
    assert e.value.rule == "EUR-07"


def test_eur24_sweep_fights_the_ready_fighters_at_the_base():
    """EUR-24: the axis fighter sweeps 1004: one fight with the Soviet fighter based there,
    both fire (stream europa.air.sweep), results applied to both air units."""
    g = air_phase(3)
    mission(g, "m1", "sweep", "1004", ["de-jg52"])
    g.apply(Command("fly_missions", "axis"))
    assert g.allowed("axis") == {"fighter_sweep"}
    ev = g.apply(Command("fighter_sweep", "axis", {"mission": "m1"}))[0].data
    stream = Dice(3).stream("europa.air.sweep")
    assert ev["rolls"] == [stream.roll("2d6").total for _ in range(2)]
    (fight,) = ev["result"]["fights"]
    assert (fight["attacker"], fight["target"]) == ("de-jg52", "su-6iap")
    after = {"X": "eliminated", "A": "inoperative"}
    assert g.state["air_units"]["su-6iap"]["status"] == after.get(fight["vs_target"],
                                                                   "operative")
    assert g.state["air_units"]["de-jg52"]["status"] == after.get(fight["vs_attacker"],
                                                                   "operative")


def test_eur25_interception_within_half_range_by_the_defender():
    """EUR-25: su-6iap (range 6, based 1004) reaches 3 hexes: 0705 is 3 away; su-43iad (1106)
    is 4 away and is refused. The interceptor must fight the escort first."""
    g = air_phase(2)
    mission(g, "m1", "ground_support", "0705", ["de-stg2", "de-jg52"])
    g.apply(Command("fly_missions", "axis"))
    with pytest.raises(IllegalOrder) as e:
        g.apply(Command("intercept", "soviet", {"mission": "m1", "interceptors": ["su-43iad"]}))
    assert e.value.rule == "EUR-25"
    with pytest.raises(IllegalOrder):  # escorts first
        g.apply(Command("intercept", "soviet", {"mission": "m1", "interceptors": ["su-6iap"],
                                                "escort_targets": {},
                                                "strike_targets": {"su-6iap": "de-stg2"}}))
    ev = g.apply(Command("intercept", "soviet", {"mission": "m1",
                                                 "interceptors": ["su-6iap"]}))[0].data
    (esc,) = ev["result"]["escort_fights"]
    assert (esc["attacker"], esc["target"]) == ("su-6iap", "de-jg52")
    assert g.state["air_units"]["su-6iap"]["flown"] == 1
    strikers = ev["result"]["strikers_remaining"]
    gs = g.apply(Command("ground_support", "axis", {"mission": "m1"}))[0].data
    assert gs["strength"] == 15 * len(strikers)


def test_eur26_interdiction_places_a_zone():
    """EUR-26: a tactical rating of 15 always passes the D6 test: the zone is in the state."""
    g = air_phase()
    mission(g, "m1", "interdiction", "0905", ["de-stg2"])
    g.apply(Command("fly_missions", "axis"))
    g.apply(Command("intercept", "soviet", {"mission": "m1", "interceptors": []}))
    ev = g.apply(Command("interdiction", "axis", {"mission": "m1"}))[0].data
    assert ev["result"]["zone"]["centre"] == "0905"
    assert [z["centre"] for z in g.state["air"]["zones"]] == ["0905"]


def test_eur27_airbase_attack_hits_the_base_and_grounds_its_units():
    """EUR-27: hits on 1004 turn that many of its active air units inactive (never eliminated)
    and cut the units that may fly from it; the Soviet player repairs one hit after his own
    air phase."""
    for seed in range(1, 40):
        g = air_phase(seed)
        mission(g, "m1", "airbase_attack", "1004", ["de-stg2", "de-kg53"])
        g.apply(Command("fly_missions", "axis"))
        g.apply(Command("intercept", "soviet", {"mission": "m1", "interceptors": []}))
        ev = g.apply(Command("airbase_attack", "axis", {"mission": "m1"}))[0].data
        if ev["result"]["hits"]:
            break
    hits = ev["result"]["hits"]
    assert hits and ev["strength"] == 21 and "EUR-05" in ev["rules"]
    grounded = ev["result"]["made_inactive"]
    assert len(grounded) == min(hits, 2)
    assert all(g.state["air_units"][u]["status"] == "inoperative" for u in grounded)
    assert g.state["air"]["airbases"]["1004"]["hits"] == hits
    with pytest.raises(IllegalOrder):  # the axis cannot repair the Soviet base
        g.apply(Command("airbase_repair", "axis", {"base": "1004"}))


def test_eur28_factory_bombing_cuts_soviet_replacements():
    """EUR-28: the He-111 wing (strategic 15) bombs Vitebsk's factories: 1 replacement point
    per 2 hits leaves the Soviet infantry pool."""
    seen = set()
    for seed in range(1, 60):
        g = air_phase(seed)
        before = g.state["replacements"]["pools"]["soviet"]["infantry"]
        mission(g, "m1", "strategic_bombing", "0805", ["de-kg53"], objective="factory")
        g.apply(Command("fly_missions", "axis"))
        g.apply(Command("intercept", "soviet", {"mission": "m1", "interceptors": []}))
        ev = g.apply(Command("strategic_bombing", "axis", {"mission": "m1"}))[0].data
        hits = ev["result"]["hits"]
        after = g.state["replacements"]["pools"]["soviet"]["infantry"]
        assert int(before) - int(after) == hits // 2
        assert ("EUR-05" in ev["rules"]) == (hits > 0)  # hits on a facility
        seen.add(hits)
        if 2 in seen and (0 in seen or 1 in seen):
            break
    assert 2 in seen


def test_eur23_legacy_orders_are_refused_where_the_scenario_has_air_units():
    g = air_phase()
    with pytest.raises(IllegalOrder) as e:
        g.apply(Command("fighter_sweep", "axis", {"sweepers": [{"id": "x", "air_combat": 9}],
                                                  "defenders": [{"id": "y"}]}))
    assert e.value.rule == "EUR-24"


def test_eur23_random_play_flies_the_air_phase():
    """Random legal play (the fuzzer's choice of kind, then command) flies the air phase."""
    types: set[str] = set()
    for seed in range(10):
        g = air_phase(4)
        rng = random.Random(seed)
        while g.phase.name == "air" and g.phase.player == "axis":
            cmd = choose(g, rng)
            assert cmd is not None
            types |= {e.type for e in g.apply(cmd)}
        if "air_missions_flown" in types:
            break
    assert {"air_mission_assigned", "air_missions_flown"} <= types


def test_eur07_air_and_artillery_earn_one_drm_between_them():
    """EUR-07: ground support scored on 0705 in the air phase and the barrage scores again in
    the combat phase: the attack still gets a single +1 (the event names EUR-07)."""
    for seed in range(1, 80):
        g = air_phase(seed, {"de-7pz": "0604", "de-art": "0604"})
        mission(g, "m1", "ground_support", "0705", ["de-stg2"])
        g.apply(Command("fly_missions", "axis"))
        g.apply(Command("intercept", "soviet", {"mission": "m1", "interceptors": []}))
        gs = g.apply(Command("ground_support", "axis", {"mission": "m1"}))[0].data
        if not gs["hits"]:
            continue
        g.apply(Command("end_phase", "axis"))
        d = g.apply(Command("attack", "axis", {"attackers": ["de-7pz", "de-art"],
                                               "defender_hex": "0705"}))[0].data
        if d["barrage"]["hits"]:
            break
    else:
        pytest.fail("no seed where both scored")
    assert d["drm_breakdown"]["bombardment"] == 1 and d["barrage"]["combat_drm"] == 1
    assert {"EUR-07", "EUR-29", "EUR-06"} <= set(d["rules"])


def test_eur25_no_decision_when_no_fighter_reaches_the_mission():
    """EUR-25: interception is voluntary; a mission no ready Soviet fighter reaches (0302 is
    7+ hexes from the Soviet bases) resolves without asking the Soviet player."""
    g = air_phase()
    mission(g, "m1", "interdiction", "0302", ["de-stg2"])
    g.apply(Command("fly_missions", "axis"))
    assert g.active() == ("axis",) and g.allowed("axis") == {"interdiction"}


def test_eur23_a_mission_order_reads_as_its_kind_and_target():
    """EUR-23 (issue 26 words): the interception and the mission's resolution name the mission
    by its kind and target hex as this air phase assigned it, not by the player's id."""
    g = air_phase()
    mission(g, "m1", "ground_support", "0705", ["de-stg2", "de-jg52"])
    g.apply(Command("fly_missions", "axis"))
    words = g.describe(Command("intercept", "soviet", {"mission": "m1", "interceptors": []}))
    assert words.text == "Do not intercept the ground support over 0705"
    g.apply(Command("intercept", "soviet", {"mission": "m1", "interceptors": []}))
    words = g.describe(Command("ground_support", "axis", {"mission": "m1"}))
    assert words.text == "Fly ground support over 0705"
    assert "mission m9" in g.describe(Command("ground_support", "axis", {"mission": "m9"})).text
