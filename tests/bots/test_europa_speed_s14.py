"""Issue 25 item 5, session 14: the Europa bots made faster give the same answers (a pure
refactor: the oracle's bot games keep their final state hashes, ``bench/europa_bot_oracle.py``).
Each shortcut is compared here with the plain computation it replaced, on real
europa-barbarossa positions (the refactor oracle's recorded heuristic game every 100 commands,
both sides), and each comparison can fail: the positions give the plain computation something
to find."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from tests.bots.test_europa_speed_s12 import SOURCES, _oracle_game

from grognard.bots import europa_offence as off
from grognard.bots.heuristic import _far_and_behind, _far_and_behind_plain, _graph
from grognard.bots.situation import Situation
from grognard.engine.commands import Command
from grognard.europa.board import on_map, unit_json


@pytest.fixture(scope="module")
def positions() -> list[dict[str, Any]]:
    """Both sides' views of the oracle's heuristic game at commands 100, 200, ... (copies),
    with the context and a copy of the state."""
    return [{p: (game.context, copy.deepcopy(game.view(p)), copy.deepcopy(game.state))
             for p in ("axis", "soviet")} for game in _oracle_game(100)]


def test_far_and_behind_on_arrays_equal_the_hex_by_hex_count(positions):
    """The defender's board (``heuristic.defence_board``): each candidate hex's distance to
    our nearest supply source and the enemy mech units within six hexes nearer our sources,
    on arrays (``_far_and_behind``) and hex by hex (``_far_and_behind_plain``), for every land
    hex of the map, both sides, every position: the same dicts in the same order."""
    raided = 0
    for pos in positions:
        for player, (ctx, view, _state) in pos.items():
            sit = Situation.of(ctx, view, player)
            g = _graph(sit.map, ctx.tables)
            m = sit.map
            enemy = [(m.index_of_label(str(u["hex"])), u) for u in sit.others
                     if str(u.get("type")) not in off.NOT_GROUND]
            cands = [i for i in range(m.n) if not g.water[i]][::3]
            got = _far_and_behind(sit, cands, list(SOURCES[player]), enemy)
            want = _far_and_behind_plain(sit, cands, list(SOURCES[player]), enemy)
            assert got == want
            assert list(got[0].items()) == list(want[0].items())
            assert list(got[1].items()) == list(want[1].items())
            raided += len(want[1])
            assert _far_and_behind(sit, cands, [], enemy) == ({}, {})
    assert raided > 50  # enemy armor stood behind some hexes: the count was tested


def test_eur09_attack_model_defenders_from_the_hex_index_equal_a_scan(positions):
    """EUR-09 The ATTACK.json model's defenders (``combat.commands.attack_json``, now read
    from the position's units-by-hex index) are every enemy unit in the hex in id order, as a
    scan of the units on the map gives them: every enemy hex next to each side's units, on the
    state and on the side's view, every position."""
    from grognard.europa.choices import adjacent_enemy_hexes
    from grognard.europa.combat.commands import attack_json

    checked = 0
    for pos in positions:
        for player, (ctx, view, state) in pos.items():
            for s in (state, view):
                ctx.cache.clear()
                for target, units in sorted(adjacent_enemy_hexes(ctx, s, player).items()):
                    cmd = Command("attack", player, {"attackers": [units[0][0]],
                                                     "defender_hex": target})
                    try:
                        raw = attack_json(ctx, s, player, cmd.args)
                    except Exception:
                        continue
                    want = [unit_json(uid, u) for uid, u in on_map(s)
                            if u["hex"] == target and u["side"] != player]
                    assert raw["defenders"] == want
                    checked += 1
    assert checked > 100


def test_eur30_cut_found_locally_equals_a_new_search(positions):
    """EUR-30 as the attacker sees it: the enemy strength cut off by clearing a hex next to
    ours or by adding our units (``Picture.cut_after``: the hexes a removal loses, found from
    the field before it by ``lost_by_removing``) equals ``cut_worth`` of a new whole-map
    search (``their_supplied``), every position, both sides; and the hexes lost by removing
    random sets of hexes (up to a band across the map) are the ones a new search no longer
    reaches (all of them, and those the enemy's units stand in)."""
    import random

    cuts = big = 0
    rnd = random.Random(14)
    for pos in positions:
        for player, (ctx, view, _state) in pos.items():
            sit = Situation.of(ctx, view, player)
            g = _graph(sit.map, ctx.tables)
            enemy = "soviet" if player == "axis" else "axis"
            pic = off.Picture.of(sit, g, SOURCES[player], SOURCES[enemy])
            field0 = pic.their_field()
            assert pic.cut_of(field0) == pic.cut_worth(pic.their_supplied())
            front = sorted(t for t in pic.theirs if any(j in pic.ours for j in g.nbrs[t]))
            for t in front[:12]:
                want = pic.cut_worth(pic.their_supplied(cleared=t))
                assert pic.cut_after(field0, cleared=t) == want
                assert pic.cut_by_clearing(t) == max(
                    0.0, want - pic.cut_worth(pic.their_supplied())
                    - sum(off.view_factor(u, "defense") for u in pic.theirs.get(t, [])))
                cuts += want > pic.cut_of(field0)
            spots = sorted(j for t in front for j in g.nbrs[t]
                           if j not in pic.theirs and pic.land[j])[:8]
            for k in range(1, len(spots)):
                base = pic.their_field(spots[:k - 1])
                add = spots[:k + 1]
                assert pic.cut_after(base, add) == pic.cut_worth(pic.their_supplied(add=add))
            mask0, dist = field0
            reached = [i for i, d in enumerate(dist) if d >= 0]
            for _k in range(6):
                removed = set(rnd.sample(reached, rnd.choice([1, 5, 40, 300])))
                if rnd.random() < 0.5:  # a band of rows across the map: a real cut
                    r0 = rnd.randrange(int(sit.map.r.min()), int(sit.map.r.max()))
                    removed |= {i for i in reached if r0 <= int(sit.map.r[i]) < r0 + 2}
                mask = mask0.copy()
                mask[sorted(removed)] = False
                now = set(off.bfs_mask(g, pic.their_sources, mask))
                lost = off.lost_by_removing(g, dist, removed)
                assert lost == set(reached) - now
                theirs = set(pic.theirs)
                assert off.lost_by_removing(g, dist, removed, theirs) == lost & theirs
                big += len(lost) > len(removed) + 50
    assert cuts > 0  # some clearing cut enemy units off: the local search was tested
    assert big > 0  # some removal lost far more than the hexes removed


