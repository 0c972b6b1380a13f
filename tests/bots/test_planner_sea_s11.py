"""Issue 25, session 11: the 3R planner at sea - a landing (a detachment that gathers in its
ports, waits there for the fleets and invades its beaches, TR-61/TR-62), the fleets' own SR
to its ports (TR-70), the Allies' second front from Britain and the Red Army's drive on Berlin
(TR-04: Berlin is on the western front, TR-03)."""

from __future__ import annotations

from grognard.bots.base import Seat
from grognard.bots.campaign import Campaign, ashore, city_hexes
from grognard.bots.catalog import make_bot
from grognard.bots.planner import parse_params
from grognard.bots.planner_plans import plan_for
from grognard.bots.tr_plans import fleet_sr_plan, landing_plan
from grognard.engine.commands import Command
from grognard.engine.game import Game

#: Spring 1943, Spring 1944 and Fall 1944 (Fall 1939 is turn 1, five turns a year)
SPRING_1943 = 18
SPRING_1944 = 23
FALL_1944 = 26


def _seat_at(side: str, turn: int, control: dict[str, str] | None = None, units=None,
             plan=None, bot: str = "planner"):
    """tr-1939-campaign at ``turn`` (with ``control`` and unit ``changes``), ``bot`` seated as
    ``side`` (with ``plan`` instead of the shipped one); its policy and situation."""
    g = Game.new("tr-1939-campaign", seed=0)
    g.state = {**g.state, "turn": turn}
    if control:
        g.state["control"] = {**g.state["control"], **control}
    for uid, changes in (units or {}).items():
        g.state["units"][uid] = {**g.state["units"][uid], **changes}
    player = make_bot(bot, Seat.of(g, side, 0))
    if plan is not None:
        player.policy.campaign = Campaign(plan, side)
    return g, player.policy, player.policy.situation(g.view(side), g)


def _allies_at(turn: int, control: dict[str, str] | None = None, units=None, plan=None):
    return _seat_at("allies", turn, control, units, plan)


def _landing(**extra):
    stage = {"name": "landing", "start": "Fall 1939", "concurrent": True, "force": 3,
             "reach": 6,
             "ports": ["Portsmouth"], "beaches": ["L23", "L21"], "goals": ["Essen"],
             "front": "western", "powers": ["uk"], **extra}
    return {"allies": {"stages": [stage], "garrisons": {"London": 2}}}


