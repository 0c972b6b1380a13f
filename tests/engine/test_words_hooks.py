"""Issue 22: a rule system's ``describe`` and ``places`` hooks are built from its Orders
(``describe_of`` / ``places_of``): each command told and placed by its own Order."""

from __future__ import annotations

import msgspec

from grognard.engine.commands import Command
from grognard.engine.context import Context
from grognard.engine.orders import Order, Words
from grognard.engine.state import JSON
from grognard.engine.system import Places, describe_of, places_of


class _HopArgs(msgspec.Struct, forbid_unknown_fields=True):
    to: str


class _Hop(Order[_HopArgs]):
    kind, rule, Args = "hop", "EX-1", _HopArgs

    def describe(self, ctx: Context, state: JSON, cmd: Command) -> Words:
        return Words(f"Hop to {cmd.args.get('to')}", "hop")

    def places(self, cmd: Command) -> Places:
        return Places(None, str(cmd.args.get("to")), (), ())


class _Wait(Order[_HopArgs]):
    kind, rule, Args = "wait", "EX-2", _HopArgs


def _table(ctx: Context, state: JSON, cmd: Command) -> Words:
    return Words("Roll on the table", "roll")


def test_issue22_each_command_is_told_by_its_own_order() -> None:
    """The words need no context here (a real system passes the game's)."""
    describe = describe_of([_Hop(), _Wait()], {"roll_table": _table})
    hop = Command("hop", "axis", {"to": "0101"})
    assert describe(None, {}, hop) == Words("Hop to 0101", "hop")
    assert describe(None, {}, Command("roll_table", "axis", {})).short == "roll"
    # an Order without words of its own: the base's; a kind no Order takes: player and kind
    assert describe(None, {}, Command("wait", "axis", {})).short == "wait"
    assert describe(None, {}, Command("roll_weather", "allies", {})) == Words(
        "Allies: roll weather", "roll weather")


def test_issue22_each_command_is_placed_by_its_own_order() -> None:
    places = places_of([_Hop(), _Wait()])
    assert places(Command("hop", "axis", {"to": "0101"})) == Places(None, "0101", (), ())
    assert places(Command("wait", "axis", {})) == Places()
    assert places(Command("unknown", "axis", {})) == Places()
