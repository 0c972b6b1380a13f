"""The folds' unit-write declarations and the units log (issue 22): what a fold says it writes
of ``state["units"]`` is checked against what changed, command by command, in random and
recorded games of each system; a unit index kept across commands always equals one made
again from every unit; undo, restore and a failed command make the log forget."""

from __future__ import annotations

import copy
import gzip
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grognard.engine.commands import Command
from grognard.engine.context import UnitsLog
from grognard.engine.events import Event, unit_writes, writes_units
from grognard.engine.fuzz import choose
from grognard.engine.game import Game
from grognard.engine.save import dumps, loads
from grognard.engine.scenario import load_scenario

BENCH = Path(__file__).resolve().parents[2] / "bench" / "data"


def _random_commands(g: Game, n: int, seed: int) -> Iterator[Command]:
    rng = random.Random(seed)
    for _ in range(n):
        if g.over:
            return
        cmd = choose(g, rng)
        if cmd is None:
            return
        yield cmd


def _recorded(name: str, n: int) -> tuple[Game, list[Command]]:
    rec = json.loads(gzip.decompress((BENCH / f"{name}-heuristic-1.json.gz").read_bytes()))
    return (Game(load_scenario(name), rec["seed"]),
            [Command.from_json(c) for c in rec["commands"][:n]])


def _changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, set[str]]:
    """The fields that changed in each unit's record (a unit added or removed: all)."""
    out: dict[str, set[str]] = {}
    for uid in before.keys() | after.keys():
        a, b = before.get(uid), after.get(uid)
        if a is None or b is None:
            out[uid] = {"*"}
        elif a != b:
            out[uid] = {k for k in a.keys() | b.keys() if a.get(k) != b.get(k)}
    return out


def _check(g: Game, commands: Iterator[Command] | list[Command]) -> int:
    """Apply ``commands``; after each, every changed record is one the log names (or the log
    cannot tell), and the units keep their order. Returns the commands the log could tell."""
    told = 0
    log = g.context.units_log
    for cmd in commands:
        before = copy.deepcopy(g.state["units"])
        version = log.version
        g.apply(cmd)
        units = g.state["units"]
        changed = _changes(before, units)
        common = [u for u in before if u in units]
        assert [u for u in units if u in before] == common, cmd  # the table's order is kept
        for uid, fields in changed.items():
            reads = frozenset(fields - {"*"}) or frozenset({"hex"})
            named = log.changed_since(units, version, reads)
            assert named is None or uid in named, (cmd, uid, fields)
        if log.changed_since(units, version, frozenset({"hex"})) is not None:
            told += 1
    return told


@pytest.mark.parametrize("name", ["tr-1939-campaign", "demo-europa", "europa-barbarossa",
                                  "tr-1939-two-fronts"])
def test_declared_unit_writes_cover_what_random_games_change(name: str) -> None:
    g = Game(load_scenario(name), 3)
    told = _check(g, _random_commands(g, 250, 3))
    assert told > 0  # the declarations let the log tell (moves, phase ends) - not all None


@pytest.mark.parametrize("name", ["tr-1939-campaign", "europa-barbarossa"])
def test_declared_unit_writes_cover_what_a_recorded_heuristic_game_changes(name: str) -> None:
    g, cmds = _recorded(name, 700)
    assert _check(g, cmds) > len(cmds) // 2


#: The 3R combat events whose folds declare the units they write (battle, losses, retreat,
#: advance, attrition losses and withdrawal), and the commands that emit them.
COMBAT_EVENTS = frozenset({"battle_resolved", "land_losses_chosen", "retreated",
                           "units_advanced", "attrition_losses_removed", "withdrawn"})
COMBAT_KINDS = frozenset({"attack", "land_losses", "retreat", "advance", "remove_losses",
                          "withdraw", "take_hexes", "defensive_air"})


