"""A PettingZoo AEC environment over a grognard game (the optional ``ai`` dependency group).

Agents are the scenario's sides; the agent to act is the first of ``Game.active()``. Each
observation is ``{"observation": float32 vector, "action_mask": int8 vector}`` built by
:class:`~grognard.ai.encoding.Encoding` from the agent's own view; actions index the fixed
action space (see :mod:`grognard.ai.encoding`). Rewards come at the end: +1 to the winning
side, -1 to the others (0 to all for a draw or no winner). The episode is truncated after
``max_commands`` commands, or terminated when the rules say the game is over or nobody has a
legal action.

Example::

    from grognard.ai import pettingzoo_env
    env = pettingzoo_env("demo-europa")
    env.reset(seed=3)
    for agent in env.agent_iter(max_iter=200):
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else \\
            env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from grognard.ai.encoding import Encoding
from grognard.engine.game import Game
from grognard.engine.scenario import Scenario, load_scenario


class GrognardAEC(AECEnv):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {"name": "grognard_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, scenario: str | Scenario, max_commands: int = 2000,
                 readings: dict[str, Any] | None = None, render_mode: str | None = None
                 ) -> None:
        super().__init__()
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        self.max_commands = max_commands
        self.readings = readings
        self.render_mode = render_mode
        self.possible_agents = list(self.scenario.sides)
        self.game = Game(self.scenario, self.scenario.seed, readings=readings)
        self.encoding = Encoding.of(self.game)
        size = self.encoding.obs_size
        self._obs_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, 1e6, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoding.n_actions,), np.int8)})
            for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(self.encoding.n_actions)
                            for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self._act_spaces[agent]

    # --- the game -> arrays -------------------------------------------------------------
    def _slots(self, agent: str) -> dict[int, Any]:
        if agent not in self._slot_cache:
            acting = agent == self.agent_selection and not self._done()
            self._slot_cache[agent] = self.encoding.slots(self.game, agent) if acting else {}
        return self._slot_cache[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        slots = self._slots(agent)
        g = self.game
        obs = self.encoding.observe(g.view(agent), agent, int(g.state["phase"]), g.turn,
                                    agent in g.active(), len(slots))
        return {"observation": obs, "action_mask": self.encoding.mask(slots)}

    def _done(self) -> bool:
        return self.game.over or len(self.game.commands) >= self.max_commands

    def _select(self) -> None:
        active = [a for a in self.game.active() if a in self.agents]
        self.agent_selection = active[0] if active else self.agents[0]
        self._slot_cache: dict[str, dict[int, Any]] = {}

    # --- AEC API ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game = Game(self.scenario, self.scenario.seed if seed is None else seed,
                         readings=self.readings)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()
        self._check_end()

    def _check_end(self) -> None:
        g = self.game
        stuck = not g.over and not self._slots(self.agent_selection)
        if g.over or stuck:
            winner = (g.result or {}).get("winner")
            for a in self.agents:
                self.terminations[a] = True
                if winner is not None:
                    self.rewards[a] = 1.0 if a == winner else -1.0
                self.infos[a] = {"result": dict(g.result) if g.result else None,
                                 "stuck": stuck}
        elif len(g.commands) >= self.max_commands:
            for a in self.agents:
                self.truncations[a] = True

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        slots = self._slots(agent)
        if action is None or int(action) not in slots:
            raise ValueError(f"action {action!r} is not legal for {agent} now (mask it)")
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self.game.apply(slots[int(action)])
        self._select()
        self._check_end()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        s = self.game.status()
        return f"turn {s['turn']} {s['phase']['name']} ({s['phase']['player']}): " \
               f"{'; '.join(s['prompts'].values())}"

    def close(self) -> None:
        pass


def pettingzoo_env(scenario: str | Scenario, **kw: Any) -> GrognardAEC:
    """The AEC environment of ``scenario`` (see :class:`GrognardAEC`)."""
    return GrognardAEC(scenario, **kw)
