"""``grognard eurofront ...`` CLI (in-process): initiative, uboat, disruption, air-power."""

import json
from importlib import resources

import pytest

from grognard.cli import main

EXAMPLES = resources.files("grognard.data").joinpath("examples")


def run(capsys, *args):
    rc = main(["eurofront", *args, "--json"])
    out = capsys.readouterr()
    return rc, (json.loads(out.out) if rc == 0 else None), out.err


def test_ef18_cli_initiative_tv01_tv02(capsys):
    """EF-TV01/EF-TV02 through the CLI."""
    rc, data, _ = run(capsys, "initiative", "--chit-a", "3", "--roll-a", "3", "--chit-b", "1",
                      "--roll-b", "5")
    assert rc == 0 and data == {"first": None, "score_a": 6, "score_b": 6, "first_activates": 0}
    rc, data, _ = run(capsys, "initiative", "--chit-a", "3", "--roll-a", "3", "--chit-b", "1",
                      "--roll-b", "5", "--bonus", "strength_squared")
    assert data == {"first": "a", "score_a": 12, "score_b": 6, "first_activates": 6}
    rc, data, _ = run(capsys, "initiative", "--chit-a", "0", "--roll-a", "2", "--chit-b", "2",
                      "--roll-b", "4")
    assert data == {"first": "b", "score_a": 2, "score_b": 6, "first_activates": 4}


def test_ef18_cli_initiative_bad_input_names_field(capsys):
    rc, _, err = run(capsys, "initiative", "--chit-a", "5", "--roll-a", "3", "--chit-b", "1",
                     "--roll-b", "5")
    assert rc == 2 and "chit_a" in err
    rc, _, err = run(capsys, "initiative", "--chit-a", "1", "--roll-a", "3", "--chit-b", "1",
                     "--roll-b", "5", "--bonus", "cubed")
    assert rc == 2 and "--bonus" in err


def test_ef04_cli_uboat_example_history(capsys):
    path = str(EXAMPLES.joinpath("ef_uboat_history.json"))
    rc, data, _ = run(capsys, "uboat", "--history", path, "--seed", "0")
    assert rc == 0 and set(data) == {"trigger_roll", "modifiers", "shipping_rolls", "nullified"}
    assert data["modifiers"] == 1  # Norway & France held since the end of Summer 1940
    assert 1 <= data["trigger_roll"] <= 6 and data["nullified"] is False
    if data["trigger_roll"] <= 2:
        assert len(data["shipping_rolls"]) == 5  # 25 PP outside the UK
        assert set(data["shipping_rolls"][0]) == {"lot", "roll", "modified", "lost"}
    else:
        assert data["shipping_rolls"] == []
    _, again, _ = run(capsys, "uboat", "--history", path, "--seed", "0")
    assert again == data


def test_ef04_cli_uboat_reading_and_errors(capsys, tmp_path):
    path = str(EXAMPLES.joinpath("ef_uboat_history.json"))
    rc, data, _ = run(capsys, "uboat", "--history", path, "--seed", "0", "--reading",
                      "ef_norway_france_mode=either")
    assert rc == 0 and data["modifiers"] == 1
    bad = tmp_path / "h.json"
    bad.write_text(json.dumps({"turns": [{"turn": "1940-04", "uboat_pp": "five"}]}))
    rc, _, err = run(capsys, "uboat", "--history", str(bad), "--seed", "1")
    assert rc == 2 and "turns[0].uboat_pp" in err
    rc, _, err = run(capsys, "uboat", "--history", str(tmp_path / "none.json"))
    assert rc == 2 and "history" in err
    rc, _, err = run(capsys, "uboat", "--history", path, "--reading", "nope=1")
    assert rc == 2 and "--reading.nope" in err


def test_ef12_cli_disruption_rolls_and_supreme_rule(capsys):
    rc, data, _ = run(capsys, "disruption", "--hq", "battle", "--strength", "2",
                      "--difference", "2", "--rolls", "6,1")
    assert rc == 0 and data == {"results": ["THD", "OHD"], "effective": True}
    rc, data, _ = run(capsys, "disruption", "--hq", "supreme", "--strength", "3",
                      "--difference", "2", "--rolls", "6,2,3")
    assert data == {"results": ["THD", "-", "-"], "effective": False}
    rc, data, _ = run(capsys, "disruption", "--hq", "supreme", "--strength", "3",
                      "--difference", "2", "--rolls", "6,2,3", "--battle-hq-in-range")
    assert data["effective"] is True
    rc, data, _ = run(capsys, "disruption", "--hq", "theatre", "--strength", "3",
                      "--difference", "0", "--seed", "7")
    assert rc == 0 and len(data["results"]) == 3


