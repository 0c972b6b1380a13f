"""The PettingZoo AEC environment (issue 15): PettingZoo's own api_test and seed_test."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from grognard.ai import pettingzoo_env
from grognard.ai.encoding import BLOCK, Encoding
from grognard.bots import legal_actions
from grognard.engine.game import Game


@pytest.mark.parametrize("scenario", ["tr-1939-two-fronts", "demo-europa"])
def test_pettingzoo_api_test(scenario):
    api_test(pettingzoo_env(scenario, max_commands=120), num_cycles=60)


def test_pettingzoo_seed_test():
    seed_test(lambda: pettingzoo_env("tr-1939-two-fronts", max_commands=120), num_cycles=40)


def test_action_mask_is_the_legal_actions_and_steps_apply_them():
    env = pettingzoo_env("tr-1939-two-fronts", max_commands=50)
    env.reset(seed=4)
    agent = env.agent_selection
    obs, *_ = env.last()
    g = Game.new("tr-1939-two-fronts", seed=4)
    legal = legal_actions(g, agent)
    assert int(obs["action_mask"].sum()) == len(legal)
    enc = Encoding.of(g)
    slots = enc.slots(g, agent)
    assert sorted(c.kind for c in slots.values()) == sorted(c.kind for c in legal)
    action = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(action)
    g.apply(slots[action])
    assert env.game.state_hash() == g.state_hash()
    assert enc.kinds[action // BLOCK] == slots[action].kind


def test_observation_comes_from_the_view():
    env = pettingzoo_env("tr-1939-two-fronts", max_commands=50)
    env.reset(seed=1)
    obs = env.observe("axis")["observation"]
    n = len(env.encoding.hexes)
    own = obs[:n].sum()
    units = env.game.view("axis")["units"].values()
    assert own == sum(1 for u in units if u["side"] == "axis" and u.get("hex") in
                      env.encoding.hexes)
    with pytest.raises(ValueError, match="not legal"):
        env.step(env.encoding.n_actions - 1)
