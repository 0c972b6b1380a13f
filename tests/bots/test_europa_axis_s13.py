"""Issue 25, session 13: the Europa Axis planner's army groups (bots/europa_offence.py
army_groups, march_need, march_plan; EuropaPlannerPolicy.march_goals and score_move) - the
ground units out of contact are split north to south by the plan's shares, each group's
objectives draw its nearest units over land until they are MARCH_AIM times the defense, the
rest march on to the group's last objective; a unit out of contact scores its move by the
hexes it gains over land toward its group's objective, not toward the nearest enemy unit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.bots.europa_boards import Board, Sit, lab

from grognard.bots import europa_offence as off
from grognard.bots.base import Seat
from grognard.bots.catalog import make_bot
from grognard.bots.heuristic import destination
from grognard.engine.commands import Command
from grognard.engine.game import Game

W, H = 9, 5


def idx(x: int, y: int) -> int:
    return y * W + x


@dataclass
class Grid(Board):
    """A W x H board of land, the hexes in ``lakes`` water, ``cities`` doubling defense."""

    w: int = W
    h: int = H


def unit(side: str, at: tuple[int, int], attack: int = 6, defense: int = 5) -> dict[str, Any]:
    return {"side": side, "type": "infantry", "attack": attack, "defense": defense,
            "hex": lab(*at), "zoc_class": 2, "re_size": 3}


def field_of(g: Grid):
    _nbr, land = off.graph_arrays(g)
    return lambda t: off.bfs_mask(g, [t], land)


def test_army_groups_split_the_army_north_to_south_by_the_shares():
    """Ten units by row, shares 0.2 / 0.5 / 0.3: the two northernmost are the first group,
    the next five the second, the three southernmost the third (ties by id)."""
    rows = {f"u{k}": k for k in range(10)}
    got = off.army_groups(rows, [0.2, 0.5, 0.3])
    assert [got[f"u{k}"] for k in range(10)] == [0, 0, 1, 1, 1, 1, 1, 2, 2, 2]
    assert off.army_groups({}, [1, 1]) == {}
    # shares need not add to one: they are weights
    assert off.army_groups({"a": 0, "b": 5}, [1, 1]) == {"a": 0, "b": 1}


def test_march_need_is_three_times_the_city_defense_and_its_screen():
    """A doubled city held by two units of 5 (20 weighted, under the 15-factor garrison a
    siege plans against: 30) and a unit of 4 next to it: 3 x (30 + 4) = 102 attack
    factors; an empty open hex: 3 x 15 = 45."""
    assert off.MARCH_AIM == 3
    g = Grid(cities={(6, 2)})
    enemy = [unit("soviet", (6, 2)), unit("soviet", (6, 2)), unit("soviet", (6, 1), defense=4)]
    pic = off.Picture.of(Sit(g, {}, enemy), g, [lab(0, 0)], [lab(8, 2)])  # type: ignore[arg-type]
    assert off.march_need(pic, idx(6, 2)) == 3 * (30 + 4)
    assert off.march_need(pic, idx(3, 4)) == 3 * 15


def test_march_plan_fills_the_near_objective_and_sends_the_rest_past_it():
    """Two objectives, the near one wanting 12 attack factors: the two units nearest it over
    land (6 each) go there, the third (as near) marches on past it to the group's last
    objective, as does the unit that is nearer the far one."""
    g = Grid()
    near, far = idx(3, 2), idx(8, 2)
    units = {"a": (idx(2, 2), 6.0), "b": (idx(3, 1), 6.0), "c": (idx(3, 3), 6.0),
             "d": (idx(7, 2), 6.0)}
    got = off.march_plan(units, [near, far], {near: 12.0, far: 100.0}, field_of(g))
    assert got == {"a": near, "b": near, "c": far, "d": far}
    # with a need the three fill, all three stay on the near objective
    got = off.march_plan(units, [near, far], {near: 18.0, far: 100.0}, field_of(g))
    assert got == {"a": near, "b": near, "c": near, "d": far}


def test_march_plan_goes_over_land_not_across_a_lake():
    """A lake between a unit and the nearer objective (by hex count): it marches on the one
    it reaches sooner over land; one cut off from every objective marches on none."""
    lakes = {(4, y) for y in range(H - 1)} | {(0, 1), (1, 0)}
    g = Grid(lakes=lakes)
    west, east = idx(2, 0), idx(6, 0)
    fields = field_of(g)
    assert fields(east)[idx(3, 1)] > fields(west)[idx(3, 1)]
    # (5, 1) is 2 hexes from the east objective and 3 hexes by count from the west one,
    # but 7 over land around the lake's southern end: the east
    got = off.march_plan({"a": (idx(5, 1), 6.0)}, [west, east], {west: 99.0, east: 99.0},
                         fields)
    assert got == {"a": east}
    got = off.march_plan({"z": (idx(0, 0), 6.0)}, [west, east], {west: 99.0, east: 99.0},
                         fields)
    assert got == {}  # (0, 0) is cut off by water: no march


def _axis_planner(seed: int = 3):
    g = Game.new("europa-barbarossa", seed=seed)
    bot = make_bot("planner", Seat.of(g, "axis", seed))
    pol = bot.policy
    sit = pol.situation(g.view("axis"), g)
    return g, pol, sit


def test_the_planner_axis_army_groups_on_europa_barbarossa():
    """The shipped plan's groups on the scenario's set-up: every Axis ground unit out of
    contact (none is in contact before the surprise turn) marches on an objective; the
    northernmost on Riga or Leningrad (Nord), the southernmost on the south's (Sued), and
    the centre's (Mitte) on Minsk, the Smolensk line or Moscow."""
    g, pol, sit = _axis_planner()
    assert pol.defending is False
    goals = pol.march_goals(sit)
    m = g.context.scenario.map
    by_name = {o.name.split(" (")[0]: o.hex for o in g.objectives()}
    where = {m.index_of_label(h): n for n, h in by_name.items()}
    where.update({m.index_of_label(o.hex): "Smolensk line" for o in g.objectives()
                  if o.name.startswith("Smolensk")})
    ground = [uid for uid, u in sit.mine.items() if u.get("type") not in off.NOT_GROUND
              and not sit.in_contact(str(u["hex"]))]
    assert set(goals) <= set(ground) and len(goals) >= 0.9 * len(ground)
    lay = m.layout
    row = {uid: lay.to_offset(sit.hex(str(sit.mine[uid]["hex"])))[1] for uid in goals}
    order = sorted(goals, key=lambda u: (row[u], u))
    north, south = order[:10], order[-10:]
    assert {where[goals[u]] for u in north} <= {"Riga", "Leningrad"}
    assert {where[goals[u]] for u in south} <= {"Odessa", "Kiev", "Sevastopol",
                                                "Dnepropetrovsk", "Kharkov"}
    middle = order[len(order) // 2]
    assert where[goals[middle]] in {"Minsk", "Smolensk line", "Moscow"}
    # each group's deepest objective draws the units its nearer ones do not need
    assert "Leningrad" in {where[t] for t in goals.values()}
    assert "Moscow" in {where[t] for t in goals.values()}


def test_a_unit_out_of_contact_moves_toward_its_groups_objective_not_the_nearest_enemy():
    """score_move (the attacker's moves the Schwerpunkte and sieges leave free): a unit out
    of contact gains a point a hex it comes nearer its group's objective over land (a
    quarter more for an empty hex next to the enemy), a move that takes it no nearer scores
    below zero; the heuristic's score (nearest objective or
    enemy hex) would rank another move first for some unit."""
    g, pol, sit = _axis_planner()
    goals = pol.march_goals(sit)
    from grognard.bots.heuristic import EuropaPolicy
    plain = EuropaPolicy(Seat.of(g, "axis", 3))
    psit = plain.situation(g.view("axis"), g)
    m = g.context.scenario.map
    differs = 0
    checked = 0
    for uid, t in sorted(goals.items())[:40]:
        here = str(sit.mine[uid]["hex"])
        f = pol._land_field(pol.picture(sit).g, t)
        d0 = f[m.index_of_label(here)]
        nbrs = [m.label(j) for j in pol.picture(sit).g.nbrs[m.index_of_label(here)]
                if j in f]
        cmds = [Command("move", "axis", {"unit": uid, "to": h}) for h in nbrs]
        if not cmds:
            continue
        checked += 1
        for c in cmds:
            d1 = f[m.index_of_label(str(destination(c)))]
            s = pol.score_move(sit, c)
            # a point a hex (a quarter more to fill an empty hex of the line)
            assert (s - (d0 - d1) in (0, 0.25)) if d1 < d0 else s < 0
        best = max(cmds, key=lambda c: (pol.score_move(sit, c), str(c.args["to"])))
        other = max(cmds, key=lambda c: (plain.score_move(psit, c), str(c.args["to"])))
        differs += best.args["to"] != other.args["to"]
    assert checked >= 20 and differs >= 1


def test_a_ringed_fortress_is_besieged_through_its_weakest_ring_hex():
    """The planner Soviets ring a fortress (every side held): the siege attacks the ring hex
    with the least terrain-weighted defense that our units can reach a side of; with a side
    free, the city itself; a city whose ring is itself enclosed, nothing."""
    city = (4, 2)
    g = Grid(cities={city})
    ring = {(3, 2): 10, (5, 2): 4, (4, 1): 8, (4, 3): 6}
    enemy = [unit("soviet", city)] + [unit("soviet", h, defense=d) for h, d in ring.items()]

    def target(others: list[dict[str, Any]]) -> int | None:
        pic = off.Picture.of(Sit(g, {}, others), g, [lab(0, 0)],  # type: ignore[arg-type]
                             [lab(8, 4)])
        return off.siege_target(pic, idx(*city))

    assert target(enemy) == idx(5, 2)
    open_side = [u for u in enemy if u["hex"] != lab(4, 3)]
    assert target(open_side) == idx(*city)
    # the weakest ring hex's own free sides held too: the next weakest with a free side
    shut = enemy + [unit("soviet", h) for h in ((6, 2), (5, 1), (5, 3))]
    assert target(shut) == idx(4, 3)
    enclosed = enemy + [unit("soviet", (x, y)) for x in range(W) for y in range(H)
                        if abs(x - 4) + abs(y - 2) == 2]
    assert target(enclosed) is None


def test_the_planner_besieges_a_ringed_city_through_the_ring():
    """EuropaPlannerPolicy.siege_cities (the Axis): a city whose land sides the enemy all
    holds is replaced by its ring hex (siege_target); the heuristic's list is kept as it is
    for a city with a free side."""
    _g, pol, sit = _axis_planner()
    pic = pol.picture(sit)
    cities = [(i, w) for i, w in super(type(pol), pol).siege_cities(sit)]
    got = pol.siege_cities(sit)
    assert [w for _i, w in got] == [w for _i, w in cities][:len(got)]
    for (i, _w), (j, _v) in zip(cities, got, strict=False):
        assert j == off.siege_target(pic, i)
