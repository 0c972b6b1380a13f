"""EF-18 fog of war: the HQ running an operation was revealed when activated; if it retreats
out of a lost battle it stays face up until its operation closes, and no view ever names an
enemy block that stands face down. Found by the 200-game heuristic bot fuzz of eurofront-1941
(22 of 200 games: the Axis view named the Soviet HQ of the running operation after it
retreated face down)."""

from __future__ import annotations

import json
from pathlib import Path

from grognard.engine import Game
from grognard.engine.commands import Command
from grognard.engine.fuzz import leaks
from grognard.engine.scenario import load_scenario

DATA = Path(__file__).parent / "data" / "hq_retreat_seed1020.json"


def _fuzzed_game() -> tuple[Game, list[Command]]:
    raw = json.loads(DATA.read_text())
    cmds = [Command(c["kind"], c["player"], c["args"]) for c in raw["commands"]]
    return Game.new(load_scenario(raw["scenario"]), seed=raw["seed"]), cmds


def test_ef18_no_view_names_a_face_down_enemy_block_in_the_fuzzed_game():
    g, cmds = _fuzzed_game()
    for cmd in cmds:
        g.apply(cmd)
        assert leaks(g) == [], (len(g.commands), cmd)


def test_ef18_the_operations_hq_retreats_face_up_and_turns_down_when_it_closes():
    g, cmds = _fuzzed_game()
    for cmd in cmds:
        g.apply(cmd)
    last = g.commands[-1]
    assert last.kind == "retreat" and last.args["block"] == "su-hq-west"
    op = g.state["operation"]
    assert op is not None and op["hq"] == "su-hq-west"
    hq = g.state["units"]["su-hq-west"]
    assert hq["hex"] == "1105" and hq["hidden"] is False
    # the other retreating block stands face down again
    assert g.state["units"]["su-mc1"]["hidden"] is True
    assert "su-mc1" not in json.dumps(g.view("axis"))
    # the axis sees the HQ running the operation, the allies too
    assert g.view("axis")["operation"]["hq"] == "su-hq-west"
    # once the operation closes, the HQ stands face down and the axis no longer names it
    for _ in range(100):  # the operation runs on to its close, whoever acts
        if g.state["operation"] is None:
            break
        (player,) = g.active()[:1]
        kinds = sorted(g.allowed(player), key=lambda k: k != "end_operation")
        g.apply(next(c for k in kinds for c in g.legal(player, k)))
    assert g.state["operation"] is None
    assert g.state["units"]["su-hq-west"]["hidden"] is True
    assert "su-hq-west" not in json.dumps(g.view("axis"))
