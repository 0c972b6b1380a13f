"""EUR-23 reading (europa/air/displacement.py): when an enemy ground unit stands in the hex of an
airbase, each air unit of the other side based there is displaced - the referee moves it to the
nearest hex where its side may base air units now (``transfer.open_bases``), within its
transfer reach, with room under ``AIRBASE_CAPACITY``, and marks it flown this game turn - or,
with no such base, eliminated. The engine adds the event ``air_units_displaced`` after the
command that moved the ground unit in.

Played on europa-barbarossa (seed 3) in the Axis's movement phase of turn 1: the Soviet airbase
at 1950 holds su-swf-kiev-bad-1 and su-swf-kiev-iad-1 and no ground unit; the German
de-ags-inf-17 is set down next to it (1849) and moves in."""

from __future__ import annotations

import dataclasses

import pytest
from tests.europa.positions import to_phase

from grognard.core.hexgrid import distance
from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.events import Event
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario
from grognard.engine.state import thaw
from grognard.europa.air.displacement import entered, words
from grognard.europa.air.missions import AIRBASE_CAPACITY, ready
from grognard.europa.air.transfer import based_count, open_bases, reach
from grognard.europa.play.system import FOLDS
from grognard.europa.reinforcements.schedule import enemy_zoc

BASE = "1950"  # a Soviet airbase (Kiev military district), empty of ground units at the start
KIEV = ("su-swf-kiev-bad-1", "su-swf-kiev-iad-1")
MOVER = "de-ags-inf-17"  # a German infantry division


def move(unit: str, to: str, player: str = "axis") -> Command:
    return Command("move", player, {"unit": unit, "to": to})


@pytest.fixture
def game() -> Game:
    """europa-barbarossa, seed 3, the Axis's movement phase of turn 1."""
    g = Game.new("europa-barbarossa", seed=3)
    to_phase(g, "movement", "axis")
    return g


def _set(g: Game, edit: dict[str, str], air: dict[str, dict[str, object]] | None = None) -> None:
    """The position with ground units moved (unit -> hex) and air unit fields changed."""
    st = thaw(g.state)
    for uid, h in edit.items():
        st["units"][uid]["hex"] = h
    for uid, fields in (air or {}).items():
        st["air_units"][uid].update(fields)
    g.state = st
    g._changed()


def _fresh(g: Game) -> Context:
    return dataclasses.replace(g.context, cache={})


def _displaced(events: list[Event]) -> list[Event]:
    return [e for e in events if e.type == "air_units_displaced"]


def _dist(g: Game, a: str, b: str) -> int:
    m = g.scenario.map
    return int(distance(m.hex(m.index_of_label(a)), m.hex(m.index_of_label(b))))


def test_eur23_reading_an_enemy_unit_entering_a_base_displaces_its_air_units(game: Game
                                                                             ) -> None:
    """The German infantry moves into 1950: both Soviet units there go to 2351, the nearest
    hex open to Soviet air units within their reach with room, and have flown this turn; the
    event follows the move's own and the log words it."""
    _set(game, {MOVER: "1849"})
    assert {game.state["air_units"][u]["base"] for u in KIEV} == {BASE}
    assert all(ready(game.state, u) for u in KIEV)
    events = game.apply(move(MOVER, BASE))
    assert [e.type for e in events] == ["unit_moved", "air_units_displaced"]
    assert events[1].data == {"base": BASE, "side": "soviet", "turn": 1, "rules": ["EUR-23"],
                              "units": [{"unit": KIEV[0], "to": "2351"},
                                        {"unit": KIEV[1], "to": "2351"}]}
    air = game.state["air_units"]
    for uid in KIEV:
        assert (air[uid]["base"], air[uid]["flown"], air[uid]["status"]) == \
            ("2351", 1, "operative")
        assert not ready(game.state, uid)  # no mission, no interception this game turn
    # 2351 is the nearest open base in reach: every open base nearer (or as near, with a
    # smaller label) is out of reach or full
    bases = open_bases(_fresh(game), game.state, "soviet")
    assert "2351" in bases and BASE not in bases
    count = based_count(game.state, "soviet")
    d = _dist(game, BASE, "2351")
    assert d <= min(reach(air[u]["range"]) for u in KIEV)
    for h in bases:
        if (_dist(game, BASE, h), h) < (d, "2351"):
            assert count.get(h, 0) >= AIRBASE_CAPACITY or \
                _dist(game, BASE, h) > reach(air[KIEV[0]]["range"])
    assert game.event_words(events[1].to_json()) == (
        "enemy ground units enter soviet's airbase at 1950: su-swf-kiev-bad-1 displaced to "
        "2351 (flown this turn), su-swf-kiev-iad-1 displaced to 2351 (flown this turn) "
        "(EUR-23 reading)")
    assert not [u for u in air.values() if u["base"] == BASE and u["status"] != "eliminated"]


