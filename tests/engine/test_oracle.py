"""The refactor oracle (issue 22): recorded seeded games of every shipped scenario replay to the
same state and event digests. A commit that changes behaviour on purpose re-records the oracle
with ``scripts/record_oracle.py`` and says so."""

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "record_oracle.py"
_spec = importlib.util.spec_from_file_location("record_oracle", SCRIPT)
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)

GAMES = oracle.load()


@pytest.mark.parametrize("rec", GAMES, ids=[f"{g['scenario']}-{g['how']}-{g['seed']}"
                                            for g in GAMES])
def test_recorded_game_replays_to_same_digests(rec):
    assert oracle.replay(rec) is None
