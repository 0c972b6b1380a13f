"""Issue 25, session 13: the 3R planner's Italy goes to war with Britain (and France) as France
falls - it keeps the declaration's BRPs (TR-25's 15, twice over: TR-75 lets a power spend at
most half its BRPs on hand in a turn) from Fall 1939, declares in Summer I 1940 before its
options, and its army on the Alps walks into Marseille and Lyon before Vichy forms (TR-26)."""

from __future__ import annotations

from grognard.bots.base import Seat
from grognard.bots.campaign import city_hexes
from grognard.bots.catalog import make_bot
from grognard.bots.play import play_game
from grognard.engine.commands import Command
from grognard.engine.game import Game

#: Fall 1939 is turn 1, five turns a year
SPRING_1940, SUMMER_I_1940, SUMMER_II_1940 = 3, 4, 5
WAR_ON_UK = Command("declare_war", "axis", {"power": "italy", "majors": ["uk"]})


def _axis_at(turn: int, wars: list[tuple[str, str]] = (), params: str = "",
             gone: tuple[str, ...] = ()):
    g = Game.new("tr-1939-campaign", seed=0)
    g.state = {**g.state, "turn": turn}
    if gone:  # a conquered country's units (Poland's, by Summer 1941)
        g.state["units"] = {u: x for u, x in g.state["units"].items()
                            if x.get("power") not in gone}
    if wars:
        d = g.state["diplomacy"]
        g.state["diplomacy"] = {**d, "wars": [*d["wars"], *(
            {"a": a, "b": b, "since": turn, "cause": "declaration", "by": a, "rule": "TR-25"}
            for a, b in wars)]}
    player = make_bot("planner" + params, Seat.of(g, "axis", 0))
    return g, player.policy, player.policy.situation(g.view("axis"), g)


def _options(power: str, **options: str) -> Command:
    return Command("declare_options", "axis", {"power": power, "options": options})


def test_tr25_tr75_italy_keeps_thirty_brps_for_its_war_on_britain():
    """TR-25/TR-75: from Fall 1939 Italy keeps 30 BRPs (the war on Britain's 15, and TR-75's
    cap: half the BRPs on hand at the turn's start) - no build, offensive or minor's war that
    would spend them; Germany keeps nothing; once at war with Britain Italy keeps nothing."""
    _g, pol, sit = _axis_at(SPRING_1940)
    assert pol.kept(sit, "italy") == 30 and pol.kept(sit, "germany") == 0
    pol._brp = lambda sit, power: (33, 50)  # Italy's BRPs on hand in Spring 1940
    assert pol._budget(sit, "italy") == 0
    assert pol.score(sit, _options("italy", southern="offensive")) < 0  # 5: 28 < 30
    assert pol.score(sit, _options("italy", southern="pass")) > \
        pol.score(sit, _options("italy", southern="offensive"))
    assert pol.score(sit, Command("declare_war", "axis", {"power": "italy",
                                                          "minors": ["yugoslavia"]})) < 0
    pol._brp = lambda sit, power: (45, 50)  # enough for both: the Balkans go on
    assert pol.score(sit, _options("italy", southern="offensive")) > 0
    assert pol.score(sit, Command("declare_war", "axis", {"power": "italy",
                                                          "minors": ["yugoslavia"]})) > 0
    _g, pol, sit = _axis_at(SUMMER_II_1940, wars=[("italy", "uk")])
    assert pol.kept(sit, "italy") == 0


def test_tr25_italy_declares_war_on_britain_in_summer_1940_before_its_options():
    """TR-25: in Summer I 1940 (France falling) the war on Britain outranks every option
    (declared first, while the BRPs kept are on hand); not in Spring 1940; a study moves it
    (``planner@italy_war_year=1941``)."""
    _g, pol, sit = _axis_at(SUMMER_I_1940)
    war = pol.score(sit, WAR_ON_UK)
    assert war > pol.score(sit, _options("italy", southern="offensive", western="offensive"))
    assert war > pol.score(sit, _options("italy", western="offensive"))
    _g, pol, sit = _axis_at(SPRING_1940)
    assert pol.score(sit, WAR_ON_UK) < 0
    _g, pol, sit = _axis_at(SUMMER_I_1940, params="@italy_war_year=1941")
    assert pol.score(sit, WAR_ON_UK) < 0 and pol.kept(sit, "italy") == 0


