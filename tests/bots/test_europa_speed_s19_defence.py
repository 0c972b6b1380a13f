"""Issue 25, session 19: the defender's line made faster gives the same answers (a pure
refactor: the oracle's bot games keep their final state hashes,
``bench/europa_bot_oracle.py``). Each shortcut is compared here with the plain computation it
replaced, on the refactor oracle's recorded heuristic europa-barbarossa game replayed command
by command, and each comparison can fail: the game gives the plain computation something to
find (counted), and a planted error is seen to be caught."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from tests.bots.test_europa_speed_s12 import _oracle_game
from tests.bots.test_europa_speed_s17 import _value_plain

from grognard.bots import europa_offence as offence
from grognard.bots import heuristic as h
from grognard.bots.situation import Situation
from grognard.engine.commands import Command


def _boards() -> Iterator[tuple[Any, Any, dict[str, Any], dict[str, int]]]:
    """(situation, the defender's board, its ground units that may move, their hexes) at the
    first position (every 10th command) of each movement phase of the recorded game, the
    moving side defending."""
    from grognard.bots.base import LazyView, LegalActions, Seat

    done: set[tuple[Any, ...]] = set()
    for game in _oracle_game(10):
        at = (game.state["turn"], game.state["phase"])
        if game.phase.name != "movement" or at in done:
            continue
        done.add(at)
        player = game.phase.player
        policy = h.HeuristicBot(Seat.of(game, player)).policy
        sit = policy.situation(LazyView(game, player), game)
        board = h.defence_board(sit, LegalActions(game, player),
                                policy.supply_sources(sit, player))
        if board is None:
            continue
        idx = sit.map.index_of_label
        ground = {uid: u for uid, u in sit.mine.items()
                  if str(u.get("type")) not in offence.NOT_GROUND and uid in board.moves}
        yield sit, board, ground, {uid: idx(str(u["hex"])) for uid, u in ground.items()}


def _place_on_line_plain(plan: Any, ground: Mapping[str, Mapping[str, Any]],
                         placed: dict[str, int], at: Mapping[str, int],
                         moves: Mapping[str, Mapping[int, Command]],
                         enemy_at: Mapping[int, int]) -> list[str]:
    """``heuristic.place_on_line`` as it was (session 18): what leaving costs asked of every
    option."""
    rest = sorted((uid for uid in ground if uid not in placed),
                  key=lambda x: (str(ground[x].get("type")) in offence.MECH,
                                 enemy_at.get(at[x], 99), x))
    for uid in rest:
        options = [at[uid], *moves.get(uid, {})]
        best = max(options, key=lambda i: (plan.value(uid, i) - plan.leaving(uid, at[uid], i),
                                           i == at[uid], -i))
        plan.place(uid, best)
        placed[uid] = best
    return rest


def _check_values(plan: Any, ground: Mapping[str, Any], where: Mapping[str, int],
                  moves: Mapping[str, Mapping[int, Command]], seen: dict[str, int]) -> None:
    """Every value of every unit's every option equals the plain value (counted)."""
    for uid in ground:
        for i in [where[uid], *moves[uid]]:
            want = _value_plain(plan, uid, i)
            assert plan.value(uid, i) == want
            seen["values"] += 1
            seen["full"] += want == -99.0


def _compare_placements(place: Callable[..., list[str]]) -> dict[str, int]:
    """``place`` against the plain ``place_on_line`` on each movement phase's board (two
    copies of the plan, some objectives wanting garrisons), then every value of every unit's
    every option against the plain value with the line placed, and again after every other
    unit is taken off (``unplace``: the kept stacks follow); what the plain ones found,
    counted."""
    seen = {"phases": 0, "moved": 0, "left_lone": 0, "stacked": 0, "values": 0, "full": 0,
            "unplaced": 0}
    for _sit, board, ground, where in _boards():
        plain_plan, plan = copy.copy(board.plan), board.plan
        plain_plan.stacks, plain_plan.covered = {}, {}
        plain_plan._stacked, plain_plan._values = {}, {}
        want = {i: 2 for i in sorted(board.plan.front)[:5]}
        plain_plan.want, plan.want = dict(want), dict(want)
        plain_placed: dict[str, int] = {}
        placed: dict[str, int] = {}
        # a few units stand first (as the garrisons and pinned units do)
        for uid in sorted(ground)[::7]:
            for p, pl in ((plain_plan, plain_placed), (plan, placed)):
                p.place(uid, where[uid])
                pl[uid] = where[uid]
        got = place(plan, ground, placed, where, board.moves, board.enemy_at)
        assert got == _place_on_line_plain(plain_plan, ground, plain_placed, where,
                                           board.moves, board.enemy_at)
        assert placed == plain_placed and plan.stacks == plain_plan.stacks
        seen["moved"] += sum(1 for u, i in placed.items() if i != where[u])
        seen["left_lone"] += sum(1 for u in got if plan.leaving(u, where[u], -1) > 0)
        seen["stacked"] += sum(1 for s in plan.stacks.values() if len(s) > 1)
        _check_values(plan, ground, where, board.moves, seen)
        for uid in sorted(placed)[::2]:
            plan.unplace(uid, placed[uid])
            seen["unplaced"] += 1
        _check_values(plan, ground, where, board.moves, seen)
        seen["phases"] += 1
    return seen


def test_the_line_placed_with_leaving_asked_once_per_unit_and_kept_stacks_equals_the_plain(
) -> None:
    """The defender's line (``place_on_line``: what leaving its hex costs asked once per
    unit; each stack's REs and defense factors kept as units are placed and taken off)
    places every unit where the plain placement does, in the same order, and every value
    after it equals the value read afresh."""
    seen = _compare_placements(h.place_on_line)
    assert seen["phases"] >= 2 and all(seen.values()), seen


def test_the_line_comparison_catches_a_planted_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparisons fail when the kept stack is not updated as a unit is taken off, and
    when leaving is charged to the unit's own hex too."""
    monkeypatch.setattr(h.DefencePlan, "unplace", lambda self, uid, i: self.stacks[i].remove(uid))
    with pytest.raises(AssertionError):
        _compare_placements(h.place_on_line)
    monkeypatch.undo()

    def charged(plan: Any, ground: Any, placed: dict[str, int], at: Mapping[str, int],
                moves: Any, enemy_at: Any) -> list[str]:
        rest = sorted((uid for uid in ground if uid not in placed),
                      key=lambda x: (str(ground[x].get("type")) in offence.MECH,
                                     enemy_at.get(at[x], 99), x))
        for uid in rest:
            cost = plan.leaving(uid, at[uid], -1)
            best = max([at[uid], *moves.get(uid, {})],
                       key=lambda i: (plan.value(uid, i) - cost, i == at[uid], -i))
            plan.place(uid, best)
            placed[uid] = best
        return rest
    with pytest.raises(AssertionError):
        _compare_placements(charged)


def _facing_plain(plan: Any, i: int) -> tuple[float, float, float]:
    """``DefencePlan.facing`` as it was (session 18): the rivers counted by sums."""
    g, d = plan.g, plan.enemy_at.get(i, 9)
    facing = [s for j, s in zip(g.nbrs[i], g.sides[i], strict=True)
              if plan.enemy_at.get(j, 9) < d]
    major = sum(1 for s in facing if s == 2) / len(facing) if facing else 0.0
    minor = sum(1 for s in facing if s == 1) / len(facing) if facing else 0.0
    return (major, minor, 1.0 - 0.5 * major - 0.2 * minor)


def _graph_plain(m: Any, tables: Any) -> h._MapGraph:
    """``heuristic._graph`` as it was (session 18): the hexside features as flags."""
    from grognard.core.mapdata import CityClass, Fortification, HexsideFeature, Terrain
    from grognard.core.stacking import europa_revised_stacking, stacking_limits

    block = HexsideFeature.SEA | HexsideFeature.LAKE | HexsideFeature.IMPASSABLE
    limits = stacking_limits(m, europa_revised_stacking())
    nbrs, sides, water, quality = [], [], [], []
    for i in range(m.n):
        lo, hi = int(m.indptr[i]), int(m.indptr[i + 1])
        nbrs.append([int(j) for j in m.indices[lo:hi]])
        row = []
        for f in m.edge_features[lo:hi]:
            f = HexsideFeature(int(f))
            row.append(-1 if f & block else 2 if f & HexsideFeature.MAJOR_RIVER
                       else 1 if f & HexsideFeature.RIVER else 0)
        sides.append(row)
        hx = m.hex(i)
        t = m.terrain_of(hx)
        water.append(t in (Terrain.SEA, Terrain.LAKE))
        key = (str(t.value), m.fortification_of(hx) is not Fortification.NONE,
               any(CityClass.MAJOR_CITY in c.classes for c in m.cities_at(hx)))
        mult, add = h._terrain_effects(tables, key)
        quality.append((mult, add, int(limits[i])))
    return h._MapGraph(nbrs, sides, water, quality)


def test_the_map_graph_read_with_plain_ints_equals_the_flags_reading() -> None:
    """The defender's map graph (``_graph``: the hexside features read as ints) equals the
    graph read with the feature flags, hex by hex, on the shipped Barbarossa map; and each
    hex's facing rivers (``DefencePlan.facing``, counted by ``list.count``) equal the sums
    on every movement phase's board of the recorded game."""
    ctx = next(_oracle_game(1)).context
    sc, tables = ctx.scenario, ctx.tables
    got, plain = h._graph(sc.map, tables), _graph_plain(sc.map, tables)
    assert got == plain
    sides = [s for row in plain.sides for s in row]
    # the map gives every kind of hexside the graph tells apart
    assert {-1, 0, 1, 2} <= set(sides)
    faced = 0
    for _sit, board, _ground, _where in _boards():
        for i in sorted(board.enemy_at):
            want = _facing_plain(board.plan, i)
            assert board.plan.facing(i) == want
            faced += want[0] > 0 or want[1] > 0
    assert faced > 100


def test_the_map_graph_comparison_catches_a_planted_error() -> None:
    """The graph comparison fails when a major river is read as a minor one."""
    ctx = next(_oracle_game(1)).context
    sc, tables = ctx.scenario, ctx.tables
    got = copy.deepcopy(h._graph(sc.map, tables))
    got.sides = [[1 if s == 2 else s for s in row] for row in got.sides]
    assert got != _graph_plain(sc.map, tables)


def _occupants_plain(units: Mapping[str, Any], hexes: Any) -> dict[str, set[str]]:
    """``europa.victory._occupants`` as it was (session 18): every unit's fields read."""
    from grognard.europa.victory import HOLDING_TYPES

    out: dict[str, set[str]] = {}
    for u in units.values():
        hx = u.get("hex")
        if hx in hexes and u.get("status") == "active" and u.get("type") in HOLDING_TYPES:
            out.setdefault(hx, set()).add(str(u["side"]))
    return out


def _compare_occupants(occupants: Callable[[Mapping[str, Any], Any], Any]
                       ) -> dict[str, int]:
    """``occupants`` against the plain scan at every 10th command of the recorded game, for
    the victory hexes and for every hex some unit stands in; what the plain one found,
    counted."""
    from grognard.europa.victory import HELD, HOLDING_TYPES

    seen = {"positions": 0, "held": 0, "dropped": 0, "contested": 0}
    for game in _oracle_game(10):
        held = game.state.get(HELD) or {}
        # the game's units, plus in a few victory hexes what the scan must leave out or
        # count twice (the recorded game has none of it in those hexes): a unit not active,
        # a supply unit, and a unit of each side
        units = dict(game.state["units"])
        for k, hx in enumerate(sorted(held)[:4]):
            units[f"planted-out-{k}"] = {"hex": hx, "status": "eliminated", "type": "infantry",
                                         "side": "axis"}
            units[f"planted-supply-{k}"] = {"hex": hx, "status": "active", "type": "supply",
                                            "side": "axis"}
            if k % 2:
                for side in ("axis", "soviet"):
                    units[f"planted-{side}-{k}"] = {"hex": hx, "status": "active",
                                                    "type": "infantry", "side": side}
        every = {u.get("hex") for u in units.values()} - {None}
        for hexes in (held, every):
            want = _occupants_plain(units, hexes)
            assert occupants(units, hexes) == want
            seen["held"] += len(want)
            seen["contested"] += sum(1 for x in want.values() if len(x) > 1)
            # units in the hexes the scan leaves out (air units, units not active)
            seen["dropped"] += sum(1 for u in units.values() if u.get("hex") in hexes and (
                u.get("status") != "active" or u.get("type") not in HOLDING_TYPES))
        # a position a Situation reads too: its split of the view equals the plain split
        for player in ("axis", "soviet"):
            view = game.view(player)
            sit = Situation.of(game.context, view, player)
            mine = {uid: u for uid, u in view["units"].items() if u.get("hex") is not None
                    and u.get("status", "active") == "active" and u.get("side") == player}
            assert sit.mine == mine
            assert sit.enemy_hexes == {str(u["hex"]) for u in view["units"].values()
                                       if u.get("hex") is not None
                                       and u.get("status", "active") == "active"
                                       and u.get("side") != player}
            assert sum(sit.friendly_hexes.values()) == len(mine)
        seen["positions"] += 1
    return seen


def test_victory_occupants_listed_from_the_units_in_the_hexes_equal_the_plain_scan() -> None:
    """Who stands in each victory hex (``_occupants``, the units in the hexes picked
    first) equals the scan of every unit's fields, at every 10th command of the game."""
    from grognard.europa.victory import _occupants

    seen = _compare_occupants(_occupants)
    assert seen["positions"] >= 50 and all(seen.values()), seen


def test_victory_occupants_comparison_catches_a_planted_error() -> None:
    """The comparison fails when a unit of any type (an air unit) counts as an occupant."""
    def planted(units: Mapping[str, Any], hexes: Any) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for u in units.values():
            if u.get("hex") in hexes and u.get("status") == "active":
                out.setdefault(u["hex"], set()).add(str(u["side"]))
        return out
    with pytest.raises(AssertionError):
        _compare_occupants(planted)


def _searches_plain(sit: Situation, board: Any
                    ) -> tuple[dict[int, int], set[int], dict[int, int], set[int]]:
    """The board's searches as session 18 asked them (``offence.bfs`` with a test per
    hex): the enemy's distance (up to 9), the hexes that trace to our sources past the
    enemy's ZOCs, the distance to them; and the hexes tracing with the ZOCs not counted."""
    g, land, enemy_hexes = board.g, board.land, board.enemy_hexes
    idx = sit.map.index_of_label
    enemy_at = {i: d for i, d in offence.bfs(g, list(enemy_hexes), lambda j: land[j]).items()
                if d <= 9}
    zoc = {j for i, u in board.enemy if int(u.get("zoc_class", 1) or 0) > 0 for j in g.nbrs[i]}
    ours = {idx(str(u["hex"])) for u in sit.mine.values()
            if str(u.get("type")) not in offence.NOT_GROUND}
    table = sit.context.scenario.rules.table.get("supply_sources", {}) or {}
    starts = [idx(str(x)) for x in table.get(sit.player, []) or []]
    safe = set(offence.bfs(g, starts, lambda j: land[j] and j not in enemy_hexes
                           and (j not in zoc or j in ours)))
    to_safe = offence.bfs(g, list(safe), lambda j: land[j] and j not in enemy_hexes)
    past = set(offence.bfs(g, starts, lambda j: land[j] and j not in enemy_hexes))
    return enemy_at, safe, to_safe, past


def _compare_searches() -> dict[str, int]:
    """Each movement phase's board (``defence_board``: its whole-map searches on masks)
    against the searches asked hex by hex (:func:`_searches_plain`): the same hexes and
    distances in the same order; what the plain ones found, counted."""
    seen = {"phases": 0, "near": 0, "safe": 0, "pocket": 0, "zoc_cut": 0}
    for sit, board, _ground, _where in _boards():
        enemy_at, safe, to_safe, past = _searches_plain(sit, board)
        assert list(board.enemy_at.items()) == list(enemy_at.items())
        assert board.safe == safe and board.plan.safe == safe
        assert list(board.plan.to_safe.items()) == list(to_safe.items())
        seen["near"] += len(enemy_at)
        seen["safe"] += len(safe)
        seen["pocket"] += sum(1 for d in to_safe.values() if d > 0)
        seen["zoc_cut"] += len(past - safe)
        seen["phases"] += 1
    return seen


def test_the_boards_searches_on_masks_equal_the_searches_hex_by_hex() -> None:
    """The defender's board asks its three whole-map searches (the enemy's distance, the
    hexes tracing to our supply sources past the enemy's ZOCs, EUR-30, and the distance to
    them) on masks made once: the same hexes, distances and order as the searches testing
    each hex."""
    seen = _compare_searches()
    assert seen["phases"] >= 2 and all(seen.values()), seen


def test_the_boards_searches_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when the board's mask lets the searches cross lakes and seas."""
    real = offence.graph_arrays

    def planted(g: Any) -> tuple[Any, Any]:
        nbr, land = real(g)
        wet = land.copy()
        wet[:-1] = True
        return nbr, wet
    monkeypatch.setattr(offence, "graph_arrays", planted)
    with pytest.raises(AssertionError):
        _compare_searches()


def _compare_distances(measure: Callable[[Situation, str, str], int]) -> int:
    """``measure`` against ``core.hexgrid.distance`` from each unit's hex to every 7th
    other unit's hex, at every 100th command of the recorded game (both sides); the pairs
    compared."""
    from grognard.core.hexgrid import distance

    pairs = 0
    for game in _oracle_game(100):
        for player in ("axis", "soviet"):
            sit = Situation.of(game.context, game.view(player), player)
            labels = sorted({str(u["hex"]) for u in game.state["units"].values()
                             if u.get("hex") is not None})
            for a in labels:
                for b in labels[::7]:
                    want = distance(sit.map.layout.from_label(a), sit.map.layout.from_label(b))
                    assert measure(sit, a, b) == want
                    pairs += 1
    return pairs


def test_situation_distance_read_in_place_equals_the_hex_distance() -> None:
    """``Situation.distance`` (the hexes' distance read in place, no calls) equals
    ``core.hexgrid.distance`` of the labels' hexes."""
    assert _compare_distances(Situation.distance) > 10000


def test_situation_distance_comparison_catches_a_planted_error() -> None:
    """The comparison fails when a distance along one axis is measured one short."""
    def planted(sit: Situation, a: str, b: str) -> int:
        got = sit.distance(a, b)
        ha, hb = sit.hex(a), sit.hex(b)
        return got - 1 if ha.q == hb.q and ha.r != hb.r else got
    with pytest.raises(AssertionError):
        _compare_distances(planted)