class _Offshore:
    """The rules' invade proposer's candidates, as given (the sea hexes by each beach)."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.pairs = pairs

    def candidates(self, kind: str) -> list[Command]:
        assert kind == "invade"
        return [Command("invade", "allies", {"beach": b, "groups": [
            {"hex": h, "fleets": ["x"], "cargo": {"x": ["y"]}}]}) for b, h in self.pairs]


def test_tr04_the_red_army_drives_on_berlin_from_fall_1944_with_a_western_offensive():
    """TR-04/TR-03: from Fall 1944, Warsaw held, the 14 Soviet units nearest Berlin drive
    on it (a detachment) and the USSR wants the offensive on Berlin's (western) front beside
    its eastern one; before that date, or without Warsaw, no such detachment."""
    for turn, warsaw, on in ((FALL_1944, "allies", True), (FALL_1944 - 1, "allies", False),
                             (FALL_1944, "axis", False)):
        g, pol, sit = _allies_at(turn, {"Warsaw": warsaw})
        berlin = set(city_hexes(g.context.scenario.map, ["Berlin"]).values())
        drive = [u for u, hs in sit.memo("plan.unit_goals", dict).items() if hs == berlin]
        assert (len(drive) == 14) is on, (turn, warsaw)
        assert all(sit.mine[u]["power"] == "ussr" for u in drive)

        both, east = (pol.score(sit, Command("declare_options", "allies",
                                             {"power": "ussr", "options": opts}))
                      for opts in ({"eastern": "offensive", "western": "offensive"},
                                   {"eastern": "offensive", "western": "pass"}))
        assert (both > east) is on


def test_plan_landing_gathers_its_nearest_units_in_its_ports_and_holds_them_there():
    """A landing stage (``ports``): its ``force`` units of its powers nearest the ports go to
    them (``plan.unit_goals``); one standing in its port waits there (``plan.hold``) for the
    fleets; a garrison's units (London's two) are none of them."""
    britain = {"uk-inf82": {"hex": "K22"}, "uk-inf84": {"hex": "J22"},
               "uk-inf85": {"hex": "I22"}, "uk-inf86": {"hex": "J21"}}
    _g, _pol, sit = _allies_at(1, plan=_landing(), units=britain)
    portsmouth = {"K22"}
    crew = sit.memo("plan.unit_goals", dict)
    assert len(crew) == 3 and all(hs == portsmouth for hs in crew.values())
    assert "uk-inf85" not in crew  # the farthest of the four stays
    assert "uk-inf82" in crew and "uk-inf82" in sit.memo("plan.hold", set)
    assert not {"uk-inf80", "uk-inf81"} & set(crew)  # London's garrison stays
    assert all(sit.mine[u]["power"] == "uk" for u in crew)


def test_plan_landing_units_ashore_drive_on_the_goals():
    """A landing's unit across the sea (in France: a country of its beaches and goals) drives
    on its goals, and comes first in the detachment; a unit in Egypt is not ashore."""
    g, _pol, sit = _allies_at(1, plan=_landing(), units={"uk-inf82": {"hex": "L23"}})
    essen = set(city_hexes(g.context.scenario.map, ["Essen"]).values())
    crew = sit.memo("plan.unit_goals", dict)
    assert crew["uk-inf82"] == essen
    shore = {"france", "germany"}  # the beaches' and the goal's countries
    assert ashore(sit, "L23", shore) and not ashore(sit, "K23", shore)
    assert not ashore(sit, "AL43", shore)  # Alexandria: another theatre
    # a unit in Egypt is not the landing's (``reach``: within 6 hexes of its port)
    g, _pol, sit = _allies_at(1, plan=_landing())
    assert not any(sit.mine[u]["hex"].startswith("A") for u in sit.memo("plan.unit_goals",
                                                                         dict))


def test_tr61_landing_plan_carries_one_unit_a_fleet_two_a_sea_hex():
    """TR-61/TR-62: the fleets in the port carry the detachment's units there, one a fleet,
    at most two a sea hex next to the beach (a third unit needs a second sea hex); the whole
    load is tried first, then fewer; the emptier beach first; a garrison's unit in the port
    never embarks."""
    units = {"uk-inf82": {"hex": "K22"}, "uk-inf84": {"hex": "K22"},
             "uk-inf85": {"hex": "K22"}, "uk-nav91": {"hex": "K22"},
             "uk-nav92": {"hex": "K22"}, "fra-inf54": {"hex": "L21"}}
    g, _pol, sit = _allies_at(1, plan=_landing(), units=units)
    sit._memo["plan.unit_goals"] = {u: {"K22"} for u in ("uk-inf82", "uk-inf84", "uk-inf85")}
    stage = _landing()["allies"]["stages"][0]
    # France's unit on L21 counts as an enemy there for the test (the beaches' order)
    sit.others.append({**g.state["units"]["fra-inf54"], "side": "axis"})
    got = landing_plan(sit, _Offshore([("L23", "L22"), ("L21", "L22"), ("L23", "K24")]),
                       [stage])
    cmds = [c for _s, c in sorted(got, key=lambda sc: -sc[0])]
    first = cmds[0]
    assert first.kind == "invade" and first.args["beach"] == "L23"  # empty beach first
    groups = first.args["groups"]
    fleets = [f for g_ in groups for f in g_["fleets"]]
    assert sorted(fleets) == ["uk-nav90", "uk-nav91", "uk-nav92"]
    assert all(len(g_["fleets"]) <= 2 and all(len(v) == 1 for v in g_["cargo"].values())
               for g_ in groups)
    landed = sorted(u for g_ in groups for v in g_["cargo"].values() for u in v)
    assert landed == ["uk-inf82", "uk-inf84", "uk-inf85"]
    sizes = [sum(len(v) for g_ in c.args["groups"] for v in g_["cargo"].values())
             for c in cmds if c.args["beach"] == "L23"]
    assert sizes == [3, 2, 1]
    assert any(c.args["beach"] == "L21" for c in cmds)
    # no unit of the detachment in the port: no landing
    sit._memo["plan.unit_goals"] = {}
    assert landing_plan(sit, _Offshore([("L23", "L22")]), [stage]) == []


def test_tr70_fleets_sail_to_the_landings_ports_up_to_its_number():
    """TR-70: the landing's ``fleets`` (here 3): Portsmouth has one, so the two of its
    powers' fleets nearest it sail there; ``fleets`` 0 sails none."""
    _g, _pol, sit = _allies_at(1, plan=_landing())
    stage = _landing(fleets=3)["allies"]["stages"][0]
    got = fleet_sr_plan(sit, [stage])
    assert len(got) == 2
    assert all(c.kind == "sr" and c.args["kind"] == "fleet" and c.args["to"] == "K22"
               for _s, c in got)
    sailing = {c.args["unit"] for _s, c in got}
    assert sailing == {"uk-nav91", "uk-nav92"}  # Glasgow and Liverpool, not Malta
    assert fleet_sr_plan(sit, [_landing()["allies"]["stages"][0]]) == []


