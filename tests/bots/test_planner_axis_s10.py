"""Issue 25, session 10: the 3R Axis planner against the planner Allies - a detachment (a
concurrent stage's ``force``: its N nearest units, not its powers' whole army), Sweden and
Norway by land from Denmark while the army deploys east, and the options of every front a
power's stages want."""

from __future__ import annotations

from grognard.bots.base import LegalActions, Seat
from grognard.bots.campaign import Campaign, city_hexes
from grognard.bots.catalog import make_bot
from grognard.engine.commands import Command
from grognard.engine.game import Game

#: the West won (Summer II 1940): the Scandinavian stage's ``after`` goals held
WEST = ("Warsaw", "Brussels", "Amsterdam", "Paris", "Luxembourg", "Copenhagen")


def _policy_at(turn: int, control: dict[str, str] | None = None):
    g = Game.new("tr-1939-campaign", seed=0)
    g.state = {**g.state, "turn": turn}
    if control:
        g.state["control"] = {**g.state["control"], **control}
    bot = make_bot("planner", Seat.of(g, "axis", 0))
    return g, bot.policy, bot.policy.situation(g.view("axis"), g)


def _unit_goals(g, sit) -> dict:
    """``plan.unit_goals`` less Italy's Malta landing (bound for Taranto) and Berlin's alarm
    (session 13; Poland's set-up army stands 2 hexes off Berlin in these states)."""
    m = g.context.scenario.map
    skip = [set(city_hexes(m, [c]).values()) for c in ("Taranto", "Berlin")]
    return {u: hs for u, hs in sit.memo("plan.unit_goals", dict).items() if hs not in skip}


def _war(pol, sit, minor: str) -> float:
    return pol.score(sit, Command("declare_war", "axis", {"power": "germany",
                                                          "minors": [minor]}))


def test_tr25_germany_declares_war_on_sweden_and_norway_after_the_west():
    """TR-25/TR-04: war on Sweden and Norway (Stockholm and Oslo, victory locations) from
    Summer II 1940 (turn 5) once Copenhagen and Paris are held - not before that date, not
    while Paris stands - and no war on Spain or Portugal (no land route: the Vichy zone)."""
    _g, pol, sit = _policy_at(5, dict.fromkeys(WEST, "axis"))
    assert _war(pol, sit, "sweden") > 0 and _war(pol, sit, "norway") > 0
    assert _war(pol, sit, "spain") < 0 and _war(pol, sit, "portugal") < 0
    _g, pol, sit = _policy_at(4, dict.fromkeys(WEST, "axis"))
    assert _war(pol, sit, "sweden") < 0
    _g, pol, sit = _policy_at(5, dict.fromkeys(set(WEST) - {"Paris"}, "axis"))
    assert _war(pol, sit, "sweden") < 0 and _war(pol, sit, "norway") < 0


def test_plan_detachment_is_the_nearest_units_of_its_powers():
    """A concurrent stage with ``force: 4`` draws the four German ground units nearest its
    goals (``plan.unit_goals``), none of them a garrison's; the rest of the army is not drawn
    (no ``plan.power_goals`` for Germany) and stays with the stage in force."""
    g, pol, sit = _policy_at(5, dict.fromkeys(WEST, "axis"))
    assert pol.stage(sit)["name"] == "deploy"
    m = g.context.scenario.map
    goals = set(city_hexes(m, ["Stockholm", "Oslo"]).values())
    copenhagen = set(city_hexes(m, ["Copenhagen"]).values())
    detached = _unit_goals(g, sit)
    assert len(detached) == 4 and all(hs in (goals, copenhagen) for hs in detached.values())
    assert all(sit.mine[u]["power"] == "germany" for u in detached)
    hold = sit.memo("plan.hold", set)
    assert not set(detached) & hold
    assert "germany" not in sit.memo("plan.power_goals", dict)
    far = max(sit.nearest(sit.mine[u]["hex"], copenhagen) for u in detached)
    others = [u for u, v in sit.mine.items() if v.get("power") == "germany"
              and v.get("type") in ("infantry", "armor", "airborne") and v.get("hex")
              and u not in detached and u not in hold]
    assert others and all(sit.nearest(sit.mine[u]["hex"], copenhagen) >= far for u in others)


