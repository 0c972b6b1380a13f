"""EUR-22 (Revised Sequence of Play: "Reinforcements, withdrawals, and unit upgrades happen in
the initial phase as in the initial sequence of play") - the scenario's reinforcement schedule
(``[[europa.reinforcements]]``) and ``place_reinforcement`` in the owner's initial phase:
placement on an allowed hex, the refusals (wrong turn, enemy ZOC, over stacking, a hex not
allowed, another side's unit, twice), the delay of an arrival not placed to the next turn,
the legal list, the schedule's checks and replay. Played through Game.apply on a small map."""

from __future__ import annotations

import pytest

from grognard.core.errors import GrognardError
from grognard.engine import Command, Game
from grognard.engine.testing import assert_rejected, assert_replays, small_game

SCHEDULE = """
[europa]
last_turn = 4
supply_sources = { soviet = ["1004"] }

[calendar]
start = "1941-06-II"

[[europa.reinforcements]]
turn = 1
side = "soviet"
hexes = ["0903", "0703", "0302"]
units = [
  { id = "s-r1", name = "19th Rifle", nationality = "soviet", type = "infantry", attack = 4, defense = 5, movement = 6, re_size = 3, divisional = true, zoc_class = 2 },
  { id = "s-r2", name = "20th Rifle", nationality = "soviet", type = "infantry", attack = 4, defense = 5, movement = 6, re_size = 3, divisional = true, zoc_class = 2 },
]

[[europa.reinforcements]]
turn = "Jul I 1941"
side = "soviet"
units = [
  { id = "s-t1", name = "1st Tank", nationality = "soviet", type = "armor", attack = 6, defense = 5, movement = 10, re_size = 3, armor = "limited" },
]

[[europa.reinforcements]]
turn = 1
side = "axis"
hexes = ["0102"]
units = [
  { id = "a-i9", name = "9th Inf", nationality = "german", type = "infantry", attack = 6, defense = 7, movement = 6, re_size = 3, divisional = true, zoc_class = 2 },
]
"""

GRID = "\n".join(["....m....."] * 4)


def game(units: list[tuple[str, str, str, int]] | None = None, sections: str = SCHEDULE,
         until: tuple[str, str] | None = ("initial", "soviet")) -> Game:
    """Units (id, side, hex, REs) on four rows of ten hexes (a mountain column 05xx)."""
    units = units if units is not None else [("a1", "axis", "0202", 3), ("s1", "soviet", "1004", 3)]
    return small_game("europa", GRID, [
        {"id": i, "nationality": "german" if s == "axis" else "soviet", "side": s,
         "type": "infantry", "attack": 4, "defense": 4, "movement": 6, "re_size": r,
         "divisional": True, "zoc_class": 2, "hex": h} for i, s, h, r in units],
        sections=sections, until=until)


def place(uid: str, label: str, player: str = "soviet") -> Command:
    return Command("place_reinforcement", player, {"unit": uid, "hex": label})


def end(g: Game) -> None:
    g.apply(Command("end_phase", g.phase.player))


def until(g: Game, name: str, player: str, turn: int) -> None:
    for _ in range(100):
        if (g.phase.name, g.phase.player, g.state["turn"]) == (name, player, turn):
            return
        end(g)
    raise AssertionError("phase never reached")


def test_eur22_schedule_is_in_the_state_and_public():
    """The schedule: every unit not yet placed, its due turn (a date counts from the
    calendar's start: Jul I 1941 is turn 2) and its side, in both sides' views."""
    g = game(until=("initial", "axis"))
    pend = g.state["reinforcements"]
    assert {k: (v["due"], v["side"]) for k, v in pend.items()} == {
        "s-r1": (1, "soviet"), "s-r2": (1, "soviet"), "s-t1": (2, "soviet"),
        "a-i9": (1, "axis")}
    assert "s-r1" not in g.state["units"]
    assert set(g.view("axis")["reinforcements"]) == set(pend)


def test_eur22_place_on_an_allowed_hex():
    """A due reinforcement placed on a listed hex becomes a normal unit there, full strength,
    in supply, and leaves the schedule; the event names EUR-22."""
    g = game()
    (ev,) = g.apply(place("s-r1", "0903"))
    assert ev.type == "reinforcement_placed" and ev.data["rules"] == ["EUR-22"]
    u = g.state["units"]["s-r1"]
    assert (u["hex"], u["status"], u["attack"], u["re_size"], u["supply"]) == (
        "0903", "active", 4, 3, "in")
    assert "s-r1" not in g.state["reinforcements"]
    # a placed unit moves like any other in the movement phase
    end(g)
    until(g, "movement", "soviet", 1)
    g.apply(Command("move", "soviet", {"unit": "s-r1", "to": "0904"}))
    assert g.state["units"]["s-r1"]["hex"] == "0904"
    assert_replays(g)


