"""Issue 25 (studies a designer can trust), session 33: two settings of a study compared seed
by seed (``--compare``, ``--compare-bots``; :mod:`grognard.analysis.study_paired`) - for each
side the seeds whose verdict is better, the same or worse in the compared setting, the mean
change of its score with the paired standard error, and the games that were the very same."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from grognard.analysis.study_paired import paired, verdict_score
from grognard.cli import main


def rec(seed: int, winner: str | None, h: str, end: str = "over") -> dict:
    return {"seed": seed, "winner": winner, "state_hash": h, "end": end}


def test_each_side_s_verdict_is_compared_on_the_seeds_both_played() -> None:
    base = [rec(0, "axis", "a"), rec(1, "axis", "b"), rec(2, None, "c"), rec(3, "soviet", "d"),
            rec(4, "axis", "x", end="error"), rec(9, "axis", "z")]
    other = [rec(0, "axis", "a"), rec(1, None, "b2"), rec(2, "soviet", "c2"),
             rec(3, "axis", "d2"), rec(4, "soviet", "y"), rec(5, "soviet", "w")]
    p = paired(base, other, ["axis", "soviet"])
    # seeds 0-3: seed 4 failed in the base, 5 and 9 were played by one setting only
    assert p["games"] == 4 and p["same_game"] == 1
    soviet, axis = p["sides"]["soviet"], p["sides"]["axis"]
    assert (soviet["better"], soviet["same"], soviet["worse"]) == (2, 1, 1)
    assert (axis["better"], axis["same"], axis["worse"]) == (1, 1, 2)
    # soviet changes 0, +1, +1, -2: mean 0; axis 0, -1, -1, +2
    assert Fraction(soviet["mean"]) == 0 and Fraction(axis["mean"]) == 0
    assert soviet["se"] == axis["se"] == f"{(Fraction(6, 3) / 4) ** 0.5:.3f}"  # var 6/3
    assert verdict_score(rec(0, None, "a"), "axis") == 0


def test_one_setting_better_everywhere_has_no_spread() -> None:
    base = [rec(s, "axis", str(s)) for s in range(5)]
    other = [rec(s, None, f"o{s}") for s in range(5)]
    p = paired(base, other, ["axis", "soviet"])
    assert p["sides"]["soviet"] == {"better": 5, "same": 0, "worse": 0, "mean": "1",
                                    "se": "0.000"}
    assert p["sides"]["axis"]["mean"] == "-1"
    assert paired([], other, ["axis"])["games"] == 0


def scored(seed: int, winner: str | None, points: int, counted: str = "axis") -> dict:
    return {**rec(seed, winner, f"h{seed}{points}"),
            "result": {"winner": winner, "points": points, "counted": counted}}


def test_a_verdict_that_counts_points_is_compared_by_its_points_too() -> None:
    """Europa's verdict counts the Axis's points: a point more or less that changes no
    verdict shows in the points' mean change (exact) and its paired standard error."""
    base = [scored(0, "axis", 17), scored(1, None, 14), scored(2, None, 13)]
    other = [scored(0, "axis", 18), scored(1, None, 15), scored(2, None, 13)]
    p = paired(base, other, ["axis", "soviet"])
    assert all(s["same"] == 3 for s in p["sides"].values())  # no verdict changed
    pts = p["points"]
    assert pts["counted"] == "axis"
    assert (Fraction(pts["base"]), Fraction(pts["compared"])) == (Fraction(44, 3), Fraction(46, 3))
    assert Fraction(pts["mean"]) == Fraction(2, 3)
    assert pts["se"] == f"{(Fraction(1, 3) / 3) ** 0.5:.3f}"  # changes 1, 1, 0: var 1/3
    # no points where a game's verdict counts none, or two sides' points are counted
    assert "points" not in paired(base, [*other[:2], rec(2, None, "x")], ["axis"])
    assert "points" not in paired(base, [*other[:2], scored(2, None, 13, "soviet")], ["axis"])
    assert "points" not in paired(base[:1], [rec(0, "axis", "a")], ["axis"])


def stopped(seed: int, leader: str | None, points: int) -> dict:
    return {**rec(seed, None, f"s{seed}{points}", end="max_turns"),
            "standing": {"leader": leader, "level": "marginal", "points": points,
                         "counted": "axis"}}


