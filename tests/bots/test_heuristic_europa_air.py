"""Issue 25 (Europa): the heuristic bot flies air missions and drives on the rules' objectives.
Ground support over the hexes it attacks (EUR-23, EUR-06), interception of strike missions
(EUR-25), the FitE surprise turn's airfield strikes (EUR-45); its targets come from
``Game.objectives`` (the rule-system hook), never from a system's state keys."""

from __future__ import annotations

from collections import Counter

from grognard.bots.base import Seat
from grognard.bots.heuristic import EuropaPolicy, HeuristicBot, destination
from grognard.bots.play import play_game
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.system import Objective


def test_eur45_eur23_bots_strike_airfields_and_fly_ground_support_on_the_surprise_turn():
    g = Game.new("europa-barbarossa", seed=1)
    play_game(g, {s: "heuristic" for s in g.scenario.sides}, seed=1, max_commands=260)
    kinds = Counter(c.kind for c in g.commands)
    assert kinds["airfield_strike"] >= 1  # EUR-45, in the surprise air phase
    struck = [e for es in g.events for e in es if e.type == "airfield_struck"]
    assert all(len(e.data["attackers"]) >= 2 for e in struck)  # never a unit wasted alone
    assert sum(len(e.data["eliminated"]) for e in struck) >= 1
    missions = [c for c in g.commands if c.kind == "air_mission"]
    assert missions and all(c.args["kind"] == "ground_support" for c in missions)
    assert all(1 <= len(c.args["units"]) <= 4 for c in missions)  # spread, not one stack
    assert kinds["fly_missions"] >= 1 and kinds["ground_support"] == len(missions)
    # the supported hexes are attacked in that combat phase (EUR-06 fire support earned)
    supported = {c.args["target"] for c in missions}
    attacked = {c.args["defender_hex"] for c in g.commands if c.kind == "attack"}
    assert supported & attacked


class _Hooks:
    """A stand-in for the game's rule-system hooks: only ``objectives`` answers."""

    def __init__(self, objectives: list[Objective]) -> None:
        self._o = objectives

    def objectives(self) -> list[Objective]:
        return self._o


def test_bot_drives_on_the_objectives_the_rules_name():
    g = Game.new("europa-pocket", seed=1)
    while "move" not in g.allowed("axis"):
        g.apply(Command("end_phase", g.active()[0], {}))
    seat = Seat.of(g, "axis", 1)
    pol = EuropaPolicy(seat)
    far = "1208"
    hooks = _Hooks([Objective(far, "a far city", 3, "soviet", ("axis", "soviet")),
                    Objective("0101", "home", 2, "axis", ("axis", "soviet"))])
    sit = pol.situation(g.view("axis"), hooks)
    assert sit.value_of_hex(far) == 3 + 2 * 3  # a place wanted and not held weighs attacks
    assert pol.victory_goals(sit) == {far: 9}  # ours, with no enemy near, is not a goal
    plain = pol.situation(g.view("axis"), None)
    assert plain.value_of_hex(far) == 0
    # a unit out of contact scores a step toward the objective higher than without it
    uid, u = next((k, v) for k, v in sorted(sit.mine.items()) if not sit.in_contact(v["hex"]))
    target = {far: 1}
    closer = [c for c in g.legal("axis", "move") if c.args.get("unit") == uid
              and sit.nearest(str(destination(c)), target) < sit.nearest(u["hex"], target)]
    assert closer
    for c in closer:
        assert pol.score_move(sit, c) > pol.score_move(plain, c)


def test_eur25_bot_intercepts_with_every_fighter_in_reach():
    g = Game.new("europa-pocket", seed=1)
    pol = HeuristicBot(Seat.of(g, "soviet", 1)).policy
    sit = pol.situation(g.view("soviet"), None)
    none = Command("intercept", "soviet", {"mission": "m1", "interceptors": []})
    one = Command("intercept", "soviet", {"mission": "m1", "interceptors": ["su-11iap"]})
    assert pol.score(sit, one) > pol.score(sit, none) > 0
