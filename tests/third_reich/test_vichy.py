"""TR-26 (Vichy France) as a minor of the war: the Vichy zone and the colonies that roll Vichy
are one neutral minor, Vichy France (capital: the city of Vichy); a declaration of war on it
costs a minor's (TR-25), brings it in beside its patron (TR-24: Germany when the Allies attack,
an Allied major when the Axis does), opens its zone, and holding its capital conquers it
(TR-22); conquered Vichy is worth nothing to the conqueror (``vichy_annex_value``, default 0)
and only deprives the other side of its BRPs (TR-26, as a second conquest TR-23)."""

from __future__ import annotations

import re

import pytest

from grognard.core.errors import IllegalOrder
from grognard.engine import Command, Game
from grognard.engine.scenario import load_scenario, parse_scenario
from grognard.third_reich import war
from grognard.third_reich.conquest import diplomacy as dip
from grognard.third_reich.conquest.conquest import conquer, deny, form_vichy, minor_joins
from grognard.third_reich.economy.economy import Economy, new_campaign
from grognard.third_reich.economy.readings import StrategicReadings
from grognard.third_reich.turn.powers import Power

SCENARIO = "tr-1939-campaign"
ZONE_EDGE = "Q23"      # a hex of the map's Vichy zone next to P23
VICHY_HEX = "R23"      # the city of Vichy, Vichy France's capital


def C(kind, player, **args):
    return Command(kind, player, args)


def campaign(readings: str = "") -> Game:
    """The 1939 campaign without the Polish, French and British units on the map, a German
    infantry next to Paris and a German armor at P23 (next to the Vichy zone)."""
    text = load_scenario(SCENARIO).text
    blocks = text.split("[[units]]")
    at = {"ger-inf11": "N24", "ger-arm8": "P23"}
    keep = [b for b in blocks[1:] if not any(f'nationality = "{n}"' in b and "hex = " in b
                                             for n in ("polish", "french", "british"))]
    for uid, h in at.items():
        keep = [re.sub(r'hex = "[A-Z]+[0-9]+"', f'hex = "{h}"', b)
                if f'id = "{uid}"' in b else b for b in keep]
    text = "[[units]]".join([blocks[0], *keep])
    if readings:
        text += f"\n[readings]\n{readings}\n"
    return Game(parse_scenario(text, "vichy.toml"))


def econ(g: Game) -> Economy:
    return Economy.from_json(g.state["economy"])


def end_until(g: Game, turn: int, phase: str, player: str) -> None:
    while not (g.turn == turn and g.phase.name == phase and g.phase.player == player):
        g.apply(C("end_phase", g.phase.player))


def vichy_formed(readings: str = "") -> Game:
    """Paris taken in Fall 1939: Vichy forms at the end of the game turn; the game stands at
    the Axis Declare Options phase of Winter 1939."""
    g = campaign(readings)
    g.apply(C("declare_options", "axis", power="germany", options={"western": "offensive"}))
    end_until(g, 1, "movement", "axis")
    g.apply(C("move", "axis", unit="ger-inf11", path=["N23"]))
    end_until(g, 2, "declare_options", "axis")
    assert g.state["campaign"]["vichy"] is not None
    return g


def vichy_colonies(g: Game) -> list[str]:
    return sorted(c for c, a in g.state["campaign"]["vichy"].items() if a == "vichy")


def free_french(g: Game) -> list[str]:
    return sorted(c for c, a in g.state["campaign"]["vichy"].items() if a == "free_french")


def zone_moves(g: Game, unit: str) -> list[str]:
    zone = set(g.state["campaign"]["areas"]["vichy"])
    return sorted({c.args["to"] for c in g.legal("axis", "move")
                   if c.args.get("unit") == unit and c.args.get("to") in zone})


def test_tr26_vichy_forms_a_neutral_minor_with_the_city_of_vichy_its_capital():
    g = vichy_formed()
    camp = g.state["campaign"]
    assert camp["minors"]["vichy"] == {"capital": "Vichy", "side": None, "status": "neutral"}
    assert camp["capitals"]["vichy"] == "Vichy"
    d = war.diplomacy(g.state)
    assert "vichy" in d.minors and d.patrons["vichy"] == "germany"
    assert "vichy" not in d.aligned and not dip.is_belligerent(d, "vichy")
    # the colonies that rolled Vichy are Vichy France's; the Free French ones the UK's
    assert vichy_colonies(g)  # the seeded rolls give at least one of each here
    assert free_french(g)
    for c in vichy_colonies(g):
        assert dip.belligerent_of(d, c) == "vichy"
    for c in free_french(g):
        assert dip.belligerent_of(d, c) == "uk"
    assert g.state["cities"]["Vichy"]["owner"] == "vichy"
    assert "Vichy" not in g.state["control"]  # neutral: no side holds it


