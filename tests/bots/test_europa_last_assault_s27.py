"""Issue 25, session 27: the attacker's last movement phase weighs the verdict it makes
(``europa_offence.last_assault_plan``; ``EuropaPlannerPolicy.last_moves``,
``attack_stakes``, ``last_verdict`` for the counted side; the search bot's, ``mcts`` at budget
4 and up, ``mcts@verdict=0|1``, ``planner@verdict=1``). In europa-barbarossa the Axis's
Dec II 1941 turn makes most of the verdict (4.7 points on average in 40 planner games): every
objective it can still take is worth the whole army, and which ones it goes for is a
question of the verdict's levels - at 14 points a long chance at Moscow (6) and a likelier
Kharkov (3) both make a win, a likelier Odessa (2) too."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import pytest
from tests.bots.europa_boards import Board, Sit, barbarossa_objectives, lab

from grognard.bots import europa_offence as off
from grognard.bots.base import LegalActions, Seat
from grognard.bots.catalog import make_bot
from grognard.bots.situation import Situation
from grognard.engine.commands import Command
from grognard.engine.game import Game

W, H = 9, 5
WEAK, STRONG = (2, 2), (6, 2)  # two enemy-held cities


@dataclass
class Grid(Board):
    w: int = W
    h: int = H
    cities: Collection[tuple[int, int]] = (WEAK, STRONG)


def unit(side: str, at: tuple[int, int], attack: int = 4, defense: int = 5,
         **more: Any) -> dict[str, Any]:
    return {"side": side, "type": "infantry", "attack": attack, "defense": defense,
            "hex": lab(*at), "zoc_class": 2, "re_size": 3, **more}


def assault(verdict: Any, stakes: dict[tuple[int, int], float], pinned: Collection[str] = (),
            chance: Any = None, aims: tuple[float, ...] = (off.LAST_AIM,)
            ) -> tuple[dict[str, str], set[str], list[str]]:
    """Four Axis units of attack 6 on the row between the cities, each able to reach any hex
    within 3; the weak city held by a defense of 3 (doubled: 6 - the four at 4 to 1), the
    strong one by 9 (18: 1 to 1 from three of them). Where each unit ends, the units
    committed, the targets. ``chance`` (session 30): the target's label and the plan's
    {unit: hex} -> the chance it is emptied, as ``last_assault_plan`` reads it."""
    g = Grid()
    mine = {f"a{k}": unit("axis", (3 + k % 2, 1 + 2 * (k // 2)), attack=6) for k in range(4)}
    enemy = [unit("soviet", WEAK, defense=3), unit("soviet", STRONG, defense=9)]
    sit = Sit(g, mine, enemy)
    pic = off.Picture.of(sit, g, [lab(0, 0)], [lab(8, 4)])  # type: ignore[arg-type]
    moves = {uid: {g.index_of_label(lab(x, y)): Command("move", "axis", {"unit": uid,
                                                                        "to": lab(x, y)})
                   for y in range(H) for x in range(W)
                   if 0 < abs(x - int(u["hex"][:2])) + abs(y - int(u["hex"][2:])) <= 3
                   and (x, y) not in (WEAK, STRONG)}
             for uid, u in mine.items() if uid not in pinned}
    by_index = None if chance is None else (lambda t, pick: chance(g.label(t), pick))
    out, committed, targets = off.last_assault_plan(
        pic, moves, {g.index_of_label(lab(*c)): s for c, s in stakes.items()}, verdict,
        pinned=pinned, chance=by_index, aims=aims)
    scores = [s for s, _c in out]
    assert scores == sorted(scores, reverse=True)
    to = {uid: str(u["hex"]) for uid, u in mine.items()}
    to.update({str(c.args["unit"]): str(c.args["to"]) for _s, c in out})
    return to, committed, [g.label(t) for t in targets]


def sides(at: tuple[int, int]) -> set[str]:
    g = Grid()
    return {g.label(j) for j in g.nbrs[g.index_of_label(lab(*at))]}


STAKES = {WEAK: 2.0, STRONG: 6.0}


def test_the_last_assault_goes_for_the_verdict_the_army_can_make():
    """Only the strong city (6 points) turns the verdict: the whole army goes to its sides
    at the odds it can make (24 against 18, 1 to 1: LAST_MIN - nothing the turn leaves
    counts but the places); where the weak city (2) is enough, the army takes the sure
    thing, 4 to 1 on it."""
    assert off.LAST_MIN == 1.0 and off.LAST_AIM == 5.0

    def strong_only(taken: Collection[str]) -> float:
        return 1.0 if lab(*STRONG) in taken else 0.0
    to, committed, targets = assault(strong_only, STAKES)
    assert targets == [lab(*STRONG)]
    assert set(to.values()) <= sides(STRONG) and committed == set(to)

    def weak_enough(taken: Collection[str]) -> float:
        return 1.0 if taken else 0.0
    to, committed, targets = assault(weak_enough, STAKES)
    assert targets == [lab(*WEAK)]
    assert set(to.values()) <= sides(WEAK) and committed == set(to)


def test_the_points_decide_where_the_verdict_cannot_change():
    """A verdict whose level no target moves (``VERDICT_POINT`` a point): the likeliest
    points - the weak city at 4 to 1 (2 x 0.58) against the strong at 1 to 1 (6 x 0.11) -
    get the army, and the units left over join where they add a column."""
    def points(taken: Collection[str]) -> float:
        return 0.01 * sum(STAKES[c] for c in STAKES if lab(*c) in taken)
    to, _committed, targets = assault(points, STAKES)
    assert lab(*WEAK) in targets
    assert sum(h in sides(WEAK) for h in to.values()) >= 3


def test_pinned_units_attack_only_from_where_they_stand_and_no_target_is_no_plan():
    """A garrison (``pinned``) never moves; a unit of it next to a target joins from its
    hex. No enemy-held objective with units in it: nothing planned."""
    to, committed, _targets = assault(lambda taken: 1.0 if taken else 0.0, STAKES,
                                      pinned={"a0", "a1"})
    assert to["a0"] == lab(3, 1) and to["a1"] == lab(4, 1)
    assert not {"a0", "a1"} & committed  # next to neither city: no attack to join
    out = assault(lambda taken: 0.0, {})
    assert out[1] == set() and out[2] == []


def test_the_counted_side_weighs_the_hexes_it_takes():
    """europa-barbarossa's table from the Axis's side: at 13 (Kiev, Kharkov, Odessa,
    Dnepropetrovsk, Minsk, Riga, Sevastopol; two Smolensk line hexes of the 3 needed score
    nothing) - a draw (0); a third line hex makes the line's 2 points, 15, still a draw;
    Leningrad 18, a marginal win (+1); Moscow and Leningrad 24, decisive (+3). Its stakes:
    each objective the Soviets hold, the line's 2 points on each hex that would be the one
    still needed; the Soviets' own verdict reads the same table from their side."""
    g = Game.new("europa-barbarossa", seed=0)
    bot = make_bot("mcts", Seat.of(g, "axis", 0))
    sit = Situation.of(bot.seat.context, g.view("axis"), "axis")
    held = {"3446", "5348", "3663", "5054", "2631", "1618", "4671", "3326", "3429"}
    sit.memo("victory.objectives", lambda: barbarossa_objectives(held))
    pol: Any = bot.policy
    worth = pol.last_verdict(sit)
    point = pol.VERDICT_POINT
    assert worth(()) == 0.0
    assert worth(("3928",)) == pytest.approx(2 * point)
    assert worth(("3928", "3431")) == pytest.approx(2 * point)  # the line counts once
    assert worth(("3306",)) == pytest.approx(1 + 5 * point)
    assert worth(("5422", "3306")) == pytest.approx(3 + 11 * point)
    stakes = pol.attack_stakes(sit)
    assert stakes == {"5422": 6.0, "3306": 5.0, "3928": 2.0, "3431": 2.0}
    soviet = make_bot("mcts", Seat.of(g, "soviet", 0))
    ssit = Situation.of(soviet.seat.context, g.view("soviet"), "soviet")
    ssit.memo("victory.objectives", lambda: barbarossa_objectives(held))
    spol: Any = soviet.policy
    assert spol.last_verdict(ssit)(("5054",)) == pytest.approx(1 + 2 * point)  # 11: theirs
    assert spol.attack_stakes(ssit) == {}  # the Soviets are not the counted side


