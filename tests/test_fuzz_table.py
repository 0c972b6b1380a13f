"""scripts/fuzz_table.py: the long fuzz run's chunks summed into docs/PERFORMANCE.md's table
(issue 11: "1,000 games per scenario in a longer run, reported in docs/PERFORMANCE.md")."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("fuzz_table", ROOT / "scripts" / "fuzz_table.py")
assert spec is not None and spec.loader is not None
fuzz_table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fuzz_table)


def _chunk(folder: Path, seed: int, commands: list[int], ends: list[str], failures: int,
           cpu: str | None) -> None:
    games = [{"game": i, "seed": seed + i, "commands": c, "end": e, "result": None}
             for i, (c, e) in enumerate(zip(commands, ends, strict=True))]
    data = {"scenario": "demo-europa", "games": len(games), "commands": sum(commands),
            "failures": [{"game": 0, "seed": seed, "step": 3, "kind": "crash", "detail": "x"}
                         ] * failures, "per_game": games, "saved": []}
    (folder / f"demo-europa-{seed}-{len(games)}.json").write_text(json.dumps(data))
    if cpu is not None:
        (folder / f"demo-europa-{seed}-{len(games)}.time").write_text(cpu)


def test_chunks_of_one_scenario_make_one_row(tmp_path, capsys):
    _chunk(tmp_path, 1000, [10, 30], ["over", "limit"], 0, "1.50 0.10 2.0\n")
    _chunk(tmp_path, 1002, [20, 40], ["over", "over"], 1, "2.00 0.40 3.0\n")
    (tmp_path / "tr-1944-1000-5.json").write_text("{not json")  # an unfinished run: skipped
    assert fuzz_table.main([str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert "| `demo-europa` | 4 | 100 | 3 / 1 | **1** | 10 / 25 / 40 | 1.00 |" in out.out
    assert "tr-1944-1000-5.json: not a finished fuzz run" in out.err


def test_cpu_unknown_without_every_time_file_and_a_missing_folder_is_one_line(tmp_path,
                                                                              capsys):
    _chunk(tmp_path, 1000, [10], ["over"], 0, None)
    assert fuzz_table.main([str(tmp_path)]) == 0
    assert "| `demo-europa` | 1 | 10 | 1 / 0 | **0** | 10 / 10 / 10 | - |" in capsys.readouterr().out
    assert fuzz_table.main([str(tmp_path / "nope")]) == 2
    assert capsys.readouterr().err.strip().startswith("fuzz_table: not a folder")
