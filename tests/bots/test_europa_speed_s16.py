"""Issue 25 item 5, session 16: the Europa bots' game made faster gives the same answers (a
pure refactor: the oracle's bot games keep their final state hashes,
``bench/europa_bot_oracle.py``). Each shortcut is compared here with the plain computation it
replaced, on the refactor oracle's recorded heuristic europa-barbarossa game replayed command
by command, and each comparison can fail: the game gives the plain computation something to
find (counted), and a planted error is seen to be caught."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest
from tests.bots.test_europa_speed_s12 import _oracle_game

from grognard.core.dice import Dice
from grognard.core.errors import GrognardError
from grognard.engine.context import Context
from grognard.engine.events import Event, Fold
from grognard.engine.state import copy_state, state_hash
from grognard.europa import order as eo

_DECIDING = ("attack", "allocate_losses", "retreat")


def _engine_choices_plain(ctx: Context, state: Any, events: list[Event], dice: Dice,
                          deciders: Sequence[Any], folds: Mapping[str, Fold],
                          decisions: Any) -> list[Event]:
    """``europa.order.engine_choices`` as it was (session 15): the whole state copied."""
    by_kind = {o.kind: o for o in deciders}
    s = copy_state(state)
    for e in events:
        s = folds[e.type](s, Event(e.type, copy_state(e.data)))
    out = list(events)
    for _ in range(16):
        local = dataclasses.replace(ctx, cache={})
        forced = None
        for d in decisions(local, s):
            kinds = [k for k in eo.FORCED_KINDS if k in d.kinds]
            if not kinds or kinds[0] not in by_kind:
                continue
            order = by_kind[kinds[0]]
            if order.legal is None:
                continue
            options = list(itertools.islice(order.legal(local, s, d.player), 2))
            if len(options) == 1:
                forced = (order, options[0])
                break
        if forced is None:
            break
        order, cmd = forced
        for e in order.spec().execute(local, s, cmd, dice):
            marked = Event(e.type, {**e.data, "decided_by": "engine",
                                    "command": cmd.to_json()})
            out.append(marked)
            s = folds[e.type](s, Event(e.type, copy_state(marked.data)))
    return out


@pytest.fixture
def wrapped_engine_choices(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every call of ``engine_choices`` by the combat orders, through ``check(call, real)``
    appended to the list the test fills (none: the real function alone). A call made inside
    another (a forced answer's own execute) is checked as part of the outer call only."""
    checks: list[Any] = []
    real = eo.engine_choices
    depth = [0]

    def wrapper(*args: Any) -> list[Event]:
        depth[0] += 1
        try:
            if depth[0] == 1:
                for check in checks:
                    check(args, real)
            return real(*args)
        finally:
            depth[0] -= 1

    for name in _DECIDING:
        monkeypatch.setattr(importlib.import_module(f"grognard.europa.combat.orders.{name}"),
                            "engine_choices", wrapper)
    yield checks


