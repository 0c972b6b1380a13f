"""Issue 25 (Europa, session 16): the planner's Soviets hold Moscow first.

* A fortress takes the strongest defenders that reach it, to its stacking limit
  (``fortress_garrison``): a rifle corps of 5 defense before a tank brigade of 2, and a 1-RE
  unit tops up three corps of 3 REs (EUR-10: the city doubles what stands in it).
* With ``by_worth`` the fortresses and their rings are filled the most valuable first
  (Moscow's 6 points before a city worth 2, whatever the threat).
* Each fortress's ring may have its own size (the plan's ``rings``), at most the stacking
  limit in corps.
* A returning unit (EUR-33) is placed at the supply source worth the most points at stake.
* The shipped plan turns ``by_worth`` on; ``planner@by_worth=0`` plays session 15's Soviets.

Small constructed boards, as in tests/bots/test_europa_defence.py.
"""

from __future__ import annotations

from typing import Any

from tests.bots.europa_boards import lab
from tests.bots.test_europa_defence import Grid, Sit, moves_of, obj, unit

from grognard.bots import europa_defence as ed

CITY = (6, 3)
SOURCE = lab(8, 0)


def _ends(g: Grid, mine: dict[str, dict[str, Any]], others: list[dict[str, Any]],
          objectives: list[Any], fortresses: tuple[str, ...], by_worth: bool,
          rings: dict[str, int] | None = None, n: int = 3) -> dict[str, str]:
    sit = Sit(g, mine, others)
    out = ed.defence_moves(sit, moves_of(mine, n), objectives, [SOURCE], [lab(0, 0)],  # type: ignore[arg-type]
                           fortresses, g=g, by_worth=by_worth, rings=rings)
    to = {uid: str(u["hex"]) for uid, u in mine.items()}
    to.update({str(c.args["unit"]): str(c.args["to"]) for _s, c in out})
    return to


def test_eur10_a_fortress_takes_its_strongest_defenders_to_the_stacking_limit():
    """Three tank brigades (defense 2) stand in the city, four rifle corps (defense 5) and a
    cavalry division (1 RE, defense 3) a hex or two east: with ``by_worth`` the city ends
    with three rifle corps and the cavalry (10 REs, 18 defense factors); without it the
    brigades already there keep it (6)."""
    g = Grid(cities=(CITY,))
    city = lab(*CITY)
    mine = {f"b{k}": unit("soviet", CITY, kind="armor", attack=2, defense=2) for k in range(3)}
    mine.update({f"r{k}": unit("soviet", (7 + k % 2, 2 + k), defense=5) for k in range(4)})
    mine["cav"] = unit("soviet", (7, 3), kind="cavalry", attack=2, defense=3, re_size=1)
    axis = [unit("axis", (1, 3), kind="armor", attack=9)]
    objectives = [obj(CITY, "Moscow", 6)]

    def garrison(by_worth: bool) -> tuple[int, int]:
        to = _ends(g, mine, axis, objectives, ("Moscow",), by_worth)
        here = [uid for uid, h in to.items() if h == city]
        return (sum(int(mine[u]["defense"]) for u in here),
                sum(int(mine[u]["re_size"]) for u in here))

    assert garrison(True) == (18, 10)
    assert garrison(False) == (6, 9)


def test_by_worth_fills_moscow_before_a_lesser_city_under_more_threat():
    """Two fortresses four hexes apart, three units between them that reach either: the
    lesser city (worth 2) faces more panzers; by threat (session 13) its garrison comes
    first, by worth Moscow's (6 points)."""
    g = Grid(w=11, h=7, cities=((3, 3), (7, 3)))
    moscow, lesser = lab(7, 3), lab(3, 3)
    mine = {f"r{k}": unit("soviet", (5, 2 + k)) for k in range(3)}
    axis = [unit("axis", (1, y), kind="armor", attack=9) for y in range(7)]
    axis += [unit("axis", (9, 6), kind="armor", attack=9)]
    objectives = [obj((7, 3), "Moscow", 6), obj((3, 3), "Dnepropetrovsk", 2)]

    def count(by_worth: bool) -> dict[str, int]:
        to = _ends(g, mine, axis, objectives, ("Moscow", "Dnepropetrovsk"), by_worth)
        return {h: list(to.values()).count(h) for h in (moscow, lesser)}

    assert count(False) == {moscow: 0, lesser: 3}
    assert count(True) == {moscow: 3, lesser: 0}


def test_the_plan_sizes_each_fortress_ring():
    """``rings`` by an objective's name prefix, at most the hex's room in corps; others
    keep RING (2)."""
    assert ed.ring_size("Moscow", {"Moscow": 3}, 3) == 3
    assert ed.ring_size("Moscow", {"Moscow": 5}, 3) == 3
    assert ed.ring_size("Sevastopol", {"Sevastopol": 1}, 3) == 1
    assert ed.ring_size("Leningrad", {"Moscow": 3}, 3) == ed.RING == 2
    assert ed.ring_size("Leningrad", None, 3) == 2


