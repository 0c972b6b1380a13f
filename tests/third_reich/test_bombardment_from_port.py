"""TR-58 (naval bombardment) with TR-54 and TR-56: a fleet starts in a friendly port, sails to
an all-sea hex of its port's zone next to the enemy coastal hex attacked, adds a third of its
factors (TR-35's one fleet) and returns to port, tapped: bombardment is its operation for the
game turn. On grognard's map fleets stand in ports, so before this a fleet could never
bombard in a campaign (the attack asked for a fleet already in the sea hex).

The position: a seeded planner game of tr-1939-campaign, Winter 1939, the Axis combat phase:
a Belgian unit holds L25 on the North Sea coast with German units next to it; Germany's
fleets are in Wilhelmshaven (North Sea) and Kiel (North Sea and Baltic), Italy's in the
Mediterranean."""

from __future__ import annotations

import pytest

from grognard.bots.base import LegalActions, Seat
from grognard.bots.catalog import make_bot
from grognard.core.errors import IllegalOrder
from grognard.engine.commands import Command
from grognard.engine.game import Game
from grognard.third_reich.air_naval.support_fight import verify_bombardment_from_port

COAST = "L25"


@pytest.fixture(scope="module")
def position() -> tuple[list[Command], list[str]]:
    """The commands up to the Axis combat phase with an Allied unit on L25, and the German
    units next to it."""
    g = Game.new("tr-1939-campaign", seed=0)
    bots = {s: make_bot("planner", Seat.of(g, s, 0)) for s in ("axis", "allies")}
    m = g.scenario.map
    coast = m.layout.from_label(COAST)
    for _ in range(400):
        st = g.state
        if g.phase.name == "combat" and g.phase.player == "axis" and any(
                u["hex"] == COAST and u["side"] == "allies" for u in st["units"].values()):
            near = [uid for uid, u in st["units"].items()
                    if u["side"] == "axis" and u["hex"] and u["type"] in ("infantry", "armor")
                    and m.layout.from_label(u["hex"]) in _around(coast)]
            if near:
                return list(g.commands), near
        p = g.active()[0]
        g.apply(bots[p].choose(g.view(p), LegalActions(g, p)))
    raise AssertionError("the seeded game never reached the position")


def _around(h):  # type: ignore[no-untyped-def]
    from grognard.core.hexgrid import neighbors

    return set(neighbors(h))


def _game(position: tuple[list[Command], list[str]]) -> Game:
    g = Game.new("tr-1939-campaign", seed=0)
    for c in position[0]:
        g.apply(c)
    return g


def _attack(position: tuple[list[Command], list[str]], fleet: str) -> Command:
    return Command("attack", "axis", {"hex": COAST, "attackers": position[1], "fleet": fleet})


def _bombard(g: Game, position: tuple[list[Command], list[str]], fleet: str) -> None:
    """The attack, and the defender's answer if it is asked for its defensive air (none)."""
    g.apply(_attack(position, fleet))
    if g.state.get("pending_reaction"):
        g.apply(Command("defensive_air", "allies", {}))


def test_tr58_a_fleet_in_a_port_of_the_zone_bombards_the_coast(position) -> None:
    g = _game(position)
    _bombard(g, position, "ger-nav24")  # Wilhelmshaven: the North Sea, as L25's sea
    assert "ger-nav24" in g.state["fleets_used"]
    # TR-54: bombardment was its operation this game turn, and it is tapped in its port
    assert g.state["fleet_ops"]["used"]["ger-nav24"] == "bombardment"
    assert "ger-nav24" in g.state["fleet_ops"]["tapped"]
    assert g.state["units"]["ger-nav24"]["hex"] == "J28"


def test_tr58_a_dual_zone_port_reaches_either_zone(position) -> None:
    g = _game(position)
    _bombard(g, position, "ger-nav23")  # Kiel: the North Sea and the Baltic
    assert g.state["fleet_ops"]["used"]["ger-nav23"] == "bombardment"


def test_tr58_a_fleet_of_another_zone_cannot_bombard(position) -> None:
    """Taranto's fleet (the Mediterranean) cannot reach the North Sea off L25 (Italy is not at
    war with Belgium either: the rule is asked directly); an inland hex has no sea at all."""
    g = _game(position)
    with pytest.raises(IllegalOrder, match=r"TR-58: no all-sea hex next to L25 is in the "
                                           r"mediterranean zone of ita-nav121's port"):
        verify_bombardment_from_port(g.context, g.state, "ita-nav121",
                                     g.state["units"]["ita-nav121"], COAST)
    with pytest.raises(IllegalOrder, match=r"TR-58: L27 is not a coastal hex"):
        verify_bombardment_from_port(g.context, g.state, "ger-nav24",
                                     g.state["units"]["ger-nav24"], "L27")
    digest = g.state_hash()
    with pytest.raises(IllegalOrder):
        g.apply(_attack(position, "ita-nav121"))
    assert g.state_hash() == digest
