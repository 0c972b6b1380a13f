"""third_reich system: any order sequence is reproducible, replays and reloads to one hash."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grognard.engine import Command, Game
from grognard.engine.testing import apply_or_unchanged, assert_replays

ORDERS = [
    lambda p: Command("end_phase", p),
    lambda p: Command("declare_options", p, {"options": {"eastern": "offensive",
                                                         "western": "attrition"}}),
    lambda p: Command("declare_options", p, {"options": {"western": "pass"}}),
    lambda p: Command("attack", p, {"hex": "C9", "attackers": ["ge-arm1", "ge-arm2"]}),
    lambda p: Command("attack", p, {"hex": "F12", "attackers": ["ge-inf3"]}),
    lambda p: Command("attrition", p, {"front": "western"}),
    lambda p: Command("take_hexes", p, {"hexes": ["D4"]}),
    lambda p: Command("withdraw", p, {}),
    lambda p: Command("supply_check", p, {}),
    lambda p: Command("build", p, {"infantry_factors": 4}),
    lambda p: Command("declare_war", p, {"minors": ["denmark"]}),
    lambda p: Command("move", p, {"unit": "ge-inf2", "path": ["B6"]}),
]


def drive(game: Game, choices: list[int]) -> None:
    for c in choices:
        apply_or_unchanged(game, ORDERS[c % len(ORDERS)](game.phase.player))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.lists(st.integers(0, 60), max_size=30))
def test_same_seed_same_orders_same_hash_and_replay(seed, choices):
    a, b = Game.new("tr-1939-two-fronts", seed), Game.new("tr-1939-two-fronts", seed)
    drive(a, choices)
    drive(b, choices)
    assert a.state_hash() == b.state_hash()
    assert_replays(a)


SUPPORT_ORDERS = [
    lambda p: Command("end_phase", p),
    lambda p: Command("declare_options", p, {"options": {"eastern": "offensive",
                                                         "western": "attrition"}}),
    lambda p: Command("move", p, {"unit": "ge-inf2", "path": ["B6", "B7"]}),
    lambda p: Command("air_stage", p, {"unit": "ge-air2", "to": "E7"}),
    lambda p: Command("airdrop", p, {"unit": "ge-para1", "to": "C9", "escorts": ["ge-air2"],
                                     "interceptors": ["pl-air1"]}),
    lambda p: Command("attack", p, {"hex": "F12", "attackers": ["ge-inf3", "ge-inf4"],
                                    "air": ["ge-air1"], "fleet": "ge-fleet1",
                                    "defensive_air": ["pl-air1"]}),
    lambda p: Command("attack", p, {"hex": "C9", "attackers": ["ge-para1", "ge-arm1"]}),
    lambda p: Command("attrition", p, {"front": "western"}),
    lambda p: Command("save_attrition_losses", p, {"saves": {"fr-arm1": "fr-rep1"}}),
    lambda p: Command("save_attrition_losses", p, {"saves": {"ge-inf1": "ge-rep1"}}),
    lambda p: Command("sr", p, {"unit": "ge-rep1", "to": "C7"}),
    lambda p: Command("murmansk_ship", p, {"sender": "uk"}),
    lambda p: Command("murmansk_commit", p, {"subs": 4, "air": 1}),
    lambda p: Command("murmansk_escort", p, {"naval": 9, "asw": 1}),
    lambda p: Command("naval_transport", p, {"fleets": ["ge-fleet2"], "units": ["ge-inf5"],
                                             "to": "F5", "interceptors": ["uk-fleet1"]}),
    lambda p: Command("withdraw", p, {}),
]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.lists(st.integers(0, 80), max_size=40))
def test_round3_commands_reproducible_and_replay(seed, choices):
    """Every new command in random order: illegal ones change nothing; same seed and orders,
    same hash; save -> load -> replay gives the same hash."""
    games = [Game.new("tr-1939-support", seed) for _ in range(2)]
    for g in games:
        for c in choices:
            cmd = SUPPORT_ORDERS[c % len(SUPPORT_ORDERS)](g.phase.player)
            apply_or_unchanged(g, cmd)
    a, b = games
    assert a.state_hash() == b.state_hash()
    assert_replays(a)
