"""EUR-11/EUR-12: a loss requirement beyond everything the losing side can credit is met by
eliminating every unit of the side (issue 24: the Riga dead end of europa-barbarossa, seed 3,
heuristic bots, Sep I 1941)."""

from __future__ import annotations

import gzip
import json
from fractions import Fraction
from pathlib import Path

import pytest

from grognard.bots.play import play_game
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.europa.combat.attack import Side, attack_from_json
from grognard.europa.combat.losses import allocate_losses, loss_basis

DATA = Path(__file__).parent / "data" / "barbarossa_seed3_riga.json.gz"


def _cadre_in_major_city() -> object:
    return attack_from_json({
        "attackers": [{"id": "a", "attack": 20, "defense": 20, "type": "infantry"}],
        "defenders": [{"id": "c", "attack": 4, "defense": 5, "type": "infantry",
                       "division": True, "cadre": True}],
        "terrain": "woods", "major_city": True})


def test_eur11_eur12_a_d2_beyond_the_stack_is_met_by_eliminating_it():
    """A cadre (defense 5) in a major city: loss basis 5 x 2 = 10, D2 = 2L = 10; eliminating
    the cadre credits only its 5. Eliminating every unit fulfils the requirement."""
    attack = _cadre_in_major_city()
    assert loss_basis(attack, Side.DEFENDER) == 10
    a = allocate_losses(attack, Side.DEFENDER, Fraction(10), ["c"])
    assert a.credited == 5 and a.excess == 0 and a.units_after == ()
    assert a.replacements.to_json() == allocate_losses(
        attack, Side.DEFENDER, Fraction(5), ["c"]).replacements.to_json()
    with pytest.raises(IllegalOrder):  # no allocation at all is still refused
        allocate_losses(attack, Side.DEFENDER, Fraction(10), [])


def test_eur12_a_short_allocation_that_leaves_units_is_still_refused():
    attack = attack_from_json({
        "attackers": [{"id": "a", "attack": 20, "defense": 20, "type": "infantry"}],
        "defenders": [{"id": "c", "attack": 4, "defense": 5, "type": "infantry"},
                      {"id": "d", "attack": 4, "defense": 5, "type": "infantry"}],
        "terrain": "clear", "major_city": True})
    with pytest.raises(IllegalOrder) as e:
        allocate_losses(attack, Side.DEFENDER, Fraction(10), ["c"])
    assert e.value.rule == "EUR-12"
    assert allocate_losses(attack, Side.DEFENDER, Fraction(10), ["c", "d"]).excess == 0


def test_eur12_riga_seed3_heuristic_game_plays_past_sep_i_1941():
    """The recorded heuristic-bot game of europa-barbarossa, seed 3, up to the Axis attack on
    Riga (1618) in Sep I 1941 (a D2 against a Soviet cadre in the major city): the Soviet
    allocation is now legal (here the only one, so the engine makes it) and play goes on."""
    commands = json.loads(gzip.decompress(DATA.read_bytes()))
    g = Game.new("europa-barbarossa", 3)
    for raw in commands[:-1]:
        g.apply(Command.from_json(raw))
    assert g.status()["date"] == "Sep I 1941"
    last = Command.from_json(commands[-1])
    assert last.kind == "attack" and last.args["defender_hex"] == "1618"
    events = g.apply(last)
    assert events[0].type == "combat_resolved" and events[0].data["result"] == "D2"
    forced = [e for e in events if e.type == "losses_allocated"]
    assert forced and forced[0].data["decided_by"] == "engine"
    assert forced[0].data["eliminated"] == ["su-nwf-rifle-7"]
    # the recorded commands predate the EUR-22 reinforcements (they place none): the bots
    # first place every arrival delayed so far (about 60), then play on
    rec = play_game(g, dict.fromkeys(g.scenario.sides, "heuristic"), seed=3,
                    max_commands=len(g.commands) + 400)
    assert rec.end != "stuck" and g.turn > 6, (rec.end, g.status()["date"])
