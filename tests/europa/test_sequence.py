"""EUR-22 revised sequence of play (001_20f3acfdeb9925e5.txt, "Revised Sequence of Play")."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder, InputError
from grognard.engine.phases import TurnSequence
from grognard.europa.play.sequence import (
    PlayerPhase,
    can_activity,
    phase_activities,
    phase_of,
    player_turn_phases,
    turn_phases,
    turn_sequence,
    verify_activity,
)


def test_eur22_player_turn_order():
    """Seed: "Initial phase / Movement phase / Air phase / Combat phase / Exploitation phase /
    Supply phase / Replacement phase"."""
    assert [p.value for p in player_turn_phases()] == [
        "initial", "movement", "air", "combat", "exploitation", "supply", "replacement"]


def test_eur22_air_phase_comes_between_movement_and_combat():
    order = list(player_turn_phases())
    assert order.index(PlayerPhase.MOVEMENT) < order.index(PlayerPhase.AIR) < order.index(
        PlayerPhase.COMBAT)


def test_eur22_initial_phase_receives_points_but_has_no_supply_check():
    """Seed: "Replacement points are also received at this time but they are not used at this
    time ... Nor is supply checked in the initial phase. Supply points ... are also received in
    the initial phase"."""
    acts = phase_activities("initial").activities
    assert "receive_replacement_points" in acts and "receive_supply_points" in acts
    assert "supply_check" not in acts and "spend_replacements" not in acts
    assert phase_of("supply_check") is PlayerPhase.SUPPLY
    assert phase_of("spend_replacements") is PlayerPhase.REPLACEMENT


def test_eur22_spending_replacements_in_initial_phase_is_illegal():
    with pytest.raises(IllegalOrder) as e:
        verify_activity("initial", "spend_replacements")
    assert e.value.rule == "EUR-22"
    assert can_activity("replacement", "spend_replacements")
    assert not can_activity("initial", "supply_check")


def test_eur22_engine_phases_for_players_in_order():
    ph = turn_phases(["axis", "soviet"])
    assert [(p.name, p.player) for p in ph[:7]] == [
        (p.value, "axis") for p in player_turn_phases()]
    assert [p.player for p in ph[7:]] == ["soviet"] * 7
    air = ph[2]
    assert air.name == "air" and {"fighter_sweep", "intercept", "interdiction"} <= air.commands
    assert "move" in ph[1].commands and "move" not in air.commands


def test_eur22_turn_sequence_runs_in_engine():
    seq = turn_sequence(["axis", "soviet"])
    assert isinstance(seq, TurnSequence)
    assert seq.next_position(6, 1) == (7, 1) and seq.next_position(13, 1) == (0, 2)
    assert seq.allows(2, "intercept") and not seq.allows(0, "intercept")
    assert seq.allows(0, "end_phase")


def test_eur22_bad_players_and_phases_rejected():
    with pytest.raises(InputError):
        turn_phases([])
    with pytest.raises(InputError):
        turn_phases(["axis", "axis"])
    with pytest.raises(InputError):
        phase_activities("lunch")
    with pytest.raises(InputError):
        phase_of("teleport")


def test_eur22_extra_commands_per_phase():
    ph = turn_phases(["axis"], extra={"supply": ["breakout"], PlayerPhase.AIR: ["recon"]})
    assert "breakout" in ph[5].commands and "recon" in ph[2].commands
    with pytest.raises(InputError):
        turn_phases(["axis"], extra={"teatime": ["x"]})
    with pytest.raises(InputError):
        turn_phases(["axis"], extra={"air": "recon"})


def test_eur22_revised_turn_covers_the_europa_system_commands():
    """The Europa engine system can swap its default sequence for the revised turn: every
    command its current phases allow is allowed in the revised phase of the same name."""
    from grognard.europa.play import system

    revised = {p.name: p.commands for p in turn_phases(["axis"])}
    for name, cmds in system.SEQUENCE_PHASES:
        assert set(cmds) <= revised[name], name
