"""Supply and SR judged against the war state (issue 23 item 2): a unit's ZOC counts only
against powers at war with its owner (TR-27 "ZOCs do not extend across political boundaries
before declaration of war"), for a land SR path and its end (TR-67/TR-68) and for a supply
line (TR-72); neutral countries are closed to supply lines as to SR (TR-68 "never crossing
neutral countries"; TR-72 supply "traced as in the original", which never crosses a neutral
country)."""

from __future__ import annotations

import numpy as np

from grognard.core.hexgrid import distance
from grognard.engine import Game
from grognard.third_reich.board import forces_of_state
from grognard.third_reich.conquest import diplomacy as dip
from grognard.third_reich.supply.supply_map import SupplyWar, supply_check
from grognard.third_reich.war import (
    diplomacy,
    side_supply_check,
    supply_war,
    war_zoc,
    zoc_counts_for,
)

from .test_war_state import C, game, refused, to


def _ring(g: Game, centre: str, r: int) -> list[str]:
    m = g.scenario.map
    a = m.layout.from_label(centre)
    return [m.label(h) for h in range(m.n) if distance(a, m.hex(h)) == r]


# --- SR (TR-27/TR-67/TR-68) ---------------------------------------------------------------------

# fra-inf60 in T25 (France) beside the empty clear Italian hex U26
ITALY_FRANCE = {"fra-inf60": "T25"}
SR_TO_U26 = C("sr", "axis", unit="ita-inf112", to="U26")


def test_tr27_tr68_a_french_zoc_does_not_bar_an_italian_sr_before_italys_war() -> None:
    """Fall 1939: Italy is not at war with France, so fra-inf60 puts no ZOC on U26 for an
    Italian SR: ita-inf112 may SR there. After Italy declares war on France the French ZOC
    counts: an SR may end in enemy ZOC only in a friendly-occupied hex (TR-67)."""
    g = game(ITALY_FRANCE)
    m = g.scenario.map
    u26 = m.index_of_label("U26")
    assert not war_zoc(g.context, g.state, "axis", "italy").contains(u26)
    assert war_zoc(g.context, g.state, "axis", "germany").contains(u26)  # at war with France
    to(g, "strategic_deployment", "axis")
    assert g.can(SR_TO_U26)
    g2 = game(ITALY_FRANCE)
    g2.apply(C("declare_war", "axis", power="italy", majors=["france"]))
    assert war_zoc(g2.context, g2.state, "axis", "italy").contains(u26)
    to(g2, "strategic_deployment", "axis")
    assert refused(g2, SR_TO_U26) in ("TR-67", "TR-68")


def test_tr68_listed_srs_pass_verify_with_zocs_judged_by_war() -> None:
    g = game(ITALY_FRANCE)
    to(g, "strategic_deployment", "axis")
    listed = g.legal("axis", "sr")
    assert listed
    for c in listed[:60]:
        assert g.can(c), c


def test_tr27_zoc_counts_only_for_units_of_powers_at_war() -> None:
    g = game()
    forces = forces_of_state(g.context, g.state)
    ger = zoc_counts_for(g.state, forces, "axis", "germany")
    ita = zoc_counts_for(g.state, forces, "axis", "italy")
    power = {u: g.state["units"][u]["power"] for u in forces.ids}
    at = {forces.ids[i] for i in np.nonzero(ger)[0].tolist()}
    assert any(power[u] == "france" for u in at) and not any(power[u] == "ussr" for u in at)
    assert not ita.any()  # Italy is at war with no one in Fall 1939
    g.apply(C("declare_war", "axis", power="germany", majors=["ussr"]))
    ger2 = zoc_counts_for(g.state, forces, "axis", "germany")
    assert any(power[forces.ids[i]] == "ussr" for i in np.nonzero(ger2)[0].tolist())


# --- supply (TR-27/TR-72) -----------------------------------------------------------------------


def _soviet_ringed() -> tuple[Game, str]:
    """uss-inf130 in M46 (the USSR) with six German infantry on the corners two hexes out:
    their ZOC covers every hex around it, their units hold none of them."""
    g0 = game()
    m = g0.scenario.map
    ring1 = set(_ring(g0, "M46", 1))
    corners = [h for h in _ring(g0, "M46", 2)
               if sum(1 for n in _ring(g0, h, 1) if n in ring1) == 1]
    assert len(corners) == 6
    germans = sorted(u for u, v in g0.state["units"].items()
                     if v["power"] == "germany" and v["type"] == "infantry" and v["hex"])[:6]
    at = {"uss-inf130": "M46", **dict(zip(germans, corners, strict=True))}
    del m
    return game(at), "uss-inf130"


