"""``grognard 3r`` combat commands (TR-32..TR-50, TR-55, TR-73), run in-process."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from grognard.cli import main

EXAMPLES = resources.files("grognard.data").joinpath("examples")


def example(name: str) -> str:
    return str(EXAMPLES.joinpath(name))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict, str]:
    rc = main(["3r", *args])
    out, err = capsys.readouterr()
    data = json.loads(out) if rc == 0 and "--json" in args else {}
    return rc, data, err


def test_tr32_cli_combat_bridgehead_example(capsys: pytest.CaptureFixture[str]) -> None:
    """TR-TV06 through the CLI: D2R on a 4-unit bridgehead that cannot retreat → 3 lost."""
    rc, data, _ = run(capsys, "combat", example("tr_battle_bridgehead.json"), "--roll", "6",
                      "--json")
    assert rc == 0
    assert list(data) == ["defense", "support", "odds", "column", "shifts", "drm", "roll",
                          "result", "attacker_losses", "defender_losses", "retreat"]
    assert data["column"] == "6-1" and data["result"] == "D2R"
    assert data["defender_losses"] == 3
    assert data["retreat"] == {"side": "defender", "possible": False, "units": 0,
                               "extra_loss": 1}


def test_tr32_cli_combat_example_modifiers(capsys: pytest.CaptureFixture[str]) -> None:
    rc, data, _ = run(capsys, "combat", example("tr_battle.json"), "--roll", "9", "--json")
    assert rc == 0
    assert (data["defense"], data["support"], data["odds"], data["column"], data["shifts"],
            data["drm"]) == (7, 5, "16/7", "3-2", 1, 1)
    assert data["result"] == "D1"  # 9 + 1 = 10 on 3-2


def test_tr32_cli_combat_seed_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    _, a, _ = run(capsys, "combat", example("tr_battle.json"), "--seed", "7", "--json")
    _, b, _ = run(capsys, "combat", example("tr_battle.json"), "--seed", "7", "--json")
    assert a == b and 2 <= a["roll"] <= 12


def test_tr32_cli_combat_odds(capsys: pytest.CaptureFixture[str]) -> None:
    rc, data, _ = run(capsys, "combat-odds", example("tr_battle.json"), "--json")
    assert rc == 0 and data["column"] == "3-2"
    assert sum(__import__("fractions").Fraction(v) for v in data["probabilities"].values()) == 1
    assert data["probabilities"]["X1"] == "11/36"


def test_tr32_cli_bad_input_names_field(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    rc, _, err = run(capsys, "combat", example("tr_battle.json"), "--json")
    assert rc == 2 and "--roll/--seed" in err
    bad = tmp_path / "b.json"
    bad.write_text(json.dumps({"attackers": [{"factors": 3}], "defenders": [{"factors": 3}],
                               "terrain": "lava"}))
    rc, _, err = run(capsys, "combat", str(bad), "--roll", "7")
    assert rc == 2 and "battle.terrain" in err
    rc, _, err = run(capsys, "combat", str(tmp_path / "missing.json"), "--roll", "7")
    assert rc == 2 and "BATTLE.json" in err
    rc, _, err = run(capsys, "combat", example("tr_battle.json"), "--roll", "13")
    assert rc == 2 and "roll" in err


def test_tr32_cli_readings_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    r = tmp_path / "r.json"
    r.write_text(json.dumps({"tr_shifts_cumulative": False, "tr_odds_rounding": "nearest"}))
    rc, data, _ = run(capsys, "combat", example("tr_battle.json"), "--roll", "9",
                      "--readings", str(r), "--json")
    assert rc == 0 and data["column"] == "3-2"  # 16/7 nearest is 2-1, one left shift
    r.write_text(json.dumps({"nope": 1}))
    rc, _, err = run(capsys, "combat", example("tr_battle.json"), "--roll", "9",
                     "--readings", str(r))
    assert rc == 2 and "readings.nope" in err


def test_tr32_cli_crt(capsys: pytest.CaptureFixture[str]) -> None:
    rc, data, _ = run(capsys, "crt", "--json")
    assert rc == 0 and data["columns"][-1]["column"] == "6-1"
    assert data["columns"][-1]["probabilities"]["D2R"] == "13/18"
    rc = main(["3r", "crt", "--drm", "1"])
    assert rc == 0 and "6-1" in capsys.readouterr().out


def test_tr38_cli_attrition(capsys: pytest.CaptureFixture[str]) -> None:
    rc, data, _ = run(capsys, "attrition", "--factors", "56", "--roll", "8", "--json")
    assert rc == 0
    assert data == {"column": "col3", "roll": 8, "result": "D3H2", "attacker_units": 0,
                    "defender_units": 3, "hexes": 2}
    rc, data, _ = run(capsys, "attrition", "--factors", "56", "--roll", "8",
                      "--column-bounds", "5,10,18,30,45,65,85", "--json")
    assert data["column"] == "col5"
    rc, data, _ = run(capsys, "attrition", "--factors", "4", "--seed", "1", "--json")
    assert data["column"] is None and data["result"] == "–"
    rc, _, err = run(capsys, "attrition", "--factors", "-3", "--roll", "7")
    assert rc == 2 and "--factors" in err


def test_tr42_cli_attrition_table(capsys: pytest.CaptureFixture[str]) -> None:
    rc, data, _ = run(capsys, "attrition-table", "--json")
    assert rc == 0 and len(data["columns"]) == 7
    assert data["columns"][5] == {"def": "258/36", "att": "126/36", "hex": "120/36"}
    rc = main(["3r", "attrition-table"])
    assert rc == 0 and "2.08" in capsys.readouterr().out


def test_tr50_cli_fire(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "fire", "--factors", "3", "--roll", "9", "--round06", "--json")[1] == {
        "hits": 2}
    assert run(capsys, "fire", "--factors", "15", "--roll", "9", "--drm", "1", "--json")[1] == {
        "hits": 9}
    rc, _, err = run(capsys, "fire", "--factors", "-1", "--roll", "9")
    assert rc == 2 and "factors" in err


def test_tr55_cli_intercept(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "intercept", "--range", "12", "--roll", "3", "--json")[1] == {
        "intercepted": True}
    assert run(capsys, "intercept", "--range", "26", "--roll", "1", "--json")[1] == {
        "intercepted": False}
    rc, _, err = run(capsys, "intercept", "--range", "3", "--roll", "0")
    assert rc == 2 and "roll" in err


def test_tr73_cli_isolation(capsys: pytest.CaptureFixture[str]) -> None:
    rc, data, _ = run(capsys, "isolation", "--weather", "snow", "--season", "winter",
                      "--region", "east", "--adjacent-enemy", "--city-path", "--roll", "9",
                      "--json")
    assert rc == 0 and data["modified_roll"] == 6 and data["eliminated"] is True
    assert data["drms"] == {"snow": -2, "remote_region": -1, "adjacent_enemy": -1,
                            "city_path": 1}
    rc, data, _ = run(capsys, "isolation", "--weather", "clear", "--season", "summer1",
                      "--region", "europe", "--home", "--roll", "7", "--json")
    assert data["modified_roll"] == 9 and data["eliminated"] is False
    rc, _, err = run(capsys, "isolation", "--weather", "clear", "--season", "monsoon",
                     "--region", "europe", "--roll", "7")
    assert rc == 2 and "--season" in err