def test_tr26_tr25_vichy_zone_closed_to_both_sides_at_peace():
    g = vichy_formed()
    ctx = g.context
    zone = g.state["campaign"]["areas"]["vichy"]
    m = ctx.scenario.map
    idx = [m.index_of_label(h) for h in zone]
    for power in ("germany", "italy", "uk", "ussr"):
        mask = war.closed_mask(ctx, g.state, power, dip.Action.MOVE)
        assert mask[idx].all(), power
        assert war.refusal(ctx, g.state, power, [VICHY_HEX], dip.Action.ATTACK) is not None
    # occupied France stays open to the Axis (it controls it) and its enemies
    assert war.refusal(ctx, g.state, "germany", ["N23"], dip.Action.MOVE) is None
    assert war.refusal(ctx, g.state, "uk", ["N23"], dip.Action.MOVE) is None
    for act in (dip.Action.SUPPLY, dip.Action.ZOC, dip.Action.SR):  # TR-72, TR-27, TR-68
        assert war.closed_mask(ctx, g.state, "germany", act)[idx].all(), act
    g.apply(C("declare_options", "axis", power="germany", options={"western": "offensive"}))
    end_until(g, 2, "movement", "axis")
    assert zone_moves(g, "ger-arm8") == []  # the legal moves never enter the zone
    with pytest.raises(IllegalOrder, match="TR-25"):
        g.apply(C("move", "axis", unit="ger-arm8", path=[ZONE_EDGE]))


def test_tr25_tr26_german_declaration_costs_a_minors_5_and_vichy_joins_the_allies():
    g = vichy_formed()
    offered = [c.args for c in g.legal("axis", "declare_war")]
    assert {"power": "germany", "minors": ["vichy"]} in offered
    before = econ(g)
    uk_pending = before.balance("uk.pending")
    events = g.apply(C("declare_war", "axis", power="germany", minors=["vichy"]))
    assert [e.type for e in events] == ["war_declared", "minor_activated"]
    assert events[0].data["cost"] == 5  # TR-25: a minor's declaration
    assert events[1].data["side"] == "allies"
    after = econ(g)
    assert after.brp("germany") == before.brp("germany") - 5
    d = war.diplomacy(g.state)
    assert dip.at_war(d, "germany", "vichy") and d.aligned["vichy"] == "uk"
    # TR-24: Vichy joins an Allied major; its 15 and its colonies' 5 each join that base at
    # the next Year Start
    assert after.balance("uk.pending") == uk_pending + 15 + 5 * len(vichy_colonies(g))
    assert after.minor_allies["vichy"] is Power.UK
    # TR-26: the colonies that rolled Vichy follow Vichy into the war
    for c in vichy_colonies(g):
        assert dip.at_war(d, "germany", c)
    assert g.state["control"]["Vichy"] == "allies"
    # a second minor declaration in the same season costs nothing more (TR-25)
    g2 = vichy_formed()
    g2.apply(C("declare_war", "axis", power="germany", minors=["vichy"]))
    ev = g2.apply(C("declare_war", "axis", power="germany", minors=["spain"]))
    assert ev[0].data["cost"] == 0


def test_tr22_tr26_german_units_enter_the_zone_and_conquer_vichy_worth_nothing():
    g = vichy_formed()
    g.apply(C("declare_war", "axis", power="germany", minors=["vichy"]))
    g.apply(C("declare_options", "axis", power="germany", options={"western": "offensive"}))
    end_until(g, 2, "movement", "axis")
    assert ZONE_EDGE in zone_moves(g, "ger-arm8")  # legal now
    ctx = g.context
    zone = [ctx.scenario.map.index_of_label(h) for h in g.state["campaign"]["areas"]["vichy"]]
    assert not war.closed_mask(ctx, g.state, "germany", dip.Action.SUPPLY)[zone].any()
    assert war.closed_mask(ctx, g.state, "ussr", dip.Action.MOVE)[zone].all()  # not at war
    ger_pending = econ(g).balance("germany.pending")
    uk_pending = econ(g).balance("uk.pending")
    g.apply(C("move", "axis", unit="ger-arm8", path=[ZONE_EDGE, VICHY_HEX]))
    assert g.state["control"]["Vichy"] == "axis"
    assert g.state["campaign"]["minors"]["vichy"]["status"] == "at_war"  # not yet: TR-22
    end_until(g, 2, "declare_options", "allies")
    assert g.state["campaign"]["minors"]["vichy"]["status"] == "at_war"
    end_until(g, 3, "year_start", "axis")  # held through the Allied player turn
    camp = g.state["campaign"]
    assert camp["minors"]["vichy"]["status"] == "conquered"
    assert camp["minors"]["vichy"]["side"] == "axis"
    e = econ(g)
    # TR-26: worth nothing to Germany (vichy_annex_value = 0), the UK deprived of Vichy's 15
    # and of its colonies' 5 each
    assert e.balance("germany.pending") == ger_pending
    assert e.balance("uk.pending") == uk_pending - 15 - 5 * len(vichy_colonies(g))
    assert "vichy" in e.spent_territories and "vichy" not in e.minor_allies
    d = war.diplomacy(g.state)
    assert "vichy" in d.out
    # the whole of Vichy France now the conqueror's: its cities, and the zone open to both
    assert g.state["control"]["Lyon"] == "axis"
    for c in vichy_colonies(g):
        assert all(g.state["control"][n] == "axis" for n, f in g.state["cities"].items()
                   if f["country"] == c)
    ctx = g.context
    assert war.refusal(ctx, g.state, "germany", ["T23"], dip.Action.MOVE) is None
    assert war.refusal(ctx, g.state, "uk", ["T23"], dip.Action.MOVE) is None
    idx = [ctx.scenario.map.index_of_label(h) for h in g.state["campaign"]["areas"]["vichy"]]
    assert not war.closed_mask(ctx, g.state, "germany", dip.Action.SUPPLY)[idx].any()