def test_second_front_and_berlin_dates_are_study_parameters():
    """``planner@berlin_year=1945@second_front_year=1944@malta_year=1942``: the sea and
    late stages move (each to the Spring of its year)."""
    params = parse_params("berlin_year=1945@second_front_year=1944@malta_year=1942")
    plan = plan_for("tr-1939-campaign", params)
    assert plan["berlin"] == "Spring 1945" and plan["second_front"] == "Spring 1944"
    assert plan["malta"] == "Spring 1942"
    assert plan_for("tr-1939-campaign", {})["berlin"] != "Spring 1945"


#: Spring 1941
SPRING_1941 = 8


def _axis_at(turn: int, control: dict[str, str] | None = None, units=None,
             bot: str = "planner"):
    return _seat_at("axis", turn, control, units, bot=bot)


MALTA = "planner@malta_year=1941"


def test_tr61_germany_lands_on_malta_from_taranto_in_1941():
    """TR-61/TR-04: with ``malta_year=1941`` (the shipped plan has no German Malta landing:
    since session 13 Italy's, which this one replaces), from
    Spring 1941 two German units go to Taranto for Malta (none before, none once Malta is
    held, none from Spring 1942: the stage's ``end``); the two German fleets nearest sail to
    Taranto (TR-70; Italy's fleet there is not counted)."""
    _g, pol, sit = _axis_at(SPRING_1941, bot="planner@italy_malta=1")
    assert [s["name"] for s in pol._landings(sit)] == ["italy_malta"]
    _g, pol, sit = _axis_at(SPRING_1941)  # Italy's landing is off in the shipped plan
    assert pol._landings(sit) == []
    g, pol, sit = _axis_at(SPRING_1941, bot=MALTA)
    taranto = set(city_hexes(g.context.scenario.map, ["Taranto"]).values())
    crew = [u for u, hs in sit.memo("plan.unit_goals", dict).items() if hs == taranto]
    assert len(crew) == 2 and all(sit.mine[u]["power"] == "germany" for u in crew)
    names = [s["name"] for s in pol._landings(sit)]
    assert names == ["malta"]
    sails = fleet_sr_plan(sit, pol._landings(sit))
    assert len(sails) == 2 and {sit.mine[c.args["unit"]]["power"] for _s, c in sails} == \
        {"germany"} and all(c.args["to"] in taranto for _s, c in sails)
    _g, pol, sit = _axis_at(SPRING_1941 - 1, bot=MALTA)
    assert pol._landings(sit) == []
    _g, pol, sit = _axis_at(SPRING_1941, {"Malta": "axis"}, bot=MALTA)
    assert pol._landings(sit) == []
    _g, pol, sit = _axis_at(SPRING_1941 + 4, bot=MALTA)
    assert [s["name"] for s in pol._landings(sit)] == ["malta"]
    _g, pol, sit = _axis_at(SPRING_1941 + 5, bot=MALTA)
    assert pol._landings(sit) == []