def test_eur22_refused_on_a_hex_not_allowed():
    g = game()
    assert_rejected(g, place("s-r1", "0803"), r"EUR-22.*0803 is not a hex s-r1 may enter")


def test_eur22_refused_before_its_turn():
    """The tank arrives on Jul I 1941 (turn 2): refused on turn 1, placed on turn 2."""
    g = game()
    assert_rejected(g, place("s-t1", "1004"), r"EUR-22.*arrives on turn 2 \(Jul I 1941\)")
    end(g)
    until(g, "initial", "soviet", 2)
    g.apply(place("s-t1", "1004"))
    assert g.state["units"]["s-t1"]["hex"] == "1004"


def test_eur22_refused_for_another_sides_unit():
    g = game()
    assert_rejected(g, place("a-i9", "0102"), r"EUR-22.*reinforcement of axis, not soviet")


def test_eur22_refused_outside_the_owners_initial_phase():
    g = game()
    end(g)
    assert g.phase.name != "initial"
    assert_rejected(g, place("s-r2", "0903"), r"not allowed in the .* phase")


def test_eur22_refused_twice():
    g = game()
    g.apply(place("s-r1", "0903"))
    assert_rejected(g, place("s-r1", "0703"), r"EUR-22.*s-r1 has already been placed")
    assert_rejected(g, place("nobody", "0703"), r"EUR-22.*not a reinforcement")


def test_eur22_refused_in_enemy_zoc_and_on_an_enemy_hex():
    """0302 lies next to the Axis division in 0202 (its ZOC); 0703 holds an Axis unit."""
    g = game([("a1", "axis", "0202", 3), ("a2", "axis", "0703", 3), ("s1", "soviet", "1004", 3)])
    assert_rejected(g, place("s-r1", "0302"), r"EUR-22.*0302 is in an enemy ZOC")
    assert_rejected(g, place("s-r1", "0703"), r"EUR-22.*occupied by the enemy")


def test_eur21_reinforcement_refused_over_stacking():
    """EUR-21: 0903 holds 9 RE of Soviet units: a 3-RE division may not be placed there (it
    would hold 12); a unit placed onto a stack within the limit names EUR-21."""
    g = game([("a1", "axis", "0202", 3), ("s1", "soviet", "0903", 3), ("s2", "soviet", "0903", 3),
              ("s3", "soviet", "0903", 3), ("s4", "soviet", "0703", 3)])
    assert_rejected(g, place("s-r1", "0903"), r"EUR-21.*12 RE.*limit there is 10")
    (ev,) = g.apply(place("s-r1", "0703"))
    assert ev.data["rules"] == ["EUR-22", "EUR-21"]
    assert_rejected(g, place("s-r2", "0903"), r"EUR-21")
    assert ("s-r2", "0703") in {(c.args["unit"], c.args["hex"])  # 6 + 3 <= 10
                                for c in g.legal("soviet", "place_reinforcement")}


def test_eur22_unplaced_arrival_is_delayed_to_the_next_turn():
    """An arrival not placed when its owner ends the initial phase waits for the next turn's
    initial phase (not lost): a ``reinforcements_delayed`` event; placeable again on turn 2."""
    g = game()
    g.apply(place("s-r1", "0903"))
    evs = g.apply(Command("end_phase", "soviet"))
    (late,) = [e for e in evs if e.type == "reinforcements_delayed"]
    assert late.data["units"] == ["s-r2"] and late.data["to"] == 2
    assert g.state["reinforcements"]["s-r2"]["due"] == 2
    assert_rejected(g, place("s-r2", "0703"), r"not allowed in the")  # not in this phase
    until(g, "initial", "soviet", 2)
    assert {c.args["unit"] for c in g.legal("soviet", "place_reinforcement")} == {"s-r2", "s-t1"}
    g.apply(place("s-r2", "0703"))
    assert g.state["units"]["s-r2"]["hex"] == "0703"
    assert_replays(g)


