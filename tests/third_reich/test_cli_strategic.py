"""``grognard 3r`` strategic commands, tested in-process (TR-04, TR-05, TR-10, TR-78, TR-79,
TR-20/21, TR-07/09, TR-75, TR-19)."""

from __future__ import annotations

import json

import pytest

from grognard.cli import main


def run(capsys, *args):
    rc = main(["3r", *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def run_json(capsys, *args):
    rc, out, err = run(capsys, *args, "--json")
    assert rc == 0, err
    return json.loads(out)


def test_cli_tr04_calendar(capsys):
    assert run_json(capsys, "calendar", "2") == {"turn": 2, "year": 1939, "season": "winter"}
    assert run_json(capsys, "calendar", "29") == {"turn": 29, "year": 1945, "season": "summer1"}
    rc, _, err = run(capsys, "calendar", "0")
    assert rc == 2 and "turn" in err


def test_cli_tr05_weather(capsys):
    assert run_json(capsys, "weather", "--region", "scandinavia", "--turn", "3") == {
        "weather": "clear"}
    assert run_json(capsys, "weather", "--region", "east", "--turn", "8") == {"weather": "mud"}
    rc, _, err = run(capsys, "weather", "--region", "africa", "--turn", "3")
    assert rc == 2 and "region" in err


def test_cli_tr10_growth(capsys):
    assert run_json(capsys, "growth", "--power", "germany", "--saved", "85") == {
        "base_increase": 51}
    rc, _, err = run(capsys, "growth", "--power", "japan", "--saved", "10")
    assert rc == 2 and "unknown power" in err


def test_cli_tr78_bomb_city_london(capsys):
    hits = [run_json(capsys, "bomb-city", "--factors", "15", "--roll", str(r))["hits"]
            for r in range(1, 11)]
    assert hits == [0, 0, 3, 3, 3, 6, 6, 6, 9, 9]
    assert run_json(capsys, "bomb-city", "--factors", "15", "--roll", "10",
                    "--city-value", "5") == {"hits": 5}


def test_cli_tr79_sw(capsys):
    data = run_json(capsys, "sw", "--subs", "10", "--asw", "7", "--rolls", "7,9,10",
                    "--target", "uk")
    assert (data["sub_losses"], data["asw_losses"], data["hits"]) == (4, 2, 7)
    data = run_json(capsys, "sw", "--subs", "3", "--asw", "0", "--rolls", "6,6",
                    "--target", "us")
    assert data["hits"] == 2
    data = run_json(capsys, "sw", "--bombers", "5", "--interceptors", "5", "--rolls", "9,1,1")
    assert data["interceptor_losses"] == 2  # TR-TV17
    rc, _, err = run(capsys, "sw", "--subs", "3", "--asw", "2", "--rolls", "5,5",
                     "--target", "us", "--turn", "13")
    assert rc == 2 and "TR-82" in err
    rc, _, err = run(capsys, "sw", "--subs", "3", "--rolls", "5", "--target", "germany")
    assert rc == 2 and "TR-79" in err


def test_cli_tr21_murmansk(capsys):
    data = run_json(capsys, "murmansk", "--ll", "20,20", "--german", "subs=6",
                    "--rolls", "1,1,1,1,1,1,1,1,10")
    assert data["brps_delivered"] == 33 and data["brps_sent"] == 40
    seeded = run_json(capsys, "murmansk", "--ll", "20,20", "--german", "air=5,naval=9,subs=6",
                      "--allied", "naval=9,asw=3", "--seed", "7")
    again = run_json(capsys, "murmansk", "--ll", "20,20", "--german", "air=5,naval=9,subs=6",
                     "--allied", "naval=9,asw=3", "--seed", "7")
    assert seeded == again and 0 <= seeded["brps_delivered"] <= 40
    rc, _, err = run(capsys, "murmansk", "--ll", "15", "--seed", "1")
    assert rc == 2 and "TR-19" in err
    rc, _, err = run(capsys, "murmansk", "--ll", "20", "--german", "tanks=3", "--seed", "1")
    assert rc == 2 and "--german" in err


def test_cli_tr07_ledger_new_and_year_start(capsys, tmp_path):
    path = tmp_path / "l.json"
    data = run_json(capsys, "ledger", "new", "--scenario", "campaign-1939", "--out", str(path))
    assert data["format"] == "grognard.tr_ledger/1" and data["turn"] == 1
    out = run_json(capsys, "year-start", str(path))
    assert out["turn"] == 3 and out["year_start"]["special_1940"]
    assert out["summary"]["france"] == {"base": 60, "brp": 84}
    assert any(e["rule"] == "TR-07" for e in out["ledger"]["entries"])
    path2 = tmp_path / "l2.json"
    run_json(capsys, "year-start", str(path), "--out", str(path2))
    out2 = run_json(capsys, "year-start", str(path2))
    assert out2["turn"] == 8 and out2["summary"]["france"] == {"base": 102, "brp": 102}


def test_cli_tr75_spend_cap_and_tr19_lend_lease(capsys, tmp_path):
    path = tmp_path / "l.json"
    run_json(capsys, "ledger", "new", "--out", str(path))
    p2 = tmp_path / "l2.json"
    run_json(capsys, "ledger", "spend", str(path), "--power", "germany", "--amount", "70",
             "--out", str(p2))
    rc, _, err = run(capsys, "ledger", "spend", str(p2), "--power", "germany", "--amount", "10")
    assert rc == 2 and "TR-75" in err
    rc, _, err = run(capsys, "ledger", "lend-lease", str(path), "--from", "germany", "--to",
                     "italy", "--amount", "5")
    assert rc == 2 and "TR-19" in err
    p3 = tmp_path / "l3.json"
    run_json(capsys, "year-start", str(path), "--out", str(p3))
    rc, _, err = run(capsys, "ledger", "lend-lease", str(p3), "--from", "germany", "--to",
                     "italy", "--amount", "7")
    assert rc == 2 and "TR-14" in err
    p4 = tmp_path / "l4.json"
    run_json(capsys, "ledger", "advance", str(p3), "--out", str(p4))
    assert json.loads(p4.read_text())["turn"] == 4


def test_cli_bad_ledger_file(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    rc, _, err = run(capsys, "year-start", str(bad))
    assert rc == 2 and "LEDGER.json" in err
    rc, _, err = run(capsys, "year-start", str(tmp_path / "missing.json"))
    assert rc == 2


@pytest.mark.parametrize("args", [["calendar", "5"], ["growth", "--power", "us", "--saved",
                                                      "10"]])
def test_cli_human_output(capsys, args):
    rc, out, _ = run(capsys, *args)
    assert rc == 0 and out.strip()