def test_tr27_tr72_no_zoc_cuts_a_supply_line_before_the_war() -> None:
    g, uid = _soviet_ringed()
    side = g.state["units"][uid]["side"]
    assert uid not in side_supply_check(g.context, g.state, side).out_of_supply
    g.apply(C("declare_war", "axis", power="germany", majors=["ussr"]))
    assert dip.at_war(diplomacy(g.state), "germany", "ussr")
    assert uid in side_supply_check(g.context, g.state, side).out_of_supply


def test_tr72_supply_never_crosses_a_closed_country() -> None:
    """The pure trace: a power whose every land hex but its units' and the sources' is closed
    traces no supply; with nothing closed and no ZOC counted, every unit is in supply."""
    g = Game.new("tr-1939-two-fronts", seed=1)
    forces = forces_of_state(g.context, g.state)
    powers = {u: g.state["units"][u]["power"] for u in forces.ids}
    m = g.scenario.map

    def check(war: dict[str, SupplyWar] | None) -> tuple[str, ...]:
        return supply_check(m, forces, "allies", g.state["control"], 1, unit_powers=powers,
                            home_countries=g.scenario.home_countries, war=war).out_of_supply

    base = check(None)
    assert base == ("pl-inf2",)
    n = len(forces)
    free = {p: SupplyWar(np.zeros(n, dtype=bool), np.zeros(m.n, dtype=bool))
            for p in set(powers.values())}
    assert set(check(free)) <= set(base)
    allies = [forces.ids[i] for i in np.nonzero(forces.of_side("allies"))[0].tolist()]
    closed = np.ones(m.n, dtype=bool)
    shut = {p: SupplyWar(np.zeros(n, dtype=bool), closed) for p in set(powers.values())}
    out = check(shut)
    assert set(out) >= {u for u in allies if g.state["units"][u]["hex"] not in
                        {"C2", "E1", "C11"}}  # only units standing on a source stay in


def test_tr72_supply_war_in_a_campaign_closes_neutral_countries() -> None:
    g = game()
    forces = forces_of_state(g.context, g.state)
    war = supply_war(g.context, g.state, forces, "axis", ["germany", "italy"])
    m = g.scenario.map
    nl = m.index_of_label("K27")  # the Netherlands, neutral in Fall 1939
    pl = m.index_of_label("K39")  # Poland, at war with Germany
    assert war["germany"].closed[nl] and not war["germany"].closed[pl]
    assert war["italy"].closed[pl]  # Italy is not at war with Poland


# --- conquered territory (TR-22/TR-25), found by the 50-seed audit (seed 12) --------------------


def test_tr25_a_war_with_an_axis_aligned_minor_does_not_open_axis_conquests() -> None:
    """Seed 12 of the heuristic audit: the USSR at war with Estonia only (Estonia joined the
    Axis side when attacked) moved through Axis-held Poland in Summer 1940. Conquered Poland
    is open to its controller's side and to powers at war with a *major* of that side; a war
    with an aligned minor is not a war with Germany."""
    from .test_diplomacy import CAMP, HOME, SIDES, WARS

    d = dip.start(HOME, SIDES, WARS, CAMP)
    d, _ = dip.make_peace(d, "poland", 3, dip.Cause.CONQUEST)
    d, _ = dip.join(d, "estonia", "germany", 3)
    d, _ = dip.declare(d, "ussr", ["estonia"], 3)
    assert dip.at_war(d, "ussr", "estonia") and not dip.at_war(d, "ussr", "germany")
    assert dip.side_of(d, "estonia") == "axis"
    r = dip.may_enter(d, "ussr", "poland", "move", controller_side="axis")
    assert r is not None and r.rule == "TR-25"
    assert dip.may_enter(d, "germany", "poland", "move", controller_side="axis") is None
    d2, _ = dip.declare(d, "ussr", ["germany"], 4)
    assert dip.may_enter(d2, "ussr", "poland", "move", controller_side="axis") is None
