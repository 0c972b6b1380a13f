"""Issue 25 item 2 (session 23): the search bot's Europa postures - which attacks to make.

Where a study asks (``mcts@weigh=...``; measured, none paid, so none by default) the search
weighs, at the first decision of each player turn of its own, what the seat plays for that
turn: the plan; ``bold`` (the attacker weighs its own losses at half its caution);
``fall_back`` (the defender's outflanked units fall back instead of holding the line); and in
the two game turns before the scenario's last, ``storm`` (the turn played as the last: every
objective the enemy holds attacked at any odds that can take it). Its rollouts play to the
start of the seat's next player turn - the enemy's answer seen - or, where ``storm`` is
weighed, to the game's end. The planner never sets a posture."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grognard.bots.base import Seat
from grognard.bots.catalog import make_bot
from grognard.bots.play import play_game
from grognard.engine.game import Game

SCENARIO = "europa-barbarossa"
#: europa-barbarossa's turn sequence: phases 0-13 are the Axis player turn (5, the Soviet
#: reaction phase, inside it), 14-24 the Soviet player turn (16, the Axis reaction)
AXIS_MOVEMENT, SOVIET_MOVEMENT = 8, 19


@pytest.fixture(scope="module")
def game() -> Game:
    return Game.new(SCENARIO, seed=0)


def _policies(game: Game, weigh: tuple[str, ...] = ("bold", "fall_back", "storm")) -> tuple:
    axis = make_bot("planner", Seat.of(game, "axis", 0)).policy
    soviet = make_bot("planner", Seat.of(game, "soviet", 0)).policy
    axis.defending, soviet.defending = False, True  # as the first decision with a game sets
    axis.weighed = soviet.weighed = weigh  # as mcts@weigh=... sets
    return axis, soviet


def test_the_player_turn_a_phase_belongs_to(game):
    """A reaction phase belongs to the other player's turn; the surprise turn's phases before
    the first ``initial`` to the Axis's."""
    axis, _soviet = _policies(game)
    phases = game.context.turn_sequence.phases
    assert phases[5].name == "reaction" and str(phases[5].player) == "soviet"
    assert phases[16].name == "reaction" and str(phases[16].player) == "axis"
    owners = [axis.turn_owner({"turn": 3, "phase": i}) for i in range(len(phases))]
    assert owners == ["axis"] * 14 + ["soviet"] * 11
    assert axis.posture_key({"turn": 3, "phase": 5}) == "3:axis"
    assert axis.posture_key({"turn": 3, "phase": 16}) == "3:soviet"


def test_the_postures_each_side_weighs(game):
    """Weighing all three, the attacker weighs ``bold`` until two turns before the last (13),
    the defender ``fall_back``, then both ``storm``; nothing in the enemy's player turn, its
    reaction phase inside ours, or the last turn (played as the last already); nothing at
    all by default."""
    axis, soviet = _policies(game)
    assert axis.posture_names({"turn": 1, "phase": AXIS_MOVEMENT}) == ["plan", "bold"]
    assert axis.posture_names({"turn": 10, "phase": AXIS_MOVEMENT}) == ["plan", "bold"]
    assert axis.posture_names({"turn": 11, "phase": AXIS_MOVEMENT}) == ["plan", "storm"]
    assert axis.posture_names({"turn": 12, "phase": 3}) == ["plan", "storm"]
    assert axis.posture_names({"turn": 13, "phase": AXIS_MOVEMENT}) == []
    assert axis.posture_names({"turn": 5, "phase": SOVIET_MOVEMENT}) == []
    assert axis.posture_names({"turn": 5, "phase": 16}) == []  # our reaction, their turn
    assert soviet.posture_names({"turn": 5, "phase": SOVIET_MOVEMENT}) == ["plan", "fall_back"]
    assert soviet.posture_names({"turn": 12, "phase": SOVIET_MOVEMENT}) == ["plan", "storm"]
    assert soviet.posture_names({"turn": 12, "phase": 5}) == []
    assert soviet.posture_names({"turn": 13, "phase": SOVIET_MOVEMENT}) == []
    axis.defending = None  # not known yet: nothing to weigh
    assert axis.posture_names({"turn": 1, "phase": AXIS_MOVEMENT}) == []
    axis, soviet = _policies(game, ())  # the default
    for turn in (1, 11, 12):
        assert axis.posture_names({"turn": turn, "phase": AXIS_MOVEMENT}) == []
        assert soviet.posture_names({"turn": turn, "phase": SOVIET_MOVEMENT}) == []


def test_storm_plays_the_turn_as_the_last_and_bold_halves_the_caution(game):
    """``storm`` makes the policy's last-turn reading true for its own player turn only;
    ``bold`` halves the attacker's caution (the plan's 0.8 for the Axis) for its turn only."""
    axis, _soviet = _policies(game)
    view = game.view("axis")
    sit = axis.situation(view, game)
    assert not axis.last_turn(sit)
    plain = axis.attack_caution(sit)
    assert plain == Fraction(4, 5)
    axis.set_posture(view, "storm")
    assert axis.last_turn(sit) and axis.attack_caution(sit) == plain
    axis.set_posture(view, "bold")
    assert not axis.last_turn(sit) and axis.attack_caution(sit) == plain / 2
    axis.posture = ("2:axis", "bold")  # another turn's posture
    assert axis.attack_caution(sit) == plain and not axis.last_turn(sit)
    axis.set_posture(view, "plan")
    assert axis.attack_caution(sit) == plain and not axis.last_turn(sit)


