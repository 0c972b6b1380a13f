"""EF-17 "Disruption due to Surprise is cancelled when the penalised side becomes the 1st Player
(never in the first Activation Phase)": the first Activation Phase of the war, not of every
month (reading ``ef_surprise_exemption``, default ``war``; ``month`` for the other reading)."""

import pytest

from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.eurofront.activation import (
    Chit,
    choose_chit,
    reveal_and_roll,
    roll_weather,
    start_month,
    surprise_disrupted,
    surprise_exempt,
)
from grognard.eurofront.model import Side, Turn
from grognard.eurofront.operations import rail_limit
from grognard.eurofront.readings import DEFAULT_READINGS, EuroFrontReadings, SurpriseExemption
from grognard.eurofront.testing import block, finish_month, new_game, to_activation

AX, AL = Side.AXIS, Side.ALLIES
HQS = {AX: {"A4": 1}, AL: {"S1": 2}}
MONTH = EuroFrontReadings(ef_surprise_exemption=SurpriseExemption.MONTH)

BLOCKS = (block("ax-hq", "axis", "0203", steps=2, kind="battle", hq=True),
          block("ax-inf", "axis", "0302"),
          block("al-hq", "allies", "0903", steps=2, kind="battle", hq=True),
          block("al-inf", "allies", "0803"))


def _allies_first(s, first_month, readings=DEFAULT_READINGS):
    s, _ = roll_weather(s, 4)
    s, _ = choose_chit(s, AX, Chit(1, 1))
    s, _ = choose_chit(s, AL, Chit(2, 1))
    return reveal_and_roll(s, {AX: 1, AL: 6}, readings,
                           exempt=surprise_exempt(s, first_month, readings))


def test_ef17_surprise_never_cancelled_in_the_wars_first_activation_phase():
    s, rec = _allies_first(start_month(Turn(1941, 6), HQS, surprised=AL), first_month=True)
    assert rec.first is AL and not rec.surprise_cancelled and surprise_disrupted(s, AL)


def test_ef17_surprise_cancelled_in_phase_one_of_a_later_month_by_default():
    """July 1941, phase 1: the surprised Soviets become First Player - the war's first phase
    is past, so the disruption ends (it did not under the per-month reading)."""
    july = start_month(Turn(1941, 7), HQS, surprised=AL)
    s, rec = _allies_first(july, first_month=False)
    assert rec.surprise_cancelled and not surprise_disrupted(s, AL)
    s, rec = _allies_first(july, first_month=False, readings=MONTH)
    assert not rec.surprise_cancelled and surprise_disrupted(s, AL)


def test_ef17_exemption_reading_is_validated():
    with pytest.raises(InputError, match="ef_surprise_exemption"):
        EuroFrontReadings.from_mapping({"ef_surprise_exemption": "turn"})


def _july_game(readings):
    """A game whose surprised Allies win July 1941's first initiative (the seed is searched
    deterministically: the Axis places a zero chit, the Allies a 2-chit)."""
    for seed in range(1, 60):
        g = new_game(seed, blocks=BLOCKS, calendar={"surprised": "allies"}, readings=readings)
        finish_month(g)  # June 1941: the war's first (and only) Activation Phase
        assert g.state["activation"]["month"] == "1941-07"
        assert g.state["activation"]["surprised"] == "allies"
        ev = to_activation(g, (0, 0), (2, 1))
        if ev["first"] == "allies" and ev["phase"] == 1:
            return g, ev
    raise AssertionError("no seed gave the Allies July's first initiative")


def test_ef17_engine_ends_the_soviet_surprise_when_first_player_in_july():
    g, ev = _july_game({})
    assert ev["surprise_cancelled"]
    assert g.state["activation"]["surprised"] is None
    assert rail_limit(g.context, g.state, "allies") == 8  # EF-03's 5 hexes no longer apply


def test_ef17_engine_per_month_reading_keeps_the_surprise_in_july_phase_one():
    g, ev = _july_game({"ef_surprise_exemption": "month"})
    assert not ev["surprise_cancelled"]
    assert g.state["activation"]["surprised"] == "allies"
    assert rail_limit(g.context, g.state, "allies") == 5


def test_ef17_engine_first_phase_of_the_war_keeps_the_surprise():
    for seed in range(1, 60):
        g = new_game(seed, blocks=BLOCKS, calendar={"surprised": "allies"})
        ev = to_activation(g, (0, 0), (2, 1))
        if ev["first"] == "allies":
            break
    assert ev["first"] == "allies" and ev["phase"] == 1 and not ev["surprise_cancelled"]
    assert g.state["activation"]["surprised"] == "allies"
    g.apply(Command("activate_hq", "allies", {"hq": "al-hq"}))
    assert rail_limit(g.context, g.state, "allies") == 5
