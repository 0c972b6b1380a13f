"""Issue 25 item 1: the campaign planner (a plan as data over the heuristic's play)."""

from __future__ import annotations

import pytest

from grognard.bots import parse_bots, play_game
from grognard.bots.base import LegalActions, Seat
from grognard.bots.campaign import Campaign
from grognard.bots.catalog import make_bot
from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.engine.game import Game


@pytest.mark.parametrize("seed", [0, 1])
def test_tr86_planner_takes_warsaw_in_fall_1939(seed):
    """The plan's first stage (Poland, Warsaw its goal) takes Warsaw on turn 1 (Fall 1939)."""
    g = Game.new("tr-1939-campaign", seed=seed)
    rec = play_game(g, {"axis": "planner", "allies": "heuristic"}, seed=seed, max_turns=1)
    assert rec.capitals.get("Warsaw", {}).get("turn") == 1
    assert rec.capitals["Warsaw"]["by"] == "axis"


def test_tr29_tr33_planner_brings_air_and_armor_to_warsaw():
    """Seed 12 (Warsaw held in Fall 1939 with the planner on both sides before): the air out
    of range stages (TR-29) so the first Warsaw attack goes in at 4-1 (TR-33, support up to
    its cap), an air unit is kept back, and the armor attacks Warsaw again in mechanized
    combat with it; Warsaw falls on turn 1."""
    g = Game.new("tr-1939-campaign", seed=12)
    rec = play_game(g, {"axis": "planner", "allies": "planner"}, seed=12, max_turns=1)
    assert rec.capitals.get("Warsaw", {}).get("turn") == 1
    m = g.context.scenario.map
    warsaw = next(m.label(i) for i, cs in m.cities.items() for c in cs if c.name == "Warsaw")
    assert any(c.kind == "air_stage" and c.player == "axis" for c in g.commands)
    battles = [e.data for es in g.events for e in es
               if e.type == "battle_resolved" and e.data.get("hex") == warsaw]
    assert battles[0]["column"] == "4-1"
    assert battles[0]["support_detail"]["offered"] == battles[0]["support_detail"]["cap"]
    assert len(battles) >= 2 and battles[1]["air_naval"]["flown"]


def _at_turn(turn: int, paris: str | None = None) -> Game:
    g = Game.new("tr-1939-campaign", seed=0)
    g.state = {**g.state, "turn": turn}
    if paris is not None:
        g.state["control"] = {**g.state["control"], "Paris": paris}
    return g


def _war_score(bot_name: str, turn: int, majors: list[str], paris: str = "axis") -> float:
    g = _at_turn(turn, paris)
    bot = make_bot(bot_name, Seat.of(g, "axis", 0))
    sit = bot.policy.situation(g.view("axis"), g)
    return bot.policy.score(sit, Command("declare_war", "axis",
                                         {"power": "germany", "majors": majors}))


def test_tr25_planner_declares_war_on_the_ussr_on_the_plans_date():
    """Barbarossa is a study parameter: with the shipped plan (Summer I 1941 = turn 9) the
    planner wants war on the USSR from turn 9, not before; with 1942 not in 1941; never on a
    major the plan does not name."""
    assert _war_score("planner", 8, ["ussr"]) < 0
    assert _war_score("planner", 9, ["ussr"]) > 0
    assert _war_score("planner@barbarossa_year=1942", 9, ["ussr"]) < 0
    assert _war_score("planner@barbarossa_year=1942", 14, ["ussr"]) > 0
    assert _war_score("planner", 9, ["uk"]) < 0


def test_tr25_planner_stage_after_goals_waits_for_them():
    """A stage with ``after`` goals (a plan's data) starts on its date only once they are
    held: Barbarossa after Paris waits while Paris is French."""
    from grognard.bots.planner_plans import TR_1939

    plan = {**TR_1939, "axis": {**TR_1939["axis"], "stages": [
        {**s, "after": ["Paris"]} if s["name"] == "barbarossa" else s
        for s in TR_1939["axis"]["stages"]]}}
    for paris, want in (("axis", True), ("allies", False)):
        g = _at_turn(9, paris)
        bot = make_bot("planner", Seat.of(g, "axis", 0))
        bot.policy.campaign = Campaign(plan, "axis")
        sit = bot.policy.situation(g.view("axis"), g)
        score = bot.policy.score(sit, Command("declare_war", "axis",
                                              {"power": "germany", "majors": ["ussr"]}))
        assert (score > 0) == want


