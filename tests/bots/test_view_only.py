"""Issue 25: every bot sees only its seat's view. Changing what the opponent hides (EuroFront
blocks' steps and firepower, the Allies' Murmansk commitment, a secret chit) never changes a
bot's choice: the same seed and the same view give the same command. The search bot
determinizes from the seat's view alone, so its simulations cannot depend on it either."""

from __future__ import annotations

import copy

import pytest

from grognard.bots.base import LazyView, LegalActions, Seat
from grognard.bots.catalog import make_bot
from grognard.bots.play import play_game
from grognard.engine.game import Game

#: the search bots search every macro decision (``decide=1``: 3R's default weighs only
#: Barbarossa's date, tested below)
BOTS = ["random", "heuristic", "search", "planner", "mcts@budget=8@horizon=40@decide=1",
        "mcts@budget=8@horizon=40@cut=side@decide=1"]


def _twin(game: Game) -> Game:
    twin = Game.new(game.scenario, game.seed)
    for c in game.commands:
        twin.apply(c)
    return twin


def _set(game: Game, change) -> None:
    state = copy.deepcopy(game.state)
    change(state)
    game.state = state
    game._changed()


def _choice(game: Game, player: str, bot: str):
    b = make_bot(bot, Seat.of(game, player, 7))
    return b.choose(LazyView(game, player), LegalActions(game, player))


def _eurofront_at_a_decision(n: int = 2) -> tuple[Game, str]:
    """After ``n`` commands: 2 = the Allies place their chit with the Axis chit secret (the
    search bot simulates here), 25 = an Allied activation."""
    g = Game.new("eurofront-1941", seed=2)
    play_game(g, {"axis": "heuristic", "allies": "heuristic"}, seed=2, max_commands=n)
    return g, g.active()[0]


def _hide_differently(state, player):
    for u in state["units"].values():
        if u.get("side") != player and u.get("hidden"):
            u["steps"] = 1 if int(u.get("steps") or 0) > 1 else 4
            u["fp"] = 3


@pytest.mark.parametrize("n", [2, 25])
@pytest.mark.parametrize("bot", BOTS)
def test_eurofront_hidden_blocks_never_change_a_choice(bot, n):
    g, player = _eurofront_at_a_decision(n)
    other = _twin(g)
    _set(other, lambda s: _hide_differently(s, player))
    assert g.view(player) == other.view(player)  # the seat cannot tell them apart
    assert g.state != other.state
    assert _choice(g, player, bot) == _choice(other, player, bot)


@pytest.mark.parametrize("bot", BOTS)
def test_eurofront_the_opponents_secret_chit_never_changes_a_choice(bot):
    g, player = _eurofront_at_a_decision()
    enemy = next(s for s in g.scenario.sides if s != player)
    other = _twin(g)
    _set(other, lambda s: s["secrets"].setdefault(enemy, {}).update({"chit": [1, 3]}))
    assert g.state["secrets"][enemy] != other.state["secrets"][enemy]
    assert g.view(player) == other.view(player)
    assert _choice(g, player, bot) == _choice(other, player, bot)


@pytest.mark.parametrize("bot", BOTS)
def test_tr_the_murmansk_commitment_never_changes_the_axis_choice(bot):
    g = Game.new("tr-1939-campaign", seed=1)
    other = _twin(g)
    _set(other, lambda s: s["secrets"].setdefault("allies", {}).update(
        {"murmansk": {"fleets": 3, "asw": 2}}))
    assert g.view("axis") == other.view("axis") and g.state != other.state
    assert _choice(g, "axis", bot) == _choice(other, "axis", bot)


def test_the_search_really_searches_at_these_decisions():
    """The tests above are not vacuous for the search bot: it simulates at the decisions."""
    g = Game.new("tr-1939-campaign", seed=1)
    b = make_bot("mcts@budget=8@horizon=40@decide=1", Seat.of(g, "axis", 7))
    b.choose(LazyView(g, "axis"), LegalActions(g, "axis"))
    assert b.simulations >= 2
    g, player = _eurofront_at_a_decision(2)
    b = make_bot("mcts@budget=8@horizon=40", Seat.of(g, player, 7))
    b.choose(LazyView(g, player), LegalActions(g, player))
    assert b.simulations >= 2


def test_tr_the_murmansk_commitment_never_changes_barbarossas_date():
    """The search's weighing of Barbarossa's date (session 24, on the plan's date: Summer I
    1941) determinizes from the Axis's view alone: the Allies' hidden Murmansk commitment
    changes neither the command nor the date chosen (its rollouts cut at 40 commands here)."""
    g = Game.new("tr-1939-campaign", seed=1)
    g.state = {**g.state, "turn": 9, "control": {**g.state["control"], "Paris": "axis"}}
    g._changed()
    other = _twin(g)
    other.state = {**g.state}
    _set(other, lambda s: s["secrets"].setdefault("allies", {}).update(
        {"murmansk": {"fleets": 3, "asw": 2}}))
    assert g.view("axis") == other.view("axis") and g.state != other.state
    picks = []
    for game in (g, other):
        b = make_bot("mcts", Seat.of(game, "axis", 7))
        b.policy.posture_horizon = 40
        picks.append((b.choose(LazyView(game, "axis"), LegalActions(game, "axis")),
                      b.policy.posture, b.simulations))
    assert picks[0] == picks[1]
    assert picks[0][2] == 16  # the date was weighed: 8 paired rounds
