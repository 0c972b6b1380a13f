"""Typed state and events (issue 22 item 2): each rule system declares its state and its event
payloads as ``TypedDict`` s (``<system>/state_types.py``); these tests replay the refactor
oracle's recorded games of every shipped scenario and a whole heuristic campaign, and check
every sampled state (every key declared, none missing, the value types, every unit record)
and every event (its kind declared, its payload conforming) against the declarations, with
the small runtime checker of engine/testing.py."""

from __future__ import annotations

import gzip
import importlib
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any, get_type_hints

import pytest

from grognard.engine.commands import Command
from grognard.engine.events import Event
from grognard.engine.game import Game
from grognard.engine.plugins import system_named
from grognard.engine.scenario import load_scenario
from grognard.engine.testing import type_errors

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("record_oracle", ROOT / "scripts" / "record_oracle.py")
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)

#: Each rule system's declarations, its state type's name there, and the module whose
#: ``initial_state`` returns that type.
DECLARED = {
    "third_reich": ("grognard.third_reich.state_types", "TRState",
                    "grognard.third_reich.play.system"),
    "europa": ("grognard.europa.state_types", "EuropaState", "grognard.europa.play.system"),
    "eurofront": ("grognard.eurofront.state_types", "EFState", "grognard.eurofront.system"),
}
#: A state is checked after every CHECK_EVERY-th command (and at the start and the end); every
#: event is checked.
CHECK_EVERY = 10


def declarations(system: str) -> tuple[type, dict[str, Any]]:
    mod: ModuleType = importlib.import_module(DECLARED[system][0])
    return getattr(mod, DECLARED[system][1]), mod.EVENTS


def event_errors(ev: Event, events: dict[str, Any]) -> list[str]:
    if ev.type not in events:
        return [f"event {ev.type}: kind not declared"]
    return type_errors(dict(ev.data), events[ev.type], f"event {ev.type}")


def replay_checked(scenario: str, seed: int, commands: list[dict], every: int = CHECK_EVERY
                   ) -> tuple[list[str], int]:
    """Replay ``commands``; the declaration errors met (the first few) and the states checked."""
    game = Game(load_scenario(scenario), seed)
    state_type, events = declarations(game.scenario.system)
    errors = type_errors(game.state, state_type, f"{scenario} start")
    checked = 1
    for i, raw in enumerate(commands, 1):
        game.apply(Command.from_json(raw))
        for ev in game.events[-1]:
            errors += event_errors(ev, events)
        if i % every == 0 or i == len(commands):
            errors += type_errors(game.state, state_type, f"{scenario} after {i}")
            checked += 1
        if len(errors) > 20:
            break
    return errors, checked


GAMES = [g for g in oracle.load() if load_scenario(g["scenario"]).system in DECLARED]


@pytest.mark.parametrize("rec", GAMES, ids=[f"{g['scenario']}-{g['how']}-{g['seed']}"
                                            for g in GAMES])
def test_recorded_game_conforms_to_its_declarations(rec):
    errors, checked = replay_checked(rec["scenario"], rec["seed"], rec["commands"])
    assert not errors, "\n".join(errors[:20])
    assert checked >= 2


@pytest.mark.parametrize("name", ["tr-1939-campaign", "europa-barbarossa"])
def test_whole_heuristic_game_conforms(name):
    """The bench's whole heuristic game (every year of the war: Year Starts, the Murmansk box,
    SW rounds, invasions) against the declarations."""
    rec = json.loads(gzip.decompress((ROOT / "bench" / "data" / f"{name}-heuristic-1.json.gz")
                                     .read_bytes()))
    errors, _ = replay_checked(name, rec["seed"], rec["commands"], every=25)
    assert not errors, "\n".join(errors[:20])


@pytest.mark.parametrize("system", sorted(DECLARED))
def test_every_event_kind_is_declared_and_folded(system):
    """The declared kinds are exactly the kinds the system folds."""
    _, events = declarations(system)
    assert set(events) == set(system_named(system).folds)


@pytest.mark.parametrize("system", sorted(DECLARED))
def test_initial_state_is_annotated_with_the_declaration(system):
    state_type, _ = declarations(system)
    fn = importlib.import_module(DECLARED[system][2]).initial_state
    assert get_type_hints(fn)["return"] is state_type


