"""Sea SR judged against the war state (issue 23 item 2; TR-25, TR-30, TR-55, TR-69, TR-70):
only fleets of a power at war with the SRing power may intercept a sea SR, only air of a power
at war makes a port an enemy or contested air zone for it, and a sea or fleet SR never starts
or ends in a port of a country closed to it.

Scenario ``tr-1939-sea`` (Germany SRs ge-inf5 from Kiel F6 to Wilhelmshaven F5 escorted by
ge-fleet2; uk-fleet1 in Harwich may intercept, a British air unit contests the ports), and a
variant in which the UK is not yet at war with Germany."""

from __future__ import annotations

import pytest

from grognard.core.errors import IllegalOrder
from grognard.engine import Command, Game
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.engine.testing import assert_rejected
from grognard.third_reich.air_naval.air_state import air_zone_at, air_zone_for
from grognard.third_reich.air_naval.naval_ops import AirZone
from grognard.third_reich.conquest import diplomacy as dip
from grognard.third_reich.movement.sea_srs import sea_sr_check
from grognard.third_reich.play.testing import assert_no_reaction, reaction_after
from grognard.third_reich.war import diplomacy

SCENARIO = "tr-1939-sea"
UK_WAR = '  { between = ["uk", "germany"], since = 1, cause = "declaration", by = "uk" },\n'


def C(k: str, player: str, **args: object) -> Command:
    return Command(k, player, args)


def at_sr(uk_at_war: bool, seed: int = 3) -> Game:
    text = load_scenario(SCENARIO).text
    assert UK_WAR in text
    if not uk_at_war:
        text = text.replace(UK_WAR, "")
    g = Game(parse_scenario(text, "variant.toml"), seed)
    while not (g.phase.name == "strategic_deployment" and g.phase.player == "axis"):
        g.apply(C("end_phase", g.phase.player))
    assert dip.at_war(diplomacy(g.state), "germany", "uk") is uk_at_war
    return g


SEA_SR = C("sr", "axis", unit="ge-inf5", to="F5", kind="sea",
           escorts={"north_sea": ["ge-fleet2"]})


def test_tr69_tr55_a_fleet_not_at_war_never_intercepts_a_sea_sr() -> None:
    # at war: the UK owes its interception decision (uk-fleet1 in Harwich may intercept)
    g = at_sr(True)
    g.apply(SEA_SR)
    assert g.state.get("pending_reaction")
    # the UK not at war with Germany: no reaction is owed, and naming the fleet is refused
    g2 = at_sr(False)
    trial = Command("sr", "axis", {**SEA_SR.args, "interceptors": {"north_sea": ["uk-fleet1"]}})
    with pytest.raises(IllegalOrder) as exc:
        sea_sr_check(g2.context, g2.state, trial)
    assert exc.value.rule == "TR-25"
    events = assert_no_reaction(g2, SEA_SR)
    assert next(e for e in events if e.type == "sea_sr_made").data["interception_rolls"] == []


def test_tr30_air_of_a_power_not_at_war_contests_no_port() -> None:
    g = at_sr(True)
    assert air_zone_at(g.context, g.state, "axis", "F5") is AirZone.CONTESTED
    assert air_zone_for(g.context, g.state, "axis", "germany", "F5") is AirZone.CONTESTED
    g2 = at_sr(False)
    assert air_zone_at(g2.context, g2.state, "axis", "F5") is AirZone.CONTESTED  # side-wide
    assert air_zone_for(g2.context, g2.state, "axis", "germany", "F5") is not AirZone.CONTESTED


def test_tr69_a_sea_sr_to_a_neutral_port_is_refused() -> None:
    """tr-1939-campaign, Fall 1939: no sea SR or fleet SR ends in a port of a neutral country
    (TR-68 "never crossing neutral countries"; the destination port must be friendly, TR-69),
    and none is listed."""
    g = Game(load_scenario("tr-1939-campaign"), 1)
    while not (g.phase.name == "strategic_deployment" and g.phase.player == "axis"):
        g.apply(C("end_phase", g.phase.player))
    m = g.scenario.map
    d = diplomacy(g.state)
    by_sea = [c for c in g.legal("axis", "sr") if c.args.get("kind") in ("sea", "fleet")]
    assert by_sea
    for c in by_sea:
        country = m.country_of(m.hex(m.index_of_label(c.args["to"])))
        power = g.state["units"][c.args["unit"]]["power"]
        assert dip.may_enter(d, power, country, "sr") is None, c


