"""Issue 25, session 20: the defender's line values made faster give the same answers (a pure
refactor: the oracle's bot games keep their final state hashes,
``bench/europa_bot_oracle.py``). Each shortcut is compared here with the plain computation it
replaced, at every call the bots make in the first turns of a heuristic and a planner
europa-barbarossa game, and each comparison can fail: the games give the plain computation
something to find (counted), and a planted error is seen to be caught."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from tests.bots.test_europa_speed_s17 import _value_plain

from grognard.analysis.study import Setting, play_one
from grognard.bots import heuristic as h
from grognard.bots import situation as situation_module
from grognard.bots.situation import Situation

#: the games the comparisons watch: (bots, seed, turns)
_GAMES = (("heuristic", 3, 2), ("planner", 7, 3))


@contextmanager
def _watched(method: str, check: Callable[..., Any], cls: Any = h.DefencePlan
             ) -> Iterator[None]:
    """``cls.<method>`` replaced by ``check(real, obj, *args)`` while the block runs."""
    real = getattr(cls, method)

    def watched(obj: Any, *args: Any) -> Any:
        return check(real, obj, *args)
    setattr(cls, method, watched)
    try:
        yield
    finally:
        setattr(cls, method, real)


def _play(bots: str, seed: int, turns: int) -> None:
    play_one(Setting("europa-barbarossa", {"axis": bots, "soviet": bots},
                     max_turns=turns).to_json(), seed)


def _compare_values() -> dict[str, int]:
    """Every value the defenders ask (``DefencePlan.value``: the heuristic's line and second
    look, the planner's garrisons, counter-attacks and marches) against the plain value read
    afresh; counted: the values, those read from a kept one, those kept by another unit of
    the same kind, those found changed after their hex's stack or line changed (a kept one
    forgotten), the full stacks, and the values with a garrison wanted."""
    seen = {"values": 0, "kept": 0, "shared": 0, "changed": 0, "full": 0, "wanted": 0}
    first: dict[tuple[int, int, Any], str] = {}
    last: dict[tuple[int, int, Any], float] = {}

    def check(real: Callable[..., float], plan: Any, uid: str, i: int) -> float:
        kind = plan._units.get(uid) or plan._unit(uid)
        key = (id(plan), i, kind)
        kept = kind in plan._values.get(i, {})
        got = real(plan, uid, i)
        want = _value_plain(plan, uid, i)
        assert got == want, (uid, i, got, want)
        seen["values"] += 1
        seen["full"] += want == -99.0
        seen["wanted"] += plan.want.get(i, 0) > 0
        if kept:
            seen["kept"] += 1
            seen["shared"] += first[key] != uid
        else:
            seen["changed"] += key in last and last[key] != got
            first[key] = uid
        last[key] = got
        return got

    with _watched("value", check):
        for bots, seed, turns in _GAMES:
            _play(bots, seed, turns)
    return seen


def test_the_defenders_values_kept_per_unit_kind_and_hex_equal_the_plain_values() -> None:
    """``DefencePlan.value`` (a unit kind's part on a hex kept until the hex's stack or the
    cover of its line changes; the garrison wanted and the depth read afresh) equals the
    value read afresh at every call of the defenders' placements, and the kept values are
    used (by other units of the same kind too) and forgotten when they change."""
    seen = _compare_values()
    assert all(seen.values()), seen
    assert seen["kept"] > seen["values"] // 3, seen


def test_the_defenders_values_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when the kept values are not forgotten as a hex of the line is
    covered or uncovered, and when they are not forgotten as the hex's stack changes."""
    monkeypatch.setattr(h.DefencePlan, "_forget_line", lambda self, j: None)
    with pytest.raises(AssertionError):
        _compare_values()
    monkeypatch.undo()
    real = h.DefencePlan._stack

    def stale(plan: Any, i: int) -> None:
        kept = plan._values.get(i)
        real(plan, i)
        if kept is not None:
            plan._values[i] = kept
    monkeypatch.setattr(h.DefencePlan, "_stack", stale)
    with pytest.raises(AssertionError):
        _compare_values()


def test_the_map_graphs_neighbours_are_mutual() -> None:
    """``DefencePlan._forget_line`` finds the hexes whose line holds a hex among that hex's
    neighbours: it needs every neighbour's neighbours to hold the hex back (the shipped
    Barbarossa map's graph)."""
    from grognard.engine.game import Game
    from grognard.engine.scenario import load_scenario

    ctx = Game(load_scenario("europa-barbarossa"), 1).context
    g = h._graph(ctx.scenario.map, ctx.tables)
    assert sum(len(row) for row in g.nbrs) > 20_000
    assert all(i in g.nbrs[j] for i, row in enumerate(g.nbrs) for j in row)


def _contact_plain(sit: Situation, label: str) -> bool:
    """``Situation.in_contact`` as it was (session 19): the nearest enemy hex measured."""
    return min((sit.distance(label, t) for t in sit.enemy_hexes), default=999) <= 1


