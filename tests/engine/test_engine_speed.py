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


def test_replay_refuses_a_save_whose_events_were_edited():
    """A verified replay compares each command's events with the saved ones (the texts apply
    encoded): an edited event is refused, an untouched save replays."""
    import pytest

    from grognard.core.errors import GrognardError
    from grognard.engine.game import ReplayMismatch
    from grognard.engine.save import dumps, loads

    g = Game.new("demo-third-reich", seed=5)
    while len(g.commands) < 30:
        g.apply(g.legal(g.active()[0])[-1])
    text = dumps(g)
    assert loads(text, verify=True).state_hash() == g.state_hash()
    raw = json.loads(text)
    i = next(i for i, evs in enumerate(raw["events"]) if evs and evs[0]["data"])
    key = sorted(raw["events"][i][0]["data"])[0]
    raw["events"][i][0]["data"][key] = "edited"
    raw.pop("save_hash", None)  # no hash: the log must replay and be refused on its own
    with pytest.raises((ReplayMismatch, GrognardError), match="different events"):
        loads(json.dumps(raw), verify=True)


def test_replay_compares_events_with_non_text_keys_by_their_decoded_form():
    """Events whose data has integer keys encode (sorted by number) differently from their
    decoded form (text keys, sorted as text): the replay then compares the decoded forms, as
    it always did, and accepts them."""
    from grognard.engine.events import Event
    from grognard.engine.game import _decode, _encode

    ev = Event("x", {"m": {2: "a", 10: "b"}})
    texts = _encode([ev])
    assert texts != _encode(_decode(texts))  # the raw texts differ from the decoded ones
    assert _encode(_decode(texts)) == _encode(_decode(_encode(_decode(texts))))


def test_dice_rollback_gives_back_what_a_snapshot_restore_would():
    """A dice transaction rolled back leaves every stream where a snapshot taken at its start
    and restored would (drawn streams back, new streams gone, others untouched); committed,
    the draws stay."""
    from grognard.core.dice import Dice

    d = Dice(11)
    d.roll("2d6", "a")
    d.stream("b").choice(5)
    before = d.snapshot()
    d.begin()
    d.roll("2d6", "a")
    d.stream("a").sample("1d6", 4)
    d.stream("new").die(6)
    d.rollback()
    assert d.snapshot() == before and "new" not in d._streams
    d.begin()
    first = d.roll("2d6", "a")
    d.commit()
    assert d.snapshot() != before
    d.restore(before)
    assert d.roll("2d6", "a") == first  # the same position: the same roll
    d.roll("1d6", "b")  # no transaction open: nothing written down
    assert d._journal is None and all(s._journal is None for s in d._streams.values())


def test_a_refused_fold_gives_back_the_dice(monkeypatch):
    """Game.apply: a command that rolls dice and whose fold then fails leaves the dice as
    they were (the transaction is rolled back): applied again, it rolls what its twin game
    rolled."""
    import random

    import pytest

    from grognard.engine.fuzz import choose

    g = Game.new("demo-third-reich", seed=9)
    twin = Game.new("demo-third-reich", seed=9)
    rng = random.Random(4)
    for _ in range(400):
        cmd = choose(g, rng)
        assert cmd is not None
        draws = twin.dice.draws()
        expected = twin.apply(cmd)
        if twin.dice.draws() != draws:
            break
        g.apply(cmd)
    else:
        raise AssertionError("no command rolled dice")
    before = g.dice.snapshot()

    def broken(state, events):
        raise RuntimeError("fold failed")

    monkeypatch.setattr(g, "fold", broken)
    with pytest.raises(RuntimeError):
        g.apply(cmd)
    monkeypatch.delattr(g, "fold")
    assert g.dice.snapshot() == before
    assert g.apply(cmd) == expected


def test_supply_trace_reuses_its_unbounded_search_for_the_reasons():
    """C-SUPPLY/TR-72: with no length limit the "too far or isolated" search of
    ``explain`` is the line search itself (reused): the same unbounded lengths as a trace whose
    limit forces the separate search."""
    import numpy as np

    from grognard.core.supply import third_reich_supply, trace_supply
    from grognard.engine.scenario import load_scenario
    from grognard.third_reich.board import forces_of_state, side_zoc
    from grognard.third_reich.supply.supply_map import supply_sources

    g = Game(load_scenario("tr-1939-campaign"), 1)
    ctx, state = g.context, g.state
    m = ctx.scenario.map
    forces = forces_of_state(ctx, state)
    for side in ("axis", "allies"):
        units = forces.hex[forces.of_side(side)]
        src = supply_sources(m, state["control"], side,
                             capital_countries=["germany", "italy", "france", "uk"])
        kw = dict(rules=third_reich_supply(), explain=True)
        fast = trace_supply(m, units, side_zoc(ctx, state, side), src, max_length=None, **kw)
        slow = trace_supply(m, units, side_zoc(ctx, state, side), src, max_length=10**6, **kw)
        assert np.array_equal(fast.unbounded, slow.unbounded)
        assert np.array_equal(fast.in_supply, slow.in_supply) and fast.in_supply.any()


def test_cached_for_serves_a_value_only_for_the_object_it_was_made_from():
    """Context.cached_for: one value per position and source object; a view or a hypothetical
    copy asking under the same key gets its own, and the game's clearing drops both."""
    from grognard.engine.game import Game

    ctx = Game.new("demo-third-reich", seed=1).context
    a, b = {"x": 1}, {"x": 1}
    calls: list[str] = []
    first = ctx.cached_for(a, "k", lambda: calls.append("a") or ["a"])
    assert ctx.cached_for(a, "k", lambda: calls.append("again") or ["again"]) is first
    assert ctx.cached_for(b, "k", lambda: calls.append("b") or ["b"]) == ["b"]
    assert calls == ["a", "b"]
    ctx.cache.clear()
    assert ctx.cached_for(b, "k", lambda: ["new"]) == ["new"]
