"""Issue 25 item 5, session 17: the Europa bots' game made faster gives the same answers (a
pure refactor: the oracle's bot games keep their final state hashes,
``bench/europa_bot_oracle.py``). Each shortcut is compared here with the plain computation it
replaced, on the refactor oracle's recorded heuristic europa-barbarossa game replayed command
by command, and each comparison can fail: the game gives the plain computation something to
find (counted), and a planted error is seen to be caught."""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable
from typing import Any

import pytest
from tests.bots.test_europa_speed_s12 import _oracle_game

from grognard.core.units import GROUND_TYPES, UnitType
from grognard.engine.commands import Command
from grognard.europa.board import europa_rules
from grognard.europa.supply.orders.take_replacement import TAKE_REPLACEMENT
from grognard.europa.supply.replacements import ReplacementAction


def _replacements_plain(ctx: Any, state: Any, player: str) -> list[Command]:
    """The EUR-33 ``take_replacement`` lister as it was (session 16): every unit, action and
    supply source verified as a whole order."""
    sources = europa_rules(ctx.scenario).section.supply_sources.get(player, [])
    cands = []
    for uid, u in sorted(state["units"].items()):
        if u["side"] != player or UnitType(u["type"]) not in GROUND_TYPES:
            continue
        if u["status"] == "eliminated":
            for action in (ReplacementAction.RETURN_CADRE,
                           ReplacementAction.RETURN_SINGLE_STEP):
                cands += [Command("take_replacement", player,
                                  {"unit": uid, "action": action.value, "hex": h})
                          for h in sources]
        elif u["status"] == "active" and u["cadre"]:
            cands.append(Command("take_replacement", player,
                                 {"unit": uid, "action": ReplacementAction.REBUILD.value}))
    return TAKE_REPLACEMENT.checked(ctx, state, cands)


def _compare_replacements(lister: Callable[[Any, Any, str], list[Command]]
                          ) -> dict[str, int]:
    """``lister`` against the plain lister at every 10th command of the recorded game, both
    sides (fresh caches each time: the listing is asked of a position once); what the plain
    one found and refused, counted."""
    seen = {"listed": 0, "returning": 0, "refused": 0}
    for game in _oracle_game(10):
        for player in ("axis", "soviet"):
            ctx, state = game.context, game.state
            ctx.cache.clear()
            plain = _replacements_plain(ctx, state, player)
            ctx.cache.clear()
            assert lister(ctx, state, player) == plain
            seen["listed"] += len(plain)
            seen["returning"] += sum(1 for c in plain if "hex" in c.args)
            dead = sum(1 for u in state["units"].values()
                       if u["side"] == player and u["status"] == "eliminated"
                       and UnitType(u["type"]) in GROUND_TYPES)
            sources = europa_rules(ctx.scenario).section.supply_sources.get(player, [])
            seen["refused"] += 2 * dead * len(sources) - sum(1 for c in plain
                                                              if "hex" in c.args)
    return seen


def test_eur33_replacement_lister_equals_the_plain_verify_of_every_order() -> None:
    """EUR-33 The ``take_replacement`` lister, which asks a returning unit's own verdict once
    per unit and action and a source's once per source, lists exactly the orders the whole
    verify of each passes, in the same order."""
    seen = _compare_replacements(TAKE_REPLACEMENT.legal)
    # the game gives both: returning units listed, and returning orders refused
    assert seen["returning"] > 0 and seen["refused"] > 0, seen


