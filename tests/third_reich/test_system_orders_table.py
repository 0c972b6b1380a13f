"""Issue 22: the 3R system is a list of Orders, one per command kind, each in the rule
package beside the rule it drives (``third_reich/<section>/orders/<kind>.py``), declared once;
issue 27: every order's arguments are decoded into its declared type - an unknown or extra
argument is refused with one line naming it, the state untouched."""

from __future__ import annotations

import pytest

from grognard.core.errors import InputError
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.third_reich.play.system import COMMANDS, ORDERS, THIRD_REICH


def test_c_seq_one_order_per_kind_beside_its_rule():
    kinds = [o.kind for o in ORDERS]
    assert len(kinds) == len(set(kinds)) == len(COMMANDS)
    assert set(THIRD_REICH.commands) == set(kinds)
    for o in ORDERS:
        module = type(o).__module__.split(".")
        assert module[:2] == ["grognard", "third_reich"] and module[3] == "orders", o.kind
        assert module[4] == o.kind, o.kind
        assert o.rule.startswith("TR-") and o.help.startswith("TR-"), o.kind
    assert [n for n, _ in THIRD_REICH.after_events] == [
        "capture_on_occupation", "sw_year_start", "sw_conversions_owed", "current_facts"]


@pytest.mark.parametrize("kind", sorted(COMMANDS))
def test_c_seq_an_unknown_argument_is_refused_by_every_order(kind: str) -> None:
    g = Game.new("tr-1939-support", seed=3)
    before = g.state_hash()
    spec = COMMANDS[kind]
    cmd = Command(kind, "axis", {**spec.example, "cheat": 1})
    with pytest.raises(InputError, match="cheat"):
        spec.verify(g.context, g.state, cmd)
    with pytest.raises(InputError, match="cheat"):
        g.apply(Command(kind, g.phase.player, {**spec.example, "cheat": 1})) \
            if kind in g.allowed(g.phase.player) else spec.verify(g.context, g.state, cmd)
    assert g.state_hash() == before
