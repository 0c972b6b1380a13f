"""Issue 25 (Europa, session 31): the search's defender makes a last stand before the enemy's
last player turn.

The enemy's last player turn takes most of its points (session 27: 4.7 on average, the
turn before it 1.7), and nothing of ours follows it but our last assault. So in the
movement phases before it (``last_stand``, the search bot's):

* every fortress whose city and ring fall short of the enemy's attack in reach
  (``entry_pressure``) wants the full ring (RING_FULL a side), not only the most endangered
  one (session 14's ``late_rings``);
* a fortress the enemy's last turn cannot storm (``calm_fortresses``: the enemy attack in
  reach under CALM times its garrison's terrain-weighted defense) keeps its garrison and
  wants no ring: its ring's units go to the rings of the fortresses that can be stormed,
  or stay where they are;
* a unit marches on a ring hex only when it gets there this phase.

Small constructed boards, as in tests/bots/test_europa_defence.py.
"""

from __future__ import annotations

from typing import Any

from tests.bots.europa_boards import lab
from tests.bots.test_europa_defence import Actions, Grid, Sit, obj, unit

from grognard.bots import europa_defence as ed
from grognard.engine.commands import Command


def moves_of(g: Grid, mine: dict[str, dict[str, Any]], n: int) -> Actions:
    """Each unit's moves: the board's hexes within ``n`` of it (ignoring ZOCs)."""
    out = []
    for uid, u in mine.items():
        x0, y0 = int(u["hex"][:2]), int(u["hex"][2:])
        out += [Command("move", "soviet", {"unit": uid, "to": lab(x, y)})
                for y in range(g.h) for x in range(g.w) if 0 < abs(x - x0) + abs(y - y0) <= n]
    return Actions(out)


def _ring(x: int, y: int) -> list[str]:
    return [lab(x - 1, y), lab(x + 1, y), lab(x, y - 1), lab(x, y + 1)]


def _armor(xs: tuple[int, ...], ys: tuple[int, ...] = (1, 2, 3, 4, 5)) -> list[dict[str, Any]]:
    """Panzer corps of attack 9 on the columns ``xs``."""
    return [unit("axis", (x, y), kind="armor", attack=9) for x in xs for y in ys]


