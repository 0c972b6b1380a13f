"""Issue 25, session 9: the 3R Axis planner's concurrent stages (Italy in the Balkans and the
Alps beside Germany's stage in force) and the garrisons of its conquests."""

from __future__ import annotations

from grognard.bots.base import Seat
from grognard.bots.campaign import Campaign, city_hexes
from grognard.bots.catalog import make_bot
from grognard.engine.commands import Command
from grognard.engine.game import Game


def _policy_at(turn: int, control: dict[str, str] | None = None):
    g = Game.new("tr-1939-campaign", seed=0)
    g.state = {**g.state, "turn": turn}
    if control:
        g.state["control"] = {**g.state["control"], **control}
    bot = make_bot("planner", Seat.of(g, "axis", 0))
    return g, bot.policy, bot.policy.situation(g.view("axis"), g)


def test_tr25_italy_declares_war_on_yugoslavia_greece_switzerland_from_spring_1940():
    """The concurrent Balkans and Alps stages: Italy's wars on three minors whose capitals
    are victory locations (TR-04), from Spring 1940 (turn 3), not before, none other."""
    for turn, want in ((2, False), (3, True)):
        _g, pol, sit = _policy_at(turn)
        for minor in ("yugoslavia", "greece", "switzerland"):
            s = pol.score(sit, Command("declare_war", "axis",
                                       {"power": "italy", "minors": [minor]}))
            assert (s > 0) == want, (turn, minor)
    _g, pol, sit = _policy_at(3)
    for minor in ("turkey", "portugal", "spain"):
        assert pol.score(sit, Command("declare_war", "axis",
                                      {"power": "italy", "minors": [minor]})) < 0


def test_tr03_concurrent_stage_runs_beside_the_stage_in_force():
    """In Spring 1940 Germany's stage in force is still the West; Italy's units are drawn to
    Belgrade, Athens and Bern (``plan.power_goals``), and Italy wants the offensive on the
    southern front (TR-03) while Germany's option is the West's."""
    g, pol, sit = _policy_at(3, {"Warsaw": "axis"})
    assert pol.stage(sit)["name"] == "west"
    goals = sit.memo("plan.power_goals", dict)
    want = set(city_hexes(g.context.scenario.map, ["Belgrade", "Athens", "Bern"]).values())
    assert goals.get("italy") == want
    assert "germany" not in goals

    def option(power, front, opt):
        return pol.score(sit, Command("declare_options", "axis",
                                      {"power": power, "options": {front: opt}}))
    assert option("italy", "southern", "offensive") > option("italy", "southern", "attrition")
    assert option("italy", "southern", "offensive") > 0
    assert option("germany", "western", "offensive") > option("germany", "southern",
                                                              "offensive")


def test_tr25_italy_declares_war_on_turkey_from_spring_1941():
    """The Turkey stage (Istanbul and Ankara, TR-04) once the Axis minors join (Spring 1941,
    turn 8): Italy declares the war, Italy's and Bulgaria's units are drawn there."""
    for turn, want in ((7, False), (8, True)):
        g, pol, sit = _policy_at(turn)
        s = pol.score(sit, Command("declare_war", "axis",
                                   {"power": "italy", "minors": ["turkey"]}))
        assert (s > 0) == want, turn
    hexes = set(city_hexes(g.context.scenario.map, ["Istanbul", "Ankara"]).values())
    goals = sit.memo("plan.power_goals", dict)
    assert hexes <= goals["bulgaria"] and hexes <= goals["italy"]


def test_tr04_concurrent_stage_ends_once_its_goals_are_held():
    """Once Italy holds Belgrade, Athens and Bern, the stages stop drawing its units, and
    each conquest keeps a garrison (a goal held keeps one unit)."""
    g, pol, sit = _policy_at(5, {"Belgrade": "axis", "Athens": "axis", "Bern": "axis",
                                 # (session 13: Italy's war on France drives on these)
                                 "Marseille": "axis", "Lyon": "axis"})
    assert "italy" not in sit.memo("plan.power_goals", dict)
    garrisons = pol.campaign.garrisons(sit, g)
    assert all(garrisons.get(c) == 1 for c in ("Belgrade", "Athens", "Bern"))


def test_tr04_defence_stage_keeps_two_units_in_the_eastern_conquests():
    """From Fall 1942 the standing defence keeps two units in each of its goals held (the
    larger of the stages' garrisons), one before."""
    for turn, want in ((15, 1), (16, 2)):
        g, pol, sit = _policy_at(turn, {"Riga": "axis", "Lwow": "axis"})
        garrisons = pol.campaign.garrisons(sit, g)
        assert garrisons.get("Riga") == want and garrisons.get("Lwow") == want, turn


def test_plan_concurrent_stage_is_not_the_stage_in_force():
    plan = {"axis": {"stages": [
        {"name": "main", "start": "Fall 1939", "goals": ["Warsaw"], "powers": ["germany"]},
        {"name": "side", "start": "Fall 1939", "goals": ["Belgrade"], "powers": ["italy"],
         "concurrent": True}]}}
    g, pol, _sit = _policy_at(1)
    pol.campaign = Campaign(plan, "axis")
    sit = pol.situation(g.view("axis"), g)
    assert pol.stage(sit)["name"] == "main"
    assert [s["name"] for s in pol.campaign.concurrent(sit, g)] == ["side"]


def test_tr27_concurrent_stage_moves_its_powers_units_toward_its_goals():
    """The move plan reads ``plan.power_goals``: in Summer II 1940, Germany's stage in force
    converging on the Soviet border (its goals alone draw the moves), the Italian units go
    toward Belgrade, Athens and Bern - without the stage's goals they would go east with the
    Germans - and each that moves ends nearer them than it started."""
    from grognard.bots.base import LegalActions
    from grognard.bots.tr_plans import move_plan

    won = ("Warsaw", "Brussels", "Amsterdam", "Paris", "Luxembourg", "Copenhagen",
           "Marseille", "Lyon")  # (session 13: Italy's war on France drives on these)
    g, pol, sit = _policy_at(5, dict.fromkeys(won, "axis"))
    assert pol.stage(sit)["name"] == "deploy" and sit.memo("plan.focus", set)
    goals = sit.memo("plan.power_goals", dict)["italy"]

    def italian(planned):
        return {c.args["unit"]: c.args["path"][-1] for _s, c in planned
                if sit.mine[c.args["unit"]].get("power") == "italy"  # (not Malta's crew)
                and c.args["unit"] not in sit.memo("plan.unit_goals", dict)}
    with_goals = italian(move_plan(sit, LegalActions(g, "axis")))
    assert with_goals
    for uid, end in with_goals.items():
        assert sit.nearest(end, goals) < sit.nearest(sit.mine[uid]["hex"], goals)
    sit._memo["plan.power_goals"] = {}
    assert italian(move_plan(sit, LegalActions(g, "axis"))) != with_goals
