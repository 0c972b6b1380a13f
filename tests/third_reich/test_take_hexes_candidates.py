"""TR-40 (issue 23): an attrition HN result owes ``take_hexes`` among the result's own candidate
hexes (open to a power taking part, TR-25; not emptied by the losses) as they stand when the
hexes are named. ``game legal`` and verify count from the same hexes, so an owed choice always
has an answer. Found by the 50-seed campaign audit: tr-1939-campaign heuristic seed 41 stuck in
Summer I 1940 (its only front hex belonged to a country no attacker was at war with: verify
still counted it as available, and legal listed nothing verify accepted)."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder
from grognard.engine import Command, Game
from grognard.third_reich.attritions import verify_take_hexes
from grognard.third_reich.board import forces_of_state, front_mask
from grognard.third_reich.supply.supply_map import hexes_won_candidates


def _game_and_front() -> tuple[Game, list[str], list[str]]:
    g = Game.new("tr-1939-campaign", seed=1)
    s, m = g.state, g.scenario.map
    front = hexes_won_candidates(m, forces_of_state(g.context, s), "axis", s["bridgeheads"],
                                 front_mask(m, "eastern"))
    eligible = [h.id for h in front if h.eligible]
    assert eligible  # the Polish front in Fall 1939
    # a hex that is not (or no longer) an eligible hex of the front: London
    gone = [x for x in ("K22",) if x not in eligible]
    return g, eligible, gone


def _owe(g: Game, candidates: list[str], n: int = 1) -> None:
    g.state["pending_hexes"] = {"side": "axis", "front": "eastern", "n": n,
                                "candidates": candidates, "attackers": []}
    g.context.cache.clear()


def _legal(g: Game) -> list[list[str]]:
    from grognard.third_reich.combat.proposers import legal_take_hexes

    return [list(c.args["hexes"]) for c in legal_take_hexes(g.context, g.state, "axis")]


def test_tr40_no_candidate_left_the_empty_choice_settles_it() -> None:
    g, eligible, _ = _game_and_front()
    _owe(g, [])
    assert _legal(g) == [[]]
    verify_take_hexes(g.context, g.state, Command("take_hexes", "axis", {"hexes": []}))
    with pytest.raises(IllegalOrder, match="TR-40"):  # a front hex that is no candidate
        verify_take_hexes(g.context, g.state,
                          Command("take_hexes", "axis", {"hexes": [eligible[0]]}))


def test_tr40_a_candidate_must_be_named_and_legal_agrees() -> None:
    g, eligible, _ = _game_and_front()
    _owe(g, [eligible[0]])
    assert _legal(g) == [[eligible[0]]]
    verify_take_hexes(g.context, g.state,
                      Command("take_hexes", "axis", {"hexes": [eligible[0]]}))
    with pytest.raises(IllegalOrder, match="must be named"):
        verify_take_hexes(g.context, g.state, Command("take_hexes", "axis", {"hexes": []}))


def test_tr40_a_candidate_no_longer_eligible_is_not_offered_nor_owed() -> None:
    """A stored candidate that is no longer an eligible hex of the front when the hexes are
    named (e.g. no surviving attacker beside it after the losses were chosen) is neither
    listed nor counted."""
    g, eligible, not_eligible = _game_and_front()
    _owe(g, [not_eligible[0], eligible[0]], n=2)
    assert _legal(g) == [[eligible[0]]]
    for hexes in _legal(g):
        verify_take_hexes(g.context, g.state, Command("take_hexes", "axis", {"hexes": hexes}))
    with pytest.raises(IllegalOrder, match="TR-40"):
        verify_take_hexes(g.context, g.state, Command(
            "take_hexes", "axis", {"hexes": [not_eligible[0], eligible[0]]}))