def test_a_postures_rollout_stops_at_the_seats_next_player_turn(game):
    """Mid-game the rollout stops at the start of the seat's next player turn (the enemy's
    answer played); where ``storm`` is weighed it runs to the game's end (None)."""
    axis, soviet = _policies(game)

    class At:
        def __init__(self, turn: int, phase: int) -> None:
            self.state = {"turn": turn, "phase": phase}

    stop = axis.posture_stop({"turn": 3, "phase": AXIS_MOVEMENT})
    assert stop is not None
    assert [stop(At(3, p)) for p in (AXIS_MOVEMENT, 13, 14, SOVIET_MOVEMENT, 24)] == \
        [False] * 5
    assert stop(At(4, 0)) and stop(At(4, 3))
    stop = soviet.posture_stop({"turn": 3, "phase": SOVIET_MOVEMENT})
    assert stop is not None
    assert not stop(At(3, 24)) and not stop(At(4, 3)) and not stop(At(4, 13))
    assert stop(At(4, 14))
    assert axis.posture_stop({"turn": 11, "phase": AXIS_MOVEMENT}) is None


def test_the_search_reads_its_horizon_from_the_policy(game):
    """A Europa player turn is about 160 commands: the search's rollouts may play 6000
    unless asked otherwise; other systems keep 300."""
    assert make_bot("mcts", Seat.of(game, "axis", 0)).horizon == 6000
    assert make_bot("mcts@horizon=40", Seat.of(game, "axis", 0)).horizon == 40
    tr = Game.new("tr-1939-campaign", seed=0)
    assert make_bot("mcts", Seat.of(tr, "axis", 0)).horizon == 300


def test_the_search_weighs_the_postures_in_play():
    """In a game the Axis search weighing ``bold`` (budget 4: two postures, two rounds
    each) simulates at its first player turn; the default search (budget 8, nothing
    weighed) simulates nothing and plays the planner's very game."""
    g = Game.new(SCENARIO, seed=3)
    bot = make_bot("mcts@budget=4@horizon=30@weigh=bold", Seat.of(g, "axis", 3))
    rec = play_game(g, {"axis": bot, "soviet": "planner"}, seed=3, max_commands=60)
    assert rec.error is None and rec.refused == 0
    assert bot.simulations == 4 and bot.policy.posture is not None
    assert bot.policy.posture[0] == "1:axis"
    g1, g2 = Game.new(SCENARIO, seed=4), Game.new(SCENARIO, seed=4)
    zero = make_bot("mcts", Seat.of(g1, "axis", 4))
    play_game(g1, {"axis": zero, "soviet": "planner"}, seed=4, max_commands=400)
    play_game(g2, {"axis": "planner", "soviet": "planner"}, seed=4, max_commands=400)
    assert zero.simulations == 0 and g1.state_hash() == g2.state_hash()


def test_fall_back_asks_the_defence_to_pull_back_outflanked_units(monkeypatch):
    """Under ``fall_back`` the planner's defence is asked for session 20's fall-back (3
    armour units past a unit's flanks); without it, for none (the shipped plan's 0)."""
    import grognard.bots.planner_plans as pp

    asked: list[int] = []
    real = pp.defence_moves

    def spy(*args, **kw):
        asked.append(kw["fall_back"])
        return real(*args, **kw)
    monkeypatch.setattr(pp, "defence_moves", spy)
    g = Game.new(SCENARIO, seed=0)
    bots = {p: make_bot("planner", Seat.of(g, p, 0)) for p in g.scenario.sides}
    from grognard.bots.base import LazyView, LegalActions
    while not asked:
        p = g.active()[0]
        if p == "soviet" and asked == [] and bots[p].policy.defending:
            bots[p].policy.set_posture(g.view(p), "fall_back")
        g.apply(bots[p].choose(LazyView(g, p), LegalActions(g, p)))
    assert asked == [3]
    bots["soviet"].policy.posture = None
    while len(asked) < 2:
        p = g.active()[0]
        g.apply(bots[p].choose(LazyView(g, p), LegalActions(g, p)))
    assert asked[1] == 0


def test_a_study_names_the_postures_the_search_weighs(game):
    """``mcts@weigh=...`` (postures joined by +, or ``none``) names what the search weighs
    (none by default: measured, none paid); each side weighs only its own; a name that is
    no posture, or a system without them, is refused in one line."""
    from grognard.core.errors import InputError

    assert make_bot("mcts", Seat.of(game, "axis", 0)).policy.weighed == ()
    assert make_bot("mcts@weigh=none", Seat.of(game, "axis", 0)).policy.weighed == ()
    axis = make_bot("mcts@weigh=storm", Seat.of(game, "axis", 0))
    soviet = make_bot("mcts@weigh=bold", Seat.of(game, "soviet", 0))
    axis.policy.defending, soviet.policy.defending = False, True
    assert axis.policy.posture_names({"turn": 4, "phase": AXIS_MOVEMENT}) == []
    assert axis.policy.posture_names({"turn": 11, "phase": AXIS_MOVEMENT}) == ["plan", "storm"]
    assert soviet.policy.posture_names({"turn": 4, "phase": SOVIET_MOVEMENT}) == []
    both = make_bot("mcts@weigh=bold+fall_back", Seat.of(game, "soviet", 0))
    both.policy.defending = True
    assert both.policy.posture_names({"turn": 4, "phase": SOVIET_MOVEMENT}) == \
        ["plan", "fall_back"]
    with pytest.raises(InputError, match="weigh='plan'"):
        make_bot("mcts@weigh=plan", Seat.of(game, "axis", 0))
    with pytest.raises(InputError, match="weigh"):
        make_bot("mcts@weigh=bold", Seat.of(Game.new("tr-1939-campaign", seed=0), "axis", 0))
