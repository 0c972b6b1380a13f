"""Bots (issue 15): the interface, determinism, the heuristic and search policies."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grognard.bots import bot_names, choose, legal_actions, make_bot, parse_bots, play_game
from grognard.bots.base import LegalActions, Seat
from grognard.bots.heuristic import HeuristicBot, combine_options, pick, plan_moves
from grognard.bots.odds import tr_estimate
from grognard.bots.search import SearchBot
from grognard.bots.situation import Situation
from grognard.core.dice import DiceStream
from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.third_reich.combat.combat import odds_column


def _moves(player: str, n: int) -> list[Command]:
    return [Command("move", player, {"unit": f"u{i}", "to": f"H{i}"}) for i in range(n)]


def test_bots_registered():
    assert set(bot_names()) == {"random", "heuristic", "search", "planner", "mcts"}
    with pytest.raises(InputError, match="unknown bot"):
        make_bot("nobody", Seat.of(Game.new("demo-europa"), "axis"))


def test_random_bot_kind_first_and_seeded():
    """The random bot draws a kind first: end_phase is half the picks against 9 moves."""
    g = Game.new("demo-europa", seed=1)
    legal = [*_moves("axis", 9), Command("end_phase", "axis", {})]
    a = make_bot("random", Seat.of(g, "axis", seed=11))
    b = make_bot("random", Seat.of(g, "axis", seed=11))
    picks_a = [a.choose(g.view("axis"), legal) for _ in range(400)]
    picks_b = [b.choose(g.view("axis"), legal) for _ in range(400)]
    assert picks_a == picks_b
    ends = sum(c.kind == "end_phase" for c in picks_a)
    assert 160 < ends < 240
    c = make_bot("random", Seat.of(g, "axis", seed=12))
    assert [c.choose(g.view("axis"), legal) for _ in range(400)] != picks_a


def test_legal_actions_offer_argument_free_kinds_only():
    g = Game.new("demo-europa", seed=1)
    acts = legal_actions(g, "axis")
    assert "end_phase" in {c.kind for c in acts}
    assert all(g.can(c) for c in acts)
    assert legal_actions(g, "soviet") == []  # not the soviet's phase


def test_parse_bots():
    assert parse_bots("heuristic", ["axis", "allies"]) == {"axis": "heuristic",
                                                          "allies": "heuristic"}
    assert parse_bots("allies=random", ["axis", "allies"], partial=True) == {"allies": "random"}
    for bad, msg in [("axis=heuristic", "no bot for allies"), ("axis=x,allies=random",
                     "unknown bot"), ("ussr=random", "not a side"), ("axis", "unknown bot")]:
        with pytest.raises(InputError, match=msg):
            parse_bots(bad, ["axis", "allies"])


def test_pick_prefers_positive_then_end_phase_then_best():
    dice = DiceStream(1, "t")
    end = Command("end_phase", "axis", {})
    m = _moves("axis", 3)
    assert pick([*m, end], [0.0, -1.0, 0.0, 0.0], dice) == end
    assert pick([*m, end], [0.0, 2.0, 1.0, 0.0], dice) == m[1]
    assert pick(m, [-3.0, -1.0, -2.0], dice) == m[1]  # a decision: the least bad


def _tr_sit(player: str = "axis") -> tuple[Game, Situation]:
    g = Game.new("tr-1939-two-fronts", seed=3)
    return g, Situation.of(g.context, g.view(player), player)


def test_tr32_estimate_uses_the_crt_column_of_the_odds():
    """TR-32: the bot's estimate sits on the CRT column of attack/defense; more attackers,
    better odds, a likelier capture and fewer expected own losses per enemy loss."""
    _g, sit = _tr_sit()
    weak = tr_estimate(sit, "C9", ["ge-arm1"])
    strong = tr_estimate(sit, "C9", ["ge-arm1", "ge-arm2"])
    assert weak is not None and strong is not None
    assert any(odds_column(4, d).column == weak.column and
               odds_column(8, d).column == strong.column for d in range(2, 9))
    assert strong.p_taken > weak.p_taken
    assert (strong.p_taken * 36).denominator == 1 and (weak.p_taken * 36).denominator == 1
    assert tr_estimate(sit, "C9", ["nobody"]) is None


def test_tr_heuristic_attacks_at_good_odds_and_ends_phase_otherwise():
    g, _sit = _tr_sit()
    bot = HeuristicBot(Seat.of(g, "axis", seed=1))
    good = Command("attack", "axis", {"hex": "C9", "attackers": ["ge-arm1", "ge-arm2"]})
    weak = Command("attack", "axis", {"hex": "C9", "attackers": ["ge-arm1"]})
    end = Command("end_phase", "axis", {})
    s_good, s_weak, _ = bot.scores(g.view("axis"), [good, weak, end])
    assert s_good > s_weak
    assert bot.choose(g.view("axis"), [weak, good, end]) == good


def test_tr_heuristic_holds_the_line_and_advances_rear_units():
    """A unit in contact does not walk away from the enemy; a rear unit moves closer."""
    g, sit = _tr_sit()
    bot = HeuristicBot(Seat.of(g, "axis", seed=1))
    away = Command("move", "axis", {"unit": "ge-arm1", "to": "C6"})
    assert bot.scores(g.view("axis"), [away])[0] < 0
    rear = next((uid for uid, u in sit.mine.items() if not sit.in_contact(u["hex"])
                 and u["type"] in ("infantry", "armor")), None)
    if rear is not None:
        here = sit.mine[rear]["hex"]
        m = sit.map
        near = min((m.label(int(n)) for n in m.neighbor_indices(m.index_of_label(here))),
                   key=lambda lab: sit.nearest(lab, sit.objectives))
        if sit.nearest(near, sit.objectives) < sit.nearest(here, sit.objectives):
            fwd = Command("move", "axis", {"unit": rear, "to": near})
            assert bot.scores(g.view("axis"), [fwd])[0] > 0


def test_tr03_heuristic_options_offensive_only_where_in_contact():
    g, sit = _tr_sit()
    bot = HeuristicBot(Seat.of(g, "axis", seed=1))
    pol = bot.policy
    strength = pol._front_strength(sit, "germany")  # type: ignore[attr-defined]
    assert strength
    front = sorted(strength)[0]
    off = Command("declare_options", "axis", {"power": "germany",
                                              "options": {front: "offensive"}})
    none = Command("declare_options", "axis", {"power": "germany", "options": {}})
    quiet = next(f for f in ("western", "eastern", "mediterranean") if f not in strength)
    far = Command("declare_options", "axis", {"power": "germany",
                                              "options": {quiet: "offensive"}})
    s_off, s_none, s_far = bot.scores(g.view("axis"), [off, none, far])
    assert s_off > s_none == 0.0 > s_far


def test_tr_heuristic_builds_within_budget_keeping_growth_reserve():
    g, _sit = _tr_sit()
    bot = HeuristicBot(Seat.of(g, "axis", seed=1))
    small = Command("build", "axis", {"power": "germany", "infantry_factors": 10})
    huge = Command("build", "axis", {"power": "germany", "infantry_factors": 140})
    s_small, s_huge = bot.scores(g.view("axis"), [small, huge])
    assert s_small > 0 > s_huge


def test_eur12_heuristic_allocates_losses_sparing_armor():
    g = Game.new("demo-europa", seed=1)
    bot = HeuristicBot(Seat.of(g, "axis", seed=1))
    units = g.state["units"]
    armor = next(u for u, v in units.items() if v["side"] == "axis" and v["type"] == "armor")
    other = next(u for u, v in units.items() if v["side"] == "axis" and v["type"] != "armor")
    a = Command("allocate_losses", "axis", {"side": "attacker", "units": [armor]})
    b = Command("allocate_losses", "axis", {"side": "attacker", "units": [other]})
    assert bot.choose(g.view("axis"), [a, b]) == b


def test_search_bot_plans_disjoint_attacks():
    """The plan never uses a unit or a hex twice, and takes the better total."""
    g = Game.new("tr-1939-two-fronts", seed=3)
    bot = SearchBot(Seat.of(g, "axis", seed=1))
    a = Command("attack", "axis", {"hex": "X1", "attackers": ["u1", "u2"]})
    b = Command("attack", "axis", {"hex": "X2", "attackers": ["u2"]})
    c = Command("attack", "axis", {"hex": "X3", "attackers": ["u3"]})
    d = Command("attack", "axis", {"hex": "X1", "attackers": ["u4"]})
    value, plan = bot.plan([(Fraction(5), a), (Fraction(4), b), (Fraction(3), c),
                            (Fraction(2), d)])
    used = [u for cmd in plan for u in cmd.args["attackers"]]
    hexes = [cmd.args["hex"] for cmd in plan]
    assert len(used) == len(set(used)) and len(hexes) == len(set(hexes))
    assert value == 9 and plan[0] in (b, c, d)  # b+c+d (9) beats a+c (8)


def test_search_bot_attacks_and_keeps_units_to_spare():
    g = Game.new("tr-1939-two-fronts", seed=3)
    bot = SearchBot(Seat.of(g, "axis", seed=1))
    full = Command("attack", "axis", {"hex": "C9", "attackers": ["ge-arm1", "ge-arm2"]})
    end = Command("end_phase", "axis", {})
    cmd = bot.choose(g.view("axis"), [full, end])
    assert cmd.kind == "attack" and set(cmd.args["attackers"]) <= {"ge-arm1", "ge-arm2"}


def test_bot_games_are_deterministic_and_bots_see_only_their_view():
    seen: list[str] = []

    class Spy:
        name = "spy"

        def __init__(self, inner):
            self.inner, self.seat = inner, inner.seat

        def choose(self, view, legal):
            seen.append(view["viewer"])
            assert all(c.player == self.seat.player for c in legal)
            return self.inner.choose(view, legal)

    recs = []
    for _ in range(2):
        g = Game.new("tr-1939-two-fronts", seed=5)
        bots = {p: Spy(make_bot("heuristic", Seat.of(g, p, 5))) for p in g.scenario.sides}
        recs.append(play_game(g, bots, seed=5, max_turns=2, max_commands=60))
    assert recs[0].to_json() == recs[1].to_json()
    assert recs[0].commands > 0 and recs[0].brp and recs[0].end in ("max_turns", "over", "stuck",
                                                                   "max_commands")
    assert set(seen) == {"axis", "allies"}


def test_choose_is_a_function_of_game_player_bot_seed():
    g = Game.new("tr-1939-two-fronts", seed=5)
    assert choose(g, "axis", "random", 3) == choose(g, "axis", "random", 3)
    with pytest.raises(InputError, match="nothing to do"):
        choose(g, "allies", "heuristic")


def test_tr25_tr75_campaign_heuristic_wars_and_builds():
    """On the 1939 campaign: no war on a major or on a minor away from an offensive front,
    and builds that fit the budget score above those that do not."""
    g = Game.new("tr-1939-campaign", seed=2)
    bot = HeuristicBot(Seat.of(g, "axis", seed=2))
    wars = [c for c in legal_actions(g, "axis") if c.kind == "declare_war"]
    assert wars and all(s < 0 for s in bot.scores(g.view("axis"), wars))  # no option yet
    while g.phase.name != "build":
        g.apply(next(c for c in legal_actions(g, g.active()[0]) if c.kind == "end_phase"))
    player = g.active()[0]
    builds = [c for c in legal_actions(g, player) if c.kind == "build_unit"]
    if builds:
        bot = HeuristicBot(Seat.of(g, player, seed=2))
        scores = bot.scores(g.view(player), builds)
        best = builds[scores.index(max(scores))]
        assert max(scores) > 0 and g.can(best)


def test_a_refused_unlisted_command_falls_back_to_end_phase():
    class Bogus:
        name = "bogus"

        def __init__(self, seat):
            self.seat = seat

        def choose(self, view, legal):
            return Command("attack", self.seat.player, {"hex": "A1", "attackers": ["nobody"]})

    g = Game.new("tr-1939-two-fronts", seed=5)
    bots = {p: Bogus(Seat.of(g, p, 1)) for p in g.scenario.sides}
    rec = play_game(g, bots, seed=1, max_commands=6)
    assert rec.refused == 6 and rec.commands == 6 and rec.error is None
    assert all(c.kind == "end_phase" for c in g.commands)


def test_lazy_legal_actions_are_the_full_list_and_the_heuristic_chooses_the_same():
    """LegalActions enumerates kind by kind; as a list it is legal_actions; the heuristic
    enumerates only the kinds it can score (plus end_phase) and chooses as from the full list."""
    g = Game.new("demo-europa", seed=3)
    lazy = LegalActions(g, "axis")
    full = legal_actions(g, "axis")
    assert sorted(map(repr, lazy)) == sorted(map(repr, full)) and lazy
    bot = HeuristicBot(Seat.of(g, "axis", seed=4))
    few = lazy.preferring(bot.policy.kinds())
    assert {c.kind for c in few} <= bot.policy.kinds() | {"end_phase"}
    assert any(c.kind == "end_phase" for c in few) and set(map(repr, few)) <= set(map(repr, full))
    a = HeuristicBot(Seat.of(g, "axis", seed=4)).choose(g.view("axis"), full)
    b = HeuristicBot(Seat.of(g, "axis", seed=4)).choose(g.view("axis"), LegalActions(g, "axis"))
    assert a == b and g.can(a)
    assert lazy.allows(a) and not lazy.allows(Command("move", "axis", {"unit": "x", "to": "0101"}))


def test_random_bot_draws_a_kind_that_has_actions():
    g = Game.new("demo-europa", seed=3)
    kinds = {c.kind for c in legal_actions(g, "axis")}
    picks = {make_bot("random", Seat.of(g, "axis", s)).choose(g.view("axis"),
                                                              LegalActions(g, "axis")).kind
             for s in range(12)}
    assert picks <= kinds and len(picks) > 1


def test_tr03_heuristic_declares_every_worthwhile_front_at_once():
    """TR-03: on the 1939 campaign Germany touches Poland (eastern front) and the west; the
    enumerator lists one front per command, the heuristic declares both in one (legal)."""
    g = Game.new("tr-1939-campaign", seed=0)
    bot = HeuristicBot(Seat.of(g, "axis", seed=0))
    cmd = bot.choose(g.view("axis"), LegalActions(g, "axis"))
    assert cmd.kind == "declare_options" and cmd.args["power"] == "germany"
    assert cmd.args["options"].get("eastern") == "offensive" and len(cmd.args["options"]) > 1
    assert g.can(cmd)
    one = [Command("declare_options", "axis", {"power": "germany", "options": {f: o}})
           for f, o in [("western", "offensive"), ("eastern", "attrition"),
                        ("eastern", "offensive")]]
    both = combine_options(one, [2.0, 1.0, 3.0], one[0])
    assert both is not None and both.args["options"] == {"eastern": "offensive",
                                                         "western": "offensive"}
    assert combine_options(one[:1], [2.0], one[0]) is None


def test_moves_are_planned_one_per_unit_best_first():
    acts = [*_moves("axis", 4), Command("move", "axis", {"unit": "u1", "to": "X"}),
            Command("end_phase", "axis", {})]
    scores = [3.0, 1.0, -1.0, 2.0, 1.5, 0.0]
    assert plan_moves(acts, scores, acts[0]) == [acts[3], acts[4]]


def test_ef17_ef18_heuristic_axis_attacks_the_objectives():
    """EF-17/EF-18: the Axis (which must take the objectives) picks one HQ a chit, enters an
    enemy hex only where the blocks that can join outgun it, keeps its HQs out of battle and
    advances its blocks on the objectives within reach of an HQ."""
    g = Game.new("eurofront-1941", seed=0)
    bot = HeuristicBot(Seat.of(g, "axis", seed=0))
    pol = bot.policy
    sit = Situation.of(g.context, g.view("axis"), "axis")
    assert {h for h, v in sit.objectives.items() if v == 5} == set(
        g.scenario.calendar["objectives"])
    chit = lambda n: pol.score(sit, Command("place_chit", "axis",  # noqa: E731
                                            {"strength": 3, "count": n}))
    assert chit(1) > chit(2)
    while (g.state.get("operation") or {}).get("side") != "axis":
        p = g.active()[0]
        g.apply(make_bot("heuristic", Seat.of(g, p, 0)).choose(g.view(p), LegalActions(g, p)))
    sit = Situation.of(g.context, g.view("axis"), "axis")
    moves = g.legal("axis", "move")
    scored = [(pol.score(sit, c), c) for c in moves]
    fights = [(s, c) for s, c in scored if c.args["to"] in sit.enemy_hexes]
    hq = {b for b, u in sit.mine.items() if u["kind"] == "hq"}
    assert fights and hq and all(s == -1.0 for s, c in fights if c.args["block"] in hq)
    for s, c in fights:
        ours, theirs = pol._battle_odds(sit, c.args["to"])  # type: ignore[attr-defined]
        if c.args["block"] not in hq:
            assert (s > 0) == (ours > pol.edge * theirs)  # type: ignore[attr-defined]
    best = max(scored, key=lambda sc: sc[0])
    assert best[0] > 0 and g.can(best[1])


def test_shared_view_is_the_players_view_without_the_copy():
    """C-HIDDEN: the bots' uncopied view of a 3R game equals Game.view (3R's view is exactly
    hide_secrets), and LazyView reads turn and phase without making it."""
    from grognard.bots.base import LazyView, shared_view

    g = Game.new("tr-1939-campaign", seed=0)
    for p in g.scenario.sides:
        assert shared_view(g.state, p) == g.view(p)
    lazy = LazyView(g, "axis")
    assert lazy["turn"] == g.turn and lazy._view is None
    assert lazy["viewer"] == "axis" and dict(lazy) == g.view("axis")


def test_tr27_heuristic_plans_every_units_move_with_legal_paths():
    """TR-27/TR-28: the move plan names each unit once with an explicit path, best first;
    the first is legal, units in contact hold, and no planned hex exceeds the stacking limit."""
    from grognard.bots.tr_plans import move_plan

    g = Game.new("tr-1939-campaign", seed=0)
    while g.phase.name != "movement":
        g.apply(Command("end_phase", g.active()[0], {}))
    bot = HeuristicBot(Seat.of(g, "axis", seed=0))
    sit = Situation.of(g.context, g.view("axis"), "axis")
    plan = move_plan(sit, LegalActions(g, "axis"))
    units = [c.args["unit"] for _s, c in plan]
    assert plan and len(units) == len(set(units))
    assert [s for s, _c in plan] == sorted((s for s, _c in plan), reverse=True)
    assert all(s > 0 and "path" in c.args for s, c in plan) and g.can(plan[0][1])
    ends: dict[str, int] = dict(sit.friendly_hexes)
    for _s, c in plan:
        ends[c.args["path"][-1]] = ends.get(c.args["path"][-1], 0) + 1
        u = sit.mine[c.args["unit"]]
        ends[u["hex"]] -= 1
        assert not sit.in_contact(u["hex"]) or sit.friendly_hexes[u["hex"]] > 1
    assert max(ends[c.args["path"][-1]] for _s, c in plan) <= 2
    first = bot.choose(g.view("axis"), LegalActions(g, "axis"))
    assert first.kind == "move" and g.can(first)


def test_random_bot_samples_and_is_deterministic_per_seed():
    g = Game.new("tr-1939-campaign", seed=0)
    picks = [make_bot("random", Seat.of(g, "axis", 3)).choose(g.view("axis"),
                                                              LegalActions(g, "axis"))
             for _ in range(2)]
    assert picks[0] == picks[1] and g.can(picks[0])


def test_tr40_withdraw_repaired_when_no_listed_combination_is_legal():
    """TR-40: the withdraw enumerator lists the first 64 combinations of retreat hexes; when
    all break stacking the heuristic tries each unit's first hex with room, else removal."""
    g, sit = _tr_sit()
    bot = HeuristicBot(Seat.of(g, "axis", seed=1))
    sit.friendly_hexes = {"L26": 2}

    class Listed:
        def candidates(self, kind):
            return [Command("withdraw", "axis", {"retreats": {"a": "L26", "b": "L26"}}),
                    Command("withdraw", "axis", {"retreats": {"a": "L26", "b": "M27"}})]

    first, all_out = bot.policy.repairs(sit, Listed(), {"withdraw"})  # type: ignore[arg-type]
    assert first.args["retreats"] == {"a": None, "b": "M27"}
    assert all_out.args["retreats"] == {"a": None, "b": None}
    assert bot.policy.repairs(sit, Listed(), {"move"}) == []  # type: ignore[arg-type]
