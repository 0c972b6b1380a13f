"""``grognard fuzz`` saves a failing game as soon as it ends (issue 11: a long run stopped
early keeps its failures), names the saves in its JSON, and exits 1."""

from __future__ import annotations

import json

import grognard.engine.fuzz as fuzz_mod
from grognard.cli import main


def test_fuzz_saves_each_failing_game_when_it_ends(capsys, tmp_path, monkeypatch):
    real = fuzz_mod.play
    seen_on_disk: list[list[str]] = []

    def play(scenario, seed, index=0, max_commands=2000, **kw):
        # what the folder holds when each game starts: earlier failures already saved
        seen_on_disk.append(sorted(p.name for p in tmp_path.glob("*.json")))
        run = real(scenario, seed, index, max_commands, **kw)
        if seed % 2 == 0:  # every other game "fails"
            run.failures.append(fuzz_mod.Failure(index, seed, run.commands, "crash", "test"))
        return run

    monkeypatch.setattr(fuzz_mod, "play", play)
    rc = main(["fuzz", "demo-europa", "--games", "3", "--seed", "10", "--max-commands", "20",
               "--out", str(tmp_path), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1
    assert [f["seed"] for f in out["failures"]] == [10, 12]
    assert sorted(out["saved"]) == sorted(str(tmp_path / f"demo-europa-seed{s}.json")
                                          for s in (10, 12))
    assert seen_on_disk == [[], ["demo-europa-seed10.json"], ["demo-europa-seed10.json"]]
    rc = main(["game", "status", str(tmp_path / "demo-europa-seed12.json"), "--json"])
    assert rc == 0