def test_tr26_vichy_annex_value_5_by_reading_after_the_conquest():
    g = vichy_formed(readings="vichy_annex_value = 5")
    assert econ(g).readings.vichy_annex_value == 5
    g.apply(C("declare_war", "axis", power="germany", minors=["vichy"]))
    g.apply(C("declare_options", "axis", power="germany", options={"western": "offensive"}))
    end_until(g, 2, "movement", "axis")
    ger_pending = econ(g).balance("germany.pending")
    g.apply(C("move", "axis", unit="ger-arm8", path=[ZONE_EDGE, VICHY_HEX]))
    end_until(g, 3, "year_start", "axis")
    assert g.state["campaign"]["minors"]["vichy"]["status"] == "conquered"
    assert econ(g).balance("germany.pending") == ger_pending + 5


def test_tr24_tr26_allied_declaration_makes_vichy_an_axis_minor():
    g = vichy_formed()
    end_until(g, 2, "declare_options", "allies")
    offered = [c.args for c in g.legal("allies", "declare_war")]
    assert {"power": "uk", "minors": ["vichy"]} in offered
    ger_pending = econ(g).balance("germany.pending")
    uk_brp = econ(g).brp("uk")
    events = g.apply(C("declare_war", "allies", power="uk", minors=["vichy"]))
    assert events[0].data["cost"] == 5 and econ(g).brp("uk") == uk_brp - 5
    assert events[1].data["side"] == "axis"
    d = war.diplomacy(g.state)
    assert d.aligned["vichy"] == "germany" and dip.side_of(d, "vichy") == "axis"
    assert dip.at_war(d, "uk", "vichy") and not dip.at_war(d, "germany", "vichy")
    for c in vichy_colonies(g):
        assert dip.at_war(d, "uk", c) and dip.belligerent_of(d, c) == "vichy"
    e = econ(g)
    assert e.balance("germany.pending") == ger_pending + 15 + 5 * len(vichy_colonies(g))
    assert e.minor_allies["vichy"] is Power.GERMANY
    assert g.state["control"]["Vichy"] == "axis"
    # the zone is now Germany's ally's: open to the Axis without a war, and to the UK at war
    ctx = g.context
    assert war.refusal(ctx, g.state, "germany", [ZONE_EDGE], dip.Action.MOVE) is None
    assert war.refusal(ctx, g.state, "uk", [ZONE_EDGE], dip.Action.ATTACK) is None
    # the USSR (not at war with Vichy) still may not enter
    assert war.refusal(ctx, g.state, "ussr", [ZONE_EDGE], dip.Action.MOVE) is not None


def test_tr26_vichy_forms_even_when_every_colony_goes_free_french():
    d0 = dip.start({"germany": ["germany"], "uk": ["uk", "egypt"],
                    "france": ["france", "morocco", "syria"]},
                   {"germany": "axis", "uk": "allies", "france": "allies"})
    d0, _ = dip.declare(d0, "germany", ["france", "uk"], 1)
    d, _ = dip.make_peace(d0, "france", 4, dip.Cause.VICHY,
                          {"morocco": "free_french", "syria": "free_french"})
    assert "vichy" in d.minors and d.patrons["vichy"] == "germany"
    assert dip.can_declare(d, "uk", ["vichy"]) is None
    assert dip.declaration_cost(d, "uk", ["vichy"], 4) == 5
    # TR-24: attacked by the Allies it joins Germany, by Germany the UK (at war with it)
    assert dip.patron_for(d, "vichy", "uk") == "germany"
    assert dip.patron_for(d, "vichy", "germany") == "uk"
    # a minor's conquest (TR-22) is no Vichy: no second Vichy minor appears
    d2, _ = dip.make_peace(d, "uk", 6, dip.Cause.CONQUEST)
    assert d2.minors.count("vichy") == 1