def test_plan_berlin_guard_stays_by_berlin_while_it_is_held():
    """A standing detachment (``standing`` with ``force``): from Winter 1943 the eight German
    units nearest Berlin are drawn to it although it is held (a guard; without ``standing`` a
    held goal closes a stage), and Berlin held is no objective for the rest of the army."""
    won = dict.fromkeys(("Paris", "Copenhagen", "Oslo", "Stockholm"), "axis")
    in_berlin = {"ger-inf7": {"hex": "L31"}}  # (no other detachment takes the units)
    g, _pol, sit = _axis_at(SPRING_1944 - 1, won, in_berlin)
    berlin = set(city_hexes(g.context.scenario.map, ["Berlin"]).values())
    guard = [u for u, hs in sit.memo("plan.unit_goals", dict).items() if hs == berlin]
    assert len(guard) == 8 and all(sit.mine[u]["power"] == "germany" for u in guard)
    assert not berlin & set(sit.objectives)
    # (Poland's set-up army, 2 hexes off, would sound Berlin's alarm: session 13's ``near``)
    poles = {u: {"hex": None} for u, x in g.state["units"].items() if x["power"] == "poland"}
    _g, _pol, sit = _axis_at(SPRING_1944 - 2, won, {**in_berlin, **poles})
    assert not [u for u, hs in sit.memo("plan.unit_goals", dict).items() if hs == berlin]


#: Fall 1940
FALL_1940 = 6


def test_tr61_iberia_by_sea_from_brest_once_france_has_fallen():
    """TR-61/TR-25: from Fall 1940, Paris and Brest held, six German infantry (3 attack
    factors at most: what one fleet carries; no armor) go to Brest for Lisbon, Madrid and
    Barcelona, three German fleets sail there (TR-70; the fleets there take no room of the
    units that embark: ``plan.ports``), and Germany declares war on Spain and Portugal - not
    while Paris stands."""
    fallen = {"Paris": "axis", "Brest": "axis"}
    g, pol, sit = _axis_at(FALL_1940, fallen)
    brest = set(city_hexes(g.context.scenario.map, ["Brest"]).values())
    crew = [u for u, hs in sit.memo("plan.unit_goals", dict).items() if hs == brest]
    assert len(crew) == 6
    assert all(sit.mine[u]["type"] == "infantry" and sit.mine[u]["attack"] <= 3 for u in crew)
    assert sit.memo("plan.ports", set) >= brest
    assert "iberia" in [s["name"] for s in pol._landings(sit)]
    sails = fleet_sr_plan(sit, [s for s in pol._landings(sit) if s["name"] == "iberia"])
    # both German fleets on the map at set-up (the third is built later)
    assert len(sails) == 2 and all(c.args["to"] in brest for _s, c in sails)

    def war(pol, sit, minor):
        return pol.score(sit, Command("declare_war", "axis", {"power": "germany",
                                                              "minors": [minor]}))
    assert war(pol, sit, "spain") > 0 and war(pol, sit, "portugal") > 0
    _g, pol, sit = _axis_at(FALL_1940, {"Brest": "axis"})
    assert war(pol, sit, "spain") < 0
    assert not [u for u, hs in sit.memo("plan.unit_goals", dict).items() if hs == brest]
