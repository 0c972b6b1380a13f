"""Issue 25, item 4: the 3R planner's Weseruebung stage (off in the shipped plan): in Spring
1940 Germany declares war on Denmark and Norway (TR-25), takes Copenhagen by land and lands on
Oslo (TR-61/TR-62) from Kiel, where its units and two fleets (TR-70) gathered in Winter 1939;
``denmark_first`` keeps the war on Denmark in Winter 1939 and sends an air unit to Copenhagen
by SR, whose air zone (TR-60) then covers the sea hex next to Oslo. Seeded games: the referee
judges every step."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from grognard.bots.base import Seat
from grognard.bots.catalog import make_bot
from grognard.bots.planner import parse_params
from grognard.bots.planner_plans import PLANS, plan_for
from grognard.bots.play import play_game
from grognard.bots.tr_plans import air_cover_plan, offshore_hexes, sailed
from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.engine.game import Game

WINTER_1939, SPRING_1940 = 2, 3
KIEL, COPENHAGEN, OSLO, OFFSHORE = "I30", "H31", "C31", "D30"


class _Logged:
    """A bot that notes each command it chooses with the game turn it is chosen in."""

    def __init__(self, bot: Any, log: list[tuple[int, Command]]) -> None:
        self.bot, self.log, self.name = bot, log, bot.name

    def choose(self, view: Any, actions: Any) -> Command:
        cmd = self.bot.choose(view, actions)
        self.log.append((actions.game.turn, cmd))
        return cmd


def _play(axis: str, seed: int = 1, turns: int = SPRING_1940):
    g = Game.new("tr-1939-campaign", seed=seed)
    log: list[tuple[int, Command]] = []
    bots = {"axis": _Logged(make_bot(axis, Seat.of(g, "axis", seed)), log),
            "allies": "planner"}
    rec = play_game(g, bots, seed=seed, max_turns=turns)
    return g, rec, log


def _wars(log: list[tuple[int, Command]]) -> dict[str, int]:
    """Minor -> the turn Germany declared war on it."""
    return {m: t for t, c in log if c.kind == "declare_war" and c.args.get("power") == "germany"
            for m in c.args.get("minors") or []}


def _invasions(g: Game) -> list[tuple[int, dict[str, Any]]]:
    """(command index, the ``invaded`` event's data) of every invasion resolved."""
    return [(i, e.data) for i, evs in enumerate(g.events) for e in evs
            if e.type == "invaded"]


@pytest.fixture(scope="module")
def same_spring():
    return _play("planner@weseruebung=1940")


@pytest.fixture(scope="module")
def denmark_first():
    return _play("planner@weseruebung=1940@denmark_first=1")


def test_tr25_weseruebung_declares_both_wars_in_spring_1940(same_spring) -> None:
    _g, _rec, log = same_spring
    wars = _wars(log)
    assert wars.get("denmark") == SPRING_1940  # not with the Low Countries in Winter 1939
    assert wars.get("norway") == SPRING_1940
    assert wars.get("belgium") == WINTER_1939  # the West as shipped


def test_tr70_tr61_weseruebung_gathers_in_winter_and_lands_on_oslo_in_spring(same_spring
                                                                             ) -> None:
    g, _rec, log = same_spring
    fleet_srs = [(t, c) for t, c in log if c.kind == "sr" and c.args.get("kind") == "fleet"
                 and c.args["unit"].startswith("ger-")]  # (Italy's sail to Taranto: session 13)
    assert fleet_srs and all(t == WINTER_1939 and c.args["to"] == KIEL for t, c in fleet_srs)
    landings = [(t, c) for t, c in log if c.kind == "invade"]
    assert landings, "no landing on Oslo"
    t, cmd = landings[0]
    assert t == SPRING_1940 and cmd.args["beach"] == OSLO
    (group,) = cmd.args["groups"]
    assert group["hex"] == OFFSHORE and "zone" not in group  # the map's fact (TR-61)
    assert len(group["fleets"]) == 2 and sum(len(v) for v in group["cargo"].values()) == 2
    assert _invasions(g), "the referee resolved no invasion"


def test_tr60_same_spring_landing_may_be_intercepted(same_spring) -> None:
    """No German air is within range (4) of D30 in the Spring 1940 movement phase (Kiel is 5
    hexes away; Copenhagen is not yet held): the Royal Navy may intercept (TR-56/TR-60)."""
    g, _rec, _log = same_spring
    owed = [e.data for evs in g.events for e in evs
            if e.type == "reaction_owed" and e.data.get("kind") == "invade"]
    assert owed and owed[0].get("options"), "no British fleet could intercept"
    (_i, first), *_ = _invasions(g)
    assert any(x["rolls"] for x in first["interceptions"])  # seed 1: the fleet sailed


def test_tr25_copenhagen_falls_in_spring_1940_and_is_recorded(same_spring) -> None:
    """The record notes a neutral's capital falling (its first holder, the side it joins at
    war, is its owner)."""
    g, rec, _log = same_spring
    assert g.state["control"].get("Copenhagen") == "axis"
    assert rec.capitals["Copenhagen"]["turn"] == SPRING_1940
    assert rec.capitals["Copenhagen"]["by"] == "axis"


def test_tr60_denmark_first_air_covers_the_spring_landing(denmark_first) -> None:
    g, rec, log = denmark_first
    wars = _wars(log)
    assert wars.get("denmark") == WINTER_1939 and wars.get("norway") == SPRING_1940
    assert rec.capitals["Copenhagen"]["turn"] == WINTER_1939
    air = [(t, c) for t, c in log if c.kind == "sr" and c.args.get("to") == COPENHAGEN
           and g.state["units"][c.args["unit"]]["type"] == "air"]
    assert air and air[0][0] == WINTER_1939
    landings = [t for t, c in log if c.kind == "invade"]
    assert landings and landings[0] == SPRING_1940
    # TR-60: D30 is in Germany's uncontested air zone (the air unit in Copenhagen, 4 hexes):
    # the Royal Navy may not intercept, so the referee asks the Allies nothing and the
    # landing goes in at once (the same-spring landing was offered to the Royal Navy)
    cmds = list(g.commands)
    k = next(i for i, c in enumerate(cmds) if c.kind == "invade")
    replay = Game.new("tr-1939-campaign", seed=1)
    for c in cmds[:k]:
        replay.apply(c)
    events = replay.apply(cmds[k])
    assert not [e for e in events if e.type == "reaction_owed"]
    assert [e for e in events if e.type == "invaded"]
    (_i, first), *_ = _invasions(g)
    assert not any(x["rolls"] for x in first["interceptions"])


def test_weseruebung_off_plays_as_without_the_stages(monkeypatch) -> None:
    """Off (the shipped plan), the Weseruebung's stages change nothing: a seeded planner game
    plays to the same state as with the stages and keys taken out of the plan."""
    g1, _r1, log1 = _play("planner", seed=2)
    assert not [c for _t, c in log1 if c.kind == "invade"]
    assert "norway" not in _wars(log1)
    bare = copy.deepcopy(PLANS["tr-1939-campaign"])
    bare["axis"]["stages"] = [s for s in bare["axis"]["stages"]
                              if not str(s["name"]).startswith("weser")]
    for key in ("weseruebung", "weseruebung_gather"):
        del bare[key]
    monkeypatch.setitem(PLANS, "tr-1939-campaign", bare)
    g2, _r2, _log2 = _play("planner", seed=2)
    assert g1.state_hash() == g2.state_hash()


def test_weseruebung_params() -> None:
    assert parse_params("weseruebung=1940@denmark_first=1") == {
        "weseruebung": "1940", "denmark_first": "1"}
    plan = plan_for("tr-1939-campaign", {"weseruebung": "1941"})
    assert (plan["weseruebung"], plan["weseruebung_gather"]) == ("Spring 1941", "Winter 1940")
    stages = {s["name"]: s for s in plan["axis"]["stages"]}
    assert stages["weser_norway"]["sail"] == "Spring 1941"
    assert "denmark" not in stages["west"]["war"]["germany"]
    first = {s["name"]: s for s in plan_for("tr-1939-campaign", {
        "weseruebung": "1940", "denmark_first": "1"})["axis"]["stages"]}
    assert "denmark" in first["west"]["war"]["germany"]
    shipped = plan_for("tr-1939-campaign", {})
    assert shipped["weseruebung"] == "" and "denmark" in {
        s["name"]: s for s in shipped["axis"]["stages"]}["west"]["war"]["germany"]
    with pytest.raises(InputError):
        parse_params("weser=1940")


def _sit(turn: int, control: dict[str, str] | None = None):
    g = Game.new("tr-1939-campaign", seed=0)
    g.state = {**g.state, "turn": turn}
    if control:
        g.state["control"] = {**g.state["control"], **control}
    bot = make_bot("planner@weseruebung=1940", Seat.of(g, "axis", 0))
    return g, bot.policy.situation(g.view("axis"), g)


class _Actions:
    def __init__(self, game: Game) -> None:
        self.game = game


def test_tr61_landing_waits_for_its_sail_date() -> None:
    stage = {"sail": "Spring 1940"}
    g, sit = _sit(WINTER_1939)
    assert not sailed(sit, _Actions(g), stage)
    g, sit = _sit(SPRING_1940)
    assert sailed(sit, _Actions(g), stage)
    assert sailed(sit, _Actions(g), {})  # no sail date: from the stage's start


def test_tr60_air_cover_goes_to_a_held_city_within_range_of_the_offshore_hex() -> None:
    stage = {"air": 1, "powers": ["germany"], "beaches": ["Oslo"]}
    _g, sit = _sit(WINTER_1939)
    assert offshore_hexes(sit, [OSLO]) == {OFFSHORE}
    assert air_cover_plan(sit, [stage]) == []  # no German city within 4 of D30
    _g, sit = _sit(WINTER_1939, {"Copenhagen": "axis"})
    ((_s, cmd),) = air_cover_plan(sit, [stage])
    assert cmd.kind == "sr" and cmd.args["to"] == COPENHAGEN
    assert sit.mine[cmd.args["unit"]]["type"] == "air"
    assert air_cover_plan(sit, [{**stage, "air": 0}]) == []


def test_tr25_a_neutral_capital_falls_from_the_side_it_joined() -> None:
    """The record's capital falls (bots/play.py): a neutral's capital (no holder at the start)
    is owned by its first holder, the side it joins at war (TR-24/TR-25) - not a fall - and
    falls when another side takes it."""
    from grognard.bots.play import GameRecord, _capitals

    g = Game.new("tr-1939-campaign", seed=0)
    caps = {"Copenhagen": "denmark", "Warsaw": "poland"}
    control0 = dict(g.state["control"])
    assert control0.get("Copenhagen") is None
    rec = GameRecord(g.scenario.id, 0, {})
    g.state["control"] = {**g.state["control"], "Copenhagen": "allies"}  # Denmark at war
    _capitals(g, caps, control0, rec, WINTER_1939)
    assert rec.capitals == {}
    g.state["control"] = {**g.state["control"], "Copenhagen": "axis"}
    _capitals(g, caps, control0, rec, SPRING_1940)
    assert rec.capitals["Copenhagen"]["turn"] == SPRING_1940
    assert rec.capitals["Copenhagen"]["by"] == "axis"
    assert rec.capitals["Copenhagen"]["date"] == "Spring 1940"
