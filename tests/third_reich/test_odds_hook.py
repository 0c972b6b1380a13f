"""TR-32..TR-36: the 3R system's ``odds`` hook (third_reich/combat/odds.py) - Game.odds gives
the exact distribution of the battle an attack order fights, as the server's panel showed it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grognard.core.errors import GrognardError
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.third_reich.combat.battle import attack_battle
from grognard.third_reich.combat.combat import battle_odds

ATTACK = {"hex": "F12", "attackers": ["ge-inf3", "ge-inf4"]}


def _axis_combat() -> Game:
    g = Game.new("tr-1939-support", seed=3)
    g.apply(Command("declare_options", "axis", {"power": "germany", "options": {
        "eastern": "offensive", "western": "attrition"}}))
    while not (g.phase.name == "combat" and g.phase.player == "axis"):
        g.apply(Command("end_phase", g.phase.player, {}))
    return g


def test_tr32_game_odds_is_the_exact_distribution_of_the_battle_ordered() -> None:
    g = _axis_combat()
    cmd = Command("attack", "axis", dict(ATTACK))
    o = g.odds(cmd)
    a, dist = battle_odds(attack_battle(g.context, g.state, cmd), g.context.tables)
    assert (o["column"], o["drm"], o["defense_strength"]) == (a.odds.column, a.drm,
                                                               a.defense.total)
    assert {k: Fraction(v) for k, v in o["probabilities"].items()} == dist
    assert sum(Fraction(v) for v in o["probabilities"].values()) == 1
    assert o["losses_in"] == "units" and o["why"][0].startswith(f"defense {a.defense.total}")


def test_tr32_no_odds_for_an_illegal_attack_or_another_order() -> None:
    g = _axis_combat()
    with pytest.raises(GrognardError):
        g.odds(Command("attack", "axis", {"hex": "F12", "attackers": ["pl-inf1"]}))
    with pytest.raises(GrognardError):
        g.odds(Command("end_phase", "axis", {}))
