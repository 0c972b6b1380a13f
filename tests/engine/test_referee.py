"""The referee (issue 11): who acts, decisions, legal actions, undo, snapshots, fuzzing."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grognard.core.errors import IllegalOrder
from grognard.engine import generic
from grognard.engine.commands import Command, CommandSpec
from grognard.engine.decisions import Decision
from grognard.engine.events import Event
from grognard.engine.fuzz import choose, fuzz, leaks, log_leaks, play
from grognard.engine.game import CHECKPOINT_EVERY, Game
from grognard.engine.save import dumps, loads
from grognard.engine.scenario import load_scenario
from grognard.engine.testing import assert_rejected

SCENARIO = load_scenario(Path(__file__).parent / "data" / "generic.toml")
ROLL = Command("roll_table", "axis", {"table": "europa_revised_crt", "column": "3-1"})


def new_game(system=None, seed=5) -> Game:
    return Game(SCENARIO, seed, system=system)


def with_hooks(**hooks):
    return dataclasses.replace(generic.GENERIC, **hooks)


# --- legal actions ------------------------------------------------------------------------
def test_c_seq_phase_player_acts_and_others_wait():
    g = new_game()
    assert g.active() == ("axis",)
    assert g.prompt("axis") == "Axis: movement phase - move, or end the phase"
    assert g.prompt("soviet").startswith("Waiting for Axis: movement phase")
    assert g.legal("soviet") == []
    assert_rejected(g, Command("end_phase", "soviet"), "axis's movement phase; soviet may not")


def test_unknown_command_lists_what_the_player_may_do_now():
    g = new_game()
    err = assert_rejected(g, Command("attack", "axis"), "unknown command")
    assert "axis may: end_phase, move" in str(err)


def test_every_enumerated_move_passes_verify_and_reaches_its_hex_cheapest():
    g = new_game()
    moves = g.legal("axis", "move")
    assert moves and {c.kind for c in moves} == {"move"}
    for cmd in moves:
        g.verify(cmd)
    g.apply(Command("move", "axis", {"unit": "de-5inf", "to": "0503"}))
    ev = g.events[-1][0]
    # 0303 -> 0403 -> 0503: two clear hexes, the cheapest of the paths
    assert ev.data["path"][-1] == "0503" and ev.data["mp"] == 2


@settings(max_examples=60)
@given(st.integers(0, 10_000))
def test_c_move_enumeration_is_complete_for_random_paths(seed):
    """Every explicit path that verify accepts ends on a hex the enumeration lists."""
    g = new_game()
    rng = random.Random(seed)
    m = SCENARIO.map
    uid = rng.choice(["de-7pz", "de-20mot", "de-5inf", "de-art"])
    here = m.index_of_label(g.state["units"][uid]["hex"])
    path = []
    for _ in range(rng.randint(1, 6)):
        nbrs = m.neighbor_indices(here).tolist()
        here = rng.choice(nbrs)
        path.append(m.label(here))
    cmd = Command("move", "axis", {"unit": uid, "path": path})
    listed = {(c.args["unit"], c.args["to"]) for c in g.legal("axis", "move")}
    if g.can(cmd) and path[-1] != g.state["units"][uid]["hex"]:
        assert (uid, path[-1]) in listed


def test_end_phase_is_offered_only_when_it_passes():
    g = new_game()
    assert Command("end_phase", "axis") in g.legal("axis")


# --- decisions ------------------------------------------------------------------------------
def _owed_after_roll(ctx, state):
    rolls = state["rolls"]
    if rolls and not state.get("acknowledged"):
        return [Decision("soviet", frozenset({"acknowledge"}), "Soviet: acknowledge the roll",
                         "TEST-1")]
    return []


def _ack_fold(state, ev):
    state["acknowledged"] = True
    return state


ACK = CommandSpec("acknowledge", lambda c, s, cmd: None,
                  lambda c, s, cmd, d: [Event("acknowledged", {})],
                  legal=lambda c, s, p: [Command("acknowledge", p)])


def decision_system():
    return with_hooks(decisions=_owed_after_roll,
                      commands={**generic.GENERIC.commands, "acknowledge": ACK},
                      folds={**generic.GENERIC.folds, "acknowledged": _ack_fold})


def test_a_decision_owed_makes_its_player_act_and_the_phase_cannot_end():
    g = new_game(decision_system())
    g.apply(Command("end_phase", "axis"))
    g.apply(ROLL)
    assert g.active() == ("soviet",)
    assert g.prompt("soviet") == "Soviet: acknowledge the roll"
    assert g.legal("axis") == [] and g.legal("soviet") == [Command("acknowledge", "soviet")]
    err = assert_rejected(g, Command("end_phase", "axis"), "TEST-1: a decision is owed first")
    assert "acknowledge the roll" not in str(err)  # another player's prompt is not shown
    assert_rejected(g, Command("end_phase", "soviet"), "not the decision owed")
    g.apply(Command("acknowledge", "soviet"))
    assert g.active() == ("axis",) and g.status()["decisions"] == []


def test_simultaneous_decisions_name_every_player():
    def both(ctx, state):
        return [Decision(p, frozenset({"acknowledge"}), f"{p}: choose", "TEST-2")
                for p in ("axis", "soviet")]
    g = new_game(with_hooks(decisions=both,
                            commands={**generic.GENERIC.commands, "acknowledge": ACK},
                            folds={**generic.GENERIC.folds, "acknowledged": _ack_fold}))
    assert g.active() == ("axis", "soviet")
    assert g.legal("soviet") == [Command("acknowledge", "soviet")]


def test_game_over_stops_play():
    def over(ctx, state):
        return {"winner": "soviet", "summary": "Soviet win"} if state["turn"] > 1 else None
    g = new_game(with_hooks(game_over=over))
    for _ in range(4):
        g.apply(Command("end_phase", g.active()[0]))
    assert g.over and g.active() == () and g.legal("axis") == []
    assert g.prompt("axis") == "The game is over: Soviet win"
    assert_rejected(g, Command("end_phase", "axis"), "game is over")


# --- undo -----------------------------------------------------------------------------------
def test_undo_restores_the_exact_state_and_is_refused_across_a_die_roll():
    g = new_game()
    h0 = g.state_hash()
    g.apply(Command("move", "axis", {"unit": "de-7pz", "to": "0504"}))
    g.apply(Command("move", "axis", {"unit": "de-5inf", "to": "0403"}))
    assert g.undo("axis").args["unit"] == "de-5inf"
    assert g.undo("axis").args["unit"] == "de-7pz"
    assert g.state_hash() == h0 and g.commands == []
    g.apply(Command("end_phase", "axis"))
    g.apply(ROLL)
    h1 = g.state_hash()
    with pytest.raises(IllegalOrder, match="a die was rolled"):
        g.undo("axis")
    assert g.state_hash() == h1


def test_undo_is_refused_after_handing_over_and_for_another_player():
    g = new_game()
    for _ in range(2):
        g.apply(Command("end_phase", "axis"))
    assert g.active() == ("soviet",)
    assert "soviet now acts" in (g.undo_refusal("axis") or "")
    assert g.undo_refusal("soviet") == "the last command was axis's"  # its kind is not named


def test_states_rebuilt_from_checkpoints_equal_replays_and_a_failed_fold_changes_nothing():
    g = new_game()
    rng = random.Random(4)
    while len(g.commands) < 2 * CHECKPOINT_EVERY + 5:
        g.apply(choose(g, rng))
    for n in (3, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 1, 2 * CHECKPOINT_EVERY + 4):
        assert g.state_at(n) == Game.replay(SCENARIO, 5, g.commands[:n]).state
    with pytest.raises(IllegalOrder, match="no position"):
        g.state_at(len(g.commands) + 1)

    def boom(state, ev):
        state["units"]["de-7pz"]["hex"] = "0101"
        raise RuntimeError("fold failed half-way")
    bad = new_game(with_hooks(folds={**generic.GENERIC.folds, "unit_moved": boom}))
    before = bad.state_hash()
    with pytest.raises(RuntimeError):
        bad.apply(Command("move", "axis", {"unit": "de-7pz", "to": "0504"}))
    assert bad.state_hash() == before and bad.commands == []


# --- saves: snapshot and verified loads --------------------------------------------------------
def test_save_snapshot_loads_without_replay_and_matches_a_verified_load():
    g = new_game()
    rng = random.Random(2)
    for _ in range(30):
        g.apply(choose(g, rng))
    text = dumps(g)
    fast, full = loads(text, verify=False), loads(text, verify=True)
    assert fast.state == full.state == g.state and fast.dice.snapshot() == g.dice.snapshot()
    assert dumps(fast) == dumps(full) == text
    raw = json.loads(text)
    raw["snapshot"]["state"]["turn"] = 99
    with pytest.raises(Exception, match="snapshot's state hash"):
        loads(json.dumps(raw), verify=False)


def test_undo_works_on_a_game_restored_from_its_snapshot():
    g = new_game()
    g.apply(Command("move", "axis", {"unit": "de-7pz", "to": "0504"}))
    h = g.state_hash()
    g.apply(Command("move", "axis", {"unit": "de-5inf", "to": "0403"}))
    again = loads(dumps(g), verify=False)
    again.undo("axis")
    assert again.state_hash() == h


# --- fuzzing ----------------------------------------------------------------------------------
def test_fuzz_plays_random_legal_games_without_failures():
    report = fuzz(SCENARIO, games=3, seed=7, max_commands=150)
    assert report.failures == [] and report.games == 3
    assert {r.end for r in report.runs} == {"limit"} and report.commands == 450


def test_fuzz_reports_a_refused_enumerated_action():
    liar = generic.GENERIC.commands["move"].with_legal(
        lambda c, s, p: [Command("move", p, {"unit": "de-7pz", "to": "0909"})])
    sys_ = with_hooks(commands={**generic.GENERIC.commands, "move": liar})
    found = play(SCENARIO, 1, max_commands=200, system=sys_).failures
    assert found and found[0].kind == "refused" and "0909" in found[0].detail


def test_fuzz_reports_dead_ends_crashes_and_leaks():
    stuck = with_hooks(decisions=lambda c, s: [Decision("soviet", frozenset({"nothing"}),
                                                        "Soviet: impossible", "T")])
    assert play(SCENARIO, 1, system=stuck).failures[0].kind == "dead_end"

    def crash(ctx, state, cmd, dice):
        raise KeyError("boom")
    broken = generic.GENERIC.commands["move"]
    broken = CommandSpec("move", broken.verify, crash, legal=broken.legal)
    crashing = with_hooks(commands={**generic.GENERIC.commands, "move": broken})
    fails = play(SCENARIO, 3, max_commands=300, system=crashing).failures
    assert fails[0].kind == "crash" and "KeyError" in fails[0].detail

    leaky = with_hooks(view=lambda state, player: state)
    g = Game(SCENARIO, 1, system=leaky)
    g.state["secrets"]["axis"] = {"plan": "secret"}
    assert leaks(g) == ["soviet's view holds the secrets of axis"]


def test_c_hidden_event_views_hide_and_fuzz_checks_logs():
    def hide_moves(ev, player, state):
        unit = state["units"].get(ev.data.get("unit", ""), {})
        if ev.type == "unit_moved" and unit.get("side") != player:
            return None
        return ev.to_json()
    g = new_game(with_hooks(event_view=hide_moves))
    g.apply(Command("move", "axis", {"unit": "de-7pz", "to": "0504"}))
    assert g.events_for("soviet") == [[]]
    assert g.events_for("axis")[0][0]["type"] == "unit_moved"
    g.state["units"]["de-7pz"]["hidden"] = True
    assert log_leaks(g) == []
    plain = new_game()
    plain.apply(Command("move", "axis", {"unit": "de-7pz", "to": "0504"}))
    plain.state["units"]["de-7pz"]["hidden"] = True
    assert log_leaks(plain) == ["soviet's log of the last command names axis's hidden unit de-7pz"]


def test_c_hidden_units_are_numbered_by_place_not_by_id():
    from grognard.engine.views import hide_secrets
    state = {"units": {"a-1": {"side": "axis", "hex": "0909", "hidden": True},
                       "z-9": {"side": "axis", "hex": "0101", "hidden": True}}}
    shown = hide_secrets(state, "soviet")["units"]
    assert shown["hidden-1"]["hex"] == "0101" and shown["hidden-2"]["hex"] == "0909"