def test_eur22_named_rule_cities_uses_supply_sources():
    """No hexes listed: the rule "cities" - here the side's supply source 1004 (no cities on
    the small map); its stack there (3 RE) leaves room."""
    g = game()
    end(g)
    until(g, "initial", "soviet", 2)
    assert {c.args["hex"] for c in g.legal("soviet", "place_reinforcement")
            if c.args["unit"] == "s-t1"} == {"1004"}
    assert_rejected(g, place("s-t1", "0903"), r"EUR-22.*enters at 1004")


def test_eur22_legal_lists_only_what_verify_accepts():
    """``game legal``: each listed placement passes verify; every due unit on every allowed
    free hex is listed (0302 in the Axis ZOC and 0703 on the Axis unit are not)."""
    g = game([("a1", "axis", "0202", 3), ("a2", "axis", "0703", 3), ("s1", "soviet", "1004", 3)])
    legal = g.legal("soviet", "place_reinforcement")
    assert {(c.args["unit"], c.args["hex"]) for c in legal} == {("s-r1", "0903"),
                                                               ("s-r2", "0903")}
    for c in legal:
        g.verify(c)
    assert g.legal("axis", "place_reinforcement") == []


def test_eur22_axis_places_in_its_own_initial_phase():
    g = game(until=("initial", "axis"))
    (ev,) = g.apply(place("a-i9", "0102", "axis"))
    assert g.state["units"]["a-i9"]["side"] == "axis" and ev.data["hex"] == "0102"


def test_eur22_save_and_replay_keep_the_same_hash():
    """A game with placements and a delay replays to the same state."""
    g = game()
    g.apply(place("s-r2", "0703"))
    end(g)
    until(g, "initial", "soviet", 2)
    g.apply(place("s-r1", "0903"))
    before = g.state_hash()
    assert_replays(g)  # save, reload byte-identical, replay: the same state and hash
    assert g.state_hash() == before


@pytest.mark.parametrize("bad,match", [
    ('turn = "Nox I 1941"', "is not a game turn"),
    ('turn = "May I 1941"', "is not a game turn"),
    ('side = "martians"', "unknown side"),
    ('hexes = ["9999"]', "9999"),
    ('units = [{ id = "a1", type = "infantry" }]', "duplicate unit id"),
    ('units = [{ id = "x", type = "infantry", hex = "0101" }]', "has no hex"),
    ('units = [{ id = "x", type = "infantry", side = "soviet" }]', "not the entry's side"),
])
def test_eur22_schedule_errors_are_one_line(bad: str, match: str):
    entry = {"turn": "turn = 1", "side": 'side = "axis"', "hexes": 'hexes = ["0102"]',
             "units": 'units = [{ id = "z9", type = "infantry" }]'}
    key = bad.split(" ", 1)[0]
    entry[key] = bad
    text = ("[europa]\n[calendar]\nstart = \"1941-06-II\"\n[[europa.reinforcements]]\n"
            + "\n".join(entry.values()) + "\n")
    with pytest.raises(GrognardError, match=match):
        game(sections=text, until=None)


def test_eur22_legal_and_verify_agree_on_every_unit_and_hex():
    """``legal`` is sound and complete: over every unit of the schedule (and one that is not)
    and every hex of the map, a placement verifies exactly when it is listed - in the Soviet
    and Axis initial phases of turns 1 and 2, with stacks, ZOCs and enemy units about."""
    g = game([("a1", "axis", "0202", 3), ("a2", "axis", "0703", 3), ("s1", "soviet", "0903", 3),
              ("s2", "soviet", "0903", 3), ("s3", "soviet", "1004", 3)],
             until=("initial", "axis"))
    m = g.scenario.map
    labels = [m.label(i) for i in range(m.n)]
    uids = ["s-r1", "s-r2", "s-t1", "a-i9", "a1", "nobody"]
    seen = 0
    for _ in range(40):
        if g.over or g.state["turn"] > 2:
            break
        for player in g.scenario.sides:
            legal = {(c.args["unit"], c.args["hex"])
                     for c in g.legal(player, "place_reinforcement")}
            for uid in uids:
                for label in labels:
                    ok = g.can(place(uid, label, player))
                    assert ok == ((uid, label) in legal), (player, uid, label)
                    seen += ok
        if g.phase.name == "initial" and (legal := g.legal(g.phase.player,
                                                           "place_reinforcement")):
            g.apply(legal[0])
        else:
            end(g)
    assert seen >= 4
