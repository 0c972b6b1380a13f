"""The play page's log says why a Europa stockpile changed (EUR-37..EUR-41 events in words,
the rule system's ``event_words`` hook) and shows the SP accounts' changes (its ``ledger``
hook) like the 3R BRPs."""

from __future__ import annotations

from grognard.engine import Command, Game
from grognard.server.service import describe, event_lines, ledger_of


def test_a_paid_move_and_the_receipt_read_as_words_with_their_rules():
    g = Game.new("europa-barbarossa", seed=1)
    while g.phase.name != "movement":
        g.apply(Command("end_phase", g.phase.player))
    before = g.view("axis")
    mover = next(c for c in g.legal("axis", "move")
                 if g.state["units"][c.args["unit"]]["type"] == "armor")
    events = g.apply(mover)
    after = g.view("axis")
    as_json = [e.to_json() for e in events]
    (line,) = event_lines(g, as_json)
    assert line == f"axis pays 1 SP for {mover.args['unit']}'s move (EUR-37)"
    entry = describe(g, mover, as_json, before, after, "axis", len(g.commands) - 1)
    assert line in entry["changes"]
    sp_before, sp_after = (ledger_of(g, "axis", before)["axis SPs"],
                           ledger_of(g, "axis", after)["axis SPs"])
    assert int(sp_before) - int(sp_after) == 1
    assert f"axis SPs: {sp_before} -> {sp_after}" in entry["changes"]


def test_receipt_words_name_the_zone_rate_weather_and_rules():
    g = Game.new("europa-barbarossa", seed=1)
    ev = {"type": "supply_received", "data": {
        "side": "soviet", "received": 112, "zone": 1, "base": 120, "increment": 40,
        "weather": "mud", "reduction": "0.3", "rules": ["EUR-40", "EUR-41"]}}
    assert event_lines(g, [ev]) == ["soviet receives 112 SP: zone 1 rate 120 + 40, mud -0.3 "
                                    "(EUR-40, EUR-41)"]
    assert event_lines(g, [{"type": "sp_paid", "data": {}}]) == []  # malformed: no line
