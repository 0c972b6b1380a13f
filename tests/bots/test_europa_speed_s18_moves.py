"""Issue 25, session 18: the attacker's exploitation plan made faster gives the same answers
(a pure refactor: the oracle's bot games keep their final state hashes,
``bench/europa_bot_oracle.py``). Each shortcut is compared here with the plain computation it
replaced, on the refactor oracle's recorded heuristic europa-barbarossa game, and each
comparison can fail: the game gives the plain computation something to find (counted), and a
planted error is seen to be caught."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from tests.bots.test_europa_speed_s12 import _oracle_game

from grognard.bots import europa_offence as off
from grognard.bots.heuristic import _graph
from grognard.bots.situation import Situation


def _pictures() -> list[off.Picture]:
    """The attacker's picture of both sides at every 100th command of the recorded game
    (each side's supply sources from the scenario's rules)."""
    from grognard.europa.board import europa_rules

    out = []
    for game in _oracle_game(100):
        ctx = game.context
        sources = europa_rules(ctx.scenario).section.supply_sources
        for player, enemy in (("axis", "soviet"), ("soviet", "axis")):
            view = copy.deepcopy(game.view(player))
            sit = Situation.of(ctx, view, player)
            g = _graph(sit.map, ctx.tables)
            out.append(off.Picture.of(sit, g, sources.get(player, []),
                                      sources.get(enemy, [])))
    return out


@pytest.fixture(scope="module")
def pictures() -> list[off.Picture]:
    return _pictures()


def _spots(pic: off.Picture, rnd: random.Random) -> list[int]:
    """Hexes an exploitation would place movers in: land next to the enemy or behind its
    front (the enemy's supply paths), shuffled, some repeated (a stack)."""
    g = pic.g
    near = sorted({j for t in pic.theirs for j in g.nbrs[t]
                   if j not in pic.theirs and pic.land[j]})
    deep = sorted({k for j in near for k in g.nbrs[j]
                   if k not in pic.theirs and pic.land[k]})
    got = rnd.sample(near, min(6, len(near))) + rnd.sample(deep, min(6, len(deep)))
    if got:
        got.append(got[0])
    rnd.shuffle(got)
    return got


def _compare_fields(after: Callable[[off.Picture, Any, list[int], int], Any],
                    pictures: list[off.Picture]) -> dict[str, int]:
    """``after`` (the field of our units added a few at a time, from the field before)
    against :meth:`Picture.their_field` (a new whole-map search) of every prefix, each
    picture; what the new searches found changed, counted."""
    rnd = random.Random(18)
    seen = {"steps": 0, "changed": 0, "lost": 0}
    for pic in pictures:
        spots = _spots(pic, rnd)
        field = pic.their_field()
        k = 0
        while k < len(spots):
            step = rnd.choice([1, 1, 2, 3])
            known, k = k, min(k + step, len(spots))
            field = after(pic, field, spots[:k], known)
            plain = pic.their_field(spots[:k])
            assert np.array_equal(field[0], plain[0])
            assert field[1] == plain[1]
            before = pic.their_field(spots[:k - 1]) if k > 1 else pic.their_field()
            seen["steps"] += 1
            seen["changed"] += sum(1 for a, b in zip(before[1], plain[1], strict=True)
                                   if a != b and b >= 0)
            seen["lost"] += sum(1 for a, b in zip(before[1], plain[1], strict=True)
                                if a >= 0 > b)
    return seen


def test_eur30_field_after_placements_equals_a_new_search(pictures: list[off.Picture]
                                                          ) -> None:
    """EUR-30 as the attacker sees it: the enemy's supply field once our movers stand in
    more hexes (``Picture.field_after``: the hexes they close taken out locally by
    ``field_without``) equals a new whole-map search (``their_field``), mask and every
    distance, for movers placed one to three at a time, both sides, every 100th command."""
    seen = _compare_fields(lambda pic, base, add, known: pic.field_after(base, add, known),
                           pictures)
    # hexes found farther (a path around) and hexes no longer reached at all
    assert seen["steps"] > 50 and seen["changed"] > 100 and seen["lost"] > 0, seen


def test_eur30_field_comparison_catches_a_planted_error(pictures: list[off.Picture],
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """The comparison fails when the doubtful hexes are dropped, not searched again (every
    hex whose shortest paths all ran through a closed hex then reads unreached)."""
    def planted(g: Any, dist: list[int], removed: Any) -> list[int]:
        out = list(dist)
        for i in off._doubt(g, dist, removed):
            out[i] = -1
        return out
    monkeypatch.setattr(off, "field_without", planted)
    with pytest.raises(AssertionError):
        _compare_fields(lambda pic, base, add, known: pic.field_after(base, add, known), pictures)


def _closed_plain(pic: off.Picture, mask0: Any, add: list[int],
                  cleared: int | None) -> list[int]:
    """The hexes :meth:`Picture.cut_after` took out before: the new mask built whole and
    compared with the base's."""
    return [int(i) for i in np.flatnonzero(mask0 & ~pic._their_open(add, cleared))]


def test_eur30_hexes_closed_equal_the_masks_compared(pictures: list[off.Picture]) -> None:
    """EUR-30 The hexes a cut check takes out of the base field (``Picture._closed``: our
    new units' hexes and their neighbours the enemy does not hold, a cleared hex and its
    neighbours) equal the difference of the two masks built whole, for our units added to a
    prefix and for an enemy hex cleared, both sides, every 100th command."""
    rnd = random.Random(181)
    closed = 0
    for pic in pictures:
        spots = _spots(pic, rnd)
        for k in range(len(spots) + 1):
            for p in {0, k // 2, k}:
                mask0 = pic._their_open(spots[:p])
                got = pic._closed(mask0, spots[:k])
                assert got == _closed_plain(pic, mask0, spots[:k], None)
                closed += len(got)
        mask0 = pic._their_open()
        for t in sorted(pic.theirs)[:15]:
            got = pic._closed(mask0, [], t)
            assert got == _closed_plain(pic, mask0, [], t)
            closed += len(got)
    assert closed > 500


def test_eur30_hexes_closed_comparison_catches_a_planted_error(
        pictures: list[off.Picture], monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when a cleared hex's neighbours held by the enemy are closed
    too (the enemy's own units do not stop its trace)."""
    def planted(self: off.Picture, mask0: Any, add: Any, cleared: Any = None) -> list[int]:
        got = set(_closed_plain(self, mask0, list(add), cleared))
        for i in [*add, *([cleared] if cleared is not None else [])]:
            got.update(j for j in self.g.nbrs[i] if mask0[j])
        return sorted(got)
    monkeypatch.setattr(off.Picture, "_closed", planted)
    with pytest.raises(AssertionError):
        test_eur30_hexes_closed_equal_the_masks_compared(pictures)


def _offence_runs(plain: bool, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The planner Axis's ``offence_moves`` at the first position (every 10th command) of
    each Axis movement and exploitation phase of the recorded game; with ``plain``, the
    exploitation plan's field found by a new whole-map search after each placement."""
    from grognard.bots.base import LazyView, LegalActions, Seat
    from grognard.bots.planner import PlannerBot

    if plain:
        monkeypatch.setattr(off.Picture, "field_after",
                            lambda self, base, add, known: self.their_field(add))
    out: list[Any] = []
    done: set[tuple[Any, ...]] = set()
    for game in _oracle_game(10):
        at = (game.state["turn"], game.state["phase"])
        if game.phase.player != "axis" or game.phase.name not in ("movement", "exploitation") \
                or at in done:
            continue
        done.add(at)
        policy = PlannerBot(Seat.of(game, "axis")).policy
        sit = policy.situation(LazyView(game, "axis"), game)
        out.append(policy.offence_moves(sit, LegalActions(game, "axis")))  # type: ignore[attr-defined]
    return out


def test_offence_plans_with_the_field_kept_equal_the_plans_with_new_searches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The attacker's whole plan (``offence_moves``: Schwerpunkte, sieges, exploitation
    cuts, the free units' scores), the enemy's supply field carried from placement to
    placement, equals the plan with a new whole-map search after each placement, score for
    score, in order."""
    kept = _offence_runs(False, monkeypatch)
    plain = _offence_runs(True, monkeypatch)
    assert kept == plain
    # exploitation cuts placed (150+), more than one in a plan: a carried field was read
    assert any(sum(1 for s, _c in run if s >= 150) > 1 for run in kept)



def _legal_moves_plain(ctx: Any, state: Any, player: str, refused: list[int] | None = None
                       ) -> list[Any]:
    """The EUR-17 move lister as it was (session 17): each reachable hex of each unit's range
    asked in turn whether the unit fits (EUR-21: the side's room there, by label); the hexes
    refused for room counted into ``refused``."""
    from fractions import Fraction

    from grognard.engine.commands import Command
    from grognard.europa import movement as mv
    from grognard.europa.board import on_map_hex

    movers: dict[Any, list[str]] = {}
    for uid, u in sorted(state["units"].items()):
        if (u["side"] == player and u["status"] == "active" and u["hex"] is not None
                and u["type"] in mv._GROUND and mv.mp_left(u) > 0):
            movers.setdefault(mv.move_class(u), []).append(uid)
    out = []
    have = mv._side_res(state, player)
    limits = mv._limit_list(ctx.scenario.map)

    def room(label: str) -> Any:  # EUR-21 the REs the side may still bring into a hex
        if not mv._stacking_checked(ctx):
            return Fraction(10**9)
        got = have.get(label)
        lim = limits[ctx.scenario.map.index_of_label(label)]
        return lim if got is None else lim - got
    for cls, uids in movers.items():
        units = [state["units"][uid] for uid in uids]
        ranges = mv._graph(ctx, state, player, cls).ranges([on_map_hex(u) for u in units],
                                                           [mv.mp_left(u) for u in units])
        for uid, u, r in zip(uids, units, ranges, strict=True):
            need = Fraction(u["re_size"])
            for h in r.labels():
                if h == u["hex"]:
                    continue
                if room(h) >= need:
                    out.append(Command("move", player, {"unit": uid, "to": h}))
                elif refused is not None:
                    refused[0] += 1
    return out


def _compare_move_lists(lister: Callable[[Any, Any, str], list[Any]]) -> dict[str, int]:
    """``lister`` against the plain lister at every 10th command of the recorded game, both
    sides, in a movement or exploitation phase (fresh caches each time); what the plain one
    listed, and the reachable hexes it refused for stacking (EUR-21), counted."""
    seen = {"listed": 0, "refused": 0}
    for game in _oracle_game(10):
        if game.phase.name not in ("movement", "exploitation"):
            continue
        ctx, state = game.context, game.state
        for player in ("axis", "soviet"):
            refused = [0]
            ctx.cache.clear()
            plain = _legal_moves_plain(ctx, state, player, refused)
            ctx.cache.clear()
            assert lister(ctx, state, player) == plain
            seen["listed"] += len(plain)
            seen["refused"] += refused[0]
    return seen


def test_eur17_move_lister_picking_fitting_hexes_at_once_equals_the_plain_lister() -> None:
    """EUR-17/EUR-21 The move lister, which picks the hexes a unit fits in from its range at
    once (a per-size mask: the limits compared as ints, the side's occupied hexes one by
    one), lists exactly the moves of the plain lister that asks each hex's room, in the same
    order, both sides, every 10th command of the recorded game's movement phases."""
    from grognard.europa.movement import legal_moves

    seen = _compare_move_lists(legal_moves)
    # moves listed, and reachable hexes refused for room (the check can refuse)
    assert seen["listed"] > 10_000 and seen["refused"] > 0, seen


def test_eur17_move_lister_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when the per-size mask forgets the side's own units (only the
    hexes' limits compared)."""
    from grognard.europa import movement as mv

    def planted(ctx: Any, state: Any, side: str) -> Any:
        limits = np.asarray(mv._limit_list(ctx.scenario.map), dtype=np.int64)
        return lambda raw: limits >= float(raw)
    monkeypatch.setattr(mv, "_fits", planted)
    with pytest.raises(AssertionError):
        _compare_move_lists(mv.legal_moves)


def _compare_ranges(lister: Callable[[Any, Any, str], Any] | None = None) -> dict[str, int]:
    """Each moving unit's range as the move lister keeps it (for the move's verify: its
    hexes, costs and cheapest paths) against its own search among all the side's units
    (``MovementGraph.ranges`` of every unit, as session 17 listed), at every 10th command of
    the recorded game's movement phases, both sides; the units that shared a search,
    counted."""
    from grognard.europa import movement as mv
    from grognard.europa.board import on_map_hex

    seen = {"units": 0, "shared": 0}
    for game in _oracle_game(10):
        if game.phase.name not in ("movement", "exploitation"):
            continue
        ctx, state = game.context, game.state
        for player in ("axis", "soviet"):
            ctx.cache.clear()
            mv._side(ctx, state, player).ranges.clear()
            (lister or mv.legal_moves)(ctx, state, player)
            movers: dict[Any, list[str]] = {}
            for uid, u in sorted(state["units"].items()):
                if (u["side"] == player and u["status"] == "active" and u["hex"] is not None
                        and u["type"] in mv._GROUND and mv.mp_left(u) > 0):
                    movers.setdefault(mv.move_class(u), []).append(uid)
            for cls, uids in movers.items():
                units = [state["units"][uid] for uid in uids]
                plain = mv._graph(ctx, state, player, cls).ranges(
                    [on_map_hex(u) for u in units], [mv.mp_left(u) for u in units])
                kept = [ctx.cache[f"europa.range.{uid}"] for uid in uids]
                for a, b in zip(kept, plain, strict=True):
                    assert (a.start, a.mp, a.move_class) == (b.start, b.mp, b.move_class)
                    assert np.array_equal(a.hexes, b.hexes)
                    assert np.array_equal(a.cost, b.cost)
                    assert np.array_equal(a.pred, b.pred)
                seen["units"] += len(uids)
                seen["shared"] += len(uids) - len({id(r) for r in kept})
    return seen


def test_eur17_ranges_searched_once_per_stack_equal_each_units_own_search() -> None:
    """EUR-17 The move lister searches a stack's units of one class with the same MPs left
    once: each unit's kept range (hexes, costs and the cheapest paths, ties included) equals
    the range its own search finds among all the side's units."""
    seen = _compare_ranges()
    assert seen["units"] > 1000 and seen["shared"] > 100, seen


def test_eur17_ranges_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when the lister shares a search between units in different
    hexes (every unit searched from the first hex it asks)."""
    from grognard.europa import movement as mv

    def planted(ctx: Any, state: Any, player: str) -> Any:
        first: list[str] = []

        def one_hex(u: Any) -> str:
            if not first:
                first.append(str(u["hex"]))
            return first[0]
        with monkeypatch.context() as mp:
            mp.setattr(mv, "on_map_hex", one_hex)
            return mv.legal_moves(ctx, state, player)
    with pytest.raises(AssertionError):
        _compare_ranges(planted)