def test_tr25_planner_declares_the_wests_wars_in_winter_1939():
    """The West's stage: war on the Low Countries and Denmark (their capitals are victory
    locations), never on Spain."""
    g = _at_turn(2)
    bot = make_bot("planner", Seat.of(g, "axis", 0))
    sit = bot.policy.situation(g.view("axis"), g)
    want = {m: bot.policy.score(sit, Command("declare_war", "axis",
                                             {"power": "germany", "minors": [m]}))
            for m in ("belgium", "netherlands", "luxembourg", "denmark", "spain")}
    assert want["belgium"] > 0 and want["netherlands"] > 0 and want["luxembourg"] > 0
    assert want["denmark"] > 0  # Copenhagen: a victory location (TR-04) in the West's stage
    assert want["spain"] < 0


def test_planner_parameters_are_checked():
    assert parse_bots("axis=planner@barbarossa_year=1942,allies=planner",
                      ["axis", "allies"])["axis"] == "planner@barbarossa_year=1942"
    for bad in ("axis=planner@oops=1,allies=random", "axis=heuristic@x=1,allies=random"):
        with pytest.raises(InputError):
            g = Game.new("tr-1939-campaign", seed=0)
            bots = parse_bots(bad, ["axis", "allies"])
            make_bot(bots["axis"], Seat.of(g, "axis", 0))


def test_planner_chooses_a_legal_action_in_every_main_scenario():
    for scenario in ("tr-1939-campaign", "europa-barbarossa", "eurofront-1941"):
        g = Game.new(scenario, seed=3)
        rec = play_game(g, dict.fromkeys(g.scenario.sides, "planner"), seed=3,
                        max_commands=60)
        assert rec.error is None and rec.refused == 0 and rec.commands > 0
        for p in g.active():
            la = LegalActions(g, p)
            if la.kinds():
                cmd = make_bot("planner", Seat.of(g, p, 1)).choose(g.view(p), la)
                assert g.can(cmd)


@pytest.mark.parametrize("scenario", ["tr-1939-campaign", "europa-barbarossa",
                                      "eurofront-1941"])
def test_a_search_game_of_every_main_scenario(scenario):
    """CI: a short game with the search bot (a small budget) against the planner."""
    g = Game.new(scenario, seed=5)
    first, second = g.scenario.sides[:2]
    rec = play_game(g, {first: "mcts@budget=2@horizon=40", second: "planner"}, seed=5,
                    max_commands=40)
    assert rec.error is None and rec.refused == 0 and rec.commands > 0


def _shipped() -> list[str]:
    from grognard.engine.scenario import shipped_scenarios

    return sorted(shipped_scenarios())


@pytest.mark.parametrize("scenario", _shipped())
def test_planner_and_search_play_every_shipped_scenario(scenario):
    """CI (issue 25): a short game of every shipped scenario with the planner on every side,
    and one with the search bot (a small budget) on the first side against the planner; no
    command the bots choose is refused."""
    g = Game.new(scenario, seed=7)
    rec = play_game(g, dict.fromkeys(g.scenario.sides, "planner"), seed=7, max_commands=30)
    assert rec.error is None and rec.refused == 0 and rec.commands > 0
    g = Game.new(scenario, seed=8)
    first, *rest = g.scenario.sides
    bots = {first: "mcts@budget=2@horizon=20", **dict.fromkeys(rest, "planner")}
    rec = play_game(g, bots, seed=8, max_commands=20)
    assert rec.error is None and rec.refused == 0 and rec.commands > 0


