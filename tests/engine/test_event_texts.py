"""An event's canonical text (engine/game.py ``_encode``): msgspec's fast form must be exactly
``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)``'s,
the text saves hold and replays compare - for the events of recorded games and for the values
whose text msgspec writes otherwise (floats, tuples, non-text keys), which fall back."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path
from typing import Any

import pytest

from grognard.engine.commands import Command
from grognard.engine.game import Game, _canonical
from grognard.engine.scenario import load_scenario

BENCH = Path(__file__).resolve().parents[2] / "bench" / "data"


def _std(raw: Any) -> str:
    return json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


@pytest.mark.parametrize("name", ["tr-1939-campaign", "europa-barbarossa"])
def test_canonical_text_is_the_standard_librarys_for_every_event_of_a_recorded_game(
        name: str) -> None:
    rec = json.loads(gzip.decompress((BENCH / f"{name}-heuristic-1.json.gz").read_bytes()))
    g = Game(load_scenario(name), rec["seed"])
    n = 0
    for c in rec["commands"][:800]:
        for ev in g.apply(Command.from_json(c)):
            raw = ev.to_json()
            assert _canonical(raw) == _std(raw)
            n += 1
    assert n > 800


@pytest.mark.parametrize("data", [
    {"b": 1, "a": [1, 2, {"z": None, "y": True}], "s": "é\u2028\x7f\x01\n\t\"\\/<>&", "B": 0},
    {"v": 1e16}, {"v": 1e-7}, {"v": 0.5}, {"v": (1, 2)}, {1: "a", 10: "b", 2: "c"},
    {"v": 2**70}, {"e": "", "é": 1, "e\u0301": 2, "z": {}}, {"v": []},
])
def test_canonical_text_of_values_msgspec_writes_otherwise(data: Any) -> None:
    raw = {"type": "x", "data": data}
    assert _canonical(raw) == _std(raw)


@pytest.mark.parametrize("bad", [math.nan, math.inf, object(), {1, 2}])
def test_canonical_text_refuses_what_the_standard_library_refuses(bad: Any) -> None:
    raw = {"type": "x", "data": {"v": bad}}
    with pytest.raises((TypeError, ValueError)):
        _std(raw)
    with pytest.raises((TypeError, ValueError)):
        _canonical(raw)
