"""EUR-21 (stacking: up to 10 REs a hex, any mix; 7 REs in mountain) in engine moves and
advances: a move or an advance after combat may not end over the limit (reading
``stacking_at_move_end``); units pass through stacks; the moves offered are only those that
end within the limit. Played through Game.apply on a small map with a mountain column."""

from __future__ import annotations

import random

from grognard.engine import Command, Game
from grognard.engine.testing import assert_rejected, assert_replays, small_game

EUROPA = """
[europa]
last_turn = 2

[calendar]
start = "1941-06-II"
"""


def game(units: list[tuple[str, str, str, str]], readings: str = "") -> Game:
    """Units (id, side, REs, hex) on four rows of ten hexes with a mountain column (05xx)."""
    return small_game("europa", "\n".join(["....m....."] * 4), [
        {"id": i, "nationality": "german", "side": s, "type": "infantry", "attack": 4,
         "defense": 4, "movement": 6, "re_size": int(r), "divisional": True, "hex": h}
        for i, s, r, h in units], sections=readings + EUROPA, until=("movement", "axis"))


THREE_DIVISIONS = [("a1", "axis", "3", "0202"), ("a2", "axis", "3", "0202"),
                   ("a3", "axis", "3", "0202")]
FAR_SOVIET = ("s1", "soviet", "3", "1004")


def move(uid: str, to: str) -> Command:
    return Command("move", "axis", {"unit": uid, "to": to})


def test_eur21_tv03_three_divisions_leave_room_for_one_re():
    """EUR-TV03: three divisions (9 RE) leave room for 1 RE: a regiment (1 RE) may join them,
    a division (3 RE) may not; the accepted move names EUR-21."""
    g = game([*THREE_DIVISIONS, ("d4", "axis", "3", "0102"), ("r1", "axis", "1", "0101"),
              FAR_SOVIET])
    assert_rejected(g, move("d4", "0202"), "EUR-21.*12 RE.*limit there is 10")
    assert all(c.args != {"unit": "d4", "to": "0202"} for c in g.legal("axis", "move"))
    (ev,) = g.apply(move("r1", "0202"))
    assert "EUR-21" in ev.data["rules"]
    assert sum(1 for u in g.state["units"].values() if u["hex"] == "0202") == 4
    assert_replays(g)


def test_eur21_tv03_two_divisions_leave_room_for_four_re():
    """EUR-TV03: two divisions (6 RE) leave room for the usual extras (4 RE), not a third
    division and a regiment."""
    g = game([("a1", "axis", "3", "0202"), ("a2", "axis", "3", "0202"),
              ("x1", "axis", "2", "0102"), ("x2", "axis", "2", "0102"),
              ("x3", "axis", "1", "0101"), FAR_SOVIET])
    g.apply(move("x1", "0202"))
    g.apply(move("x2", "0202"))  # 10 RE: at the limit, allowed
    assert_rejected(g, move("x3", "0202"), "EUR-21")


def test_eur21_mountain_limit_is_seven_re():
    """EUR-21: 7 REs in mountain: two divisions (6) take a regiment, not a third division."""
    g = game([("a1", "axis", "3", "0502"), ("a2", "axis", "3", "0502"),
              ("d3", "axis", "3", "0402"), ("r1", "axis", "1", "0401"), FAR_SOVIET])
    assert g.scenario.map.terrain_of(g.scenario.map.layout.from_label("0502")) == "mountain"
    assert_rejected(g, move("d3", "0502"), "EUR-21.*9 RE.*limit there is 7")
    g.apply(move("r1", "0502"))


def test_eur21_units_pass_through_a_full_stack():
    """Stacking is checked where a move ends: a division crosses a 9-RE stack's hex."""
    g = game([*THREE_DIVISIONS, ("d4", "axis", "3", "0102"), FAR_SOVIET])
    (ev,) = g.apply(Command("move", "axis", {"unit": "d4", "path": ["0202", "0302"]}))
    assert ev.data["path"] == ["0202", "0302"]
    assert g.state["units"]["d4"]["hex"] == "0302"


def test_eur21_reading_off_allows_overstacking():
    """``stacking_at_move_end = false``: no check (a scenario or ``--reading`` may say so)."""
    g = game([*THREE_DIVISIONS, ("d4", "axis", "3", "0102"), FAR_SOVIET],
             readings="\n[readings]\nstacking_at_move_end = false\n")
    g.apply(move("d4", "0202"))
    assert sum(1 for u in g.state["units"].values() if u["hex"] == "0202") == 4


def test_eur21_every_offered_move_passes_and_every_refused_one_overstacks():
    """The moves offered are exactly the reachable ones that end within the limit."""
    g = game([*THREE_DIVISIONS, ("b1", "axis", "3", "0203"), ("b2", "axis", "3", "0203"),
              ("d4", "axis", "3", "0102"), ("r1", "axis", "1", "0101"), FAR_SOVIET])
    legal = g.legal("axis", "move")
    assert legal
    for c in legal:
        g.verify(c)
    offered = {(c.args["unit"], c.args["to"]) for c in legal}
    assert ("r1", "0202") in offered and ("d4", "0202") not in offered
    assert ("d4", "0203") in offered  # 6 + 3 = 9
    rng = random.Random(3)
    for _ in range(20):
        drawn = g.sample("axis", "move", rng)
        assert drawn is not None and (drawn.args["unit"], drawn.args["to"]) in offered


def test_eur21_an_advance_after_combat_is_limited_like_a_move():
    """The advance's check (``stacking_refusal``, what ``advance`` verifies): four divisions
    (12 RE) may not advance together into an emptied hex, three (9 RE) may; the advancing
    units' own hexes do not count (they leave them)."""
    from grognard.europa.movement import stacking_refusal

    g = game([*THREE_DIVISIONS, ("d4", "axis", "3", "0202"), FAR_SOVIET])
    ctx, state = g.context, g.state
    over = stacking_refusal(ctx, state, "axis", "0302", ["a1", "a2", "a3", "d4"])
    assert over is not None and over.rule == "EUR-21"
    assert stacking_refusal(ctx, state, "axis", "0302", ["a1", "a2", "a3"]) is None
    # the movers are counted once, where they end: a1-a3 "into" their own hex hold 9 RE there,
    # and with d4 staying in it 12
    assert stacking_refusal(ctx, state, "axis", "0202", ["a1", "a2"]) is not None
    g2 = game([*THREE_DIVISIONS, FAR_SOVIET])
    assert stacking_refusal(g2.context, g2.state, "axis", "0202", ["a1", "a2", "a3"]) is None