def test_tr25_planner_declares_war_on_the_ussr_in_its_plans_year_in_a_seeded_game():
    """The grand plan's declarations happen in play: with the shipped plan (Barbarossa in
    Summer I 1941, turn 9) the Axis planner is at war with Belgium, the Netherlands and
    Luxembourg from Winter 1939 (turn 2, by its own declaration) and declares war on the USSR
    on turn 9, not before (the diplomacy's wars, ended or not, and the turn each began)."""
    g = Game.new("tr-1939-campaign", seed=0)
    rec = play_game(g, {"axis": "planner", "allies": "planner"}, seed=0, max_turns=9)
    assert rec.error is None and rec.refused == 0
    d = g.state["diplomacy"]
    wars = {frozenset((w["a"], w["b"])): w
            for w in d["wars"] + [p["war"] for p in d["ended"]]}
    barbarossa = wars.get(frozenset(("germany", "ussr")))
    assert barbarossa is not None and barbarossa["since"] == 9
    assert barbarossa["by"] == "germany"
    for minor in ("belgium", "netherlands", "luxembourg"):
        w = wars.get(frozenset(("germany", minor)))
        assert w is not None and w["since"] == 2 and w["by"] == "germany"


def _allied_war_score(bot_name: str, turn: int) -> float:
    g = _at_turn(turn)
    bot = make_bot(bot_name, Seat.of(g, "allies", 0))
    sit = bot.policy.situation(g.view("allies"), g)
    return bot.policy.score(sit, Command("declare_war", "allies",
                                         {"power": "ussr", "majors": ["germany"]}))


def test_tr25_allied_planner_soviet_war_on_germany_on_the_plans_date():
    """The Allies' answer (a study parameter): if Germany has not struck first, the USSR
    declares war on Germany in Summer I 1942 (turn 14), not before; with
    ``soviet_war_year=1943`` not in 1942."""
    assert _allied_war_score("planner", 13) < 0
    assert _allied_war_score("planner", 14) > 0
    assert _allied_war_score("planner@soviet_war_year=1943", 14) < 0
    assert _allied_war_score("planner@soviet_war_year=1943", 19) > 0


def test_mcts_compares_candidates_in_paired_rounds():
    """Issue 25 item 2: every candidate of a round is simulated from the same seed (the same
    determinization and dice); the planner's choice (the first) stands when the budget gives
    no second candidate its rounds or when another wins by less than the margin, and yields
    to one that wins over every round."""
    from grognard.bots.mcts import MctsBot

    g = Game.new("tr-1939-campaign", seed=0)
    cands = [Command("end_phase", "axis", {}), Command("declare_war", "axis", {"power": "x"}),
             Command("declare_war", "axis", {"power": "y"})]

    def bot_with(values, budget):
        bot = MctsBot(Seat.of(g, "axis", 0), {"budget": str(budget)})
        seeds = []

        def simulate(view, game, cmd, seed=None):
            seeds.append(seed)
            return values[cands.index(cmd)]
        bot.simulate = simulate
        return bot, seeds

    # session 12: every candidate gets mcts.ROUNDS (4) rounds; budget 12 keeps the first 3
    bot, seeds = bot_with([0.0, 5.0, 1.0], budget=12)
    assert bot.search(g.view("axis"), g, cands) == cands[1]
    assert len(seeds) == 12 and all(len(set(seeds[k:k + 3])) == 1 for k in (0, 3, 6, 9))
    assert len({seeds[0], seeds[3], seeds[6], seeds[9]}) == 4
    bot, seeds = bot_with([0.0, 5.0, 1.0], budget=6)  # one candidate's rounds: the plan's
    assert bot.search(g.view("axis"), g, cands) == cands[0] and not seeds
    bot, _ = bot_with([0.0, 0.3, -10.0], budget=12)  # within the margin of the span
    assert bot.search(g.view("axis"), g, cands) == cands[0]


