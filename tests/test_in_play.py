"""Done means played: every rule docs/features/in_play.json records as exercised by whole games
under the engine is still exercised by the same random legal games (scripts/in_play.py)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("in_play", ROOT / "scripts" / "in_play.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_rule_recorded_in_play_is_still_exercised_by_whole_games():
    recorded = json.loads((ROOT / "docs" / "features" / "in_play.json").read_text())
    now = _script().exercised()
    lost = {rid: sorted(set(scs) - set(now.get(rid, []))) for rid, scs in recorded.items()
            if not set(scs) <= set(now.get(rid, []))}
    assert not lost, (f"rules no longer exercised by whole games: {lost}; fix the engine or "
                      "rerun scripts/in_play.py and scripts/features.py")


def test_in_play_map_names_only_known_event_types_and_rule_ids():
    from grognard.engine.system import system_named

    mapping = _script().rule_map()
    for system, events in mapping.items():
        folds = system_named(system).folds
        for event, rules in events.items():
            assert event in folds, f"{system}: no event type {event!r}"
            assert all(r.split("-")[0] in ("SUR", "EUR", "TR", "EF") for r in rules)