def minsk_last_turn(place: bool) -> tuple[Game, list[str], list[int]]:
    """europa-barbarossa (seed 3) at the Axis's turn-1 movement phase with the turn counter
    set to 13 (the scenario's last) and a Soviet unit put in Minsk (2631): the game, three
    German infantry units and Minsk's sides (map indices); with ``place`` the three stand on
    those sides."""
    import copy

    from grognard.bots.base import LazyView

    g = Game.new("europa-barbarossa", seed=3)
    phases = g.context.turn_sequence.phases
    bots = {p: make_bot("planner", Seat.of(g, p, 3)) for p in g.scenario.sides}
    while not (phases[int(g.state["phase"])].name == "movement" and "move" in g.allowed("axis")):
        p = g.active()[0]
        g.apply(bots[p].choose(LazyView(g, p), LegalActions(g, p)))
    m = g.scenario.map
    sides_of_minsk = [int(j) for j in m.neighbor_indices(m.index_of_label("2631"))]
    st = copy.deepcopy(g.state)
    st["turn"] = 13
    units = st["units"]
    three = sorted(u for u, x in units.items() if x["side"] == "axis"
                   and x.get("type") == "infantry" and x.get("hex"))[:3]
    if place:
        for u, j in zip(three, sides_of_minsk, strict=False):
            units[u]["hex"] = m.label(j)
    units[sorted(u for u, x in units.items() if x["side"] == "soviet" and x.get("hex"))[0]
          ]["hex"] = "2631"
    g.state = st
    g._changed()
    return g, three, sides_of_minsk