def test_tr_combat_fold_declarations_cover_the_whole_recorded_game() -> None:
    """Every combat command of the whole recorded 3R game: what its folds declare covers
    every unit record that changed, and the log can tell (the declarations name units)."""
    g, cmds = _recorded("tr-1939-campaign", 10_000)
    seen: set[str] = set()
    checked = 0
    for cmd in cmds:
        if cmd.kind not in COMBAT_KINDS:
            g.apply(cmd)
            continue
        before = copy.deepcopy(g.state["units"])
        log = g.context.units_log
        version = log.version
        events = g.apply(cmd)
        units = g.state["units"]
        changed = _changes(before, units)
        named = log.changed_since(units, version, frozenset({"hex", "status", "attack"}))
        types = {e.type for e in events}
        if types & COMBAT_EVENTS and not types - COMBAT_EVENTS - {"reaction_owed",
                                                                  "reaction_made"}:
            assert named is not None, (cmd, types)  # declared: the log tells
            seen |= types & COMBAT_EVENTS
        for uid in changed:
            assert named is None or uid in named, (cmd, uid, changed[uid])
        checked += bool(changed)
    assert seen == COMBAT_EVENTS, seen
    assert checked > 30


def _placement_scan(state: dict[str, Any]) -> tuple[tuple[Any, ...], ...]:
    from grognard.core.units import GROUND_TYPES

    return tuple(
        (uid, u["hex"], u["side"], u["type"], u["nationality"], u["attack"], u["movement"],
         u.get("power")) for uid, u in state["units"].items()
        if u["status"] == "active" and u["hex"] is not None and u["type"] in GROUND_TYPES)


def test_tr_placement_key_kept_by_the_log_equals_a_scan_after_every_command() -> None:
    from grognard.third_reich.board import placement_key

    g, cmds = _recorded("tr-1939-campaign", 600)
    for cmd in cmds:
        g.apply(cmd)
        assert placement_key(g.context, g.state) == _placement_scan(g.state)


def test_undo_then_the_same_command_again_gives_the_same_digests_and_index() -> None:
    from grognard.third_reich.board import placement_key

    g, cmds = _recorded("tr-1939-campaign", 300)
    ref, _ = _recorded("tr-1939-campaign", 300)
    undone = 0
    for cmd in cmds:
        placement_key(g.context, g.state)  # an index made before the command
        events = g.apply(cmd)
        ref.apply(cmd)
        if g.can_undo(cmd.player):
            back = g.undo(cmd.player)
            assert back == cmd
            assert not g.context.units_log.changed_since(
                g.state["units"], g.context.units_log.version, frozenset({"hex"}))
            assert placement_key(g.context, g.state) == _placement_scan(g.state)
            assert g.apply(cmd) == events
            undone += 1
        assert g.state_hash() == ref.state_hash()
        assert placement_key(g.context, g.state) == _placement_scan(g.state)
    assert undone > 50


def test_a_restored_game_reads_its_units_whole() -> None:
    g, cmds = _recorded("tr-1939-campaign", 120)
    for cmd in cmds:
        g.apply(cmd)
    back = loads(dumps(g), "<test>", verify=False)
    log = back.context.units_log
    assert log.changed_since(back.state["units"], log.version, frozenset({"hex"})) is None


def test_the_log_cannot_tell_for_another_table_a_lost_log_or_a_read_field_written() -> None:
    log = UnitsLog()
    table: dict[str, Any] = {}
    log.note(table, frozenset({"z"}), frozenset())  # a new table: every unit counts as changed
    assert log.changed_since(table, log.version - 1, frozenset({"hex"})) is None
    log.note(table, frozenset({"a"}), frozenset())
    v = log.version
    log.note(table, frozenset({"b"}), frozenset({"mp_spent"}))
    assert log.changed_since(table, v, frozenset({"hex"})) == {"b"}
    assert log.changed_since(table, v - 1, frozenset({"hex"})) == {"a", "b"}
    assert log.changed_since(table, v, frozenset({"mp_spent"})) is None  # written everywhere
    assert log.changed_since({}, v, frozenset({"hex"})) is None  # not the table followed
    log.note(table, frozenset(), frozenset())  # a command writing no unit: same version
    assert log.changed_since(table, log.version, frozenset({"hex"})) == frozenset()
    log.folding = True
    assert log.changed_since(table, log.version, frozenset({"hex"})) is None
    log.note(table, None, frozenset())  # an undeclared fold: any unit
    assert log.changed_since(table, v, frozenset({"hex"})) is None
    log.lost()
    assert log.changed_since(table, log.version, frozenset({"hex"})) is None


