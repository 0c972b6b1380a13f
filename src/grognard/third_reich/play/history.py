"""What the third_reich state no longer keeps, rebuilt from the events: the BRP ledger's
postings (TR-07..TR-13, TR-75 ...). The state holds the current balances only
(the ``current_facts`` after-event rule); folding a game's recorded events again without that
rule gives every posting with its rule and cause."""

from __future__ import annotations

from grognard.engine.events import Event
from grognard.engine.game import Game
from grognard.third_reich.economy.economy import Economy
from grognard.third_reich.play.system import THIRD_REICH, initial_state


def ledger_history(game: Game) -> Economy:
    """The game's economy with its whole ledger (every posting since the start)."""
    state = initial_state(game.scenario)
    for events in game.events:
        for ev in events:
            e = Event.from_json(ev.to_json())
            state = THIRD_REICH.folds[e.type](state, e)
            for name, rule in THIRD_REICH.after_events:
                if name != "current_facts":
                    state = rule(state, e)
    return Economy.from_json(state["economy"])
