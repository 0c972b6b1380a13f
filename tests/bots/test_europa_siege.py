"""Issue 25, session 11: the Europa attacker's sieges (bots/europa_offence.py siege_plan) on
small constructed positions: the foot units next to an enemy-held city stay, those that can
reach its sides move there, those farther march on it, until the planned attack reaches
SIEGE_AIM times the city's defense; the panzers are left out, an impassable side is not
used, an empty city is not besieged."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from tests.bots.europa_boards import Board, Sit, lab

from grognard.bots import europa_offence as off
from grognard.engine.commands import Command

W, H = 7, 5
CITY = (3, 2)


@dataclass
class Grid(Board):
    """A W x H board of land; the city doubles its defense."""

    w: int = W
    h: int = H
    cities: Collection[tuple[int, int]] = (CITY,)


def unit(side: str, at: tuple[int, int], kind: str = "infantry", attack: int = 6,
         defense: int = 5, **more: Any) -> dict[str, Any]:
    return {"side": side, "type": kind, "attack": attack, "defense": defense,
            "hex": lab(*at), "zoc_class": 2, "re_size": 3, **more}


def plan(mine: dict[str, dict[str, Any]], others: list[dict[str, Any]],
         options: dict[str, list[tuple[int, int]]], g: Grid | None = None
         ) -> tuple[dict[str, str], set[str], list[int]]:
    g = g or Grid()
    sit = Sit(g, mine, others)
    pic = off.Picture.of(sit, g, [lab(0, 0)], [lab(*CITY)])  # type: ignore[arg-type]
    moves = {uid: {g.index_of_label(lab(*h)): Command("move", "axis", {"unit": uid,
                                                                      "to": lab(*h)})
                   for h in hexes} for uid, hexes in options.items()}
    city = g.index_of_label(lab(*CITY))
    out, committed, besieged = off.siege_plan(pic, moves, [(city, 5.0)])
    scores = [s for s, _c in out]
    assert scores == sorted(scores, reverse=True)
    return ({str(c.args["unit"]): str(c.args["to"]) for _s, c in out}, committed,
            besieged)


GARRISON = [unit("soviet", CITY), unit("soviet", CITY), unit("soviet", CITY)]


def test_the_siege_gathers_foot_units_on_the_city_sides_to_the_planned_odds():
    """Three defenders of 5 in a doubled city: 30, planned to 2.5 x 30 = 75 attack factors.
    The two units next to it stay (40), then the strongest first: one moves to a free side
    (60), one that cannot reach a side marches on it (half counted: 67.5), one reaches a
    side (77.5): enough, so the weakest is left free; the panzers never join."""
    assert off.SIEGE_AIM == 2.5 and off.SIEGE_GARRISON == 15
    mine = {
        "a1": unit("axis", (2, 2), attack=20), "a2": unit("axis", (4, 2), attack=20),
        "b1": unit("axis", (3, 0), attack=20), "b2": unit("axis", (3, 4), attack=10),
        "b3": unit("axis", (0, 2), attack=15), "b5": unit("axis", (0, 4), attack=5),
        "pz": unit("axis", (2, 0), kind="armor", attack=30),
    }
    options = {"b1": [(3, 1), (4, 0)], "b2": [(3, 3), (2, 4)], "b3": [(1, 2), (0, 1)],
               "b5": [(1, 4)], "pz": [(3, 1), (2, 1)]}
    moved, committed, besieged = plan(mine, GARRISON, options)
    assert besieged == [CITY[1] * W + CITY[0]]
    assert moved == {"b1": lab(3, 1), "b2": lab(3, 3), "b3": lab(1, 2)}
    assert committed == {"a1", "a2", "b1", "b2", "b3"}
    assert "pz" not in committed and "b5" not in committed


def test_the_siege_uses_no_impassable_side_and_skips_an_empty_city():
    """A side across an impassable hexside is no place to attack from: the unit that could
    only reach it marches instead (to a hex nearer the city over land). A city the enemy
    has left is walked into, not besieged."""
    g = Grid()
    g.block((3, 1), CITY)
    mine = {"b1": unit("axis", (3, 0), attack=20)}
    moved, committed, _b = plan(mine, GARRISON, {"b1": [(3, 1), (2, 1)]}, g)
    assert moved == {"b1": lab(2, 1)}  # 2 hexes off the city over land, (3, 1) now 3
    moved, committed, _b = plan(mine, GARRISON, {"b1": [(3, 1), (2, 1)]})
    assert moved == {"b1": lab(3, 1)}  # open: a side
    moved, committed, besieged = plan(mine, [], {"b1": [(3, 1), (2, 1)]})
    assert (moved, committed, besieged) == ({}, set(), [])


def test_the_siege_stands_and_does_not_overstack_a_side():
    """Room on a side is counted in REs (10 a hex): a fourth 3-RE unit does not squeeze onto
    a side three units already hold, it takes another."""
    g = Grid()
    mine = {f"s{k}": unit("axis", (2, 2), attack=1) for k in range(3)}
    mine["m"] = unit("axis", (2, 1), attack=1)
    moved, committed, _b = plan(mine, GARRISON, {"m": [(2, 2), (3, 1)]}, g)
    assert moved == {"m": lab(3, 1)}
    assert {"s0", "s1", "s2", "m"} <= committed


def _axis_policy_at(hexes: dict[str, str], turn: int | None = None) -> tuple[Any, Any]:
    """The heuristic's Europa policy for the Axis of europa-barbarossa and its picture of a
    view with the units ``hexes`` moved (unit id -> hex), at game turn ``turn``."""
    import copy

    from grognard.bots.base import Seat
    from grognard.bots.heuristic import EuropaPolicy
    from grognard.engine.game import Game

    game = Game.new("europa-barbarossa", seed=1)
    pol = EuropaPolicy(Seat.of(game, "axis", 1))
    view = copy.deepcopy(game.view("axis"))
    for uid, h in hexes.items():
        view["units"][uid]["hex"] = h
    if turn is not None:
        view["turn"] = turn
    sit = pol.situation(view, game)
    assert pol.defending is False
    return pol, sit


LENINGRAD = "3306"
BESIEGERS = {"de-agn-inf-1": "3307", "de-agn-inf-2": "3307", "de-agn-inf-3": "3307",
             "de-agn-inf-4": "3406", "de-agn-inf-5": "3406", "de-agn-inf-6": "3406",
             "su-nwf-rifle-1": LENINGRAD, "su-nwf-rifle-2": LENINGRAD,
             "su-nwf-rifle-3": LENINGRAD}


def test_the_last_turn_storms_an_objective_at_any_odds_that_can_take_it():
    """Six German divisions (36 attack factors) against three rifle divisions in
    Leningrad (woods, major city: (15 + 1) x 2): 1 to 1, below the odds that pay, so not
    made on an ordinary turn; on the scenario's last turn only the places count, so an
    attack with a chance of taking the objective is made."""
    attack = Command("attack", "axis", {"attackers": [f"de-agn-inf-{k}" for k in range(1, 7)],
                                        "defender_hex": LENINGRAD})
    pol, sit = _axis_policy_at(BESIEGERS)
    est = pol.own_estimate(sit, attack)
    assert est is not None and est.p_taken > 0
    assert not pol.last_turn(sit)
    assert pol.score_attack(sit, attack) < 0
    pol, sit = _axis_policy_at(BESIEGERS, turn=13)
    assert pol.last_turn(sit)
    assert pol.score_attack(sit, attack) > 0


def test_siege_cities_are_the_valuable_enemy_objectives_in_march_range():
    """Leningrad (5) with German units 1 hex off is besieged; Moscow (6), 20 hexes away, and
    Riga (1) are not; at the set-up only Odessa (2), by the Romanian border."""
    pol, sit = _axis_policy_at(BESIEGERS)
    names = [sit.map.label(i) for i, _w in pol.siege_cities(sit)]
    assert LENINGRAD in names and "5422" not in names and "1618" not in names
    pol, sit = _axis_policy_at({})
    assert [(sit.map.label(i), w) for i, w in pol.siege_cities(sit)] == [("3663", 2.0)]


def test_the_defender_counter_attacks_a_lost_objective_on_the_last_turn():
    """The Soviets, whose player turn ends each game turn, retake what they can on the last
    one: a counter-attack on Kiev (a German division in it: 7 x 2) by six rifle divisions
    (24), held by the Axis, is not worth its losses at their caution on an ordinary turn and
    is made on the last; not if Kiev is still theirs (nothing to retake)."""
    import copy

    from grognard.bots.base import Seat
    from grognard.bots.heuristic import EuropaPolicy
    from grognard.engine.game import Game

    kiev = "3446"
    game = Game.new("europa-barbarossa", seed=1)
    pol = EuropaPolicy(Seat.of(game, "soviet", 1))
    moved = {"de-ags-inf-1": kiev, **{f"su-swf-rifle-{k}": "3445" for k in (1, 2, 3)},
             **{f"su-swf-rifle-{k}": "3347" for k in (4, 5, 6)}}
    pol.situation(game.view("soviet"), game)  # the seat learns it defends

    def score(turn: int, target: str, holder: str) -> float:
        view = copy.deepcopy(game.view("soviet"))
        for uid, h in moved.items():
            view["units"][uid]["hex"] = h
        view["turn"] = turn
        sit = pol.situation(view, None)
        objs = [o.__class__(o.hex, o.name, o.value, holder if o.hex == kiev else o.holder,
                            o.wanted_by) for o in game.objectives()]
        sit.memo("victory.objectives", lambda: objs)
        return pol.score_attack(sit, Command("attack", "soviet", {
            "attackers": [f"su-swf-rifle-{k}" for k in range(1, 7)],
            "defender_hex": target}))

    assert pol.defending is True
    assert score(5, kiev, "axis") < 0
    assert score(13, kiev, "axis") > 0
    assert score(13, kiev, "soviet") < 0  # Kiev ours: no objective to retake


def test_the_defender_advances_into_an_objective_it_retakes():
    """EUR-15 The Soviets' advance after their own attack was not scored (any: mostly
    none); into an objective the Axis holds it now scores above staying, foot first, and
    into any other hex it stays unscored."""
    import copy

    from grognard.bots.base import Seat
    from grognard.bots.heuristic import EuropaPolicy
    from grognard.engine.game import Game

    kiev = "3446"
    game = Game.new("europa-barbarossa", seed=1)
    pol = EuropaPolicy(Seat.of(game, "soviet", 1))
    pol.situation(game.view("soviet"), game)

    def adv(where: str, holder: str, units: list[str]) -> float:
        view = copy.deepcopy(game.view("soviet"))
        view["combat"] = {**(view.get("combat") or {}), "pending": {"defender_hex": where}}
        sit = pol.situation(view, None)
        objs = [o.__class__(o.hex, o.name, o.value, holder if o.hex == kiev else o.holder,
                            o.wanted_by) for o in game.objectives()]
        sit.memo("victory.objectives", lambda: objs)
        return pol.score_advance(sit, Command("advance", "soviet", {"units": units}))

    foot = ["su-swf-rifle-1", "su-swf-rifle-2"]
    assert adv(kiev, "axis", foot) > adv(kiev, "axis", foot[:1]) > adv(kiev, "axis", []) > 0
    assert adv(kiev, "soviet", foot) == adv(kiev, "soviet", []) == 0
    assert adv("3445", "axis", foot) == 0
