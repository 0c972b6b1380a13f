"""Orders count only what exists (issue 27 item 3): a 3R order that names units or factors
names each unit once and no more factors than its player has - the rule it would break is
named, nothing changes."""

from __future__ import annotations

from pathlib import Path

from grognard.engine import Command, Game
from grognard.engine.testing import assert_rejected

DATA = Path(__file__).parent / "data"


def _axis_combat() -> Game:
    """tr-1939-support in the Axis combat phase with an eastern offensive (F12: Polish units,
    ge-inf3 and ge-inf4 adjacent)."""
    g = Game.new("tr-1939-support", seed=3)
    g.apply(Command("declare_options", "axis", {"power": "germany", "options": {
        "eastern": "offensive", "western": "attrition"}}))
    while not (g.phase.name == "combat" and g.phase.player == "axis"):
        g.apply(Command("end_phase", g.phase.player, {}))
    return g


def test_tr32_an_attacker_named_twice_is_refused_and_counts_once_when_named_once():
    g = _axis_combat()
    before = g.state_hash()
    assert_rejected(g, Command("attack", "axis", {"hex": "F12",
                                                  "attackers": ["ge-inf3", "ge-inf3"]}),
                    "TR-32.*ge-inf3 named twice")
    assert_rejected(g, Command("attack", "axis", {"hex": "F12", "attackers": [
        "ge-inf3", "ge-inf4", "ge-inf4"]}), "TR-32.*ge-inf4 named twice")
    assert g.state_hash() == before
    # no enumerated attack names a unit twice
    for c in g.legal("axis", "attack"):
        assert len(set(c.args["attackers"])) == len(c.args["attackers"])
    once = g.odds(Command("attack", "axis", {"hex": "F12", "attackers": ["ge-inf3"]}))
    assert once["attack_strength"] == g.state["units"]["ge-inf3"]["attack"]
