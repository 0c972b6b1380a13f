"""What the third_reich state no longer keeps, rebuilt from the events: the BRP ledger's
postings (TR-07..TR-13, TR-75 ...). The state holds the current balances only
(:func:`~grognard.third_reich.play.system_common.current_facts`); folding a game's recorded events
again with the folds as written gives every posting with its rule and cause."""

from __future__ import annotations

from grognard.engine.events import Event
from grognard.engine.game import Game
from grognard.third_reich.economy.economy import Economy
from grognard.third_reich.play.system import LEDGER_FOLDS, initial_state


def ledger_history(game: Game) -> Economy:
    """The game's economy with its whole ledger (every posting since the start)."""
    state = initial_state(game.scenario)
    for events in game.events:
        for ev in events:
            state = LEDGER_FOLDS[ev.type](state, Event.from_json(ev.to_json()))
    return Economy.from_json(state["economy"])
