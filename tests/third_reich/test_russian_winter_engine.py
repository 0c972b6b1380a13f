"""TR-33 / TR-84 in engine battles (issue 12: the Russian winter was never applied in play).

"In the first winter turn after Germany and the USSR are at war, non-Finnish Axis units inside
the USSR, the Baltic States or eastern Poland get no defense adds." The engine dates the war from
the ``declare_war`` that started it (``state["wars"]`` entries carry their turn) and applies
:func:`grognard.third_reich.combat.hex_defense.russian_winter_applies` to the attacked hex.
"""

from __future__ import annotations

import copy

from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.third_reich.combat.battle import attack_battle_of
from grognard.third_reich.combat.hex_defense import hex_defense
from grognard.third_reich.russian_winter import russian_winter_in, ussr_war_turn

FALL_1940, WINTER_1940, WINTER_1941 = 6, 7, 11


def _game() -> Game:
    """tr-1939-support in Fall 1940 with C8 (a German armor 4 stands there) named eastern
    Poland; Germany declares war on the USSR."""
    sc = load_scenario("tr-1939-support")
    text = sc.text.replace("[calendar]\nturn = 1", f"[calendar]\nturn = {FALL_1940}") + \
        '\n[third_reich.areas]\neastern_poland = ["C8"]\n'
    g = Game(parse_scenario(text, "tr-winter.toml"), 2)
    g.apply(Command("declare_war", "axis", {"power": "germany", "majors": ["ussr"]}))
    return g


def _at(g: Game, turn: int) -> dict:
    s = copy.deepcopy(g.state)
    s["turn"] = turn
    return s


def test_tr84_war_declarations_carry_their_turn():
    g = _game()
    assert g.state["wars"] == [{"power": "germany", "target": "ussr", "turn": FALL_1940}]
    assert ussr_war_turn(g.state) == FALL_1940


def test_tr84_russian_winter_strips_the_add_in_the_first_winter_only_inside_the_area():
    g = _game()
    ctx = g.context
    assert not russian_winter_in(ctx, g.state, "C8")  # Fall: no winter yet
    winter = _at(g, WINTER_1940)
    assert russian_winter_in(ctx, winter, "C8")
    assert not russian_winter_in(ctx, winter, "D8")  # Germany: not the Russian winter's area
    assert not russian_winter_in(ctx, _at(g, WINTER_1941), "C8")  # only the first winter
    hit = attack_battle_of(ctx, winter, "allies", "C8", ["pl-inf1"])
    assert hit.russian_winter
    normal = attack_battle_of(ctx, winter, "allies", "D8", ["pl-inf1"])
    assert not normal.russian_winter
    # the German armor 4 in C8 defends at printed strength (no snow add); the same unit outside
    # the area gets the normal winter add
    d_hit = hex_defense(hit.defenders, hit.weather, hit.fortified, hit.russian_winter)
    d_normal = hex_defense(normal.defenders, normal.weather, normal.fortified,
                           normal.russian_winter)
    assert d_hit.russian_winter and d_hit.add == 0
    assert d_normal.add > 0 and d_hit.total < d_normal.total


def test_tr84_no_russian_winter_without_a_war_declared_in_the_game():
    sc = load_scenario("tr-1939-support")
    text = sc.text.replace("[calendar]\nturn = 1", f"[calendar]\nturn = {WINTER_1940}") + \
        '\n[third_reich.areas]\neastern_poland = ["C8"]\n'
    g = Game(parse_scenario(text, "tr-winter.toml"), 2)
    assert ussr_war_turn(g.state) is None
    assert not russian_winter_in(g.context, g.state, "C8")
