"""The ``falls_in_turns`` claim measure (issue 25, item 4): each capital in its own turn (the
designer's sequence for Weseruebung: Copenhagen in Winter 1939, then Oslo in Spring 1940)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grognard.analysis.study_claims import falls_in_turns, load_study_file, measure_claim
from grognard.core.errors import InputError

RECS = [
    {"capitals": {"Copenhagen": {"turn": 2}, "Oslo": {"turn": 3}}},  # the sequence
    {"capitals": {"Copenhagen": {"turn": 3}, "Oslo": {"turn": 3}}},  # the same spring
    {"capitals": {"Copenhagen": {"turn": 2}, "Oslo": {"turn": 4}}},  # Oslo a turn late
    {"capitals": {"Copenhagen": {"turn": 2}}},                       # Oslo never
]


def test_tr62_falls_in_turns_counts_each_capital_in_its_turn() -> None:
    got = falls_in_turns(RECS, ["Copenhagen", "Oslo"], [2, 3])
    assert (got["yes"], got["games"]) == (1, 4)
    assert falls_in_turns(RECS, ["Copenhagen", "Oslo"], [3, 3])["yes"] == 1
    assert falls_in_turns(RECS, ["Copenhagen"], [2])["yes"] == 3


def test_tr62_falls_in_turns_in_a_claim() -> None:
    spec = {"id": "x", "claim": "c", "measure": {"kind": "falls_in_turns",
                                                  "capitals": ["Copenhagen", "Oslo"],
                                                  "turns": [2, 3]}}
    got = measure_claim(spec, {"base": RECS})
    assert got["figures"]["base"]["yes"] == 1
    assert got["measured"].startswith("base: 1/4 games (0.250, 95% CI ")


def test_falls_in_turns_study_file_needs_a_turn_per_capital(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text('[study]\nid = "s"\nscenario = "tr-1939-campaign"\n[study.measure]\n'
                 'kind = "falls_in_turns"\ncapitals = ["Copenhagen", "Oslo"]\nturns = [2]\n',
                 encoding="utf-8")
    with pytest.raises(InputError, match="one turn per capital"):
        load_study_file(f)
    shipped = Path(__file__).parents[2] / "studies" / \
        "denmark-norway-planner-denmark-first.toml"
    assert load_study_file(shipped)["measure"]["turns"] == [2, 3]