def test_eur23_reading_displaced_units_count_against_the_room_of_the_base(game: Game) -> None:
    """With two Soviet units already at 2351, the first displaced unit fills it (3, the
    capacity) and the second goes to the next nearest open base in reach: at 5 hexes 1448,
    1845 (full: 3 units) and 2146 (2 units) tie, and the label order takes 1448."""
    _set(game, {MOVER: "1849"}, {"su-sf-odessa-sad-1": {"base": "2351"},
                                 "su-sf-odessa-sad-2": {"base": "2351"}})
    (ev,) = _displaced(game.apply(move(MOVER, BASE)))
    first, second = (x["to"] for x in ev.data["units"])
    assert (first, second) == ("2351", "1448")
    assert [_dist(game, BASE, h) for h in ("2351", "1448", "1845", "2146")] == [4, 5, 5, 5]
    assert based_count(game.state, "soviet")["2351"] == AIRBASE_CAPACITY
    # the second unit's base is the nearest open one in reach that still had room
    bases = open_bases(_fresh(game), game.state, "soviet")
    iad = game.state["air_units"][KIEV[1]]
    assert second in bases and _dist(game, BASE, second) <= reach(iad["range"])
    count = based_count(game.state, "soviet")
    for h in bases:
        if h != second and (_dist(game, BASE, h), h) < (_dist(game, BASE, second), second):
            assert count.get(h, 0) >= AIRBASE_CAPACITY or \
                _dist(game, BASE, h) > reach(iad["range"])


def test_eur23_reading_a_unit_with_no_open_base_in_reach_is_eliminated(game: Game) -> None:
    """A unit whose range reaches no open base (range 1: every open base is further) is
    eliminated; the other unit of the base is still displaced."""
    _set(game, {MOVER: "1849"}, {KIEV[0]: {"range": 1}})
    bases = open_bases(_fresh(game), game.state, "soviet")
    assert min(_dist(game, BASE, h) for h in bases) > reach(1)
    (ev,) = _displaced(game.apply(move(MOVER, BASE)))
    assert ev.data["units"] == [{"unit": KIEV[0], "to": None}, {"unit": KIEV[1], "to": "2351"}]
    air = game.state["air_units"]
    assert air[KIEV[0]]["status"] == "eliminated" and air[KIEV[1]]["base"] == "2351"
    assert "su-swf-kiev-bad-1 eliminated (no open base in reach)" in \
        str(game.event_words(ev.to_json()))


def test_eur23_reading_the_movers_own_air_units_at_the_base_are_untouched(game: Game) -> None:
    """The rule looks at sides: an Axis air unit set down at 1950 beside the Soviet units (a
    base holds one side's units in play) stays there, not flown, when the Axis enters."""
    own = "de-lf4-kg-55"
    _set(game, {MOVER: "1849"}, {own: {"base": BASE, "flown": None}})
    before = dict(game.state["air_units"][own])
    (ev,) = _displaced(game.apply(move(MOVER, BASE)))
    assert ev.data["side"] == "soviet" and [x["unit"] for x in ev.data["units"]] == list(KIEV)
    assert game.state["air_units"][own] == before
    assert ready(game.state, own)