def _ends(sit: Sit, g: Grid, mine: dict[str, dict[str, Any]], objectives: list[Any],
          names: tuple[str, ...], n: int, **kw: Any) -> dict[str, str]:
    out = ed.defence_moves(sit, moves_of(g, mine, n), objectives, [lab(g.w // 2, g.h - 1)],  # type: ignore[arg-type]
                           [lab(0, 0)], names, g=g, **kw)
    to = {uid: str(u["hex"]) for uid, u in mine.items()}
    to.update({str(c.args["unit"]): str(c.args["to"]) for _s, c in out})
    return to


def test_a_fortress_the_enemy_cannot_storm_is_calm():
    """Three rifle corps (defense 5) in a city (x2): 30 factors. One infantry corps of attack
    4 in reach is under CALM (1.5) times 30; ten panzer corps (90) are not; an empty city has
    no garrison to stand on."""
    assert ed.CALM == 1.5
    g = Grid(w=17, h=7, cities=((3, 3), (13, 3)))
    mine = {f"a{k}": unit("soviet", (3, 3)) for k in range(3)}
    mine.update({f"b{k}": unit("soviet", (13, 3)) for k in range(3)})
    others = [*_armor((0,)), *_armor((1,), (1, 2, 3, 4, 5)), unit("axis", (16, 3))]
    sit = Sit(g, mine, others)
    enemy = [(g.index_of_label(str(u["hex"])), u) for u in others]
    assert ed.calm_fortresses(sit, g, {lab(3, 3), lab(13, 3)}, enemy) == {lab(13, 3)}
    assert ed.calm_fortresses(sit, g, {lab(8, 3)}, enemy) == set()


def test_the_last_stand_sends_a_calm_fortress_ring_to_the_one_that_can_be_stormed():
    """Moscow (worth 6) is calm, Kharkov (worth 3) faces ten panzer corps; eight units stand
    on Moscow's ring, two moves from Kharkov's. Filled the most valuable first (``by_worth``)
    with one enemy turn left, Moscow's ring keeps its eight and Kharkov's ring gets none; in
    the last stand Moscow's ring is not wanted and Kharkov's gets all eight."""
    g = Grid(w=17, h=9, cities=((7, 4), (12, 4)))
    kharkov, moscow = (7, 4), (12, 4)
    mine = {f"k{k}": unit("soviet", kharkov) for k in range(3)}
    mine.update({f"m{k}": unit("soviet", moscow) for k in range(3)})
    mine.update({f"r{i}{k}": unit("soviet", (int(h[:2]), int(h[2:])))
                 for i, h in enumerate(_ring(*moscow)) for k in range(2)})
    others = [*_armor((1, 2), (2, 3, 4, 5, 6)), unit("axis", (16, 4))]
    objectives = [obj(kharkov, "Kharkov", 3), obj(moscow, "Moscow", 6)]
    names = ("Moscow", "Kharkov")
    sit = Sit(g, mine, others)
    enemy = [(g.index_of_label(str(u["hex"])), u) for u in others]
    assert ed.calm_fortresses(sit, g, {lab(*moscow), lab(*kharkov)}, enemy) == {lab(*moscow)}

    def on(ring: list[str], **kw: Any) -> int:
        ends = _ends(Sit(g, mine, others), g, mine, objectives, names, 6, by_worth=True,
                     turns_left=1, **kw)
        assert list(ends.values()).count(lab(*kharkov)) == 3
        assert list(ends.values()).count(lab(*moscow)) == 3
        return sum(list(ends.values()).count(h) for h in ring)

    assert on(_ring(*moscow)) == 8 and on(_ring(*kharkov)) == 0
    assert on(_ring(*moscow), last_stand=True) == 0
    assert on(_ring(*kharkov), last_stand=True) == 8


def test_the_last_stand_gives_every_short_fortress_its_full_ring():
    """Two fortresses, each short of defense against the panzer corps beside it, and free
    units between them: session 14's late rings give the full ring (3 a side) to the most
    endangered one only (Moscow, the most at stake), so Kharkov's ring wants 2 a side; the
    last stand gives Kharkov's its full ring too."""
    g = Grid(w=17, h=9, cities=((4, 4), (12, 4)))
    kharkov, moscow = (4, 4), (12, 4)
    mine = {f"k{k}": unit("soviet", kharkov) for k in range(3)}
    mine.update({f"m{k}": unit("soviet", moscow) for k in range(3)})
    mine.update({f"f{x}{y}": unit("soviet", (x, y)) for x in (7, 8, 9) for y in range(1, 9)})
    others = [*_armor((0, 1), (3, 4, 5)), *_armor((15, 16), (3, 4, 5))]
    objectives = [obj(kharkov, "Kharkov", 3), obj(moscow, "Moscow", 6)]
    names = ("Moscow", "Kharkov")
    sit = Sit(g, mine, others)
    assert set(ed.entry_pressure(sit, objectives, names, [])) == {lab(*kharkov), lab(*moscow)}
    assert ed.most_endangered(sit, objectives, names, []) == {lab(*moscow)}

    def ring(**kw: Any) -> list[int]:
        ends = list(_ends(Sit(g, mine, others), g, mine, objectives, names, 6, turns_left=1,
                          **kw).values())
        assert ends.count(lab(*kharkov)) == 3
        return [ends.count(h) for h in _ring(*kharkov)]

    assert min(ring()) == 2
    assert ring(last_stand=True) == [3, 3, 3, 3]


def test_the_search_takes_the_last_stand_as_a_setting():
    """``mcts@last_stand=N`` (cited by docs/AI.md) is a known key and sets the policy's
    ``last_stand`` (the enemy player turns left from which it applies); the planner's own
    default is off (0)."""
    from grognard.bots.base import Seat
    from grognard.bots.catalog import make_bot
    from grognard.bots.planner import parse_params
    from grognard.engine.game import Game

    assert parse_params("last_stand=1") == {"last_stand": "1"}
    g = Game.new("europa-barbarossa", seed=1)
    assert make_bot("mcts@last_stand=1", Seat.of(g, "soviet", 1)).policy.last_stand == 1
    assert make_bot("mcts@last_stand=3", Seat.of(g, "soviet", 1)).policy.last_stand == 3
    assert make_bot("planner", Seat.of(g, "soviet", 1)).policy.last_stand == 0