def test_a_game_stopped_at_a_limit_is_judged_by_its_standing_there() -> None:
    """A position study's games stop after a few turns, before any verdict: each is judged
    by the verdict had it ended there (its record's ``standing``)."""
    base = [stopped(0, None, 14), stopped(1, "axis", 16)]
    other = [stopped(0, "axis", 16), scored(1, "axis", 17)]  # seed 1 played to its end
    p = paired(base, other, ["axis", "soviet"])
    assert p["at_stop"] == 3
    assert (p["sides"]["axis"]["better"], p["sides"]["axis"]["same"]) == (1, 1)
    assert Fraction(p["points"]["mean"]) == Fraction(3, 2)
    assert verdict_score(stopped(0, "soviet", 9), "soviet") == 1
    assert verdict_score(rec(0, "axis", "a"), "axis") == 1  # no standing: the winner


def _study(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    capsys.readouterr()
    assert main(["study", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_compare_bots_plays_the_same_seeds_and_compares_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The search at budget 0 plays the planner's very game: compared seed by seed with the
    planner, every game is the very same game and no verdict changes."""
    out = _study(capsys, "demo-europa", "--bots", "planner", "--compare-bots",
                 "axis=mcts@budget=0,soviet=planner", "--games", "2", "--seed", "3",
                 "--max-turns", "1", "--out", str(tmp_path / "s"))
    p = out["paired"]
    assert p["base"] == "base" and p["compared"] == "bots: axis=mcts@budget=0,soviet=planner"
    assert out["settings"][p["compared"]]["bots"] == {"axis": "mcts@budget=0",
                                                     "soviet": "planner"}
    assert p["games"] == 2 and p["same_game"] == 2
    assert all(s["same"] == 2 for s in p["sides"].values())
    page = (tmp_path / "s" / "report.html").read_text()
    assert "Seed by seed" in page and "2 of them the very same game" in page


def test_the_same_setting_twice_is_refused(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["study", "demo-europa", "--bots", "heuristic", "--compare-bots",
                 "axis=heuristic,soviet=heuristic", "--games", "1", "--out",
                 str(tmp_path / "s")])
    assert code != 0
    assert "--compare-bots: the compared setting is the base setting itself" in \
        capsys.readouterr().err
    assert not (tmp_path / "s").exists()  # nothing played, nothing written
    for bad, why in (("axis=nobot,soviet=heuristic", "unknown bot 'nobot'"),
                     ("axis=planner@sieges=many,soviet=heuristic", "sieges takes a number")):
        assert main(["study", "demo-europa", "--bots", "heuristic", "--compare-bots", bad,
                     "--games", "1", "--out", str(tmp_path / "s")]) != 0
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--compare-bots: " in err and why in err, err
    assert not (tmp_path / "s").exists()


def test_a_study_file_names_the_bots_to_compare(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    study = tmp_path / "s.toml"
    study.write_text('[study]\nid = "s"\nscenario = "demo-europa"\nbots = "random"\n'
                     'compare_bots = "axis=heuristic,soviet=random"\ngames = 2\n'
                     'max_turns = 1\n')
    out = _study(capsys, str(study), "--out", str(tmp_path / "o"))
    assert out["paired"]["compared"] == "bots: axis=heuristic,soviet=random"
    assert out["played"] == {"base": 2, "bots: axis=heuristic,soviet=random": 2}
    study.write_text('[study]\nid = "s"\nscenario = "demo-europa"\ncompare_bots = 3\n')
    assert main(["study", str(study), "--bots", "random"]) != 0
    assert "compare_bots" in capsys.readouterr().err


def test_a_position_study_s_games_are_compared_where_they_stopped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """europa-barbarossa stopped after its first turn: no verdict yet, so both settings'
    games are judged by their standing there (the Axis's points at the stop), and the search
    at budget 0 plays the planner's very games."""
    out = _study(capsys, "europa-barbarossa", "--bots", "planner", "--compare-bots",
                 "axis=mcts@budget=0,soviet=planner", "--games", "1", "--max-turns", "1",
                 "--out", str(tmp_path / "s"))
    p = out["paired"]
    assert (p["games"], p["same_game"], p["at_stop"]) == (1, 1, 2)
    assert p["points"]["counted"] == "axis" and p["points"]["mean"] == "0"
    assert p["points"]["base"] == p["points"]["compared"]
    assert out["results"]["base"]["wins"]["none"]["games"] == 1  # no verdict yet
    stop = out["results"]["base"]["at_stop"]  # each setting's own games at their stop
    assert stop["games"] == 1 and sum(stop["leaders"].values()) == 1
    assert stop["points"] == {"counted": "axis",
                              "mean": f"{float(Fraction(p['points']['base'])):.2f}"}
    page = (tmp_path / "s" / "report.html").read_text()
    assert "2 of the 2 games stopped at a limit, judged by their standing there" in page
    assert "Had the 1 game stopped at a limit ended there: " in page
