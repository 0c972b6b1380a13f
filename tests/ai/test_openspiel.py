"""The OpenSpiel Python game (issue 15): OpenSpiel's random simulation test."""

from __future__ import annotations

import pyspiel
import pytest

from grognard.ai import openspiel_game


@pytest.mark.parametrize("scenario", ["tr-1939-two-fronts", "demo-europa"])
def test_openspiel_random_sim_test(scenario):
    game = openspiel_game(scenario, max_commands=40, seeds=4)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_chance_node_draws_the_seed_and_views_hide_secrets():
    game = openspiel_game("tr-1939-two-fronts", max_commands=20, seeds=3)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 3] * 3)
    state.apply_action(2)
    assert state.live.seed == 2 and state.current_player() == 0
    info = state.information_state_string(0)
    assert '"viewer":"axis"' in info
    assert state.information_state_string(1) != info
    clone = state.clone()
    a = state.legal_actions()[0]
    clone.apply_action(a)
    assert len(state.live.commands) == 0 and len(clone.live.commands) == 1