def test_plan_detachment_goes_by_its_via():
    """A detachment's ``via`` (Copenhagen: the land route to Sweden) is on its way: the
    units chosen are those nearest Stockholm and Oslo by way of Copenhagen (in northern
    Germany, not East Prussia across the Baltic), and a unit still short of it drives on
    Copenhagen first."""
    g, pol, sit = _policy_at(5, dict.fromkeys(WEST, "axis"))
    m = g.context.scenario.map
    copenhagen = set(city_hexes(m, ["Copenhagen"]).values())
    goals = set(city_hexes(m, ["Stockholm", "Oslo"]).values())
    detached = _unit_goals(g, sit)
    for uid, hexes in detached.items():
        here = sit.mine[uid]["hex"]
        assert hexes == (copenhagen if sit.nearest(here, goals) >
                         sit.nearest(next(iter(copenhagen)), goals) else goals)
        assert sit.nearest(here, copenhagen) <= 4
    plan = {"axis": {"stages": [
        {"name": "main", "start": "Fall 1939", "goals": ["Warsaw"], "powers": ["germany"]},
        {"name": "side", "start": "Fall 1939", "goals": ["Stockholm"], "force": 4,
         "powers": ["germany"], "concurrent": True}]}}
    pol.campaign = Campaign(plan, "axis")
    sit = pol.situation(g.view("axis"), g)
    assert set(sit.memo("plan.unit_goals", dict)) != set(detached)  # by sea distance


def test_plan_detachment_force_counts_and_stops_once_its_goals_are_held():
    """The ``force`` is the number of units drawn (two here), and a stage whose goals are all
    held draws none."""
    plan = {"axis": {"stages": [
        {"name": "main", "start": "Fall 1939", "goals": ["Warsaw"], "powers": ["germany"]},
        {"name": "side", "start": "Fall 1939", "goals": ["Copenhagen"], "force": 2,
         "powers": ["germany"], "concurrent": True}]}}
    g, pol, _sit = _policy_at(1)
    pol.campaign = Campaign(plan, "axis")
    sit = pol.situation(g.view("axis"), g)
    assert len(sit.memo("plan.unit_goals", dict)) == 2
    g, pol, _sit = _policy_at(1, {"Copenhagen": "axis"})
    pol.campaign = Campaign(plan, "axis")
    sit = pol.situation(g.view("axis"), g)
    assert sit.memo("plan.unit_goals", dict) == {}


def test_tr27_detachment_moves_toward_its_goals():
    """The move plan reads ``plan.unit_goals``: each detached unit that moves ends nearer
    Stockholm and Oslo than it started; without the detachment they go with the army (the
    stage in force converging on the Soviet border)."""
    from grognard.bots.tr_plans import move_plan

    g, _pol, sit = _policy_at(5, dict.fromkeys(WEST, "axis"))
    detached = _unit_goals(g, sit)
    goals = next(iter(detached.values()))

    def moves(planned):
        return {c.args["unit"]: c.args["path"][-1] for _s, c in planned
                if c.args["unit"] in detached}
    got = moves(move_plan(sit, LegalActions(g, "axis")))
    assert got
    for uid, end in got.items():
        assert sit.nearest(end, goals) < sit.nearest(sit.mine[uid]["hex"], goals)
    sit._memo["plan.unit_goals"] = {}
    assert moves(move_plan(sit, LegalActions(g, "axis"))) != got


