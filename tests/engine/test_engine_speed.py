"""Issue 22 item 5: the engine's faster paths keep what they replace (checkpoints, dice)."""

from __future__ import annotations

import json

import msgspec

from grognard.engine.game import Game, _checkpoint


def test_checkpoint_gives_back_the_state_json_would():
    """A checkpoint (msgspec JSON bytes) decodes to what a json.dumps/json.loads round trip
    gives: nested objects, lists from tuples, unicode, big integers, None and booleans."""
    state = {"units": {"é-1": {"hex": "A1", "attack": 3, "tags": ("x", "y")}},
             "ledger": {"brp": "108.8", "big": 2**70, "neg": -5}, "flag": True, "none": None,
             "text": "line\u2028sep \"quoted\" \\ back"}
    assert msgspec.json.decode(_checkpoint(state)) == json.loads(json.dumps(state))


def test_undo_across_a_checkpoint_rebuilds_the_state():
    """The state rebuilt from a checkpoint and the events after it is the one played."""
    g = Game.new("demo-third-reich", seed=3)
    seen = []
    while len(g.commands) < 70:
        seen.append(json.dumps(g.state, sort_keys=True))
        g.apply(g.legal(g.active()[0])[-1])
    for n in (0, 1, 63, 64, 65, 69):
        assert json.dumps(g.state_at(n), sort_keys=True) == seen[n]
