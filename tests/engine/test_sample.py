"""Issue 11: random play draws one legal command without listing them all (``Game.sample``):
every draw is one of ``Game.legal``'s commands, and the draws are uniform over them."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from grognard.engine import generic
from grognard.engine.fuzz import choose
from grognard.engine.game import Game
from grognard.engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from engine import generated_scenario  # noqa: E402


def _positions(game: Game, steps: int, seed: int):
    rng = random.Random(seed)
    for _ in range(steps):
        cmd = choose(game, rng)
        if cmd is None:
            return
        game.apply(cmd)
        yield game


@pytest.mark.parametrize("tries", [generic.SAMPLE_TRIES, 0])
def test_generic_move_sample_is_a_legal_move_drawn_uniformly(tries, monkeypatch):
    """The rejection sampler (unit, then a slot) and the exact draw after it (``tries`` = 0)
    give every (unit, hex) pair the same chance: a chi-square statistic over the legal moves
    of one position stays near its degrees of freedom (fixed seeds: deterministic)."""
    monkeypatch.setattr(generic, "SAMPLE_TRIES", tries)
    game = Game(generated_scenario(cols=15, rows=15, units=30), seed=4)
    player = game.active()[0]
    legal = {repr(c) for c in game.legal(player, "move")}
    assert legal
    rng = random.Random(9)
    draws = Counter(repr(game.sample(player, "move", rng)) for _ in range(40 * len(legal)))
    assert set(draws) == legal  # every legal move drawn, nothing else
    expected = 40
    chi2 = sum((draws[c] - expected) ** 2 / expected for c in legal)
    dof = len(legal) - 1
    assert chi2 < dof + 4 * (2 * dof) ** 0.5  # about 4 standard deviations


def test_generic_sample_falls_back_to_one_search_when_destinations_are_few():
    """With almost nothing left to move the rejection rounds miss; the exact draw follows."""
    game = Game(generated_scenario(cols=12, rows=12, units=12), seed=2)
    for g in _positions(game, 60, 3):
        for player in g.active():
            legal = {repr(c) for c in g.legal(player, "move")}
            drawn = g.sample(player, "move", random.Random(1))
            assert (drawn is None) == (not legal)
            if drawn is not None:
                assert repr(drawn) in legal


@pytest.mark.parametrize("name", ["tr-1939-two-fronts", "demo-europa", "eurofront-1941"])
def test_sample_draws_only_enumerated_commands(name):
    """Whatever the kind (proposed candidates filtered by verify, or enumerated), a draw is
    one of the legal commands of that kind, and a kind with legal commands is never missed."""
    game = Game(load_scenario(name), seed=5)
    for g in _positions(game, 40, 6):
        for player in g.active():
            for kind in sorted(g.allowed(player)):
                legal = {repr(c) for c in g.legal(player, kind)}
                drawn = g.sample(player, kind, random.Random(len(g.commands)))
                assert (drawn is None) == (not legal), (name, kind)
                if drawn is not None:
                    assert repr(drawn) in legal, (name, kind)
