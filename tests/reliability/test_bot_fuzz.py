"""Issue 27, item 10: dead ends random play never finds. ``grognard fuzz --bots heuristic``
plays bot games (bots/fuzz.py) checked like random play; CI plays a short bot game of every
shipped scenario (the long run, 200 games a scenario, is reported in docs/RELIABILITY.md)."""

from __future__ import annotations

import json
import os

import pytest

from grognard.bots.fuzz import fuzz
from grognard.cli import main
from grognard.engine.scenario import shipped_scenarios

#: Commands per CI bot game (GROGNARD_BOT_FUZZ_COMMANDS to play longer).
COMMANDS = int(os.environ.get("GROGNARD_BOT_FUZZ_COMMANDS", "120"))
GAMES = int(os.environ.get("GROGNARD_BOT_FUZZ_GAMES", "1"))


@pytest.mark.parametrize("scenario", sorted(shipped_scenarios()))
def test_heuristic_bot_games_of_every_scenario_have_no_failure(scenario: str) -> None:
    report = fuzz(scenario, games=GAMES, seed=11, max_commands=COMMANDS, bot="heuristic")
    assert report.games == GAMES and report.commands > 0
    assert report.failures == [], [f.to_json() for f in report.failures]


def test_the_cli_chooses_bots_or_random_play(tmp_path, capsys) -> None:
    assert main(["fuzz", "demo-europa", "--games", "1", "--max-commands", "60", "--bots",
                 "heuristic", "--json", "--out", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == "heuristic" and data["failures"] == []
    assert main(["fuzz", "demo-europa", "--games", "1", "--max-commands", "60", "--json",
                 "--out", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == "random legal actions"
    assert main(["fuzz", "demo-europa", "--bots", "nobody"]) == 2
    assert "no bot 'nobody'" in capsys.readouterr().err


def test_a_dead_end_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    """A position where the active player owes something but nothing is listed is a
    ``dead_end`` failure (the barbarossa case of issue 27 was of this kind)."""
    from grognard.bots import base

    monkeypatch.setattr(base.LegalActions, "kinds", lambda self: ())
    report = fuzz("demo-europa", games=1, seed=1, max_commands=20, bot="heuristic")
    assert [f.kind for f in report.failures] == ["dead_end"]
    assert "no legal action" in report.failures[0].detail
