"""Issue 25 item 2 (session 13): the rule system's ``determinize`` hook (engine/system.py;
EuroFront's in eurofront/determinize.py) makes a seat's view a complete legal state - the
enemy's face-down blocks and its destroyed pool (a count in the view) dealt from the
scenario's blocks - so the search bot's rollouts cross the production phase; the sample
depends on the view and the dice only, never on the hidden truth."""

from __future__ import annotations

import copy
import random

import pytest

from grognard.bots import mcts
from grognard.bots.base import LazyView, LegalActions, Seat
from grognard.bots.catalog import make_bot
from grognard.engine.game import Game


def _to_production(seed: int) -> Game:
    """A planner game of eurofront-1941 played to its first production phase (EF-02: the
    Allies have lost blocks in June; the Axis still owes its production)."""
    g = Game.new("eurofront-1941", seed=seed)
    bots = {p: make_bot("planner", Seat.of(g, p, seed)) for p in g.scenario.sides}
    while g.state.get("production") is None:
        p = g.active()[0]
        g.apply(bots[p].choose(LazyView(g, p), LegalActions(g, p)))
    return g


@pytest.fixture(scope="module")
def prod() -> Game:
    return _to_production(5)


def _sample(game: Game, player: str, seed: int) -> dict:
    hook = game.system.determinize
    assert hook is not None
    return hook(game.context, game.view(player), random.Random(seed))


def test_the_view_shows_the_enemy_pool_only_as_a_count(prod):
    """Why the hook exists: the seat's view of the enemy's destroyed pool is a count, which
    the production orders cannot read; the sample has as many destroyed blocks, real records."""
    view = prod.view("axis")
    dead = prod.state["destroyed"]["allies"]
    assert len(dead) >= 2 and view["destroyed"]["allies"] == {"count": len(dead)}
    sample = _sample(prod, "axis", 1)
    pool = sample["destroyed"]["allies"]
    assert len(pool) == len(dead)
    assert all(u["side"] == "allies" and u["steps"] == 0 and u["hex"] is None
               and isinstance(u["face_down"], bool) for u in pool.values())


def test_the_sample_deals_the_enemys_unseen_blocks_from_the_scenario(prod):
    """Every enemy block of the scenario is once in the sample: the face-up ones as seen, the
    face-down ones at the hexes the view shows them, the rest in the destroyed pool; our own
    blocks and pool are the view's; different dice deal differently."""
    start = Game.new("eurofront-1941", seed=0).state["units"]
    allied = {uid for uid, u in start.items() if u["side"] == "allies"}
    view = prod.view("axis")
    samples = [_sample(prod, "axis", s) for s in range(6)]
    for sample in samples:
        on_map = {uid for uid, u in sample["units"].items() if u["side"] == "allies"}
        assert on_map | set(sample["destroyed"]["allies"]) == allied
        assert not on_map & set(sample["destroyed"]["allies"])
        seen = sorted(u["hex"] for u in view["units"].values() if u["side"] == "allies")
        assert sorted(sample["units"][uid]["hex"] for uid in on_map) == seen
        assert sample["destroyed"]["axis"] == prod.state["destroyed"]["axis"]
        assert all("attack" not in u for u in sample["units"].values())
        assert sample["secrets"]["allies"] == {}
    assert len({tuple(sorted(s["destroyed"]["allies"])) for s in samples}) > 1


def test_a_determinized_state_plays_a_whole_production_phase(prod):
    """EF-02/PROD through the engine from the Axis seat's sample: the Allies may rebuild the
    sampled destroyed blocks (their lister read the count before and failed), both sides end
    production and the next month starts."""
    g = mcts.fork(prod, _sample(prod, "axis", 3), 3)
    assert g.state["production"] is not None
    assert g.legal("allies", "rebuild")
    bots = {p: make_bot("planner", Seat.of(g, p, 3)) for p in g.scenario.sides}
    month, kinds = g.state["activation"]["month"], set()
    while g.state["activation"]["month"] == month:
        p = g.active()[0]
        cmd = bots[p].choose(LazyView(g, p), LegalActions(g, p))
        kinds.add(cmd.kind)
        g.apply(cmd)
    assert g.state["production"] is None and g.state["activation"]["month"] == "1941-07"
    assert "end_production" in kinds and g.state["turn"] == prod.state["turn"] + 1


def test_the_rollout_crosses_the_month_end():
    """The search's rollout (``cut=turn``) from a mid-month view now ends in the next month
    (it stopped at the production phase before: judged where it broke)."""
    g = Game.new("eurofront-1941", seed=5)
    bots = {p: make_bot("planner", Seat.of(g, p, 5)) for p in g.scenario.sides}
    for _ in range(40):
        p = g.active()[0]
        g.apply(bots[p].choose(LazyView(g, p), LegalActions(g, p)))
    assert g.state["activation"]["month"] == "1941-06"
    h = mcts.fork(g, mcts.sampled_state(g, g.view("allies"), 9), 9)
    mcts.rollout(h, 9, 3000)
    assert h.state["activation"]["month"] == "1941-07" or h.over