def test_tr26_tr23_deny_and_annex_in_the_economy():
    e, _ = form_vichy(new_campaign(), {"morocco": 1, "algeria": 1, "tunisia": 4, "syria": 4})
    e = minor_joins(e, "vichy", "uk", 15)
    e = minor_joins(e, "morocco", "uk")
    uk = e.balance("uk.pending")
    e2, rec = conquer(e, "vichy", "germany")
    assert rec.gained == 0 and rec.lost_by == "uk" and rec.lost == 15 and rec.rule == "TR-26"
    assert e2.balance("uk.pending") == uk - 15
    e3, rec3 = deny(e2, "morocco", "germany")
    assert rec3.gained == 0 and e3.balance("uk.pending") == uk - 20
    assert {"vichy", "morocco"} <= e3.spent_territories
    # the Allies liberating an Axis Vichy gain nothing either; Germany loses it
    e4 = minor_joins(e, "algeria", "germany")
    e4, _ = deny(e4, "algeria", "uk")
    assert e4.balance("germany.pending") == e.balance("germany.pending")
    r5 = Economy(**{**e.__dict__, "readings": StrategicReadings(vichy_annex_value=5)})
    _, rec5 = conquer(r5, "vichy", "uk")
    assert rec5.gained == 0  # the 5 of the earlier text is Germany's annexation only


def test_tr26_a_later_start_with_vichy_formed_has_the_vichy_minor():
    """A later start with ``start_vichy = true`` (tr-1944 without Case Anton): Vichy France is
    the same neutral minor as in a game where it formed in play: its zone closed to both sides
    until a declaration of war, which the Allies may make (5 BRPs) and which brings it in
    beside Germany (TR-24)."""
    text = load_scenario("tr-1944").text
    old = '"greece", "vichy"]'
    assert old in text
    g = Game.new(parse_scenario(text.replace(old, '"greece"]')))
    camp = g.state["campaign"]
    assert camp["minors"]["vichy"] == {"capital": "Vichy", "side": None, "status": "neutral"}
    d = war.diplomacy(g.state)
    assert "vichy" in d.minors and d.patrons["vichy"] == "germany" and "vichy" not in d.aligned
    ctx = g.context
    for power in ("germany", "uk", "us"):
        assert war.refusal(ctx, g.state, power, ["T23"], dip.Action.MOVE) is not None
    while not (g.phase.name == "declare_options" and g.phase.player == "allies"):
        if g.phase.name == "year_start" and g.can(C("year_start", "axis")):
            g.apply(C("year_start", "axis"))
        else:
            g.apply(C("end_phase", g.phase.player))
    assert {"power": "uk", "minors": ["vichy"]} in [c.args for c in
                                                     g.legal("allies", "declare_war")]
    pending = econ(g).balance("germany.pending")
    events = g.apply(C("declare_war", "allies", power="uk", minors=["vichy"]))
    assert events[1].data["side"] == "axis"
    assert econ(g).balance("germany.pending") == pending + 15
    assert war.refusal(ctx, g.state, "uk", ["T23"], dip.Action.MOVE) is None
    assert war.refusal(ctx, g.state, "germany", ["T23"], dip.Action.MOVE) is None


def test_tr26_tr22_tr_1944_starts_with_the_vichy_zone_occupied():
    """tr-1944 starts in Spring 1944: Germany occupied the Vichy zone in November 1942 (Case
    Anton), so Vichy France starts conquered by the Axis (``start_conquered``): its cities are
    the Axis's, German units move there freely, and the Allies, at war with Germany, may land
    and fight there without a declaration on Vichy (which is no longer offered)."""
    g = Game.new("tr-1944")
    camp = g.state["campaign"]
    assert camp["minors"]["vichy"]["status"] == "conquered"
    assert camp["minors"]["vichy"]["side"] == "axis"
    assert g.state["control"].get("Vichy") == "axis"
    assert g.state["control"].get("Marseille") == "axis"
    d = war.diplomacy(g.state)
    assert "vichy" in d.out
    ctx = g.context
    for power in ("germany", "uk", "us"):
        assert war.refusal(ctx, g.state, power, ["T23"], dip.Action.MOVE) is None, power
    while not (g.phase.name == "declare_options" and g.phase.player == "allies"):
        if g.phase.name == "year_start" and g.can(C("year_start", "axis")):
            g.apply(C("year_start", "axis"))
        else:
            g.apply(C("end_phase", g.phase.player))
    assert not [c for c in g.legal("allies", "declare_war") if "vichy" in c.args.get("minors", [])]