@pytest.mark.parametrize(("args", "field"), [
    (["--hq", "battle", "--strength", "2", "--difference", "-1", "--rolls", "1,2"],
     "--difference"),
    (["--hq", "tactical", "--strength", "2", "--difference", "1", "--rolls", "1,2"], "--hq"),
    (["--hq", "corps", "--strength", "2", "--difference", "1", "--rolls", "1,2"], "--hq"),
    (["--hq", "battle", "--strength", "4", "--difference", "1", "--seed", "1"], "--strength"),
    (["--hq", "battle", "--strength", "2", "--difference", "1", "--rolls", "1"], "rolls"),
    (["--hq", "battle", "--strength", "2", "--difference", "1", "--rolls", "1,x"], "--rolls"),
    (["--hq", "battle", "--strength", "2", "--difference", "1"], "--rolls"),
])
def test_ef11_cli_disruption_bad_input_names_field(capsys, args, field):
    rc, _, err = run(capsys, "disruption", *args)
    assert rc == 2 and field in err


def test_ef08_cli_air_power(capsys, tmp_path):
    path = str(EXAMPLES.joinpath("ef_air_power_state.json"))
    rc, data, _ = run(capsys, "air-power", "--side", "axis", "--front", "west", "--state", path)
    assert rc == 0 and data == {"level": "TF"}
    rc, data, _ = run(capsys, "air-power", "--side", "allies", "--front", "west", "--state", path)
    assert data == {"level": "SF"}
    st = tmp_path / "s.json"
    st.write_text(json.dumps({"turn": "1942-08", "east_front_active": True,
                              "desert_victory": True}))
    rc, data, _ = run(capsys, "air-power", "--side", "axis", "--front", "med", "--state", str(st))
    assert data == {"level": "TF"}
    rc, _, err = run(capsys, "air-power", "--side", "soviets", "--front", "east", "--state", path)
    assert rc == 2 and "--side" in err
    st.write_text(json.dumps({"turn": "1942-08", "oil_front": "south"}))
    rc, _, err = run(capsys, "air-power", "--side", "axis", "--front", "east", "--state", str(st))
    assert rc == 2 and "oil_front" in err


def test_ef12_cli_disruption_honours_tables_override(capsys, tmp_path):
    """The shipped reconstruction is replaced by a user's table of the same id."""
    rows = "\n".join(f'[[rows]]\nkey = {d}\nresults = ["THD", "THD", "THD", "THD", "THD", "THD"]\n'
                     for d in range(4))
    (tmp_path / "apd.toml").write_text(
        'id = "eurofront_airpower_disruption"\ntitle = "mine"\nsource = "user"\n'
        'row_key = "difference"\ncolumns = ["d6=1", "d6=2", "d6=3", "d6=4", "d6=5", "d6=6"]\n'
        + rows)
    rc = main(["--tables", str(tmp_path), "eurofront", "disruption", "--hq", "battle",
               "--strength", "2", "--difference", "0", "--rolls", "1,2", "--json"])
    assert rc == 0
    assert json.loads(capsys.readouterr().out) == {"results": ["THD", "THD"], "effective": True}
    rc, data, _ = run(capsys, "disruption", "--hq", "battle", "--strength", "2",
                      "--difference", "0", "--rolls", "1,2")
    assert data == {"results": ["OHD", "OHD"], "effective": False}



def test_ef_demo_plays_narrated_phases_through_the_referee(capsys):
    """Issue 13 item 4: the guided EuroFront demo (`grognard eurofront demo`)."""
    rc, data, _ = run(capsys, "demo", "--phases", "3")
    assert rc == 0 and data["scenario"] == "eurofront-1941" and data["commands"] > 10
    assert any("Chits revealed together" in line for line in data["lines"])
    assert any("face-down blocks" in line for line in data["lines"])
    rc, _, err = run(capsys, "demo", "--phases", "0")
    assert rc == 2 and "--phases" in err
