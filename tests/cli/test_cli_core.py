"""The foundation CLI: roll, scenario validate/show, game new/apply/view/replay."""

from __future__ import annotations

import json

from grognard.cli import main


def run(capsys, *args):
    rc = main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_roll_json(capsys):
    rc, out, _ = run(capsys, "roll", "2d6+1", "--seed", "7", "--json")
    data = json.loads(out)
    assert rc == 0 and set(data) == {"expr", "dice", "total"}
    assert data["expr"] == "2d6+1" and data["total"] == sum(data["dice"]) + 1
    _rc2, out2, _ = run(capsys, "roll", "2d6+1", "--seed", "7", "--json")
    assert json.loads(out2) == data


def test_roll_bad_expression(capsys):
    rc, _, err = run(capsys, "roll", "2x6")
    assert rc == 2 and "cannot parse die expression '2x6'" in err


def test_scenario_validate(capsys, tmp_path):
    rc, out, _ = run(capsys, "scenario", "validate", "demo-europa", "--json")
    assert rc == 0 and json.loads(out)["valid"] is True
    bad = tmp_path / "bad.toml"
    bad.write_text("[scenario]\nid='x'\nsides=['a','b']\n[map]\nlegend={'.'='clear'}\n"
                   "grid='''\n..q\n'''\n")
    rc, _, err = run(capsys, "scenario", "validate", str(bad))
    assert rc == 2 and "bad.toml:7" in err and "hex 0301" in err and "'q'" in err


def test_scenario_show(capsys):
    rc, out, _ = run(capsys, "scenario", "show", "demo-third-reich", "--json")
    data = json.loads(out)
    assert rc == 0 and data["hexes"] == 112 and data["sides"] == ["axis", "allies", "ussr"]
    rc, out, _ = run(capsys, "scenario", "show", "demo-europa")
    assert rc == 0 and "de-7pz" in out


def test_game_new_apply_replay(capsys, tmp_path):
    save = tmp_path / "g.json"
    rc, out, _ = run(capsys, "game", "new", "demo-europa", "--seed", "4", "--out", str(save),
                     "--json")
    assert rc == 0 and json.loads(out)["seed"] == 4
    cmd = {"kind": "move", "player": "axis", "args": {"unit": "de-7pz", "path": ["0504"]}}
    rc, out, _ = run(capsys, "game", "apply", str(save), json.dumps(cmd), "--json")
    assert rc == 0 and json.loads(out)["events"][0]["type"] == "unit_moved"
    before = save.read_bytes()
    bad = dict(cmd, args={"unit": "de-7pz", "path": ["0904"]})
    rc, _, err = run(capsys, "game", "apply", str(save), json.dumps(bad))
    assert rc == 2 and "MOVE" in err and save.read_bytes() == before
    rc, out, _ = run(capsys, "game", "replay", str(save), "--json")
    data = json.loads(out)
    assert rc == 0 and data["commands"] == 1 and len(data["state_hash"]) == 64
    rc, out, _ = run(capsys, "game", "view", str(save), "--player", "soviet", "--json")
    assert rc == 0 and json.loads(out)["viewer"] == "soviet"


def test_demo_plays_attacks_and_replays(capsys, tmp_path):
    save = tmp_path / "demo.json"
    rc, out, _ = run(capsys, "demo", "--seed", "1941", "--save", str(save), "--json")
    data = json.loads(out)
    assert rc == 0 and data["system"] == "europa"
    assert data["state_hash"] == data["replayed_hash"] and save.exists()
    assert any("rejected" in s for s in data["steps"])  # the over-long infantry move
    probs = data["attack"]["probabilities"]
    from fractions import Fraction
    assert sum(Fraction(p) for p in probs.values()) == 1
    assert data["result"]["result"] in probs
    rc, out, _ = run(capsys, "demo")
    assert rc == 0 and "same hash" in out
