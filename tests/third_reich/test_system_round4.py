"""third_reich system, round 4 commands in any order (scenario ``tr-1939-invasion``): illegal
orders change nothing; same seed and orders, same hash; save -> load -> replay, same hash."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grognard.engine import Command, Game
from grognard.engine.save import dumps, loads
from grognard.engine.testing import apply_or_unchanged, assert_replays
from grognard.third_reich.play.testing import play_order

GROUP = {"hex": "G4", "zone": "north_sea", "fleets": ["ge-fleet2"],
         "cargo": {"ge-fleet2": ["ge-inf5"]}}
ORDERS = [
    lambda p: Command("end_phase", p),
    lambda p: Command("declare_options", p, {"options": {"eastern": "offensive",
                                                         "western": "offensive"}}),
    lambda p: Command("invade", p, {"beach": "F4", "groups": [GROUP],
                                    "interceptors": {"G4": ["uk-fleet1"]},
                                    "air_interceptors": {"G4": ["fr-air1"]}}),
    lambda p: Command("invade", p, {"beach": "F3", "groups": [{**GROUP, "hex": "G3"}]}),
    lambda p: Command("counter_air", p, {"air": ["ge-air2"], "target": "C11"}),
    lambda p: Command("counter_air", p, {"air": ["ge-air3"], "target": "C2"}),
    lambda p: Command("naval_transport", p, {"fleets": ["ge-fleet2"], "units": ["ge-inf5"],
                                             "to": "F5", "air_interceptors": ["fr-air1"]}),
    lambda p: Command("sr", p, {"unit": "ge-inf5", "to": "F5", "kind": "sea",
                                "escorts": {"north_sea": ["ge-fleet2"]}}),
    lambda p: Command("sr", p, {"unit": "ge-fleet2", "to": "F5", "kind": "fleet"}),
    lambda p: Command("sr", p, {"unit": "ge-para1", "to": "E7", "kind": "air_landing"}),
    lambda p: Command("attack", p, {"hex": "F3", "attackers": ["ge-inf5"],
                                    "air": ["ge-air2"]}),
    lambda p: Command("attrition", p, {"front": "western"}),
    lambda p: Command("withdraw", p, {"cut_off": {"fr-inf3": "C3"}}),
]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.lists(st.integers(0, 80), max_size=40))
def test_round4_commands_reproducible_and_replay(seed, choices):
    games = [Game.new("tr-1939-invasion", seed) for _ in range(2)]
    for g in games:
        for c in choices:
            cmd = ORDERS[c % len(ORDERS)](g.phase.player)
            apply_or_unchanged(g, cmd)
    a, b = games
    assert a.state_hash() == b.state_hash()
    assert_replays(a)


def test_round4_scripted_orders_all_apply_and_replay():
    g = Game.new("tr-1939-invasion", 3)
    g.apply(Command("declare_options", "axis", {"options": {"eastern": "offensive",
                                                            "western": "offensive"}}))
    while g.phase.name != "movement":
        g.apply(Command("end_phase", "axis"))
    kinds = [e.type for e in play_order(g, ORDERS[2]("axis"))]
    g.apply(Command("end_phase", "axis"))
    assert g.phase.name == "air_missions"
    kinds += [e.type for e in g.apply(ORDERS[4]("axis"))]
    while g.phase.name != "strategic_deployment":
        g.apply(Command("end_phase", "axis"))
    kinds += [e.type for e in g.apply(ORDERS[9]("axis"))]
    assert kinds == ["invaded", "counter_air_flown", "sr_made"]
    again = loads(dumps(g))
    assert again.state_hash() == g.state_hash()