def test_unit_index_reads_only_the_changed_units_and_a_copy_whole() -> None:
    g = Game(load_scenario("demo-europa"), 7)
    ctx, reads = g.context, frozenset({"hex"})
    seen: list[str] = []

    def entry(uid: str, u: Any) -> Any:
        seen.append(uid)
        return u["hex"]

    g.apply(Command("move", "axis", {"unit": "de-7pz", "path": ["0504"]}))  # the table followed
    first = dict(ctx.unit_index(g.state, "t", reads, entry))
    assert len(seen) == len(g.state["units"])
    seen.clear()
    cmd = g.sample("axis", "move", random.Random(1))
    assert cmd is not None
    g.apply(cmd)
    mover = str(cmd.args["unit"])
    index = ctx.unit_index(g.state, "t", reads, entry)
    assert seen == [mover] and index[mover] == g.state["units"][mover]["hex"] != first[mover]
    assert {k: v for k, v in index.items() if k != mover} == \
        {k: v for k, v in first.items() if k != mover}
    seen.clear()
    copied = copy.deepcopy(g.state)
    assert ctx.unit_index(copied, "t", reads, entry) == index
    assert len(seen) == len(g.state["units"])  # a copy is not the table the log follows


def test_a_fold_that_fails_makes_the_log_forget() -> None:
    g = Game(load_scenario("demo-europa"), 7)
    log = g.context.units_log
    g.apply(Command("move", "axis", {"unit": "de-7pz", "path": ["0504"]}))
    folds = dict(g.system.folds)

    @writes_units()
    def broken(state: Any, ev: Event) -> Any:
        raise RuntimeError("a broken fold")

    folds["unit_moved"] = broken
    g.system = type(g.system)(**{**g.system.__dict__, "folds": folds})
    with pytest.raises(RuntimeError):
        g.apply(Command("move", "soviet", {"unit": "su-112rifle", "path": ["0703"]})
                if "soviet" in g.active() else
                Command("move", "axis", {"unit": "de-7pz", "path": ["0505"]}))
    assert log.changed_since(g.state["units"], log.version, frozenset({"hex"})) is None


def test_writes_units_marks_the_function() -> None:
    @writes_units(lambda ev: [str(ev.data["unit"])], fields=("mp_spent",))
    def fold(state: Any, ev: Event) -> Any:
        return state

    w = unit_writes(fold)
    assert w is not None and w.fields == {"mp_spent"}
    assert w.named is not None and list(w.named(Event("x", {"unit": "a"}))) == ["a"]
    assert unit_writes(lambda s, e: s) is None


def test_europa_enemy_key_kept_by_the_log_equals_a_scan_after_every_command() -> None:
    from grognard.europa import movement as mv

    g, cmds = _recorded("europa-barbarossa", 900)
    for i, cmd in enumerate(cmds):
        g.apply(cmd)
        if i % 3:
            continue
        units = g.state["units"]
        for player in g.scenario.sides:
            kept = tuple(filter(None, g.context.unit_index(
                g.state, f"europa.enemy_key.{player}", mv._ENEMY_FIELDS,
                lambda _uid, u, p=player: mv._enemy_entry(u, p)).values()))
            assert kept == tuple((u["hex"], u.get("zoc_class", 1)) for u in units.values()
                                 if u["hex"] is not None and u["side"] != player
                                 and u["status"] == "active")
