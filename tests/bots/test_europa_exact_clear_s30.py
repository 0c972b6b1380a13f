"""Issue 25, session 30: the search's last assaults weigh the rules' exact chance that each
planned attack empties its target (``EuropaPlannerPolicy.clear_chance``: the system's
estimate of the planned position, ``p_hex_cleared``; ``europa_offence.last_assault_plan``'s
and ``europa_defence.last_assault``'s ``chance``; ``mcts@exact=0`` without it). In a major
city the defender's loss basis is doubled (EUR-11) while its credits are not (EUR-13), so a
"1" result empties it of one-step units: Kharkov's three rifle corps at 2 to 1 fall 72 times
in 100, where the CRT's DR and D2 alone (``p_clear``) say 28."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from tests.bots.test_europa_last_assault_s27 import (
    STAKES,
    STRONG,
    WEAK,
    assault,
    lab,
    minsk_last_turn,
    sides,
)
from tests.europa.positions import demo_attack

from grognard.bots import europa_offence as off
from grognard.bots.base import Seat
from grognard.bots.catalog import make_bot
from grognard.bots.odds import view_estimate
from grognard.engine.game import Game


def _assault(verdict: Any, chance: Any = None, aims: tuple[float, ...] = (off.LAST_AIM,)
             ) -> tuple[dict[str, str], list[str]]:
    """session 27's board (:func:`assault`: four Axis units of attack 6, the weak city -
    defense 6 doubled - and the strong one, 18), with a chance read by the target's label."""
    to, _committed, targets = assault(verdict, STAKES, chance=chance, aims=aims)
    return to, targets


def test_the_exact_chance_decides_which_target_the_last_assault_takes():
    """Either city makes the verdict: by the CRT's DR and D2 the weak one at 4 to 1 (0.58)
    beats the strong at 1 to 1 (0.11); where the rules say the weak city holds whatever
    comes (a chance of 0) and the strong one falls to any attack, the army goes there."""
    def either(taken: Collection[str]) -> float:
        return 1.0 if taken else 0.0
    _to, targets = _assault(either)
    assert targets == [lab(*WEAK)]

    def rules(target: str, pick: Mapping[str, int]) -> float:
        return 0.0 if target == lab(*WEAK) else 1.0
    to, targets = _assault(either, rules)
    assert targets == [lab(*STRONG)]
    assert set(to.values()) <= sides(STRONG)
    # a chance the rules cannot give (None) falls back on the CRT's: the plan as before
    assert _assault(either, lambda t, p: None)[1] == [lab(*WEAK)]


def test_a_second_aim_spreads_the_army_over_both_targets():
    """The verdict needs both cities, and a city falls 72 times in 100 to any attack the
    rules allow: planned to 5 to 1 alone the weak city takes all four units and the strong
    none (worth 0); planned to 1 to 1 too (``spread``) one unit goes to the weak city and
    three to the strong - both attacked."""
    def both(taken: Collection[str]) -> float:
        return 1.0 if len(taken) == 2 else 0.0

    def rules(target: str, pick: Mapping[str, int]) -> float:
        return 0.72 if pick else 0.0
    _to, targets = _assault(both, rules)
    assert len(targets) == 1
    to, targets = _assault(both, rules, aims=(off.LAST_AIM, 1.0))
    assert sorted(targets) == sorted([lab(*WEAK), lab(*STRONG)])
    assert sum(h in sides(STRONG) for h in to.values()) == 3


def test_the_search_reads_the_rules_chance_of_the_planned_position():
    """europa-barbarossa, a turn-1 position played as the last turn, three German divisions
    moved (on the plan, not the board) to Minsk's sides and a Soviet unit in Minsk: the
    search's chance is the system's ``p_hex_cleared`` of that attack on the position with
    the three moved - above the CRT's DR and D2 (a lone one-step unit is emptied by any
    loss); the planner and ``mcts@exact=0`` read none."""
    g, three, sides_of_minsk = minsk_last_turn(place=False)
    m = g.scenario.map
    minsk = m.index_of_label("2631")
    seat = Seat.of(g, "axis", 3)
    search: Any = make_bot("mcts", seat).policy
    sit = search.situation(g.view("axis"), g)
    chance = search.clear_chance(sit)
    assert chance is not None
    pick = dict(zip(three, sides_of_minsk, strict=False))
    got = chance(minsk, pick)
    moved = {**g.view("axis")}
    moved["units"] = {**moved["units"], **{u: {**moved["units"][u], "hex": m.label(j)}
                                           for u, j in pick.items()}}
    est = view_estimate(sit, "2631", sorted(pick), moved)
    assert est is not None and est.p_cleared is not None
    assert got == float(est.p_cleared) and got > float(est.p_taken) > 0
    assert chance(minsk, pick) == got  # kept for the decision
    for name in ("planner", "mcts@exact=0"):
        pol: Any = make_bot(name, seat).policy
        assert pol.clear_chance(pol.situation(g.view("axis"), g)) is None


def test_the_search_may_weigh_every_attack_by_the_rules_chance():
    """``exact_clear``: by default the search weighs only its last assaults by the chance
    the hex is emptied (1, both seats); ``mcts@exact=2`` every attack too, the planner
    none. With 2 the estimate's chance of taking the hex is the rules' ``p_hex_cleared``: a
    lone one-step defender is emptied by any loss."""
    g, attack = demo_attack()
    b = Game.new("europa-barbarossa", seed=0)
    for side, level in (("soviet", 1), ("axis", 1)):
        side_pol: Any = make_bot("mcts", Seat.of(b, side, 0)).policy
        side_pol.situation(b.view(side), b)  # the seat learns which side it is
        assert side_pol.exact_clear == level
    seat = Seat.of(g, "axis", 2)
    got = {}
    for name in ("mcts", "mcts@exact=2", "planner"):
        pol: Any = make_bot(name, seat).policy
        sit = pol.situation(g.view("axis"), g)
        est = pol.own_estimate(sit, attack)
        assert est is not None and est.p_cleared is not None
        got[name] = est
    assert got["mcts@exact=2"].p_taken == got["mcts@exact=2"].p_cleared
    assert got["mcts"].p_taken == got["planner"].p_taken < got["planner"].p_cleared