def _swap_hidden_truth(game: Game, player: str) -> Game:
    """A twin of ``game`` whose enemy pool and face-down blocks differ only where ``player``
    cannot see: one destroyed enemy block comes back in the place of a face-down enemy block
    on the map, which goes to the pool instead; every face-down enemy block loses a step."""
    twin = Game.new(game.scenario, game.seed)
    for c in game.commands:
        twin.apply(c)
    state = copy.deepcopy(twin.state)
    enemy = next(s for s in game.scenario.sides if s != player)
    dead_id = sorted(state["destroyed"][enemy])[0]
    live_id = next(uid for uid, u in sorted(state["units"].items())
                   if u["side"] == enemy and u["hidden"] and u["kind"] != "hq")
    dead, live = state["destroyed"][enemy].pop(dead_id), state["units"].pop(live_id)
    dead.update({"hex": live["hex"], "steps": 2, "hidden": True, "moved": live["moved"]})
    dead.pop("face_down", None)
    live.update({"hex": None, "steps": 0, "hidden": True, "face_down": False})
    state["units"][dead_id], state["destroyed"][enemy][live_id] = dead, live
    for u in state["units"].values():
        if u["side"] == enemy and u["hidden"] and int(u["steps"]) > 1:
            u["steps"] = int(u["steps"]) - 1
    twin.state = state
    twin._changed()
    return twin


def test_the_sample_never_reads_the_hidden_truth(prod):
    """Changing the enemy's face-down blocks and destroyed pool (what the seat cannot see)
    leaves the view, so the sample given the same dice, the same; the search's choice at
    the Allies' production (its own rebuilds weighed on samples) the same."""
    other = _swap_hidden_truth(prod, "axis")
    assert other.state != prod.state and other.view("axis") == prod.view("axis")
    for seed in range(4):
        assert _sample(prod, "axis", seed) == _sample(other, "axis", seed)
    bot = "mcts@budget=8@horizon=60"
    a = make_bot(bot, Seat.of(prod, "axis", 7))
    b = make_bot(bot, Seat.of(other, "axis", 7))
    assert a.simulate(prod.view("axis"), prod, prod.legal("axis")[0], 11) == \
        b.simulate(other.view("axis"), other, other.legal("axis")[0], 11)


def test_the_search_weighs_buying_where_the_planner_passes(monkeypatch):
    """PROD: the planner ends production without buying (a build scores nothing in its
    eyes); the search weighs passing against buying once a phase - the policy's best
    purchase, then the next while any is legal, simulated on through the month - and when
    buying wins it buys at every decision of the phase with no further simulation, so the
    Axis ends the phase with its PP spent down. (The Axis: since session 16 the search's
    Allies, the defending side, buy without weighing - tests/bots/test_mcts_s16.py.)"""
    g = _to_production(5)
    planner = make_bot("planner", Seat.of(g, "axis", 5))
    assert planner.choose(LazyView(g, "axis"), LegalActions(g, "axis")).kind == \
        "end_production"
    monkeypatch.setattr(mcts, "better", lambda values: len(values) - 1)
    bot = make_bot("mcts@budget=8@horizon=200", Seat.of(g, "axis", 5))
    first = bot.choose(LazyView(g, "axis"), LegalActions(g, "axis"))
    assert first.kind in ("build", "rebuild") and bot.simulations == 8
    pp, kinds = g.state["pp"]["axis"], []
    while "axis" in g.active():
        cmd = first if not kinds else bot.choose(LazyView(g, "axis"),
                                                   LegalActions(g, "axis"))
        kinds.append(cmd.kind)
        g.apply(cmd)
    assert bot.simulations == 8  # one search a phase
    assert kinds[-1] == "end_production" and len(kinds) >= 3
    assert g.state["pp"]["axis"] < pp and not g.legal("axis", "build")


def test_the_search_keeps_passing_when_buying_loses(monkeypatch):
    """When the simulations keep the planner's passing, the seat (the Axis, whose purchases
    the search weighs) ends its production (the planner's game), and a budget of 0 never
    searches a purchase."""
    g = _to_production(5)
    monkeypatch.setattr(mcts, "better", lambda values: 0)
    bot = make_bot("mcts@budget=8@horizon=200", Seat.of(g, "axis", 5))
    assert bot.choose(LazyView(g, "axis"), LegalActions(g, "axis")).kind == \
        "end_production"
    assert bot.simulations == 8
    idle = make_bot("mcts@budget=0", Seat.of(g, "axis", 5))
    assert idle.choose(LazyView(g, "axis"), LegalActions(g, "axis")).kind == \
        "end_production"
    assert idle.simulations == 0


@pytest.mark.parametrize("seat", ["axis", "allies"])
def test_budget_0_plays_the_planners_whole_game(seat):
    """mcts@budget=0 (no simulation, no purchase search) plays the planner's very game to
    the verdict, through every production phase (a paired game against the planner then
    measures only what the search changes)."""
    from grognard.bots.play import play_game

    def play(bot: str) -> tuple[str, int]:
        g = Game.new("eurofront-1941", seed=402)
        other = "allies" if seat == "axis" else "axis"
        rec = play_game(g, {seat: bot, other: "planner"}, seed=402)
        assert g.over and any(c.kind == "end_production" for c in g.commands)
        return rec.state_hash, len(g.commands)
    assert play("mcts@budget=0") == play("planner")
