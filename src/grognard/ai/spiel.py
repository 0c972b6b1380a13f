"""An OpenSpiel Python game over a grognard scenario (the optional ``ai`` dependency group).

``python_grognard`` takes the parameters ``scenario`` (a shipped name), ``max_commands`` and
``seeds``. The first node is a chance node over ``seeds`` equally likely game seeds (sampled
chance: every die of the game then comes from that seed's streams, as in a real game); then the
players (the scenario's sides, in order) act one at a time, the first of ``Game.active()``.
Actions use the fixed index of :mod:`grognard.ai.encoding`. Observations and information
states come from ``Game.view(player)`` only: the observation tensor is the encoding's vector,
the observation string the view's canonical JSON, and the information state string adds the
player's own commands so far (perfect recall of what it did). Returns: +1 to the winning side,
-1 to the others, 0 to all without a winner (a draw, a stuck game, or the command limit).

Example::

    import pyspiel
    from grognard.ai import openspiel_game
    game = openspiel_game("demo-europa", max_commands=200)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from grognard.ai.encoding import Encoding
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.engine.scenario import Scenario, load_scenario
from grognard.engine.state import copy_state

SHORT_NAME = "python_grognard"
DEFAULTS: dict[str, Any] = {"scenario": "demo-europa", "max_commands": 500, "seeds": 8}


def _game_type() -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="grognard wargame scenario",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=8,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULTS))


class _Held:
    """The live Game inside a state; copied by snapshot (state JSON, dice, log), not deepcopy."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._slots: dict[str, dict[int, Command]] = {}

    def slots(self, encoding: Encoding, side: str) -> dict[int, Command]:
        """The side's action slots in this position (cached until the next command)."""
        if side not in self._slots:
            self._slots[side] = encoding.slots(self.game, side)
        return self._slots[side]

    def apply(self, cmd: Command) -> None:
        self.game.apply(cmd)
        self._slots.clear()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        g = self.game
        return _Held(Game.restore(g.scenario, g.seed, g.commands, g.events, g.steps,
                                  copy_state(g.state), g.dice.snapshot_json(),
                                  tables=g.context.tables, readings=g.readings))


class Spec:
    """What every state of one game shares (never copied with a state)."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.scenario: Scenario = load_scenario(str(params["scenario"]))
        self.max_commands = int(params["max_commands"])
        self.seeds = int(params["seeds"])
        probe = Game(self.scenario, self.scenario.seed)
        self.encoding = Encoding.of(probe)
        self.tables = probe.context.tables
        self.sides = list(self.scenario.sides)

    def __deepcopy__(self, memo: dict[int, Any]) -> Spec:
        return self


class GrognardGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULTS, **(params or {})}
        self.spec = Spec(p)
        sp = self.spec
        info = pyspiel.GameInfo(
            num_distinct_actions=sp.encoding.n_actions,
            max_chance_outcomes=sp.seeds,
            num_players=len(sp.sides),
            min_utility=-1.0, max_utility=1.0, utility_sum=None,
            max_game_length=sp.max_commands + 1)
        super().__init__(_game_type(), info, p)

    def new_initial_state(self) -> GrognardState:
        return GrognardState(self, self.spec)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self.spec, recall)


class GrognardState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: GrognardGame, spec: Spec) -> None:
        super().__init__(game)
        self._g = spec
        self._held: _Held | None = None

    @property
    def live(self) -> Game:
        assert self._held is not None
        return self._held.game

    def _slots(self) -> dict[int, Command]:
        player = self.current_player()
        assert self._held is not None
        return self._held.slots(self._g.encoding, self._g.sides[player])

    def current_player(self) -> int:
        if self._held is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self._g.sides.index(self.live.active()[0])

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._slots())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, 1.0 / self._g.seeds) for i in range(self._g.seeds)]

    def _apply_action(self, action: int) -> None:
        if self._held is None:
            self._held = _Held(Game(self._g.scenario, int(action), tables=self._g.tables))
            return
        assert self._held is not None
        self._held.apply(self._slots()[int(action)])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        assert self._held is not None
        cmd = self._held.slots(self._g.encoding, self._g.sides[player]).get(int(action))
        return f"slot {action}" if cmd is None else json.dumps(cmd.to_json(), sort_keys=True)

    def is_terminal(self) -> bool:
        if self._held is None:
            return False
        g = self.live
        if g.over or len(g.commands) >= self._g.max_commands or not g.active():
            return True
        return not self._held.slots(self._g.encoding, g.active()[0])

    def returns(self) -> list[float]:
        if self._held is None or not self.is_terminal():
            return [0.0] * len(self._g.sides)
        winner = (self.live.result or {}).get("winner")
        if winner is None:
            return [0.0] * len(self._g.sides)
        return [1.0 if s == winner else -1.0 for s in self._g.sides]

    def __str__(self) -> str:
        if self._held is None:
            return "seed not drawn"
        g = self.live
        return f"{g.scenario.id} seed {g.seed} turn {g.turn} {g.phase.name} " \
               f"{len(g.commands)} commands {g.state_hash()[:12]}"


class Observer:
    """The PyObserver of a side: the encoding's vector and the view's JSON."""

    def __init__(self, game: Spec, perfect_recall: bool) -> None:
        self.game = game
        self.recall = perfect_recall
        self.tensor = np.zeros(game.encoding.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: GrognardState, player: int) -> None:
        self.tensor.fill(0)
        if state._held is None:
            return
        g = state.live
        side = self.game.sides[player]
        n = len(state._held.slots(self.game.encoding, side)) if side in g.active()[:1] else 0
        self.tensor[:] = self.game.encoding.observe(g.view(side), side, int(g.state["phase"]),
                                                    g.turn, side in g.active(), n)

    def string_from(self, state: GrognardState, player: int) -> str:
        side = self.game.sides[player]
        if state._held is None:
            return f"{side}: before the seed"
        g = state.live
        text = json.dumps(g.view(side), sort_keys=True, separators=(",", ":"))
        if self.recall:
            mine = [c.to_json() for c in g.commands if c.player == side]
            text += "|" + json.dumps(mine, sort_keys=True, separators=(",", ":"))
        return text


pyspiel.register_game(_game_type(), GrognardGame)


def load_game(scenario: str = "demo-europa", **params: Any) -> Any:
    """``pyspiel.load_game("python_grognard", {...})`` for ``scenario``."""
    return pyspiel.load_game(SHORT_NAME, {**DEFAULTS, **params, "scenario": scenario})
