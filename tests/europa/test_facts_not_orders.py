"""Issue 24 item 1: orders carry the player's choices, the referee supplies the facts. An
order naming a fact (fire support, readings, weather, isolation conditions, distances, the
weather of a plan's trigger) is refused with one line; the referee derives it (EUR-06,
EUR-29, EUR-32, SUR-05, SUR-10)."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.state import thaw
from grognard.europa.combat.orders.overrun import OVERRUN
from grognard.europa.supply.commands import isolation_conditions


def _combat_game() -> Game:
    g = Game.new("demo-europa", seed=2)
    for c in (Command("move", "axis", {"unit": "de-7pz", "path": ["0504", "0604"]}),
              Command("move", "axis", {"unit": "de-20mot", "path": ["0505", "0604"]}),
              Command("end_phase", "axis")):
        g.apply(c)
    return g


ATTACK = {"attackers": ["de-7pz", "de-20mot"], "defender_hex": "0704"}


@pytest.mark.parametrize("fact,value", [
    ("bombardment", 2), ("readings", {"below_lowest_column": "clamp"}),
    ("weather", "clear"), ("series", "factor"), ("barrage_target", "su-112rifle"),
    ("night", True), ("overrun", True)])
def test_eur06_eur29_attack_naming_a_fact_is_refused_in_one_line(fact, value):
    g = _combat_game()
    before = g.state_hash()
    with pytest.raises(IllegalOrder) as e:
        g.verify(Command("attack", "axis", {**ATTACK, fact: value}))
    assert e.value.rule == "EUR-09" and fact in str(e.value) and "\n" not in str(e.value)
    assert "referee" in str(e.value)
    assert g.state_hash() == before


def test_eur06_the_same_attack_resolves_with_the_fire_support_earned():
    """Without air-phase ground support or attacking artillery no fire support is earned:
    the bombardment DRM is 0 (the order cannot claim the +1 of a "2")."""
    g = _combat_game()
    d = g.apply(Command("attack", "axis", dict(ATTACK)))[0].data
    assert d["drm_breakdown"]["bombardment"] == 0 and "bombardment" not in d["model"]
    assert d["model"]["readings"]["below_lowest_column"] == "eliminate"


def test_eur18_overrun_naming_a_fact_is_refused():
    g = Game.new("europa-pocket", seed=2)
    spec = OVERRUN.spec()
    for fact, value in (("weather", "mud"), ("bombardment", 1), ("readings", {})):
        with pytest.raises(IllegalOrder) as e:
            spec.verify(g.context, g.state, Command(
                "overrun", "axis", {"units": ["de-7pz"], "target": "0605", fact: value}))
        assert fact in str(e.value) and "referee" in str(e.value)


def test_eur32_uman_stack_gets_the_major_city_path_without_claiming_it():
    """europa-pocket: the Soviet stack in Uman (0504, a major city it holds) traces a path of
    no length to a friendly major city: +1 (EUR-32), from core.supply.path_to_friendly_city."""
    g = Game.new("europa-pocket", seed=1)
    units = [u for u in g.state["units"].values() if u["hex"] == "0504"]
    assert units and all(u["side"] == "soviet" for u in units)
    c = isolation_conditions(g.context, g.state, "soviet", "0504", units)
    assert c["major_city_path"] is True
    # a stack of the ring, cut off from any friendly major city: no +1
    s = thaw(g.state)
    axis = next(u for u in s["units"].values() if u["side"] == "axis" and u["hex"])
    assert isolation_conditions(g.context, s, "axis", axis["hex"], [axis])[
        "major_city_path"] is False


def test_eur32_soviet_stack_in_russia_in_winter_gets_region_winter_and_home():
    """europa-barbarossa: a Soviet stack in the USSR in Dec I 1941 (turn 12 from Jun II 1941):
    Russia -1, winter -1 and home country +1, all from the map and the calendar."""
    g = Game.new("europa-barbarossa", seed=1)
    m = g.scenario.map
    uid, u = next((uid, u) for uid, u in sorted(g.state["units"].items())
                  if u["side"] == "soviet" and u["hex"]
                  and m.country_names[int(m.country[m.index_of_label(u["hex"])])] == "ussr")
    s = thaw(g.state)
    s["turn"] = 12
    c = isolation_conditions(g.context, s, "soviet", u["hex"], [u])
    assert (c["region"], c["winter"], c["home_country"]) == ("russia", True, True), uid
    summer = isolation_conditions(g.context, g.state, "soviet", u["hex"], [u])
    assert summer["winter"] is False and summer["region"] == "russia"
    # a German stack there is not in its home country
    de = {**u, "nationality": "german"}
    assert isolation_conditions(g.context, s, "axis", u["hex"], [de])["home_country"] is False


def test_sur10_sur05_plan_orders_naming_facts_are_refused():
    g = Game.new("europa-surprise", seed=1)
    for kind, args in (("move_surprise_centre", {"command": "plan1", "to": "0505",
                                                 "hexes": 0}),
                       ("start_surprise", {"command": "plan1", "weather_met": True})):
        with pytest.raises(IllegalOrder) as e:
            g.verify(Command(kind, "axis", args))
        assert "referee" in str(e.value)


def test_eur32_pocket_map_is_the_ussr_so_the_isolated_stacks_get_home_country_and_region():
    """europa-pocket's map names its country (the USSR, ``[countries] ussr = "all"``): the
    Soviet stacks isolated in Uman (0504) and 0505 on turn 2 roll with Russia's -1, the home
    country's +1, the path to Uman's +1 and the adjacent enemy's -1 (EUR-32), all the
    referee's facts; a claim of conditions is refused."""
    g = Game.new("europa-pocket", seed=1)
    m = g.scenario.map
    assert {m.country_names[int(m.country[i])] for i in range(m.n)} == {"ussr"}
    for _ in range(60):
        p = g.active()[0]
        if any(c.kind == "isolation_attrition" for c in g.legal(p)):
            break
        g.apply(Command("end_phase", p, {}))
    assert (g.turn, p) == (2, "soviet")
    with pytest.raises(IllegalOrder):
        g.verify(Command("isolation_attrition", "soviet",
                         {"conditions": {"0504": {"home_country": False}}}))
    hexes = g.apply(Command("isolation_attrition", "soviet", {}))[0].data["hexes"]
    assert {h["hex"] for h in hexes} == {"0504", "0505"}
    for h in hexes:
        assert h["roll"]["drms"] == {"adjacent_enemy": -1, "remote_region": -1,
                                     "home_country": 1, "major_city_path": 1}, h["hex"]
    # the German ring in the USSR is not in its home country
    de = next(u for u in g.state["units"].values() if u["side"] == "axis" and u["hex"])
    assert isolation_conditions(g.context, g.state, "axis", de["hex"], [de])[
        "home_country"] is False
