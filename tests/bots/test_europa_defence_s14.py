"""Issue 25 (Europa, session 14): the planner's Soviets mass on the fortresses the enemy can
still reach before the end.

* In the game's last :data:`~grognard.bots.europa_defence.LATE_TURNS` enemy player turns a
  fortress whose defense (in the city and on its ring) falls short of the enemy's attack in
  reach over TENABLE to 1 wants a full ring (:data:`RING_FULL` units a side, at most the
  stacking limit), so the free units march on it rather than stand on the line.
* A fortress the enemy cannot reach before the end (farther than TURN_REACH hexes for each
  enemy player turn left) keeps its garrison and drops its ring: those units are free for
  the fortresses in danger.
* The enemy player turns left are counted from the scenario's last turn and the turn
  sequence (an enemy phase after ours in this turn counts).

Small constructed boards, as in tests/bots/test_europa_defence.py.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from tests.bots.europa_boards import lab
from tests.bots.test_europa_defence import Grid, Sit, moves_of, obj, unit

from grognard.bots import europa_defence as ed

CITY = (6, 3)
SOURCE = lab(8, 0)
RING = [lab(5, 3), lab(7, 3), lab(6, 2), lab(6, 4)]


def _heavy() -> list[dict[str, Any]]:
    """Ten panzer corps of attack 9 three to four hexes west of the city (90 factors in
    reach: 36 defense wanted at 2.5 to 1)."""
    return [unit("axis", (x, y), kind="armor", attack=9) for x in (2, 3) for y in (1, 2, 3, 4, 5)]


def _wants(g: Grid, others: list[dict[str, Any]], city: tuple[int, int],
           turns_left: int | None, short: set[str]) -> dict[str, int]:
    sit = Sit(g, {}, others)
    enemy = [(g.index_of_label(str(u["hex"])), u) for u in others]
    want, _ring = ed.fortress_wants(sit, g, [obj(city, "Moscow", 6)],  # type: ignore[arg-type]
                                    {lab(*city)}, enemy, [True] * (g.w * g.h),
                                    set(range(g.w * g.h)), False, turns_left, short)
    return {g.label(i): n for i, n in want.items()}


def test_a_fortress_short_of_defense_in_the_last_turns_wants_a_full_ring():
    """The same threatened fortress: RING (2) a side while the end is far or its defense
    suffices, RING_FULL (3, the stacking limit of 10 REs in corps of 3) a side in the last
    LATE_TURNS enemy turns when it falls short."""
    assert ed.RING == 2 and ed.RING_FULL == 3 and ed.LATE_TURNS == 3
    g = Grid(cities=(CITY,))
    city = lab(*CITY)
    early = _wants(g, _heavy(), CITY, 6, {city})
    assert early[city] == 3 and all(early[h] == 2 for h in RING)
    enough = _wants(g, _heavy(), CITY, 2, set())
    assert all(enough[h] == 2 for h in RING)
    late = _wants(g, _heavy(), CITY, 2, {city})
    assert late[city] == 3 and all(late[h] == 3 for h in RING), late


def test_a_fortress_the_enemy_cannot_reach_before_the_end_drops_its_ring():
    """The enemy 12 hexes off (within RING_REACH): with two enemy turns left it can reach
    the fortress (TURN_REACH 10 a turn) and the ring stands; with one left it cannot, so the
    garrison stays and the ring is dropped; unknown turns left: the ring (session 12)."""
    assert ed.TURN_REACH == 10 and ed.RING_REACH >= 12
    g = Grid(w=15, h=7, cities=((13, 3),))
    city = lab(13, 3)
    far = [unit("axis", (1, 3), attack=6)]
    two = _wants(g, far, (13, 3), 2, set())
    assert two[city] == 3 and two[lab(12, 3)] == 2
    one = _wants(g, far, (13, 3), 1, set())
    assert one == {city: 3}, one
    assert _wants(g, far, (13, 3), None, set())[lab(12, 3)] == 2


def test_enemy_turns_left_counts_the_scenario_turns_and_the_sequence():
    """Turn 12 of 13: one enemy player turn to come when ours closes the turn, two when an
    enemy phase follows ours in this turn; none named by the scenario: unknown."""
    closing = SimpleNamespace(view={"turn": 12, "phase": 1}, player="soviet",
                              context=SimpleNamespace(turn_sequence=SimpleNamespace(
                                  phases=[SimpleNamespace(player="axis"),
                                          SimpleNamespace(player="soviet")])))
    assert ed.enemy_turns_left(closing, 13) == 1  # type: ignore[arg-type]
    assert ed.enemy_turns_left(closing, 12) == 0  # type: ignore[arg-type]
    first = SimpleNamespace(view={"turn": 12, "phase": 0}, player="soviet",
                            context=SimpleNamespace(turn_sequence=SimpleNamespace(
                                phases=[SimpleNamespace(player="soviet"),
                                        SimpleNamespace(player="axis")])))
    assert ed.enemy_turns_left(first, 13) == 2  # type: ignore[arg-type]
    assert ed.enemy_turns_left(closing, None) is None  # type: ignore[arg-type]


def test_the_free_units_mass_on_a_fortress_short_of_defense_in_the_last_turns():
    """Twenty free units east of a threatened fortress (ten panzer corps west of it): with
    six enemy turns left the ring gets two a side (the rest stay on the line), with one left
    (its defense falls short: 15 in the city against 36 wanted) three a side."""
    g = Grid(cities=(CITY,))
    mine = {f"u{k}": unit("soviet", (8, k)) for k in range(7)}
    mine.update({f"v{k}": unit("soviet", (7, k)) for k in range(7) if k != 3})
    mine.update({f"g{k}": unit("soviet", CITY) for k in range(3)})
    mine.update({f"w{k}": unit("soviet", (8, k)) for k in range(1, 5)})

    def on_ring(turns_left: int) -> int:
        sit = Sit(g, mine, _heavy())
        out = ed.defence_moves(sit, moves_of(mine, 3), [obj(CITY, "Moscow", 6)],  # type: ignore[arg-type]
                               [SOURCE], [lab(0, 0)], ("Moscow",), g=g, turns_left=turns_left)
        to = {uid: str(u["hex"]) for uid, u in mine.items()}
        to.update({str(c.args["unit"]): str(c.args["to"]) for _s, c in out})
        at = list(to.values())
        assert at.count(lab(*CITY)) == 3
        return sum(at.count(h) for h in RING)

    assert on_ring(6) < 12
    assert on_ring(1) == 12


def test_the_late_rings_are_off_in_the_shipped_plan_and_a_study_turns_them_on():
    """Session 14's rings were not shown better on paired held-out seeds (docs/AI.md): the
    shipped europa-barbarossa plan keeps them off, ``planner@late_rings=1`` turns them on."""
    from grognard.bots.planner_plans import plan_for
    assert not plan_for("europa-barbarossa", {})["soviet"]["late_rings"]
    assert plan_for("europa-barbarossa", {"late_rings": "1"})["soviet"]["late_rings"] is True
    assert not plan_for("europa-barbarossa", {"late_rings": "0"})["soviet"]["late_rings"]


def test_the_planner_takes_late_rings_as_a_setting():
    """``planner@late_rings=1`` (cited by docs/AI.md) is a known key, not refused."""
    from grognard.bots.planner import parse_params
    from grognard.bots.planner_plans import plan_for
    got = parse_params("late_rings=1")
    assert got == {"late_rings": "1"}
    assert plan_for("europa-barbarossa", got)["soviet"]["late_rings"] is True
