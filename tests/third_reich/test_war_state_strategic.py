"""Strategic warfare and the Murmansk convoys judged against the war state (issue 23 item 3).

* TR-79: "Once the US is a belligerent, the Germans may choose each turn whether to target
  the UK or the US economic base": U-boats attack only the economy of a power at war with
  Germany (the UK, the US once at war), judged against the diplomacy.
* TR-79: bombing is by the Western Allies' powers at war with Germany only.
* TR-15/TR-17/TR-19: "Once the USSR is at war with Germany, the UK may elect to give 20 BRPs to
  the USSR"; "Once the US and USSR are both at war with Germany, the US may ...": no Murmansk
  shipment before.
"""

from __future__ import annotations

import pytest

from grognard.engine import Command, Game
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.engine.testing import assert_rejected
from grognard.third_reich.conquest import diplomacy as dip
from grognard.third_reich.strategic.sw_boxes import bomber_factors
from grognard.third_reich.war import at_war_with_germany, diplomacy

from .test_system_orders import spring_at_war, to_phase

BOXES = ('sw_boxes = { germany = { subs = 6, interceptors = 4 }, uk = { asw = 4, bombers = 5 }, '
         'us = { asw = 2, bombers = 3 } }\n')
US_WAR = '  { between = ["us", "germany"], since = 13, cause = "us_entry", by = "us" },\n'


def C(kind: str, player: str, **args: object) -> Command:
    return Command(kind, player, args)


def spring_1944(us_at_war: bool) -> Game:
    """tr-1944 with SW boxes on both sides after the 1944 Year Start; without the US war (and
    with the US entry date moved past the game) for ``us_at_war=False``."""
    text = load_scenario("tr-1944").text.replace("[third_reich]\n", "[third_reich]\n" + BOXES, 1)
    assert US_WAR in text
    if not us_at_war:
        text = text.replace(US_WAR, "").replace("us_entry_turn = 13", "us_entry_turn = 99")
    g = Game(parse_scenario(text, "tr-1944-sw.toml"))
    g.apply(C("year_start", "axis"))
    assert dip.at_war(diplomacy(g.state), "us", "germany") is us_at_war
    return g


def to_sw(g: Game, player: str) -> None:
    while not (g.phase.name == "strategic_warfare" and g.phase.player == player):
        g.apply(C("end_phase", g.phase.player))


@pytest.mark.parametrize("us_at_war", [True, False])
def test_tr79_uboats_attack_the_us_only_once_it_is_at_war(us_at_war: bool) -> None:
    g = spring_1944(us_at_war)
    to_sw(g, "axis")
    listed = {c.args["target"] for c in g.legal("axis", "sw_uboats")}
    assert "uk" in listed
    if us_at_war:
        assert "us" in listed and g.can(C("sw_uboats", "axis", target="us"))
    else:
        assert "us" not in listed
        assert_rejected(g, C("sw_uboats", "axis", target="us"), "TR-79.*not at war with us")


def test_tr79_no_uboat_war_on_the_uk_without_a_war() -> None:
    """A variant of tr-1944 in which the UK made peace with Germany (no UK-Germany war): the
    U-boats have no target (the US is still at war)."""
    text = load_scenario("tr-1944").text.replace("[third_reich]\n", "[third_reich]\n" + BOXES, 1)
    uk = '  { between = ["uk", "germany"], since = 1, cause = "declaration", by = "uk" },\n'
    assert uk in text
    g = Game(parse_scenario(text.replace(uk, ""), "tr-1944-nouk.toml"))
    g.apply(C("year_start", "axis"))
    assert not at_war_with_germany(g.state, "uk") and at_war_with_germany(g.state, "us")
    to_sw(g, "axis")
    assert {c.args["target"] for c in g.legal("axis", "sw_uboats")} == {"us"}
    assert_rejected(g, C("sw_uboats", "axis", target="uk"), "TR-79.*not at war with uk")


def test_tr79_only_powers_at_war_with_germany_bomb() -> None:
    g = spring_1944(False)
    assert bomber_factors(g.state, "allies") == {"uk": 5}
    g2 = spring_1944(True)
    assert bomber_factors(g2.state, "allies") == {"uk": 5, "us": 3}


def test_tr15_no_murmansk_convoy_before_the_ussr_is_at_war() -> None:
    g = spring_at_war("spring")  # Germany declared war on the USSR in Spring 1940
    assert g.can(C("murmansk_ship", "allies", sender="uk"))
    assert [c for c in g.legal("allies", "murmansk_ship") if c.args["sender"] == "uk"]
    # the same Spring without the declaration
    from .test_system_orders import SCENARIO

    text = load_scenario(SCENARIO).text.replace("[calendar]\nturn = 1", "[calendar]\nturn = 3")
    g2 = Game(parse_scenario(text, "tr-spring.toml"), 4)
    g2.apply(C("year_start", "axis"))
    to_phase(g2, "declare_options", "allies")
    assert not dip.at_war(diplomacy(g2.state), "ussr", "germany")
    assert_rejected(g2, C("murmansk_ship", "allies", sender="uk"), "TR-15")
    assert not g2.legal("allies", "murmansk_ship")


# --- TR-82 reading happy_time: the second happy time follows the US entry ------------------


def test_tr82_happy_time_follows_the_us_entry_by_reading() -> None:
    """The text: "the Spring 1942 turn immediately after US entry". If Germany brings the US
    in earlier by a declaration, reading ``happy_time = us_entry`` (default) makes the turn the
    war began the happy time; ``spring_1942`` keeps the printed date."""
    from grognard.third_reich.strategic.strategic_readings import HappyTimeTurn, WarReadings
    from grognard.third_reich.strategic.sw_boxes import uboat_defense, us_entry_turn

    g = spring_1944(False)  # Spring 1944 (turn 18), the US at peace
    assert us_entry_turn(g.state) is None
    to_phase(g, "declare_options", "axis")
    g.apply(C("declare_war", "axis", power="germany", majors=["us"]))
    turn = int(g.state["turn"])
    assert us_entry_turn(g.state) == turn
    asw, drm = uboat_defense(g.state, "us")
    assert (asw, drm) == (0, 1)  # no ASW opposes, +1 (TR-82)
    printed = WarReadings(happy_time=HappyTimeTurn.SPRING_1942)
    assert us_entry_turn(g.state, printed) is None
    assert uboat_defense(g.state, "us", printed) == (2, 0)  # the US box's 2 ASW, no DRM
    assert uboat_defense(g.state, "uk") == (4, 0)
    g2 = spring_1944(True)  # the US at war since Spring 1942 (turn 13): 1944 is normal
    assert uboat_defense(g2.state, "us") == (2, 0)


def test_tr82_happy_time_reading_reaches_the_round_from_the_scenario() -> None:
    from grognard.third_reich.strategic.strategic_readings import HappyTimeTurn
    from grognard.third_reich.strategic.sw_boxes import war_readings

    g = spring_1944(False)
    assert war_readings(g.context).happy_time is HappyTimeTurn.US_ENTRY
    text = load_scenario("tr-1944").text + '\n[readings]\nhappy_time = "spring_1942"\n'
    g2 = Game(parse_scenario(text, "tr-1944-printed.toml"))
    assert war_readings(g2.context).happy_time is HappyTimeTurn.SPRING_1942
