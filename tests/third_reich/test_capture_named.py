"""TR-77 (and TR-12 for the USSR) in play: a move that takes an enemy major's city says so in
its ``unit_moved`` event (``captures``: the city, the power, its value and the BRPs lost), and
the occupying fold applies exactly that loss: the power's BRPs after the move are the
record's ``brp_after``. Checked over a random game of ``tr-1939-two-fronts``, where the Allies
take Berlin."""

from __future__ import annotations

from fractions import Fraction

from grognard.engine import Game
from grognard.engine.fuzz import play
from grognard.engine.scenario import load_scenario
from grognard.third_reich.board import economy_of


def test_tr77_a_move_into_an_enemy_city_names_the_loss_the_fold_applies():
    sc = load_scenario("tr-1939-two-fronts")
    played = play(sc, 102, 0, 400).game  # (seed 101's game changed with issue 23's war
    # state and takes no city in 400 commands)
    replay = Game(sc, played.seed)
    seen = 0
    for cmd, events in zip(played.commands, played.events, strict=True):
        before = Fraction(0)
        caps = [c for e in events if e.type == "unit_moved" for c in e.data.get("captures", [])]
        for c in caps:
            before = economy_of(replay.state).brp(c["power"]) if c["rule"] == "TR-77" else before
        replay.apply(cmd)
        for c in caps:
            seen += 1
            assert c["city"] in replay.state["city_hexes"][events[0].data["path"][-1]]
            if c["rule"] == "TR-77":
                assert "TR-77" in events[0].data["rules"]
                assert economy_of(replay.state).brp(c["power"]) == Fraction(str(c["brp_after"]))
                assert before - Fraction(str(c["brp_after"])) == c["loss"] <= c["value"]
    assert seen >= 1
