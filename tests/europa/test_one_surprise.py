"""Issue 24 item 3, EUR-44/SUR-01/SUR-25: one surprise where the texts intend one. After the
FitE surprise turn (its bonus movement and combat across the Soviet border) the same game
turn's initial phase offers no rule-47 invasion surprise against the USSR, and verify refuses
one (reading ``surprise_after_fite_turn = not_both``, the default); ``both`` allows it."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.game import Game

INVADE = Command("start_invasion_surprise", "axis", {"country": "ussr"})


def _jun_ii_initial(scenario: str, **kw: object) -> Game:
    g = Game.new(scenario, 11, **kw)
    for _ in range(12):
        if g.phase.name == "initial" and g.phase.player == "axis":
            return g
        g.apply(Command("end_phase", g.phase.player))
    raise AssertionError("no axis initial phase")


@pytest.mark.parametrize("scenario", ["europa-barbarossa", "europa-fite-surprise"])
def test_eur44_sur25_no_invasion_surprise_after_the_fite_surprise_turn(scenario):
    g = _jun_ii_initial(scenario)
    assert g.turn == 1 and g.status()["date"] == "Jun II 1941"
    assert not [c for c in g.legal("axis") if c.kind == "start_invasion_surprise"]
    with pytest.raises(IllegalOrder) as e:
        g.verify(INVADE)
    assert e.value.rule == "EUR-44" and "surprise_after_fite_turn" in str(e.value)


def test_eur44_reading_both_allows_the_second_surprise():
    g = _jun_ii_initial("europa-fite-surprise",
                        readings={"surprise_after_fite_turn": "both"})
    assert INVADE in g.legal("axis")
    g.verify(INVADE)
