"""Context.keyed: facts kept across commands under the value of what they depend on."""

from __future__ import annotations

from grognard.engine.context import Context
from grognard.engine.scenario import load_scenario


def _ctx() -> Context:
    return Context(load_scenario("demo-europa"))


def test_keyed_makes_once_per_key_and_survives_the_command_cache() -> None:
    ctx = _ctx()
    made: list[int] = []

    def make(v: int) -> int:
        made.append(v)
        return v * 10

    assert ctx.keyed("f", ("a", 1), lambda: make(1)) == 10
    ctx.cache.clear()  # what the game does after every command
    assert ctx.keyed("f", ("a", 1), lambda: make(2)) == 10  # same key: kept
    assert made == [1]


def test_keyed_rebuilds_when_the_key_changes_and_keeps_one_entry_per_name() -> None:
    ctx = _ctx()
    assert ctx.keyed("f", (1,), lambda: "one") == "one"
    assert ctx.keyed("f", (2,), lambda: "two") == "two"  # a new key: never the stale value
    assert ctx.keyed("f", (1,), lambda: "again") == "again"
    assert ctx.keyed("g", (1,), lambda: "other") == "other"  # names are separate
    assert set(ctx.kept) == {"f", "g"}
