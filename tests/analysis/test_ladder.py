"""Issue 25 item 3: the strength ladder (paired seeds, Elo with intervals, skill depth)."""

from __future__ import annotations

import json

from grognard.analysis.ladder import fit_elo, pair_settings, run_ladder, score_of
from grognard.cli import main


def test_elo_fit_recovers_the_odds_and_orders_the_bots():
    # 3 to 1 for a over b: log-odds ln 3 = 190.8 Elo (the weak prior pulls a little)
    fit = fit_elo(["a", "b"], [("a", "b", 1.0)] * 300 + [("a", "b", 0.0)] * 100)
    assert fit["a"]["elo"] == 0.0
    assert -192 < fit["b"]["elo"] < -188
    lo, hi = fit["b"]["ci95"]
    assert lo < fit["b"]["elo"] < hi and hi - lo < 100
    few = fit_elo(["a", "b"], [("a", "b", 1.0)] * 3 + [("a", "b", 0.0)])
    assert few["b"]["ci95"][1] - few["b"]["ci95"][0] > hi - lo  # fewer games, wider


def test_a_bot_that_always_wins_has_a_finite_rating():
    fit = fit_elo(["r", "h"], [("h", "r", 1.0)] * 10)
    assert 100 < fit["h"]["elo"] < 2000


def test_pairs_swap_sides_and_draws_score_half():
    pairs = pair_settings("tr-1939-two-fronts", ["random", "heuristic"], {})
    assert [(a, b) for a, b, _s in pairs] == [("random", "heuristic"), ("heuristic", "random")]
    assert pairs[0][2].bots == {"axis": "random", "allies": "heuristic"}
    assert pairs[1][2].bots == {"axis": "heuristic", "allies": "random"}
    assert score_of({"winner": None}, "axis") == 0.5
    assert score_of({"winner": "axis"}, "axis") == 1.0
    # a 3R campaign's "draw" verdict is no win for either side (it was counted as the
    # second side's win)
    assert score_of({"winner": "draw"}, "axis", ["axis", "allies"]) == 0.5
    assert score_of({"winner": "allies"}, "axis", ["axis", "allies"]) == 0.0


def test_ladder_runs_and_resumes(tmp_path):
    kw = {"limits": {"max_commands": 30}, "depth": [0, 1]}
    r1 = run_ladder("tr-1939-two-fronts", ["random", "heuristic"], [0, 1], tmp_path, **kw)
    assert r1["played"] == 2 * 2 + 2 * 2 * 2
    assert set(r1["ratings"]) == {"random", "heuristic"}
    assert [p["budget"] for p in r1["depth"]["curve"]] == [0, 1]
    assert (tmp_path / "ratings.png").exists() and (tmp_path / "depth.png").exists()
    r2 = run_ladder("tr-1939-two-fronts", ["random", "heuristic"], [0, 1], tmp_path, **kw)
    assert r2["played"] == 0 and r2["ratings"] == r1["ratings"]


def test_cli_ladder(tmp_path, capsys):
    rc = main(["ladder", "tr-1939-two-fronts", "--bots", "random,heuristic", "--seeds", "1",
               "--max-commands", "20", "--out", str(tmp_path), "--json"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert set(json.loads(out.out)["ratings"]) == {"random", "heuristic"}
    for args, msg in [(["--bots", "random"], "two different"),
                      (["--bots", "random,nobody"], "unknown bot"),
                      (["--bots", "random,heuristic", "--depth", "x"], "whole numbers")]:
        rc = main(["ladder", "tr-1939-two-fronts", "--out", str(tmp_path), *args])
        err = capsys.readouterr().err
        assert rc == 2 and msg in err and len(err.strip().splitlines()) == 1
