"""CLI ``grognard europa surprise ...`` (SUR-03..SUR-24), in-process.

Worked examples from /work/shared/seeds/000_0eee5b9a7c244d48.txt through the command line.
"""

import json

import pytest

from grognard.cli import main


def run(capsys, *args):
    rc = main(["europa", "surprise", *args, "--json"])
    out = capsys.readouterr()
    return rc, (json.loads(out.out) if rc == 0 else out.err)


def test_sur03_cli_cost_and_level_for(capsys):
    assert run(capsys, "cost", "10") == (0, {"level": 10, "srp": 10, "sp": 19, "re": 55})
    assert run(capsys, "level-for", "--re", "56") == (0, {"level": 11, "srp": 11, "sp": 22,
                                                          "re": 66})
    rc, data = run(capsys, "cost", "41", "--reading", "surprise_allow_formula_above_40=true")
    assert rc == 0 and data["sp"] == 287


def test_sur06_cli_planning_tv04(capsys):
    """SUR-TV04: 5 SRP/5 SP with reduced planning: 0 turns, nothing comes back."""
    assert run(capsys, "planning", "--level", "5", "--reduced") == (
        0, {"lead_turns": 0, "refund_srp": 0, "refund_sp": 0})
    assert run(capsys, "planning", "--level", "5") == (
        0, {"lead_turns": 1, "refund_srp": "2.5", "refund_sp": "2.5"})


def test_sur09_cli_reduce_tv02(capsys):
    """SUR-TV02: 30/155/465 reduced to 10/19/55 returns 16 SRPs and 108.8 SPs."""
    assert run(capsys, "reduce", "--from", "30", "--to", "10") == (
        0, {"srp_returned": 16, "sp_returned": "108.8", "level": 10, "re": 55})


def test_sur10_cli_move_centre_tv03(capsys):
    """SUR-TV03: 20/70/210 moved 10 hexes acts as 10/19/55."""
    assert run(capsys, "move-centre", "--level", "20", "--hexes", "10") == (
        0, {"effective_level": 10, "re": 55, "srp_spent": 20, "sp_spent": 19, "sp_returned": 51})


def test_sur11_cli_delay_tv08(capsys):
    assert run(capsys, "delay", "--level", "20", "--turns", "1") == (
        0, {"srp_cost": 5, "sp_cost": "17.5"})
    assert run(capsys, "delay", "--level", "20", "--weather-wait") == (
        0, {"srp_cost": 0, "sp_cost": 0})


def test_sur12_cli_front_tv05(capsys):
    assert run(capsys, "front", "--level", "6") == (0, {"hexes_each_side": 5, "length": 11})


def test_sur15_cli_markers_itemised(capsys):
    rc, data = run(capsys, "markers", "--result", "S", "--nationality", "soviet", "--distance",
                   "14", "--level", "10", "--year", "1941", "--invasion", "--first")
    assert rc == 0 and data["markers"] == 3
    assert {"name": "distance 14 hexes", "value": -2} in data["modifiers"]
    rc, data = run(capsys, "markers", "--result", "F", "--nationality", "german:2,us:2",
                   "--distance", "0", "--level", "5", "--year", "1944")
    assert rc == 0 and data["markers"] == 0
    rc, data = run(capsys, "markers", "--result", "S", "--nationality", "soviet", "--distance",
                   "40", "--level", "1", "--year", "1941", "--invasion", "--first",
                   "--reading", "surprise_distance_cap_mode=range_limit")
    assert rc == 0 and data["markers"] == 0


def test_sur24_cli_airbase_tv07(capsys):
    """SUR-TV07: two Me 109Fs, three Soviet fighters; the defender designates the operative and
    the inoperative fighter; Failure -> [operative, X, X]; Success -> [inoperative, X, X]."""
    base = ["--attackers", "2", "--markers", "0", "--cap", "0",
            "--units", "operative,inoperative,X", "--choose", "0,1"]
    assert run(capsys, "airbase", "--result", "F", *base) == (
        0, {"affected": 2, "after": ["operative", "X", "X"]})
    assert run(capsys, "airbase", "--result", "S", *base) == (
        0, {"affected": 2, "after": ["inoperative", "X", "X"]})
    rc, a = run(capsys, "airbase", "--result", "S", "--attackers", "2", "--units",
                "operative,inoperative,X", "--seed", "5")
    rc2, b = run(capsys, "airbase", "--result", "S", "--attackers", "2", "--units",
                 "operative,inoperative,X", "--seed", "5")
    assert rc == rc2 == 0 and a == b and a["affected"] == 2


def test_sur24_cli_airbase_modifier(capsys):
    rc, data = run(capsys, "airbase-modifier", "--date", "1941-06-22", "--surprise-phase",
                   "--invasion")
    assert rc == 0 and data["modifier"] == 3
    rc, data = run(capsys, "airbase-modifier", "--date", "1941-06-22", "--surprise-phase",
                   "--invasion", "--city", "Moscow")
    assert rc == 0 and data["modifier"] == 1
    assert {"name": "Surprise phase", "value": 1} in data["modifiers"]


@pytest.mark.parametrize(("args", "named"), [
    (["cost", "0"], "level"),
    (["level-for", "--re", "-3"], "re"),
    (["reduce", "--from", "10", "--to", "30"], "SUR-09"),
    (["move-centre", "--level", "5", "--hexes", "-1"], "hexes"),
    (["delay", "--level", "5", "--turns", "-2"], "turns"),
    (["markers", "--result", "S", "--nationality", "martian", "--distance", "1", "--level",
      "2", "--year", "1941"], "--nationality"),
    (["markers", "--result", "Q", "--nationality", "soviet", "--distance", "1", "--level",
      "2", "--year", "1941"], "--result"),
    (["airbase", "--result", "F", "--attackers", "-1", "--units", "operative"], "attackers"),
    (["airbase", "--result", "F", "--attackers", "1", "--units", "flying"], "--units"),
    (["airbase-modifier", "--date", "June 1941"], "--date"),
    (["cost", "5", "--reading", "nope=1"], "--reading.nope"),
])
def test_cli_errors_name_the_bad_argument(capsys, args, named):
    rc, err = run(capsys, *args)
    assert rc == 2
    assert named in err


def test_cli_human_output(capsys):
    assert main(["europa", "surprise", "markers", "--result", "S", "--nationality", "soviet",
                 "--distance", "0", "--level", "3", "--year", "1941"]) == 0
    assert "markers" in capsys.readouterr().out