def test_eur33_returning_unit_refused_where_the_enemy_stands_as_a_scan_finds(positions):
    """EUR-33 A returning unit is placed at a supply source the enemy does not hold (the
    check now reads the position's units-by-hex index, not every unit): verify's placement
    check (``supply.commands._placement``) on
    each source equals a scan of every unit, both sides, every position, as it stands and
    with an enemy unit moved onto the source (refused: the check can fail)."""
    from grognard.core.errors import GrognardError
    from grognard.europa.board import europa_rules
    from grognard.europa.supply.commands import _candidate, _placement

    held = seen = 0
    for pos in positions[::3]:
        for player, (ctx, _view, state) in pos.items():
            sources = europa_rules(ctx.scenario).section.supply_sources.get(player, [])
            uid = min(uid for uid, u in state["units"].items() if u["side"] == player)
            foe = min(uid for uid, u in state["units"].items()
                      if u["side"] != player and u["status"] == "active" and u["hex"])
            for h in sources:
                for move in (False, True):
                    s = copy.deepcopy(state)
                    s["units"][uid].update({"status": "eliminated", "hex": None})
                    if move:
                        s["units"][foe]["hex"] = h
                    scan = any(u["hex"] == h and u["side"] != player
                               and u["status"] == "active" for u in s["units"].values())
                    held += scan
                    ctx.cache.clear()
                    cmd = Command("take_replacement", player,
                                  {"unit": uid, "action": "return_cadre", "hex": h})
                    try:
                        _placement(ctx, s, cmd, _candidate(ctx, s, cmd)[0])
                        why = ""
                    except GrognardError as exc:
                        why = str(exc)
                    assert ("held by the enemy" in why) == scan
                    seen += 1
    assert seen > 20
    assert held > 10


def test_defence_plan_facing_kept_per_hex_equals_a_fresh_count():
    """The defender's plan (``heuristic.DefencePlan.value``): the hexsides of a hex facing
    the enemy, kept per hex and plan (``DefencePlan.facing``), equal a fresh count from the
    plan's enemy distances, asked twice (the second from the memo), on every hex the plan
    scores, the Soviets' movement phases of the oracle's game; rivers face the enemy
    somewhere (the count can fail)."""
    from grognard.bots.base import LegalActions
    from grognard.bots.heuristic import defence_board

    rivers = boards = 0
    for game in _oracle_game(100):
        if game.phase.name != "movement" or "soviet" not in game.active():
            continue
        sit = Situation.of(game.context, game.view("soviet"), "soviet")
        board = defence_board(sit, LegalActions(game, "soviet"), SOURCES["soviet"])
        if board is None:
            continue
        boards += 1
        plan, g = board.plan, board.g
        for _twice in range(2):
            for i in sorted({i for opts in board.moves.values() for i in opts}):
                d = plan.enemy_at.get(i, 9)
                facing = [s for j, s in zip(g.nbrs[i], g.sides[i], strict=True)
                          if plan.enemy_at.get(j, 9) < d]
                major = sum(1 for s in facing if s == 2) / len(facing) if facing else 0.0
                minor = sum(1 for s in facing if s == 1) / len(facing) if facing else 0.0
                assert plan.facing(i) == (major, minor, 1.0 - 0.5 * major - 0.2 * minor)
                rivers += major > 0
    assert boards > 0
    assert rivers > 0


def test_eur33_replacement_pools_kept_per_position_equal_fresh_ones(positions):
    """EUR-33 The RE pools a take_replacement verify reads, kept per position
    (``supply.commands.position_ledger``), equal a ledger built fresh from the state, both
    sides, every position; a copy with other pools (another position) gets its own."""
    from fractions import Fraction

    from grognard.europa.supply.commands import _ledger, position_ledger

    pools = 0
    for pos in positions:
        for player, (ctx, _view, state) in pos.items():
            ctx.cache.clear()
            fresh = _ledger(state, player)
            for _twice in range(2):
                assert position_ledger(ctx, state, player) == fresh
            accounts = [f"{player}.{k}" for k in ("infantry", "armor", "artillery")]
            pools += sum(fresh.balance(a) > 0 for a in accounts)
            other = copy.deepcopy(state)
            rep = other.setdefault("replacements", {"pools": {}, "returned": {}})
            rep["pools"].setdefault(player, {})["infantry"] = "97"
            got = position_ledger(ctx, other, player)
            assert got.balance(f"{player}.infantry") == Fraction(97)
            assert position_ledger(ctx, state, player) == fresh
    assert pools > 0