def test_tr66_sr_plan_leaves_the_detachment_alone():
    """TR-66: the SR toward the stage in force's goals (Barbarossa, Summer I 1941) takes no
    detached unit (the army goes east by rail, a detachment goes its own way)."""
    from grognard.bots.tr_plans import sr_plan

    _g, pol, sit = _policy_at(9, {"Paris": "axis"})
    assert pol.stage(sit)["name"] == "barbarossa"
    far = {h for h, v in sit.objectives.items() if v >= 10}
    sit._memo["plan.unit_goals"] = {}
    railed = [c.args["unit"] for _s, c in sr_plan(sit, far, {"germany"})]
    assert len(railed) >= 2
    sit._memo["plan.unit_goals"] = {u: {"D35"} for u in railed[:2]}
    again = {c.args["unit"] for _s, c in sr_plan(sit, far, {"germany"})}
    assert again and not again & set(railed[:2])


def test_tr03_options_of_every_front_a_powers_stages_want():
    """TR-03: Germany, deploying east (the stage in force's eastern front) with a detachment
    on the western front, wants the western offensive too; Italy, with stages on the southern
    (the Balkans) and western (the Alps) fronts, wants both offensives."""
    _g, pol, sit = _policy_at(5, dict.fromkeys(WEST, "axis"))

    def option(power, opts):
        return pol.score(sit, Command("declare_options", "axis",
                                      {"power": power, "options": opts}))
    assert option("germany", {"eastern": "offensive", "western": "offensive"}) > \
        option("germany", {"eastern": "offensive", "western": "pass"})
    plan = {"axis": {"stages": [
        {"name": "main", "start": "Fall 1939", "goals": ["Warsaw"], "powers": ["germany"],
         "front": "eastern"},
        {"name": "a", "start": "Fall 1939", "goals": ["Belgrade"], "powers": ["italy"],
         "concurrent": True, "front": "southern"},
        {"name": "b", "start": "Fall 1939", "goals": ["Bern"], "powers": ["italy"],
         "concurrent": True, "front": "western"}]}}
    g, pol, _sit = _policy_at(1)
    pol.campaign = Campaign(plan, "axis")
    sit = pol.situation(g.view("axis"), g)
    assert option("italy", {"southern": "offensive", "western": "offensive"}) > \
        option("italy", {"southern": "offensive", "western": "pass"})


def test_tr04_the_wests_conquests_keep_no_garrison_unless_threatened():
    """A stage's ``garrison: 0``: the West's and Scandinavia's conquests held keep no unit
    (the army goes east) - Berlin keeps the plan's one, Warsaw its stage's one - but a unit
    in Paris with an enemy unit next to it stays (a threatened city keeps two, TR-04)."""
    won = {**dict.fromkeys(WEST, "axis"), "Oslo": "axis", "Stockholm": "axis"}
    g, pol, sit = _policy_at(9, won)
    garrisons = pol.campaign.garrisons(sit, g)
    for city in ("Paris", "Brussels", "Amsterdam", "Luxembourg", "Copenhagen", "Oslo",
                 "Stockholm"):
        assert garrisons[city] == 0, city
    assert garrisons["Berlin"] == 1 and garrisons["Warsaw"] == 1
    m = g.context.scenario.map
    paris = city_hexes(m, ["Paris"])["Paris"]
    uid = next(u for u, v in sorted(g.state["units"].items())
               if v.get("power") == "germany" and v.get("type") == "infantry"
               and v.get("hex"))
    units = {u: ({**v, "hex": None, "status": "eliminated"} if v.get("side") != "axis"
                 else v) for u, v in g.state["units"].items()}  # France fallen, no enemy
    units[uid] = {**units[uid], "hex": paris}
    g.state = {**g.state, "units": units}
    sit = pol.situation(g.view("axis"), g)
    assert uid not in sit.memo("plan.hold", set)
    near = str(m.label(int(m.neighbor_indices(m.index_of_label(paris))[0])))
    fr = next(u for u, v in sorted(units.items()) if v.get("power") == "uk"
              and v.get("type") == "infantry")
    units[fr] = {**units[fr], "hex": near, "status": "active"}
    g.state = {**g.state, "units": units}
    sit = pol.situation(g.view("axis"), g)
    assert uid in sit.memo("plan.hold", set)


