"""Issue 25, session 13: the 3R planner's Italy goes to war with Britain (and France) as France
falls - it keeps the declaration's BRPs (TR-25's 15, twice over: TR-75 lets a power spend at
most half its BRPs on hand in a turn) from Fall 1939, declares in Summer I 1940 before its
options, and its army on the Alps walks into Marseille and Lyon before Vichy forms (TR-26)."""

from __future__ import annotations

from grognard.bots.base import Seat
from grognard.bots.catalog import make_bot
from grognard.bots.play import play_game
from grognard.engine.commands import Command
from grognard.engine.game import Game

#: Fall 1939 is turn 1, five turns a year
SPRING_1940, SUMMER_I_1940, SUMMER_II_1940 = 3, 4, 5
WAR_ON_UK = Command("declare_war", "axis", {"power": "italy", "majors": ["uk"]})


def _axis_at(turn: int, wars: list[tuple[str, str]] = (), params: str = ""):
    g = Game.new("tr-1939-campaign", seed=0)
    g.state = {**g.state, "turn": turn}
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
    g, pol, sit = _axis_at(SPRING_1940)
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
    g, pol, sit = _axis_at(SUMMER_II_1940, wars=[("italy", "uk")])
    assert pol.kept(sit, "italy") == 0


def test_tr25_italy_declares_war_on_britain_in_summer_1940_before_its_options():
    """TR-25: in Summer I 1940 (France falling) the war on Britain outranks every option
    (declared first, while the BRPs kept are on hand); not in Spring 1940; a study moves it
    (``planner@italy_war_year=1941``)."""
    g, pol, sit = _axis_at(SUMMER_I_1940)
    war = pol.score(sit, WAR_ON_UK)
    assert war > pol.score(sit, _options("italy", southern="offensive", western="offensive"))
    assert war > pol.score(sit, _options("italy", western="offensive"))
    g, pol, sit = _axis_at(SPRING_1940)
    assert pol.score(sit, WAR_ON_UK) < 0
    g, pol, sit = _axis_at(SUMMER_I_1940, params="@italy_war_year=1941")
    assert pol.score(sit, WAR_ON_UK) < 0 and pol.kept(sit, "italy") == 0


def test_tr25_tr26_italy_at_war_with_britain_takes_marseille_and_lyon_in_1940():
    """TR-25/TR-26, played (planner on both sides, seed 61, to Summer II 1940): Italy is at
    war with Britain from Summer I 1940 - the referee accepted the declaration - and holds
    Marseille and Lyon, France's victory locations by the Alps, which stay Axis when Vichy
    forms."""
    g = Game.new("tr-1939-campaign", seed=61)
    rec = play_game(g, {"axis": "planner", "allies": "planner"}, seed=61,
                    max_turns=SUMMER_II_1940)
    assert rec.refused == 0 and rec.error is None
    wars = {frozenset((w["a"], w["b"])): w["since"] for w in g.state["diplomacy"]["wars"]}
    assert wars.get(frozenset(("italy", "uk"))) == SUMMER_I_1940
    assert g.state["control"].get("Marseille") == "axis"
    assert g.state["control"].get("Lyon") == "axis"