def test_tr25_reaction_options_offer_only_fleets_at_war() -> None:
    g = at_sr(True)
    cmd = reaction_after(g, Command("sr", "axis", {
        **SEA_SR.args, "interceptors": {"north_sea": ["uk-fleet1"]}}))
    assert cmd.args["interceptors"] == {"north_sea": ["uk-fleet1"]}
    assert g.state["pending_reaction"]["options"] == [
        {"arg": "interceptors", "slot": "north_sea", "unit": "uk-fleet1"}]
    g2 = at_sr(False)
    assert_rejected(g2, C("intercept", "allies", interceptors={"north_sea": ["uk-fleet1"]}),
                    "may not act|owes|no")


def test_tr25_tr57_a_transport_is_intercepted_only_by_powers_at_war() -> None:
    """Naval transport (TR-57): the UK's fleet and air intercept a German transport only once
    the UK is at war with Germany; before, no reaction is owed and naming them is refused."""
    from grognard.third_reich.air_naval.transports import _check

    def movement(uk_at_war: bool) -> Game:
        text = load_scenario(SCENARIO).text
        if not uk_at_war:
            text = text.replace(UK_WAR, "")
        g = Game(parse_scenario(text, "variant.toml"), 1)
        g.apply(C("declare_options", "axis", power="germany", options={"eastern": "offensive"}))
        while g.phase.name != "movement":
            g.apply(C("end_phase", "axis"))
        return g

    ship = {"fleets": ["ge-fleet2"], "units": ["ge-inf5"], "to": "F5"}
    g = movement(True)
    g.apply(Command("naval_transport", "axis", ship))
    assert g.state.get("pending_reaction")
    g2 = movement(False)
    for extra in ({"air_interceptors": ["uk-air1"]}, {"interceptors": ["uk-fleet1"]}):
        with pytest.raises(IllegalOrder) as exc:
            _check(g2.context, g2.state, Command("naval_transport", "axis", {**ship, **extra}))
        assert exc.value.rule == "TR-25", exc.value
    g2.apply(Command("naval_transport", "axis", ship))
    assert not g2.state.get("pending_reaction")


def test_tr25_tr61_an_invasion_is_intercepted_only_by_powers_at_war() -> None:
    """tr-1939-invasion (ge-fleet2 carries ge-inf5 from Kiel to the French beach F4 by G4;
    uk-fleet1 in Harwich may intercept): a variant in which the UK is not at war with Germany
    - uk-fleet1 is never among the defender's options and naming it is refused (TR-25)."""
    from grognard.third_reich.combat.invasion import _check

    invade = Command("invade", "axis", {"beach": "F4", "groups": [
        {"hex": "G4", "zone": "north_sea", "fleets": ["ge-fleet2"],
         "cargo": {"ge-fleet2": ["ge-inf5"]}}]})

    def movement(uk_at_war: bool) -> Game:
        text = load_scenario("tr-1939-invasion").text
        assert UK_WAR in text
        if not uk_at_war:
            text = text.replace(UK_WAR, "")
        g = Game(parse_scenario(text, "variant.toml"), 3)
        g.apply(C("declare_options", "axis", power="germany", options={"western": "offensive"}))
        while g.phase.name != "movement":
            g.apply(C("end_phase", "axis"))
        return g

    def options(g: Game) -> set[str]:
        g.apply(invade)
        p = g.state.get("pending_reaction") or {}
        return {o["unit"] for o in p.get("options", [])}

    assert "uk-fleet1" in options(movement(True))
    g2 = movement(False)
    with pytest.raises(IllegalOrder) as exc:
        _check(g2.context, g2.state, Command("invade", "axis", {
            **invade.args, "interceptors": {"G4": ["uk-fleet1"]}}))
    assert exc.value.rule == "TR-25"
    assert "uk-fleet1" not in options(g2)
