"""engine: commands checked, executed into events, folded; saves, replays, views."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grognard.core.errors import GrognardError, IllegalOrder
from grognard.engine import Command, Game
from grognard.engine.game import ReplayMismatch
from grognard.engine.save import SaveError, dumps, loads
from grognard.engine.scenario import load_scenario

EU = load_scenario("demo-europa")
TR = load_scenario("demo-third-reich")


def move(unit, *path, player="axis"):
    return Command("move", player, {"unit": unit, "path": list(path)})


def test_move_applies_and_records_cost():
    g = Game(EU, 1)
    (ev,) = g.apply(move("de-7pz", "0504", "0604"))  # river hexside between 0504 and 0604
    assert ev.data == {"unit": "de-7pz", "from": "0404", "path": ["0504", "0604"], "mp": 3,
                       "rules": ["EUR-17"]}  # 0604 is in a Soviet ZOC: armor may go on
    assert g.state["units"]["de-7pz"]["hex"] == "0604"
    assert g.state["units"]["de-7pz"]["mp_spent"] == 3


@pytest.mark.parametrize(
    ("cmd", "message"),
    [
        (move("su-112rifle", "0703", player="soviet"), "it is axis's movement phase"),
        (move("su-112rifle", "0703"), "belongs to soviet"),
        (move("de-7pz", "0604"), "not adjacent"),
        (move("de-7pz", "0504", "0604", "0704"), "occupied by the enemy"),
        (move("de-5inf", "0302", "0301", "0401", "0402"), "needs 7 MPs for that path and has 4"),
        (move("de-7pz", "0304"), "0304 is lake"),
        (move("ghost", "0504"), "no unit 'ghost'"),
        (Command("roll_table", "axis", {"table": "europa_revised_crt", "column": "3-1"}),
         "not allowed in the movement phase"),
        (Command("teleport", "axis", {}), "unknown command 'teleport'"),
    ],
)
def test_illegal_commands_leave_state_untouched(cmd, message):
    g = Game(EU, 1)
    before = g.state_hash()
    draws = g.dice.snapshot()
    assert not g.can(cmd)
    with pytest.raises(IllegalOrder) as exc:
        g.apply(cmd)
    assert message in str(exc.value)
    assert g.state_hash() == before and g.commands == [] and g.dice.snapshot() == draws


def test_roll_table_records_dice_and_clamps():
    g = Game(EU, 11)
    g.apply(Command("end_phase", "axis"))
    (ev,) = g.apply(Command("roll_table", "axis",
                            {"table": "europa_revised_crt", "column": "7-1", "drm": 5}))
    d = ev.data
    assert d["natural"] == sum(d["dice"]) and d["modified"] == min(d["natural"] + 5, 12)
    assert d["result"] == g.context.tables.table("europa_revised_crt").lookup(d["modified"],
                                                                              "7-1")


def test_phase_sequence_is_data():
    g = Game(EU, 1)
    names = []
    for _ in range(len(EU.sequence.phases) + 1):
        names.append((g.turn, g.phase.player, g.phase.name))
        g.apply(Command("end_phase", g.phase.player))
    assert names == [(1, "axis", "movement"), (1, "axis", "combat"),
                     (1, "soviet", "movement"), (1, "soviet", "combat"),
                     (2, "axis", "movement")]


def script(game: Game, choices: list[int]) -> None:
    """Drive a game with arbitrary (legal or not) orders chosen by index."""
    orders = [
        lambda p: Command("end_phase", p),
        lambda p: Command("roll_table", p, {"table": "europa_revised_crt", "column": "3-1"}),
        lambda p: Command("roll_table", p, {"table": "tr_new3r_airnaval", "drm": 1}),
        lambda p: move("de-7pz", "0504", player=p),
        lambda p: move("su-23tank", "1004", player=p),
        lambda p: move("de-5inf", "0402", player=p),
    ]
    for c in choices:
        cmd = orders[c % len(orders)](game.phase.player)
        if game.can(cmd):
            game.apply(cmd)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.lists(st.integers(0, 50), max_size=25))
def test_same_seed_and_orders_same_hash_and_replay(seed, choices):
    a, b = Game(EU, seed), Game(EU, seed)
    script(a, choices)
    script(b, choices)
    assert a.state_hash() == b.state_hash()
    text = dumps(a)
    again = loads(text)
    assert again.state_hash() == a.state_hash()
    assert dumps(again) == text  # byte-identical reload


def test_different_seeds_differ():
    hashes = set()
    for seed in range(5):
        g = Game(EU, seed)
        g.apply(Command("end_phase", "axis"))
        for _ in range(3):
            g.apply(Command("roll_table", "axis", {"table": "europa_revised_crt",
                                                   "column": "1-1"}))
        hashes.add(g.state_hash())
    assert len(hashes) > 1


def test_tampered_saves_are_rejected():
    g = Game(EU, 3)
    g.apply(Command("end_phase", "axis"))
    g.apply(Command("roll_table", "axis", {"table": "europa_revised_crt", "column": "3-1"}))
    data = json.loads(dumps(g))
    forged = json.loads(json.dumps(data))
    forged["events"][1][0]["data"]["result"] = "D2"
    forged["events"][1][0]["data"]["dice"] = [6, 6]
    with pytest.raises(ReplayMismatch, match="command 1 .roll_table. produced different"):
        loads(json.dumps(forged))
    wrong_hash = dict(data, state_hash="0" * 64)
    with pytest.raises(ReplayMismatch, match="state hash"):
        loads(json.dumps(wrong_hash))
    bad_text = json.loads(json.dumps(data))
    bad_text["scenario"]["text"] += "\n# edited"
    with pytest.raises(SaveError, match="sha256"):
        loads(json.dumps(bad_text))
    with pytest.raises(SaveError, match="not valid JSON"):
        loads("{")


def test_views_hide_face_down_units_and_secrets():
    g = Game(TR, 1)
    g.state["secrets"]["axis"]["plan"] = "Sealion"
    allied = g.view("allies")
    assert "ge-sub" not in allied["units"]
    hidden = [u for k, u in allied["units"].items() if k.startswith("hidden-")]
    assert hidden == [{"side": "axis", "hex": None, "box": "sw", "hidden": True}]
    assert "axis" not in allied["secrets"]
    axis = g.view("axis")
    assert axis["units"]["ge-sub"]["attack"] == 8 and axis["secrets"]["axis"]["plan"] == "Sealion"
    with pytest.raises(GrognardError, match="unknown player"):
        g.view("neutral")