def test_tr25_tr26_tr61_italy_at_war_with_britain_takes_marseille_and_malta_in_1940():
    """TR-25/TR-26/TR-61, played (planner on both sides, seed 61, to Summer II 1940): Italy
    is at war with Britain (and France) from Summer I 1940 - the referee accepted the
    declaration - holds Marseille, France's victory location by the Alps (it stays Axis when
    Vichy forms), and Malta, landed on from Taranto by an Italian fleet."""
    g = Game.new("tr-1939-campaign", seed=61)
    rec = play_game(g, {"axis": "planner@italy_malta=1", "allies": "planner"}, seed=61,
                    max_turns=SUMMER_II_1940)
    assert rec.refused == 0 and rec.error is None
    wars = {frozenset((w["a"], w["b"])): w["since"] for w in g.state["diplomacy"]["wars"]}
    assert wars.get(frozenset(("italy", "uk"))) == SUMMER_I_1940
    assert wars.get(frozenset(("italy", "france"))) == SUMMER_I_1940
    assert g.state["control"].get("Marseille") == "axis"
    assert g.state["control"].get("Malta") == "axis"
    landed = [c for c in g.commands if c.kind == "invade" and c.args.get("beach") ==
              city_hexes(g.context.scenario.map, ["Malta"])["Malta"]]
    assert landed and all(u.startswith("ita-") for c in landed for grp in c.args["groups"]
                          for us in grp["cargo"].values() for u in us)


def test_tr61_tr70_italys_malta_landing_gathers_in_taranto_and_wants_no_option_before():
    """TR-61/TR-70/TR-03: with ``planner@italy_malta=1`` (off in the shipped plan: it
    delayed Paris), from Fall 1939 two Italian units are bound for Taranto (the
    Mediterranean port of the sea-zone table) and the landing wants no western offensive
    before its sail date (Summer I 1940): Italy's BRPs are kept."""
    g, pol, sit = _axis_at(SPRING_1940, params="@italy_malta=1")
    taranto = city_hexes(g.context.scenario.map, ["Taranto"])["Taranto"]
    bound = [u for u, hs in sit.memo("plan.unit_goals", dict).items() if hs == {taranto}]
    assert len(bound) == 2 and all(sit.mine[u]["power"] == "italy" for u in bound)
    assert "italy_malta" in sit.memo("plan.unsailed", set)
    pol._brp = lambda sit, power: (60, 50)
    assert pol.score(sit, _options("italy", western="offensive")) < \
        pol.score(sit, _options("italy", western="pass"))
    g, pol, sit = _axis_at(SUMMER_I_1940, params="@italy_malta=1")
    assert "italy_malta" not in sit.memo("plan.unsailed", set)
    g, pol, sit = _axis_at(SPRING_1940)  # the shipped plan: no Malta crew
    assert not [u for u, hs in sit.memo("plan.unit_goals", dict).items() if hs == {taranto}]


#: Summer II 1941 (Barbarossa's second turn)
SUMMER_II_1941 = 10


def test_tr04_berlins_alarm_rings_it_only_while_the_enemy_is_near():
    """TR-04 (Berlin taken: the Allies win at once): from Barbarossa on, eight German units
    ring Berlin while an enemy unit at war is within 4 hexes of it (a stage's ``near``) -
    none while the enemy is farther (France's army is 6 hexes off at set-up)."""
    g, _pol, sit = _axis_at(SUMMER_II_1941, wars=[("germany", "ussr")], gone=("poland",))
    m = g.context.scenario.map
    berlin = city_hexes(m, ["Berlin"])["Berlin"]
    assert sit.nearest(berlin, sit.enemy_hexes) > 4

    def ringing(sit) -> list[str]:
        return [u for u, hs in sit.memo("plan.unit_goals", dict).items() if hs == {berlin}]

    assert not ringing(sit)
    near = next(m.label(int(n)) for n in m.neighbor_indices(m.index_of_label(berlin)))
    near = next(m.label(int(n)) for n in m.neighbor_indices(m.index_of_label(near))
                if m.label(int(n)) != berlin)
    soviet = next(u for u, x in g.state["units"].items() if x.get("power") == "ussr"
                  and x.get("type") == "infantry" and x.get("hex"))
    g.state["units"] = {**g.state["units"], soviet: {**g.state["units"][soviet], "hex": near}}
    player = make_bot("planner", Seat.of(g, "axis", 0))
    sit = player.policy.situation(g.view("axis"), g)
    assert sit.nearest(berlin, sit.enemy_hexes) <= 4
    assert len(ringing(sit)) >= 7  # (the garrison of Berlin is held)
