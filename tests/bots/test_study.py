"""grognard study (issue 15): seeded games, a resumable SQLite store, the report and charts."""

from __future__ import annotations

import json
import sqlite3

import pytest

from grognard.analysis.study import Setting, parse_readings, play_one, run_games
from grognard.analysis.study_claims import (
    brp_parity,
    capital_falls_by,
    load_study_file,
    same_turn_falls,
)
from grognard.analysis.study_report import chart_wins, summarize, wilson
from grognard.analysis.study_run import run_study
from grognard.cli import main
from grognard.core.errors import InputError
from grognard.engine.scenario import load_scenario, shipped_scenarios

BOTS = {"axis": "heuristic", "allies": "random"}


def _setting(**kw) -> Setting:
    return Setting("tr-1939-two-fronts", BOTS, max_turns=1, max_commands=30, **kw)


def test_play_one_is_a_function_of_setting_and_seed():
    s = _setting().to_json()
    a, b, c = play_one(s, 7), play_one(s, 7), play_one(s, 8)
    assert a == b and a["seed"] == 7 and c["seed"] == 8
    assert a["brp"] and a["brp"][0]["turn"] == 1 and "germany" in a["brp"][0]["brp"]


def test_local_processes_give_the_same_records_as_one_process():
    s = _setting()
    one = sorted(run_games(s, [1, 2, 3], workers=1), key=lambda r: r["seed"])
    two = sorted(run_games(s, [1, 2, 3], workers=2), key=lambda r: r["seed"])
    assert one == two


def test_study_resumes_and_extends(tmp_path):
    s = [_setting()]
    r1, _ = run_study(s, 3, tmp_path, report=False)
    assert r1["played"] == {"base": 3} and r1["results"]["base"]["games"] == 3
    r2, recs = run_study(s, 5, tmp_path, report=False)
    assert r2["played"] == {"base": 2} and r2["results"]["base"]["games"] == 5
    assert [r["seed"] for r in recs["base"]] == [0, 1, 2, 3, 4]
    r3, _ = run_study(s, 5, tmp_path, report=False)
    assert r3["played"] == {"base": 0} and r3["results"] == r2["results"]
    db = sqlite3.connect(tmp_path / "study.sqlite")
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 5


def test_report_has_charts_with_content(tmp_path):
    settings = [_setting(), _setting(readings={"x": 1}, label="x=1")]
    result, recs = run_study(settings, 2, tmp_path)
    html = (tmp_path / "report.html").read_text()
    for chart in ("wins", "brp", "capitals", "losses", "length"):
        png = tmp_path / f"{chart}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000
        assert f'src="{chart}.png"' in html
    assert "<h2>base</h2>" in html and "<h2>x=1</h2>" in html
    assert set(result["results"]) == {"base", "x=1"}
    brp = result["results"]["base"]["brp"]
    ends = [next(r["brp"]["germany"] for r in rec["brp"] if r["turn"] == 1)
            for rec in recs["base"]]
    assert brp["germany"]["1"] == f"{sum(ends) / len(ends):.1f}"  # the chart's data
    assert all(r["base"]["germany"] >= 150 for rec in recs["base"] for r in rec["brp"][:1])


def test_win_chart_bars_are_the_rates(tmp_path):
    recs = [{"winner": "axis"}] * 3 + [{"winner": "allies"}]
    s = summarize(recs, ["axis", "allies"])
    assert s["wins"]["axis"]["rate"] == "0.750" and s["wins"]["allies"]["games"] == 1
    fig = chart_wins({"base": s}, tmp_path / "w.png")
    heights = sorted(round(p.get_height(), 3) for p in fig.axes[0].patches)
    assert heights == [0.25, 0.75]


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60
    assert wilson(0, 0) == (0.0, 1.0)


def test_claim_measures():
    recs = [
        {"capitals": {"Paris": {"turn": 5}, "Oslo": {"turn": 3}, "Copenhagen": {"turn": 3}},
         "brp": [{"turn": 3, "brp": {"germany": 160, "uk": 100, "france": 50},
                  "base": {"germany": 165, "uk": 125, "france": 60}}]},
        {"capitals": {"Paris": {"turn": 8}, "Copenhagen": {"turn": 3}},
         "brp": [{"turn": 3, "brp": {"germany": 140, "uk": 100, "france": 50},
                  "base": {"germany": 185, "uk": 125, "france": 60}}]},
    ]
    assert capital_falls_by(recs, "Paris", 6)["yes"] == 1
    assert same_turn_falls(recs, ["Copenhagen", "Oslo"], [3, 7])["yes"] == 1
    p = brp_parity(recs, ["germany"], ["uk", "france"], [3])
    assert p["parity"]["yes"] == 1 and p["means"]["3"] == {"germany": "150.0",
                                                           "uk+france": "150.0"}
    # on income (the bases): only the second game's 185 reaches the western Allies' 185
    q = brp_parity(recs, ["germany"], ["uk", "france"], [3], of="base")
    assert q["parity"]["yes"] == 1 and q["means"]["3"] == {"germany": "175.0",
                                                           "uk+france": "185.0"}


def test_shipped_study_files_load():
    from pathlib import Path

    files = sorted(Path(__file__).parents[2].joinpath("studies").glob("*.toml"))
    assert len(files) >= 3
    for f in files:
        spec = load_study_file(f)
        assert spec["claim"] and spec["measure"]["kind"]


def test_parse_readings():
    assert parse_readings(["a=60", "b=true", "c=x"]) == {"a": 60, "b": True, "c": "x"}
    with pytest.raises(InputError, match="KEY=VALUE"):
        parse_readings(["oops"])


def test_cli_study_json_and_errors(tmp_path, capsys):
    rc = main(["study", "tr-1939-two-fronts", "--games", "2", "--bots", "heuristic",
               "--max-turns", "2", "--out", str(tmp_path), "--json"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    data = json.loads(out.out)
    assert data["results"]["base"]["games"] == 2 and data["report"].endswith("report.html")
    for args, msg in [(["--games", "0", "--bots", "heuristic"], "at least 1"),
                      (["--games", "1", "--bots", "axis=nobody,allies=random"], "unknown bot"),
                      (["--games", "1"], "name a bot")]:
        rc = main(["study", "tr-1939-two-fronts", "--out", str(tmp_path), *args])
        err = capsys.readouterr().err
        assert rc == 2 and msg in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("scenario", shipped_scenarios())
def test_study_runs_on_every_shipped_scenario(scenario, tmp_path):
    """Issue 15 (done means): `grognard study` runs on every playable scenario (every shipped
    one fuzzes clean): a short heuristic game is played, stored and summarized."""
    sides = list(load_scenario(scenario).sides)
    s = Setting(scenario, {p: "heuristic" for p in sides}, max_commands=12)
    result, recs = run_study([s], 1, tmp_path, report=False)
    rec = recs["base"][0]
    assert result["played"] == {"base": 1} and result["results"]["base"]["games"] == 1
    assert rec["end"] in ("over", "max_commands", "max_turns") and rec["error"] is None
    assert rec["commands"] > 0 and rec["refused"] == 0
