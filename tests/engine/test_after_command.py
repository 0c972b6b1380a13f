"""The ``after_command`` hook (``engine.system.AfterCommand``): a rule system may add events
the position after a command calls for (Europa: air units displaced from an airbase the enemy
entered, the EUR-23 reading). The game folds them after the command's own, records them with
it, makes them again on replay, and a failing rule leaves the game untouched."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest

from grognard.engine import Command, Game, generic
from grognard.engine.context import Context
from grognard.engine.events import Event, writes_units
from grognard.engine.scenario import load_scenario
from grognard.engine.state import JSON

SCENARIO = load_scenario(Path(__file__).parent / "data" / "generic.toml")


@writes_units()
def fold_noted(state: JSON, ev: Event) -> JSON:
    state.setdefault("noted", []).append(ev.data["hex"])
    return state


def note_stops(ctx: Context, state: JSON, events: Sequence[Event]) -> list[Event]:
    """A ``noted`` event for each unit that ends a move in column 05 (read from the state
    after the move: the unit's hex there)."""
    out = []
    for ev in events:
        if ev.type == "unit_moved":
            h = state["units"][ev.data["unit"]]["hex"]
            if h.startswith("05"):
                out.append(Event("noted", {"hex": h}))
    return out


SYSTEM = dataclasses.replace(generic.GENERIC, folds={**generic.GENERIC.folds,
                                                      "noted": fold_noted},
                             after_command=note_stops)


def move(unit: str, to: str) -> Command:
    return Command("move", "axis", {"unit": unit, "to": to})


def test_the_rules_events_follow_the_commands_own_and_replay() -> None:
    g = Game(SCENARIO, system=SYSTEM)
    assert [e.type for e in g.apply(move("de-7pz", "0403"))] == ["unit_moved"]
    assert "noted" not in g.state
    events = g.apply(move("de-20mot", "0505"))
    assert [e.to_json() for e in events[1:]] == [{"type": "noted", "data": {"hex": "0505"}}]
    assert g.events[-1] == events and g.state["noted"] == ["0505"]
    again = Game.replay(SCENARIO, g.seed, g.commands, g.events, system=SYSTEM)
    assert again.state_hash() == g.state_hash()
    assert g.state_at(len(g.commands)) == g.state
    g.undo("axis")  # the move and the rule's event go back together
    assert "noted" not in g.state and g.state["units"]["de-20mot"]["hex"] == "0405"


def test_a_failing_rule_leaves_the_game_untouched() -> None:
    def broken(ctx: Context, state: JSON, events: Sequence[Event]) -> list[Event]:
        raise RuntimeError("the rule failed")

    g = Game(SCENARIO, system=dataclasses.replace(SYSTEM, after_command=broken))
    before, n = g.state_hash(), len(g.commands)
    with pytest.raises(RuntimeError):
        g.apply(move("de-20mot", "0505"))
    assert g.state_hash() == before and len(g.commands) == n
    assert g.state["units"]["de-20mot"]["hex"] == "0405"


def test_without_the_hook_nothing_is_added() -> None:
    g = Game(SCENARIO)
    assert g.system.after_command is None
    assert [e.type for e in g.apply(move("de-20mot", "0505"))] == ["unit_moved"]