def test_tr25_italy_goes_east_once_belgrade_is_held():
    """Italy's war on the USSR (TR-25) and its standing hold of Odessa, Bucharest, Ploesti
    and Lwow come with Barbarossa (Summer I 1941) once Belgrade is held - Athens still
    Greek - and not while Belgrade stands."""
    def ussr(control):
        g, pol, sit = _policy_at(9, {"Paris": "axis", **control})
        score = pol.score(sit, Command("declare_war", "axis",
                                       {"power": "italy", "majors": ["ussr"]}))
        east = set(city_hexes(g.context.scenario.map, ["Bucharest", "Ploesti"]).values())
        return score, east <= sit.memo("plan.power_goals", dict).get("italy", set())
    assert ussr({"Belgrade": "axis"}) == (8.0, True)
    score, drawn = ussr({})
    assert score < 0 and not drawn


def test_plan_a_western_detachment_while_france_stands_at_barbarossa():
    """From Barbarossa's date (Summer I 1941), while Paris is not held, twelve German units -
    the nearest Paris - keep driving on it (a detachment; the western offensive is wanted
    beside the eastern one); once Paris is held there is no detachment."""
    g, pol, sit = _policy_at(9)
    assert pol.stage(sit)["name"] == "barbarossa"
    paris = {city_hexes(g.context.scenario.map, ["Paris"])["Paris"]}
    taranto = set(city_hexes(g.context.scenario.map, ["Taranto"]).values())

    def detached(sit):  # (session 11: less the Malta landing's units, bound for Taranto;
        # session 13: and Berlin's alarm, sounded by Poland's set-up army)
        return {u: hs for u, hs in _unit_goals(g, sit).items() if hs != taranto}
    assert len(detached(sit)) == 12 and all(hs == paris for hs in detached(sit).values())
    assert pol.score(sit, Command("declare_options", "axis", {"power": "germany", "options": {
        "eastern": "offensive", "western": "offensive"}})) > pol.score(
        sit, Command("declare_options", "axis", {"power": "germany", "options": {
            "eastern": "offensive", "western": "pass"}}))
    _g, pol, sit = _policy_at(8)
    assert detached(sit) == {}
    _g, pol, sit = _policy_at(9, {"Paris": "axis"})
    assert detached(sit) == {}


def test_tr03_no_option_paid_on_a_front_without_a_war():
    """TR-03: a power with no stage in force (the USSR before its war, Summer II 1940) pays
    for no attrition or offensive on a front where no enemy at war stands - its units beside
    the Germans in Poland are no enemy's yet - while the UK, at war with Germany in the West,
    may still choose its attrition there."""
    g = Game.new("tr-1939-campaign", seed=0)
    units = dict(g.state["units"])
    m = g.context.scenario.map
    taken = {v.get("hex") for v in units.values()}
    sov = next(v["hex"] for _u, v in sorted(units.items())
               if v.get("power") == "ussr" and v.get("type") == "infantry" and v.get("hex"))
    beside = next(m.label(int(n)) for n in m.neighbor_indices(m.index_of_label(sov))
                  if m.label(int(n)) not in taken and m.country_names[m.country[int(n)]])
    ger = next(u for u, v in sorted(units.items()) if v.get("power") == "germany"
               and v.get("type") == "infantry" and v.get("hex"))
    units[ger] = {**units[ger], "hex": beside}  # the Germans beside the Red Army, no war
    g.state = {**g.state, "turn": 5, "units": units}
    bot = make_bot("planner", Seat.of(g, "allies", 0))
    pol = bot.policy
    sit = pol.situation(g.view("allies"), g)

    def option(power, front, opt):
        return pol.score(sit, Command("declare_options", "allies",
                                      {"power": power, "options": {front: opt}}))
    assert option("ussr", "eastern", "attrition") < option("ussr", "eastern", "pass")
    assert option("ussr", "eastern", "offensive") < option("ussr", "eastern", "pass")
    assert option("uk", "western", "attrition") >= option("uk", "western", "pass") - 1.0
