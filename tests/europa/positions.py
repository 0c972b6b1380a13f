"""Positions the Europa tests start from: a game brought to a player's phase."""

from __future__ import annotations

from grognard.engine.commands import Command
from grognard.engine.game import Game


def to_phase(g: Game, name: str, player: str) -> None:
    """End phases (answering owed decisions with their first legal choice) until ``player``'s
    ``name`` phase opens with nothing owed."""
    for _ in range(200):
        if g.phase.name == name and g.phase.player == player and not g.decisions():
            return
        p = g.active()[0]
        g.apply((g.legal(p) if g.decisions() else g.legal(p, "end_phase"))[0])
    raise AssertionError(f"no {player} {name} phase")


def demo_attack() -> tuple[Game, Command]:
    """demo-europa (seed 2) with two German units moved next to the Soviet stack in 0704 and
    the movement phase ended: the game, and their attack on it."""
    g = Game.new("demo-europa", seed=2)
    for c in (Command("move", "axis", {"unit": "de-7pz", "path": ["0504", "0604"]}),
              Command("move", "axis", {"unit": "de-20mot", "path": ["0505", "0604"]}),
              Command("end_phase", "axis")):
        g.apply(c)
    return g, Command("attack", "axis", {"attackers": ["de-7pz", "de-20mot"],
                                         "defender_hex": "0704"})