def test_tr25_planner_enemies_are_the_countries_at_war():
    """TR-25: in Fall 1939 the USSR and the neutral minors are at peace with Germany: their
    units are no enemy of the Axis planner (they neither pin its units nor draw its moves and
    attacks) and their cities are no goal; Poland's and France's units are."""
    g = Game.new("tr-1939-campaign", seed=0)
    bot = make_bot("planner", Seat.of(g, "axis", 0))
    sit = bot.policy.situation(g.view("axis"), g)
    units = g.state["units"].values()
    hexes = {p: {u["hex"] for u in units if u.get("power") == p and u.get("hex")}
             for p in ("ussr", "poland", "france")}
    assert hexes["ussr"] and not hexes["ussr"] & sit.enemy_hexes
    assert hexes["poland"] <= sit.enemy_hexes and hexes["france"] <= sit.enemy_hexes
    m = g.scenario.map
    moscow = next(m.label(i) for i, cs in m.cities.items() for c in cs if c.name == "Moscow")
    assert moscow not in sit.objectives
    heuristic = make_bot("heuristic", Seat.of(g, "axis", 0))
    assert hexes["ussr"] <= heuristic.policy.situation(g.view("axis"), g).enemy_hexes


def test_tr66_planner_sr_plan_sends_far_units_toward_the_stage_goals():
    """TR-66..TR-68: the planner's SR plan (``tr_plans.sr_plan``) redeploys the stage's far
    ground units toward its goals: each to a hex its side holds, at least ``SR_FAR`` hexes
    nearer the goals, out of contact, at most 2 ground units a hex, no more than the power's
    SR actions (Germany 9), never a unit the plan holds."""
    from grognard.bots.tr_plans import SR_FAR, sr_plan
    from grognard.core.hexgrid import distance

    g = _at_turn(9, paris="axis")
    bot = make_bot("planner", Seat.of(g, "axis", 0))
    sit = bot.policy.situation(g.view("axis"), g)
    assert bot.policy.stage(sit)["name"] == "barbarossa"
    goals = {h for h, v in sit.objectives.items() if v >= 10}
    assert goals
    plan = sr_plan(sit, goals, {"germany"})
    assert 0 < len(plan) <= 9
    lay = g.scenario.map.layout

    def near(h: str) -> int:
        return min(distance(lay.from_label(h), lay.from_label(t)) for t in goals)

    hold = sit.memo("plan.hold", set)
    units, dests = set(), {}
    for _score, cmd in plan:
        uid, to = cmd.args["unit"], cmd.args["to"]
        u = sit.mine[uid]
        assert cmd.kind == "sr" and u["power"] == "germany" and uid not in hold
        assert near(to) <= near(u["hex"]) - SR_FAR and not sit.in_contact(to)
        units.add(uid)
        dests[to] = dests.get(to, 0) + 1
    assert len(units) == len(plan)
    assert all(sit.friendly_hexes.get(h, 0) + n <= 2 for h, n in dests.items())


def test_tr13_planner_growth_reserve_shrinks_late_in_the_war():
    """TR-10/TR-13: the plan's dated growth reserve: a third of the base kept unspent until
    1943, a sixth in 1943, nothing from Spring 1944 (growth then buys nothing before the end,
    TR-04); the heuristic keeps a third throughout."""
    out = {}
    for turn in (9, 18, 23):
        g = _at_turn(turn, paris="axis")
        bot = make_bot("planner", Seat.of(g, "axis", 0))
        sit = bot.policy.situation(g.view("axis"), g)
        brp, base = bot.policy._brp(sit, "germany")
        out[turn] = (bot.policy._budget(sit, "germany"), brp, base)
    (b9, brp, base), (b18, _, _), (b23, _, _) = out[9], out[18], out[23]
    assert b9 == max(0, brp - base // 3)
    assert b18 == max(0, brp - base // 6)
    assert b23 == brp
    heur = make_bot("heuristic", Seat.of(_at_turn(23), "axis", 0))
    sit = heur.policy.situation(_at_turn(23).view("axis"))
    assert heur.policy._budget(sit, "germany") == max(0, brp - base // 3)


def test_tr66_planner_sr_actions_match_the_rules():
    """The SR plan stops at each power's SR actions (TR-66): its table is the rules'."""
    from grognard.bots.tr_plans import SR_ACTIONS
    from grognard.third_reich.movement.sr import sr_budget

    assert {p: sr_budget(p) for p in SR_ACTIONS} == SR_ACTIONS