def test_eur33_replacement_comparison_catches_a_planted_error(monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    """The comparison fails when the lister skips the unit's own verdict (every returning
    unit listed at every open source, whether its pool can pay or not)."""
    monkeypatch.setattr(type(TAKE_REPLACEMENT), "_unit_may", lambda *_a: True)
    with pytest.raises(AssertionError):
        _compare_replacements(TAKE_REPLACEMENT.legal)


def _compare_march_scores(check: Callable[[list[float], list[float]], None]) -> dict[str, int]:
    """The planner Axis's :meth:`score_moves` against :meth:`score_move` one by one, on every
    move candidate of the first position (every 10th command) of each Axis movement and
    exploitation phase of the recorded game; what the plain scores found, counted."""
    from grognard.bots.base import LazyView, LegalActions, Seat
    from grognard.bots.planner import PlannerBot

    seen = {"phases": 0, "moves": 0, "marched": 0, "back": 0}
    done: set[tuple[Any, ...]] = set()
    for game in _oracle_game(10):
        at = (game.state["turn"], game.state["phase"])
        if game.phase.player != "axis" or game.phase.name not in ("movement", "exploitation") \
                or at in done:
            continue
        done.add(at)
        bot = PlannerBot(Seat.of(game, "axis"))
        sit = bot.policy.situation(LazyView(game, "axis"), game)
        assert bot.policy.defending is False  # the attacker
        cands = LegalActions(game, "axis").candidates("move")
        plain = [bot.policy.score_move(sit, c) for c in cands]
        check(bot.policy.score_moves(sit, cands), plain)
        seen["phases"] += 1
        seen["moves"] += len(cands)
        seen["marched"] += sum(1 for s in plain if s >= 1)
        seen["back"] += sum(1 for s in plain if s == -0.1)
    return seen


def _equal(got: list[float], plain: list[float]) -> None:
    assert got == plain


def test_planner_march_scores_per_unit_equal_the_scores_one_by_one() -> None:
    """The planner attacker's move scores with each unit's march goal, hex distance and
    contact found once per unit equal :meth:`score_move` of each move, in order."""
    seen = _compare_march_scores(_equal)
    assert seen["phases"] >= 2 and seen["marched"] > 0 and seen["back"] > 0, seen


def test_planner_march_scores_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when a unit's own hex is a hex further from its goal."""
    from grognard.bots.planner_plans import EuropaPlannerPolicy

    real = EuropaPlannerPolicy._march_from

    def planted(self: Any, sit: Any, uid: str) -> Any:
        got = real(self, sit, uid)
        return None if got is None else (got[0], got[1] + 1)
    monkeypatch.setattr(EuropaPlannerPolicy, "_march_from", planted)
    with pytest.raises(AssertionError):
        _compare_march_scores(_equal)


def _value_plain(plan: Any, uid: str, i: int) -> float:
    """``heuristic.DefencePlan.value`` as it was (session 16): everything read afresh."""
    from grognard.bots import europa_offence as offence
    from grognard.bots.heuristic import _BAND, _MECH_BAND, _TENABLE

    sit, g = plan.sit, plan.g
    u = sit.mine[uid]
    mult, add, limit = g.quality[i]
    if plan.res(i) + int(u.get("re_size") or 1) > limit:
        return -99.0
    mech = str(u.get("type")) in offence.MECH
    d = plan.enemy_at.get(i, 9)
    band = (_MECH_BAND if mech else _BAND).get(d, 0.2)
    here = plan.stacks.get(i, [])
    defense = sum(offence.view_factor(sit.mine[x], "defense") for x in here) + \
        offence.view_factor(u, "defense")
    major, minor, across = plan.facing(i)
    score = band + 0.8 * (mult - 1) + 0.4 * add + 1.2 * major + 0.5 * minor
    odds = plan.threat.get(i, 0) * across / max(1, (defense + add) * mult)
    if d <= 1 and odds > _TENABLE:
        score -= 2.0 + 0.3 * (odds - _TENABLE)
    elif d <= 3 and odds > _TENABLE:
        score -= 0.5 * min(8.0, odds - _TENABLE)
    if i not in plan.safe:
        score -= 6.0 + 0.5 * plan.to_safe.get(i, 9)
    score -= 0.5 * min(6, plan.behind.get(i, 0))
    if int(u.get("zoc_class", 1) or 0) > 0 and d <= 4:
        gain = sum(1 for j in [i, *g.nbrs[i]] if j in plan.front and not plan.covered.get(j))
        score += 0.25 * gain
    n = len(here)
    if n == 1:
        score += 1.5
    elif n == 2:
        score += 1.0
    elif n == 0 and d <= 3 and mult == 1 and add == 0 and not major and not minor:
        score -= 0.3
    need = plan.want.get(i, 0)
    if n < need:
        score += 3.0 + need - n
    return score + plan.depth.get(i, 0.0)


def _compare_defence_values(value: Callable[[Any, str, int], float]) -> dict[str, int]:
    """``value`` against the plain value of every unit's every option, before and during
    the placement of the line (``place_on_line``), on the first position (every 10th
    command) of each movement phase of the recorded game, the moving side defending; what
    the plain values found, counted."""
    from grognard.bots import europa_offence as offence
    from grognard.bots import heuristic as h
    from grognard.bots.base import LazyView, LegalActions, Seat

    seen = {"phases": 0, "values": 0, "full": 0, "pocket": 0, "line": 0, "stacked": 0}
    done: set[tuple[Any, ...]] = set()

    def check(plan: Any, uid: str, i: int) -> float:
        want = _value_plain(plan, uid, i)
        assert value(plan, uid, i) == want
        seen["values"] += 1
        seen["full"] += want == -99.0
        seen["pocket"] += i not in plan.safe
        seen["line"] += bool(plan.covered)
        return want

    for game in _oracle_game(10):
        at = (game.state["turn"], game.state["phase"])
        if game.phase.name != "movement" or at in done:
            continue
        done.add(at)
        player = game.phase.player
        policy = h.HeuristicBot(Seat.of(game, player)).policy
        sit = policy.situation(LazyView(game, player), game)
        la = LegalActions(game, player)
        board = h.defence_board(sit, la, policy.supply_sources(sit, player))
        if board is None:
            continue
        plan = board.plan
        # the threat (each enemy stack's reach searched once) as the plain loop sums it
        threat: dict[int, float] = {}
        land = board.land
        for i, u in board.enemy:
            a = offence.view_factor(u, "attack") * h._REACH[2]
            reach = h._REACH[1] if str(u.get("type")) in offence.MECH else h._REACH[0]
            for j, _d in offence.bfs(board.g, [i], land.__getitem__, reach).items():
                threat[j] = threat.get(j, 0) + a
        assert plan.threat == threat
        seen["stacked"] += len(board.enemy) - len({i for i, _u in board.enemy})
        idx = sit.map.index_of_label
        ground = {uid: u for uid, u in sit.mine.items()
                  if str(u.get("type")) not in offence.NOT_GROUND and uid in board.moves}
        where = {uid: idx(str(u["hex"])) for uid, u in ground.items()}
        for uid in ground:
            for i in [where[uid], *board.moves[uid]]:
                check(plan, uid, i)
        # the placement as the defence plays it, every value it asks checked
        plan.want = {i: 2 for i in list(plan.front)[:5]}
        real = h.DefencePlan.value
        try:
            h.DefencePlan.value = check  # type: ignore[method-assign, assignment]
            h.place_on_line(plan, ground, {}, where, board.moves, board.enemy_at)
        finally:
            h.DefencePlan.value = real  # type: ignore[method-assign]
        seen["phases"] += 1
    return seen


def test_defence_values_with_kept_unit_and_hex_parts_equal_the_plain_values() -> None:
    """The defender's hex values (``DefencePlan.value``), each unit's and hex's unchanging
    parts kept per plan, equal the values read afresh, before and while units are placed."""
    from grognard.bots.heuristic import DefencePlan

    seen = _compare_defence_values(DefencePlan.value)
    assert seen["phases"] >= 2 and all(seen.values()), seen


def test_defence_values_comparison_catches_a_planted_error() -> None:
    """The comparison fails when the line's ZOC gain is read before any unit is placed
    (the kept hex part holding what placements change)."""
    from grognard.bots.heuristic import DefencePlan

    real = DefencePlan.value

    def planted(plan: Any, uid: str, i: int) -> float:
        got = real(plan, uid, i)
        return got + (0.25 if plan.covered.get(i) and got > -99 else 0.0)
    with pytest.raises(AssertionError):
        _compare_defence_values(planted)


def _offence_runs(patch: Callable[[], None] | None = None) -> list[Any]:
    """The planner Axis's ``offence_moves`` (its Schwerpunkte, sieges, exploitation cuts and
    the free units' scores) at the first position (every 10th command) of each Axis movement
    and exploitation phase of the recorded game, a fresh bot each (``patch`` called first)."""
    from grognard.bots.base import LazyView, LegalActions, Seat
    from grognard.bots.planner import PlannerBot

    if patch is not None:
        patch()
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


def _plain_offence(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """The attacker's plans with nothing kept per hex and each move scored alone."""
    from grognard.bots import europa_offence as offence
    from grognard.bots.planner_plans import EuropaPlannerPolicy

    def patch() -> None:
        monkeypatch.setattr(offence, "kept_per_hex", lambda f: f)
        monkeypatch.setattr(EuropaPlannerPolicy, "score_moves",
                            lambda self, sit, cmds: [self.score_move(sit, c) for c in cmds])
    return patch


def test_offence_plans_with_kept_hex_parts_equal_the_plain_plans(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The attacker's whole movement plan (``offence_moves``), with its per-hex parts kept
    (the enemy's attack next to an option, among them) and the free units' scores found per
    unit, equals the plan computed afresh at every option, score for score, in order."""
    kept = _offence_runs()
    plain = _offence_runs(_plain_offence(monkeypatch))
    assert len(kept) >= 2 and all(kept)
    assert kept == plain
    # the plans move units: exploitation cuts (150+) and Schwerpunkte among them
    assert any(s >= 150 for run in kept for s, _c in run)


def test_offence_plans_comparison_catches_a_planted_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when a per-hex keep answers every hex with the first one's."""
    from grognard.bots import europa_offence as offence

    def first_only(f: Callable[[int], Any]) -> Callable[[int], Any]:
        kept: list[Any] = []

        def once(i: int) -> Any:
            if not kept:
                kept.append(f(i))
            return kept[0]
        return once
    plain = _offence_runs(_plain_offence(monkeypatch))
    monkeypatch.undo()
    monkeypatch.setattr(offence, "kept_per_hex", first_only)
    assert _offence_runs() != plain


def test_a_command_checked_by_can_is_not_verified_again_at_the_same_position(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``Game.apply`` skips the verify of the very command ``Game.can`` just found legal at
    the same position (a bot checks what it plays), and verifies it again after any change:
    a command applied twice is refused the second time by its verify."""
    from grognard.bots.base import LegalActions
    from grognard.core.errors import GrognardError
    from grognard.engine.game import Game
    from grognard.engine.scenario import load_scenario

    game = Game(load_scenario("europa-barbarossa"), 7)
    calls: list[Command] = []
    real = Game.verify

    def counted(self: Game, cmd: Command) -> None:
        calls.append(cmd)
        real(self, cmd)
    monkeypatch.setattr(Game, "verify", counted)
    player = game.active()[0]
    la = LegalActions(game, player)
    move = next(c for c in la.candidates("move") if game.can(c))
    calls.clear()
    assert game.can(move)
    game.apply(move)
    assert calls == [move]  # the check, not the apply
    other = next(c for c in LegalActions(game, player).candidates("move")
                 if c.args["unit"] != move.args["unit"] and game.can(c))
    calls.clear()
    with pytest.raises(GrognardError):  # another command: verified (and refused)
        game.apply(Command(move.kind, move.player, {**move.args, "to": "nowhere"}))
    assert len(calls) == 1
    calls.clear()
    game.apply(other)  # the last command can() passed at this position: no second verify
    assert calls == []
    calls.clear()
    with contextlib.suppress(GrognardError):
        game.apply(other)  # the position changed: verified again (a second move of it)
    assert calls == [other]


def _moves_by_unit_plain(sit: Any, cands: Any, dest: Any) -> dict[str, dict[int, Command]]:
    """``europa_offence.moves_by_unit`` as it was (session 16)."""
    idx = sit.map.index_of_label
    out: dict[str, dict[int, Command]] = {}
    for c in cands:
        to = dest(c)
        uid = str(c.args.get("unit"))
        if to is not None and uid in sit.mine:
            out.setdefault(uid, {}).setdefault(idx(str(to)), c)
    return out


def _compare_moves_by_unit(group: Callable[..., dict[str, dict[int, Command]]]) -> int:
    """``group`` against the plain grouping on both sides' move candidates at the first
    position of each movement phase of the recorded game, the candidates followed by the
    same moves again as paths, the enemy's moves and moves to nowhere (a first move to a
    hex kept, other units' and destination-less ones left out); the moves grouped."""
    from grognard.bots.base import LazyView, LegalActions
    from grognard.bots.heuristic import destination
    from grognard.bots.situation import Situation

    grouped = 0
    done: set[tuple[Any, ...]] = set()
    for game in _oracle_game(10):
        at = (game.state["turn"], game.state["phase"])
        if game.phase.name != "movement" or at in done:
            continue
        done.add(at)
        player = game.phase.player
        enemy = next(p for p in game.scenario.sides if p != player)
        cands = LegalActions(game, player).candidates("move")
        sit = Situation.of(game.context, LazyView(game, player), player)
        theirs = [Command("move", enemy, {"unit": uid, "to": u["hex"]})
                  for uid, u in game.state["units"].items()
                  if u["side"] == enemy and u["hex"] is not None]
        again = [Command("move", player, {"unit": c.args["unit"], "path": [c.args["to"]]})
                 for c in reversed(cands)]
        nowhere = [Command("move", player, {"unit": c.args["unit"]}) for c in cands[:50]]
        mixed = [*nowhere, *cands, *theirs, *again]
        want = _moves_by_unit_plain(sit, mixed, destination)
        got = group(sit, mixed, destination)
        assert got == want and list(got) == list(want)
        assert all(list(got[u]) == list(want[u]) for u in want)
        grouped += sum(len(v) for v in want.values())
    return grouped


def test_moves_by_unit_equals_the_plain_grouping() -> None:
    """The candidates' grouping by unit and destination (the attacker's and, since session
    17, the defender's board) equals the plain one, keys and their order included."""
    from grognard.bots import europa_offence as offence

    assert _compare_moves_by_unit(offence.moves_by_unit) > 10000


def test_moves_by_unit_comparison_catches_a_planted_error() -> None:
    """The comparison fails when the last move to a hex is kept instead of the first."""
    from grognard.bots import europa_offence as offence

    def last_wins(sit: Any, cands: Any, dest: Any) -> dict[str, dict[int, Command]]:
        return offence.moves_by_unit(sit, list(reversed(cands)), dest)
    with pytest.raises(AssertionError):
        _compare_moves_by_unit(last_wins)


def test_hex_labels_read_from_the_map_table_equal_the_labels_one_by_one() -> None:
    """``core.paths.labels`` (the map's label table read at once) gives each hex's
    ``MapData.label``, and the axial fallback where the table has none."""
    from grognard.core.errors import InputError
    from grognard.core.paths import labels
    from grognard.engine.scenario import load_scenario

    def plain(m: Any, ids: list[int]) -> list[str]:
        out = []
        for i in ids:
            try:
                out.append(m.label(i))
            except InputError:
                out.append(f"({int(m.q[i])},{int(m.r[i])})")
        return out
    m = load_scenario("europa-barbarossa").map
    ids = [*range(m.n), 5, 0, m.n - 1]
    assert labels(m, ids) == plain(m, ids) and len(set(labels(m, ids))) == m.n
    # a hex the table does not label: its label asked of the layout, as label() does
    table = m.label_table
    try:  # the map may be shared (a loaded scenario): its table put back after
        m.__dict__["_labels"] = [None if i % 7 == 0 else lab for i, lab in enumerate(table)]
        assert labels(m, ids) == plain(m, ids)
    finally:
        m.__dict__["_labels"] = table


def _compare_placements(occupants: Callable[[Any, Any], Any]) -> dict[str, int]:
    """EUR-22 The reinforcement lister (``schedule.placements``) with ``occupants`` as each
    entry hex's occupants, against the lister reading them afresh from the state, at every
    position of the recorded game in an initial phase (both listers on the same cache)."""
    from grognard.europa.reinforcements import schedule

    seen = {"positions": 0, "listed": 0, "closed": 0}
    real = schedule._occupants_now
    for game in _oracle_game(1):
        if game.phase.name != schedule.PHASE:
            continue
        ctx, player = game.context, game.phase.player
        due = schedule.due(game.state, player)
        # the position, and a copy with an enemy unit standing on the first entry hex
        entered = copy.deepcopy(game.state)
        if due:
            a = schedule.arrival(ctx.scenario, due[0])
            enemy = next(u for u in entered["units"].values()
                         if u["side"] != player and u["status"] == "active" and u["hex"])
            enemy["hex"] = schedule.entry_hexes(ctx.scenario, a)[0] if a else enemy["hex"]
        for state in (game.state, entered):
            schedule._occupants_now = lambda c, s: schedule._occupants(s)  # type: ignore
            try:
                want = schedule.placements(ctx, state, player)
            finally:
                schedule._occupants_now = real  # type: ignore[assignment]
            schedule._occupants_now = occupants  # type: ignore[assignment]
            try:
                got = schedule.placements(ctx, state, player)
            finally:
                schedule._occupants_now = real  # type: ignore[assignment]
            assert got == want
            seen["positions"] += 1
            seen["listed"] += len(want)
            occ = schedule._occupants(state)
            seen["closed"] += sum(
                1 for uid in due
                for h in schedule.entry_hexes(ctx.scenario, schedule.arrival(ctx.scenario, uid))
                if occ.get(h, set()) - {player})
    return seen


def test_eur22_reinforcement_lister_with_occupants_kept_per_position_equals_the_plain() -> None:
    """EUR-22 The reinforcement lister, each hex's occupants found once per position, lists
    what the lister reading them afresh for every entry hex lists."""
    from grognard.europa.reinforcements import schedule

    seen = _compare_placements(schedule._occupants_now)
    assert seen["positions"] >= 10 and seen["listed"] > 0 and seen["closed"] > 0, seen


def test_eur22_reinforcement_comparison_catches_a_planted_error() -> None:
    """The comparison fails when the occupants are kept across positions (never made
    again once found)."""
    from grognard.europa.reinforcements import schedule

    kept: list[Any] = []

    def stale(ctx: Any, state: Any) -> Any:
        if not kept:
            kept.append(schedule._occupants(state))
        return kept[0]
    with pytest.raises(AssertionError):
        _compare_placements(stale)


def test_a_command_made_slot_by_slot_is_the_dataclass_command() -> None:
    """``engine.commands.made_command`` (the move lister's) makes the object
    ``Command(...)`` makes: equal, the same repr, frozen; it holds while the
    dataclass has exactly the fields kind, player, args and no ``__post_init__``."""
    import dataclasses

    from grognard.engine.commands import made_command

    assert [f.name for f in dataclasses.fields(Command)] == ["kind", "player", "args"]
    assert not hasattr(Command, "__post_init__")
    args = {"unit": "de-7pz", "to": "0504"}
    got, want = made_command("move", "axis", args), Command("move", "axis", args)
    assert type(got) is Command and got == want and repr(got) == repr(want)
    assert got.args is args
    assert made_command("move", "soviet", args) != want  # a field is read, not defaulted
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.kind = "attack"  # type: ignore[misc]


def _nearest_plain(sit: Any, label: str, targets: Any) -> int:
    """``Situation.nearest`` as it was (session 16): on arrays whatever the targets."""
    import numpy as np

    if not targets:
        return 999
    hs = [sit.hex(t) for t in targets]
    h = sit.hex(label)
    dq, dr = np.array([x.q for x in hs]) - h.q, np.array([x.r for x in hs]) - h.r
    return int(((np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2).min())


def _compare_nearest(few: int) -> int:
    """``Situation.nearest`` (a few targets measured in Python: up to ``few``) against the
    plain arrays, from every hex of the map to target sets of 1 to 200 hexes spread over
    it; the distances compared."""
    import random

    from grognard.bots import situation as st
    from grognard.engine.game import Game
    from grognard.engine.scenario import load_scenario

    scenario = load_scenario("europa-barbarossa")
    game = Game(scenario, 7)
    m = scenario.map
    rnd = random.Random(17)
    labels = [m.label(i) for i in range(m.n)]
    compared = 0
    real = st._FEW
    st._FEW = few
    try:
        for size in (1, 2, 5, 11, real, real + 1, 200):
            sit = st.Situation.of(game.context, game.state, "axis")
            targets = set(rnd.sample(labels, size))
            for label in labels[::3]:
                assert sit.nearest(label, targets) == _nearest_plain(sit, label, targets)
                compared += 1
    finally:
        st._FEW = real
    return compared


def test_nearest_of_a_few_targets_in_python_equals_the_arrays() -> None:
    """``Situation.nearest`` measured in Python for a few targets (the goals) gives the
    arrays' distance, from every third hex of the map, for sets of 1 to 200 targets."""
    from grognard.bots import situation as st

    assert _compare_nearest(st._FEW) > 9000


def test_nearest_comparison_catches_a_planted_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when the Python measure misses a target (the last one)."""
    from grognard.bots import situation as st

    real_min = min

    def short_min(gen: Any, *a: Any, **k: Any) -> Any:
        items = list(gen)
        return real_min(items[:-1] or items, *a, **k)
    monkeypatch.setitem(st.__dict__, "min", short_min)
    with pytest.raises(AssertionError):
        _compare_nearest(24)