def _compare_contacts() -> dict[str, int]:
    """Every ``Situation.in_contact`` the bots ask in the games against the nearest enemy
    hex measured; counted: the answers, those in contact and not, those read from a kept
    nearest distance, those whose enemy hexes the planner replaced during the decision."""
    seen = {"asked": 0, "contact": 0, "apart": 0, "nearest": 0, "replaced": 0}
    first: dict[int, Any] = {}

    def check(real: Callable[..., bool], sit: Situation, label: str) -> bool:
        kept = (label, id(sit.enemy_hexes)) in sit._nearest
        got = real(sit, label)
        assert got == _contact_plain(sit, label), (label, got)
        seen["asked"] += 1
        seen["contact" if got else "apart"] += 1
        seen["nearest"] += kept
        seen["replaced"] += first.setdefault(id(sit), sit.enemy_hexes) is not sit.enemy_hexes
        return got

    with _watched("in_contact", check, Situation):
        for bots, seed, turns in _GAMES:
            _play(bots, seed, turns)
    return seen


def test_in_contact_looked_up_among_the_enemy_hexes_coordinates_equals_the_nearest() -> None:
    """``Situation.in_contact`` (the hex and its six neighbours looked up among the enemy's
    hexes' coordinates) equals the nearest enemy hex measured at most one hex away, at every
    call of the games (some answered from a kept nearest distance)."""
    seen = _compare_contacts()
    assert all(v for k, v in seen.items() if k != "replaced"), seen


def test_in_contact_follows_the_enemy_hexes_replaced() -> None:
    """A decision whose enemy hexes are replaced (the planner keeps some of them) is answered
    from the new ones, and from the nearest distance kept for them."""
    from grognard.core.hexgrid import Hex

    sit = Situation("axis", None, {})  # type: ignore[arg-type]  # the labels' hexes given
    sit._hex = {"A": Hex(0, 0), "B": Hex(1, 0), "C": Hex(3, 0), "D": Hex(2, 0),
                "E": Hex(1, -1), "F": Hex(1, 1)}
    sit.enemy_hexes = {"B"}
    assert sit.in_contact("A") and not sit.in_contact("C")
    sit.enemy_hexes = {"C"}
    assert not sit.in_contact("A") and sit.in_contact("D")
    sit.enemy_hexes = {"E"}
    assert sit.in_contact("A") and not sit.in_contact("F")
    assert sit.nearest("B", sit.enemy_hexes) == 1 and sit.in_contact("B")
    assert sit.nearest("D", sit.enemy_hexes) == 2 and not sit.in_contact("D")


def test_in_contact_comparison_catches_a_planted_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when a neighbour's offset is wrong ((1, 1) is two hexes away)."""
    monkeypatch.setattr(situation_module, "_ADJACENT",
                        ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1)))
    with pytest.raises(AssertionError):
        _compare_contacts()


def _support_targets_plain(policy: Any, sit: Situation, cands: Any,
                           moving: Any = ()) -> list[Any]:
    """``EuropaPolicy._support_targets`` as it was (session 19): each of our units measured
    to each target; none of the ``moving`` units (session 29: their transfer is their
    flight)."""
    from grognard.bots.base import args_units

    per: dict[str, list[list[str]]] = {}
    for c in cands:
        if c.args.get("kind") == "ground_support" and isinstance(c.args.get("target"), str):
            per.setdefault(str(c.args["target"]), []).append(args_units(c.args, "units"))
    weighed = []
    for hx, lists in per.items():
        near = [u for u in sit.mine.values() if sit.distance(str(u["hex"]), hx) == 1]
        strength = sum(int(u.get("attack") or 0) for u in near)
        if strength <= 0:
            continue
        lists.sort(key=len)
        strikers = lists[0]
        fighters = [x for x in lists[-1] if x not in strikers]
        weighed.append((1.0 + policy.hex_value(sit, hx) + strength / 10, hx,
                        strikers, fighters))
    weighed.sort(key=lambda t: (-t[0], t[1]))
    used: set[str] = set(moving)
    out = []
    for w, hx, strikers, fighters in weighed:
        mine = [x for x in strikers if x not in used][:3]
        if not mine:
            continue
        escort = [x for x in fighters if x not in used][:1]
        used.update(mine + escort)
        out.append((w, hx, mine + escort))
    return out


def _compare_support() -> dict[str, int]:
    """Every air phase's ground-support targets the Europa bots plan in the games against
    the plain ones; counted: the plans, the targets chosen."""
    seen = {"plans": 0, "targets": 0}

    def check(real: Callable[..., Any], policy: Any, sit: Situation, cands: Any,
              moving: Any = ()) -> Any:
        got = real(policy, sit, cands, moving)
        assert got == _support_targets_plain(policy, sit, cands, moving)
        seen["plans"] += 1
        seen["targets"] += len(got)
        return got

    with _watched("_support_targets", check, h.EuropaPolicy):
        for bots, seed, turns in _GAMES:
            _play(bots, seed, turns)
    return seen


def test_ground_support_targets_from_our_attack_by_hex_equal_the_plain_targets() -> None:
    """EUR-23 The ground-support targets (our attack factors next to each target summed from
    a table of our units' attack by hex, not each unit measured to each target) equal the
    plain ones in every air phase of the games."""
    seen = _compare_support()
    assert seen["plans"] >= 3 and seen["targets"] > 0, seen


def test_ground_support_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when the strength is read two hexes off (the wrong neighbours)."""
    from grognard.core.hexgrid import Hex

    monkeypatch.setattr(h, "DIRECTIONS", tuple(Hex(2 * d.q, 2 * d.r) for d in h.DIRECTIONS))
    with pytest.raises(AssertionError):
        _compare_support()