def test_an_undeclared_key_or_a_wrong_type_is_refused():
    """The checks can fail: an undeclared top-level key, a missing one, a unit field of the
    wrong type, an unknown event kind and a payload of the wrong shape are all reported."""
    game = Game(load_scenario("tr-1939-campaign"), 1)
    state_type, events = declarations("third_reich")
    assert type_errors(game.state, state_type) == []
    s = json.loads(json.dumps(game.state))
    s["brand_new_key"] = 1
    del s["moved"]
    uid = next(iter(s["units"]))
    s["units"][uid]["attack"] = "3"
    s["units"][uid]["colour"] = "grey"
    got = type_errors(s, state_type)
    assert "state.brand_new_key: undeclared key" in got
    assert "state.moved: missing (declared required)" in got
    assert f"state.units.{uid}.attack: expected int, got str ('3')" in got
    assert f"state.units.{uid}.colour: undeclared key" in got
    assert event_errors(Event("unheard_of", {}), events) == ["event unheard_of: kind not declared"]
    bad = event_errors(Event("unit_built", {"power": "germany", "hex": "H36", "unit": "u",
                                            "cost": True, "rule": "TR-75"}), events)
    assert bad == ["event unit_built.cost: expected int, got bool (True)"]


def test_a_union_names_what_is_wrong_inside_its_record():
    """``Operation | None`` given a record missing a key: the error names the key."""
    from grognard.eurofront.state_types import Operation
    got = type_errors({"side": "axis", "hq": "h", "hex": "0101", "range": "3", "air": None},
                      Operation | None, "operation")
    assert got == ["operation.range: expected int, got str ('3')"]


def test_generic_game_conforms_to_the_generic_declarations():
    """engine/state_types.py: a generic game (a move, a table roll, phase ends)."""
    from grognard.engine import state_types as generic_types
    from grognard.engine.testing import small_game
    assert set(generic_types.EVENTS) == set(system_named("generic").folds)
    g = small_game("generic", "....", [{"id": "u", "side": "axis", "type": "infantry",
                                        "attack": 1, "defense": 1, "movement": 3,
                                        "hex": "0101"}])
    g.apply(Command("move", "axis", {"unit": "u", "path": ["0201"]}))
    g.apply(Command("end_phase", "axis"))
    g.apply(Command("roll_table", "axis", {"table": "europa_revised_crt", "column": "3-1",
                                           "drm": 0}))
    kinds = [ev.type for evs in g.events for ev in evs]
    assert kinds == ["unit_moved", "phase_ended", "table_rolled"]
    for evs in g.events:
        for ev in evs:
            assert event_errors(ev, generic_types.EVENTS) == []
    assert type_errors(g.state, generic_types.GenericState) == []
    g.state["units"]["u"]["steps"] = 2
    assert type_errors(g.state, generic_types.GenericState) == [
        "state.units.u.steps: undeclared key"]


def _dirty_tr_state() -> dict[str, Any]:
    """A 3R start state in which every key a phase end may reset holds something."""
    from grognard.engine.state import copy_state
    from grognard.third_reich import state_types as tr
    s = copy_state(Game(load_scenario("tr-1939-campaign"), 1).state)
    for key, empty in {**tr.PER_PHASE, **tr.PER_GAME_TURN}.items():
        s[key] = True if empty is False else ["dirty"] if empty == [] else {"dirty": 1}
    for key in tr.PER_PLAYER_TURN | tr.DROPPED_PER_GAME_TURN:
        s[key] = {"dirty": 1} if key in ("neutralized", "counter_air") else ["dirty"]
    for u in s["units"].values():
        u["mp_spent"] = 2
    return s


@pytest.mark.parametrize("how", ["phase", "player_turn", "game_turn"])
def test_tr02_phase_end_resets_exactly_the_declared_keys(how):
    """third_reich/state_types.py's PER_PHASE, PER_PLAYER_TURN, PER_GAME_TURN and
    DROPPED_PER_GAME_TURN are what ``fold_phase_ended`` resets, and it touches nothing else
    (besides the phase pointer, the units' MPs and, in a new game turn, the economy's turn)."""
    from grognard.third_reich import state_types as tr
    from grognard.third_reich.play.orders.end_phase import fold_phase_ended
    before = _dirty_tr_state()
    state = json.loads(json.dumps(before))
    data: dict[str, Any] = {"from": {"turn": 1, "phase": 0},
                            "to": {"turn": 2 if how == "game_turn" else 1, "phase": 1}}
    if how != "phase":
        data["player_turn_ended"] = True
    after = fold_phase_ended(state, Event("phase_ended", data))
    reset = dict(tr.PER_PHASE)
    dropped: set[str] = set()
    if how != "phase":
        dropped |= tr.PER_PLAYER_TURN
    if how == "game_turn":
        reset |= tr.PER_GAME_TURN
        dropped |= tr.DROPPED_PER_GAME_TURN
    for key, empty in reset.items():
        assert after[key] == empty, key
    assert not dropped & after.keys()
    assert all(u["mp_spent"] == 0 for u in after["units"].values())
    moved_on = {"turn", "phase", "units", *(["economy"] if how == "game_turn" else [])}
    kept = before.keys() - reset.keys() - dropped - moved_on
    assert {k for k in kept if after[k] != before[k]} == set()
    assert after.keys() == before.keys() - dropped


