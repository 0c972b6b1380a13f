"""EUR-22 in europa-barbarossa (docs/MAPS.md "The 1941 mobilization"): the generated schedule
(the second strategic echelon on the Dvina-Dnieper line from Jun II, the new divisions by half
month at Moscow, Leningrad and Kharkov, a few German divisions at the Axis depots), every entry
list ending with the side's supply sources, and the Soviet placements of Jun II offered only
where verify accepts them."""

from __future__ import annotations

from functools import cache

from grognard.engine import Game
from grognard.engine.scenario import load_scenario
from grognard.engine.testing import end_phase
from grognard.europa.board import europa_rules

SMOLENSK, MOSCOW, LENINGRAD = "3928", "5422", "3306"


@cache
def schedule():
    return europa_rules(load_scenario("europa-barbarossa")).arrivals


def test_eur22_barbarossa_schedule_has_the_second_echelon_and_the_mobilization():
    arr = schedule()
    soviet = [a for a in arr if a.side == "soviet"]
    axis = [a for a in arr if a.side == "axis"]
    first = [a for a in soviet if a.turn == 1]
    assert first and all(SMOLENSK in a.hexes for a in first if "-20a-" in a.unit.id)
    assert {a.turn for a in soviet} >= set(range(1, 14))  # something every half month
    assert any(a.turn >= 4 and MOSCOW in a.hexes for a in soviet)
    assert any(a.turn >= 4 and LENINGRAD in a.hexes for a in soviet)
    assert 0 < len(axis) < len(soviet)
    assert all(a.unit.side == a.side and a.unit.nationality == ("german" if a.side == "axis"
                                                                   else "soviet") for a in arr)
    sources = {"soviet": ["3306", "5422", "5348", "5054"]}
    for a in soviet:  # a formation whose cities are lost enters in the interior
        assert set(sources["soviet"]) <= set(a.hexes), a.unit.id


def test_eur22_barbarossa_soviet_places_the_second_echelon_on_jun_ii():
    g = Game.new("europa-barbarossa", seed=1)
    for _ in range(60):
        if (g.phase.name, g.phase.player) == ("initial", "soviet"):
            break
        end_phase(g)
    assert g.state["turn"] == 1
    legal = g.legal("soviet", "place_reinforcement")
    units = {c.args["unit"] for c in legal}
    assert units == {uid for uid, r in g.state["reinforcements"].items()
                     if r["side"] == "soviet" and r["due"] == 1}
    for c in legal[::25]:
        g.verify(c)
    smol = next(c for c in legal if c.args["hex"] == SMOLENSK)
    (ev,) = g.apply(smol)
    assert ev.type == "reinforcement_placed"
    assert g.state["units"][smol.args["unit"]]["hex"] == SMOLENSK
