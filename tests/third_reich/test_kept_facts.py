"""TR-27/TR-28 (issue 22): facts of the 3R move check kept across commands or counted on
demand equal the same facts made again from every unit, after every command of the recorded
heuristic game and of random games: the enemy units whose ZOC a mover meets (kept while the
units log names no enemy unit), the mover's own hexes in the move ZOC field, and the stack
counts of the move's end hex."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

from grognard.engine.commands import Command
from grognard.engine.fuzz import choose
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario
from grognard.third_reich.board import axis_side_of, on_map_ground, placement_key
from grognard.third_reich.movement.moves import _enemy_entries, move_zoc
from grognard.third_reich.movement.orders.move import _side_stack
from grognard.third_reich.turn.forces import Side
from grognard.third_reich.war import at_war_with_any

BENCH = Path(__file__).resolve().parents[2] / "bench" / "data"


def _expected_enemies(g: Game, side: Side, power: str) -> tuple[tuple[Any, ...], ...]:
    """The enemy entries by their definition: the other sides' ground units on the map (of
    powers at war with ``power``), in the placement's order."""
    axis = axis_side_of(g.context)
    out = [e for e in placement_key(g.context, g.state)
           if (e[2] == axis) is not (side is Side.AXIS)]
    if power and g.state.get("diplomacy") is not None:
        out = [e for e in out if at_war_with_any(g.state, str(e[7] or ""), [power])]
    return tuple(out)


def _check(g: Game, asked: dict[str, int]) -> None:
    for side, power in ((Side.AXIS, "germany"), (Side.AXIS, "italy"), (Side.ALLIES, "britain"),
                        (Side.ALLIES, "ussr"), (Side.ALLIES, "")):
        got = _enemy_entries(g.context, g.state, side, power)
        assert got == _expected_enemies(g, side, power), (len(g.commands), side, power)
        asked["enemies"] += 1
    m = g.context.scenario.map
    axis = axis_side_of(g.context)
    for side, power in ((Side.AXIS, "germany"), (Side.ALLIES, "britain")):
        zoc = move_zoc(g.context, g.state, side, power)
        mine = {m.index_of_label(u["hex"]) for u in g.state["units"].values()
                if on_map_ground(u) and (u["side"] == axis) is (side is Side.AXIS)}
        assert set(zoc.friendly.nonzero()[0].tolist()) == mine, (len(g.commands), side)
    counts: dict[tuple[str, str], int] = {}
    for u in g.state["units"].values():
        if on_map_ground(u):
            counts[u["hex"], u["side"]] = counts.get((u["hex"], u["side"]), 0) + 1
    probes = [*sorted(counts)[:3], ("no-such-hex", axis)]
    for _ in range(2):  # the first ask counts, the second reads the table
        for (label, side_name) in probes:
            assert _side_stack(g.context, g.state, label, side_name) == \
                counts.get((label, side_name), 0)
            asked["stacks"] += 1


def test_tr27_kept_enemies_recorded_game() -> None:
    """The recorded game's first 900 commands (moves, combat, SR, builds, war entries)."""
    rec = json.loads(gzip.decompress((BENCH / "tr-1939-campaign-heuristic-1.json.gz")
                                     .read_bytes()))
    g = Game(load_scenario("tr-1939-campaign"), rec["seed"])
    asked = {"enemies": 0, "stacks": 0}
    for raw in rec["commands"][:900]:
        g.apply(Command.from_json(raw))
        _check(g, asked)
    assert asked["enemies"] == 5 * 900


def test_tr27_kept_enemies_random_game_with_undo() -> None:
    """Random play with an undo now and then: the kept entries follow."""
    g = Game(load_scenario("tr-1939-campaign"), 7)
    rng = random.Random(7)
    asked = {"enemies": 0, "stacks": 0}
    for i in range(300):
        cmd = None if g.over else choose(g, rng)
        if cmd is None:
            break
        g.apply(cmd)
        if i % 25 == 24 and g.can_undo(cmd.player):
            g.undo(cmd.player)
        _check(g, asked)
    assert asked["enemies"] > 500