def test_eur23_reading_a_base_in_the_enemys_zoc_only_is_not_displaced(game: Game) -> None:
    """The German infantry moves from 1750 to 1850, next to 1950 (its ZOC covers the base): no
    event, the Soviet units stay at 1950, ready."""
    _set(game, {MOVER: "1750"})
    assert BASE not in enemy_zoc(_fresh(game), game.state, "soviet")
    events = game.apply(move(MOVER, "1850"))
    assert _dist(game, "1850", BASE) == 1
    assert BASE in enemy_zoc(_fresh(game), game.state, "soviet")
    assert [e.type for e in events] == ["unit_moved"]
    for uid in KIEV:
        assert game.state["air_units"][uid]["base"] == BASE and ready(game.state, uid)


def test_eur23_reading_a_unit_of_the_bases_own_side_entering_changes_nothing(game: Game
                                                                             ) -> None:
    """A German division moving into a Luftwaffe base displaces nothing: the Axis air units
    there keep their base and stay ready."""
    axis_bases = {u["base"] for u in game.state["air_units"].values() if u["side"] == "axis"}
    cmd = next(c for c in game.legal("axis", "move") if c.args["to"] in axis_bases)
    to = str(cmd.args["to"])
    there = sorted(uid for uid, u in game.state["air_units"].items() if u["base"] == to)
    assert there
    before = {uid: dict(game.state["air_units"][uid]) for uid in there}
    events = game.apply(cmd)
    assert not _displaced(events)
    assert game.state["units"][str(cmd.args["unit"])]["hex"] == to
    assert {uid: game.state["air_units"][uid] for uid in there} == before


def test_eur23_reading_only_the_units_a_command_wrote_are_looked_at(game: Game) -> None:
    """The rule is cheap: it reads the units the command's folds declare they wrote. A Soviet
    air base with a German unit set down in it (no command moved it) is no base entered by a
    command that moves nobody there; the move that puts it there is."""
    _set(game, {MOVER: BASE})
    st = game.state
    moved_elsewhere = Event("unit_moved", {"unit": "de-ags-inf-4", "from": "x", "path": ["y"],
                                           "mp": 1})
    assert entered(FOLDS, st, [moved_elsewhere]) == []
    assert entered(FOLDS, st, [Event("air_transferred", {"unit": KIEV[0], "from": BASE,
                                                         "to": "2351", "turn": 1})]) == []
    into = Event("unit_moved", {"unit": MOVER, "from": "1849", "path": [BASE], "mp": 1})
    assert entered(FOLDS, st, [into]) == [BASE]


def test_eur23_reading_a_displacement_replays_to_the_same_state() -> None:
    """The event is made again on replay from the command log alone (same hash), and kept by
    the recorded events (the state refolded from them is the same); undo of the move puts the
    air units back. The position is set up in the scenario (a replay starts from it): the
    German division placed next to the base at the start."""
    sc = load_scenario("europa-barbarossa")
    placed = tuple(dataclasses.replace(p, hex="1849") if p.unit.id == MOVER else p
                   for p in sc.placements)
    sc = dataclasses.replace(sc, placements=placed)
    g = Game(sc, 3)
    to_phase(g, "movement", "axis")
    (ev,) = _displaced(g.apply(move(MOVER, BASE)))
    assert [x["to"] for x in ev.data["units"]] == ["2351", "2351"]
    g.apply(Command("end_phase", "axis"))
    again = Game.replay(sc, 3, g.commands, g.events)  # the recorded events must match
    assert again.state_hash() == g.state_hash()
    assert Game.replay(sc, 3, g.commands).state_hash() == g.state_hash()
    assert g.state_at(len(g.commands)) == g.state
    assert {again.state["air_units"][u]["base"] for u in KIEV} == {"2351"}
    g.undo("axis")  # the phase's end
    g.undo("axis")  # the move
    assert {g.state["air_units"][u]["base"] for u in KIEV} == {BASE}
    assert all(ready(g.state, u) for u in KIEV)


def test_eur23_reading_the_event_in_words() -> None:
    assert words({"base": "1042", "side": "axis", "turn": 3, "rules": ["EUR-23"], "units": [
        {"unit": "de-lf2-stg-1", "to": None}]}) == (
        "enemy ground units enter axis's airbase at 1042: de-lf2-stg-1 eliminated (no open "
        "base in reach) (EUR-23 reading)")
