"""Issue 24 item 2: readings are fixed when a game is created (the scenario's [readings],
then ``game new --reading KEY=VALUE``), recorded in the save, shown by ``game status`` and
never changed by an order (EUR-09's ``below_lowest_column``, EUR-11's
``loss_basis_fort_multiplier``)."""

from __future__ import annotations

import json

from grognard.cli import main
from grognard.engine.save import load_game

MOVES = [{"kind": "move", "player": "axis", "args": {"unit": "de-7pz",
                                                     "path": ["0504", "0604"]}},
         {"kind": "move", "player": "axis", "args": {"unit": "de-20mot",
                                                     "path": ["0505", "0604"]}},
         {"kind": "end_phase", "player": "axis", "args": {}}]
ATTACK = {"kind": "attack", "player": "axis",
          "args": {"attackers": ["de-7pz", "de-20mot"], "defender_hex": "0704"}}


def test_eur09_eur11_readings_are_chosen_at_game_creation_not_by_orders(capsys, tmp_path):
    save = tmp_path / "g.json"

    def run(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        rc = main(list(args))
        out, err = capsys.readouterr()
        return rc, out, err

    rc, out, err = run("game", "new", "demo-europa", "--seed", "2", "--out", str(save),
                       "--reading", "loss_basis_fort_multiplier=3",
                       "--reading", "below_lowest_column=clamp", "--json")
    assert rc == 0, err
    assert json.loads(out)["readings"]["loss_basis_fort_multiplier"] == 3
    g = load_game(save)
    assert g.readings["below_lowest_column"] == "clamp"  # recorded in the save
    rc, out, _ = run("game", "status", str(save), "--json")
    assert json.loads(out)["readings"] == {"loss_basis_fort_multiplier": 3,
                                           "below_lowest_column": "clamp"}
    rc, out, _ = run("game", "status", str(save))
    assert "readings: below_lowest_column=\"clamp\"" in out
    for c in MOVES:
        assert run("game", "apply", str(save), json.dumps(c))[0] == 0
    # an order naming readings is refused with one line; the save is untouched
    before = save.read_bytes()
    cheat = {**ATTACK, "args": {**ATTACK["args"],
                                "readings": {"loss_basis_fort_multiplier": 5}}}
    rc, _, err = run("game", "apply", str(save), json.dumps(cheat))
    assert rc == 2 and "readings" in err and "referee" in err and save.read_bytes() == before
    rc, out, err = run("game", "apply", str(save), json.dumps(ATTACK), "--json")
    assert rc == 0, err
    model = json.loads(out)["events"][0]["data"]["model"]
    assert model["readings"]["loss_basis_fort_multiplier"] == 3
    assert model["readings"]["below_lowest_column"] == "clamp"


def test_readings_option_needs_key_and_value(capsys, tmp_path):
    rc = main(["game", "new", "demo-europa", "--out", str(tmp_path / "g.json"),
               "--reading", "nonsense"])
    assert rc == 2 and "--reading" in capsys.readouterr().err