def test_the_search_plans_the_axis_last_movement_phase_for_the_verdict():
    """europa-barbarossa, the Axis's movement phase played as the scenario's last turn (the
    turn counter set to 13 on a turn-1 position) with a Soviet unit put in Minsk and three
    German divisions on its sides: the search's Axis (``mcts``: ``verdict_assault``) plans
    the last assault - the three stay where they stand, every move planned is legal; the
    planner (and ``mcts@verdict=0``) plans the turn as any other (no last assault)."""
    g, three, _sides = minsk_last_turn(place=True)
    la = LegalActions(g, "axis")
    seat = Seat.of(g, "axis", 3)
    search: Any = make_bot("mcts", seat).policy
    sit = search.situation(g.view("axis"), g)
    assert search.verdict_assault and search.attack_stakes(sit)["2631"] == 1.0
    planned = search.plan(sit, la, "move")
    assert planned == search.last_moves(sit, la) and planned
    assert not any(c.args["unit"] in three for _s, c in planned)
    assert all(la.allows(c) for _s, c in planned)
    for name in ("planner", "mcts@verdict=0"):
        pol: Any = make_bot(name, seat).policy
        assert not pol.verdict_assault
        other = pol.plan(pol.situation(g.view("axis"), g), la, "move")
        assert other != planned


def test_the_last_turns_attacks_on_objectives_go_first(monkeypatch: pytest.MonkeyPatch):
    """An attack takes every unit next to its hex that has not attacked, so in the last turn
    the search's attacks on the objectives the enemy holds are scored LAST_FIRST over any
    other (a unit placed next to Moscow and a hex beside it went to the other hex's attack,
    Moscow's with 3 of its 9 units); the planner's scores stand, and before the last turn."""
    import copy

    from grognard.bots.heuristic import EuropaPolicy

    g = Game.new("europa-barbarossa", seed=3)
    monkeypatch.setattr(EuropaPolicy, "score_attack", lambda self, sit, cmd: 0.5)
    moscow = Command("attack", "axis", {"attackers": ["x"], "defender_hex": "5422"})
    beside = Command("attack", "axis", {"attackers": ["x"], "defender_hex": "5323"})
    seat = Seat.of(g, "axis", 3)
    search: Any = make_bot("mcts", seat).policy
    planner: Any = make_bot("planner", seat).policy
    assert search.LAST_FIRST == 1000.0
    for turn, first in ((13, 1000.5), (12, 0.5)):
        st = copy.deepcopy(g.state)
        st["turn"] = turn
        g.state = st
        g._changed()
        sit = search.situation(g.view("axis"), g)
        assert search.score_attack(sit, moscow) == first
        assert search.score_attack(sit, beside) == 0.5
        psit = planner.situation(g.view("axis"), g)
        assert planner.score_attack(psit, moscow) == 0.5