#: The rule code that still takes its state untyped (``state: JSON``, i.e. Any, so mypy checks
#: none of its reads): file under src/grognard -> its functions ("*": every one).
UNTYPED_STATE: dict[str, set[str]] = {
}


def untyped_state_params(path: Path) -> list[str]:
    """The functions of ``path`` with a state parameter (``state``, or ``s`` in folds)
    annotated ``JSON``."""
    import ast
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
                if a.arg in ("state", "s") and a.annotation is not None \
                        and ast.unparse(a.annotation) == "JSON":
                    out.append(node.name)
    return out


@pytest.mark.parametrize("system", ["eurofront", "europa", "third_reich"])
def test_rule_code_reads_the_declared_state(system):
    """Issue 22 item 2: the rule functions, Orders and folds of a typed system take its
    declared state (``EFState``, ``EuropaState``, ``TRState``), so mypy checks every
    ``state["..."]`` read against the declarations; none takes ``state: JSON`` but those
    listed in UNTYPED_STATE."""
    src = ROOT / "src" / "grognard"
    found = {}
    for path in sorted((src / system).rglob("*.py")):
        rel = path.relative_to(src).as_posix()
        allowed = UNTYPED_STATE.get(rel, set())
        bad = [f for f in untyped_state_params(path) if "*" not in allowed and f not in allowed]
        if bad:
            found[rel] = bad
    assert not found, f"state: JSON (declare it with the system's state type): {found}"


def test_every_fold_reads_its_declared_payload():
    """Issue 22 item 2: each fold of the three systems that reads its event's payload reads it
    through its declared type (one ``cast(<Payload>, ev.data)``), so mypy checks every
    ``d["..."]`` read; a fold that reads ``ev.data[...]`` untyped is named here (but
    Europa's ``fold_statuses``, a helper the air folds share that reads the two status keys
    of several payloads)."""
    import ast
    shared = {"europa/air/missions.py:fold_statuses"}
    src = ROOT / "src" / "grognard"
    found = []
    for system in ("eurofront", "europa", "third_reich"):
        for path in sorted((src / system).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.FunctionDef) or not node.name.startswith("fold_") \
                        or [a.arg for a in node.args.args][1:2] != ["ev"]:
                    continue
                casts = reads = 0
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Call) and ast.unparse(sub.func) == "cast" \
                            and ast.unparse(sub.args[1]) == "ev.data":
                        casts += 1
                    elif (isinstance(sub, ast.Subscript) and ast.unparse(sub.value) == "ev.data") \
                            or (isinstance(sub, ast.Call)
                                and ast.unparse(sub.func) == "ev.data.get"):
                        reads += 1
                where = f"{path.relative_to(src).as_posix()}:{node.name}"
                if reads and not casts and where not in shared:
                    found.append(where)
    assert not found, f"folds reading ev.data untyped: {found}"


def test_tr32_a_forced_retreat_conforms_to_its_declaration():
    """The engine's only legal retreat (``forced_retreat``, TR-32) - never met in the
    oracle's games - is declared on ``battle_resolved`` (it was missing until mypy-typed
    folds made the payload reads visible): tests/third_reich/test_retreat_choice.py's battle,
    its event checked."""
    spec = importlib.util.spec_from_file_location(
        "retreat_choice", ROOT / "tests" / "third_reich" / "test_retreat_choice.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    g, d = mod.battle(mod.SEED_DR, {"fr-inf1": "B9", "fr-inf2": "B9"})
    assert d["forced_retreat"]["side"] == "allies"
    _, events = declarations("third_reich")
    assert event_errors(Event("battle_resolved", d), events) == []
    assert type_errors(g.state, declarations("third_reich")[0]) == []


def test_an_untyped_state_parameter_is_found(tmp_path):
    p = tmp_path / "m.py"
    p.write_text("def fold_x(state: JSON, ev: Event) -> JSON:\n    return state\n"
                 "def fine(state: EuropaState) -> None: ...\n"
                 "def inner(s: JSON, d: JSON) -> None: ...\n")
    assert untyped_state_params(p) == ["fold_x", "inner"]
