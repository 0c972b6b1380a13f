"""Issue 25 (Europa, session 9): the side that holds the objectives defends like a player.

The heuristic's Europa policy finds the defender of ``Game.objectives()`` (the side that held
most of their worth at set-up) and plans its moves once a phase: a line off the enemy with
stacks in good terrain, falling back from a hex the enemy would attack at long odds, hexes that
trace to a supply source (EUR-30) rather than pockets, the objectives garrisoned, every move
one the rules accept and no stack over the limit (EUR-21); its counter-attacks weigh its own
losses more (caution 5/2)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tests.bots.europa_boards import Board, lab
from tests.bots.europa_boards import Sit as BoardSit

from grognard.bots import europa_defence as ed
from grognard.bots import europa_offence as off
from grognard.bots.base import LegalActions, Seat
from grognard.bots.heuristic import DefencePlan, EuropaPolicy, HeuristicBot, destination
from grognard.core.hexgrid import distance
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.system import Objective


def _soviet_movement(name: str) -> Game:
    g = Game.new(name, seed=1)
    while "move" not in g.allowed("soviet"):
        g.apply(Command("end_phase", g.active()[0], {}))
    return g


def _plan(g: Game) -> tuple[EuropaPolicy, LegalActions, list[Command]]:
    pol = EuropaPolicy(Seat.of(g, "soviet", 1))
    la = LegalActions(g, "soviet")
    sit = pol.situation(g.view("soviet"), g)
    planned = pol.plan(sit, la, "move")
    assert planned is not None
    return pol, la, [c for _s, c in planned]


def test_the_defender_is_the_side_that_held_the_objectives_at_set_up():
    g = Game.new("europa-barbarossa", seed=1)
    soviet, axis = EuropaPolicy(Seat.of(g, "soviet", 1)), EuropaPolicy(Seat.of(g, "axis", 1))
    soviet.situation(g.view("soviet"), g)
    axis.situation(g.view("axis"), g)
    assert soviet.defending is True and axis.defending is False
    assert soviet.caution == Fraction(5, 2) and axis.caution == Fraction(6, 5)
    # without the rules' hooks nothing is decided (and no move is planned)
    blind = EuropaPolicy(Seat.of(g, "soviet", 1))
    blind.situation(g.view("soviet"), None)
    assert blind.defending is None


def test_eur17_eur21_the_defence_plan_is_legal_and_keeps_the_pocket_on_its_objectives():
    g = _soviet_movement("europa-pocket")
    _pol, la, cmds = _plan(g)
    assert cmds and all(la.allows(c) for c in cmds)
    moved = {str(c.args["unit"]) for c in cmds}
    assert len(moved) == len(cmds)  # one move a unit
    # Uman and the pocket's east hex (the objectives) keep their garrisons
    assert not moved & {"su-pocket-1", "su-pocket-2", "su-pocket-3"}
    # EUR-21: no hex ends over the stacking limit (3 divisions of 3 REs here)
    units = g.state["units"]
    end = {uid: u["hex"] for uid, u in units.items() if u["side"] == "soviet" and u.get("hex")}
    end.update({str(c.args["unit"]): str(destination(c)) for c in cmds})
    for h in set(end.values()):
        assert sum(int(units[u]["re_size"]) for u, x in end.items() if x == h) <= 10


def test_a_lone_unit_falls_back_from_a_hex_the_enemy_attacks_at_long_odds():
    g = _soviet_movement("europa-pocket")
    # a relief division alone next to the ring, in the open (a position set up by hand)
    state = copy.deepcopy(g.state)
    state["units"]["su-relief-1"]["hex"] = "0803"
    g.state = state
    g._changed()
    layout = g.scenario.map.layout
    enemy = [layout.from_label(u["hex"]) for u in g.state["units"].values()
             if u["side"] == "axis" and u.get("hex") and u["type"] != "air"]
    assert min(distance(layout.from_label("0803"), e) for e in enemy) == 1  # in contact
    _pol, la, cmds = _plan(g)
    mine = [c for c in cmds if c.args["unit"] == "su-relief-1"]
    assert mine and la.allows(mine[0])
    to = layout.from_label(str(destination(mine[0])))
    assert min(distance(to, e) for e in enemy) >= 2  # out of contact


def test_the_bot_plays_the_plan_in_its_movement_phase():
    g = _soviet_movement("europa-pocket")
    bot = HeuristicBot(Seat.of(g, "soviet", 1))
    _pol, _la, cmds = _plan(g)
    first = bot.choose(g.view("soviet"), LegalActions(g, "soviet"))
    assert first in cmds


def test_the_bot_reads_the_set_up_holders_as_the_rules_do():
    """The defender is found from public scenario data (placements, map, victory table), the
    same holders as the rules' own reading (europa.victory.initial_holders), with no import
    of a rule package in the bot (tests/test_floors.py)."""
    from grognard.bots.heuristic import set_up_holders
    from grognard.bots.situation import Situation
    from grognard.europa.victory import initial_holders

    for name in ("europa-barbarossa", "europa-pocket", "demo-europa", "europa-fite-surprise"):
        g = Game.new(name, seed=1)
        sit = Situation.of(g.context, g.view("soviet"), "soviet")
        first = initial_holders(g.scenario)
        assert first and set_up_holders(sit, list(first)) == first, name


# --- session 12: the planner's Soviet defence in depth (bots/europa_defence.py) -------------
# Small constructed boards: a threatened objective gets more defenders (EUR-10 terrain, the
# enemy in reach), a fortress its ring, a garrison the enemy has cut off breaks out rather
# than die in the pocket (EUR-30), a counter-attack is planned at good odds against an
# exposed unit and not at bad odds, an objective the enemy left empty is retaken.

W, H = 9, 7


@dataclass
class Grid(Board):
    """A W x H board of land; ``cities`` double their defense."""

    w: int = W
    h: int = H


@dataclass
class Sit(BoardSit):
    player: str = "soviet"


@dataclass
class Actions:
    moves: list[Command]

    def candidates(self, kind: str) -> list[Command]:
        return self.moves if kind == "move" else []


def unit(side: str, at: tuple[int, int], kind: str = "infantry", attack: int = 4,
         defense: int = 5, **more: Any) -> dict[str, Any]:
    return {"side": side, "type": kind, "attack": attack, "defense": defense,
            "hex": lab(*at), "zoc_class": 2, "re_size": 3, **more}


def reach(at: tuple[int, int], n: int) -> list[tuple[int, int]]:
    """The board's hexes within ``n`` of ``at`` (a unit's moves, ignoring ZOCs)."""
    return [(x, y) for y in range(H) for x in range(W)
            if 0 < abs(x - at[0]) + abs(y - at[1]) <= n]


def moves_of(mine: dict[str, dict[str, Any]], n: int = 3) -> Actions:
    out = []
    for uid, u in mine.items():
        at = (int(u["hex"][:2]), int(u["hex"][2:]))
        out += [Command("move", "soviet", {"unit": uid, "to": lab(*h)}) for h in reach(at, n)]
    return Actions(out)


def run(mine: dict[str, dict[str, Any]], others: list[dict[str, Any]],
        objectives: list[Objective], g: Grid, sources: list[str], fortresses: tuple[str, ...] = (),
        n: int = 3, last_turn: bool = False, counter: bool = True) -> dict[str, str]:
    """Where each unit ends (its move, else where it stands)."""
    sit = Sit(g, mine, others)
    out = ed.defence_moves(sit, moves_of(mine, n), objectives, sources, [lab(0, 0)],  # type: ignore[arg-type]
                           fortresses, last_turn=last_turn, counter=counter, g=g)
    scores = [s for s, _c in out]
    assert scores == sorted(scores, reverse=True)
    to = {uid: str(u["hex"]) for uid, u in mine.items()}
    to.update({str(c.args["unit"]): str(c.args["to"]) for _s, c in out})
    return to


def obj(at: tuple[int, int], name: str, value: int, holder: str = "soviet") -> Objective:
    return Objective(lab(*at), name, value, holder, ("axis", "soviet"))


def test_eur10_garrison_want_scales_with_the_threat_and_the_terrain():
    """Enemy attack factors in reach over TENABLE to 1 against (5 x units + add) x
    multiplier: 20 factors need one unit in a doubled city, 60 three, 90 more than a stack."""
    assert ed.TENABLE == 2.5 and ed.UNIT_DEFENSE == 5
    assert ed.garrison_want(0, 2, 0, 3) == 0
    assert ed.garrison_want(20, 2, 0, 3) == 1  # 20 / 2.5 / 2 = 4 defense: one unit
    assert ed.garrison_want(40, 2, 0, 3) == 2  # 8 defense
    assert ed.garrison_want(60, 2, 0, 3) == 3  # 12 defense
    assert ed.garrison_want(60, 1, 0, 3) == 4  # 24 in the open: no stack of 3 holds it
    assert ed.garrison_want(60, 2, 2, 3) == 2  # the city's +2: 10 defense


CITY = (6, 3)
SOURCE = lab(8, 3)


def _wants(others: list[dict[str, Any]], fortresses: set[str] = frozenset(),  # type: ignore[assignment]
           holder: str = "soviet") -> dict[str, int]:
    g = Grid(cities=(CITY,))
    sit = Sit(g, {}, others)
    enemy = [(g.index_of_label(str(u["hex"])), u) for u in others]
    want, _ring = ed.fortress_wants(sit, g, [obj(CITY, "Kiev", 3, holder)],  # type: ignore[arg-type]
                                    set(fortresses), enemy, [True] * (W * H),
                                    set(range(W * H)))
    return {g.label(i): n for i, n in want.items()}


def test_eur10_a_threatened_objective_gets_more_defenders():
    """A city worth 3 (doubled): no enemy in reach, no garrison wanted; three Axis infantry
    of 6 within 4 hexes (18, half counted: 9 / 2.5 / 2 = 1.8 defense) one unit; ten panzer
    corps of 9 within 8 hexes besides (108, half 54: 10.8 defense) three; the same mass
    next to it (no stack holds 2.5 to 1 against it) no stack to be destroyed - and as a
    fortress the full stack whatever the threat. In a game the threatened city ends the
    phase with the units wanted."""
    city = lab(*CITY)
    assert _wants([unit("axis", (0, 6), attack=6)]) == {}
    near = [unit("axis", (3, y), attack=6) for y in (2, 3, 4)]
    assert _wants(near) == {city: 1}
    heavy = near + [unit("axis", (2, y), kind="armor", attack=9) for y in range(1, 6)] + \
        [unit("axis", (1, y), kind="armor", attack=9) for y in range(1, 6)]
    assert _wants(heavy) == {city: 3}
    crushing = heavy + [unit("axis", (5, y), kind="armor", attack=9) for y in range(H)] + \
        [unit("axis", (7, y), kind="armor", attack=9) for y in range(H)]
    assert _wants(crushing) == {}
    assert _wants(crushing, {city})[city] == 3
    g = Grid(cities=(CITY,))
    mine = {"g1": unit("soviet", CITY), "r1": unit("soviet", (7, 1)),
            "r2": unit("soviet", (8, 4)), "r3": unit("soviet", (8, 2))}
    got = run(mine, heavy, [obj(CITY, "Kiev", 3)], g, [SOURCE])
    assert list(got.values()).count(city) == 3


def test_a_fortress_under_threat_gets_a_full_garrison_and_a_ring():
    """A fortress (the plan names it) with the enemy within RING_REACH: three units in the
    city and RING on each land hex next to it, the units marching on it from afar."""
    g = Grid(cities=(CITY,))
    mine = {f"u{k}": unit("soviet", (8, k)) for k in range(H)}
    mine.update({f"v{k}": unit("soviet", (7, k)) for k in range(H)})
    objectives = [obj(CITY, "Moscow", 6)]
    got = run(mine, [unit("axis", (1, 3), attack=6)], objectives, g, [lab(8, 0)],
              fortresses=("Moscow",))
    at = list(got.values())
    assert at.count(lab(*CITY)) == 3
    ring = [lab(5, 3), lab(7, 3), lab(6, 2), lab(6, 4)]
    assert all(at.count(h) >= 1 for h in ring), at
    assert sum(at.count(h) for h in ring) >= 6
    # not a fortress: the heuristic's wants (no ring)
    plain = list(run(mine, [unit("axis", (1, 3), attack=6)], objectives, g,
                     [lab(8, 0)]).values())
    assert sum(plain.count(h) for h in ring) < 6


def test_eur30_a_garrison_the_enemy_has_cut_off_falls_back():
    """A city worth 2 held by two units, the enemy's line closed behind it (a wall of Axis
    units across column 5 between it and the source): it is no longer a garrison - both
    units leave it toward the hexes that trace to the source; with the wall open they
    stay."""
    g = Grid(cities=((3, 3),))
    mine = {"g1": unit("soviet", (3, 3)), "g2": unit("soviet", (3, 3))}
    objectives = [obj((3, 3), "Minsk", 2)]
    wall = [unit("axis", (5, y), attack=6) for y in range(H)]
    cut = run(mine, wall, objectives, g, [SOURCE])
    assert cut["g1"] != lab(3, 3) and cut["g2"] != lab(3, 3)
    gap = [u for u in wall if u["hex"] not in (lab(5, 2), lab(5, 3), lab(5, 4))]
    kept = run(mine, gap, objectives, g, [SOURCE])
    assert kept["g1"] == lab(3, 3) and kept["g2"] == lab(3, 3)


def _counter(enemy: dict[str, Any], back: bool = False
             ) -> tuple[list[tuple[int, dict[str, int]]], Grid]:
    g = Grid()
    sit = Sit(g, {"a1": unit("soviet", (6, 1), attack=6), "a2": unit("soviet", (6, 5), attack=6),
                  "a3": unit("soviet", (7, 3), attack=6)}, [enemy])
    pic = off.Picture.of(sit, g, [SOURCE], [lab(0, 0)])  # type: ignore[arg-type]
    idx = g.index_of_label
    moves = {uid: {idx(lab(*h)): Command("move", "soviet", {"unit": uid, "to": lab(*h)})
                   for h in reach((int(u["hex"][:2]), int(u["hex"][2:])), 3)}
             for uid, u in sit.mine.items()}
    at = {uid: idx(str(u["hex"])) for uid, u in sit.mine.items()}
    safe = set(range(W * H)) - {idx(str(enemy["hex"]))}
    plan = DefencePlan(sit, g, {}, safe, {}, {}, {}, set())  # type: ignore[arg-type]
    wanted = {idx(str(enemy["hex"]))} if back else set()
    return ed.counter_attacks(sit, g, pic, moves, sorted(sit.mine), at, safe, plan,
                              wanted), g


def test_eur09_a_counter_attack_at_good_odds_on_an_exposed_unit_and_not_at_bad_odds():
    """An Axis motorized corps (defense 3) alone in the open: three Soviet units of 6 can
    reach its sides (18 against 3: 6 to 1, planned to COUNTER_ODDS): the fewest that make it
    (two: 12 = 4 to 1) go next to it. A panzer stack of 16 defense in the open: 18 against
    16 is no counter-attack, nobody moves for it, even on an objective we want back; an
    infantry corps of 5 there gets all three (18: 3.6 to 1)."""
    assert ed.COUNTER_ODDS == 3.0
    got, g = _counter(unit("axis", (5, 3), kind="motorized", attack=6, defense=3))
    assert len(got) == 1
    target, chosen = got[0]
    assert target == g.index_of_label(lab(5, 3))
    assert len(chosen) == 2
    assert all(j in g.nbrs[target] for j in chosen.values())
    strong, _g = _counter(unit("axis", (5, 3), kind="armor", attack=9, defense=16))
    assert strong == []
    # the same panzer stack on an objective we want back: a target, still not at 18 to 16
    strong, _g = _counter(unit("axis", (5, 3), kind="armor", attack=9, defense=16), back=True)
    assert strong == []
    weak, _g = _counter(unit("axis", (5, 3), attack=6, defense=5), back=True)
    assert len(weak) == 1 and len(weak[0][1]) == 3


def test_an_objective_the_enemy_left_empty_is_retaken():
    """The enemy holds a city it has left (no unit in it) within our reach: one unit moves
    in (the verdict counts who entered a hex last)."""
    g = Grid(cities=(CITY,))
    mine = {"r1": unit("soviet", (8, 3)), "r2": unit("soviet", (8, 5))}
    objectives = [obj(CITY, "Kiev", 3, holder="axis")]
    got = run(mine, [unit("axis", (1, 1), attack=6)], objectives, g, [SOURCE], counter=False)
    assert lab(*CITY) in got.values()


def test_eur17_eur21_the_planner_soviets_plan_is_legal_on_the_shipped_scenario():
    """europa-barbarossa, the Soviets' first movement phase: the planner plays the defence
    in depth (its plan names fortresses), every move one the rules accept, one a unit, no
    hex over the stacking limit (EUR-21)."""
    from grognard.bots.planner import PlannerBot
    from grognard.bots.planner_plans import EuropaPlannerPolicy

    g = _soviet_movement("europa-barbarossa")
    bot = PlannerBot(Seat.of(g, "soviet", 1))
    pol = bot.policy
    assert isinstance(pol, EuropaPlannerPolicy)
    assert "fortresses" in pol.campaign.side_plan
    la = LegalActions(g, "soviet")
    sit = pol.situation(g.view("soviet"), g)
    planned = pol.plan(sit, la, "move")
    assert planned
    cmds = [c for _s, c in planned]
    assert all(la.allows(c) for c in cmds)
    moved = [str(c.args["unit"]) for c in cmds]
    assert len(moved) == len(set(moved))
    units = g.state["units"]
    end = {uid: u["hex"] for uid, u in units.items()
           if u["side"] == "soviet" and u.get("hex") and u["type"] != "air"}
    end.update({str(c.args["unit"]): str(destination(c)) for c in cmds})
    for h in set(end.values()):
        assert sum(int(units[u].get("re_size") or 1) for u, x in end.items() if x == h) <= 10
