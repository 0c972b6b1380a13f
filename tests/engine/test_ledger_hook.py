"""Issue 22: the ``ledger`` and ``event_words`` hooks. A seat's point accounts come from its
own view through its rule system (``Game.ledger``), and a system's events are told in its own
words (``Game.event_words``): the server names no system's state key or event type."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

from grognard.engine import Command, Game, generic
from grognard.engine.scenario import load_scenario
from grognard.engine.state import JSON
from grognard.engine.system import event_words_of
from grognard.engine.views import hide_secrets
from grognard.third_reich import ledger as tr_ledger

GENERIC_SCENARIO = load_scenario(Path(__file__).parent / "data" / "generic.toml")


def test_issue22_the_generic_system_keeps_no_ledger_and_words_no_event() -> None:
    g = Game(GENERIC_SCENARIO)
    assert g.system.ledger is None and g.system.event_words is None
    assert g.ledger("axis") == []
    assert g.event_words({"type": "sp_paid", "data": {"side": "axis"}}) is None


def test_c_hidden_a_seats_ledger_is_read_from_its_own_view() -> None:
    """A system whose view hides the other side's account: each seat's ledger shows its own
    and never the other's, though the state holds both (the hook is given the view)."""
    def view(state: JSON, player: str) -> JSON:
        v = hide_secrets(state, player)
        v["accounts"] = {player: state["accounts"][player]}
        return v

    def ledger(v: JSON) -> list[tuple[str, str]]:
        return [(f"{side} points", str(n)) for side, n in sorted(v["accounts"].items())]

    def initial_state(sc: Any) -> JSON:
        s = generic.initial_state(sc)
        s["accounts"] = {"axis": 12, "soviet": 34}
        return s

    system = dataclasses.replace(generic.GENERIC, view=view, ledger=ledger,
                                 initial_state=initial_state)
    g = Game(GENERIC_SCENARIO, system=system)
    assert ledger(g.state) == [("axis points", "12"), ("soviet points", "34")]
    assert g.ledger("axis") == [("axis points", "12")]
    assert g.ledger("soviet") == [("soviet points", "34")]
    # a view given (a log walking its positions) is read as it is
    assert g.ledger("axis", {"accounts": {"axis": 5}}) == [("axis points", "5")]


def test_tr07_the_3r_ledger_is_each_powers_brps_on_hand_from_the_view() -> None:
    """TR-07..TR-19 (the BRP ledger): every power's BRPs, by power, exact, as play spends
    them; the hook reads the view's economy summary."""
    g = Game.new("demo-third-reich", seed=3)
    first = g.ledger("axis")
    assert first[:2] == [("france BRPs", "60"), ("germany BRPs", "150")]
    assert [k for k, _ in first] == sorted(k for k, _ in first)
    rng = random.Random(4)
    seen = {tuple(first)}
    for _ in range(40):
        player = g.active()[0]
        g.apply(rng.choice(g.legal(player)))
        for p in g.scenario.sides:
            summary = g.view(p)["economy"]["summary"]
            assert g.ledger(p) == [(f"{power} BRPs", str(acc["brp"]))
                                   for power, acc in sorted(summary.items())]
        seen.add(tuple(g.ledger("axis")))
    assert len(seen) > 1  # the play spent BRPs
    # exact: a fraction stays a fraction; a view without an economy has no accounts
    assert tr_ledger.ledger({"economy": {"summary": {"italy": {"base": 75, "brp": "75/2"}}}}) \
        == [("italy BRPs", "75/2")]
    assert tr_ledger.ledger({}) == []


def test_eur38_eur39_the_europa_ledger_is_the_stockpiles_special_sps_and_zone() -> None:
    """EUR-38/EUR-40 stockpiles (German 120, Soviet 160), EUR-39 the 160 special SPs, EUR-38
    the supply zone; a scenario without FitE logistics has no accounts."""
    g = Game.new("europa-barbarossa", seed=1)
    start = [("axis SPs", "120"), ("soviet SPs", "160"), ("special SPs", "160"),
             ("supply zone", "1")]
    assert g.ledger("axis") == start == g.ledger("soviet")
    while g.phase.name != "movement":
        g.apply(Command("end_phase", g.phase.player))
    mover = next(c for c in g.legal("axis", "move")
                 if g.state["units"][c.args["unit"]]["type"] == "armor")
    before = dict(g.ledger("axis"))
    g.apply(mover)  # EUR-37: an armor division's first move, 1 SP
    after = dict(g.ledger("axis"))
    assert int(before["axis SPs"]) - int(after["axis SPs"]) == 1
    assert after == dict(g.ledger("soviet"))  # the stockpiles are public
    assert Game.new("demo-europa", seed=1).ledger("axis") == []


def test_eur37_eur41_the_logistics_events_in_europas_words() -> None:
    """EUR-37 payment, EUR-38 zone entry, EUR-39 expiry, EUR-40/41 receipt: one line each
    citing the event's rules; another event, or one seen only in part, has no line."""
    g = Game.new("europa-barbarossa", seed=1)
    words = g.event_words
    assert words({"type": "sp_paid", "data": {
        "side": "axis", "charge": 2, "what": "attack on 1203", "rules": ["EUR-37"]}}) == \
        "axis pays 2 SP for attack on 1203 (EUR-37)"
    assert words({"type": "supply_zone_entered", "data": {
        "to": 2, "sp_before": 300, "factor": "3/4", "sp_after": 225, "rules": ["EUR-38"]}}) == \
        "the German advance reaches supply zone 2: stockpile 300 x 3/4 = 225 (EUR-38)"
    assert words({"type": "special_supply_expired", "data": {
        "side": "axis", "lost": 12, "rules": ["EUR-39"]}}) == \
        "axis loses 12 unused special SPs (EUR-39)"
    assert words({"type": "supply_received", "data": {
        "side": "axis", "received": 200, "zone": 1, "base": 200, "rules": ["EUR-38"]}}) == \
        "axis receives 200 SP: zone 1 rate 200 (EUR-38)"
    assert words({"type": "unit_moved", "data": {"unit": "x"}}) is None
    assert words({"type": "sp_paid", "data": {"side": "axis"}}) is None
    assert words({"type": "sp_paid", "data": None}) is None


def test_issue22_event_words_of_tells_each_type_by_its_own_words() -> None:
    hook = event_words_of({"a_done": lambda d: f"a {d['n']}"})
    assert hook({"type": "a_done", "data": {"n": 1}}) == "a 1"
    assert hook({"type": "a_done", "data": {}}) is None
    assert hook({"type": "b_done", "data": {"n": 1}}) is None
    assert hook({}) is None


def test_ef04_the_eurofront_ledger_is_each_sides_production_points() -> None:
    """C-ECON EF production points on hand (spent on builds, rebuilds and the EF-04..EF-06
    programmes): both sides', by side, as the view shows them; they follow play."""
    g = Game.new("eurofront-1941", seed=2)
    assert g.ledger("axis") == [("allies PPs", "4"), ("axis PPs", "4")] == g.ledger("allies")
    rng = random.Random(5)
    for _ in range(60):
        if g.over:
            break
        player = g.active()[0]
        g.apply(rng.choice(g.legal(player)))
        for p in g.scenario.sides:
            assert g.ledger(p) == [(f"{s} PPs", str(n))
                                   for s, n in sorted(g.view(p)["pp"].items())]
