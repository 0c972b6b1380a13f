"""Issue 25 (studies a designer can trust), session 31: a position study.

``grognard study --saves DIR`` writes each game's save when it stops (with ``--max-turns T``,
the position at the start of turn T+1); ``grognard study --from SAVE`` plays every game on
from that position with fresh dice from the game's seed - "from here, how often does Moscow
fall?" - and so measures two bots' play from a position with none of the earlier game's
noise. A save of another scenario, a changed save, ``--saves`` with ``--from`` and a scenario
change with ``--from`` are refused with one line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grognard.analysis.study import Setting, Start, play_one, position_game
from grognard.bots import legal_actions
from grognard.cli import main
from grognard.engine.game import Game
from grognard.engine.save import load_game, save_game
from grognard.engine.scenario import load_scenario

BOTS = "axis=heuristic,soviet=heuristic"


def _study(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    capsys.readouterr()
    assert main(["study", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_saves_of_a_study_are_its_games_at_their_stop(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    """Each game's save holds the game as played: it replays (load_game verifies every
    command from the seed) to the state its record names, at the turn limit's end."""
    out = _study(capsys, "demo-europa", "--bots", BOTS, "--games", "2", "--seed", "4",
                 "--max-turns", "1", "--saves", str(tmp_path / "pos"), "--out",
                 str(tmp_path / "s"))
    assert out["settings"]["base"]["saves"] == str(tmp_path / "pos")
    for seed in (4, 5):
        g = load_game(tmp_path / "pos" / f"base-{seed}.json")
        assert g.seed == seed and g.commands
        assert int(g.state["turn"]) == 2  # stopped once turn 1 was over


def test_a_position_study_plays_on_from_the_save_with_fresh_dice(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every game starts from the save's very position (its state hash), seeded by its own
    seed: the same seed gives the same game, other seeds other futures; the setting names
    the position; the report says where the games started."""
    g = Game(load_scenario("europa-pocket"), 9)
    path = tmp_path / "here.json"
    save_game(g, path)
    start = Start(str(path), ((str(path), g.state_hash()),))
    a, b = position_game(start, 1), position_game(start, 1)
    assert a.state_hash() == g.state_hash() and not a.commands and a.seed == 1
    assert a.state is not b.state  # each game its own copy of the position
    spec = Setting("europa-pocket", {"axis": "heuristic", "soviet": "heuristic"},
                   start=start).to_json()
    one, again = play_one(spec, 3), play_one(spec, 3)
    assert one["state_hash"] == again["state_hash"] and one["end"] != "error"
    futures = {play_one(spec, s)["state_hash"] for s in range(3, 9)}
    assert len(futures) > 1  # the dice differ seed by seed
    out = _study(capsys, "europa-pocket", "--from", str(path), "--bots", BOTS, "--games", "2",
                 "--out", str(tmp_path / "s"))
    assert out["settings"]["base"]["start"] == {"from": str(path),
                                                "positions": [[str(path), g.state_hash()]]}
    assert out["played"]["base"] == 2
    page = (tmp_path / "s" / "report.html").read_text()
    assert f"played on from the position in {path}" in page


def test_a_whole_game_setting_keeps_its_identity(tmp_path: Path) -> None:
    """A study of whole games keeps the store key it had before position studies (its
    stored games are found again); the saves directory is not part of it."""
    plain = Setting("demo-europa", {"axis": "random", "soviet": "random"}, max_turns=1)
    assert "start" not in plain.to_json() and "saves" not in plain.to_json()
    assert Setting("demo-europa", {"axis": "random", "soviet": "random"}, max_turns=1,
                   saves=str(tmp_path)).key() == plain.key()
    assert Setting.from_json(plain.to_json()) == plain


def test_a_changed_save_is_refused_game_by_game(tmp_path: Path) -> None:
    """The save's position must be the one the study was set up on: a save changed since
    makes each game a failed record naming the save, never a game from another position."""
    g = Game(load_scenario("europa-pocket"), 9)
    path = tmp_path / "here.json"
    save_game(g, path)
    spec = Setting("europa-pocket", {"axis": "heuristic", "soviet": "heuristic"},
                   start=Start(str(path), ((str(path), "0" * 64),))).to_json()
    rec = play_one(spec, 1)
    assert rec["end"] == "error" and str(path) in rec["error"]
    assert "not the one the study started from" in rec["error"]


def test_a_directory_of_positions_is_played_seed_by_seed_in_turn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--from DIR``: every save in it, in name order; the game with seed s starts from
    position s mod their count, so a study's seeds go round them all; the report says how
    many positions; a directory with no save, or a save of another scenario in it, is
    refused in one line."""
    here = tmp_path / "pos"
    here.mkdir()
    hashes = []
    for k, seed in enumerate((9, 10, 11)):
        g = Game(load_scenario("europa-pocket"), seed)
        for _ in range(k):  # a different position each: k commands on
            g.apply(legal_actions(g, g.active()[0])[0])
        save_game(g, here / f"p{k}.json")
        hashes.append(g.state_hash())
    assert len(set(hashes)) == 3
    out = _study(capsys, "europa-pocket", "--from", str(here), "--bots", BOTS, "--games", "3",
                 "--max-commands", "5", "--out", str(tmp_path / "s"))
    start = out["settings"]["base"]["start"]
    assert start["from"] == str(here)
    assert start["positions"] == [[str(here / f"p{k}.json"), hashes[k]] for k in range(3)]
    s = Setting.from_json(out["settings"]["base"])
    assert s.start is not None and s.start.position(4) == (str(here / "p1.json"), hashes[1])
    assert position_game(s.start, 5).state_hash() == hashes[2]
    assert "played on from the 3 positions in" in (tmp_path / "s" / "report.html").read_text()
    empty = tmp_path / "empty"
    empty.mkdir()
    capsys.readouterr()
    assert main(["study", "europa-pocket", "--from", str(empty), "--bots", BOTS,
                 "--out", str(tmp_path / "t")]) != 0
    assert "no saves" in capsys.readouterr().err


@pytest.mark.parametrize(("extra", "what"), [
    (["--scenario-other"], "is a game of europa-pocket, not demo-europa"),
    (["--saves", "X"], "--saves"),
    (["--reading", "europa.a.b=1"], "cannot apply to a game already under way"),
    (["--compare", "europa.a.b=1"], "cannot apply to a game already under way"),
])
def test_a_position_study_refuses_what_cannot_apply(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str],
                                                     extra: list[str], what: str) -> None:
    g = Game(load_scenario("europa-pocket"), 9)
    path = tmp_path / "here.json"
    save_game(g, path)
    scenario = "demo-europa" if extra == ["--scenario-other"] else "europa-pocket"
    args = [a if a != "X" else str(tmp_path / "pos") for a in extra
            if a != "--scenario-other"]
    capsys.readouterr()
    rc = main(["study", scenario, "--from", str(path), "--bots", BOTS, "--games", "1",
               "--out", str(tmp_path / "s"), *args])
    err = capsys.readouterr().err
    assert rc != 0 and what in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if line.strip()]) == 1
    assert not (tmp_path / "s" / "study.sqlite").exists()
