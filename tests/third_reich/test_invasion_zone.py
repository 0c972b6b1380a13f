"""TR-61 (with TR-56's sea zones): an invasion sails "within the same zone", and the offshore
hex's zone is the map's - a fact the referee supplies, never the invader's choice. Kiel is a
port of two zones (the North Sea and the Baltic); the sea hex next to Oslo (D30) is in the
North Sea on grognard's map, so a group there sails in the North Sea whatever it names.

The position is a seeded planner game with the Weseruebung stage (Spring 1940: two German
fleets and two units from Kiel land on Oslo from D30)."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.third_reich.air_naval.sea_zones import offshore_zone

OFFSHORE = "D30"


@pytest.fixture(scope="module")
def landing() -> tuple[list[Command], Command]:
    """The commands before the Weseruebung landing, and that landing's order."""
    from grognard.bots.play import play_game

    g = Game.new("tr-1939-campaign", seed=1)
    play_game(g, {"axis": "planner@weseruebung=1940", "allies": "planner"}, seed=1,
              max_turns=3)
    cmds = list(g.commands)
    k = next(i for i, c in enumerate(cmds) if c.kind == "invade")
    return cmds[:k], cmds[k]


def _before(landing: tuple[list[Command], Command]) -> tuple[Game, Command]:
    game = Game.new("tr-1939-campaign", seed=1)
    for c in landing[0]:
        game.apply(c)
    return game, landing[1]


def _with_zone(cmd: Command, zone: str | None) -> Command:
    groups = [dict(g) for g in cmd.args["groups"]]
    for g in groups:
        g.pop("zone", None)
        if zone is not None:
            g["zone"] = zone
    return Command(cmd.kind, cmd.player, {**cmd.args, "groups": groups})


def test_tr56_the_map_puts_each_sea_hex_in_one_zone() -> None:
    g = Game.new("tr-1939-campaign", seed=0)
    assert offshore_zone(g.context, OFFSHORE) == "north_sea"
    assert offshore_zone(g.context, "M10") == "atlantic"  # the seed's Atlantic transition hex
    assert offshore_zone(g.context, "I30") is None  # Kiel: a land hex


def test_tr61_a_kiel_group_off_oslo_sails_in_the_maps_zone_unnamed(landing) -> None:
    game, cmd = _before(landing)
    game.apply(_with_zone(cmd, None))
    # the Royal Navy's answer (TR-56: only North Sea ports may intercept at D30): none sails
    answer = Command("intercept", "allies", {"interceptors": {}})
    invaded = [e.data for e in game.apply(answer) if e.type == "invaded"]
    assert invaded and invaded[0]["groups"][0]["zone"] == "north_sea"


def test_tr61_the_invader_cannot_choose_another_zone_for_the_offshore_hex(landing) -> None:
    """Before, a group from Kiel named its zone: naming the Baltic put the landing beyond
    the Royal Navy's interception (only North Sea ports may intercept there, TR-56)."""
    game, cmd = _before(landing)
    digest = game.state_hash()
    with pytest.raises(IllegalOrder, match=r"TR-61.*D30 is in the north_sea zone, not baltic"):
        game.apply(_with_zone(cmd, "baltic"))
    assert game.state_hash() == digest  # refused: nothing changed
    game.apply(_with_zone(cmd, "north_sea"))  # naming the map's own zone is accepted