def test_eur33_a_returning_unit_goes_to_the_fortress_with_most_at_stake():
    """Moscow (6) before Leningrad (5) when neither falls short; Leningrad when only its
    defense falls short of the attack in reach; a hex no fortress of ours stands on: 0."""
    g = Grid(w=11, h=7, cities=((2, 3), (8, 3)))
    sit = Sit(g, {}, [])
    objectives = [obj((8, 3), "Moscow", 6), obj((2, 3), "Leningrad", 5),
                  obj((5, 5), "Kiev", 3, holder="axis")]
    moscow, leningrad = lab(8, 3), lab(2, 3)
    calm: dict[str, float] = {}
    assert ed.replacement_score(sit, moscow, objectives, calm) > \
        ed.replacement_score(sit, leningrad, objectives, calm) > 0  # type: ignore[arg-type]
    short = {leningrad: 0.5}
    assert ed.replacement_score(sit, leningrad, objectives, short) > \
        ed.replacement_score(sit, moscow, objectives, short)  # type: ignore[arg-type]
    assert ed.replacement_score(sit, lab(5, 5), objectives, calm) == 0  # type: ignore[arg-type]


def test_by_worth_is_on_in_the_shipped_plan_and_a_study_turns_it_off():
    from grognard.bots.planner import parse_params
    from grognard.bots.planner_plans import plan_for
    assert plan_for("europa-barbarossa", {})["soviet"]["by_worth"] is True
    assert plan_for("europa-barbarossa", {"by_worth": "0"})["soviet"]["by_worth"] is False
    got = plan_for("europa-barbarossa", parse_params("rings=Moscow:3+Leningrad:2"))
    assert got["soviet"]["rings"] == {"Moscow": 3, "Leningrad": 2}


def test_eur09_a_fortress_garrison_never_attacks_out_of_its_city_before_the_last_turn(
        monkeypatch: Any) -> None:
    """An attack the heuristic would make (scored 2 here) is refused (-1) when one of its
    attackers stands in a fortress the planner's Soviets hold (Moscow), kept when none
    does, and kept on the game's last turn (nothing the enemy does follows it)."""
    from grognard.bots.base import Seat
    from grognard.bots.heuristic import EuropaPolicy
    from grognard.bots.planner_plans import plan_for, planner_policy
    from grognard.engine.commands import Command
    from grognard.engine.game import Game

    game = Game.new("europa-barbarossa", seed=0)
    policy = planner_policy(Seat.of(game, "soviet", 0), plan_for("europa-barbarossa", {}))
    sit = policy.situation(game.view("soviet"), game)
    policy.defending = True  # type: ignore[attr-defined]
    monkeypatch.setattr(EuropaPolicy, "score_attack", lambda self, sit, cmd: 2.0)
    inside, outside = sorted(uid for uid, u in sit.mine.items()
                             if u.get("hex") not in ("5422", "3306", "5348", "5054", None))[:2]
    sit.mine[inside] = {**sit.mine[inside], "hex": "5422"}  # a corps in Moscow
    attack = Command("attack", "soviet", {"attackers": [inside], "defender_hex": "5421"})
    assert policy.score_attack(sit, attack) == -1.0
    other = Command("attack", "soviet", {"attackers": [outside], "defender_hex": "5421"})
    assert policy.score_attack(sit, other) == 2.0
    monkeypatch.setattr(type(policy), "last_turn", lambda self, sit: True)
    assert policy.score_attack(sit, attack) == 2.0


def test_last_ring_counter_attacks_the_rings_only_before_the_enemys_last_turn(
        monkeypatch: Any) -> None:
    """``planner@last_ring=1``: the ring counter-attacks (``counter_attacks``' ``ring``) are
    made in the player turn after which only the enemy's last one follows (it attacks a
    fortress at any odds from each ring hex it holds), not before, and not without the
    setting."""
    from grognard.bots import planner_plans
    from grognard.bots.base import Seat
    from grognard.bots.planner import parse_params
    from grognard.bots.planner_plans import plan_for, planner_policy
    from grognard.engine.game import Game

    assert not plan_for("europa-barbarossa", {})["soviet"]["last_ring"]
    game = Game.new("europa-barbarossa", seed=0)
    on = planner_policy(Seat.of(game, "soviet", 0),
                        plan_for("europa-barbarossa", parse_params("last_ring=1")))
    off = planner_policy(Seat.of(game, "soviet", 0), plan_for("europa-barbarossa", {}))
    sit = on.situation(game.view("soviet"), game)
    left = {"n": 1}
    monkeypatch.setattr(planner_plans, "enemy_turns_left", lambda sit, last: left["n"])
    assert on.before_last_enemy_turn(sit)  # type: ignore[attr-defined]
    assert not off.before_last_enemy_turn(sit)  # type: ignore[attr-defined]
    left["n"] = 2
    assert not on.before_last_enemy_turn(sit)  # type: ignore[attr-defined]
    left["n"] = 0  # the game's last movement: last_assault, not ring counter-attacks
    assert not on.before_last_enemy_turn(sit)  # type: ignore[attr-defined]


def test_worth_pull_is_a_study_setting_and_by_default_the_modules():
    """``planner@worth_pull=0`` (session 16 study): the units marching on the rings are not
    drawn toward the valuable fortresses; unset, the plan keeps :data:`WORTH_PULL`."""
    from grognard.bots.planner import parse_params
    from grognard.bots.planner_plans import plan_for
    assert "worth_pull" not in plan_for("europa-barbarossa", {})["soviet"]
    got = plan_for("europa-barbarossa", parse_params("worth_pull=0"))
    assert got["soviet"]["worth_pull"] == 0.0