def test_eur12_eur16_forced_choices_fold_a_copy_of_what_the_folds_write_only(
        wrapped_engine_choices: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """EUR-12..EUR-16 ``engine_choices`` folds a private state that copies only what the
    combat's folds write (``COMBAT_PARTS`` and the unit records they declare,
    ``written_units``), not the whole state: at every combat and answer of the oracle's
    heuristic game it gives the same events (and draws the same dice) as the whole-state copy
    it replaced, and leaves the game's state as it was; every fold it runs names the units
    it writes (no record is copied for nothing). With no unit record copied the game's state
    is seen to change."""
    seen = {"calls": 0, "forced": 0, "caught": 0}

    def compare(args: Any, real: Any) -> None:
        ctx, state, events, dice, deciders, folds, decisions = args
        before = state_hash(state)
        snap = dice.snapshot()
        want = _engine_choices_plain(ctx, state, events, dice, deciders, folds, decisions)
        drawn = dice.snapshot()
        dice.restore(snap)
        got = real(*args)
        assert [e.to_json() for e in got] == [e.to_json() for e in want]
        assert dice.snapshot() == drawn
        assert state_hash(state) == before
        dice.restore(snap)
        seen["calls"] += 1
        seen["forced"] += len(want) > len(events)
        for e in want:  # every fold declares its units: no record is copied needlessly
            assert eo.written_units(folds[e.type], e, state) is not None, e.type
        # the planted error: no unit record copied - the folds write the game's state
        mine = copy.deepcopy(state)
        with monkeypatch.context() as m:
            m.setattr(eo, "written_units", lambda *_: [])
            real(ctx, mine, events, dice, deciders, folds, decisions)
        dice.restore(snap)
        seen["caught"] += state_hash(mine) != before

    wrapped_engine_choices.append(compare)
    for _game in _oracle_game(10**6):
        pass
    assert seen["calls"] >= 50 and seen["forced"] >= 20 and seen["caught"] >= 20, seen



def _verdict(ctx: Context, state: Any, cmd: Any, judge: Any) -> tuple[str, str] | None:
    refusal = judge(ctx, state, cmd)
    return None if refusal is None else (type(refusal).__name__, str(refusal))


def test_eur09_attack_verdicts_kept_across_positions_equal_the_plain_verdicts() -> None:
    """EUR-09/EUR-18 An attack order's model verdict (the ATTACK.json model's checks and
    the combat setup) kept across positions for the game's own unit table and served again
    while nothing it reads has changed (``combat.commands._model_refusal``) equals the
    verdict judged afresh (``_plain_model_refusal``, a context with nothing kept): after
    every command of the oracle's heuristic game, for the side that may attack or overrun,
    the attack of every unit next to each enemy hex, each such unit alone, and each as an
    overrun. Where a kept verdict is served, the order's ATTACK.json model made afresh is the
    one it was judged on; kept verdicts are found stale and judged again where the model
    changed (so a verdict served without its checks would serve another model's verdict)."""
    from grognard.engine.commands import Command
    from grognard.engine.context import UnitsLog
    from grognard.europa.choices import adjacent_enemy_hexes
    from grognard.europa.combat import commands as cc

    seen = {"orders": 0, "served": 0, "stale": 0}
    models: dict[str, Any] = {}

    def model(cmd: Any) -> Any:
        try:
            return cc.attack_json(fresh, state, cmd.player, cmd.args)
        except GrognardError as exc:
            return str(exc)
    plain = cc._plain_model_refusal
    judged = [False]
    turn = 0

    def marking(ctx: Context, state: Any, cmd: Any) -> Any:
        judged[0] = True
        return plain(ctx, state, cmd)

    for game in _oracle_game(1):
        ctx, state = game.context, game.state
        fresh = dataclasses.replace(ctx, cache={}, kept={}, units_log=UnitsLog())
        if int(state["turn"]) != turn:  # the kept verdicts are one game turn's
            models.clear()
            turn = int(state["turn"])
        for player in ("axis", "soviet"):
            if not {"attack", "overrun"} & game.allowed(player):
                continue
            for target, near in sorted(adjacent_enemy_hexes(ctx, state, player).items()):
                ids = [uid for uid, _ in near]
                orders = [ids, *([uid] for uid in ids)] if len(ids) > 1 else [ids]
                for attackers in orders:
                    for extra in ({}, {"overrun": True}):
                        cmd = Command("attack", player, {"attackers": attackers,
                                                         "defender_hex": target, **extra})
                        want = _verdict(fresh, state, cmd, plain)
                        hit = ctx.kept.get("europa.attack_refusals")
                        old = (hit[1][1].get(f"{player}.{cmd.args!r}")
                               if hit is not None and hit[0] is state["units"]
                               and hit[1][0] == int(state["turn"]) else None)
                        judged[0] = False
                        cc._plain_model_refusal = marking  # type: ignore[assignment]
                        try:
                            got = _verdict(ctx, state, cmd, cc._model_refusal)
                        finally:
                            cc._plain_model_refusal = plain  # type: ignore[assignment]
                        assert got == want, (len(game.commands), cmd)
                        seen["orders"] += 1
                        key = f"{player}.{cmd.args!r}"
                        now = model(cmd)
                        if not judged[0]:
                            seen["served"] += 1
                            assert models[key] == now, (len(game.commands), cmd)
                        else:
                            seen["stale"] += old is not None and models[key] != now
                            models[key] = now
    assert seen["orders"] > 5000 and seen["served"] > seen["orders"] // 2, seen
    assert seen["stale"] >= 10, seen


#: The Europa combat events whose folds declare the units they write, and the commands that
#: emit them.
_COMBAT_EVENTS = frozenset({"combat_resolved", "losses_allocated", "units_retreated",
                            "advanced_after_combat", "overrun_declared"})
_COMBAT_KINDS = frozenset({"attack", "overrun", "allocate_losses", "retreat", "advance"})


def test_eur09_eur18_combat_fold_declarations_cover_the_whole_recorded_game() -> None:
    """EUR-09..EUR-18 Every combat command of the whole recorded heuristic europa-barbarossa
    game (bench/data): what its folds declare (``writes_units``: the attackers and the
    barrage's victim, the losses, the retreating and advancing units, the overrunning stack,
    and the stack's ``mp_spent`` when an overrun settles) covers every unit record that
    changed, and the log can tell (so verdicts kept under the units they read survive a
    combat, ``_model_refusal``)."""
    from tests.engine.test_unit_writes import _changes, _recorded

    g, cmds = _recorded("europa-barbarossa", 100_000)
    named_reads = frozenset({"hex", "status", "attack"})
    seen: set[str] = set()
    checked = 0
    for cmd in cmds:
        if cmd.kind not in _COMBAT_KINDS:
            g.apply(cmd)
            continue
        before = copy.deepcopy(g.state["units"])
        log = g.context.units_log
        version = log.version
        events = g.apply(cmd)
        units = g.state["units"]
        changed = _changes(before, units)
        named = log.changed_since(units, version, named_reads)
        types = {e.type for e in events}
        if types & _COMBAT_EVENTS and not types - _COMBAT_EVENTS - {"sp_paid",
                                                                    "supply_zone_entered"}:
            assert named is not None, (cmd, types)  # declared: the log tells
            seen |= types & _COMBAT_EVENTS
        for uid, fields in changed.items():
            told = log.changed_since(units, version, frozenset(fields - {"*"}) or named_reads)
            assert told is None or uid in told, (cmd, uid, fields)
        checked += bool(changed)
    assert seen == _COMBAT_EVENTS, seen
    assert checked > 100, checked


def test_eur37_sp_cost_kept_per_game_equals_the_priced_cost() -> None:
    """EUR-37 The SP cost of an attack's or move's operations kept per game and operations
    (``logistics._sp_cost``) equals ``sp_cost`` priced afresh, asked first and again, for
    attacks and overruns of 0-4 divisions, 0-3 minor divisions, with and without artillery,
    and for moves - and different operations get their own costs."""
    from grognard.engine.game import Game
    from grognard.europa.board import readings_of
    from grognard.europa.logistics import _sp_cost
    from grognard.europa.supply.logistics import Combat, Operations, sp_cost
    from grognard.europa.supply.phase import SupplyReadings

    ctx = Game.new("europa-barbarossa", seed=1).context
    readings = readings_of(ctx, SupplyReadings)
    opss = [Operations(combats=(Combat(d, md, art, ov),)) for d in range(5) for md in range(4)
            for art in (False, True) for ov in (False, True)]
    opss += [Operations(mechanized_moves=1), Operations(motorized_moves=1)]
    costs = set()
    for _ in range(2):
        for ops in opss:
            got = _sp_cost(ctx, ops)
            assert got == sp_cost(ops, readings, ctx.tables)
            costs.add(got.exact)
    assert len(costs) >= 5


def test_eur20_overrun_ground_kept_per_game_equals_the_map_reading() -> None:
    """EUR-20 Whether terrain and weather allow an overrun and the target hex's entry cost,
    kept per game (``combat.commands._overrun_ground``), equal ``overrun_allowed`` and the
    move cost read afresh: every own stack next to an enemy hex, after every command of the
    oracle's heuristic game where an overrun may be ordered; both answers are seen."""
    from grognard.core.movement import MovementReadings, overrun_allowed
    from grognard.engine import generic
    from grognard.europa.board import combat_weather, readings_of
    from grognard.europa.choices import adjacent_enemy_hexes
    from grognard.europa.combat.commands import _overrun_ground

    seen: dict[bool, int] = {True: 0, False: 0}
    for game in _oracle_game(1):
        ctx, state = game.context, game.state
        mreadings = readings_of(ctx, MovementReadings)
        for player in ("axis", "soviet"):
            if "overrun" not in game.allowed(player):
                continue
            weather = combat_weather(ctx, state, {})
            for target, near in sorted(adjacent_enemy_hexes(ctx, state, player).items()):
                for start in sorted({u["hex"] for _, u in near}):
                    allowed = overrun_allowed(ctx.scenario.map, start, target,
                                              mud=weather == "mud",
                                              frozen_rivers=weather == "winter",
                                              readings=mreadings)
                    want = (allowed, generic.move_cost(ctx.scenario, start, [target])
                            if allowed else 0)
                    assert _overrun_ground(ctx, start, target, weather, mreadings) == want
                    seen[allowed] += 1
    assert seen[True] > 100 and seen[False] > 100, seen


def _attack_hexsides_plain(m: Any, frm: str, target: Any, frozen: bool) -> tuple[str, ...] | str:
    """What ``attack_json`` read of the map per attacker before (session 15)."""
    from grognard.core.errors import InputError
    from grognard.core.hexgrid import direction_to
    from grognard.core.mapdata import HexsideFeature
    from grognard.europa.combat.commands import _HEXSIDE_NAMES

    here = m.layout.from_label(frm)
    try:
        direction_to(here, target)
    except InputError:
        return "far"
    feats = m.features_between(here, target)
    if feats & (HexsideFeature.SEA | HexsideFeature.IMPASSABLE | HexsideFeature.LAKE):
        return "blocked"
    return tuple(("frozen_" if frozen and name != "canal" else "") + name
                 for flag, name in _HEXSIDE_NAMES if feats & flag)


def test_eur09_attack_hexsides_kept_per_game_equal_the_map_reading() -> None:
    """EUR-09 The hexsides an attack crosses, kept per game (``_attack_hexsides``), equal the
    map read afresh: from every unit's hex on the map into each neighbour and a hex two
    away, frozen or not, every 50 commands of the oracle's heuristic game, asked twice, and
    across the map's hexsides no attack crosses; the river, frozen, blocked and not-adjacent
    answers are all seen."""
    from grognard.europa.combat.commands import _attack_hexsides

    seen: set[str] = set()
    for game in _oracle_game(50):
        ctx = game.context
        m = ctx.scenario.map
        for u in game.state["units"].values():
            if u["hex"] is None:
                continue
            i = m.index_of_label(u["hex"])
            near = [int(j) for j in m.neighbor_indices(i)]
            far = [int(k) for k in m.neighbor_indices(near[0]) if int(k) != i][:1]
            for j in near + far:
                label = m.label(j)
                target = m.layout.from_label(label)
                for frozen in (False, True):
                    want = _attack_hexsides_plain(m, u["hex"], target, frozen)
                    for _ in range(2):
                        assert _attack_hexsides(ctx, u["hex"], target, label, frozen) == want
                    seen.add(want if isinstance(want, str) else
                             "frozen" if any(w.startswith("frozen") for w in want) else
                             "river" if want else "open")
    # hexsides no attack crosses (sea, lake, impassable), from anywhere on the map
    from grognard.core.mapdata import HexsideFeature

    blocked = HexsideFeature.SEA | HexsideFeature.IMPASSABLE | HexsideFeature.LAKE
    m = game.context.scenario.map
    pairs = [(m.label(i), m.label(int(j))) for i in range(m.n) for j in m.neighbor_indices(i)
             if m.features_between(m.hex(i), m.hex(int(j))) & blocked][:50]
    for frm, label in pairs:
        target = m.layout.from_label(label)
        want = _attack_hexsides_plain(m, frm, target, False)
        assert _attack_hexsides(game.context, frm, target, label, False) == want == "blocked"
        seen.add(want)
    assert seen >= {"far", "blocked", "frozen", "river", "open"}, seen
