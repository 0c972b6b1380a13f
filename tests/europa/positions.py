"""Positions the Europa tests start from: a game brought to a player's phase."""

from __future__ import annotations

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
