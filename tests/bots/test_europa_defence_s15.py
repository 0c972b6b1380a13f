"""Issue 25 (Europa, session 15): the planner's Soviets hold Moscow and Leningrad in depth.

* A fortress the plan names in ``outer`` wants :data:`~grognard.bots.europa_defence.OUTER`
  unit on each land hex two from it once the enemy is within RING_REACH (its second ring),
  after its garrison and first ring: the units out of contact march there rather than stand
  on the line far off.
* An enemy stack standing in a fortress's ring is a counter-attack target whatever its
  defense (``ring_counter``), so the free units gather on its sides at COUNTER_ODDS.
* Both are plan data, off in the shipped europa-barbarossa plan: measured on held-out seeds
  they did not win more games than main's code (docs/AI.md, session 15).

Small constructed boards, as in tests/bots/test_europa_defence.py.
"""

from __future__ import annotations

from tests.bots.europa_boards import lab
from tests.bots.test_europa_defence import Grid, Sit, moves_of, obj, reach, unit

from grognard.bots import europa_defence as ed
from grognard.bots import europa_offence as off
from grognard.bots.heuristic import DefencePlan
from grognard.engine.commands import Command

CITY = (6, 3)
SOURCE = lab(8, 0)
RING = {lab(5, 3), lab(7, 3), lab(6, 2), lab(6, 4)}
OUTER = {lab(4, 3), lab(8, 3), lab(6, 1), lab(6, 5), lab(5, 2), lab(7, 2), lab(5, 4), lab(7, 4)}


def _ends(outer: tuple[str, ...]) -> dict[str, str]:
    """Where each of 24 Soviet units ends: the city's 3 and 21 free ones east of it (5 hexes a move), two
    panzer corps 4 hexes west of the city (within RING_REACH, out of contact)."""
    g = Grid(cities=(CITY,))
    mine = {f"g{k}": unit("soviet", CITY) for k in range(3)}
    mine.update({f"u{k}": unit("soviet", (8, k)) for k in range(7)})
    mine.update({f"v{k}": unit("soviet", (7, k)) for k in range(7)})
    mine.update({f"w{k}": unit("soviet", (8, k)) for k in range(7)})
    others = [unit("axis", (2, y), kind="armor", attack=9) for y in (2, 4)]
    sit = Sit(g, mine, others)
    out = ed.defence_moves(sit, moves_of(mine, 5), [obj(CITY, "Moscow", 6)],  # type: ignore[arg-type]
                           [SOURCE], [lab(0, 0)], ("Moscow",), g=g, outer_names=outer)
    to = {uid: str(u["hex"]) for uid, u in mine.items()}
    to.update({str(c.args["unit"]): str(c.args["to"]) for _s, c in out})
    return to


def test_a_fortress_named_outer_gets_its_second_ring():
    """The city keeps its 3 and its first ring 2 a side either way; with ``outer`` naming it
    every land hex two from it gets a unit (8 on this board), without it some are left
    empty."""
    assert ed.OUTER == 1
    for outer in ((), ("Moscow",)):
        at = list(_ends(outer).values())
        assert at.count(lab(*CITY)) == 3
        assert all(at.count(h) >= 2 for h in RING), outer
    with_outer = list(_ends(("Moscow",)).values())
    assert all(with_outer.count(h) >= 1 for h in OUTER)
    without = list(_ends(()).values())
    assert not all(without.count(h) >= 1 for h in OUTER)


def _counter(ring: set[str]) -> list[tuple[int, dict[str, int]]]:
    """A panzer stack of 14 defense (over EXPOSED: no spearhead) on the city's west ring
    hex, eight Soviet units of attack 6 within 3 hexes of its sides (48 factors, at most
    three on a side)."""
    g = Grid(cities=(CITY,))
    enemy = unit("axis", (5, 3), kind="armor", attack=9, defense=14)
    starts = [(8, 2), (7, 1), (8, 4), (2, 2), (2, 4), (1, 3), (5, 0), (5, 6)]
    sit = Sit(g, {f"a{k}": unit("soviet", s, attack=6) for k, s in enumerate(starts)}, [enemy])
    pic = off.Picture.of(sit, g, [SOURCE], [lab(0, 0)])  # type: ignore[arg-type]
    idx = g.index_of_label
    moves = {uid: {idx(lab(*h)): Command("move", "soviet", {"unit": uid, "to": lab(*h)})
                   for h in reach((int(u["hex"][:2]), int(u["hex"][2:])), 3)}
             for uid, u in sit.mine.items()}
    at = {uid: idx(str(u["hex"])) for uid, u in sit.mine.items()}
    safe = set(range(g.w * g.h)) - {idx(lab(5, 3))}
    plan = DefencePlan(sit, g, {}, safe, {}, {}, {}, set())  # type: ignore[arg-type]
    return ed.counter_attacks(sit, g, pic, moves, sorted(sit.mine), at, safe, plan, set(),
                              False, {idx(h) for h in ring})


def test_an_enemy_stack_in_a_fortress_ring_is_counter_attacked():
    """14 defense is no exposed spearhead (EXPOSED 12): no counter-attack on it elsewhere;
    standing in the ring it is a target, and units making at least 3 to 1 (42) go to its
    sides."""
    assert ed.EXPOSED < 14 and ed.COUNTER_ODDS == 3.0
    assert _counter(set()) == []
    got = _counter({lab(5, 3)})
    assert len(got) == 1
    g = Grid(cities=(CITY,))
    target, chosen = got[0]
    assert target == g.index_of_label(lab(5, 3))
    assert 6 * len(chosen) >= 42
    assert all(j in g.nbrs[target] for j in chosen.values())


def test_the_shipped_plan_keeps_both_off():
    """Measured on the held-out seeds (docs/AI.md, session 15), neither drew fewer games
    than main's code: the shipped plan keeps them off (a plan file may turn them on)."""
    from grognard.bots.planner_plans import plan_for
    soviet = plan_for("europa-barbarossa", {})["soviet"]
    assert soviet["outer"] == [] and soviet["ring_counter"] is False
